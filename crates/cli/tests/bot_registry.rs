//! The bot registry (`play::bots::REGISTRY`) is the one list of bots: every front end
//! accepts every bot it lists, and refuses what it does not list with the list.

use play::bots::REGISTRY;
use serde_json::json;
mod common;
use common::{rumi, serve_with};

/// The extra options that make a terminal game start at once (Rummikub: no clock).
fn terminal_options(game: &str) -> &'static [&'static str] {
    match game {
        "rummikub" => &["--no-timer"],
        _ => &[],
    }
}

#[test]
fn every_registered_bot_is_accepted_by_every_front_end() {
    let dir = std::env::temp_dir().join(format!("rumi-registry-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let server = serve_with(
        &format!("sqlite://{}", dir.join("rumi.db").display()),
        &[
            "--tables-per-minute-per-address",
            "0",
            "--max-open-tables-per-address",
            "0",
        ],
    );
    let meta = server.get("/api/meta");
    let mut engine_script = String::new();
    for bot in REGISTRY {
        let game = bot.game.name();
        let spec = bot.spec;

        // The terminal: the bot is seated, then the person quits.
        let seats = format!("human,{spec}");
        let mut args = vec!["play", game, "--seats", &seats, "--seed", "12"];
        args.extend(terminal_options(game));
        let (out, err, ok) = rumi(&args, "quit\n");
        assert!(ok, "rumi play {game} --seats {seats}: {err}\n{out}");

        // The match runner takes it as an entrant.
        let seats = format!("{spec},{spec}");
        let (out, err, ok) = rumi(&["match", game, "--seats", &seats, "--dry-run"], "");
        assert!(ok, "rumi match {game} --seats {seats}: {err}");
        assert!(out.contains("accepted"), "{out}");

        // The engine protocol: a new game of its kind, the bot chosen.
        engine_script.push_str(&format!("newgame {game}\nbot {spec}\n"));

        // The server lists it with its level and description, and seats it.
        let listed = meta[game]["bots"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["name"] == spec)
            .unwrap_or_else(|| panic!("/api/meta lacks the {game} bot {spec}"));
        assert_eq!(listed["level"], bot.level);
        assert_eq!(listed["description"], bot.description);
        let settings = match game {
            "rumis" => json!({"game": "rumis", "rumis": {"scenario": "chullpa", "players": 2}}),
            _ => json!({"game": "rummikub", "rummikub": {"rules": "current"}}),
        };
        let mut table = settings;
        table["seats"] = json!([{"kind": "human"}, {"kind": "bot", "bot": spec}]);
        let created = server.post("/api/tables", table);
        assert!(created.is_ok(), "a {game} table with {spec}: {created:?}");
    }
    let (answers, err, ok) = rumi(&["engine"], &engine_script);
    assert!(ok, "{err}");
    let refused: Vec<&str> = answers.lines().filter(|l| l.starts_with('?')).collect();
    assert!(refused.is_empty(), "the engine refused: {refused:?}");
    assert_eq!(answers.matches("=\n\n").count(), 2 * REGISTRY.len());
    // The server lists nothing the registry does not.
    for game in ["rumis", "rummikub"] {
        assert_eq!(
            meta[game]["bots"].as_array().unwrap().len(),
            REGISTRY.iter().filter(|b| b.game.name() == game).count()
        );
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bot_of_the_other_game_is_refused_with_the_list() {
    let (_, err, ok) = rumi(&["play", "rumis", "--seats", "human,planner:5"], "");
    assert!(!ok);
    assert!(
        err.contains("`planner:5` is a Rummikub bot, not a Rumis one; use random, greedy, mcts:1"),
        "{err}"
    );
    let (_, err, ok) = rumi(
        &["play", "rummikub", "--seats", "human,mcts:3", "--no-timer"],
        "",
    );
    assert!(!ok);
    assert!(
        err.contains("`mcts:3` is a Rumis bot, not a Rummikub one; use random, greedy, keeper"),
        "{err}"
    );
    let (_, err, ok) = rumi(&["match", "rummikub", "--seats", "chess,greedy"], "");
    assert!(!ok);
    assert!(err.contains("unknown rummikub bot `chess`"), "{err}");
    assert!(err.contains("planner:5"), "{err}");
}

/// The seats the issue names: MCTS in the Rumis terminal game, the planner in the
/// Rummikub one, each answering a person's move.
#[test]
fn people_play_against_mcts_and_the_planner_at_the_terminal() {
    let (out, err, ok) = rumi(
        &["play", "rumis", "--seats", "human,mcts:3", "--seed", "4"],
        "O4 a1 b1 a2 b2\nquit\n",
    );
    assert!(ok, "{err}");
    assert!(out.contains("seat 2: player 2 (blue, mcts:3)"), "{out}");
    assert!(out.contains("move 1: red (player 1 (red, human)) plays O4 a1:1 b1:1 a2:1 b2:1"));
    assert!(
        out.contains("move 2: blue (player 2 (blue, mcts:3)) plays "),
        "{out}"
    );
    assert!(
        out.ends_with("red > quit\ngame abandoned after 2 moves\n"),
        "{out}"
    );

    // Seed 12: player 1 starts and can meld b9 b10 b11.
    let (out, err, ok) = rumi(
        &[
            "play",
            "rummikub",
            "--seats",
            "human,planner:5",
            "--seed",
            "12",
            "--no-timer",
        ],
        "lay b9 b10 b11\nend\nquit\n",
    );
    assert!(ok, "{err}");
    assert!(out.contains("player 1 (human) plays b9 b10 b11 (initial meld worth 30)"));
    let reply = out
        .lines()
        .skip_while(|l| !l.contains("player 1 (human) plays"))
        .nth(1)
        .unwrap_or_default();
    assert!(
        reply.starts_with("player 2 (planner:5 bot) plays ")
            || reply == "player 2 (planner:5 bot) draws a tile",
        "{out}"
    );
    assert!(out.contains("--- Your turn, player 1 ---"));
    assert!(out.trim_end().ends_with("Game abandoned."));
}
