//! `rumi verify REPLAY.json`: checks a finished game from the server against the
//! commitment published when its table was created. The replay
//! (`GET /api/tables/{id}/replay`) reveals the seed and the secret salt; this command
//! checks that they hash to the commitment (and, with `--commitment`, that this is
//! the commitment the player saw at the table), then deals the game again from that
//! seed, replays every action and builds the whole replay again: every step's view,
//! the times, the scores, the result and its text, and the record must be the ones
//! the actions give. Whatever differs is named.

use std::path::PathBuf;

use anyhow::{bail, Context};
use serde_json::Value;
use server::wire::ReplayAnswer;

#[derive(clap::Args)]
pub struct VerifyArgs {
    /// The replay document of a finished table (`-` reads standard input), as the
    /// server answers `GET /api/tables/{id}/replay`.
    replay: PathBuf,
    /// The commitment you saw at the table while it was played (hex): the replay
    /// must be of that deal. Without it, only the replay's own commitment is checked.
    #[arg(long, value_name = "HEX")]
    commitment: Option<String>,
}

pub fn verify(args: VerifyArgs) -> anyhow::Result<()> {
    let text = if args.replay.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin()).context("cannot read standard input")?
    } else {
        std::fs::read_to_string(&args.replay)
            .with_context(|| format!("cannot read {}", args.replay.display()))?
    };
    let not_a_replay = || format!("{} is not a rumi replay", args.replay.display());
    let mut replay: Value = serde_json::from_str(&text).with_context(not_a_replay)?;
    name_untyped_rumis_actions(&mut replay);
    let replay: ReplayAnswer = serde_json::from_value(replay).with_context(not_a_replay)?;
    let fairness = &replay.fairness;
    let (Some(seed), Some(salt)) = (fairness.seed, fairness.salt.as_deref()) else {
        bail!("the replay reveals no seed and salt: is the game over?");
    };
    if let Some(seen) = &args.commitment {
        let seen = seen.trim().to_ascii_lowercase();
        if seen != fairness.commitment.to_ascii_lowercase() {
            bail!(
                "the replay's commitment {} is not the one you saw ({seen}): this is not the deal you played",
                fairness.commitment
            );
        }
    }
    if !server::fairness::verify(&fairness.commitment, seed, salt) {
        bail!(
            "the revealed seed {seed} and salt do not match the commitment {}: the deal is not the one committed to",
            fairness.commitment
        );
    }
    println!("commitment {} matches seed {seed}", fairness.commitment);
    if args.commitment.is_none() {
        println!(
            "note: compare this commitment with the one the table showed while you played (or pass --commitment)"
        );
    }
    if let Some(practice) = fairness.practice_seed {
        println!("note: a practice table; its creator chose the seed {practice}");
    }
    check_log(&replay)?;
    let mut replay = replay;
    for step in &mut replay.steps {
        // Who was connected or away when the replay was made is not the game's (older
        // servers put the moment's state there): not compared.
        for seat in &mut step.seats {
            seat.connected = false;
            seat.away_since_ms = None;
            seat.handover_ms = None;
        }
    }
    let rebuilt = server::hub::rebuild_replay(&replay)
        .map_err(|e| anyhow::anyhow!("the game does not replay from its seed: {e:#}"))?;
    compare(&replay, &rebuilt)?;
    println!(
        "{} actions replay from the seed to the same result{}, and every one of the {} steps matches",
        replay.actions.len(),
        replay
            .result
            .as_ref()
            .map(|r| format!(": {}", r.text))
            .unwrap_or_default(),
        replay.steps.len()
    );
    Ok(())
}

