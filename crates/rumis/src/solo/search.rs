//! The exact-cover search over a cube: find one solution, or count them all.

use std::collections::HashMap;

use super::dlx::Dlx;
use super::turns::{Decision, Turns};
use super::{order, symmetry, Piece, SoloCube, Solution};
use crate::colour::Colour;

/// Solutions counted: every filled cube as placed, and one per orbit of the cube's
/// symmetries (PD7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub as_placed: u64,
    pub up_to_symmetry: u64,
}

/// How far a count has come, for a progress bar: the share of the search tree's first
/// two levels done (each first-level branch weighs the same), and the solutions so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    pub fraction: f64,
    pub as_placed: u64,
}

/// One search: the links, the rows (kind, placement) and what is placed.
struct Search<'a> {
    cube: &'a SoloCube,
    dlx: Dlx,
    /// Per row id: (kind, placement).
    rows: Vec<(u32, u32)>,
    /// Per row id: its first node.
    first: Vec<u32>,
    /// Pieces fixed before the search (a build in progress), in their order.
    prefix: Vec<Piece>,
    /// Rows chosen by the search, in order.
    chosen: Vec<u32>,
    /// Cells of each colour (used for alternating colours).
    colour_cells: Vec<u128>,
    /// Cells filled, by the prefix and the chosen rows.
    filled: u128,
    /// Rows hidden by forward checking (alternating colours), in the order hidden.
    hidden: Vec<u32>,
    /// Stones placed per colour, and whether unused colours are interchangeable here
    /// (alternating colours, searching for one solution): then a stone may open only
    /// the lowest colour not used yet.
    per_colour: Vec<u32>,
    colour_symmetry: bool,
    /// Whether the cube's symmetries may be broken at the first cell (one solution
    /// wanted, from an empty cube): of the placements there, only the smallest of each
    /// orbit under the symmetries that keep that cell are tried.
    cell_symmetry: bool,
    /// Progress over the first two levels: (branch, branches) per level.
    levels: [(usize, usize); 2],
    /// Copies of stones not placed yet, by size (2, 3, 4 cubes), and empty cells.
    copies_by_size: [u32; 5],
    empty: usize,
    /// Nodes searched, and whether the caller stopped the search.
    nodes: u64,
    stopped: bool,
}

/// Nodes searched between two calls of the caller's stop check.
const CHECK_EVERY: u64 = 4096;

/// What to do at each solution: go on searching or stop.
enum Flow {
    Continue,
    Stop,
}

