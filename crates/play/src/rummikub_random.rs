//! The random Rummikub bot: lays a random valid set from its rack (for the initial meld,
//! random sets until the minimum is reached), then adds whatever rack tiles fit onto
//! table sets; if it cannot play, it draws. It sees only its [`PlayerView`], like a
//! person. It lives here, not in the rules crate, which stays free of bots.

use rand_chacha::rand_core::RngCore;

use rummikub::deal::{shuffle, uniform_below};
use rummikub::tile::{Colour, Tile, TileCounts, MAX_NUMBER};
use rummikub::{Action, PlayerView, RuleSet, Set};

/// Chooses the random bot's action for the viewer's turn.
pub fn random_action(view: &PlayerView, rng: &mut impl RngCore) -> Action {
    let rules = &view.rules;
    let mut rack = TileCounts::from_tiles(&view.rack);
    let mut candidates = sets_from_rack(&rack, rules);
    shuffle(&mut candidates, rng);
    let mut table = view.table.clone();
    let melded = view.melded.get(view.player).copied().unwrap_or(false);
    if !melded {
        // K4: new sets from the rack, worth the minimum together.
        let mut value = 0;
        for set in candidates {
            if value >= rules.initial_meld_minimum {
                break;
            }
            if take_tiles(&mut rack, set.tiles()) {
                value += set.check(rules).map_or(0, |r| r.value);
                table.push(set);
            }
        }
        return if value >= rules.initial_meld_minimum && table.len() > view.table.len() {
            Action::Play(table)
        } else {
            Action::Draw
        };
    }
    let mut played_any = false;
    if let Some(set) = candidates.into_iter().next() {
        if take_tiles(&mut rack, set.tiles()) {
            table.push(set);
            played_any = true;
        }
    }
    // Add single rack tiles to table sets while any fits (never with the last tile left
    // unplayable: any tile may go).
    let mut loose: Vec<Tile> = rack.tiles();
    shuffle(&mut loose, rng);
    for tile in loose {
        let start = uniform_below(rng, table.len().max(1) as u32) as usize;
        for offset in 0..table.len() {
            let index = (start + offset) % table.len();
            let set = &table[index];
            if rules.frozen_joker_sets && set.jokers() > 0 {
                continue;
            }
            let mut tiles = set.tiles().to_vec();
            tiles.push(tile);
            let extended = Set::new(tiles);
            if extended.check(rules).is_ok() {
                table[index] = extended;
                played_any = true;
                break;
            }
        }
    }
    if played_any {
        Action::Play(table)
    } else {
        Action::Draw
    }
}

/// Removes the tiles from the rack if all are there; otherwise leaves it unchanged.
fn take_tiles(rack: &mut TileCounts, tiles: &[Tile]) -> bool {
    let needed = TileCounts::from_tiles(tiles);
    if !needed.is_subset_of(rack) {
        return false;
    }
    for &tile in tiles {
        rack.remove(tile);
    }
    true
}

/// Every valid group and run (3 tiles and up) that the rack can form, jokers filling
/// gaps up to the rules' limit.
pub fn sets_from_rack(rack: &TileCounts, rules: &RuleSet) -> Vec<Set> {
    let jokers = usize::from(rack.count(Tile::JOKER)).min(usize::from(rules.jokers_per_set));
    let mut sets = Vec::new();
    for number in 1..=MAX_NUMBER {
        let present: Vec<Tile> = Colour::ALL
            .iter()
            .filter_map(|&c| Tile::new(c, number))
            .filter(|&t| rack.count(t) > 0)
            .collect();
        for mask in 1u32..(1 << present.len()) {
            let chosen: Vec<Tile> = (0..present.len())
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| present[i])
                .collect();
            for used in 0..=jokers {
                let len = chosen.len() + used;
                if (3..=4).contains(&len) {
                    let mut tiles = chosen.clone();
                    tiles.extend(std::iter::repeat_n(Tile::JOKER, used));
                    sets.push(Set::new(tiles));
                }
            }
        }
    }
    let max = usize::from(MAX_NUMBER);
    for colour in Colour::ALL {
        let last_start = if rules.run_wraps_around { max } else { max - 2 };
        for start in 1..=last_start {
            let longest = if rules.run_wraps_around {
                max
            } else {
                max - start + 1
            };
            for len in 3..=longest {
                let window: Vec<Tile> = (0..len)
                    .filter_map(|i| Tile::new(colour, ((start - 1 + i) % max) as u8 + 1))
                    .collect();
                let missing = window.iter().filter(|&&t| rack.count(t) == 0).count();
                if missing > jokers || missing == len {
                    continue;
                }
                let tiles = window
                    .iter()
                    .map(|&t| if rack.count(t) > 0 { t } else { Tile::JOKER })
                    .collect();
                sets.push(Set::new(tiles));
            }
        }
    }
    sets.retain(|s| s.check(rules).is_ok());
    sets
}
