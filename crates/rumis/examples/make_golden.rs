//! Writes the golden game records under tests/golden/ (run once; the files are
//! committed, and tests/golden.rs replays them).
use rand::SeedableRng;
use rumis::record::Record;
use rumis::{FirstStones, Position, Scenario, Setup, Variant};

fn main() {
    let games = [
        ("chullpa", 4, Variant::Standard, 1, None),
        ("coricancha", 3, Variant::Standard, 2, None),
        ("cucho", 2, Variant::Standard, 3, None),
        ("pisac", 2, Variant::FourColours, 4, None),
        ("tambo", 2, Variant::Ruinas, 5, None),
        ("pirka", 3, Variant::RuinasRandom, 6, None),
        // Rumis+: 5 and 6 players (R13) with R14 and with R6, inverse (R15), and the
        // dismantling game (R16) on its three boards.
        ("chaka", 5, Variant::Standard, 7, None),
        (
            "incahuasi",
            6,
            Variant::Standard,
            8,
            Some(FirstStones::Face),
        ),
        ("huaca", 6, Variant::Inverse, 9, None),
        ("colca", 2, Variant::Dismantle, 10, None),
        ("puncu", 2, Variant::Dismantle, 11, None),
        ("apachita", 2, Variant::Dismantle, 12, None),
    ];
    for (key, players, variant, seed, first_stones) in games {
        let mut setup = Setup::new(Scenario::builtin(key).unwrap(), players)
            .with_variant(variant)
            .with_seed(seed);
        let mut name = format!("{key}-{players}p-{variant}");
        if let Some(rule) = first_stones {
            setup = setup.with_first_stones(rule);
            name = format!("{name}-{rule}");
        }
        let mut game = Position::new(setup).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        game.play_randomly(&mut rng);
        let seats = vec!["random"; players as usize].join(",");
        let path = format!("tests/golden/{name}.record");
        std::fs::write(&path, Record::write(&game, Some(&seats))).unwrap();
        println!("{path}");
    }
}
