//! One test (or more) per ruling K1–K10 and per decision KD1–KD7, on hand-made positions.

use rummikub::notation::{parse_table, parse_tiles};
use rummikub::round::EndReason;
use rummikub::tile::TileCounts;
use rummikub::{
    Action, Event, GameLength, Round, RoundSeries, RoundSetup, RuleSet, Tile, TurnError,
};

/// A position: racks and table as notation, the pool is every other tile in box order
/// (so draws come from the end: jokers first, then o13, o13, o12, …). Player 1 moves.
fn position(rules: RuleSet, racks: &[&str], table: &str, melded: &[bool]) -> Round {
    let racks: Vec<Vec<Tile>> = racks.iter().map(|r| parse_tiles(r).unwrap()).collect();
    let table = parse_table(table).unwrap();
    let mut pool = TileCounts::from_tiles(&Tile::full_set());
    for tile in racks
        .iter()
        .flatten()
        .chain(table.iter().flat_map(|s| s.tiles()))
    {
        assert!(pool.remove(*tile), "test position uses {tile} too often");
    }
    RoundSetup {
        rules,
        racks,
        table,
        pool: pool.tiles(),
        current: 0,
        melded: melded.to_vec(),
    }
    .into_round()
    .unwrap()
}

/// Plays `table` as player 1; on rejection checks that nothing changed.
fn play(round: &mut Round, table: &str) -> Result<Event, TurnError> {
    let before = round.clone();
    let result = round.apply(
        round.current_player(),
        Action::Play(parse_table(table).unwrap()),
    );
    if result.is_err() {
        assert_eq!(*round, before, "a rejected turn changed the round");
    }
    result
}

fn rejection(round: &mut Round, table: &str) -> String {
    play(round, table).unwrap_err().to_string()
}

fn t(text: &str) -> Tile {
    text.parse().unwrap()
}

// ---- K3 at the table -------------------------------------------------------------

#[test]
fn k3_an_invalid_set_is_named_by_its_number_and_tiles() {
    let mut round = position(
        RuleSet::current(),
        &["r4 r5 b6 o1", "k1"],
        "[k1 k2 k3] [o7 o8 o9]",
        &[true, true],
    );
    assert_eq!(
        rejection(&mut round, "[k1 k2 k3] [o7 o8 o9] [r4 r5 b6]"),
        "set 3 [r4 r5 b6] is neither a run nor a group"
    );
    assert_eq!(
        rejection(&mut round, "[k1 k2 k3] [o7 o8 o9] [r4 r5]"),
        "set 3 [r4 r5] has only 2 tiles; a set needs at least 3"
    );
}

#[test]
fn k3_old_rules_allow_one_joker_per_set_and_runs_over_13() {
    let racks = ["r12 r13 r1 J J b5 k5", "k2"];
    let mut current = position(RuleSet::current(), &racks, "[o1 o2 o3]", &[true, true]);
    assert_eq!(
        rejection(&mut current, "[o1 o2 o3] [r12 r13 r1]"),
        "set 2 [r12 r13 r1] is neither a run nor a group"
    );
    assert!(play(&mut current, "[o1 o2 o3] [J b5 J]").is_ok());
    let mut old = position(RuleSet::old(), &racks, "[o1 o2 o3]", &[true, true]);
    assert_eq!(
        rejection(&mut old, "[o1 o2 o3] [J b5 J]"),
        "set 2 [J b5 J] has 2 jokers; these rules allow at most 1 per set"
    );
    assert!(play(&mut old, "[o1 o2 o3] [r12 r13 r1] [b5 k5 J]").is_ok());
}

// ---- K4 initial meld --------------------------------------------------------------

#[test]
fn k4_initial_meld_must_be_worth_30_from_the_rack() {
    let mut round = position(
        RuleSet::current(),
        &["r8 r9 r10 r11 b1", "k1"],
        "",
        &[false, false],
    );
    assert_eq!(
        rejection(&mut round, "[r8 r9 r10]"),
        "initial meld is worth 27, needs 30"
    );
    assert_eq!(
        play(&mut round, "[r9 r10 r11]"),
        Ok(Event::Played {
            tiles: parse_tiles("r9 r10 r11").unwrap(),
            initial_meld: Some(30)
        })
    );
    assert!(round.has_melded(0));
}

