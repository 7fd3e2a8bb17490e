//! `rumi verify REPLAY.json`: checks a finished game from the server against the
//! commitment published when its table was created. The replay
//! (`GET /api/tables/{id}/replay`) reveals the seed and the secret salt; this command
//! checks that they hash to the commitment every player saw from the start, then
//! deals the game again from that seed and replays every action, so that the deal,
//! the result and the record are the ones the seed gives.

use std::path::PathBuf;

use anyhow::{bail, Context};
use server::wire::ReplayAnswer;

#[derive(clap::Args)]
pub struct VerifyArgs {
    /// The replay document of a finished table (`-` reads standard input), as the
    /// server answers `GET /api/tables/{id}/replay`.
    replay: PathBuf,
}

pub fn verify(args: VerifyArgs) -> anyhow::Result<()> {
    let text = if args.replay.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin()).context("cannot read standard input")?
    } else {
        std::fs::read_to_string(&args.replay)
            .with_context(|| format!("cannot read {}", args.replay.display()))?
    };
    let replay: ReplayAnswer = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a rumi replay", args.replay.display()))?;
    let fairness = &replay.fairness;
    let (Some(seed), Some(salt)) = (fairness.seed, fairness.salt.as_deref()) else {
        bail!("the replay reveals no seed and salt: is the game over?");
    };
    if !server::fairness::verify(&fairness.commitment, seed, salt) {
        bail!(
            "the revealed seed {seed} and salt do not match the commitment {}: the deal is not the one committed to",
            fairness.commitment
        );
    }
    println!("commitment {} matches seed {seed}", fairness.commitment);
    if let Some(practice) = fairness.practice_seed {
        println!("note: a practice table; its creator chose the seed {practice}");
    }
    let actions: Vec<(Option<usize>, serde_json::Value)> = replay
        .actions
        .iter()
        .map(|a| (a.actor, a.action.clone()))
        .collect();
    let (result, record) = server::hub::replay_game(&replay.settings, seed, &actions)
        .map_err(|e| anyhow::anyhow!("the game does not replay from its seed: {e}"))?;
    let claimed = replay.result.as_ref().map(|r| (&r.winners, &r.scores));
    let replayed = result.as_ref().map(|r| (&r.winners, &r.scores));
    if claimed != replayed {
        bail!("the replayed result {replayed:?} differs from the server's {claimed:?}");
    }
    if record.trim() != replay.record.trim() {
        bail!("the replayed record differs from the server's record");
    }
    println!(
        "{} actions replay from the seed to the same result{}",
        actions.len(),
        replay
            .result
            .as_ref()
            .map(|r| format!(": {}", r.text))
            .unwrap_or_default()
    );
    Ok(())
}
