//! A board: one scenario's footprint for one player count, with every placement that
//! fits it precomputed (as Pentobi precomputes its move lists per board variant).
//!
//! A placement is a stone in one orientation at one position in space. Placements are
//! numbered; the numbering is what [`Move`] carries, and what the fast move generator's
//! bit sets are indexed by. Placements are sorted by stone, so one stone's placements
//! are one contiguous range of indices.
//!
//! A board never changes once built, and it is most of what a game weighs (1–3 MB of
//! placements and bit sets), so games of the same footprint share one: [`BoardKey`]
//! says what fixes a board, [`Boards`] hands out one `Arc<Board>` per key, and
//! [`crate::Position::with_board`] starts a game on it.

use std::collections::HashMap;
use std::fmt;
use std::ops::Range;
use std::sync::{Arc, Mutex, Weak};

use crate::position::{Position, Setup, SetupError};
use crate::scenario::Footprint;
use crate::stones::{Offset, Stone};

/// A cell of the board's box: column `x` (a, b, …), row `y` (1, 2, … from the top of the
/// printed grid) and level `z` (0 = on the board). Written `c3:1` (level counted from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub x: u8,
    pub y: u8,
    pub z: u8,
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}:{}",
            (b'a' + self.x) as char,
            self.y + 1,
            self.z + 1
        )
    }
}

impl Cell {
    /// The cells of an orientation whose bounding box has its lowest corner at
    /// (`x`, `y`, `z`).
    pub fn of_shape(shape: &crate::stones::Shape, x: u8, y: u8, z: u8) -> Vec<Cell> {
        shape
            .cubes()
            .iter()
            .map(|c| Cell {
                x: x + c[0] as u8,
                y: y + c[1] as u8,
                z: z + c[2] as u8,
            })
            .collect()
    }

    /// The column name alone (`c3`).
    pub fn column_name(&self) -> String {
        format!("{}{}", (b'a' + self.x) as char, self.y + 1)
    }
}

/// A legal-or-not placement, identified by its index on its board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(pub(crate) u32);

impl Move {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The part of a placement that stands in one column: its lowest level and one past its
/// highest. With at most four cubes a stone's cubes in one column are always contiguous.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColumnSpan {
    pub column: u16,
    pub bottom: u8,
    pub top: u8,
}

/// A stone in one orientation at one position.
#[derive(Clone, Debug)]
pub struct Placement {
    pub stone: Stone,
    /// Index into [`Stone::orientations`].
    pub orientation: u8,
    cells: [u16; 4],
    len: u8,
    spans: [ColumnSpan; 4],
    span_count: u8,
    neighbours: Range<u32>,
    /// Some cube stands on the board (level 0).
    pub on_board: bool,
}

impl Placement {
    /// Cell indices, ascending.
    pub fn cells(&self) -> &[u16] {
        &self.cells[..self.len as usize]
    }
    /// The columns the stone stands in.
    pub fn spans(&self) -> &[ColumnSpan] {
        &self.spans[..self.span_count as usize]
    }
}

/// Number of 64-bit words of a bit set over placements.
pub(crate) fn words_for(bits: usize) -> usize {
    bits.div_ceil(64)
}

/// Everything that fixes a board: the scenario's key (boards of different scenarios
/// are never shared, even when their footprints agree), the footprint with its height
/// limits for the board's player count (R4, R10, R11), and R16's red line per column
/// in the dismantling game. Setups with equal keys play on the same board
/// ([`Setup::board_key`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BoardKey {
    pub scenario_key: String,
    pub footprint: Footprint,
    /// R16: per column (row-major), inside the red line.
    pub red_line: Option<Vec<bool>>,
}

/// R16: the red line of the dismantling game, per column and as placement masks.
pub(crate) struct RedLine {
    pub columns: Vec<bool>,
    /// Placements standing wholly inside / wholly outside the red line.
    pub inside: Vec<u64>,
    pub outside: Vec<u64>,
}

