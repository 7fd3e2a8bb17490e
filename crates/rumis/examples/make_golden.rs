//! Writes the golden game records under tests/golden/ (run once; the files are
//! committed, and tests/golden.rs replays them).
use rand::SeedableRng;
use rumis::record::Record;
use rumis::{Position, Scenario, Setup, Variant};

fn main() {
    let games = [
        ("chullpa", 4, Variant::Standard, 1),
        ("coricancha", 3, Variant::Standard, 2),
        ("cucho", 2, Variant::Standard, 3),
        ("pisac", 2, Variant::FourColours, 4),
        ("tambo", 2, Variant::Ruinas, 5),
        ("pirka", 3, Variant::RuinasRandom, 6),
    ];
    for (key, players, variant, seed) in games {
        let setup = Setup::new(Scenario::builtin(key).unwrap(), players)
            .with_variant(variant)
            .with_seed(seed);
        let mut game = Position::new(setup).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        game.play_randomly(&mut rng);
        let seats = vec!["random"; players as usize].join(",");
        let path = format!("tests/golden/{key}-{players}p-{variant}.record");
        std::fs::write(&path, Record::write(&game, Some(&seats))).unwrap();
        println!("{path}");
    }
}
