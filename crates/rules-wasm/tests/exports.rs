//! The exports the browser calls, called natively the same way (text into the input
//! buffer, the verdict and details out), agree with the rules crate's own checks.

use proptest::prelude::*;
use rules_wasm::{
    check_set, input_buffer, input_capacity, last_joker_count, last_tile_count, last_value,
    order_buffer, set_rules, Verdict, INPUT_CAPACITY, MAX_TILES,
};
use rummikub::notation::format_tiles;
use rummikub::set::{check_tiles, SetProblem};
use rummikub::{Colour, RuleSet, Set, Tile};

/// What the browser reads back from one `check_set` call.
#[derive(Debug, PartialEq, Eq)]
struct Answer {
    verdict: u32,
    tiles: u32,
    jokers: u32,
    value: u32,
    order: Vec<u8>,
}

/// Writes `text` where the client writes it and calls the exports as the client does.
fn call(text: &[u8], jokers_per_set: u32, run_wraps_around: u32) -> Answer {
    assert!(text.len() <= input_capacity() as usize);
    // SAFETY: the buffer holds input_capacity() bytes and nothing borrows it between calls.
    unsafe { std::ptr::copy_nonoverlapping(text.as_ptr(), input_buffer(), text.len()) };
    let verdict = check_set(text.len() as u32, jokers_per_set, run_wraps_around);
    let tiles = last_tile_count();
    // SAFETY: the order buffer holds MAX_TILES bytes, of which `tiles` were written.
    let order = unsafe { std::slice::from_raw_parts(order_buffer(), tiles as usize) }.to_vec();
    Answer {
        verdict,
        tiles,
        jokers: last_joker_count(),
        value: last_value(),
        order,
    }
}

fn check(text: &str, rules: &RuleSet) -> Answer {
    call(
        text.as_bytes(),
        u32::from(rules.jokers_per_set),
        u32::from(rules.run_wraps_around),
    )
}

/// What the rules crate says of `tiles`, in the form the exports answer it.
fn expected(tiles: &[Tile], rules: &RuleSet) -> Answer {
    let jokers = tiles.iter().filter(|t| t.is_joker()).count() as u32;
    let as_laid: Vec<u8> = (0..tiles.len() as u8).collect();
    let (verdict, value, order) = match check_tiles(tiles, rules) {
        Ok(reading) => {
            // The order must put the client's tiles where `Set::arranged` puts them.
            let arranged = Set::new(tiles.to_vec()).arranged(rules);
            let mut taken = vec![false; tiles.len()];
            let order = arranged
                .tiles()
                .iter()
                .map(|tile| {
                    let i = (0..tiles.len())
                        .find(|&i| !taken[i] && tiles[i] == *tile)
                        .unwrap();
                    taken[i] = true;
                    i as u8
                })
                .collect();
            (Verdict::Valid, reading.value, order)
        }
        Err(SetProblem::TooShort(_)) => (Verdict::TooShort, 0, as_laid),
        Err(SetProblem::TooManyJokers { .. }) => (Verdict::TooManyJokers, 0, as_laid),
        Err(SetProblem::NeitherRunNorGroup) => (Verdict::NeitherRunNorGroup, 0, as_laid),
    };
    Answer {
        verdict: verdict as u32,
        tiles: tiles.len() as u32,
        jokers,
        value,
        order,
    }
}

/// The tiles an answer's order puts in reading order, as notation.
fn read_in_order(text: &str, answer: &Answer) -> String {
    let codes: Vec<&str> = text.split_whitespace().collect();
    let ordered: Vec<&str> = answer
        .order
        .iter()
        .map(|&i| codes[usize::from(i)])
        .collect();
    ordered.join(" ")
}

