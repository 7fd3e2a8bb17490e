//! The scores at the end of a Rumis game: the interim score (R16) and the final
//! report (R9, R10).

use std::fmt::Write as _;

use rumis::{Colour, Variant};

use super::Terminal;

impl Terminal {
    /// `red 12, blue 9`.
    pub(super) fn points_text(&self, score: &rumis::Score) -> String {
        (0..self.game.position.colour_count())
            .map(|i| {
                format!(
                    "{} {}",
                    self.paint.name(Colour(i as u8)),
                    score.colour_points[i]
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// R16: the interim score, and who begins the dismantling.
    pub(super) fn interim_report(&self) -> String {
        let position = &self.game.position;
        let Some(interim) = position.interim() else {
            return String::new();
        };
        let mut out = format!(
            "no one can place inside the red line any more: interim score (R16: visible squares minus unplaced stones): {}\n",
            self.points_text(interim)
        );
        out.push_str("unplaced stones leave the game; ");
        match position.to_move() {
            Some(colour) => {
                let _ = write!(
                    out,
                    "{} placed last and begins taking stones off",
                    self.paint.name(colour)
                );
            }
            None => out.push_str("no one can take a stone off"),
        }
        out
    }

    /// The final build, the scores per colour and per player, and the winners (R9, R10).
    pub(super) fn final_report(&self) -> String {
        let position = &self.game.position;
        let score = position.score();
        let mut out = String::from("game over\n");
        out.push_str(&self.board());
        if let Some(interim) = &score.interim {
            out.push_str(
                "final score (R16: interim + visible squares outside the red line minus stones \
                 set aside or left inside it):\n",
            );
            out.push_str("colour   player    interim  visible  minus  points\n");
            for (i, points) in interim.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "{}{} {:<9} {:>7} {:>8} {:>6} {:>7}",
                    self.paint.name(Colour(i as u8)),
                    " ".repeat(8 - Colour(i as u8).name().len()),
                    i + 1,
                    points,
                    score.visible[i],
                    score.unplaced[i],
                    score.colour_points[i]
                );
            }
        } else {
            out.push_str("final score (R9: visible squares minus unplaced stones):\n");
            out.push_str("colour   player    visible  unplaced  points\n");
        }
        for i in (0..position.colour_count()).filter(|_| score.interim.is_none()) {
            let colour = Colour(i as u8);
            let owner = match position.owner(colour) {
                Some(p) => format!("{}", p + 1),
                None => "neutral".to_string(),
            };
            let _ = writeln!(
                out,
                "{}{} {:<9} {:>7} {:>9} {:>7}",
                self.paint.name(colour),
                " ".repeat(8 - colour.name().len()),
                owner,
                score.visible[i],
                score.unplaced[i],
                score.colour_points[i]
            );
        }
        let four = position.setup().variant == Variant::FourColours;
        for p in 0..position.setup().players {
            let _ = writeln!(
                out,
                "{}: {} points{}",
                self.player_label(p),
                score.player_points[p as usize],
                if four { " (best colour, R10)" } else { "" }
            );
        }
        let best = score
            .winners
            .first()
            .map_or(0, |&w| score.player_points[w as usize]);
        let winners: Vec<String> = score
            .winners
            .iter()
            .map(|&w| self.player_label(w))
            .collect();
        if winners.len() == 1 {
            let _ = writeln!(out, "winner: {} with {best} points", winners[0]);
        } else {
            let _ = writeln!(
                out,
                "shared win (R9: no tie-break): {} with {best} points each",
                winners.join(", ")
            );
        }
        out
    }
}