#[test]
fn k4_several_sets_add_up_and_a_joker_counts_as_the_tile_it_stands_for() {
    let mut round = position(
        RuleSet::current(),
        &["r1 r2 r3 b8 k8 o8", "k1"],
        "",
        &[false, false],
    );
    assert!(play(&mut round, "[r1 r2 r3] [b8 k8 o8]").is_ok());
    let mut round = position(
        RuleSet::current(),
        &["b12 b13 J", "k1"],
        "",
        &[false, false],
    );
    // The joker stands for b11: 11 + 12 + 13 = 36.
    assert_eq!(
        play(&mut round, "[b12 b13 J]").unwrap(),
        Event::Played {
            tiles: parse_tiles("b12 b13 J").unwrap(),
            initial_meld: Some(36)
        }
    );
}

#[test]
fn kd3_an_ambiguous_initial_meld_counts_its_highest_reading() {
    // [J r9 r10] may be 8-9-10 (27) or 9-10-11 (30): the highest reading counts.
    let mut round = position(RuleSet::current(), &["r9 r10 J", "k1"], "", &[false, false]);
    assert!(play(&mut round, "[J r9 r10]").is_ok());
}

#[test]
fn k4_current_rules_forbid_touching_the_table_in_the_initial_meld() {
    let racks = ["r10 r11 r12 k13", "k1"];
    let mut round = position(RuleSet::current(), &racks, "[k10 k11 k12]", &[false, true]);
    assert_eq!(
        rejection(&mut round, "[k10 k11 k12 k13] [r10 r11 r12]"),
        "the initial meld must not touch the table, but set [k10 k11 k12] was changed"
    );
    // The same play is fine as long as the table is left as it was.
    assert!(play(&mut round, "[r10 r11 r12] [k10 k11 k12]").is_ok());
}

#[test]
fn k4_old_rules_let_the_initial_meld_use_the_table() {
    let racks = ["r10 r11 r12 k13", "k1"];
    let mut round = position(RuleSet::old(), &racks, "[k10 k11 k12]", &[false, true]);
    assert_eq!(
        play(&mut round, "[k10 k11 k12 k13] [r10 r11 r12]").unwrap(),
        Event::Played {
            tiles: parse_tiles("r10 r11 r12 k13").unwrap(),
            initial_meld: Some(46)
        }
    );
    // What the play adds must still reach 30.
    let mut round = position(
        RuleSet::old(),
        &["k13 k9", "k1"],
        "[k10 k11 k12]",
        &[false, true],
    );
    assert_eq!(
        rejection(&mut round, "[k9 k10 k11 k12 k13]"),
        "initial meld is worth 22, needs 30"
    );
}

#[test]
fn k10_a_custom_initial_meld_minimum_applies() {
    let rules: RuleSet = "current initial_meld=50".parse().unwrap();
    let mut round = position(rules, &["r12 r13 b13 k13 o13", "k1"], "", &[false, false]);
    assert_eq!(
        rejection(&mut round, "[b13 k13 o13]"),
        "initial meld is worth 39, needs 50"
    );
    assert!(play(&mut round, "[r13 b13 k13 o13]").is_ok());
}

// ---- K5 manipulation and conservation ---------------------------------------------

#[test]
fn k5_seed_example_two_13s_take_a_13_from_a_run_of_10_to_13() {
    // Two 13s of different colours and a 13 from a black run 10–13: the run keeps
    // three tiles and stays valid.
    let mut round = position(
        RuleSet::current(),
        &["r13 b13 o2", "k1"],
        "[k10 k11 k12 k13]",
        &[true, true],
    );
    assert!(play(&mut round, "[k10 k11 k12] [r13 b13 k13]").is_ok());
    assert_eq!(round.table().len(), 2);
    assert_eq!(round.rack(0), vec![t("o2")]);
    assert_eq!(round.current_player(), 1);
}

#[test]
fn k5_no_limit_on_rearranging_after_the_initial_meld() {
    let table = "[r3 r4 r5 r6 r7 r8] [b5 k5 o5] [b8 k8 o8]";
    let mut round = position(
        RuleSet::current(),
        &["r5 r8 o1", "k1"],
        table,
        &[true, true],
    );
    // Split the run in two, lengthen one half with the rack's r5, move a table r8 into
    // a group and put the rack's r8 where it was: four sets touched in one turn.
    assert!(play(
        &mut round,
        "[r3 r4 r5] [r5 r6 r7 r8] [b5 k5 o5] [r8 b8 k8 o8]"
    )
    .is_ok());
    assert_eq!(round.rack(0), vec![t("o1")]);
}

