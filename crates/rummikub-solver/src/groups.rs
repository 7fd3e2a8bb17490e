//! Groups at one number (K3): which ways the tiles of one number, by colour, and some
//! jokers can be split into groups. Precomputed once per jokers-per-set limit.

use std::sync::OnceLock;

/// One group: a bit per colour (in `Colour::ALL` order) and how many jokers fill it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GroupShape {
    pub colours: u8,
    pub jokers: u8,
}

/// `x` counts tiles per colour (0..=2 each) going into groups; returns a split into
/// groups of 3 or 4 distinct colours (jokers filling missing colours, at most
/// `jokers_per_set` in a group) that uses exactly those tiles and `jokers` jokers.
/// Every split of those tiles into groups (each multiset of groups once).
pub(crate) fn splits(x: [u8; 4], jokers: u8, jokers_per_set: u8) -> &'static [Vec<GroupShape>] {
    if x.iter().any(|&c| c > 2) || jokers > 2 {
        return &[];
    }
    let table = tables()[usize::from(jokers_per_set.min(2))].as_slice();
    table[index(x, jokers)].as_slice()
}

/// Per tiles set aside (2 bits a colour, as the DP packs them), a bit for each count of
/// jokers (0 to 2) with which [`splits`] has a split: the walk asks this for every
/// leaf, and a bit is cheaper than the split lists.
pub(crate) fn split_jokers(jokers_per_set: u8) -> &'static [u8; 256] {
    static TABLES: OnceLock<[[u8; 256]; 3]> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        std::array::from_fn(|per_set| {
            std::array::from_fn(|packed| {
                let x = std::array::from_fn(|c| (packed >> (2 * c)) as u8 & 3);
                (0..3u8)
                    .filter(|&j| !splits(x, j, per_set as u8).is_empty())
                    .fold(0, |bits, j| bits | 1 << j)
            })
        })
    });
    &tables[usize::from(jokers_per_set.min(2))]
}

fn index(x: [u8; 4], jokers: u8) -> usize {
    let mut i = 0usize;
    for c in x {
        i = i * 3 + usize::from(c);
    }
    i * 3 + usize::from(jokers)
}

type Table = Vec<Vec<Vec<GroupShape>>>;

fn tables() -> &'static [Table; 3] {
    static TABLES: OnceLock<[Table; 3]> = OnceLock::new();
    TABLES.get_or_init(|| [build(0), build(1), build(2)])
}

fn build(jokers_per_set: u8) -> Table {
    // Every single group shape allowed: 3 or 4 tiles, at least one numbered tile.
    let mut shapes = Vec::new();
    for colours in 1u8..16 {
        for jokers in 0..=jokers_per_set {
            let len = colours.count_ones() as u8 + jokers;
            if (3..=4).contains(&len) {
                shapes.push(GroupShape { colours, jokers });
            }
        }
    }
    let mut table = vec![Vec::new(); 81 * 3];
    // At most three groups fit in one number (8 tiles and 2 jokers, 3 or more each).
    let mut chosen = Vec::new();
    fill(&shapes, 0, &mut chosen, &mut table);
    table
}

fn fill(shapes: &[GroupShape], from: usize, chosen: &mut Vec<GroupShape>, table: &mut Table) {
    let mut x = [0u8; 4];
    let mut jokers = 0u8;
    for shape in chosen.iter() {
        for (c, slot) in x.iter_mut().enumerate() {
            *slot += (shape.colours >> c) & 1;
        }
        jokers += shape.jokers;
    }
    if x.iter().any(|&c| c > 2) || jokers > 2 {
        return;
    }
    table[index(x, jokers)].push(chosen.clone());
    if chosen.len() == 3 {
        return;
    }
    for i in from..shapes.len() {
        chosen.push(shapes[i]);
        fill(shapes, i, chosen, table);
        chosen.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k3_groups_need_three_distinct_colours_or_jokers_in_their_place() {
        let split = |x, j, jps| splits(x, j, jps).first();
        assert!(split([0; 4], 0, 2).is_some_and(|g| g.is_empty()));
        assert!(split([1, 1, 1, 0], 0, 2).is_some());
        assert!(split([1, 1, 0, 0], 0, 2).is_none());
        assert!(split([1, 1, 0, 0], 1, 2).is_some());
        assert!(split([2, 1, 1, 0], 0, 2).is_none());
        assert_eq!(split([2, 2, 2, 0], 0, 2).map(|g| g.len()), Some(2));
        // One joker per set (old rules): [r5 J J] is no group.
        assert!(split([1, 0, 0, 0], 2, 2).is_some());
        assert!(split([1, 0, 0, 0], 2, 1).is_none());
        assert!(split([1, 1, 0, 0], 2, 1).is_none());
        assert!(split([1, 1, 1, 1], 1, 0).is_none());
    }

    /// The walk's bits say the same as the split lists: [r5 b5] makes a group with one
    /// joker or two (if a set may hold two), [r5 r5 b5] with none of them.
    #[test]
    fn split_jokers_has_a_bit_where_a_split_exists() {
        let packed = |x: [u8; 4]| x.iter().rev().fold(0usize, |p, &c| p << 2 | usize::from(c));
        assert_eq!(split_jokers(2)[packed([1, 1, 0, 0])], 0b110);
        assert_eq!(split_jokers(1)[packed([1, 1, 0, 0])], 0b010);
        assert_eq!(split_jokers(2)[packed([2, 1, 0, 0])], 0);
        assert_eq!(split_jokers(2)[packed([0, 0, 0, 0])], 0b001);
        for per_set in 0..3 {
            for (p, &bits) in split_jokers(per_set).iter().enumerate() {
                let x = std::array::from_fn(|c| (p >> (2 * c)) as u8 & 3);
                for j in 0..3u8 {
                    let exists = !splits(x, j, per_set).is_empty();
                    assert_eq!(bits & 1 << j != 0, exists, "{x:?} with {j} jokers");
                }
            }
        }
    }
}