impl<'a> Search<'a> {
    /// Sets up the links with `prefix` already placed; `None` if the prefix does not fit
    /// (overlaps, or uses a stone more often than there are copies).
    fn new(cube: &'a SoloCube, prefix: &[Piece]) -> Option<Search<'a>> {
        let volume = cube.volume();
        let capacities: Vec<u32> = cube.kinds.iter().map(|k| k.capacity).collect();
        let mut dlx = Dlx::new(volume, &capacities);
        let mut rows = Vec::new();
        let mut first = Vec::new();
        let mut index: HashMap<(u32, u32), u32> = HashMap::new();
        let mut items = Vec::with_capacity(5);
        // Larger stones first: the small ones are kept to fill the last gaps.
        let mut order: Vec<usize> = (0..cube.kinds.len()).collect();
        order.sort_by_key(|&k| std::cmp::Reverse(cube.kinds[k].stone.size()));
        let mut copies_by_size = [0u32; 5];
        for kind in &cube.kinds {
            copies_by_size[kind.stone.size()] += kind.capacity;
        }
        for k in order {
            let kind = &cube.kinds[k];
            for (p, placement) in cube.placements().iter().enumerate() {
                if placement.stone != kind.stone {
                    continue;
                }
                let id = rows.len() as u32;
                items.clear();
                items.extend(super::bits(placement.mask));
                items.push(volume + k);
                first.push(dlx.add_row(id, &items));
                rows.push((k as u32, p as u32));
                index.insert((k as u32, p as u32), id);
            }
        }
        let mut search = Search {
            cube,
            dlx,
            rows,
            first,
            prefix: prefix.to_vec(),
            chosen: Vec::new(),
            colour_cells: vec![0; cube.spec().colours as usize],
            filled: 0,
            hidden: Vec::new(),
            per_colour: vec![0; cube.spec().colours as usize],
            colour_symmetry: false,
            cell_symmetry: false,
            levels: [(0, 1); 2],
            copies_by_size,
            empty: volume,
            nodes: 0,
            stopped: false,
        };
        let mut filled = 0u128;
        let mut used = vec![0u32; capacities.len()];
        for piece in prefix {
            let k = cube.kind_of(piece)?;
            let mask = cube.placements().get(piece.placement)?.mask;
            used[k] += 1;
            if filled & mask != 0 || used[k] > capacities[k] {
                return None;
            }
            filled |= mask;
            let node = search.first[*index.get(&(k as u32, piece.placement as u32))? as usize];
            search.dlx.open(search.dlx.header_of(node));
            search.dlx.select(node);
            search.colour_cells[piece.colour.index()] |= mask;
            search.per_colour[piece.colour.index()] += 1;
            search.copies_by_size[piece.stone.size()] -= 1;
            search.empty -= piece.stone.size();
        }
        search.filled = filled;
        if cube.spec().alternate {
            for piece in prefix {
                let p = &cube.placements()[piece.placement];
                search.forward_check(piece.colour, p.around);
            }
        }
        Some(search)
    }

    /// Alternating colours (PD5), propagated: once a stone of `colour` is placed, no
    /// other stone of that colour may cover a cell face to face with it, so those rows
    /// leave the search at once (the cells' counts of choices drop with them, and a
    /// cell no row can fill any more ends the branch). Returns how many rows were hidden.
    fn forward_check(&mut self, colour: Colour, around: u128) -> usize {
        let before = self.hidden.len();
        for cell in super::bits(around & !self.filled) {
            let header = self.dlx.header(cell);
            let mut node = self.dlx.down(header);
            while node != header {
                let next = self.dlx.down(node);
                let (k, _) = self.rows[self.dlx.row_of(node) as usize];
                if self.cube.kinds[k as usize].colour == Some(colour) {
                    self.dlx.hide_row(node);
                    self.hidden.push(node);
                }
                node = next;
            }
        }
        self.hidden.len() - before
    }

    /// Puts back the rows hidden last (the newest first).
    fn unhide(&mut self, count: usize) {
        for _ in 0..count {
            let node = self.hidden.pop().expect("hidden before");
            self.dlx.unhide_row(node);
        }
    }

    /// Under colour symmetry, a row of a colour not used yet is taken only if it is the
    /// lowest such colour: the unused colours are alike (same stones, no stone placed,
    /// no row of theirs hidden), so swapping two of them maps solutions to solutions.
    fn breaks_colour_symmetry(&self, row: u32) -> bool {
        if !self.colour_symmetry {
            return false;
        }
        let (k, _) = self.rows[row as usize];
        let Some(c) = self.cube.kinds[k as usize].colour else {
            return false;
        };
        let lowest_unused = self.per_colour.iter().position(|&n| n == 0);
        self.per_colour[c.index()] == 0 && lowest_unused != Some(c.index())
    }

    /// A row may be taken (beyond the exact cover): alternating colours forbid a stone
    /// that touches its own colour (PD5).
    fn allowed(&self, row: u32) -> bool {
        if !self.cube.spec().alternate {
            return true;
        }
        let (k, p) = self.rows[row as usize];
        let colour = self.cube.kinds[k as usize].colour.expect("colours matter");
        self.cube.placements()[p as usize].around & self.colour_cells[colour.index()] == 0
    }

    /// Whether the stones left can add up to the empty cells at all (stones have 2 to 4
    /// cubes): a cheap cut that keeps the search from using up the small stones early.
    fn sizes_fit(&self) -> bool {
        let [_, _, twos, threes, fours] = self.copies_by_size.map(|c| c as usize);
        (0..=twos.min(self.empty / 2)).any(|a| {
            (0..=threes.min((self.empty - 2 * a) / 3)).any(|b| {
                let rest = self.empty - 2 * a - 3 * b;
                rest.is_multiple_of(4) && rest / 4 <= fours
            })
        })
    }

    /// Takes a row; returns how many rows forward checking hid.
    fn take(&mut self, row: u32, node: u32) -> usize {
        self.dlx.select(node);
        self.chosen.push(row);
        let (k, p) = self.rows[row as usize];
        let size = self.cube.kinds[k as usize].stone.size();
        let placement = &self.cube.placements()[p as usize];
        self.copies_by_size[size] -= 1;
        self.empty -= size;
        self.filled |= placement.mask;
        let mut hidden = 0;
        if let Some(c) = self.cube.kinds[k as usize].colour {
            self.colour_cells[c.index()] |= placement.mask;
            self.per_colour[c.index()] += 1;
            if self.cube.spec().alternate {
                hidden = self.forward_check(c, placement.around);
            }
        }
        hidden
    }

    fn give_back(&mut self, row: u32, node: u32, hidden: usize) {
        self.unhide(hidden);
        let (k, p) = self.rows[row as usize];
        let size = self.cube.kinds[k as usize].stone.size();
        let mask = self.cube.placements()[p as usize].mask;
        self.copies_by_size[size] += 1;
        self.empty += size;
        self.filled &= !mask;
        if let Some(c) = self.cube.kinds[k as usize].colour {
            self.colour_cells[c.index()] &= !mask;
            self.per_colour[c.index()] -= 1;
        }
        self.chosen.pop();
        self.dlx.unselect(node);
    }

    /// The pieces found: the prefix, then the chosen rows. Where colours do not matter
    /// (PD2), a stone's copies get the colours in order: the first free colour.
    fn pieces(&self) -> Vec<Piece> {
        let mut pieces = self.prefix.clone();
        for &row in &self.chosen {
            let (k, p) = self.rows[row as usize];
            let kind = self.cube.kinds[k as usize];
            // The capacity (one copy per colour) leaves a colour free.
            let colour = kind.colour.unwrap_or_else(|| {
                (0..self.cube.spec().colours)
                    .map(Colour)
                    .find(|&c| {
                        !pieces
                            .iter()
                            .any(|q| q.stone == kind.stone && q.colour == c)
                    })
                    .unwrap_or(Colour(0))
            });
            pieces.push(Piece {
                colour,
                stone: kind.stone,
                placement: p as usize,
            });
        }
        pieces
    }

    fn progress(&self) -> f64 {
        let [(i0, n0), (i1, n1)] = self.levels;
        (i0 as f64 + i1 as f64 / n1.max(1) as f64) / n0.max(1) as f64
    }

    /// Depth-first over the most constrained cell; `leaf` sees every exact cover.
    /// `stop` is asked every few thousand nodes whether to give up (then `stopped`).
    fn run(
        &mut self,
        depth: usize,
        leaf: &mut dyn FnMut(&Search<'_>) -> Flow,
        report: &mut dyn FnMut(f64),
        stop: &mut dyn FnMut() -> bool,
    ) -> Flow {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) && stop() {
            self.stopped = true;
            return Flow::Stop;
        }
        let Some((header, size)) = self.dlx.most_constrained() else {
            return leaf(self);
        };
        if size == 0 || !self.sizes_fit() {
            return Flow::Continue;
        }
        self.dlx.open(header);
        // The symmetries keeping the first cell: any solution maps to one whose stone
        // there is the smallest of its images (PD7's symmetries map solutions to
        // solutions; the colours are untouched).
        let keep_cell: Vec<&super::Symmetry> = if depth == 0 && self.cell_symmetry {
            let e = self.cube.edge();
            let cell = self.dlx.item_of_header(header);
            let at = [cell % e, cell / e % e, cell / (e * e)];
            self.cube
                .symmetries()
                .iter()
                .filter(|g| g.apply(e, at) == at)
                .collect()
        } else {
            Vec::new()
        };
        if depth < 2 {
            self.levels[depth] = (0, size as usize);
            if depth == 0 {
                self.levels[1] = (0, 1);
            }
        }
        let mut node = self.dlx.down(header);
        let mut flow = Flow::Continue;
        while node != header {
            let row = self.dlx.row_of(node);
            debug_assert!(self.allowed(row), "forward checking hides the rest");
            let p = self.rows[row as usize].1 as usize;
            let smallest = keep_cell.iter().all(|g| g.placement(p) >= p);
            if smallest && !self.breaks_colour_symmetry(row) {
                let hidden = self.take(row, node);
                flow = self.run(depth + 1, leaf, report, stop);
                self.give_back(row, node, hidden);
            }
            if depth < 2 {
                self.levels[depth].0 += 1;
                if depth == 0 {
                    self.levels[1] = (0, 1);
                }
                report(self.progress());
            }
            if matches!(flow, Flow::Stop) {
                break;
            }
            node = self.dlx.down(node);
        }
        self.dlx.close(header);
        flow
    }
}

impl SoloCube {
    /// The kind a piece belongs to.
    fn kind_of(&self, piece: &Piece) -> Option<usize> {
        self.kinds
            .iter()
            .position(|k| k.stone == piece.stone && k.colour.is_none_or(|c| c == piece.colour))
    }

