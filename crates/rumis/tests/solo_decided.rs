//! Every solo cube decided (R12, issue 20 point 7): the hard combinations are solved
//! with solutions `SoloCube::validate` accepts, and the answers "no solution" agree with
//! searches written independently of the solver, on cases small enough for them.

use rumis::solo::{CubeSpec, Decision, Piece, SoloCube};
use rumis::{Cell, Colour, Stone};

fn decide(spec: CubeSpec) -> (SoloCube, Decision) {
    let cube = SoloCube::new(spec).unwrap();
    let decision = cube.decide(&mut || false);
    (cube, decision)
}

fn solved(spec: CubeSpec) {
    let name = spec.to_string();
    let (cube, decision) = decide(spec);
    match decision {
        Decision::Solved(solution) => {
            assert_eq!(cube.validate(&solution), Ok(()), "{name}");
            let cubes: usize = solution.pieces.iter().map(|p| p.stone.size()).sum();
            assert_eq!(cubes, cube.volume(), "{name}");
        }
        other => panic!("{name}: {other:?}"),
    }
}

#[test]
fn the_cubes_the_issue_names_are_solved() {
    // Issue 20, point 7: both found nothing within a minute before.
    solved(CubeSpec::new(5, 4).with_rules(true));
    solved(CubeSpec::new(5, 4).with_alternate(true));
}

#[test]
fn the_rules_and_alternation_are_solved_on_every_cube_that_allows_them() {
    for (edge, colours) in [(3, 1), (3, 2), (3, 3), (3, 4), (4, 2), (4, 3), (4, 4)] {
        solved(CubeSpec::new(edge, colours).with_rules(true));
    }
    for (edge, colours) in [(3, 3), (3, 4), (4, 3), (4, 4)] {
        solved(CubeSpec::new(edge, colours).with_alternate(true));
    }
}

#[test]
fn two_colours_cannot_alternate_on_the_small_cube() {
    let (_, decision) = decide(CubeSpec::new(3, 2).with_alternate(true));
    assert_eq!(decision, Decision::NoSolution);
}

/// A search for alternating colours written without the solver's links, forward
/// checking or symmetries: fill the lowest empty cell with every stone of every colour
/// that fits there, checking each stone against the stones placed (cells face to face
/// computed from the coordinates). Returns a solution if there is one.
fn brute_alternate(cube: &SoloCube) -> Option<Vec<Piece>> {
    fn touch(a: &[Cell], b: &[Cell]) -> bool {
        a.iter().any(|p| {
            b.iter()
                .any(|q| p.x.abs_diff(q.x) + p.y.abs_diff(q.y) + p.z.abs_diff(q.z) == 1)
        })
    }
    fn go(
        cube: &SoloCube,
        filled: u128,
        placed: &mut Vec<(Piece, Vec<Cell>)>,
    ) -> Option<Vec<Piece>> {
        if filled.count_ones() as usize == cube.volume() {
            return Some(placed.iter().map(|(p, _)| *p).collect());
        }
        let cell = (!filled).trailing_zeros();
        for (i, p) in cube.placements().iter().enumerate() {
            if p.mask & 1 << cell == 0 || p.mask & filled != 0 {
                continue;
            }
            let cells = cube.cells_of(p.mask);
            for c in 0..cube.spec().colours {
                let colour = Colour(c);
                let clash = placed
                    .iter()
                    .any(|(q, qc)| q.colour == colour && (q.stone == p.stone || touch(qc, &cells)));
                if clash {
                    continue;
                }
                let piece = Piece {
                    colour,
                    stone: p.stone,
                    placement: i,
                };
                placed.push((piece, cells.clone()));
                if let Some(found) = go(cube, filled | p.mask, placed) {
                    return Some(found);
                }
                placed.pop();
            }
        }
        None
    }
    go(cube, 0, &mut Vec::new())
}

#[test]
fn alternation_agrees_with_a_plain_search_on_small_sets() {
    use Stone::*;
    let cases: [(u8, &[Stone]); 4] = [
        (2, &[L4, Tripod, ScrewA, ScrewB, T4]),
        (2, &[L4, Tripod, ScrewA, ScrewB, S4]),
        (3, &[L4, Tripod, ScrewA, ScrewB, T4]),
        (3, &[I4, O4, T4, L4, S4, Tripod]),
    ];
    for (colours, left_out) in cases {
        let spec = CubeSpec::new(3, colours)
            .leaving_out(left_out)
            .with_alternate(true);
        let name = spec.to_string();
        let (cube, decision) = decide(spec);
        let brute = brute_alternate(&cube);
        if let Some(pieces) = &brute {
            let solution = rumis::solo::Solution {
                pieces: pieces.clone(),
            };
            assert_eq!(cube.validate(&solution), Ok(()), "{name}: brute force");
        }
        match decision {
            Decision::Solved(solution) => {
                assert_eq!(cube.validate(&solution), Ok(()), "{name}");
                assert!(brute.is_some(), "{name}: the brute force finds none");
            }
            Decision::NoSolution => assert!(brute.is_none(), "{name}: the brute force finds one"),
            Decision::Stopped => unreachable!(),
        }
    }
}

/// The full small cube with two colours by the plain search: a long run.
#[test]
#[ignore = "long run: RUMI_LONG=1 scripts/test"]
fn long_two_colours_cannot_alternate_by_the_plain_search() {
    let cube = SoloCube::new(CubeSpec::new(3, 2).with_alternate(true)).unwrap();
    assert_eq!(brute_alternate(&cube), None);
}

/// Under the rules the solver searches in build order; the other route is the exact
/// covers of the cube, each handed to a build-order search (`each_solution`). Where the
/// solver finds no build, that route must find none either; where it finds one, the
/// solution must be valid.
#[test]
fn the_rules_agree_with_covers_then_orders_on_small_sets() {
    use Stone::*;
    let cases: [(&[Stone], bool); 4] = [
        (&[Domino, L3, L4, S4, Tripod, ScrewA, ScrewB], false),
        (&[Domino, I3, L4, S4, Tripod, ScrewA, ScrewB], false),
        (&[Domino, L4, S4, Tripod, ScrewA, ScrewB], false),
        (&[I4, L4, S4, Tripod, ScrewA, ScrewB], true),
    ];
    for (left_out, buildable) in cases {
        let spec = CubeSpec::new(3, 2).leaving_out(left_out).with_rules(true);
        let name = spec.to_string();
        let cube = SoloCube::new(spec).unwrap();
        match cube.decide(&mut || false) {
            Decision::Solved(solution) => {
                assert!(buildable, "{name}");
                assert_eq!(cube.validate(&solution), Ok(()), "{name}");
            }
            Decision::NoSolution => {
                assert!(!buildable, "{name}");
                let mut any = None;
                cube.each_solution(
                    &mut |s| {
                        any.get_or_insert_with(|| s.clone());
                    },
                    &mut |_, _| {},
                );
                assert_eq!(any, None, "{name}");
            }
            Decision::Stopped => unreachable!(),
        }
    }
}