#[test]
fn k5_a_tile_may_not_leave_the_table() {
    let mut round = position(
        RuleSet::current(),
        &["r1 r2 r3", "k1"],
        "[k5 k6 k7]",
        &[true, true],
    );
    assert_eq!(
        rejection(&mut round, "[k5 k6] [r1 r2 r3]"),
        "tile k7 left the table"
    );
}

#[test]
fn k5_no_tile_from_nowhere_and_no_third_copy() {
    let mut round = position(
        RuleSet::current(),
        &["r1 r2 r3", "k1"],
        "[k5 k6 k7] [o5 o6 o7]",
        &[true, true],
    );
    assert_eq!(
        rejection(&mut round, "[k5 k6 k7] [o5 o6 o7] [r2 r3 r4]"),
        "tile r4 is neither on the table nor in your rack"
    );
    let mut round = position(
        RuleSet::current(),
        &["k6 r1", "k1"],
        "[k5 k6 k7] [o5 o6 o7]",
        &[true, true],
    );
    assert_eq!(
        rejection(&mut round, "[k5 k6 k7] [o5 o6 o7] [k6 o6 r6] [k6 b6 o6]"),
        "the table would hold a third k6; there are only two of each tile"
    );
}

#[test]
fn k5_at_least_one_rack_tile_must_be_played() {
    let mut round = position(
        RuleSet::current(),
        &["r1", "k1"],
        "[k5 k6 k7 k8]",
        &[true, true],
    );
    assert_eq!(
        rejection(&mut round, "[k5 k6 k7 k8]"),
        "play at least one tile from your rack, or draw"
    );
    assert_eq!(rejection(&mut round, ""), "tile k5 left the table");
}

#[test]
fn k5_current_rules_rearrange_joker_sets_freely() {
    let table = "[r4 J r6 r7] [b7 b8 b9]";
    let mut round = position(
        RuleSet::current(),
        &["r5 k7 o7", "k1"],
        table,
        &[true, true],
    );
    assert!(play(&mut round, "[r4 r5 r6] [r7 k7 o7] [b7 b8 b9 J]").is_ok());
}

#[test]
fn k5_old_rules_freeze_joker_sets() {
    let table = "[r4 J r6 r7] [b7 b8 b9]";
    let mut round = position(RuleSet::old(), &["r5 r8 k7 o7", "k1"], table, &[true, true]);
    let frozen = "set [r4 J r6 r7] holds a joker and is frozen under these rules; \
                  only its joker may be swapped for the tile it stands for from your rack";
    assert_eq!(
        rejection(&mut round, "[r4 J r6] [r7 k7 o7] [b7 b8 b9]"),
        frozen
    );
    // KD7: adding to a frozen set is a change too.
    assert_eq!(rejection(&mut round, "[r4 J r6 r7 r8] [b7 b8 b9]"), frozen);
}

#[test]
fn k5_old_rules_allow_swapping_the_joker_for_its_tile_from_the_rack() {
    let table = "[r4 J r6 r7] [b7 b8 b9]";
    let mut round = position(RuleSet::old(), &["r5 k3", "k1"], table, &[true, true]);
    assert!(play(&mut round, "[r4 r5 r6 r7] [b7 b8 b9 J]").is_ok());
    // The joker's new set is frozen in later turns.
    assert!(round
        .table()
        .iter()
        .any(|s| s.jokers() == 1 && s.len() == 4));
}

#[test]
fn kd7_old_rules_swap_only_with_a_rack_tile_not_a_table_tile() {
    let table = "[r4 J r6] [r5 b5 k5 o5]";
    let mut round = position(RuleSet::old(), &["o9 o10 k1", "k2"], table, &[true, true]);
    assert_eq!(
        rejection(&mut round, "[r4 r5 r6] [b5 k5 o5] [J o9 o10]"),
        "set [r4 J r6] holds a joker and is frozen under these rules; \
         only its joker may be swapped for the tile it stands for from your rack"
    );
    // A tile that makes an invalid set is no swap either.
    let mut round = position(
        RuleSet::old(),
        &["r9 o9 o10", "k2"],
        "[r4 J r6]",
        &[true, true],
    );
    assert_eq!(
        rejection(&mut round, "[r4 r9 r6] [J o9 o10]"),
        "set 1 [r4 r9 r6] is neither a run nor a group"
    );
}

