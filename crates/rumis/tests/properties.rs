//! Property tests over random seeded games: the fast generator agrees with the plain
//! rules, the build never has a hole, and the score is what the build shows.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rumis::{Cell, Colour, Move, Position, Scenario, Setup, Variant};

const SCENARIOS: [&str; 6] = ["chullpa", "pirka", "tambo", "pisac", "coricancha", "cucho"];

fn setup(scenario: usize, players: u8, variant: Variant, seed: u64) -> Setup {
    let players = match variant {
        Variant::FourColours => 2,
        Variant::Ruinas | Variant::RuinasRandom => players.min(3),
        Variant::Standard => players,
    };
    Setup::new(Scenario::builtin(SCENARIOS[scenario]).unwrap(), players)
        .with_variant(variant)
        .with_seed(seed)
}

/// Every cube sits on the board or on another cube: each column is filled from level 0
/// up to its height and empty above (R3).
fn assert_no_hole(game: &Position) {
    let b = game.board();
    for y in 0..b.depth as u8 {
        for x in 0..b.width as u8 {
            let h = game.height(y as usize * b.width + x as usize);
            for z in 0..b.height as u8 {
                let filled = game.colour_at(Cell { x, y, z }).is_some();
                assert_eq!(
                    filled,
                    z < h,
                    "column {x},{y} level {z}: hole or floating cube"
                );
            }
        }
    }
}

/// Recounts the score from the build alone (R9).
fn assert_score_matches_build(game: &Position) {
    let b = game.board();
    let colours = game.colour_count();
    let mut visible = vec![0u32; colours];
    for y in 0..b.depth as u8 {
        for x in 0..b.width as u8 {
            if let Some(top) = (0..b.height as u8)
                .rev()
                .find_map(|z| game.colour_at(Cell { x, y, z }))
            {
                visible[top.index()] += 1;
            }
        }
    }
    let mut placed = vec![0u32; colours];
    let mut cubes = vec![0u32; colours];
    for z in 0..b.height as u8 {
        for y in 0..b.depth as u8 {
            for x in 0..b.width as u8 {
                if let Some(c) = game.colour_at(Cell { x, y, z }) {
                    cubes[c.index()] += 1;
                }
            }
        }
    }
    for c in 0..colours {
        let supply = game.supply(Colour(c as u8));
        placed[c] = 11 - supply.len() as u32;
        let placed_cubes: usize = rumis::Stone::ALL
            .iter()
            .filter(|s| !supply.contains(s))
            .map(|s| s.size())
            .sum();
        assert_eq!(
            cubes[c] as usize, placed_cubes,
            "colour {c}: cubes on board"
        );
    }
    let score = game.score();
    assert_eq!(score.visible, visible);
    for c in 0..colours {
        assert_eq!(
            score.colour_points[c],
            visible[c] as i32 - (11 - placed[c] as i32)
        );
    }
    let best = *score.player_points.iter().max().unwrap();
    for (p, &points) in score.player_points.iter().enumerate() {
        assert_eq!(score.winners.contains(&(p as u8)), points == best);
    }
}

fn sorted_legal(game: &Position) -> Vec<Move> {
    let mut moves = game.legal_moves();
    moves.sort();
    moves
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The fast generator and the reference agree after every move of a random game:
    /// same legal moves (so every generated move validates and every valid move is
    /// generated), same colour to move, same eliminations (R8).
    #[test]
    fn fast_and_reference_agree_through_whole_games(
        scenario in 0..6usize,
        players in 2..=4u8,
        variant in prop::sample::select(Variant::ALL.to_vec()),
        seed in any::<u64>(),
    ) {
        let setup = setup(scenario, players, variant, seed);
        let mut fast = Position::new(setup.clone()).unwrap();
        let mut reference = Position::new_reference(setup).unwrap();
        prop_assert_eq!(fast.history(), reference.history(), "same random ruin");
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        loop {
            let moves = sorted_legal(&fast);
            prop_assert_eq!(&moves, &sorted_legal(&reference));
            prop_assert_eq!(fast.to_move(), reference.to_move());
            prop_assert_eq!(fast.events(), reference.events());
            // A random placement of the board is legal exactly when it is generated.
            for _ in 0..20 {
                let i = rng.gen_range(0..fast.board().placement_count());
                let probe = fast.board().all_moves().nth(i).unwrap();
                prop_assert_eq!(fast.is_legal(probe), moves.binary_search(&probe).is_ok());
            }
            let Some(&mv) = moves.get(rng.gen_range(0..moves.len().max(1))) else { break };
            fast.play(mv).unwrap();
            reference.play(mv).unwrap();
            assert_no_hole(&fast);
        }
        prop_assert!(fast.is_over() && reference.is_over());
        assert_score_matches_build(&fast);
        prop_assert_eq!(fast.score(), reference.score());
    }

    /// Out is out (R8): a colour never moves again after its elimination, and every
    /// colour is out when the game ends.
    #[test]
    fn eliminated_colours_never_move_again(
        scenario in 0..6usize,
        players in 2..=4u8,
        seed in any::<u64>(),
    ) {
        let mut game = Position::new(setup(scenario, players, Variant::Standard, seed)).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut movers = Vec::new();
        while let Some(mv) = game.random_move(&mut rng) {
            movers.push(game.to_move().unwrap());
            game.play_unchecked(mv);
        }
        for event in game.events() {
            let rumis::Event::Out { ply, colour } = *event;
            prop_assert!(!movers[ply..].contains(&colour), "{} moved after being out", colour);
        }
        for c in 0..game.colour_count() {
            prop_assert!(game.is_out(Colour(c as u8)));
        }
        assert_score_matches_build(&game);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Whatever a person types, reading a move never panics, and what it accepts is a
    /// legal move.
    #[test]
    fn typed_moves_never_panic(text in "[A-Za-z0-9:/@ ]{0,24}|[DILOTSYAB][234]( [a-f][0-9]{1,3}(:[0-9]{1,3})?){0,5}|[DILOTSYAB][234]/[0-9]{1,2}@[a-z][0-9]{1,3}") {
        let game = Position::new(setup(0, 2, Variant::Standard, 0)).unwrap();
        if let Ok(mv) = game.parse_move(&text) {
            prop_assert!(game.is_legal(mv));
        }
    }
}