    /// Turns an exact cover into a solution: under the rules it must have a build
    /// order with the colours in turn (PD3), found from the prefix on.
    fn finish(&self, prefix_len: usize, pieces: Vec<Piece>) -> Option<Solution> {
        if !self.spec().rules {
            return Some(Solution { pieces });
        }
        let (prefix, rest) = pieces.split_at(prefix_len);
        order::build_order(self, prefix, rest).map(|pieces| Solution { pieces })
    }

    /// One solution, if there is one.
    pub fn solve(&self) -> Option<Solution> {
        self.complete(&[])
    }

    /// A solution that keeps `placed` (a build in progress, in its order), if the build
    /// can still be completed.
    pub fn complete(&self, placed: &[Piece]) -> Option<Solution> {
        match self.decide_from(placed, &mut || false) {
            Decision::Solved(solution) => Some(solution),
            Decision::NoSolution | Decision::Stopped => None,
        }
    }

    /// Decides the cube: a solution, or the proof by exhausted search that there is
    /// none; `stop` is asked now and then whether to give up (then [`Decision::Stopped`]).
    pub fn decide(&self, stop: &mut dyn FnMut() -> bool) -> Decision {
        self.decide_from(&[], stop)
    }

    /// [`SoloCube::decide`] from a build in progress (`placed`, in its order).
    pub fn decide_from(&self, placed: &[Piece], stop: &mut dyn FnMut() -> bool) -> Decision {
        if self.spec().rules {
            // PD3, PD4: searched in build order, R3 and R7 checked at every stone.
            return match Turns::new(self, placed) {
                Some(turns) => turns.decide(stop),
                None => Decision::NoSolution,
            };
        }
        let Some(mut search) = Search::new(self, placed) else {
            return Decision::NoSolution;
        };
        // One solution is enough: unused colours may be told apart by their first use.
        search.colour_symmetry = self.spec().alternate;
        search.cell_symmetry = placed.is_empty();
        let mut found = None;
        search.run(
            0,
            &mut |s| {
                found = Some(Solution { pieces: s.pieces() });
                Flow::Stop
            },
            &mut |_| {},
            stop,
        );
        match found {
            Some(solution) => Decision::Solved(solution),
            None if search.stopped => Decision::Stopped,
            None => Decision::NoSolution,
        }
    }