#[test]
fn kd7_a_group_joker_may_be_swapped_for_either_missing_colour() {
    let mut round = position(
        RuleSet::old(),
        &["o9 o10 o5", "k2"],
        "[r5 b5 J]",
        &[true, true],
    );
    assert!(play(&mut round, "[r5 b5 o5] [J o9 o10]").is_ok());
}

// ---- K6 draw, K7 time-out ----------------------------------------------------------

#[test]
fn k6_drawing_takes_one_pool_tile_and_ends_the_turn() {
    let mut round = position(RuleSet::current(), &["r1", "k1"], "", &[false, false]);
    let pool = round.pool_len();
    assert_eq!(
        round.apply(0, Action::Draw),
        Ok(Event::Drew(Some(Tile::JOKER)))
    );
    assert_eq!(round.rack(0), vec![t("r1"), Tile::JOKER]);
    assert_eq!(round.pool_len(), pool - 1);
    assert_eq!(round.current_player(), 1);
    assert_eq!(
        round.apply(0, Action::Draw).unwrap_err().to_string(),
        "it is player 2's turn, not player 1's"
    );
}

#[test]
fn k7_time_out_restores_the_table_and_draws_three_penalty_tiles() {
    let mut round = position(
        RuleSet::current(),
        &["r1 r2 r3", "k1"],
        "[b1 b2 b3]",
        &[true, true],
    );
    let table = round.table().to_vec();
    let event = round.apply(0, Action::TimeOut).unwrap();
    assert_eq!(event, Event::Penalty(parse_tiles("J J o13").unwrap()));
    assert_eq!(round.rack(0).len(), 6);
    assert_eq!(round.table(), table.as_slice());
    assert_eq!(round.current_player(), 1);
}

#[test]
fn kd9_no_time_out_without_a_time_limit() {
    let rules: RuleSet = "current turn_time=off".parse().unwrap();
    let mut round = position(rules, &["r1", "k1"], "", &[false, false]);
    assert_eq!(
        round.apply(0, Action::TimeOut).unwrap_err().to_string(),
        "these rules have no turn time limit"
    );
}

/// Every tile not in the racks goes to the table as runs (each colour twice, the
/// numbers left over split into consecutive stretches, each at least three long).
fn empty_pool_position(racks: &[&str], pool: &str) -> Round {
    let racks_tiles: Vec<Vec<Tile>> = racks.iter().map(|r| parse_tiles(r).unwrap()).collect();
    let pool_tiles = parse_tiles(pool).unwrap();
    let mut rest = TileCounts::from_tiles(&Tile::full_set());
    for tile in racks_tiles.iter().flatten().chain(&pool_tiles) {
        assert!(rest.remove(*tile));
    }
    let mut table = Vec::new();
    for colour in rummikub::Colour::ALL {
        for _copy in 0..2 {
            let mut run = Vec::new();
            for number in 1..=13 {
                let tile = Tile::new(colour, number).unwrap();
                if rest.remove(tile) {
                    run.push(tile);
                } else if !run.is_empty() {
                    table.push(rummikub::Set::new(std::mem::take(&mut run)));
                }
            }
            if !run.is_empty() {
                table.push(rummikub::Set::new(run));
            }
        }
    }
    assert_eq!(
        rest.count(Tile::JOKER),
        0,
        "test positions keep jokers on racks"
    );
    RoundSetup {
        rules: RuleSet::current(),
        racks: racks_tiles,
        table,
        pool: pool_tiles,
        current: 0,
        melded: vec![true; racks.len()],
    }
    .into_round()
    .unwrap()
}

#[test]
fn kd1_an_empty_pool_draw_passes_and_a_short_pool_gives_fewer_penalty_tiles() {
    let mut round = empty_pool_position(&["r1 J", "b1 J", "k1 o1"], "r13 b13");
    assert_eq!(
        round.apply(0, Action::TimeOut),
        Ok(Event::Penalty(parse_tiles("b13 r13").unwrap()))
    );
    assert_eq!(round.apply(1, Action::Draw), Ok(Event::Drew(None)));
    assert_eq!(round.rack_len(1), 2);
}

