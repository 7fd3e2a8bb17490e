use rand::SeedableRng;
use rumis::*;
use std::time::Instant;
fn main() {
    for key in Scenario::builtin_keys() {
        for players in 2..=4u8 {
            let setup = Setup::new(Scenario::builtin(key).unwrap(), players);
            let fast = Position::new(setup.clone()).unwrap();
            let reference = Position::new_reference(setup).unwrap();
            let t = Instant::now();
            let f1 = perft::perft(&fast, 1);
            let f2 = perft::perft(&fast, 2);
            let tf = t.elapsed();
            let t = Instant::now();
            let r1 = perft::perft(&reference, 1);
            let r2 = perft::perft(&reference, 2);
            let tr = t.elapsed();
            println!(
                "{key} {players}p placements={} d1 {f1}/{r1} d2 {f2}/{r2} fast {tf:?} ref {tr:?}",
                fast.board().placement_count()
            );
        }
    }
    let setup = Setup::new(Scenario::builtin("chullpa").unwrap(), 4);
    let start = Position::new(setup).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let t = Instant::now();
    let mut plies = 0;
    let n = 2000;
    for _ in 0..n {
        let mut p = start.clone();
        while let Some(m) = p.random_move(&mut rng) {
            p.play_unchecked(m);
            plies += 1;
        }
    }
    let e = t.elapsed();
    println!(
        "chullpa playouts/s {:.0} plies/game {:.1}",
        n as f64 / e.as_secs_f64(),
        plies as f64 / n as f64
    );
}
