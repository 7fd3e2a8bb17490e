//! The sets of the play found: each number's choices replayed with concrete runs.

use super::context::Ctx;
use super::expand::NumberChoice;
use super::group_bonus::GroupBonus;
use super::state::Key;
use super::{Answer, Problem};
use crate::groups::GroupShape;
use crate::runs::{close_at_13, unpack, Act, ColOpt, Tok};
use rummikub::tile::{Colour, Tile};

pub(super) fn unpack_x(x: u8) -> [u8; 4] {
    [x & 3, (x >> 2) & 3, (x >> 4) & 3, (x >> 6) & 3]
}

pub(super) fn tile(c: usize, n: u8) -> Tile {
    Tile::new(Colour::ALL[c], n).unwrap_or(Tile::JOKER)
}

/// Replays each number's choices with concrete runs to build the sets.
pub(super) fn rebuild(
    ctx: &Ctx,
    p: &Problem,
    group_bonus: &GroupBonus,
    numbers: &[(u8, NumberChoice)],
    last: Key,
    score: i32,
) -> Answer {
    let mut sets: Vec<Vec<Tile>> = Vec::new();
    let mut kept = Vec::new();
    // Per colour: open runs with their token and tiles.
    let mut runs: [Vec<(Tok, Vec<Tile>)>; 4] = Default::default();
    for &(n, choice) in numbers {
        let starting = p.keepable.iter().filter(|k| k.first == n);
        for (b, k) in starting.enumerate() {
            if choice.keep & (1 << b) != 0 {
                kept.push(k.index);
            }
        }
        for (c, &(list, opt)) in choice.colours.iter().enumerate() {
            if let Some(opt) = ctx.lists[list as usize].full.get(usize::from(opt)) {
                let current = std::mem::take(&mut runs[c]);
                runs[c] = replay(current, opt, c, p.printed[usize::from(n)], &mut sets);
            }
        }
        let x = unpack_x(choice.x);
        if let Some(shapes) = group_bonus.best_split(n, x, choice.group_jokers) {
            for &GroupShape { colours, jokers } in shapes {
                let mut set: Vec<Tile> = (0..4)
                    .filter(|c| colours & (1 << c) != 0)
                    .map(|c| tile(c, p.printed[usize::from(n)]))
                    .collect();
                set.extend(std::iter::repeat_n(Tile::JOKER, usize::from(jokers)));
                sets.push(set);
            }
        }
    }
    let track_joker = ctx.rules.track_joker();
    for (c, colour_runs) in runs.iter_mut().enumerate() {
        colour_runs.sort_by_key(|r| std::cmp::Reverse(r.0));
        let tokens: Vec<Tok> = unpack(ctx.packed[usize::from(last.cols[c])]);
        let pairs = close_at_13(&tokens, track_joker).unwrap_or_default();
        let mut taken = vec![false; colour_runs.len()];
        for (o, r) in pairs {
            let mut set = colour_runs[r].1.clone();
            set.extend(colour_runs[o].1.iter().copied());
            sets.push(set);
            taken[o] = true;
            taken[r] = true;
        }
        for (i, (_, tiles)) in colour_runs.iter().enumerate() {
            if !taken[i] {
                sets.push(tiles.clone());
            }
        }
    }
    Answer { score, sets, kept }
}

/// Applies one colour option to the concrete open runs of that colour (`n`: the
/// printed number).
pub(super) fn replay(
    mut current: Vec<(Tok, Vec<Tile>)>,
    opt: &ColOpt,
    c: usize,
    n: u8,
    sets: &mut Vec<Vec<Tile>>,
) -> Vec<(Tok, Vec<Tile>)> {
    current.sort_by_key(|r| std::cmp::Reverse(r.0));
    let mut next = Vec::new();
    let acts = opt.acts.len();
    for (((_, mut tiles), act), &after) in current.into_iter().zip(opt.acts.iter()).zip(&opt.after)
    {
        match act {
            Act::Pass => next.push((after, tiles)),
            Act::End if after != 0 => next.push((after, tiles)),
            Act::End => sets.push(tiles),
            Act::Tile | Act::Joker => {
                tiles.push(if *act == Act::Joker {
                    Tile::JOKER
                } else {
                    tile(c, n)
                });
                next.push((after, tiles));
            }
        }
    }
    for (&joker, &after) in opt.starts.iter().zip(&opt.after[acts..]) {
        next.push((after, vec![if joker { Tile::JOKER } else { tile(c, n) }]));
    }
    next
}

/// The sets built, as they read whichever way the numbers were walked: runs ascending
/// (walked `down`, they were built from the top), the sets by their lowest number.
pub(super) fn in_printed_order(sets: &mut [Vec<Tile>], down: bool) {
    if down {
        sets.iter_mut().for_each(|set| set.reverse());
    }
    let lowest = |set: &[Tile]| set.iter().filter_map(|t| t.number()).min();
    sets.sort_by(|a, b| (lowest(a), a).cmp(&(lowest(b), b)));
}
