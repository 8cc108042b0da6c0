//! Placeholder: replaced by the owner of this subsystem.

use std::process::ExitCode;

/// Arguments (none yet).
#[derive(clap::Args)]
pub struct PlayArgs {}

/// Not built yet.
pub fn play(_a: PlayArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not built yet")
}
