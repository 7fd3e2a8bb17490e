//! Perft: the number of distinct move sequences of a given length, the standard way of
//! pinning down a move generator (a move = stone + set of cells).

use crate::position::Position;

/// Counts the move sequences of length `depth` from `position`.
pub fn perft(position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => position.legal_count() as u64,
        _ => {
            let mut total = 0;
            position.for_each_legal(|mv| {
                let mut next = position.clone();
                next.play_unchecked(mv);
                total += perft(&next, depth - 1);
            });
            total
        }
    }
}