/// The action log: versions 1, 2, … in order, times that never go back.
/// Replays downloaded before every action named its kind (issue 57) hold Rumis actions
/// as `{"move": …}` or `{"stone": …, "cells": …}`: they are read as `rumis_move` and
/// `rumis_place`, as the server's migration 0009 rewrote its own log.
fn name_untyped_rumis_actions(value: &mut Value) {
    match value {
        Value::Object(object) => {
            let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
            keys.sort_unstable();
            let kind = match keys.as_slice() {
                ["move"] => Some("rumis_move"),
                ["cells", "stone"] => Some("rumis_place"),
                _ => None,
            };
            if let Some(kind) = kind {
                object.insert("type".into(), Value::from(kind));
            } else {
                object.values_mut().for_each(name_untyped_rumis_actions);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(name_untyped_rumis_actions),
        _ => {}
    }
}

fn check_log(replay: &ReplayAnswer) -> anyhow::Result<()> {
    for (index, action) in replay.actions.iter().enumerate() {
        if action.version != index as u64 + 1 {
            bail!(
                "action {} has version {}: the log is cut or reordered",
                index + 1,
                action.version
            );
        }
        if index > 0 && action.at_ms < replay.actions[index - 1].at_ms {
            bail!(
                "action {} was played at {} ms, before action {} ({} ms): the times were changed",
                index + 1,
                action.at_ms,
                index,
                replay.actions[index - 1].at_ms
            );
        }
    }
    Ok(())
}

/// Compares the replay with the one its actions give: the result, the step count and
/// the record by name, then every field of the documents.
fn compare(given: &ReplayAnswer, rebuilt: &ReplayAnswer) -> anyhow::Result<()> {
    let result = |r: &ReplayAnswer| {
        r.result
            .as_ref()
            .map(|r| {
                format!(
                    "\"{}\" (winners {:?}, scores {:?})",
                    r.text, r.winners, r.scores
                )
            })
            .unwrap_or_else(|| "no result".into())
    };
    let (claimed, replayed) = (result(given), result(rebuilt));
    if claimed != replayed {
        bail!("the result differs: the replay says {claimed}, its actions give {replayed}");
    }
    if given.steps.len() != rebuilt.steps.len() {
        bail!(
            "the replay has {} steps, but its {} actions give {}: steps were cut or added",
            given.steps.len(),
            given.actions.len(),
            rebuilt.steps.len()
        );
    }
    if given.record.trim() != rebuilt.record.trim() {
        let (a, b) = (given.record.trim(), rebuilt.record.trim());
        let lines = a.lines().count().max(b.lines().count());
        let (line, claimed, replayed) = a
            .lines()
            .map(Some)
            .chain(std::iter::repeat(None))
            .zip(b.lines().map(Some).chain(std::iter::repeat(None)))
            .take(lines)
            .enumerate()
            .find(|(_, (x, y))| x != y)
            .map(|(i, (x, y))| (i + 1, x.unwrap_or("(nothing)"), y.unwrap_or("(nothing)")))
            .unwrap_or((0, "(line endings)", "(line endings)"));
        bail!(
            "the record differs at line {line}: the replay says `{claimed}`, its actions give `{replayed}`"
        );
    }
    let given = serde_json::to_value(given)?;
    let rebuilt = serde_json::to_value(rebuilt)?;
    if let Some((path, claimed, replayed)) = first_difference("", &given, &rebuilt) {
        bail!("{path} differs: the replay says {claimed}, its actions give {replayed}");
    }
    Ok(())
}

/// The first place where two documents differ: its path and both values (shortened).
fn first_difference(path: &str, a: &Value, b: &Value) -> Option<(String, String, String)> {
    let short = |v: Option<&Value>| {
        let text = v.map_or("nothing".to_string(), Value::to_string);
        if text.chars().count() > 80 {
            format!("{}…", text.chars().take(80).collect::<String>())
        } else {
            text
        }
    };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter().find_map(|k| {
                let here = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => first_difference(&here, p, q),
                    (p, q) => Some((here, short(p), short(q))),
                }
            })
        }
        (Value::Array(x), Value::Array(y)) => {
            let found = x
                .iter()
                .zip(y)
                .enumerate()
                .find_map(|(i, (p, q))| first_difference(&format!("{path}[{i}]"), p, q));
            found.or_else(|| {
                (x.len() != y.len()).then(|| {
                    (
                        format!("{path} (length)"),
                        x.len().to_string(),
                        y.len().to_string(),
                    )
                })
            })
        }
        _ if a == b => None,
        _ => Some((path.to_string(), short(Some(a)), short(Some(b)))),
    }
}