impl RedLine {
    fn new(board: &Board, columns: Vec<bool>) -> RedLine {
        let words = words_for(board.placement_count());
        let (mut inside, mut outside) = (vec![0u64; words], vec![0u64; words]);
        for mv in board.all_moves() {
            let spans = board.placement(mv).spans();
            let i = mv.index();
            if spans.iter().all(|s| columns[s.column as usize]) {
                inside[i / 64] |= 1 << (i % 64);
            }
            if spans.iter().all(|s| !columns[s.column as usize]) {
                outside[i / 64] |= 1 << (i % 64);
            }
        }
        RedLine {
            columns,
            inside,
            outside,
        }
    }
}

/// Footprint, box geometry and precomputed placements of one scenario and player count
/// (and R16's red line in the dismantling game). Immutable once built: games share it.
pub struct Board {
    pub scenario_key: String,
    pub width: usize,
    pub depth: usize,
    /// Levels of the box: the highest limit.
    pub height: usize,
    key: BoardKey,
    red: Option<RedLine>,
    placements: Vec<Placement>,
    neighbour_cells: Vec<u16>,
    stone_ranges: [Range<u32>; 11],
    /// Placements by (column, level of their bottom in that column): flat lists.
    by_column_bottom: Vec<u32>,
    by_column_bottom_start: Vec<u32>,
    /// The same as bit sets: placements whose span in a column starts at a level.
    resting: Vec<u64>,
    /// For each cell, the bit set of placements that contain it.
    containing: Vec<u64>,
    on_board: Vec<u64>,
    /// Per placement: columns whose bottom is above level 0 (those don't fit an empty board).
    initial_mismatch: Vec<u8>,
    lookup: HashMap<(Stone, Vec<u16>), u32>,
    pub(crate) words: usize,
}

impl Board {
    /// The board of a footprint, without a red line.
    pub fn new(scenario_key: &str, footprint: &Footprint) -> Board {
        Board::from_key(BoardKey {
            scenario_key: scenario_key.to_string(),
            footprint: footprint.clone(),
            red_line: None,
        })
    }

    /// Builds the board a key describes: every placement, its indices and bit sets.
    pub fn from_key(key: BoardKey) -> Board {
        let footprint = &key.footprint;
        let (width, depth, height) = (footprint.width, footprint.depth, footprint.height());
        let red_line = key.red_line.clone();
        let mut board = Board {
            scenario_key: key.scenario_key.clone(),
            width,
            depth,
            height,
            key,
            red: None,
            placements: Vec::new(),
            neighbour_cells: Vec::new(),
            stone_ranges: std::array::from_fn(|_| 0..0),
            by_column_bottom: Vec::new(),
            by_column_bottom_start: Vec::new(),
            resting: Vec::new(),
            containing: Vec::new(),
            on_board: Vec::new(),
            initial_mismatch: Vec::new(),
            lookup: HashMap::new(),
            words: 0,
        };
        board.enumerate_placements();
        board.build_indices();
        board.red = red_line.map(|columns| RedLine::new(&board, columns));
        board
    }

    /// What fixes this board.
    pub fn key(&self) -> &BoardKey {
        &self.key
    }

    /// R16: the columns inside the red line (row-major), for the dismantling game.
    pub fn red_line(&self) -> Option<&[bool]> {
        self.red.as_ref().map(|r| &r.columns[..])
    }

    pub(crate) fn red(&self) -> Option<&RedLine> {
        self.red.as_ref()
    }

    /// Number of cells in the box (width × depth × height).
    pub fn cell_count(&self) -> usize {
        self.width * self.depth * self.height
    }

    pub fn column_count(&self) -> usize {
        self.width * self.depth
    }

    /// Height limit of a column (0 = outside the footprint) (R4).
    pub fn limit(&self, column: usize) -> u8 {
        self.key.footprint.limits[column]
    }

    pub fn cell_index(&self, cell: Cell) -> Option<u16> {
        let (x, y, z) = (cell.x as usize, cell.y as usize, cell.z as usize);
        (x < self.width && y < self.depth && z < self.height)
            .then(|| ((z * self.depth + y) * self.width + x) as u16)
    }

