use rumis::notation::{format_drop, format_move};
use rumis::record::Record;
use rumis::{Stone, Variant};

use super::*;

fn temp_file(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("rumi-play-{}-{name}", std::process::id()))
}

fn chullpa(players: u8, variant: Variant, seed: u64) -> Setup {
    Setup::new(Scenario::builtin("chullpa").unwrap(), players)
        .with_variant(variant)
        .with_seed(seed)
}

fn run(session: &mut Session, script: &str) -> (Ending, String) {
    let mut out = Vec::new();
    let ending = session.run(script.as_bytes(), &mut out).unwrap();
    (ending, String::from_utf8(out).unwrap())
}

#[test]
fn a_scripted_human_session() {
    let setup = chullpa(2, Variant::Standard, 1);
    let mut session = Session::new(setup.clone(), vec![Seat::Human, Seat::Bot("greedy".into())])
        .unwrap()
        .with_echo(true);
    let saved = temp_file("scripted.rumis");
    let script = format!(
        "L4 a1 b1 c1 d1\nX9 a1\nmoves D2\nO4 a1 b1 a2 b2\nsave {}\nquit\n",
        saved.display()
    );
    let (ending, out) = run(&mut session, &script);
    assert_eq!(ending, Ending::Quit);

    // The start: provenance, seats, the empty build and whose turn.
    assert!(out.contains("board: sourced"), "{out}");
    assert!(out.contains("seat 2: player 2 (blue, greedy)"));
    assert!(out.contains("(nothing built yet)"));
    assert!(out.contains("move 1: red to move, player 1 (red, human)"));

    // An illegal move and an unreadable one: the engine's reason, nothing played.
    let fresh = Position::new(setup.clone()).unwrap();
    let illegal = fresh.parse_move("L4 a1 b1 c1 d1").unwrap_err();
    assert!(out.contains(&format!("red > L4 a1 b1 c1 d1\nnot played: {illegal}\n")));
    assert!(illegal.to_string().contains("do not form the L4"));
    assert!(out.contains("not played: unknown stone `X9`"));

    // The domino's legal moves on the empty board: each in cells and drop form.
    assert!(out.contains("legal moves (D2 "));
    assert!(out.contains("  D2 a1:1 b1:1"));

    // The legal move is played, the greedy bot answers, the build is redrawn.
    assert!(out.contains("move 1: red (player 1 (red, human)) plays O4 a1:1 b1:1 a2:1 b2:1"));
    assert!(out.contains("move 2: blue (player 2 (blue, greedy)) plays"));
    assert!(out.contains("move 3: red to move"));
    assert!(out.contains("R1 R1"));

    // The record holds exactly the two moves and replays.
    assert!(out.contains(&format!("record saved to {} (2 moves)", saved.display())));
    let record = Record::parse(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    std::fs::remove_file(&saved).unwrap();
    assert_eq!(record.seats.as_deref(), Some("human,greedy"));
    let replayed = record
        .replay(Scenario::builtin("chullpa").unwrap())
        .unwrap();
    assert_eq!(replayed.history(), session.position().history());
    assert!(out.ends_with("game abandoned after 2 moves\n"));
}

#[test]
fn a_human_can_use_the_drop_form_and_see_the_orientations() {
    let setup = chullpa(2, Variant::Standard, 2);
    let fresh = Position::new(setup.clone()).unwrap();
    // Some flat L4 on the empty board, named in the drop form.
    let mv = fresh
        .legal_moves()
        .into_iter()
        .find(|&mv| {
            let p = fresh.board().placement(mv);
            p.stone == Stone::L4 && p.spans().len() == 4
        })
        .unwrap();
    let drop = format_drop(&fresh, mv);
    let mut session = Session::new(setup, vec![Seat::Human, Seat::Human]).unwrap();
    let (_, out) = run(&mut session, &format!("stones L4\n{drop}\nstones\n"));
    assert!(out.contains("L4 (L tetracube), 24 orientations"));
    assert!(out.contains(&format!("plays {}", format_move(&fresh, mv))));
    assert_eq!(session.position().history(), &[mv]);
    // Blue's turn now: its full supply is listed.
    assert!(out.contains("blue's stones left:\n  D2  domino"));
    assert!(out.ends_with("input ended\ngame abandoned after 1 moves\n"));
}

/// R16 at the terminal: two people play the golden Apachita dismantling game,
/// one turn typed in two parts, with a refused removal and the removal list shown.
#[test]
fn people_play_the_dismantling_game() {
    let golden = Record::parse(include_str!(
        "../../../../rumis/tests/golden/apachita-2p-dismantle.record"
    ))
    .unwrap();
    let mut script: Vec<String> = golden.moves.iter().map(|(_, m)| m.clone()).collect();
    script.splice(
        16..17,
        ["moves", "x L3", "x D2", "D2 b6 b6"].map(String::from),
    );
    let setup = Setup::new(Scenario::builtin("apachita").unwrap(), 2)
        .with_variant(Variant::Dismantle)
        .with_seed(12);
    let mut session = Session::new(setup, vec![Seat::Human, Seat::Human]).unwrap();
    let (ending, out) = run(&mut session, &(script.join("\n") + "\n"));
    assert_eq!(ending, Ending::Finished, "{out}");
    assert!(out.contains("Dismantling (R16)"));
    assert!(
        out.contains("interim score (R16: visible squares minus unplaced stones): red 8, blue 9")
    );
    assert!(out.contains("blue placed last and begins taking stones off"));
    assert!(out.contains("to take a stone off inside the red line (R16)"));
    assert!(
        out.contains("  x D2 f3:1 f3:2\n"),
        "the removals are listed"
    );
    assert!(out.contains(
        "not played: taking the L3 off would leave a hole under the cube on cell c5 level 2 (R16)"
    ));
    assert!(out.contains("to place the D2 it took off, outside the red line (R16)"));
    assert!(out.contains("blue cannot place the B4 it took off: it is set aside (R16)"));
    assert!(out.contains("blue is out (R16)"));
    assert!(
        out.contains("red      1               8        1      7       2"),
        "{out}"
    );
    assert!(out.contains("winner: player 2 (blue, human) with 3 points"));
    assert_eq!(session.position().history().len(), 22);
}

/// R16 by bots: a whole game whose saved record replays to the same scores.
#[test]
fn bots_play_the_dismantling_game_and_the_record_replays() {
    let saved = temp_file("dismantle.rumis");
    let setup = Setup::new(Scenario::builtin("puncu").unwrap(), 2)
        .with_variant(Variant::Dismantle)
        .with_seed(4);
    let mut session = Session::new(
        setup,
        vec![Seat::Bot("greedy".into()), Seat::Bot("random".into())],
    )
    .unwrap()
    .with_save(Some(saved.clone()));
    let (ending, out) = run(&mut session, "");
    assert_eq!(ending, Ending::Finished);
    assert!(out.contains("interim score (R16"));
    let text = std::fs::read_to_string(&saved).unwrap();
    std::fs::remove_file(&saved).unwrap();
    assert!(text.contains("\nx "), "dismantling turns are recorded");
    let replayed = Record::parse(&text)
        .unwrap()
        .replay(Scenario::builtin("puncu").unwrap())
        .unwrap();
    assert_eq!(replayed.score(), session.position().score());
    assert_eq!(replayed.interim(), session.position().interim());
}

#[test]
fn an_all_bot_game_ends_with_scores_and_a_record_that_replays() {
    let saved = temp_file("bots.rumis");
    let mut session = Session::new(
        chullpa(2, Variant::Standard, 7),
        vec![Seat::Bot("greedy".into()), Seat::Bot("random".into())],
    )
    .unwrap()
    .with_save(Some(saved.clone()));
    let (ending, out) = run(&mut session, "");
    assert_eq!(ending, Ending::Finished);
    let score = session.position().score();

    assert!(out.contains("red is out"));
    assert!(out.contains("blue is out"));
    assert!(out.contains("game over\ntop view"));
    let red_row = format!(
        "red      1         {:>7} {:>9} {:>7}",
        score.visible[0], score.unplaced[0], score.colour_points[0]
    );
    assert!(out.contains(&red_row), "{out}");
    assert!(out.contains(&format!(
        "player 2 (blue, random): {} points",
        score.player_points[1]
    )));
    let w = score.winners[0];
    if score.winners.len() == 1 {
        assert!(out.contains(&format!(
            "winner: {} with {} points",
            session.terminal.player_label(w),
            score.player_points[w as usize]
        )));
    } else {
        assert!(out.contains("shared win (R9: no tie-break)"));
    }

    let text = std::fs::read_to_string(&saved).unwrap();
    std::fs::remove_file(&saved).unwrap();
    let record = Record::parse(&text).unwrap();
    assert_eq!(record.seats.as_deref(), Some("greedy,random"));
    let replayed = record
        .replay(Scenario::builtin("chullpa").unwrap())
        .unwrap();
    assert!(replayed.is_over());
    assert_eq!(replayed.score(), score);
}

#[test]
fn four_colours_name_both_colours_and_the_best_one_wins() {
    let mut session = Session::new(
        chullpa(2, Variant::FourColours, 3),
        vec![Seat::Bot("greedy".into()), Seat::Bot("greedy".into())],
    )
    .unwrap();
    let (ending, out) = run(&mut session, "");
    assert_eq!(ending, Ending::Finished);
    assert!(out.contains("seat 1: player 1 (red+green, greedy)"));
    assert!(out.contains("seat 2: player 2 (blue+yellow, greedy)"));
    // Colours move in turn: red, blue, green, yellow.
    let order: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("move "))
        .take(4)
        .map(|l| l.split_whitespace().nth(2).unwrap())
        .collect();
    assert_eq!(order, ["red", "blue", "green", "yellow"]);
    let score = session.position().score();
    let best_of_1 = score.colour_points[0].max(score.colour_points[2]);
    assert!(out.contains(&format!(
        "player 1 (red+green, greedy): {best_of_1} points (best colour, R10)"
    )));
}

