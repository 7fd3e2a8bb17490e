//! Rumis+ (seed 001): colours five and six (R13), first stones touching by edges (R14),
//! the inverse variant (R15) and the two-player dismantling game (R16), with their
//! rejection messages, and the decisions RD9–RD16 of docs/rumis-rules.md.

use rumis::record::{interim_line, result_line, Record};
use rumis::{Colour, Event, FirstStones, Position, Scenario, Setup, SetupError, Variant};

fn game(key: &str, players: u8, variant: Variant) -> Position {
    Position::new(Setup::new(Scenario::builtin(key).unwrap(), players).with_variant(variant))
        .unwrap()
}

#[track_caller]
fn play(g: &mut Position, text: &str) {
    if let Err(e) = g.play_text(text) {
        panic!("`{text}`: {e}");
    }
}

#[track_caller]
fn refused(g: &Position, text: &str) -> String {
    let mut copy = g.clone();
    let err = copy.play_text(text).unwrap_err().to_string();
    assert_eq!(
        copy.history(),
        g.history(),
        "a refused move changes nothing"
    );
    err
}

#[test]
fn r13_orange_and_violet_are_colours_five_and_six() {
    assert_eq!(Colour(4).name(), "orange");
    assert_eq!(Colour(5).name(), "violet");
    assert_eq!((Colour(4).letter(), Colour(5).letter()), ('O', 'V'));
    assert_eq!(Colour::from_name("violet"), Some(Colour(5)));
    let mut g = game("chaka", 6, Variant::Standard);
    assert_eq!(g.colour_count(), 6);
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
    let mut movers = Vec::new();
    while let Some(mv) = g.random_move(&mut rng) {
        movers.push(g.to_move().unwrap());
        g.play_unchecked(mv);
    }
    // Turns go round all six colours in seat order.
    let opening: Vec<u8> = movers[..12].iter().map(|c| c.0).collect();
    assert_eq!(opening, vec![0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5]);
    assert_eq!(g.score().player_points.len(), 6);
    // The base boards have no table for five or six (R13: Rumis+ boards only).
    let err = Position::new(Setup::new(Scenario::builtin("tambo").unwrap(), 5)).unwrap_err();
    assert!(err.to_string().contains("not played by 5 players"), "{err}");
}

#[test]
fn r14_first_stones_touch_only_by_edges() {
    let mut g = game("chaka", 5, Variant::Standard);
    assert_eq!(
        g.setup().first_stones,
        FirstStones::Edge,
        "RD10: default for 5"
    );
    play(&mut g, "O4 e1 f1 e2 f2"); // red, anywhere (R6, R14: the starter's stone)
    assert_eq!(
        refused(&g, "D2 g1 h1"),
        "blue's first stone may not touch red's first stone face to face (at cell f1 level 1); \
         R14: first stones touch only by edges"
    );
    assert_eq!(
        refused(&g, "D2 j3 k3"),
        "blue's first stone must touch a placed stone along an edge (R14: with 5 or 6 players \
         first stones touch only by edges)"
    );
    assert_eq!(
        refused(&g, "D2 e1:2 f1:2"),
        "blue's first stone must lie on the board (have a cube on level 1)"
    );
    play(&mut g, "D2 g3 h3"); // blue: g3 shares an edge with red's f2
    play(&mut g, "D2 d3 d4"); // green: d3 shares an edge with red's e2
    play(&mut g, "D2 c1 c2"); // yellow: c2 shares an edge with green's d3
    play(&mut g, "D2 i2 j2"); // orange: i2 shares an edge with blue's h3
                              // Later stones follow R7 and may touch other first stones face to face (RD11).
    play(&mut g, "D2 g2 h2"); // red: beside its own f2, and face to face with g3 and i2
    assert_eq!(g.to_move(), Some(Colour(1)));
}

