//! Rumis commands: terminal play, scripting, bench. (Being written for issue 2.)

use clap::{Args, Subcommand};

#[derive(Args)]
pub struct PlayArgs {}

#[derive(Args)]
pub struct BenchArgs {}

#[derive(Subcommand)]
pub enum RumisCommand {}

pub fn play(_args: PlayArgs) -> anyhow::Result<()> {
    anyhow::bail!("Rumis terminal play is not built yet")
}

pub fn bench(_args: BenchArgs) -> anyhow::Result<()> {
    anyhow::bail!("Rumis bench is not built yet")
}

pub fn run(command: RumisCommand) -> anyhow::Result<()> {
    match command {}
}
