//! The eleven stones of a colour (R5) and their orientations.
//!
//! Orientations are computed, never typed in: each stone's base shape is turned by the
//! 24 rotations of the cube, normalised (moved so its smallest coordinates are 0 and its
//! cubes sorted) and deduplicated. Mirroring is not a rotation, so the two screws stay
//! distinct stones (R5).

use std::fmt;
use std::sync::OnceLock;

/// A cube offset inside a stone or a board: x = column (left to right), y = row (top to
/// bottom, as the scenario grids are printed), z = level (0 = on the board).
pub type Offset = [i8; 3];

/// One of the eleven stones every colour owns (R5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stone {
    Domino,
    I3,
    L3,
    I4,
    O4,
    T4,
    L4,
    S4,
    Tripod,
    ScrewA,
    ScrewB,
}

impl Stone {
    /// All stones, in the order used for indices and records.
    pub const ALL: [Stone; 11] = [
        Stone::Domino,
        Stone::I3,
        Stone::L3,
        Stone::I4,
        Stone::O4,
        Stone::T4,
        Stone::L4,
        Stone::S4,
        Stone::Tripod,
        Stone::ScrewA,
        Stone::ScrewB,
    ];

    /// Index 0..11 in [`Stone::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// Short code used by the move notation (`D2`, `I3`, …, `A4`, `B4`).
    pub fn code(self) -> &'static str {
        match self {
            Stone::Domino => "D2",
            Stone::I3 => "I3",
            Stone::L3 => "L3",
            Stone::I4 => "I4",
            Stone::O4 => "O4",
            Stone::T4 => "T4",
            Stone::L4 => "L4",
            Stone::S4 => "S4",
            Stone::Tripod => "Y4",
            Stone::ScrewA => "A4",
            Stone::ScrewB => "B4",
        }
    }

    /// Human name, for help texts.
    pub fn name(self) -> &'static str {
        match self {
            Stone::Domino => "domino",
            Stone::I3 => "straight tricube",
            Stone::L3 => "bent tricube",
            Stone::I4 => "straight tetracube",
            Stone::O4 => "square tetracube",
            Stone::T4 => "T tetracube",
            Stone::L4 => "L tetracube",
            Stone::S4 => "S tetracube",
            Stone::Tripod => "tripod",
            Stone::ScrewA => "right-handed screw",
            Stone::ScrewB => "left-handed screw",
        }
    }

    /// Parses a code (case-insensitive); also accepts the long aliases `domino`, `tripod`.
    pub fn from_code(code: &str) -> Option<Stone> {
        let upper = code.to_ascii_uppercase();
        Stone::ALL
            .into_iter()
            .find(|s| s.code() == upper)
            .or(match upper.as_str() {
                "D" | "DOMINO" => Some(Stone::Domino),
                "O" => Some(Stone::O4),
                "T" => Some(Stone::T4),
                "S" => Some(Stone::S4),
                "Y" | "TRIPOD" => Some(Stone::Tripod),
                _ => None,
            })
    }

    /// Number of cubes.
    pub fn size(self) -> usize {
        self.base_shape().len()
    }

    /// The shape as the rules describe it, lying flat where it can (R5).
    fn base_shape(self) -> &'static [Offset] {
        match self {
            Stone::Domino => &[[0, 0, 0], [1, 0, 0]],
            Stone::I3 => &[[0, 0, 0], [1, 0, 0], [2, 0, 0]],
            Stone::L3 => &[[0, 0, 0], [1, 0, 0], [0, 1, 0]],
            Stone::I4 => &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]],
            Stone::O4 => &[[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]],
            Stone::T4 => &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [1, 1, 0]],
            Stone::L4 => &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0]],
            Stone::S4 => &[[0, 0, 0], [1, 0, 0], [1, 1, 0], [2, 1, 0]],
            // Three arms from one corner cube.
            Stone::Tripod => &[[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]],
            // A path along +x, +y, +z: turns right-handedly.
            Stone::ScrewA => &[[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]],
            // Its mirror image: +x, +y, -z.
            Stone::ScrewB => &[[0, 0, 1], [1, 0, 1], [1, 1, 1], [1, 1, 0]],
        }
    }

    /// The distinct orientations of this stone, each normalised (smallest coordinate 0 on
    /// every axis, cubes sorted by level, row, column). Indices are stable: they are the
    /// `/n` of the move notation.
    pub fn orientations(self) -> &'static [Shape] {
        &all_orientations()[self.index()]
    }
}

impl fmt::Display for Stone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A stone in one orientation, normalised.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    cubes: Vec<Offset>,
}

impl Shape {
    /// Normalises any set of cubes: shifts to the origin and sorts by (z, y, x).
    pub fn normalised(cubes: &[Offset]) -> Shape {
        let mut min = [i8::MAX; 3];
        for c in cubes {
            for a in 0..3 {
                min[a] = min[a].min(c[a]);
            }
        }
        let mut cubes: Vec<Offset> = cubes
            .iter()
            .map(|c| [c[0] - min[0], c[1] - min[1], c[2] - min[2]])
            .collect();
        cubes.sort_by_key(|c| (c[2], c[1], c[0]));
        cubes.dedup();
        Shape { cubes }
    }

    pub fn cubes(&self) -> &[Offset] {
        &self.cubes
    }

