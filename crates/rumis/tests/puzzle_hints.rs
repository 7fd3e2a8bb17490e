//! A solo-cube hint always extends to a full cube (issue 48 point 4): from random
//! partial builds the solver calls finishable, placing hint after hint (each checked by
//! the build like a person's stone) ends in a complete cube that `Puzzle::validate`
//! accepts, and the solver never calls a build it could finish hopeless.

use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rumis::puzzle::{Build, CubeSpec, Decision, Hint, Piece, Puzzle, Solution};
use rumis::Colour;

/// A search that runs out of this is a test failure, not a slow answer.
const BOUND: Duration = Duration::from_secs(20);

fn stop_after(bound: Duration) -> impl FnMut() -> bool {
    let until = Instant::now() + bound;
    move || Instant::now() >= until
}

/// A random legal stone on the build (any colour that may place it), if there is one.
fn random_stone(build: &Build, rng: &mut ChaCha8Rng) -> Option<Piece> {
    let puzzle = build.puzzle();
    let mut order: Vec<usize> = (0..puzzle.placements().len()).collect();
    order.shuffle(rng);
    let colours = puzzle.spec().colours;
    order.into_iter().find_map(|i| {
        let p = &puzzle.placements()[i];
        let cells = puzzle.cells_of(p.mask);
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
        .unwrap_or_else(|e| panic!("{}: {piece:?} refused: {e}", build.puzzle().spec()));
    assert_eq!(placed, *piece);
}

/// Random partial builds the solver finishes: random legal stones, and prefixes of
/// the completions it finds for them.
fn finishable_builds(puzzle: &Puzzle, rng: &mut ChaCha8Rng, count: usize) -> Vec<Vec<Piece>> {
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < count * 20 {
        tries += 1;
        let mut build = Build::new(puzzle);
        let stones = rng.gen_range(0..=puzzle.volume() / 6);
        for _ in 0..stones {
            match random_stone(&build, rng) {
                Some(piece) => place(&mut build, &piece),
                None => break,
            }
        }
        match puzzle.decide_from(build.pieces(), &mut stop_after(BOUND)) {
            Decision::Solved(solution) => {
                assert_eq!(puzzle.validate(&solution), Ok(()));
                out.push(build.pieces().to_vec());
                let cut = rng.gen_range(build.pieces().len()..solution.pieces.len());
                out.push(solution.pieces[..cut].to_vec());
            }
            Decision::NoSolution => {}
            Decision::Stopped => panic!("{}: undecided within {BOUND:?}", puzzle.spec()),
        }
    }
    assert!(
        !out.is_empty(),
        "{}: no finishable build found",
        puzzle.spec()
    );
    out
}

/// Follows hints from `start` to the full cube.
fn follow_hints(puzzle: &Puzzle, start: &[Piece]) {
    let mut build = Build::new(puzzle);
    for piece in start {
        place(&mut build, piece);
    }
    let mut steps = 0;
    while !build.is_complete() {
        match build.hint_until(&mut stop_after(BOUND)) {
            Hint::Place(piece) => place(&mut build, &piece),
            other => panic!(
                "{} after {} stones and {steps} hints: {other:?}",
                puzzle.spec(),
                build.pieces().len()
            ),
        }
        steps += 1;
        assert!(steps <= puzzle.volume(), "hints do not end");
    }
    let cube = Solution {
        pieces: build.pieces().to_vec(),
    };
    assert_eq!(puzzle.validate(&cube), Ok(()), "{}", puzzle.spec());
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
        let Ok(puzzle) = Puzzle::new(spec) else {
            continue; // refused with its reason: no build at all
        };
        if puzzle.solve().is_none() {
            // No full cube (two colours alternating): no build is finishable, and
            // the hint says so from the empty cube.
            assert_eq!(Build::new(&puzzle).hint(), None, "{name}");
            continue;
        }
        let count = if puzzle.edge() == 3 { 6 } else { 2 };
        for start in finishable_builds(&puzzle, &mut rng, count) {
            follow_hints(&puzzle, &start);
            followed += 1;
        }
    }
    assert!(followed >= 40, "only {followed} builds followed");
}
