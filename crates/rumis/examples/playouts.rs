//! Profiling aid: random playouts on Chullpa with 4 players.
use rand::SeedableRng;
use rumis::*;
fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20000);
    let start = Position::new(Setup::new(Scenario::builtin("chullpa").unwrap(), 4)).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let t = std::time::Instant::now();
    for _ in 0..n {
        let mut p = start.clone();
        p.play_randomly(&mut rng);
        std::hint::black_box(p.score());
    }
    println!("{:.0} playouts/s", n as f64 / t.elapsed().as_secs_f64());
}
