//! What the terminal shows of a Rumis game: its record, the players' labels, the
//! introduction, the status line, the board and the events since the last turn.

use std::fmt::Write as _;

use rumis::record::Record;
use rumis::{Colour, Event, FirstStones, Provenance, Variant};

use super::{draw, Terminal};
use crate::terminal::seats_text;

impl Terminal {
    /// The game record, naming a user's scenario file by its path.
    pub(super) fn record(&self) -> String {
        let seats = seats_text(&self.seats);
        match &self.scenario_file {
            Some(path) => Record::write_with_scenario(
                &self.game.position,
                Some(&seats),
                &path.display().to_string(),
            ),
            None => Record::write(&self.game.position, Some(&seats)),
        }
    }

    /// `player 1 (red, human)`; R10: `player 1 (red+green, human)`.
    pub(super) fn player_label(&self, player: u8) -> String {
        let colours: Vec<String> = self
            .game
            .position
            .colours_of(player)
            .into_iter()
            .map(|c| self.paint.name(c))
            .collect();
        format!(
            "player {} ({}, {})",
            player + 1,
            colours.join("+"),
            self.seats[player as usize].name()
        )
    }

    /// Number of the next move as people count them (generated ruin moves excluded).
    pub(super) fn move_number(&self) -> usize {
        self.game.position.history().len() - self.game.position.generated_moves() + 1
    }