    pub fn cell(&self, index: u16) -> Cell {
        let i = index as usize;
        let x = i % self.width;
        let y = (i / self.width) % self.depth;
        let z = i / (self.width * self.depth);
        Cell {
            x: x as u8,
            y: y as u8,
            z: z as u8,
        }
    }

    /// The column a cell stands in.
    pub fn column_of(&self, index: u16) -> usize {
        index as usize % (self.width * self.depth)
    }

    /// Is the cell inside the footprint and below its column's limit (R4)?
    pub fn is_buildable(&self, cell: Cell) -> bool {
        (cell.x as usize) < self.width
            && (cell.y as usize) < self.depth
            && cell.z < self.limit(cell.y as usize * self.width + cell.x as usize)
    }

    /// Face neighbours (R2) of a cell that lie inside the box.
    pub fn face_neighbours(&self, cell: Cell) -> impl Iterator<Item = Cell> + '_ {
        const DIRECTIONS: [Offset; 6] = [
            [1, 0, 0],
            [-1, 0, 0],
            [0, 1, 0],
            [0, -1, 0],
            [0, 0, 1],
            [0, 0, -1],
        ];
        DIRECTIONS
            .into_iter()
            .filter_map(move |d| self.offset(cell, d))
    }

    /// Edge neighbours (R2: sharing an edge but no face; the 12 cells two of whose
    /// coordinates differ by one) of a cell that lie inside the box.
    pub fn edge_neighbours(&self, cell: Cell) -> impl Iterator<Item = Cell> + '_ {
        const DIRECTIONS: [Offset; 12] = [
            [1, 1, 0],
            [1, -1, 0],
            [-1, 1, 0],
            [-1, -1, 0],
            [1, 0, 1],
            [1, 0, -1],
            [-1, 0, 1],
            [-1, 0, -1],
            [0, 1, 1],
            [0, 1, -1],
            [0, -1, 1],
            [0, -1, -1],
        ];
        DIRECTIONS
            .into_iter()
            .filter_map(move |d| self.offset(cell, d))
    }

    fn offset(&self, cell: Cell, d: Offset) -> Option<Cell> {
        let x = cell.x as i32 + d[0] as i32;
        let y = cell.y as i32 + d[1] as i32;
        let z = cell.z as i32 + d[2] as i32;
        ((0..self.width as i32).contains(&x)
            && (0..self.depth as i32).contains(&y)
            && (0..self.height as i32).contains(&z))
        .then_some(Cell {
            x: x as u8,
            y: y as u8,
            z: z as u8,
        })
    }

    pub fn placement_count(&self) -> usize {
        self.placements.len()
    }

    pub fn placement(&self, mv: Move) -> &Placement {
        &self.placements[mv.index()]
    }

    /// Every placement of the board, legal or not.
    pub fn all_moves(&self) -> impl Iterator<Item = Move> {
        (0..self.placements.len() as u32).map(Move)
    }

    /// All placements of a stone.
    pub fn stone_moves(&self, stone: Stone) -> impl Iterator<Item = Move> {
        self.stone_ranges[stone.index()].clone().map(Move)
    }

    pub(crate) fn stone_range(&self, stone_index: usize) -> Range<u32> {
        self.stone_ranges[stone_index].clone()
    }

    /// The placement of `stone` covering exactly these cells, if it fits the board.
    pub fn find(&self, stone: Stone, cells: &[u16]) -> Option<Move> {
        let mut key: Vec<u16> = cells.to_vec();
        key.sort_unstable();
        self.lookup.get(&(stone, key)).map(|&i| Move(i))
    }

    /// Free cells that touch the placement face to face and could ever hold a cube.
    pub(crate) fn neighbours(&self, p: &Placement) -> &[u16] {
        &self.neighbour_cells[p.neighbours.start as usize..p.neighbours.end as usize]
    }

    pub(crate) fn placements_by_column_bottom(&self, column: usize, level: usize) -> &[u32] {
        let slot = column * (self.height + 1) + level;
        let (a, b) = (
            self.by_column_bottom_start[slot] as usize,
            self.by_column_bottom_start[slot + 1] as usize,
        );
        &self.by_column_bottom[a..b]
    }

    /// Bit set of the placements whose span in `column` starts at `level`.
    pub(crate) fn resting_on(&self, column: usize, level: usize) -> &[u64] {
        let slot = column * (self.height + 1) + level;
        &self.resting[slot * self.words..(slot + 1) * self.words]
    }

    pub(crate) fn containing(&self, cell: u16) -> &[u64] {
        let w = self.words;
        &self.containing[cell as usize * w..(cell as usize + 1) * w]
    }

    pub(crate) fn on_board_bits(&self) -> &[u64] {
        &self.on_board
    }

    pub(crate) fn initial_mismatch(&self) -> &[u8] {
        &self.initial_mismatch
    }

    fn enumerate_placements(&mut self) {
        for stone in Stone::ALL {
            let start = self.placements.len() as u32;
            for (orientation, shape) in stone.orientations().iter().enumerate() {
                let ext = shape.extent();
                for tz in 0..=(self.height as i32 - ext[2] as i32) {
                    for ty in 0..=(self.depth as i32 - ext[1] as i32) {
                        for tx in 0..=(self.width as i32 - ext[0] as i32) {
                            let cells: Vec<Cell> = shape
                                .cubes()
                                .iter()
                                .map(|c| Cell {
                                    x: (tx + c[0] as i32) as u8,
                                    y: (ty + c[1] as i32) as u8,
                                    z: (tz + c[2] as i32) as u8,
                                })
                                .collect();
                            if cells.iter().all(|&c| self.is_buildable(c)) {
                                self.push_placement(stone, orientation as u8, &cells);
                            }
                        }
                    }
                }
            }
            self.stone_ranges[stone.index()] = start..self.placements.len() as u32;
        }
    }

    fn push_placement(&mut self, stone: Stone, orientation: u8, cells: &[Cell]) {
        let mut indices = [0u16; 4];
        for (slot, &c) in indices.iter_mut().zip(cells) {
            *slot = self.cell_index(c).expect("inside the box");
        }
        let len = cells.len();
        indices[..len].sort_unstable();
        let mut spans = [ColumnSpan {
            column: 0,
            bottom: 0,
            top: 0,
        }; 4];
        let mut span_count = 0;
        for c in cells {
            let column = (c.y as usize * self.width + c.x as usize) as u16;
            match spans[..span_count].iter_mut().find(|s| s.column == column) {
                Some(s) => {
                    s.bottom = s.bottom.min(c.z);
                    s.top = s.top.max(c.z + 1);
                }
                None => {
                    spans[span_count] = ColumnSpan {
                        column,
                        bottom: c.z,
                        top: c.z + 1,
                    };
                    span_count += 1;
                }
            }
        }
        let neighbour_start = self.neighbour_cells.len() as u32;
        let mut neighbours: Vec<u16> = cells
            .iter()
            .flat_map(|&c| self.face_neighbours(c).collect::<Vec<_>>())
            .filter(|&n| self.is_buildable(n))
            .map(|n| self.cell_index(n).expect("inside the box"))
            .filter(|n| !indices[..len].contains(n))
            .collect();
        neighbours.sort_unstable();
        neighbours.dedup();
        self.neighbour_cells.extend(neighbours);
        let id = self.placements.len() as u32;
        self.lookup.insert((stone, indices[..len].to_vec()), id);
        self.placements.push(Placement {
            stone,
            orientation,
            cells: indices,
            len: len as u8,
            spans,
            span_count: span_count as u8,
            neighbours: neighbour_start..self.neighbour_cells.len() as u32,
            on_board: cells.iter().any(|c| c.z == 0),
        });
    }

    fn build_indices(&mut self) {
        let n = self.placements.len();
        self.words = words_for(n);
        let w = self.words;
        let slots = self.column_count() * (self.height + 1);
        let mut lists: Vec<Vec<u32>> = vec![Vec::new(); slots];
        self.containing = vec![0; self.cell_count() * w];
        self.on_board = vec![0; w];
        self.initial_mismatch = vec![0; n];
        self.resting = vec![0; slots * w];
        for (i, p) in self.placements.iter().enumerate() {
            for s in p.spans() {
                let slot = s.column as usize * (self.height + 1) + s.bottom as usize;
                lists[slot].push(i as u32);
                self.resting[slot * w + i / 64] |= 1 << (i % 64);
                if s.bottom != 0 {
                    self.initial_mismatch[i] += 1;
                }
            }
            for &c in p.cells() {
                self.containing[c as usize * w + i / 64] |= 1 << (i % 64);
            }
            if p.on_board {
                self.on_board[i / 64] |= 1 << (i % 64);
            }
        }
        self.by_column_bottom_start.push(0);
        for list in lists {
            self.by_column_bottom.extend(list);
            self.by_column_bottom_start
                .push(self.by_column_bottom.len() as u32);
        }
    }
}

