//! The base game's variants: two players with four colours (R10) and Ruinas (R11), and
//! the turn rules they change (R6, R8).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rumis::{Colour, Position, Scenario, Setup, SetupError, Variant};

fn game(key: &str, players: u8, variant: Variant, seed: u64) -> Position {
    Position::new(
        Setup::new(Scenario::builtin(key).unwrap(), players)
            .with_variant(variant)
            .with_seed(seed),
    )
    .unwrap()
}

fn play_random(game: &mut Position, seed: u64) -> Vec<(Colour, u8)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut movers = Vec::new();
    while let Some(mv) = game.random_move(&mut rng) {
        movers.push((game.to_move().unwrap(), game.actor().unwrap()));
        game.play_unchecked(mv);
    }
    movers
}

#[test]
fn four_colours_alternate_colours_by_seat_on_the_four_player_board() {
    let mut g = game("chullpa", 2, Variant::FourColours, 0);
    // R10: the four-player heights apply: Chullpa allows 8 levels, not 4.
    assert_eq!(g.board().height, 8);
    assert_eq!(g.colour_count(), 4);
    assert_eq!(g.colours_of(0), vec![Colour(0), Colour(2)]);
    assert_eq!(g.colours_of(1), vec![Colour(1), Colour(3)]);
    let movers = play_random(&mut g, 5);
    // Turns go A1 B1 A2 B2 while every colour can still move.
    let opening: Vec<(u8, u8)> = movers[..8].iter().map(|(c, p)| (c.0, *p)).collect();
    assert_eq!(
        opening,
        vec![
            (0, 0),
            (1, 1),
            (2, 0),
            (3, 1),
            (0, 0),
            (1, 1),
            (2, 0),
            (3, 1)
        ]
    );
    let score = g.score();
    assert_eq!(
        score.player_points[0],
        score.colour_points[0].max(score.colour_points[2])
    );
    assert_eq!(
        score.player_points[1],
        score.colour_points[1].max(score.colour_points[3])
    );
}

#[test]
fn variants_check_their_player_counts() {
    let setup = |players, variant| {
        Position::new(
            Setup::new(Scenario::builtin("tambo").unwrap(), players).with_variant(variant),
        )
        .unwrap_err()
    };
    assert_eq!(
        setup(3, Variant::FourColours),
        SetupError::FourColoursNeedsTwo(3)
    );
    assert_eq!(setup(4, Variant::Ruinas), SetupError::RuinasPlayers(4));
    assert_eq!(
        setup(7, Variant::Standard).to_string(),
        "Rumis is played by 2 to 4 players (Rumis+ up to 6), not 7"
    );
    assert!(setup(5, Variant::Standard)
        .to_string()
        .contains("not played by 5 players"));
}

#[test]
fn ruinas_builds_the_neutral_colour_together_first() {
    let mut g = game("coricancha", 2, Variant::Ruinas, 0);
    // R11: the board for one player more: Coricancha for 3 is the whole pyramid, while
    // two players alone would only have the inner 5 x 5.
    assert_eq!(g.board().limit(0), 1);
    let neutral = g.neutral().unwrap();
    assert_eq!(neutral, Colour(2));
    assert_eq!(g.owner(neutral), None);
    let movers = play_random(&mut g, 11);
    let ruin: Vec<&(Colour, u8)> = movers.iter().take_while(|(c, _)| *c == neutral).collect();
    assert!(!ruin.is_empty());
    // The players alternate placing neutral stones.
    for (i, (_, actor)) in ruin.iter().enumerate() {
        assert_eq!(*actor as usize, i % 2);
    }
    // After the ruin, no neutral stone is placed, and the players start with red.
    assert!(movers[ruin.len()..].iter().all(|(c, _)| *c != neutral));
    assert_eq!(movers[ruin.len()].0, Colour(0));
    // The neutral colour's squares score for nobody: the players' points are their
    // own colours' points.
    let score = g.score();
    assert_eq!(
        score.player_points,
        vec![score.colour_points[0], score.colour_points[1]]
    );
}

#[test]
fn the_first_player_stone_after_a_ruin_must_touch_it_and_lie_on_the_board() {
    let mut g = game("chullpa", 2, Variant::Ruinas, 0);
    // Build the whole ruin from the legal moves, then look at red's first stone.
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    while g.building_ruin() {
        let mv = g.random_move(&mut rng).unwrap();
        g.play(mv).unwrap();
    }
    assert_eq!(g.to_move(), Some(Colour(0)));
    for mv in g.legal_moves() {
        let cells = g.cells_of(mv);
        assert!(cells.iter().any(|c| c.z == 0), "R6: on the board");
        let b = g.board();
        let touches = cells.iter().any(|&c| {
            b.face_neighbours(c)
                .any(|n| g.colour_at(n) == Some(Colour(2)))
        });
        assert!(touches, "R6: touches a placed (neutral) stone");
    }
}

