//! Rumis commands: terminal play, scripting, bench. (Being written for issue 2.)

mod play;

use clap::{Args, Subcommand};

pub use play::{play, PlayArgs};

#[derive(Args)]
pub struct BenchArgs {}

#[derive(Subcommand)]
pub enum RumisCommand {}

pub fn bench(_args: BenchArgs) -> anyhow::Result<()> {
    anyhow::bail!("Rumis bench is not built yet")
}

pub fn run(command: RumisCommand) -> anyhow::Result<()> {
    match command {}
}
