//! The built `rumi` binary playing Rumis with piped input: a short human-against-greedy
//! session, a whole bot game saved and replayed, and the errors a user can run into.

use std::path::PathBuf;
mod common;
use common::rumi;

fn temp_file(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("rumi-play-it-{}-{name}", std::process::id()))
}

#[test]
fn a_short_piped_session_against_greedy() {
    let (out, err, ok) = rumi(
        &[
            "play",
            "rumis",
            "--scenario",
            "chullpa",
            "--players",
            "2",
            "--seats",
            "human,greedy",
            "--seed",
            "4",
        ],
        "O4 a1 b1 a2 b2\nI4 a5 b5 c5\nboard\nquit\n",
    );
    assert!(ok, "{err}");
    assert!(out.contains("Rumis on Chullpa (chullpa, tower), 2 players, variant standard, seed 4"));
    assert!(out.contains("board: sourced"));
    // Piped output is plain: no ANSI colours.
    assert!(!out.contains('\x1b'));
    assert!(out.contains(
        "red > O4 a1 b1 a2 b2\nmove 1: red (player 1 (red, human)) plays O4 a1:1 b1:1 a2:1 b2:1"
    ));
    assert!(out.contains("move 2: blue (player 2 (blue, greedy)) plays"));
    // Three cells for a four-cube stone: refused with the engine's reason.
    assert!(out.contains("red > I4 a5 b5 c5\nnot played: I4 has 4 cubes, but 3 cells were given"));
    assert!(out.contains("top view (colour on top and height):\n    a  b  c  d\n  1 R1"));
    assert!(out.contains("move 3: red to move, player 1 (red, human)"));
    assert!(out.ends_with("red > quit\ngame abandoned after 2 moves\n"));
}

#[test]
fn a_bot_game_is_saved_and_replays() {
    let saved = temp_file("bots.rumis");
    let saved_text = saved.display().to_string();
    let (out, err, ok) = rumi(
        &[
            "play",
            "rumis",
            "--scenario",
            "pirka",
            "--players",
            "3",
            "--seats",
            "greedy,random,greedy",
            "--seed",
            "9",
            "--save",
            &saved_text,
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.contains("game over"));
    assert!(out.contains("final score (R9: visible squares minus unplaced stones):"));
    assert!(out.contains("winner: ") || out.contains("shared win"));
    assert!(out.contains(&format!("record saved to {saved_text}")));
    let record = std::fs::read_to_string(&saved).unwrap();
    assert!(record.contains("seats: greedy,random,greedy"));
    assert!(record.contains("result: "));
    // The lead's `rumi rumis replay` checks every move and the result line.
    let (replay, err, ok) = rumi(&["rumis", "replay", &saved_text], "");
    std::fs::remove_file(&saved).unwrap();
    assert!(ok, "{err}");
    assert!(replay.contains("all legal; game over"), "{replay}");
}

#[test]
fn errors_name_what_is_wrong() {
    let (_, err, ok) = rumi(
        &["play", "rumis", "--players", "3", "--seats", "human,greedy"],
        "",
    );
    assert!(!ok);
    assert!(err.contains("2 seats given for 3 players"), "{err}");

    let (_, err, ok) = rumi(&["play", "rumis", "--scenario", "atlantis"], "");
    assert!(!ok);
    assert!(err.contains("unknown scenario `atlantis`"), "{err}");

    let (_, err, ok) = rumi(
        &[
            "play",
            "rumis",
            "--variant",
            "four-colours",
            "--players",
            "3",
        ],
        "",
    );
    assert!(!ok);
    assert!(
        err.contains("four-colour variant (R10) is for exactly 2 players"),
        "{err}"
    );

    let bad = temp_file("bad.scenario");
    std::fs::write(
        &bad,
        "name: Bad\nstatus: sourced\nboard:\n  #x\nplayers 2: cap 4\n",
    )
    .unwrap();
    let bad_text = bad.display().to_string();
    let (_, err, ok) = rumi(&["play", "rumis", "--scenario-file", &bad_text], "");
    std::fs::remove_file(&bad).unwrap();
    assert!(!ok);
    assert!(err.contains(&format!("{bad_text}:")), "{err}");
}

#[test]
fn a_game_on_your_own_scenario_file_replays_from_its_record() {
    let board = temp_file("hut.scenario");
    std::fs::write(
        &board,
        "name: Hut\ntheme: hut\nstatus: reconstructed\nboard:\n  ###\n  ##.\nplayers 2: cap 2\n",
    )
    .unwrap();
    let board_text = board.display().to_string();
    let saved = temp_file("hut.rumis");
    let saved_text = saved.display().to_string();
    let (out, err, ok) = rumi(
        &[
            "play",
            "rumis",
            "--scenario-file",
            &board_text,
            "--seats",
            "greedy,greedy",
            "--seed",
            "2",
            "--save",
            &saved_text,
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.contains("board: reconstructed"));
    assert!(out.contains("game over"));
    let (replay, err, ok) = rumi(&["rumis", "replay", &saved_text], "");
    std::fs::remove_file(&saved).unwrap();
    std::fs::remove_file(&board).unwrap();
    assert!(ok, "{err}");
    assert!(replay.contains("all legal; game over"), "{replay}");
}