#[test]
fn a_random_ruin_is_reproducible_from_its_seed() {
    let a = game("tambo", 3, Variant::RuinasRandom, 42);
    let b = game("tambo", 3, Variant::RuinasRandom, 42);
    let c = game("tambo", 3, Variant::RuinasRandom, 43);
    assert!(!a.building_ruin(), "the software built the ruin");
    assert!(a.generated_moves() > 0);
    assert_eq!(a.generated_moves(), a.history().len());
    assert_eq!(a.history(), b.history());
    assert_ne!(a.history(), c.history());
    // Every ruin stone is neutral (yellow for three players) and the players start.
    let neutral = a.neutral().unwrap();
    assert_eq!(neutral, Colour(3));
    assert_eq!(a.supply(neutral).len(), 11 - a.generated_moves());
    assert_eq!(a.to_move(), Some(Colour(0)));
    assert_eq!(a.actor(), Some(0));
}

#[test]
fn the_starting_colours_first_stone_goes_anywhere() {
    // R6: the very first stone goes anywhere inside the footprint, e.g. standing
    // upright; the second colour's first stone must touch it and lie on the board.
    let mut g = game("chullpa", 4, Variant::Standard, 0);
    let upright = g.parse_move("I4 b2 b2 b2 b2").unwrap();
    g.play(upright).unwrap();
    assert_eq!(g.to_move(), Some(Colour(1)));
    assert!(g.parse_move("D2 c2 d2").is_ok(), "beside it on the board");
    assert!(g.parse_move("D2 d4 d5").is_err(), "not touching");
}

#[test]
fn a_colour_without_a_legal_placement_is_out_and_the_game_ends_when_all_are() {
    let mut g = game("pirka", 2, Variant::Standard, 0);
    let movers = play_random(&mut g, 9);
    assert!(g.is_over());
    assert_eq!(g.to_move(), None);
    assert_eq!(g.actor(), None);
    assert_eq!(g.legal_moves(), vec![]);
    // Pirka for two is 78 cubes, less than two colours' 80: someone keeps stones.
    let score = g.score();
    assert!(score.unplaced.iter().sum::<u32>() > 0);
    assert_eq!(g.events().len(), 2, "both colours went out");
    assert_eq!(movers.len(), g.history().len());
    let err = g.play(g.board().all_moves().next().unwrap()).unwrap_err();
    assert_eq!(err.to_string(), "the game is over");
}

#[test]
fn a_ruin_that_does_not_fit_ends_where_the_neutral_colour_is_stuck() {
    // RD2: on a tiny 3 x 3 board of height 2 (18 cubes) the neutral colour cannot
    // build all eleven stones; the ruin ends when it has no legal placement, and its
    // left-over stones cost no one.
    let tiny = Scenario::parse(
        "tiny.scenario",
        "tiny",
        "name: Tiny\ntheme: test\nstatus: reconstructed\nboard:\n  ###\n  ###\n  ###\nplayers 2: cap 1\nplayers 3: cap 2\n",
    )
    .unwrap();
    let mut g = Position::new(Setup::new(tiny, 2).with_variant(Variant::Ruinas)).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    while g.building_ruin() {
        let mv = g.random_move(&mut rng).unwrap();
        g.play(mv).unwrap();
    }
    let neutral = g.neutral().unwrap();
    assert!(g.is_out(neutral));
    assert!(!g.supply(neutral).is_empty(), "stones left over");
    assert!(g.events().contains(&rumis::Event::Out {
        ply: g.history().len(),
        colour: neutral
    }));
    play_random(&mut g, 2);
    let score = g.score();
    assert_eq!(
        score.player_points,
        vec![score.colour_points[0], score.colour_points[1]]
    );
}

#[test]
fn a_move_out_of_turn_is_refused_and_changes_nothing() {
    let mut g = game("chullpa", 2, Variant::Standard, 0);
    let mv = g.legal_moves()[0];
    let err = g.play_as(Colour(1), mv).unwrap_err();
    assert_eq!(err.to_string(), "it is red's turn, not blue's");
    assert!(g.history().is_empty());
    g.play_as(Colour(0), mv).unwrap();
    assert_eq!(g.to_move(), Some(Colour(1)));
}
