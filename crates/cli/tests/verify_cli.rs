//! `rumi verify`: a finished game's replay checks against the commitment its table
//! published at creation; a replay whose seed, salt or actions were changed does not.

mod common;

use common::{rumi_status, serve};
use serde_json::{json, Value};

fn check(replay: &Value) -> (String, String, Option<i32>) {
    check_with(replay, &[])
}

/// `rumi verify` with more arguments before the file (`--commitment HEX`).
fn check_with(replay: &Value, flags: &[&str]) -> (String, String, Option<i32>) {
    let dir = std::env::temp_dir().join(format!("rumi-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // One file per document: the checks of one test may run at once.
    let file = dir.join(format!("replay-{:x}.json", fingerprint(replay)));
    std::fs::write(&file, replay.to_string()).unwrap();
    let mut args = vec!["verify"];
    args.extend_from_slice(flags);
    args.push(file.to_str().unwrap());
    rumi_status(&args, "")
}

fn fingerprint(replay: &Value) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    replay.to_string().hash(&mut hasher);
    hasher.finish()
}

#[test]
fn a_finished_games_deal_is_the_committed_one() {
    let dir = std::env::temp_dir().join(format!("rumi-verify-db-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("rumi.db");
    let _ = std::fs::remove_file(&file);
    let served = serve(&format!("sqlite://{}", file.display()));
    // Bots only and no seed: the server draws the deal and commits to it.
    let created = served
        .post(
            "/api/tables",
            json!({"game": "rummikub", "rummikub": {"turn_seconds": null},
                "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]}),
        )
        .unwrap();
    assert!(created["practice_seed"].is_null());
    let id = created["id"].as_str().unwrap();
    served.wait_for(&format!("/api/tables/{id}"), |v| v["over"] == true);
    let replay = served.get(&format!("/api/tables/{id}/replay"));
    assert_eq!(replay["fairness"]["commitment"], created["commitment"]);

    let (out, err, code) = check(&replay);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("matches seed"), "{out}");
    assert!(
        out.contains("replay from the seed to the same result"),
        "{out}"
    );

    // Another salt: the commitment does not match.
    let mut forged = replay.clone();
    forged["fairness"]["salt"] = json!("00".repeat(16));
    let (_, err, code) = check(&forged);
    assert_eq!(code, Some(1));
    assert!(err.contains("do not match the commitment"), "{err}");
    // Another seed with a matching commitment is still a different deal: its actions
    // do not replay, or not to the same result.
    let mut other_deal = replay.clone();
    let salt = "ab".repeat(16);
    other_deal["fairness"]["seed"] = json!(12345);
    other_deal["fairness"]["salt"] = json!(salt);
    other_deal["fairness"]["commitment"] = json!(server::fairness::commitment(12345, &salt));
    let (_, err, code) = check(&other_deal);
    assert_eq!(code, Some(1), "{err}");
    // A game still being played reveals nothing to check.
    let mut unfinished = replay.clone();
    unfinished["fairness"]["seed"] = Value::Null;
    let (_, err, code) = check(&unfinished);
    assert_eq!(code, Some(1));
    assert!(err.contains("reveals no seed"), "{err}");
}

/// A finished game of two bots on a fresh server: the table as created, and its replay.
fn finished_game(name: &str, body: Value) -> (Value, Value) {
    let dir = std::env::temp_dir().join(format!("rumi-verify-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("rumi.db");
    let _ = std::fs::remove_file(&file);
    let served = serve(&format!("sqlite://{}", file.display()));
    let created = served.post("/api/tables", body).unwrap();
    let id = created["id"].as_str().unwrap();
    served.wait_for(&format!("/api/tables/{id}"), |v| v["over"] == true);
    let replay = served.get(&format!("/api/tables/{id}/replay"));
    (created, replay)
}

/// Refused, with a message that contains each of `says`.
fn refused(replay: &Value, flags: &[&str], says: &[&str]) {
    let (out, err, code) = check_with(replay, flags);
    assert_eq!(code, Some(1), "accepted: {out}{err}");
    for part in says {
        assert!(
            err.contains(part),
            "the refusal does not say {part:?}: {err}"
        );
    }
}

#[test]
fn every_part_of_a_replay_must_be_what_its_actions_give() {
    // A clock: every step's deadline follows from its action's time.
    let (created, replay) = finished_game(
        "forged",
        json!({"game": "rummikub", "rummikub": {"turn_seconds": 60},
            "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]}),
    );
    let commitment = created["commitment"].as_str().unwrap();
    let (out, err, code) = check_with(&replay, &["--commitment", commitment]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("every one of the"), "{out}");
    assert!(!out.contains("pass --commitment"), "{out}");
    let steps = replay["steps"].as_array().unwrap().len();
    let last = steps - 1;

    // Another winner's text.
    let mut forged = replay.clone();
    forged["result"]["text"] = json!("Mallory wins");
    refused(&forged, &[], &["result differs", "Mallory wins"]);
    // The same in the last step only.
    let mut forged = replay.clone();
    forged["steps"][last]["result"]["text"] = json!("Mallory wins");
    refused(
        &forged,
        &[],
        &[
            &format!("steps[{last}].result.text differs"),
            "Mallory wins",
        ],
    );
    // Other scores.
    let mut forged = replay.clone();
    forged["result"]["scores"][0] = json!(999);
    refused(&forged, &[], &["result differs", "999"]);
    // A step cut out.
    let mut forged = replay.clone();
    forged["steps"].as_array_mut().unwrap().remove(steps / 2);
    refused(
        &forged,
        &[],
        &[
            &format!("has {} steps", steps - 1),
            &format!("give {steps}"),
        ],
    );
    // The last action and its step cut: the game would not be over.
    let mut forged = replay.clone();
    forged["steps"].as_array_mut().unwrap().pop();
    forged["actions"].as_array_mut().unwrap().pop();
    refused(&forged, &[], &["result differs", "no result"]);
    // An action's time moved: its step's deadline no longer follows.
    let mut forged = replay.clone();
    let at = forged["actions"][2]["at_ms"].as_i64().unwrap();
    forged["actions"][2]["at_ms"] = json!(at + 1);
    refused(&forged, &[], &["steps[3].deadline_ms differs"]);
    // A step's deadline moved.
    let mut forged = replay.clone();
    let deadline = forged["steps"][3]["deadline_ms"].as_i64().unwrap();
    forged["steps"][3]["deadline_ms"] = json!(deadline + 5000);
    refused(&forged, &[], &["steps[3].deadline_ms differs"]);
    // Times that go back.
    let mut forged = replay.clone();
    forged["actions"][3]["at_ms"] = json!(at - 10_000);
    refused(
        &forged,
        &[],
        &["action 4 was played at", "times were changed"],
    );
    // A renumbered log.
    let mut forged = replay.clone();
    forged["actions"][1]["version"] = json!(7);
    refused(&forged, &[], &["action 2 has version 7"]);
    // Not the commitment the player saw.
    refused(
        &replay,
        &["--commitment", &"ab".repeat(32)],
        &["is not the one you saw"],
    );
}

#[test]
fn a_consistently_forged_deal_is_caught_by_the_commitment_the_player_saw() {
    let (created, replay) = finished_game(
        "rumis",
        json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
            "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]}),
    );
    let commitment = created["commitment"].as_str().unwrap();
    let (out, err, code) = check_with(&replay, &["--commitment", &commitment.to_uppercase()]);
    assert_eq!(code, Some(0), "{out}{err}");
    // Another seed, salt and commitment, everywhere in the document: the Rumis deal
    // does not depend on the seed, so the moves replay alike …
    let salt = "cd".repeat(16);
    let forged_commitment = server::fairness::commitment(4242, &salt);
    let mut forged = replay.clone();
    forged["fairness"]["seed"] = json!(4242);
    forged["fairness"]["salt"] = json!(salt);
    forged["fairness"]["commitment"] = json!(forged_commitment);
    let seed = replay["fairness"]["seed"].as_u64().unwrap();
    let record = replay["record"].as_str().unwrap();
    assert!(record.contains(&format!("seed: {seed}\n")), "{record}");
    forged["record"] = json!(record.replace(&format!("seed: {seed}\n"), "seed: 4242\n"));
    for step in forged["steps"].as_array_mut().unwrap() {
        step["fairness"]["commitment"] = json!(forged_commitment);
        if !step["fairness"]["seed"].is_null() {
            step["fairness"]["seed"] = json!(4242);
            step["fairness"]["salt"] = json!(salt);
        }
    }
    // … and only the replay's own commitment can be checked: verify says so.
    let (out, err, code) = check(&forged);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("pass --commitment"), "{out}");
    // The commitment the player saw at the table catches it.
    refused(
        &forged,
        &["--commitment", commitment],
        &["is not the one you saw", commitment],
    );
    // Forged in the summary only: the steps give it away.
    let mut half = replay.clone();
    half["fairness"] = forged["fairness"].clone();
    half["record"] = forged["record"].clone();
    refused(&half, &[], &["steps[0].fairness.commitment differs"]);
    // The record's seed alone changed: the record differs, and where is said.
    let mut record = replay.clone();
    record["record"] = forged["record"].clone();
    refused(&record, &[], &["the record differs at line", "seed: 4242"]);
}

/// Every Rumis action of a replay in the form written before actions named their kind
/// (`{"move": …}`, issue 57), wherever it appears.
fn untyped(value: &mut Value) {
    match value {
        Value::Object(object) => {
            if object.get("type").and_then(Value::as_str) == Some("rumis_move") {
                object.remove("type");
            }
            object.values_mut().for_each(untyped);
        }
        Value::Array(items) => items.iter_mut().for_each(untyped),
        _ => {}
    }
}

/// A Rumis replay downloaded before every action named its kind still verifies.
#[test]
fn a_rumis_replay_downloaded_before_actions_named_their_kind_still_verifies() {
    let (created, replay) = finished_game(
        "untyped",
        json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2},
            "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]}),
    );
    let mut old = replay.clone();
    untyped(&mut old);
    assert_ne!(old, replay, "the replay holds Rumis moves");
    assert!(
        old["actions"][0]["action"].get("type").is_none(),
        "{}",
        old["actions"][0]
    );
    let commitment = created["commitment"].as_str().unwrap();
    let (out, err, code) = check_with(&old, &["--commitment", commitment]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("replay from the seed to the same result"),
        "{out}"
    );
}
