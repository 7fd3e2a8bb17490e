//! Scoring (R9): visible squares minus unplaced stones, per colour and per player
//! (R10, R11), and R16's final score after the interim one.

use super::Position;

impl Position {
    /// The score as it stands (R9); final once the game is over. R16: once the interim
    /// score is taken, the final score is the interim score plus own visible squares
    /// outside the red line minus one per own stone set aside, still inside the red
    /// line, or in hand; stones that left the game at the interim score count no more.
    pub fn score(&self) -> Score {
        let colours = self.colour_count();
        let mut visible = vec![0u32; colours];
        let red = self.board.red().filter(|_| self.interim.is_some());
        for column in 0..self.board.column_count() {
            if red.is_some_and(|r| r.columns[column]) {
                continue;
            }
            if let Some(c) = self.top(column) {
                visible[c.index()] += 1;
            }
        }
        let mut unplaced: Vec<u32> = self.stones_left.iter().map(|s| s.count_ones()).collect();
        let Some(interim) = &self.interim else {
            return Score::tally(&visible, &unplaced, &self.owners, self.setup.players);
        };
        for (u, &aside) in unplaced.iter_mut().zip(&self.set_aside) {
            *u += aside as u32;
        }
        for &(c, mv) in &self.present {
            let inside = self.board.placement(mv).spans()[0].column as usize;
            if red.is_some_and(|r| r.columns[inside]) {
                unplaced[c as usize] += 1;
            }
        }
        Score::tally_after(
            &interim.colour_points,
            &visible,
            &unplaced,
            &self.owners,
            self.setup.players,
        )
    }
}

/// Scores per colour and per player (R9, R10, R11).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Score {
    /// Columns whose top cube has the colour.
    pub visible: Vec<u32>,
    /// Stones the colour has not placed.
    pub unplaced: Vec<u32>,
    /// visible − unplaced, per colour.
    pub colour_points: Vec<i32>,
    /// Per player: their colour's points (R10: their best colour's).
    pub player_points: Vec<i32>,
    /// Players with the highest points; more than one share the win (R9).
    pub winners: Vec<u8>,
    /// R16: the interim score per colour, already included in `colour_points` (then
    /// `visible` counts outside the red line only, and `unplaced` the stones set
    /// aside, still inside the red line or in hand).
    pub interim: Option<Vec<i32>>,
}

impl Score {
    /// Points from what is seen from above and what is left over (R9): each visible
    /// square of a colour scores 1, each unplaced stone costs 1. A player scores their
    /// colour (R10: their best colour; R11: a neutral colour scores for no one). The
    /// rules name no tie-break, so all players with the top score share the win.
    pub fn tally(visible: &[u32], unplaced: &[u32], owners: &[Option<u8>], players: u8) -> Score {
        Score::tally_from(None, visible, unplaced, owners, players)
    }

    /// R16's final score: the interim points plus what is counted after it (visible
    /// squares outside the red line minus stones set aside or left inside it).
    pub fn tally_after(
        interim: &[i32],
        visible: &[u32],
        unplaced: &[u32],
        owners: &[Option<u8>],
        players: u8,
    ) -> Score {
        Score::tally_from(Some(interim), visible, unplaced, owners, players)
    }

    fn tally_from(
        interim: Option<&[i32]>,
        visible: &[u32],
        unplaced: &[u32],
        owners: &[Option<u8>],
        players: u8,
    ) -> Score {
        let colour_points: Vec<i32> = visible
            .iter()
            .zip(unplaced)
            .enumerate()
            .map(|(c, (&v, &u))| interim.map_or(0, |i| i[c]) + v as i32 - u as i32)
            .collect();
        let player_points: Vec<i32> = (0..players)
            .map(|p| {
                owners
                    .iter()
                    .zip(&colour_points)
                    .filter(|(o, _)| **o == Some(p))
                    .map(|(_, &points)| points)
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let best = player_points.iter().copied().max().unwrap_or(0);
        let winners = (0..players)
            .filter(|&p| player_points[p as usize] == best)
            .collect();
        Score {
            visible: visible.to_vec(),
            unplaced: unplaced.to_vec(),
            colour_points,
            player_points,
            winners,
            interim: interim.map(|i| i.to_vec()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_books_scoring_example() {
        // Four players see 7 red, 5 blue, 4 green, 4 yellow squares; yellow kept one
        // stone: 7, 5, 4, 3, and red wins (seed 000, "Beispiel").
        let owners = [Some(0), Some(1), Some(2), Some(3)];
        let score = Score::tally(&[7, 5, 4, 4], &[0, 0, 0, 1], &owners, 4);
        assert_eq!(score.colour_points, vec![7, 5, 4, 3]);
        assert_eq!(score.player_points, vec![7, 5, 4, 3]);
        assert_eq!(score.winners, vec![0]);
    }

    #[test]
    fn unplaced_stones_cost_one_each_not_per_cube() {
        let score = Score::tally(&[10, 10], &[2, 0], &[Some(0), Some(1)], 2);
        assert_eq!(score.player_points, vec![8, 10]);
    }

    #[test]
    fn tied_players_share_the_win() {
        let owners = [Some(0), Some(1), Some(2)];
        let score = Score::tally(&[6, 6, 3], &[0, 0, 0], &owners, 3);
        assert_eq!(score.winners, vec![0, 1]);
    }

    #[test]
    fn four_colours_count_each_players_best_colour() {
        // R10: A owns colours 0 and 2, B owns 1 and 3. A's best colour (8) beats B's (6),
        // although B's two colours together have more.
        let owners = [Some(0), Some(1), Some(0), Some(1)];
        let score = Score::tally(&[3, 6, 8, 5], &[0, 0, 0, 0], &owners, 2);
        assert_eq!(score.player_points, vec![8, 6]);
        assert_eq!(score.winners, vec![0]);
    }

    #[test]
    fn a_neutral_colour_scores_for_no_one() {
        // R11: the neutral ruin colour shows 9 squares, but neither player gets them.
        let owners = [Some(0), Some(1), None];
        let score = Score::tally(&[4, 5, 9], &[0, 1, 0], &owners, 2);
        assert_eq!(score.player_points, vec![4, 4]);
        assert_eq!(score.winners, vec![0, 1]);
    }
}
