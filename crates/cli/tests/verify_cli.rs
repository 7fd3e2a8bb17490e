//! `rumi verify`: a finished game's replay checks against the commitment its table
//! published at creation; a replay whose seed, salt or actions were changed does not.

mod common;

use common::{rumi_status, serve};
use serde_json::{json, Value};

fn check(replay: &Value) -> (String, String, Option<i32>) {
    let dir = std::env::temp_dir().join(format!("rumi-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // One file per document: the checks of one test may run at once.
    let file = dir.join(format!("replay-{:x}.json", fingerprint(replay)));
    std::fs::write(&file, replay.to_string()).unwrap();
    rumi_status(&["verify", file.to_str().unwrap()], "")
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