/// Boards built once and shared by every game played on them: one `Arc<Board>` per
/// [`BoardKey`] while some game holds it (the cache keeps weak references, so a board
/// no game uses any more is freed and built again when needed). An explicit value:
/// whoever wants sharing across a process keeps one (the `play` crate has a shared
/// instance).
#[derive(Default)]
pub struct Boards {
    built: Mutex<HashMap<BoardKey, Weak<Board>>>,
}

impl Boards {
    pub fn new() -> Boards {
        Boards::default()
    }

    /// The board of a key: the one already built if a game still holds it, else a new
    /// one (built outside the lock, so other keys are not held up meanwhile).
    pub fn get(&self, key: &BoardKey) -> Arc<Board> {
        if let Some(board) = self.lock().get(key).and_then(Weak::upgrade) {
            return board;
        }
        let board = Arc::new(Board::from_key(key.clone()));
        let mut built = self.lock();
        // Another thread may have built the same board meanwhile: keep theirs.
        if let Some(theirs) = built.get(key).and_then(Weak::upgrade) {
            return theirs;
        }
        built.retain(|_, weak| weak.strong_count() > 0);
        built.insert(key.clone(), Arc::downgrade(&board));
        board
    }

    /// The board a setup plays on.
    pub fn for_setup(&self, setup: &Setup) -> Result<Arc<Board>, SetupError> {
        Ok(self.get(&setup.board_key()?))
    }