#[test]
fn k8_the_round_ends_when_a_player_plays_every_tile() {
    let mut round = position(
        RuleSet::current(),
        &["r1 r2 r3", "k1 k2 J"],
        "[b5 b6 b7]",
        &[true, true],
    );
    play(&mut round, "[b5 b6 b7] [r1 r2 r3]").unwrap();
    let outcome = round.outcome().unwrap();
    assert_eq!(outcome.reason, EndReason::Rummikub);
    assert_eq!(outcome.winners, vec![0]);
    // K9: the joker left on a rack costs 50.
    assert_eq!(outcome.scores, vec![53, -53]);
    assert_eq!(round.apply(1, Action::Draw), Err(TurnError::RoundOver));
}

#[test]
fn k8_an_empty_pool_and_a_full_round_without_play_ends_with_the_lowest_rack_winning() {
    let mut round = empty_pool_position(&["r1 J", "b1 k1", "o1 J"], "");
    round.apply(0, Action::Draw).unwrap();
    round.apply(1, Action::Draw).unwrap();
    assert!(!round.is_over());
    round.apply(2, Action::Draw).unwrap();
    let outcome = round.outcome().unwrap();
    assert_eq!(outcome.reason, EndReason::PoolExhausted);
    assert_eq!(outcome.winners, vec![1]);
    assert_eq!(outcome.rack_values, vec![51, 2, 51]);
    assert_eq!(outcome.scores, vec![-51, 102, -51]);
}

#[test]
fn k8_a_play_on_an_empty_pool_restarts_the_count() {
    let mut round = empty_pool_position(&["r1 J", "b1 b13", "o1 J"], "");
    round.apply(0, Action::Draw).unwrap();
    // Player 2 adds b13 to the blue run 2–12.
    let mut table = round.table().to_vec();
    let blue = table
        .iter()
        .position(|s| s.tiles().first() == Some(&t("b2")))
        .unwrap();
    let mut tiles = table[blue].tiles().to_vec();
    tiles.push(t("b13"));
    table[blue] = rummikub::Set::new(tiles);
    round.apply(1, Action::Play(table)).unwrap();
    round.apply(2, Action::Draw).unwrap();
    round.apply(0, Action::Draw).unwrap();
    assert!(!round.is_over());
    round.apply(1, Action::Draw).unwrap();
    assert_eq!(round.outcome().unwrap().winners, vec![1]);
}

#[test]
fn kd4_players_tied_for_the_lowest_rack_share_the_win() {
    let mut round = empty_pool_position(&["J J", "b1 b2", "o1 o2"], "");
    for player in 0..3 {
        round.apply(player, Action::Draw).unwrap();
    }
    let outcome = round.outcome().unwrap();
    assert_eq!(outcome.winners, vec![1, 2]);
    assert_eq!(outcome.scores, vec![-100, 50, 50]);
}

// ---- K9 scoring --------------------------------------------------------------------

#[test]
fn k9_custom_joker_penalty_changes_the_score() {
    let rules: RuleSet = "current joker_penalty=30".parse().unwrap();
    let mut round = position(rules, &["r1 r2 r3", "k1 J"], "", &[true, true]);
    play(&mut round, "[r1 r2 r3]").unwrap();
    assert_eq!(round.outcome().unwrap().scores, vec![31, -31]);
}

#[test]
fn k9_totals_add_up_over_rounds_and_the_highest_total_wins() {
    let rules: RuleSet = "current game=rounds:3".parse().unwrap();
    let mut game = RoundSeries::new(rules, 2, 11).unwrap();
    let mut rng = rummikub::deal::rng_from_seed(5);
    while !game.is_over() {
        if game.round().is_over() {
            assert!(game.next_round());
        }
        let player = game.round().current_player();
        let action = play::rummikub_random::random_action(&game.view(player), &mut rng);
        game.apply(player, action).unwrap();
    }
    assert_eq!(game.finished_rounds().len(), 3);
    for player in 0..2 {
        let sum: i32 = game
            .finished_rounds()
            .iter()
            .map(|o| o.scores[player])
            .sum();
        assert_eq!(game.totals()[player], sum);
    }
    let best = *game.totals().iter().max().unwrap();
    assert!(game.winners().iter().all(|&w| game.totals()[w] == best));
    assert!(!game.next_round());
}

