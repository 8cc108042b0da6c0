//! Placeholder: replaced by the owner of this subsystem.

use std::process::ExitCode;

/// Arguments (none yet).
#[derive(clap::Args)]
pub struct ServeArgs {}

/// Arguments (none yet).
#[derive(clap::Args)]
pub struct LoadtestArgs {}

/// Not built yet.
pub fn serve(_a: ServeArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not built yet")
}

/// Not built yet.
pub fn loadtest(_a: LoadtestArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not built yet")
}