    /// Counts every solution, as placed and up to symmetry; `observer` hears the
    /// progress after each branch of the search tree's first two levels.
    pub fn count(&self, observer: &mut dyn FnMut(Progress)) -> Counts {
        let mut counts = Counts::default();
        self.each_solution(
            &mut |solution| {
                counts.as_placed += 1;
                if symmetry::is_canonical(self, &solution.pieces) {
                    counts.up_to_symmetry += 1;
                }
            },
            &mut |fraction, found| {
                observer(Progress {
                    fraction,
                    as_placed: found,
                })
            },
        );
        counts
    }

    /// Calls `visit` with every solution (progress as in [`SoloCube::count`]).
    pub fn each_solution(
        &self,
        visit: &mut dyn FnMut(&Solution),
        report: &mut dyn FnMut(f64, u64),
    ) {
        let Some(mut search) = Search::new(self, &[]) else {
            return;
        };
        let found = std::cell::Cell::new(0u64);
        search.run(
            0,
            &mut |s| {
                if let Some(solution) = self.finish(0, s.pieces()) {
                    found.set(found.get() + 1);
                    visit(&solution);
                }
                Flow::Continue
            },
            &mut |fraction| report(fraction, found.get()),
            &mut || false,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::{tests::soma, CubeSpec};
    use super::*;
    use crate::Stone;

    #[test]
    fn soma_has_240_solutions_up_to_symmetry_and_11520_as_placed() {
        let cube = SoloCube::new(soma()).unwrap();
        let mut last = 0.0;
        let counts = cube.count(&mut |p| {
            assert!(p.fraction >= last - 1e-9 && p.fraction <= 1.0 + 1e-9);
            last = p.fraction;
        });
        assert_eq!(
            counts,
            Counts {
                as_placed: 11_520,
                up_to_symmetry: 240
            }
        );
        assert!((last - 1.0).abs() < 1e-9, "progress ends at 1, got {last}");
    }

    /// PD3: under the rules a cube counts if some build order exists; every Soma
    /// solution has one, and up stays up, so 8 symmetries remain (11,520 / 8 = 1,440).
    #[test]
    fn soma_under_the_rules_every_solution_can_be_built() {
        let cube = SoloCube::new(soma().with_rules(true)).unwrap();
        let counts = cube.count(&mut |_| {});
        assert_eq!(
            counts,
            Counts {
                as_placed: 11_520,
                up_to_symmetry: 1_440
            }
        );
    }

    /// PD2: without rules or alternation a stone's copies are one kind (colours only
    /// limit how often it is used); with them every colour's stone is its own kind.
    #[test]
    fn colours_tell_stones_apart_only_under_an_option() {
        let plain = SoloCube::new(CubeSpec::new(4, 2)).unwrap();
        assert_eq!(plain.kinds.len(), 11);
        assert!(plain
            .kinds
            .iter()
            .all(|k| k.capacity == 2 && k.colour.is_none()));
        let alternate = SoloCube::new(CubeSpec::new(4, 2).with_alternate(true)).unwrap();
        assert_eq!(alternate.kinds.len(), 22);
        assert!(alternate
            .kinds
            .iter()
            .all(|k| k.capacity == 1 && k.colour.is_some()));
    }

    #[test]
    fn every_soma_solution_is_valid_and_distinct() {
        let cube = SoloCube::new(soma()).unwrap();
        let mut seen = std::collections::HashSet::new();
        cube.each_solution(
            &mut |s| {
                assert_eq!(cube.validate(s), Ok(()));
                let mut masks: Vec<u128> = s
                    .pieces
                    .iter()
                    .map(|p| cube.placements()[p.placement].mask)
                    .collect();
                masks.sort();
                assert!(seen.insert(masks), "a solution found twice");
            },
            &mut |_, _| {},
        );
        assert_eq!(seen.len(), 11_520);
    }

    #[test]
    fn a_cube_of_two_colours_is_solved_and_valid() {
        let cube = SoloCube::new(CubeSpec::new(4, 2)).unwrap();
        let solution = cube.solve().unwrap();
        assert_eq!(cube.validate(&solution), Ok(()));
        let cubes: usize = solution.pieces.iter().map(|p| p.stone.size()).sum();
        assert_eq!(cubes, 64);
    }

    #[test]
    fn a_partial_build_is_kept_or_found_hopeless() {
        let cube = SoloCube::new(soma()).unwrap();
        let solution = cube.solve().unwrap();
        let kept = &solution.pieces[..3];
        let completed = cube.complete(kept).unwrap();
        assert_eq!(&completed.pieces[..3], kept);
        assert_eq!(cube.validate(&completed), Ok(()));
        // Whether a first stone can be completed agrees with the list of all solutions.
        let t = cube
            .placements()
            .iter()
            .position(|p| p.stone == Stone::T4)
            .unwrap();
        let piece = Piece {
            colour: Colour(0),
            stone: Stone::T4,
            placement: t,
        };
        let direct = cube.complete(&[piece]).is_some();
        let mut brute = false;
        cube.each_solution(
            &mut |s| brute |= s.pieces.iter().any(|p| p.placement == t),
            &mut |_, _| {},
        );
        assert_eq!(direct, brute);
        // Two stones on one cell: no completion.
        let first = solution.pieces[0];
        let clash = cube
            .placements()
            .iter()
            .position(|p| {
                p.stone != first.stone && p.mask & cube.placements()[first.placement].mask != 0
            })
            .unwrap();
        let overlap = Piece {
            colour: Colour(0),
            stone: cube.placements()[clash].stone,
            placement: clash,
        };
        assert_eq!(cube.complete(&[first, overlap]), None);
    }

    #[test]
    fn alternating_colours_keep_each_colour_apart() {
        let cube = SoloCube::new(CubeSpec::new(3, 3).with_alternate(true)).unwrap();
        let solution = cube.solve().unwrap();
        assert_eq!(cube.validate(&solution), Ok(()));
    }

    /// The 4-cube with two colours alternating has no solution; this confirms it
    /// without the symmetry breaking (forward checking only): a long run.
    #[test]
    #[ignore = "long run: RUMI_LONG=1 scripts/test"]
    fn long_two_colours_alternating_on_the_4_cube_without_symmetries() {
        let cube = SoloCube::new(CubeSpec::new(4, 2).with_alternate(true)).unwrap();
        assert_eq!(cube.decide(&mut || false), Decision::NoSolution);
        let mut search = Search::new(&cube, &[]).unwrap();
        assert!(!search.colour_symmetry && !search.cell_symmetry);
        let mut found = false;
        search.run(
            0,
            &mut |_| {
                found = true;
                Flow::Stop
            },
            &mut |_| {},
            &mut || false,
        );
        assert!(!found);
    }

    #[test]
    fn under_the_rules_a_build_order_is_found() {
        for colours in [1, 2] {
            let cube = SoloCube::new(CubeSpec::new(3, colours).with_rules(true)).unwrap();
            let solution = cube.solve().unwrap();
            assert_eq!(cube.validate(&solution), Ok(()), "{colours} colours");
        }
    }
}