#[test]
fn in_ruinas_people_build_the_neutral_ruin_first() {
    let mut session = Session::new(
        chullpa(2, Variant::Ruinas, 0),
        vec![Seat::Human, Seat::Bot("greedy".into())],
    )
    .unwrap()
    .with_echo(true);
    let (_, out) = run(&mut session, "I4 a1 b1 c1 d1\nquit\n");
    assert!(out.contains("first build the ruin together"));
    assert!(out.contains("move 1: ruin stone (green, neutral), placed by player 1 (red, human)"));
    assert!(out.contains("move 1: green (player 1 (red, human)) plays I4 a1:1 b1:1 c1:1 d1:1"));
    // Then the greedy seat places the second neutral stone.
    assert!(out.contains("move 2: green (player 2 (blue, greedy)) plays"));
    assert!(out.contains("move 3: ruin stone (green, neutral), placed by player 1"));
    // Ruinas for 2 players uses the 3-player board (R11): chullpa 3p is 6 high.
    assert_eq!(session.position().board().height, 6);
}

#[test]
fn a_random_ruin_is_announced_and_not_counted_as_moves() {
    let mut session = Session::new(
        chullpa(3, Variant::RuinasRandom, 5),
        vec![
            Seat::Human,
            Seat::Bot("random".into()),
            Seat::Bot("random".into()),
        ],
    )
    .unwrap();
    let (_, out) = run(&mut session, "quit\n");
    assert!(out.contains("a random ruin of 11 yellow stones was built (seed 5)"));
    assert!(out.contains("move 1: red to move"));
    assert!(out.contains("game abandoned after 0 moves"));
}

