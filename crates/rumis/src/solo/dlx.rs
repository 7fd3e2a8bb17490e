//! Dancing links (Knuth's Algorithm X as linked lists), the engine of the cube solver.
//!
//! Items are numbered from 0. The first `primary` items must be covered exactly once
//! (the cells of the cube); the others are secondary (the stones): covered at most once
//! by the caller's rule, which here is a capacity (a stone kind may be used up to its
//! capacity; [`Dlx::select`] covers its item only when the last copy is taken).
//!
//! Node 0 is the root, nodes `1..=items` are the item headers, the rest are the rows'
//! nodes, each row's nodes linked in a ring left to right in the order given.

pub(crate) struct Dlx {
    left: Vec<u32>,
    right: Vec<u32>,
    up: Vec<u32>,
    down: Vec<u32>,
    /// Header node of each node's item.
    item: Vec<u32>,
    /// Row id of each node (unused for headers).
    row: Vec<u32>,
    /// Number of rows still linked under each header.
    size: Vec<u32>,
    /// Copies left of each secondary item (indexed by header node).
    left_over: Vec<u32>,
    primary: usize,
}

impl Dlx {
    /// `capacities[i]` (at least 1) is the capacity of secondary item `primary + i`.
    pub fn new(primary: usize, capacities: &[u32]) -> Dlx {
        debug_assert!(capacities.iter().all(|&c| c >= 1));
        let items = primary + capacities.len();
        let headers = items + 1;
        let mut dlx = Dlx {
            left: Vec::with_capacity(headers),
            right: Vec::with_capacity(headers),
            up: (0..headers as u32).collect(),
            down: (0..headers as u32).collect(),
            item: (0..headers as u32).collect(),
            row: vec![u32::MAX; headers],
            size: vec![0; headers],
            left_over: vec![0; headers],
            primary,
        };
        // The root's ring holds the primary headers only; secondary headers link to
        // themselves, so covering them never touches the ring.
        for h in 0..headers {
            if h <= primary {
                dlx.left
                    .push(if h == 0 { primary as u32 } else { h as u32 - 1 });
                dlx.right.push(if h == primary { 0 } else { h as u32 + 1 });
            } else {
                dlx.left.push(h as u32);
                dlx.right.push(h as u32);
            }
        }
        for (i, &c) in capacities.iter().enumerate() {
            dlx.left_over[primary + 1 + i] = c;
        }
        dlx
    }

    /// Adds a row covering `items` (0-based item numbers, primary ones first); returns
    /// the row's first node.
    pub fn add_row(&mut self, row: u32, items: &[usize]) -> u32 {
        let first = self.left.len() as u32;
        let n = items.len() as u32;
        for (k, &it) in items.iter().enumerate() {
            let node = first + k as u32;
            let header = it as u32 + 1;
            self.left
                .push(if k == 0 { first + n - 1 } else { node - 1 });
            self.right
                .push(if k as u32 == n - 1 { first } else { node + 1 });
            let last = self.up[header as usize];
            self.up.push(last);
            self.down.push(header);
            self.down[last as usize] = node;
            self.up[header as usize] = node;
            self.item.push(header);
            self.row.push(row);
            self.size[header as usize] += 1;
        }
        first
    }

    fn cover(&mut self, header: u32) {
        let h = header as usize;
        let (l, r) = (self.left[h], self.right[h]);
        self.right[l as usize] = r;
        self.left[r as usize] = l;
        let mut i = self.down[h];
        while i != header {
            let mut j = self.right[i as usize];
            while j != i {
                let (u, d) = (self.up[j as usize], self.down[j as usize]);
                self.down[u as usize] = d;
                self.up[d as usize] = u;
                self.size[self.item[j as usize] as usize] -= 1;
                j = self.right[j as usize];
            }
            i = self.down[i as usize];
        }
    }

    fn uncover(&mut self, header: u32) {
        let h = header as usize;
        let mut i = self.up[h];
        while i != header {
            let mut j = self.left[i as usize];
            while j != i {
                let (u, d) = (self.up[j as usize], self.down[j as usize]);
                self.down[u as usize] = j;
                self.up[d as usize] = j;
                self.size[self.item[j as usize] as usize] += 1;
                j = self.left[j as usize];
            }
            i = self.up[i as usize];
        }
        let (l, r) = (self.left[h], self.right[h]);
        self.right[l as usize] = header;
        self.left[r as usize] = header;
    }

    fn is_secondary(&self, header: u32) -> bool {
        header as usize > self.primary
    }

    /// The uncovered primary item with the fewest rows (the most constrained cell), as
    /// its header node with that number; `None` when every primary item is covered.
    pub fn most_constrained(&self) -> Option<(u32, u32)> {
        let mut best: Option<(u32, u32)> = None;
        let mut h = self.right[0];
        while h != 0 {
            let s = self.size[h as usize];
            if best.is_none_or(|(_, b)| s < b) {
                best = Some((h, s));
                if s == 0 {
                    break;
                }
            }
            h = self.right[h as usize];
        }
        best
    }