#[test]
fn r14_is_a_rule_option_for_five_and_six_only() {
    let chaka = Scenario::builtin("chaka").unwrap();
    let face = Setup::new(chaka.clone(), 5).with_first_stones(FirstStones::Face);
    let mut g = Position::new(face).unwrap();
    play(&mut g, "O4 e1 f1 e2 f2");
    play(&mut g, "D2 g1 h1"); // R6: face to face is what a first stone needs
    assert_eq!(
        refused(&g, "D2 g3 h3"),
        "green's first stone must touch a stone already placed, face to face"
    );
    let four = Setup::new(chaka, 4).with_first_stones(FirstStones::Edge);
    assert_eq!(
        Position::new(four).unwrap_err(),
        SetupError::EdgeFirstStonesPlayers(4)
    );
}

#[test]
fn r15_inverse_never_touches_its_own_colour() {
    let mut g = game("huaca", 6, Variant::Inverse);
    // First stones follow the first-stone rule (R14 for six, RD12).
    for first in [
        "D2 a1 b1", "D2 c2 c3", "D2 d1 e1", "D2 f2 f3", "D2 g1 h1", "D2 d4 e4",
    ] {
        play(&mut g, first);
    }
    assert_eq!(g.to_move(), Some(Colour(0)));
    assert_eq!(
        refused(&g, "I3 a2 a3 a4"),
        "inverse variant (R15): the stone may not touch a red stone face to face (cell a1 level 1 does)"
    );
    assert_eq!(
        refused(&g, "I3 h4 h5 h6"),
        "inverse variant (R15): the stone must touch a stone of another colour than red, face to face"
    );
    play(&mut g, "L3 a3 b3 b4"); // beside blue's c3, no red neighbour
    let err = Position::new(
        Setup::new(Scenario::builtin("huaca").unwrap(), 4).with_variant(Variant::Inverse),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the inverse variant (R15) is for 5 or 6 players, not 4"
    );
}

#[test]
fn r16_is_for_two_players_on_the_three_boards() {
    let setup = |key: &str, players| {
        Position::new(
            Setup::new(Scenario::builtin(key).unwrap(), players).with_variant(Variant::Dismantle),
        )
        .unwrap_err()
        .to_string()
    };
    assert_eq!(
        setup("colca", 3),
        "the dismantling game (R16) is for exactly 2 players, not 3"
    );
    assert_eq!(
        setup("huaca", 2),
        "the dismantling game (R16) is not played on Huaca (it is played on colca, puncu, apachita)"
    );
}

fn apachita_golden() -> Record {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/apachita-2p-dismantle.record"
    );
    Record::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The whole golden dismantling game on Apachita, move by move, with every rule of R16
