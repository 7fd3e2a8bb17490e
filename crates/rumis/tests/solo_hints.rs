//! A solo-cube hint always extends to a full cube (issue 48 point 4): from random
//! partial builds the solver calls finishable, placing hint after hint (each checked by
//! the build like a person's stone) ends in a complete cube that `SoloCube::validate`
//! accepts, and the solver never calls a build it could finish hopeless.

use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rumis::solo::{Build, CubeSpec, Decision, Hint, Piece, SoloCube, Solution};
use rumis::Colour;

/// A search that runs out of this is a test failure, not a slow answer.
const BOUND: Duration = Duration::from_secs(20);

fn stop_after(bound: Duration) -> impl FnMut() -> bool {
    let until = Instant::now() + bound;
    move || Instant::now() >= until
}

/// A random legal stone on the build (any colour that may place it), if there is one.
fn random_stone(build: &Build, rng: &mut ChaCha8Rng) -> Option<Piece> {
    let cube = build.cube();
    let mut order: Vec<usize> = (0..cube.placements().len()).collect();
    order.shuffle(rng);
    let colours = cube.spec().colours;
    order.into_iter().find_map(|i| {
        let p = &cube.placements()[i];
        let cells = cube.cells_of(p.mask);
        let colour = Colour(rng.gen_range(0..colours));
        build
            .check(Some(colour), p.stone, &cells)
            .or_else(|_| build.check(None, p.stone, &cells))
            .ok()
    })
}

fn place(build: &mut Build, piece: &Piece) {
    let cells = build.cells(piece);
    let placed = build
        .place(Some(piece.colour), piece.stone, &cells)
        .unwrap_or_else(|e| panic!("{}: {piece:?} refused: {e}", build.cube().spec()));
    assert_eq!(placed, *piece);
}

/// Random partial builds the solver finishes: random legal stones, and prefixes of
/// the completions it finds for them.
fn finishable_builds(cube: &SoloCube, rng: &mut ChaCha8Rng, count: usize) -> Vec<Vec<Piece>> {
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < count * 20 {
        tries += 1;
        let mut build = Build::new(cube);
        let stones = rng.gen_range(0..=cube.volume() / 6);
        for _ in 0..stones {
            match random_stone(&build, rng) {
                Some(piece) => place(&mut build, &piece),
                None => break,
            }
        }
        match cube.decide_from(build.pieces(), &mut stop_after(BOUND)) {
            Decision::Solved(solution) => {
                assert_eq!(cube.validate(&solution), Ok(()));
                out.push(build.pieces().to_vec());
                let cut = rng.gen_range(build.pieces().len()..solution.pieces.len());
                out.push(solution.pieces[..cut].to_vec());
            }
            Decision::NoSolution => {}
            Decision::Stopped => panic!("{}: undecided within {BOUND:?}", cube.spec()),
        }
    }
    assert!(
        !out.is_empty(),
        "{}: no finishable build found",
        cube.spec()
    );
    out
}

/// Follows hints from `start` to the full cube.
fn follow_hints(cube: &SoloCube, start: &[Piece]) {
    let mut build = Build::new(cube);
    for piece in start {
        place(&mut build, piece);
    }
    let mut steps = 0;
    while !build.is_complete() {
        match build.hint_until(&mut stop_after(BOUND)) {
            Hint::Place(piece) => place(&mut build, &piece),
            other => panic!(
                "{} after {} stones and {steps} hints: {other:?}",
                cube.spec(),
                build.pieces().len()
            ),
        }
        steps += 1;
        assert!(steps <= cube.volume(), "hints do not end");
    }
    let solution = Solution {
        pieces: build.pieces().to_vec(),
    };
    assert_eq!(cube.validate(&solution), Ok(()), "{}", cube.spec());
    assert_eq!(
        build.hint_until(&mut || false),
        Hint::Hopeless,
        "a full cube has no hint"
    );
}

fn specs() -> Vec<CubeSpec> {
    let mut specs = Vec::new();
    for colours in 1..=4 {
        for (rules, alternate) in [(false, false), (true, false), (false, true), (true, true)] {
            specs.push(
                CubeSpec::new(3, colours)
                    .with_rules(rules)
                    .with_alternate(alternate),
            );
        }
    }
    specs.push(CubeSpec::new(4, 2));
    specs.push(CubeSpec::new(4, 3).with_rules(true));
    specs.push(CubeSpec::new(4, 4).with_alternate(true));
    specs
}

#[test]
fn hints_always_extend_to_a_full_cube() {
    let mut rng = ChaCha8Rng::seed_from_u64(48);
    let mut followed = 0;
    for spec in specs() {
        let name = spec.to_string();
        let Ok(cube) = SoloCube::new(spec) else {
            continue; // refused with its reason: no build at all
        };
        if cube.solve().is_none() {
            // No full cube (two colours alternating): no build is finishable, and
            // the hint says so from the empty cube.
            assert_eq!(Build::new(&cube).hint(), None, "{name}");
            continue;
        }
        let count = if cube.edge() == 3 { 6 } else { 2 };
        for start in finishable_builds(&cube, &mut rng, count) {
            follow_hints(&cube, &start);
            followed += 1;
        }
    }
    assert!(followed >= 40, "only {followed} builds followed");
}
