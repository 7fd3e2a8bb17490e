//! `rumi play rumis`: terminal play. (Being written.)

use clap::Args;

#[derive(Args)]
pub struct PlayArgs {}

pub fn play(_args: PlayArgs) -> anyhow::Result<()> {
    anyhow::bail!("Rumis terminal play is not built yet")
}