/// tried on the way and both scores counted by hand.
#[test]
fn r16_a_whole_dismantling_game_scored_by_hand() {
    let record = apachita_golden();
    let moves: Vec<&str> = record.moves.iter().map(|(_, m)| m.as_str()).collect();
    let mut g = game("apachita", 2, Variant::Dismantle);
    // Build phase: inside the red line only (the diamond of radius 3), height 3.
    assert_eq!(
        refused(&g, "D2 e1 e1"),
        "cell e1 level 1 is outside the red line: until the interim scoring only the inside is built on (R16)"
    );
    assert_eq!(
        refused(&g, "x D2"),
        "stones are taken off only in the dismantling phase of the two-player dismantling game (R16)"
    );
    for m in &moves[..16] {
        play(&mut g, m);
    }
    // No one can place inside the red line any more: the interim score.
    //
    // Tops after the 16 build moves (level of the top cube, colour of its stone):
    //   red:  f4 (L3), g4 (D2), g5 (B4), f6 (A4), g6 (A4), e4 (L3 on blue), e7 (L4),
    //         f7 (A4), c5 (O4), d5 (O4), b5 (I3)                         = 11
    //   blue: f3 (D2), d3 (Y4), e3 (Y4), c4 (S4), d4 (S4), d6 (L4), e5 (B4 on red),
    //         f5 (B4), e6 (B4), d7 (A4), c6 (L4), e2 (I3)                = 12
    // Each placed 8 stones (D2 B4 L4 A4 Y4 L3 O4 I3 / D2 Y4 S4 L3 A4 L4 B4 I3) and
    // keeps 3: red 11 - 3 = 8, blue 12 - 3 = 9.
    assert!(g.dismantling());
    let interim = g.interim().unwrap();
    assert_eq!(interim.visible, vec![11, 12]);
    assert_eq!(interim.unplaced, vec![3, 3]);
    assert_eq!(interim.colour_points, vec![8, 9]);
    assert_eq!(interim_line(&g).unwrap(), "red 8, blue 9");
    // Unplaced stones leave the game; blue placed last (I3 e2) and begins.
    assert!(g.supply(Colour(0)).is_empty() && g.supply(Colour(1)).is_empty());
    assert!(g.events().contains(&Event::Interim { ply: 16 }));
    assert_eq!(g.to_move(), Some(Colour(1)));
    assert!(g.removing());
    // Removal is compulsory: a placement is refused until a stone is taken off.
    assert!(refused(&g, "D2 b6 b6").starts_with(
        "blue must first take one of its stones off the build inside the red line (R16), e.g. `x"
    ));
    assert_eq!(refused(&g, "x O4"), "blue's O4 is not on the build there");
    // No hole left: red's O4 rests on blue's L3 at c5.
    assert_eq!(
        refused(&g, "x L3"),
        "taking the L3 off would leave a hole under the cube on cell c5 level 2 (R16)"
    );
    assert_eq!(
        refused(&g, "x D2 f3:1 f4:1"),
        "blue's D2 is not on the build there"
    );
    // The first rebuilt stone: outside the red line, on the board, touching one of
    // the colour's own stones inside the red line.
    assert_eq!(
        refused(&g, "x D2 > D2 e5 e5"),
        "cell e5 level 4 is inside the red line: rebuilt stones stay outside it (R16)"
    );
    assert_eq!(
        refused(&g, "x D2 > D2 a5 a5"),
        "blue's first rebuilt stone must touch one of its own stones inside the red line, face to face (R16)"
    );
    assert_eq!(
        refused(&g, "x D2 > I3 e1 e1 e1"),
        "blue took its D2 off the build: place that stone now, not the I3 (R16)"
    );
    assert_eq!(
        refused(&g, "x D2 > aside"),
        "the removed D2 can still be placed, so it may not be set aside (R16)"
    );
    // The two parts may be played one by one, as a person types them.
    let mut by_parts = g.clone();
    play(&mut by_parts, "x D2");
    assert_eq!(by_parts.stone_in_hand(), Some(rumis::Stone::Domino));
    play(&mut by_parts, "D2 b6 b6");
    play(&mut g, moves[16]); // blue: x D2 f3 > D2 b6:1 b6:2, beside its L4 on c6
    assert_eq!(g.history(), by_parts.history());
    play(&mut g, moves[17]); // red: x I3 b5 > I3 h6 (beside its A4 on g6)
                             // Outside the red line only the ring of radius 4 is left, whose cells meet only at
                             // corners: blue's B4 cannot stand there. It is taken off all the same and set
                             // aside, and blue is out (R16); red plays on alone.
    play(&mut g, moves[18]);
    assert!(g.is_out(Colour(1)));
    assert!(g.events().contains(&Event::SetAside {
        ply: 21,
        colour: Colour(1),
        stone: rumis::Stone::ScrewB
    }));
    assert_eq!(g.to_move(), Some(Colour(0)));
    play(&mut g, moves[19]); // red: x A4 > aside: red is out too, the game ends
    assert!(g.is_over());
    // Final score: interim + own tops outside the red line − own stones set aside or
    // still inside it. The stones that left at the interim score count no more.
    //   red:  8 + 1 (h6) − (6 inside: D2 B4 L4 Y4 L3 O4, + 1 set aside: A4) = 2
    //   blue: 9 + 1 (b6) − (6 inside: Y4 S4 L3 A4 L4 I3, + 1 set aside: B4) = 3
    let score = g.score();
    assert_eq!(score.interim, Some(vec![8, 9]));
    assert_eq!(score.visible, vec![1, 1]);
    assert_eq!(score.unplaced, vec![7, 7]);
    assert_eq!(score.colour_points, vec![2, 3]);
    assert_eq!(score.winners, vec![1]);
    assert_eq!(result_line(&g), "red 2, blue 3");
    assert_eq!(record.result.as_deref(), Some("red 2, blue 3"));
    assert_eq!(record.interim.as_deref(), Some("red 8, blue 9"));
}