    /// A new game on the shared board of its setup.
    pub fn position(&self, setup: Setup) -> Result<Position, SetupError> {
        let board = self.for_setup(&setup)?;
        Position::with_board(setup, board)
    }

    /// Boards some game still holds.
    pub fn len(&self) -> usize {
        self.lock()
            .values()
            .filter(|weak| weak.strong_count() > 0)
            .count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<BoardKey, Weak<Board>>> {
        // A panic while the lock is held leaves the map intact (it is only read,
        // pruned and inserted into), so a poisoned lock is used as it is.
        self.built.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;
    use crate::SetupError;

    fn chullpa(players: u8) -> Board {
        Board::new(
            "chullpa",
            &Scenario::builtin("chullpa")
                .unwrap()
                .footprint(players)
                .unwrap(),
        )
    }

    #[test]
    fn cells_round_trip_through_indices() {
        let b = chullpa(4);
        for i in 0..b.cell_count() as u16 {
            assert_eq!(b.cell_index(b.cell(i)), Some(i));
        }
        assert_eq!(b.cell_index(Cell { x: 4, y: 0, z: 0 }), None);
        assert_eq!(Cell { x: 2, y: 2, z: 1 }.to_string(), "c3:2");
    }

    #[test]
    fn every_placement_fits_and_is_unique() {
        let b = chullpa(2);
        let mut seen = std::collections::HashSet::new();
        for i in 0..b.placement_count() {
            let p = b.placement(Move(i as u32));
            assert_eq!(p.cells().len(), p.stone.size());
            for &c in p.cells() {
                assert!(b.is_buildable(b.cell(c)));
            }
            assert!(seen.insert((p.stone, p.cells().to_vec())));
        }
    }

    #[test]
    fn a_stones_cubes_in_one_column_are_contiguous() {
        // The no-hole rule (R3) reduces to "each column's span sits on the column's
        // height" only because no stone of four cubes can leave a gap in a column.
        let b = chullpa(4);
        for i in 0..b.placement_count() {
            let p = b.placement(Move(i as u32));
            let cubes: usize = p.spans().iter().map(|s| (s.top - s.bottom) as usize).sum();
            assert_eq!(cubes, p.cells().len());
        }
    }

    #[test]
    fn boards_hand_out_one_board_per_key_while_it_is_used() {
        let boards = Boards::new();
        let setup = |players| Setup::new(Scenario::builtin("chullpa").unwrap(), players);
        let a = boards.for_setup(&setup(4)).unwrap();
        let b = boards.for_setup(&setup(4).with_seed(9)).unwrap();
        assert!(Arc::ptr_eq(&a, &b), "the seed does not change the board");
        // R10: two players with four colours play on the four-player board.
        let four_colours = setup(2).with_variant(crate::Variant::FourColours);
        assert!(Arc::ptr_eq(&a, &boards.for_setup(&four_colours).unwrap()));
        let two = boards.for_setup(&setup(2)).unwrap();
        assert!(!Arc::ptr_eq(&a, &two));
        assert_eq!(boards.len(), 2);
        drop((a, b, two));
        assert_eq!(boards.len(), 0, "a board no game holds is freed");
        assert!(boards.for_setup(&setup(7)).is_err());
    }

    #[test]
    fn a_game_starts_only_on_its_own_board() {
        let setup = |players| Setup::new(Scenario::builtin("chullpa").unwrap(), players);
        let four = Arc::new(setup(4).board().unwrap());
        let game = Position::with_board(setup(4).with_seed(3), Arc::clone(&four)).unwrap();
        assert!(Arc::ptr_eq(game.shared_board(), &four));
        assert_eq!(
            game.legal_count(),
            Position::new(setup(4)).unwrap().legal_count()
        );
        assert!(matches!(
            Position::with_board(setup(2), four),
            Err(SetupError::WrongBoard { .. })
        ));
        // R16: the red line is part of the board: the dismantling game's board is not
        // the two-player one, and games on it share the line.
        let colca = Setup::new(Scenario::builtin("colca").unwrap(), 2);
        let dismantle = colca.clone().with_variant(crate::Variant::Dismantle);
        let boards = Boards::new();
        let red = boards.for_setup(&dismantle).unwrap();
        assert!(red.red_line().is_some());
        assert!(Position::with_board(colca.clone(), Arc::clone(&red)).is_err());
        let shared = boards.position(dismantle.clone()).unwrap();
        assert_eq!(shared.red_line(), red.red_line());
        assert_eq!(
            shared.legal_moves(),
            Position::new(dismantle).unwrap().legal_moves()
        );
    }

    #[test]
    fn a_restarted_game_is_a_new_game_on_the_same_board() {
        let setup = Setup::new(Scenario::builtin("chullpa").unwrap(), 3)
            .with_variant(crate::Variant::RuinasRandom)
            .with_seed(5);
        let mut game = Position::new(setup.clone()).unwrap();
        let fresh = game.restart();
        let first = game.legal_moves()[0];
        game.play(first).unwrap();
        let again = game.restart();
        assert!(Arc::ptr_eq(again.shared_board(), game.shared_board()));
        assert_eq!(again.history(), fresh.history(), "the same random ruin");
        assert_eq!(again.legal_moves(), fresh.legal_moves());
    }

    #[test]
    fn the_upright_i4_fits_only_where_the_limit_is_four() {
        let b = chullpa(2); // height 4
        let upright = b
            .stone_moves(Stone::I4)
            .filter(|&m| b.placement(m).spans().len() == 1)
            .count();
        assert_eq!(upright, 20, "one upright I4 per column");
    }
}
