//! Property tests over random seeded games: the fast generator agrees with the plain
//! rules, the build never has a hole, and the score is what the build shows; for
//! Rumis+ (R13–R16) the same over the new boards, 5 and 6 players, both first-stone
//! rules, the inverse variant and the dismantling game, with each rule checked move by
//! move against the build.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rumis::{Cell, Colour, Event, FirstStones, Move, Position, Scenario, Setup, Variant};

const SCENARIOS: [&str; 6] = ["chullpa", "pirka", "tambo", "pisac", "coricancha", "cucho"];
const BASE_VARIANTS: [Variant; 4] = [
    Variant::Standard,
    Variant::FourColours,
    Variant::Ruinas,
    Variant::RuinasRandom,
];

fn setup(scenario: usize, players: u8, variant: Variant, seed: u64) -> Setup {
    let players = match variant {
        Variant::FourColours => 2,
        Variant::Ruinas | Variant::RuinasRandom => players.min(3),
        _ => players,
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
        variant in prop::sample::select(BASE_VARIANTS.to_vec()),
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
            if let Event::Out { ply, colour } = *event {
                prop_assert!(!movers[ply..].contains(&colour), "{} moved after being out", colour);
            }
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

/// Every Rumis+ setup: (scenario, players, variant, first-stone rule).
fn rumis_plus_setups() -> Vec<(&'static str, u8, Variant, FirstStones)> {
    let mut all = Vec::new();
    for key in ["colca", "puncu", "apachita", "chaka", "huaca", "incahuasi"] {
        for players in 2..=6u8 {
            all.push((
                key,
                players,
                Variant::Standard,
                FirstStones::default_for(players),
            ));
            if players >= 5 {
                all.push((key, players, Variant::Standard, FirstStones::Face));
                all.push((key, players, Variant::Inverse, FirstStones::Edge));
                all.push((key, players, Variant::Inverse, FirstStones::Face));
            }
        }
        if Scenario::builtin(key).unwrap().dismantle.is_some() {
            all.push((key, 2, Variant::Dismantle, FirstStones::Face));
        }
    }
    all
}

/// The face neighbours of a move's cubes outside the move, with their colours.
fn touching(game: &Position, cells: &[Cell]) -> Vec<(Cell, Colour)> {
    let b = game.board();
    cells
        .iter()
        .flat_map(|&c| b.face_neighbours(c).collect::<Vec<_>>())
        .filter(|n| !cells.contains(n))
        .filter_map(|n| game.colour_at(n).map(|c| (n, c)))
        .collect()
}

/// Checks the Rumis+ rule the move must obey, on the build before it (R14, R15, R16).
fn assert_rumis_plus_rule(game: &Position, mv: Move, first_cells: &[Cell]) {
    let colour = game.to_move().unwrap();
    let cells = game.cells_of(mv);
    let b = game.board();
    let red = game.red_line();
    let inside = |c: &Cell| red.unwrap()[c.y as usize * b.width + c.x as usize];
    if game.removing() {
        // R16: inside the red line, nothing resting on it.
        assert_eq!(game.colour_at(cells[0]), Some(colour));
        for c in &cells {
            assert!(inside(c));
            let above = Cell { z: c.z + 1, ..*c };
            assert!(cells.contains(&above) || game.colour_at(above).is_none());
        }
        return;
    }
    if red.is_some() {
        // R16: the build phase inside the red line, the rebuild outside it.
        let rebuild = game.dismantling();
        assert!(cells.iter().all(|c| inside(c) != rebuild), "red line");
    }
    let first = game.supply(colour).len() == 11 && !game.dismantling();
    let others_placed = !game.history().is_empty();
    if first && others_placed && game.setup().first_stones == FirstStones::Edge {
        // R14: an edge contact, and no face contact with a first stone.
        assert!(cells.iter().all(|c| !touching(game, &[*c])
            .iter()
            .any(|(n, _)| first_cells.contains(n))));
        assert!(cells
            .iter()
            .any(|&c| b.edge_neighbours(c).any(|n| game.colour_at(n).is_some())));
        assert!(cells.iter().any(|c| c.z == 0));
    }
    if game.setup().variant == Variant::Inverse {
        // R15: never beside or on its own colour; later stones touch another colour.
        let t = touching(game, &cells);
        assert!(t.iter().all(|&(_, c)| c != colour), "inverse: own contact");
        if !first {
            assert!(!t.is_empty(), "inverse: another colour's contact");
        }
    }
}

/// R16's final score recounted from the build: interim + own visible squares outside
/// the red line − own stones set aside or still inside it.
fn assert_dismantling_score(game: &Position) {
    let b = game.board();
    let red = game.red_line().unwrap();
    let interim = game.interim().unwrap().colour_points.clone();
    let score = game.score();
    for c in 0..2u8 {
        let colour = Colour(c);
        let mut visible = 0;
        let mut inside_cubes = 0;
        for y in 0..b.depth as u8 {
            for x in 0..b.width as u8 {
                let column = y as usize * b.width + x as usize;
                let h = game.height(column);
                if h > 0 && !red[column] && game.colour_at(Cell { x, y, z: h - 1 }) == Some(colour)
                {
                    visible += 1;
                }
                if red[column] {
                    inside_cubes += (0..h)
                        .filter(|&z| game.colour_at(Cell { x, y, z }) == Some(colour))
                        .count();
                }
            }
        }
        // Stones inside the red line are those of the build phase not taken off; count
        // them by their cubes through the stones' sizes.
        let inside_stones = rumis::Stone::ALL
            .iter()
            .filter(|&&s| {
                game.stone_on_build(colour, s).is_some_and(|mv| {
                    let cell = game.cells_of(mv)[0];
                    red[cell.y as usize * b.width + cell.x as usize]
                })
            })
            .map(|s| s.size())
            .collect::<Vec<_>>();
        assert_eq!(inside_stones.iter().sum::<usize>(), inside_cubes);
        let expected = interim[c as usize] + visible
            - inside_stones.len() as i32
            - game.set_aside(colour) as i32;
        assert_eq!(score.colour_points[c as usize], expected, "{colour}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Rumis+ (R13–R16): the fast generator and the reference agree after every move
    /// (placements and R16's removals alike), every move keeps its rule, the build
    /// never has a hole, and the score is what the build shows.
    #[test]
    fn rumis_plus_fast_and_reference_agree_through_whole_games(
        pick in any::<prop::sample::Index>(),
        seed in any::<u64>(),
    ) {
        let setups = rumis_plus_setups();
        let (key, players, variant, first_stones) = setups[pick.index(setups.len())];
        let setup = Setup::new(Scenario::builtin(key).unwrap(), players)
            .with_variant(variant)
            .with_first_stones(first_stones)
            .with_seed(seed);
        let mut fast = Position::new(setup.clone()).unwrap();
        let mut reference = Position::new_reference(setup).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut first_cells: Vec<Cell> = Vec::new();
        loop {
            let moves = sorted_legal(&fast);
            prop_assert_eq!(&moves, &sorted_legal(&reference), "{} {}p {} {}", key, players, variant, first_stones);
            prop_assert_eq!(fast.to_move(), reference.to_move());
            prop_assert_eq!(fast.events(), reference.events());
            prop_assert_eq!(fast.removing(), reference.removing());
            for _ in 0..10 {
                let i = rng.gen_range(0..fast.board().placement_count());
                let probe = fast.board().all_moves().nth(i).unwrap();
                prop_assert_eq!(fast.is_legal(probe), moves.binary_search(&probe).is_ok());
            }
            let Some(&mv) = moves.get(rng.gen_range(0..moves.len().max(1))) else { break };
            assert_rumis_plus_rule(&fast, mv, &first_cells);
            let colour = fast.to_move().unwrap();
            if !fast.removing() && fast.supply(colour).len() == 11 && !fast.dismantling() {
                first_cells.extend(fast.cells_of(mv));
            }
            fast.play(mv).unwrap();
            reference.play(mv).unwrap();
            assert_no_hole(&fast);
        }
        prop_assert!(fast.is_over() && reference.is_over());
        prop_assert_eq!(fast.score(), reference.score());
        if variant == Variant::Dismantle {
            prop_assert!(fast.interim().is_some());
            assert_dismantling_score(&fast);
        } else {
            assert_score_matches_build(&fast);
        }
    }
}