    /// The row nodes under a header, top to bottom, as they are now.
    #[cfg(test)]
    pub fn column(&self, header: u32) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.size[header as usize] as usize);
        let mut i = self.down[header as usize];
        while i != header {
            out.push(i);
            i = self.down[i as usize];
        }
        out
    }

    /// The header node of an item (0-based item number).
    pub fn header(&self, item: usize) -> u32 {
        item as u32 + 1
    }

    /// The item (0-based) of a header node.
    pub fn item_of_header(&self, header: u32) -> usize {
        header as usize - 1
    }

    /// The next node down in a column (the header when at the bottom).
    pub fn down(&self, node: u32) -> u32 {
        self.down[node as usize]
    }

    pub fn row_of(&self, node: u32) -> u32 {
        self.row[node as usize]
    }

    /// Begins branching on a primary item.
    pub fn open(&mut self, header: u32) {
        self.cover(header);
    }

    /// Ends branching on a primary item.
    pub fn close(&mut self, header: u32) {
        self.uncover(header);
    }

    /// Takes the row of `node` (whose own item is already covered): covers its other
    /// items; a secondary item is covered when its last copy is taken.
    pub fn select(&mut self, node: u32) {
        let mut j = self.right[node as usize];
        while j != node {
            let h = self.item[j as usize];
            if self.is_secondary(h) {
                self.left_over[h as usize] -= 1;
                if self.left_over[h as usize] == 0 {
                    self.cover(h);
                }
            } else {
                self.cover(h);
            }
            j = self.right[j as usize];
        }
    }

    /// Undoes [`Dlx::select`].
    pub fn unselect(&mut self, node: u32) {
        let mut j = self.left[node as usize];
        while j != node {
            let h = self.item[j as usize];
            if self.is_secondary(h) {
                if self.left_over[h as usize] == 0 {
                    self.uncover(h);
                }
                self.left_over[h as usize] += 1;
            } else {
                self.uncover(h);
            }
            j = self.left[j as usize];
        }
    }

    /// Unlinks a whole row from its items (forward checking: a row that can no longer be
    /// taken). The row must be fully linked, as every row seen in an uncovered item is.
    pub fn hide_row(&mut self, node: u32) {
        let mut j = node;
        loop {
            let (u, d) = (self.up[j as usize], self.down[j as usize]);
            self.down[u as usize] = d;
            self.up[d as usize] = u;
            self.size[self.item[j as usize] as usize] -= 1;
            j = self.right[j as usize];
            if j == node {
                break;
            }
        }
    }

    /// Undoes [`Dlx::hide_row`] (rows are restored in the reverse order of hiding).
    pub fn unhide_row(&mut self, node: u32) {
        let mut j = self.left[node as usize];
        loop {
            let (u, d) = (self.up[j as usize], self.down[j as usize]);
            self.down[u as usize] = j;
            self.up[d as usize] = j;
            self.size[self.item[j as usize] as usize] += 1;
            if j == node {
                break;
            }
            j = self.left[j as usize];
        }
    }

    /// The first node of a row id (rows start with a primary item), for fixing a row
    /// before the search: `open(item of it)` then `select(it)`.
    pub fn header_of(&self, node: u32) -> u32 {
        self.item[node as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts exact covers by plain recursion over the most constrained item.
    fn count(dlx: &mut Dlx) -> u64 {
        let Some((h, size)) = dlx.most_constrained() else {
            return 1;
        };
        if size == 0 {
            return 0;
        }
        dlx.open(h);
        let mut total = 0;
        for node in dlx.column(h) {
            dlx.select(node);
            total += count(dlx);
            dlx.unselect(node);
        }
        dlx.close(h);
        total
    }

    #[test]
    fn knuths_example_has_one_cover() {
        // Knuth's "Dancing links" example: items A..G, six rows, one exact cover.
        let rows: [&[usize]; 6] = [
            &[2, 4, 5],
            &[0, 3, 6],
            &[1, 2, 5],
            &[0, 3],
            &[1, 6],
            &[3, 4, 6],
        ];
        let mut dlx = Dlx::new(7, &[]);
        for (i, r) in rows.iter().enumerate() {
            dlx.add_row(i as u32, r);
        }
        assert_eq!(count(&mut dlx), 1);
    }

    #[test]
    fn a_capacity_limits_how_often_a_kind_is_used() {
        // Four cells in a row, tiled by dominoes (kind 4) and monominoes (kind 5).
        let build = |dominoes: u32, monos: u32| {
            let mut dlx = Dlx::new(4, &[dominoes, monos]);
            let mut id = 0;
            for c in 0..3 {
                dlx.add_row(id, &[c, c + 1, 4]);
                id += 1;
            }
            for c in 0..4 {
                dlx.add_row(id, &[c, 5]);
                id += 1;
            }
            dlx
        };
        // Tilings of a 1x4 strip: DD, DMM, MDM, MMD, MMMM.
        assert_eq!(count(&mut build(2, 4)), 5);
        assert_eq!(count(&mut build(1, 4)), 4);
        assert_eq!(count(&mut build(2, 1)), 1);
        assert_eq!(count(&mut build(1, 1)), 0);
    }
}
