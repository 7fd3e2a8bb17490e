//! K2 start-player draw with jokers (KD6) and ties after a joker redraw (KD13).

use rummikub::deal::{deal, rng_from_seed, start_player_draw, StartDraw};
use rummikub::notation::{format_tiles, parse_tiles};

/// The draw for `players` players, the tiles coming in the order written; answers who
/// starts (1-based) and each drawing round as "player tile" lines (1-based).
fn draw(players: usize, tiles: &str) -> (usize, Vec<String>) {
    let mut tiles = parse_tiles(tiles).unwrap().into_iter();
    let (start, rounds) = start_player_draw(players, || tiles.next().expect("tiles run out"));
    assert_eq!(tiles.next(), None, "tiles left over");
    (start + 1, rounds.iter().map(|r| show(r)).collect())
}

fn show(round: &[StartDraw]) -> String {
    let parts: Vec<String> = round
        .iter()
        .map(|d| format!("{} {}", d.player + 1, format_tiles(&[d.tile])))
        .collect();
    parts.join(", ")
}

#[test]
fn kd6_seed_140_only_the_joker_drawer_draws_again() {
    // Player 2's b13 against player 3's joker: player 2 keeps b13, only player 3 draws
    // again; player 2 starts unless that redraw is a 13.
    let deal = deal(3, &mut rng_from_seed(140)).unwrap();
    let first = show(&deal.start_draws[0]);
    assert_eq!(first, "1 r5, 2 b13, 3 J");
    let redraw = &deal.start_draws[1];
    assert_eq!(redraw.len(), 1);
    assert_eq!(redraw[0].player, 2);
    if redraw[0].tile.number() == Some(13) {
        assert!(deal.start_draws.len() > 2);
    } else {
        assert_eq!(deal.start_draws.len(), 2);
        assert_eq!(deal.start_player, 1);
    }
    // As dealt today: player 3 redraws b6, so player 2 starts.
    assert_eq!(show(redraw), "3 b6");
    assert_eq!(deal.start_player, 1);
}

#[test]
fn kd6_a_joker_then_a_lower_number_leaves_the_leader_starting() {
    let (start, rounds) = draw(3, "r5 b13 J k7");
    assert_eq!(rounds, ["1 r5, 2 b13, 3 J", "3 k7"]);
    assert_eq!(start, 2);
}

#[test]
fn kd6_a_joker_then_a_higher_number_beats_the_leader() {
    let (start, rounds) = draw(2, "r10 J o12");
    assert_eq!(rounds, ["1 r10, 2 J", "2 o12"]);
    assert_eq!(start, 2);
}

#[test]
fn kd13_a_joker_redraw_that_ties_the_leader_makes_both_draw_again() {
    // Player 2 kept b13, player 3's redraw is k13: both draw again afresh, player 1
    // (r5, lower) is out.
    let (start, rounds) = draw(3, "r5 b13 J k13 o2 r9");
    assert_eq!(rounds, ["1 r5, 2 b13, 3 J", "3 k13", "2 o2, 3 r9"]);
    assert_eq!(start, 3);
}

#[test]
fn kd6_two_jokers_both_draw_again_and_the_others_keep_their_numbers() {
    let (start, rounds) = draw(4, "J r4 J k2 b6 o3");
    assert_eq!(rounds, ["1 J, 2 r4, 3 J, 4 k2", "1 b6, 3 o3"]);
    assert_eq!(start, 1);
    // Two players, two jokers: both draw again.
    let (start, rounds) = draw(2, "J J r3 r10");
    assert_eq!(rounds, ["1 J, 2 J", "1 r3, 2 r10"]);
    assert_eq!(start, 2);
}

#[test]
fn kd13_a_joker_in_a_tie_redraw_draws_again_and_nothing_is_kept_from_before() {
    // Players 1 and 2 tie on 13 and draw again afresh; player 1's joker draws again
    // while player 2 keeps r1; player 1's b1 ties it, so both draw once more.
    let (start, rounds) = draw(3, "r13 b13 k2 J r1 b1 o5 o4");
    assert_eq!(
        rounds,
        ["1 r13, 2 b13, 3 k2", "1 J, 2 r1", "1 b1", "1 o5, 2 o4"]
    );
    assert_eq!(start, 1);
}

#[test]
fn kd6_kd13_the_draw_only_changes_the_start_player_never_the_racks() {
    // The start-player draw uses its own shuffled pile; the deal shuffles afresh, so the
    // racks of a seed do not depend on how the draw went.
    let deal = deal(3, &mut rng_from_seed(140)).unwrap();
    assert_eq!(
        format_tiles(&deal.racks[0]),
        "r3 r5 r5 r12 b13 k3 k4 k6 k8 k13 k13 o1 o3 o9"
    );
}