    /// Extent along x, y, z (bounding box size).
    pub fn extent(&self) -> [i8; 3] {
        let mut max = [0i8; 3];
        for c in &self.cubes {
            for a in 0..3 {
                max[a] = max[a].max(c[a] + 1);
            }
        }
        max
    }
}

/// A rotation of the cube as an integer matrix (rows act on column vectors).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rotation([[i8; 3]; 3]);

impl Rotation {
    const IDENTITY: Rotation = Rotation([[1, 0, 0], [0, 1, 0], [0, 0, 1]]);
    /// Quarter turn about the x axis.
    const QUARTER_X: Rotation = Rotation([[1, 0, 0], [0, 0, -1], [0, 1, 0]]);
    /// Quarter turn about the z axis.
    const QUARTER_Z: Rotation = Rotation([[0, -1, 0], [1, 0, 0], [0, 0, 1]]);

    pub fn apply(&self, v: Offset) -> Offset {
        let m = &self.0;
        let mut out = [0i8; 3];
        for (r, row) in m.iter().enumerate() {
            out[r] = row[0] * v[0] + row[1] * v[1] + row[2] * v[2];
        }
        out
    }

    fn then(&self, next: &Rotation) -> Rotation {
        let mut out = [[0i8; 3]; 3];
        for (r, row) in out.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                *cell = (0..3).map(|k| next.0[r][k] * self.0[k][c]).sum();
            }
        }
        Rotation(out)
    }

    /// The determinant: +1 for every rotation (a mirror would give −1).
    pub fn determinant(&self) -> i8 {
        let m = &self.0;
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    }

    /// The 24 rotations of the cube: the closure of two quarter turns under composition.
    pub fn all() -> &'static [Rotation] {
        static ROTATIONS: OnceLock<Vec<Rotation>> = OnceLock::new();
        ROTATIONS.get_or_init(|| {
            let mut found = vec![Rotation::IDENTITY];
            let mut i = 0;
            while i < found.len() {
                for g in [Rotation::QUARTER_X, Rotation::QUARTER_Z] {
                    let r = found[i].then(&g);
                    if !found.contains(&r) {
                        found.push(r);
                    }
                }
                i += 1;
            }
            found
        })
    }
}

fn all_orientations() -> &'static [Vec<Shape>; 11] {
    static ORIENTATIONS: OnceLock<[Vec<Shape>; 11]> = OnceLock::new();
    ORIENTATIONS.get_or_init(|| {
        Stone::ALL.map(|stone| {
            let mut shapes: Vec<Shape> = Rotation::all()
                .iter()
                .map(|r| {
                    let turned: Vec<Offset> =
                        stone.base_shape().iter().map(|&c| r.apply(c)).collect();
                    Shape::normalised(&turned)
                })
                .collect();
            shapes.sort();
            shapes.dedup();
            shapes
        })
    })
}

/// Which stone, if any, has this shape in some orientation; returns it with the
/// orientation index. Used to read a move given as cells.
pub fn identify(cubes: &[Offset]) -> Option<(Stone, usize)> {
    let shape = Shape::normalised(cubes);
    Stone::ALL.into_iter().find_map(|stone| {
        stone
            .orientations()
            .iter()
            .position(|s| *s == shape)
            .map(|i| (stone, i))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_24_proper_rotations() {
        let all = Rotation::all();
        assert_eq!(all.len(), 24);
        assert!(all.iter().all(|r| r.determinant() == 1));
    }

    #[test]
    fn orientation_counts_match_r5() {
        let expected = [3, 3, 12, 3, 3, 12, 24, 12, 8, 12, 12];
        for (stone, want) in Stone::ALL.into_iter().zip(expected) {
            assert_eq!(stone.orientations().len(), want, "{stone:?}");
        }
        let total: usize = Stone::ALL.iter().map(|s| s.orientations().len()).sum();
        assert_eq!(total, 104);
    }

    #[test]
    fn a_colour_has_forty_cubes() {
        assert_eq!(Stone::ALL.iter().map(|s| s.size()).sum::<usize>(), 40);
    }

    #[test]
    fn the_two_screws_are_distinct_mirror_images() {
        let a = Stone::ScrewA.orientations();
        let b = Stone::ScrewB.orientations();
        assert!(a.iter().all(|s| !b.contains(s)));
        // Mirroring A (x -> -x) gives an orientation of B.
        let mirrored: Vec<Offset> = a[0].cubes().iter().map(|c| [-c[0], c[1], c[2]]).collect();
        assert_eq!(identify(&mirrored).map(|(s, _)| s), Some(Stone::ScrewB));
    }

    #[test]
    fn every_orientation_is_identified_as_itself() {
        for stone in Stone::ALL {
            for (i, shape) in stone.orientations().iter().enumerate() {
                assert_eq!(identify(shape.cubes()), Some((stone, i)));
            }
        }
        // Four cubes in a row with a gap is no stone.
        assert_eq!(identify(&[[0, 0, 0], [2, 0, 0]]), None);
    }

    #[test]
    fn codes_round_trip() {
        for stone in Stone::ALL {
            assert_eq!(Stone::from_code(stone.code()), Some(stone));
            assert_eq!(Stone::from_code(&stone.code().to_lowercase()), Some(stone));
        }
        assert_eq!(Stone::from_code("X9"), None);
    }
}
