//! Invariants over thousands of random seeded rounds (128 cases × 16 rounds): all 106
//! tiles are accounted for after every action, every table at the end of a turn is
//! valid, rejected actions change nothing, and the random bot's actions are always legal.

use play::rummikub_random::random_action;
use proptest::prelude::*;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rummikub::deal::uniform_below;
use rummikub::tile::TileCounts;
use rummikub::{Action, Round, RuleSet, Set, Tile};

/// Rounds played per proptest case.
const ROUNDS_PER_CASE: u64 = 16;

/// A turn a careless player might submit: the current table with one random change.
fn scrambled_table(round: &Round, rng: &mut ChaCha8Rng) -> Vec<Set> {
    let mut sets: Vec<Vec<Tile>> = round.table().iter().map(|s| s.tiles().to_vec()).collect();
    let rack = round.rack(round.current_player());
    match uniform_below(rng, 4) {
        // A rack tile onto a random set (or as a lone new set).
        0 if !rack.is_empty() => {
            let tile = rack[uniform_below(rng, rack.len() as u32) as usize];
            match sets.len() {
                0 => sets.push(vec![tile]),
                n => sets[uniform_below(rng, n as u32) as usize].push(tile),
            }
        }
        // A table tile moved from one set to another.
        1 if sets.len() >= 2 => {
            let from = uniform_below(rng, sets.len() as u32) as usize;
            let to = uniform_below(rng, sets.len() as u32) as usize;
            let at = uniform_below(rng, sets[from].len() as u32) as usize;
            let tile = sets[from].remove(at);
            sets[to].push(tile);
        }
        // A table tile dropped.
        2 if !sets.is_empty() => {
            let from = uniform_below(rng, sets.len() as u32) as usize;
            sets[from].pop();
        }
        // A tile nobody holds.
        _ => {
            let tile = Tile::from_index(uniform_below(rng, 53) as usize).unwrap_or(Tile::JOKER);
            sets.push(vec![tile, tile, tile]);
        }
    }
    sets.into_iter().map(Set::new).collect()
}

fn assert_invariants(round: &Round, full: &TileCounts) {
    assert_eq!(&round.all_tiles(), full, "tiles lost or created");
    for (i, set) in round.table().iter().enumerate() {
        assert!(
            set.check(round.rules()).is_ok(),
            "table set {} {set} is invalid",
            i + 1
        );
    }
}

fn play_round(rules: RuleSet, players: usize, seed: u64) {
    let full = TileCounts::from_tiles(&Tile::full_set());
    let mut round = Round::new(rules, players, seed).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xA5A5);
    assert_invariants(&round, &full);
    let mut actions = 0;
    while !round.is_over() {
        actions += 1;
        assert!(actions < 2_000, "round {seed} does not end");
        let player = round.current_player();
        if rng.next_u32() % 3 == 0 {
            let attempt = Action::Play(scrambled_table(&round, &mut rng));
            let before = round.clone();
            if round.apply(player, attempt).is_err() {
                assert_eq!(round, before, "a rejected action changed the round");
            }
            assert_invariants(&round, &full);
            if round.is_over() || round.current_player() != player {
                continue;
            }
        }
        let action = if rng.next_u32() % 50 == 0 && round.rules().turn_time_seconds.is_some() {
            Action::TimeOut
        } else {
            random_action(&round.view(player), &mut rng)
        };
        if let Err(error) = round.apply(player, action.clone()) {
            panic!("bot action {action:?} rejected in round {seed}: {error}");
        }
        assert_invariants(&round, &full);
    }
    let outcome = round.outcome().unwrap();
    let winner_score: i32 = outcome.winners.iter().map(|&w| outcome.scores[w]).sum();
    assert!(winner_score >= 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn random_rounds_conserve_tiles_and_keep_the_table_valid(
        seed in any::<u64>(),
        players in 2usize..=4,
        old in any::<bool>(),
    ) {
        let rules = if old { RuleSet::old() } else { RuleSet::current() };
        for offset in 0..ROUNDS_PER_CASE {
            play_round(rules.clone(), players, seed.wrapping_add(offset));
        }
    }
}

/// A random would-be set: mostly tiles of one colour or one number (so that many are
/// valid), with up to two jokers.
fn near_set() -> impl Strategy<Value = Vec<Tile>> {
    let colour = prop::sample::select(rummikub::Colour::ALL.to_vec());
    (
        colour,
        1u8..=13,
        prop::collection::vec((0u8..4, 0u8..13, 0u8..4), 1..14),
        0usize..=2,
    )
        .prop_map(|(colour, number, picks, jokers)| {
            let mut tiles: Vec<Tile> = picks
                .into_iter()
                .filter_map(|(kind, offset, other)| match kind {
                    // A tile of the run's colour, or of the group's number.
                    0 | 1 => Tile::new(colour, (number - 1 + offset) % 13 + 1),
                    2 => Tile::new(rummikub::Colour::ALL[usize::from(other)], number),
                    _ => Tile::new(rummikub::Colour::ALL[usize::from(other)], offset + 1),
                })
                .collect();
            tiles.extend(std::iter::repeat_n(Tile::JOKER, jokers));
            tiles
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// KD3: a set's reading is the highest-valued of all its readings (the first of
    /// equals), under both presets; `check` finds it without listing them all.
    #[test]
    fn check_reads_a_set_at_its_best_reading(tiles in near_set(), old in any::<bool>()) {
        let rules = if old { RuleSet::old() } else { RuleSet::current() };
        let all = rummikub::set::readings(&tiles, &rules);
        let best = all.into_iter().reduce(|best, r| if r.value > best.value { r } else { best });
        match rummikub::set::check_tiles(&tiles, &rules) {
            Ok(reading) => prop_assert_eq!(Some(reading), best),
            Err(_) => prop_assert!(best.is_none()),
        }
    }
}
