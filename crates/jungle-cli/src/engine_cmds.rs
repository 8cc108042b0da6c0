//! Placeholder: replaced by the owner of this subsystem.

use std::process::ExitCode;

/// Arguments (none yet).
#[derive(clap::Args)]
pub struct EngineArgs {}

/// Arguments (none yet).
#[derive(clap::Args)]
pub struct BenchArgs {}

/// Arguments (none yet).
#[derive(clap::Args)]
pub struct MatchArgs {}

/// Not built yet.
pub fn engine(_a: EngineArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not built yet")
}

/// Not built yet.
pub fn bench(_a: BenchArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not built yet")
}

/// Not built yet.
pub fn run_match(_a: MatchArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not built yet")
}
