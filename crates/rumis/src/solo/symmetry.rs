//! The 48 symmetries of the cube (axis permutations with sign changes: 24 rotations and
//! 24 reflections), and which of them map a cube onto itself (PD7).

use std::collections::HashMap;

use super::{bits, Piece, SoloCube};

/// A symmetry of the cube: new axis `a` takes old axis `perm[a]`, reversed if `flip[a]`.
#[derive(Clone, Debug)]
pub struct Symmetry {
    pub perm: [usize; 3],
    pub flip: [bool; 3],
    /// Image of every placement of the cube.
    image: Vec<u32>,
}

impl Symmetry {
    /// A rotation (determinant +1) rather than a reflection.
    pub fn is_rotation(&self) -> bool {
        let inversions = (0..3)
            .flat_map(|i| (i + 1..3).map(move |j| (i, j)))
            .filter(|&(i, j)| self.perm[i] > self.perm[j])
            .count();
        let flips = self.flip.iter().filter(|&&f| f).count();
        (inversions + flips) % 2 == 0
    }

    /// Maps a cell `(x, y, z)` of a cube of this edge.
    pub fn apply(&self, edge: usize, c: [usize; 3]) -> [usize; 3] {
        let mut out = [0; 3];
        for a in 0..3 {
            let v = c[self.perm[a]];
            out[a] = if self.flip[a] { edge - 1 - v } else { v };
        }
        out
    }

    /// The image of a placement (by index).
    pub fn placement(&self, placement: usize) -> usize {
        self.image[placement] as usize
    }
}

/// All 48 (permutation, flips) pairs, identity first.
fn all_48() -> Vec<([usize; 3], [bool; 3])> {
    let perms = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    perms
        .iter()
        .flat_map(|&p| (0..8).map(move |f| (p, [f & 1 != 0, f & 2 != 0, f & 4 != 0])))
        .collect()
}

/// The symmetries that map every placement of the cube onto a placement of it (a
/// reflection turns a screw into the other screw, so it needs both), and under the
/// placement rules keep up as up (R3 is about gravity).
pub(crate) fn of_puzzle(cube: &SoloCube) -> Vec<Symmetry> {
    let e = cube.edge();
    let index: HashMap<u128, u32> = cube
        .placements()
        .iter()
        .enumerate()
        .map(|(i, p)| (p.mask, i as u32))
        .collect();
    all_48()
        .into_iter()
        .filter(|(perm, flip)| !cube.spec().rules || (perm[2] == 2 && !flip[2]))
        .filter_map(|(perm, flip)| {
            let mut sym = Symmetry {
                perm,
                flip,
                image: Vec::new(),
            };
            let image = cube
                .placements()
                .iter()
                .map(|p| {
                    let mask = bits(p.mask).fold(0u128, |m, i| {
                        let [x, y, z] = sym.apply(e, [i % e, i / e % e, i / (e * e)]);
                        m | 1 << (x + e * (y + e * z))
                    });
                    index.get(&mask).copied()
                })
                .collect::<Option<Vec<u32>>>()?;
            sym.image = image;
            Some(sym)
        })
        .collect()
}

/// A solution as a value that symmetries act on: (colour if colours matter, cells).
fn key(cube: &SoloCube, pieces: impl Iterator<Item = (u8, usize)>) -> Vec<(u8, u128)> {
    let mut k: Vec<(u8, u128)> = pieces
        .map(|(c, p)| (c, cube.placements()[p].mask))
        .collect();
    k.sort_unstable();
    k
}

/// Whether these pieces are the smallest of their orbit under the cube's symmetries:
/// exactly one solution per orbit is, so counting these counts solutions up to symmetry.
pub(crate) fn is_canonical(cube: &SoloCube, pieces: &[Piece]) -> bool {
    let colour = |p: &Piece| {
        if cube.spec().colours_matter() {
            p.colour.0
        } else {
            0
        }
    };
    let own = key(cube, pieces.iter().map(|p| (colour(p), p.placement)));
    cube.symmetries().iter().skip(1).all(|s| {
        let image = key(
            cube,
            pieces.iter().map(|p| (colour(p), s.placement(p.placement))),
        );
        image >= own
    })
}

#[cfg(test)]
mod tests {
    use super::super::{tests::soma, CubeSpec};
    use super::*;
    use crate::Stone;

    #[test]
    fn the_cube_has_24_rotations_and_24_reflections() {
        let cube = SoloCube::new(CubeSpec::new(3, 1)).unwrap();
        let syms = cube.symmetries();
        assert_eq!(syms.len(), 48);
        assert_eq!(syms.iter().filter(|s| s.is_rotation()).count(), 24);
        assert_eq!(syms[0].perm, [0, 1, 2]);
        assert_eq!(syms[0].flip, [false; 3]);
        // A reflection turns screw A into screw B; a rotation keeps every stone.
        for s in syms {
            for (i, p) in cube.placements().iter().enumerate() {
                let q = &cube.placements()[s.placement(i)];
                let mirrored = match p.stone {
                    Stone::ScrewA => Stone::ScrewB,
                    Stone::ScrewB => Stone::ScrewA,
                    other => other,
                };
                let want = if s.is_rotation() { p.stone } else { mirrored };
                assert_eq!(q.stone, want);
            }
        }
    }

    #[test]
    fn only_the_symmetries_of_the_puzzle_count() {
        // Without screw B, no reflection maps the cube onto itself.
        let one_screw = SoloCube::new(CubeSpec::new(3, 1).leaving_out(&[Stone::ScrewB])).unwrap();
        assert_eq!(one_screw.symmetries().len(), 24);
        // Under the rules, up stays up: the 8 symmetries of the square.
        let rules = SoloCube::new(soma().with_rules(true)).unwrap();
        assert_eq!(rules.symmetries().len(), 8);
    }
}
