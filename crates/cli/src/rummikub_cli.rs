//! Rummikub commands: terminal play and scripting. (Being written for issue 3.)

use clap::{Args, Subcommand};

#[derive(Args)]
pub struct PlayArgs {}

#[derive(Subcommand)]
pub enum RummikubCommand {}

pub fn play(_args: PlayArgs) -> anyhow::Result<()> {
    anyhow::bail!("Rummikub terminal play is not built yet")
}

pub fn run(command: RummikubCommand) -> anyhow::Result<()> {
    match command {}
}
