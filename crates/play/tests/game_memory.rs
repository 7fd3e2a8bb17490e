//! Heap bytes of one Rumis game beyond its shared board (issue 19, point 8).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use play::game::Game;
use play::rumis_game::{RumisConfig, RumisGame};

/// Counts the bytes live on this thread (other threads' allocations are not counted).
struct Counting;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = LIVE.try_with(|l| l.set(l.get() + layout.size() as isize));
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let _ = LIVE.try_with(|l| l.set(l.get() - layout.size() as isize));
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = LIVE.try_with(|l| l.set(l.get() + new_size as isize - layout.size() as isize));
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn live() -> isize {
    LIVE.with(|l| l.get())
}

/// Heap bytes a value built by `f` keeps.
fn kept<T>(f: impl FnOnce() -> T) -> (T, isize) {
    let before = live();
    let value = f();
    (value, live() - before)
}

/// A game that shares its board: heap bytes of its board (built by the first game)
/// and of one more game beyond the board.
fn game_bytes(scenario: &str, players: u8) -> (isize, isize) {
    let config = RumisConfig::builtin(scenario, players).unwrap();
    let (first, with_board) = kept(|| RumisGame::start(&config, 1).unwrap());
    let (second, beyond) = kept(|| RumisGame::start(&config, 2).unwrap());
    assert!(std::sync::Arc::ptr_eq(
        first.position.shared_board(),
        second.position.shared_board()
    ));
    drop((first, second));
    (with_board - beyond, beyond)
}

/// The target for one open table's game: 100 KB beyond the shared board.
const TARGET: isize = 100 * 1024;

#[test]
fn a_game_costs_little_beyond_its_shared_board() {
    for (scenario, players) in [("chullpa", 2), ("chullpa", 4), ("huaca", 6)] {
        let (board, game) = game_bytes(scenario, players);
        eprintln!("{scenario} {players}p: shared board {board} B, each game beyond it {game} B");
        if (scenario, players) == ("chullpa", 4) {
            assert!(
                game <= TARGET,
                "a Chullpa 4p game costs {game} B beyond its board (target {TARGET} B)"
            );
        }
        assert!(game * 10 < board, "the board is shared, not copied");
    }
}