    pub(super) fn intro_text(&self) -> String {
        let setup = self.game.position.setup();
        let scenario = &setup.scenario;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Rumis on {} ({}, {}), {} players, variant {}, seed {}",
            scenario.name,
            match &self.scenario_file {
                Some(path) => path.display().to_string(),
                None => scenario.key.clone(),
            },
            scenario.theme,
            setup.players,
            setup.variant,
            setup.seed
        );
        let _ = writeln!(
            out,
            "board: {}",
            match scenario.provenance {
                Provenance::Sourced => "sourced (the printed board is known from public sources)",
                Provenance::Reconstructed =>
                    "reconstructed (the printed board is not public; the project reconstructed it)",
            }
        );
        for p in 0..setup.players {
            let _ = writeln!(out, "seat {}: {}", p + 1, self.player_label(p));
        }
        if let Some(neutral) = self.game.position.neutral() {
            let generated = self.game.position.generated_moves();
            if generated > 0 {
                let _ = writeln!(
                    out,
                    "Ruinas (R11): a random ruin of {generated} {} stones was built (seed {}).",
                    self.paint.name(neutral),
                    setup.seed
                );
            } else {
                let _ = writeln!(
                    out,
                    "Ruinas (R11): first build the ruin together, taking turns with the \
                     eleven neutral {} stones; they score for nobody.",
                    self.paint.name(neutral)
                );
            }
        }
        if setup.variant == Variant::FourColours {
            let _ = writeln!(
                out,
                "Four colours (R10): colours move in turn; each player's best colour counts."
            );
        }
        if setup.first_stones == FirstStones::Edge {
            let _ = writeln!(
                out,
                "First stones (R14): each first stone lies on the board and touches a placed \
                 stone along an edge; first stones never touch face to face."
            );
        }
        if setup.variant == Variant::Inverse {
            let _ = writeln!(
                out,
                "Inverse (R15): no stone may touch your own colour face to face; each later \
                 stone touches another colour."
            );
        }
        if setup.variant == Variant::Dismantle {
            let _ = writeln!(
                out,
                "Dismantling (R16): build inside the red line (lower-case cells) until no one \
                 can; interim score; then each turn take one of your stones off inside it \
                 (`x L4`) and place it outside (`x L4 > L4 f1 g1 h1 f2`)."
            );
        }
        out.push_str("Type `help` for the commands.\n");
        out
    }

    /// Each colour's owner, points so far and remaining stones, and whose turn it is.
    pub(super) fn status(&self) -> String {
        let position = &self.game.position;
        let score = position.score();
        let mut out = String::new();
        for i in 0..position.colour_count() {
            let colour = Colour(i as u8);
            let owner = match position.owner(colour) {
                Some(p) => format!("player {}", p + 1),
                None => "neutral".to_string(),
            };
            let supply: Vec<&str> = position.supply(colour).iter().map(|s| s.code()).collect();
            let state = if position.is_out(colour) {
                "  (out)"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "{}{} {:<8} {:>3} points  {:>2} stones left: {}{}",
                self.paint.name(colour),
                " ".repeat(7 - colour.name().len()),
                owner,
                score.colour_points[i],
                supply.len(),
                supply.join(" "),
                state
            );
        }
        if let Some(interim) = position.interim() {
            let _ = writeln!(
                out,
                "interim score (R16): {}; points now include it",
                self.points_text(interim)
            );
        }
        if let (Some(colour), Some(player)) = (position.to_move(), position.actor()) {
            if position.removing() {
                let _ = writeln!(
                    out,
                    "move {}: {} to take a stone off inside the red line (R16), {}: `x STONE`",
                    self.move_number(),
                    self.paint.name(colour),
                    self.player_label(player)
                );
            } else if let Some(stone) = position.stone_in_hand() {
                let _ = writeln!(
                    out,
                    "move {}: {} to place the {stone} it took off, outside the red line (R16), {}",
                    self.move_number(),
                    self.paint.name(colour),
                    self.player_label(player)
                );
            } else if position.building_ruin() {
                let _ = writeln!(
                    out,
                    "move {}: ruin stone ({}, neutral), placed by {}",
                    self.move_number(),
                    self.paint.name(colour),
                    self.player_label(player)
                );
            } else {
                let _ = writeln!(
                    out,
                    "move {}: {} to move, {}",
                    self.move_number(),
                    self.paint.name(colour),
                    self.player_label(player)
                );
            }
        }
        out
    }

    pub(super) fn board(&self) -> String {
        draw::build(&self.game.position, self.paint)
    }

    /// Explains the events (R8, R11) that happened since the last call.
    pub(super) fn new_events(&mut self) -> String {
        let mut out = String::new();
        let events = self.game.position.events();
        for (index, event) in events.iter().enumerate().skip(self.events_seen) {
            let colour = match *event {
                Event::Out { colour, ply } if self.game.position.dismantling() => {
                    let name = self.paint.name(colour);
                    let interim_at = events
                        .iter()
                        .position(|e| matches!(e, Event::Interim { .. }))
                        .unwrap_or(events.len());
                    let set_aside = index > 0
                        && matches!(events[index - 1], Event::SetAside { ply: p, .. } if p == ply);
                    let _ = if index < interim_at {
                        writeln!(out, "{name} cannot place inside the red line any more (R8)")
                    } else if set_aside {
                        writeln!(out, "{name} is out (R16)")
                    } else {
                        writeln!(
                            out,
                            "{name} is out: no stone of its own to take off inside the red line (R16)"
                        )
                    };
                    continue;
                }
                Event::Out { colour, .. } => colour,
                Event::Interim { .. } => {
                    let _ = writeln!(out, "{}", self.interim_report());
                    continue;
                }
                Event::SetAside { colour, stone, .. } => {
                    let _ = writeln!(
                        out,
                        "{} cannot place the {stone} it took off: it is set aside (R16)",
                        self.paint.name(colour)
                    );
                    continue;
                }
            };
            let left = self.game.position.supply(colour).len();
            let name = self.paint.name(colour);
            let _ = if self.game.position.owner(colour).is_none() {
                if left == 0 {
                    writeln!(
                        out,
                        "the ruin is built: all eleven {name} stones are in (R11)"
                    )
                } else {
                    writeln!(
                        out,
                        "the ruin is finished: {name} has no legal placement for its {left} \
                         remaining {} (R11)",
                        if left == 1 { "stone" } else { "stones" }
                    )
                }
            } else if left == 0 {
                writeln!(out, "{name} is out: all stones placed")
            } else {
                writeln!(
                    out,
                    "{name} is out: no legal placement (R8); {left} {} unplaced",
                    if left == 1 {
                        "stone stays"
                    } else {
                        "stones stay"
                    }
                )
            };
        }
        self.events_seen = self.game.position.events().len();
        out
    }
}