#[test]
fn the_verdicts_the_client_translates() {
    let current = RuleSet::current();
    let old = RuleSet::old();
    let two = check("r1 r2", &current);
    assert_eq!((two.verdict, two.tiles), (Verdict::TooShort as u32, 2));
    let jokers = check("J r5 J", &old);
    assert_eq!(
        (jokers.verdict, jokers.jokers),
        (Verdict::TooManyJokers as u32, 2)
    );
    assert_eq!(
        check("o7 o8 r9", &current).verdict,
        Verdict::NeitherRunNorGroup as u32
    );
    let run = check("r6 J r4", &current);
    assert_eq!((run.verdict, run.value), (Verdict::Valid as u32, 15));
    assert_eq!(read_in_order("r6 J r4", &run), "r4 J r6");
    // Old rules: 12-13-1 wraps, and [r12 r13 J] is worth most as 11-12-13 (KD3).
    assert_eq!(check("r12 r13 r1", &current).verdict, 3);
    assert_eq!(check("r12 r13 r1", &old).value, 26);
    let wrapped = check("r13 r12 J", &old);
    assert_eq!(wrapped.value, 36);
    assert_eq!(read_in_order("r13 r12 J", &wrapped), "J r12 r13");
    // A group with its joker in the colour it stands for; codes in either case.
    let group = check("J o3 B03", &current);
    assert_eq!((group.verdict, group.value), (0, 9));
    assert_eq!(read_in_order("J o3 B03", &group), "J B03 o3");
}

#[test]
fn unreadable_input_is_refused_and_reads_nothing() {
    let unreadable = Verdict::UnreadableInput as u32;
    let rules = RuleSet::current();
    for text in ["r1 r2 x3", "r14 r12 r13", "r1;r2;r3", "r01 r002 r3"] {
        let answer = check(text, &rules);
        assert_eq!((answer.verdict, answer.tiles), (unreadable, 0), "{text}");
    }
    assert_eq!(call(b"r1 r2 \xff", 2, 0).verdict, unreadable);
    // More tiles than the box holds, in text that fits the buffer.
    let many = vec!["J"; MAX_TILES + 1].join(" ");
    assert!(many.len() <= INPUT_CAPACITY);
    assert_eq!(check(&many, &rules).verdict, unreadable);
    // Rule values outside what the rules can say, and a length past the buffer.
    assert_eq!(call(b"r1 r2 r3", 256, 0).verdict, unreadable);
    assert_eq!(call(b"r1 r2 r3", 2, 2).verdict, unreadable);
    assert_eq!(check_set(input_capacity() + 1, 2, 0), unreadable);
    // The next good call answers as if nothing had happened.
    assert_eq!(call(b"r1 r2 r3", 2, 0).value, 6);
}

#[test]
fn the_longest_set_the_box_allows_fits_the_buffer() {
    // Every tile of the box, in the longest spelling the notation reads.
    let mut codes = Vec::new();
    for colour in Colour::ALL {
        for number in 1..=13 {
            codes.push(format!("{}{number:02}", colour.letter()));
            codes.push(format!("{}{number:02}", colour.letter()));
        }
    }
    codes.extend(["J", "J"].map(String::from));
    let text = codes.join(" ");
    assert!(text.len() <= INPUT_CAPACITY);
    let answer = check(&text, &RuleSet::current());
    assert_eq!(
        (answer.verdict, answer.tiles, answer.jokers),
        (Verdict::NeitherRunNorGroup as u32, 106, 2)
    );
}

/// A would-be set: mostly tiles of one colour or one number (so that many are valid),
/// some jokers, any length from empty to longer than a run can be.
fn near_set() -> impl Strategy<Value = Vec<Tile>> {
    let colour = prop::sample::select(Colour::ALL.to_vec());
    (
        colour,
        1u8..=13,
        prop::collection::vec((0u8..4, 0u8..13, 0u8..4), 0..15),
        0usize..=3,
    )
        .prop_map(|(colour, number, picks, jokers)| {
            let mut tiles: Vec<Tile> = picks
                .into_iter()
                .filter_map(|(kind, offset, other)| match kind {
                    0 | 1 => Tile::new(colour, (number - 1 + offset) % 13 + 1),
                    2 => Tile::new(Colour::ALL[usize::from(other)], number),
                    _ => Tile::new(Colour::ALL[usize::from(other)], offset + 1),
                })
                .collect();
            tiles.extend(std::iter::repeat_n(Tile::JOKER, jokers));
            tiles
        })
        .prop_shuffle()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// The exports answer what `rummikub::set::check_tiles` and `Set::arranged` say, under
    /// every joker limit and either way of reading runs.
    #[test]
    fn the_exports_agree_with_the_rules_crate(
        tiles in near_set(),
        jokers_per_set in 0u8..=2,
        run_wraps_around in any::<bool>(),
    ) {
        let rules = set_rules(jokers_per_set, run_wraps_around);
        let text = format_tiles(&tiles);
        let answer = check(&text, &rules);
        prop_assert_eq!(answer, expected(&tiles, &rules), "[{}]", text);
    }
}