/// R16: a player who cannot take a stone off is out and the other plays on alone, turn
/// after turn, until they cannot either (every golden dismantling game).
#[test]
fn r16_the_other_player_plays_on_alone() {
    let mut alone = 0;
    for key in ["colca", "puncu", "apachita"] {
        let path = format!(
            "{}/tests/golden/{key}-2p-dismantle.record",
            env!("CARGO_MANIFEST_DIR")
        );
        let record = Record::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
        let mut g = Position::new(record.setup(Scenario::builtin(key).unwrap())).unwrap();
        let mut movers = Vec::new();
        for (_, text) in &record.moves {
            let colour = g.to_move().unwrap();
            let n = g.play_text(text).unwrap().len();
            movers.extend(std::iter::repeat_n(colour, n));
        }
        assert!(g.is_over());
        let interim_ply = g
            .events()
            .iter()
            .find_map(|e| match e {
                Event::Interim { ply } => Some(*ply),
                _ => None,
            })
            .unwrap();
        for event in g.events() {
            if let Event::Out { ply, colour } = *event {
                if ply > interim_ply {
                    assert!(!movers[ply..].contains(&colour), "{key}: out is out");
                    alone += movers[ply..].len();
                }
            }
        }
    }
    assert!(alone > 0, "some golden game has a player playing on alone");
}

#[test]
fn r16_records_write_a_turn_on_one_line_and_catch_a_false_aside() {
    let record = apachita_golden();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/apachita-2p-dismantle.record"
    ))
    .unwrap();
    assert!(text.contains("x D2 f3:1 f3:2 > D2 b6:1 b6:2"));
    assert!(text.contains("> aside"));
    // Blue could place its D2: "aside" there is refused at its line.
    let (line, _) = record.moves[16];
    let forged = text.replace("x D2 f3:1 f3:2 > D2 b6:1 b6:2", "x D2 f3:1 f3:2 > aside");
    let err = Record::parse(&forged)
        .unwrap()
        .replay(Scenario::builtin("apachita").unwrap())
        .unwrap_err();
    assert_eq!(err.line, line);
    assert!(err.problem.contains("may not be set aside"), "{err}");
    // A removal without its placement leaves the turn unfinished.
    let cut = text.replace("x D2 f3:1 f3:2 > D2 b6:1 b6:2", "x D2 f3:1 f3:2");
    let err = Record::parse(&cut)
        .unwrap()
        .replay(Scenario::builtin("apachita").unwrap())
        .unwrap_err();
    assert_eq!(err.line, line);
    assert!(err.problem.contains("the turn is not finished"), "{err}");
    // A false interim line is caught.
    let false_interim = text.replace("interim: red 8, blue 9", "interim: red 9, blue 9");
    let err = Record::parse(&false_interim)
        .unwrap()
        .replay(Scenario::builtin("apachita").unwrap())
        .unwrap_err();
    assert!(
        err.problem.contains("the replay gives `red 8, blue 9`"),
        "{err}"
    );
}