#[test]
fn seats_must_match_the_players() {
    let err = Session::new(chullpa(3, Variant::Standard, 0), vec![Seat::Human])
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        "1 seats given for 3 players: give one per player, e.g. --seats human,greedy,greedy"
    );
    let err = Seat::parse::<RumisGame>("planner:5")
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("seat `planner:5`: `planner:5` is a Rummikub bot, not a Rumis one; use random, greedy, mcts:1,"),
        "{err}"
    );
    assert!(err.ends_with("; or human"), "{err}");
    let err = Seat::parse::<RumisGame>("chess").unwrap_err().to_string();
    assert!(err.contains("unknown rumis bot `chess`"), "{err}");
    assert_eq!(
        Seat::parse::<RumisGame>("MCTS:3").unwrap(),
        Seat::Bot("mcts:3".into())
    );
}

#[test]
fn a_game_on_a_scenario_file_records_its_path() {
    let path = temp_file("hut.scenario");
    std::fs::write(
        &path,
        "name: Hut\ntheme: hut\nstatus: reconstructed\nboard:\n  ###\n  ##.\nplayers 2: cap 2\n",
    )
    .unwrap();
    let scenario = load_scenario("chullpa", Some(&path)).unwrap();
    let mut session = Session::new(
        Setup::new(scenario, 2).with_seed(1),
        vec![Seat::Bot("greedy".into()), Seat::Bot("random".into())],
    )
    .unwrap()
    .with_scenario_file(Some(path.clone()));
    let (ending, out) = run(&mut session, "");
    assert_eq!(ending, Ending::Finished);
    assert!(out.contains(&format!(
        "Rumis on Hut ({}, hut), 2 players",
        path.display()
    )));
    assert!(out.contains("board: reconstructed"));
    let record = Record::parse(&session.record()).unwrap();
    assert_eq!(record.scenario, path.display().to_string());
    let replayed = record
        .replay(load_scenario("", Some(Path::new(&record.scenario))).unwrap())
        .unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(replayed.score(), session.position().score());
}

#[test]
fn a_bad_scenario_file_is_named_with_its_line() {
    let path = temp_file("broken.scenario");
    std::fs::write(
        &path,
        "name: Broken\nstatus: sourced\nboard:\n  ##\n  #\nplayers 2: cap 4\n",
    )
    .unwrap();
    let err = load_scenario("chullpa", Some(&path))
        .unwrap_err()
        .to_string();
    std::fs::remove_file(&path).unwrap();
    assert!(err.starts_with(&format!("{}:", path.display())), "{err}");
    let line: usize = err[path.display().to_string().len() + 1..]
        .split(':')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=6).contains(&line), "{err}");

    let err = load_scenario("atlantis", None).unwrap_err().to_string();
    assert!(err.contains("unknown scenario `atlantis`"));
}