#[test]
fn k9_a_target_score_ends_the_game_once_reached() {
    let rules = RuleSet {
        game_length: GameLength::TargetScore(100),
        ..RuleSet::current()
    };
    let mut game = RoundSeries::new(rules, 3, 2).unwrap();
    let mut rng = rummikub::deal::rng_from_seed(9);
    while !game.is_over() {
        if game.round().is_over() {
            assert!(game.totals().iter().all(|&t| t < 100));
            assert!(game.next_round());
        }
        let player = game.round().current_player();
        let action = play::rummikub_random::random_action(&game.view(player), &mut rng);
        game.apply(player, action).unwrap();
    }
    assert!(game.totals().iter().any(|&t| t >= 100));
}

// ---- K2 redeal ---------------------------------------------------------------------

#[test]
fn k2_three_pairs_may_demand_a_new_deal_before_the_first_turn() {
    // KD5: any player may claim, not only the one to move; the deal starts over.
    let racks = ["r10 r10 b3 b3 k7 k7 o1", "o2 o3"];
    let mut round = position(RuleSet::current(), &racks, "", &[false, false]);
    assert!(!round.view(1).can_claim_redeal && round.view(0).can_claim_redeal);
    assert_eq!(
        round.apply(1, Action::ClaimRedeal).unwrap_err().to_string(),
        "player 2 holds 0 pairs; a new deal needs three"
    );
    assert_eq!(round.apply(0, Action::ClaimRedeal), Ok(Event::Redealt));
    assert!((0..2).all(|p| round.rack_len(p) == 14));
    assert_eq!(round.all_tiles(), TileCounts::from_tiles(&Tile::full_set()));
}

#[test]
fn k2_no_new_deal_after_the_first_turn_or_under_the_old_rules() {
    let racks = ["r10 r10 b3 b3 k7 k7 o1", "o2 o3 o2 o3 o4 o4"];
    let mut round = position(RuleSet::current(), &racks, "", &[false, false]);
    round.apply(0, Action::Draw).unwrap();
    assert_eq!(
        round.apply(1, Action::ClaimRedeal),
        Err(TurnError::RedealTooLate)
    );
    let mut old = position(RuleSet::old(), &racks, "", &[false, false]);
    assert_eq!(
        old.apply(0, Action::ClaimRedeal).unwrap_err().to_string(),
        "these rules have no new deal for three pairs"
    );
}

// ---- hidden information ------------------------------------------------------------

#[test]
fn a_view_shows_nothing_of_other_racks_or_the_pool_order() {
    // Two positions that differ only in player 2's rack and the pool look the same to
    // player 1.
    let a = position(
        RuleSet::current(),
        &["r1 r2", "k1 k2"],
        "[b1 b2 b3]",
        &[true, false],
    );
    let b = position(
        RuleSet::current(),
        &["r1 r2", "o9 J"],
        "[b1 b2 b3]",
        &[true, false],
    );
    assert_eq!(a.view(0), b.view(0));
    assert_ne!(a.view(1), b.view(1));
    let view = a.view(0);
    assert_eq!(view.rack_sizes, vec![2, 2]);
    assert_eq!(view.pool_size, 106 - 7);
    assert_eq!(view.rack, parse_tiles("r1 r2").unwrap());
}

#[test]
fn illegal_players_and_finished_rounds_are_rejected_without_panicking() {
    let mut round = position(RuleSet::current(), &["r1 r2", "k1 k2"], "", &[true, false]);
    assert_eq!(
        round.apply(7, Action::Draw).unwrap_err().to_string(),
        "there is no player 8 at this table"
    );
    assert!(round.check_play(5, &[]).is_err());
}

#[test]
fn kd10_round_one_of_a_game_deals_like_a_round_record_with_the_game_seed() {
    let game = RoundSeries::new(RuleSet::current(), 3, 77).unwrap();
    let round = Round::new(RuleSet::current(), 3, 77).unwrap();
    assert_eq!(game.round(), &round);
    assert_eq!(RuleSet::current().game_length, GameLength::Rounds(1));
    assert_ne!(rummikub::series::round_seed(77, 1), 77);
}
