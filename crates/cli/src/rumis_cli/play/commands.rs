//! What a person types at a Rumis table (`help` lists it), and the game loop's
//! front end that reads it.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context;
use play::rumis_bots::{GreedyBot, RumisBot};
use play::rumis_game::RumisGame;
use rumis::notation::{format_drop, format_move, format_turn};
use rumis::{Move, Stone};

use super::{draw, Terminal, MOVES_SHOWN};
use crate::terminal::{Console, Flow, Frontend, Turn};

impl Terminal {
    pub(super) fn help() -> &'static str {
        "commands:\n\
         \x20 L4 a1 b1 c1 a2      place a stone on these cells (levels optional: c3:2)\n\
         \x20 L4/7@c3             drop orientation 7 of L4 with its corner at column c3\n\
         \x20 x L4 > L4 f1 g1 h1 f2  R16: take your L4 off, then place it (or type the two parts)\n\
         \x20 moves [STONE]       list the legal moves (also `legal`), e.g. `moves L4`\n\
         \x20 stones [STONE]      your stones left; with a stone, its numbered orientations\n\
         \x20 hint                the greedy bot's choice\n\
         \x20 board               draw the build again, with the score so far\n\
         \x20 save FILE           write the game record\n\
         \x20 quit                end the game here\n\
         stones: D2 I3 L3 I4 O4 T4 L4 S4 Y4 (tripod) A4 B4 (screws)\n"
    }

    pub(super) fn list_moves(&self, filter: Option<&str>) -> String {
        let only = match filter {
            Some(code) => match Stone::from_code(code) {
                Some(stone) => Some(stone),
                None => {
                    return format!(
                        "unknown stone `{code}` (stones: D2 I3 L3 I4 O4 T4 L4 S4 Y4 A4 B4)\n"
                    )
                }
            },
            None => None,
        };
        let position = &self.game.position;
        let moves: Vec<_> = position
            .legal_moves()
            .into_iter()
            .filter(|&mv| only.is_none_or(|s| position.board().placement(mv).stone == s))
            .collect();
        let mut out = String::new();
        if moves.is_empty() {
            return match only {
                Some(stone) => format!("no legal move with {stone}\n"),
                None => "no legal move\n".to_string(),
            };
        }
        let mut counts: Vec<String> = Vec::new();
        for stone in Stone::ALL {
            let n = moves
                .iter()
                .filter(|&&mv| position.board().placement(mv).stone == stone)
                .count();
            if n > 0 {
                counts.push(format!("{stone} {n}"));
            }
        }
        let _ = writeln!(out, "{} legal moves ({})", moves.len(), counts.join(", "));
        for &mv in moves.iter().take(MOVES_SHOWN) {
            let cells = format_move(position, mv);
            if position.removing() {
                let _ = writeln!(out, "  {cells}");
                continue;
            }
            // The drop form names this move only if lowering the stone lands it here.
            let drop = format_drop(position, mv);
            if position.parse_move(&drop) == Ok(mv) {
                let _ = writeln!(out, "  {cells:<32} {drop}");
            } else {
                let _ = writeln!(out, "  {cells}");
            }
        }
        if moves.len() > MOVES_SHOWN {
            let _ = writeln!(
                out,
                "  … and {} more; narrow the list to one stone, e.g. `moves {}`",
                moves.len() - MOVES_SHOWN,
                position.board().placement(moves[MOVES_SHOWN]).stone
            );
        }
        out
    }

    pub(super) fn stones(&self, filter: Option<&str>) -> String {
        if let Some(code) = filter {
            return match Stone::from_code(code) {
                Some(stone) => draw::orientations(stone),
                None => {
                    format!("unknown stone `{code}` (stones: D2 I3 L3 I4 O4 T4 L4 S4 Y4 A4 B4)\n")
                }
            };
        }
        let Some(colour) = self.game.position.to_move() else {
            return "the game is over\n".to_string();
        };
        let mut out = format!("{}'s stones left:\n", self.paint.name(colour));
        for stone in self.game.position.supply(colour) {
            let _ = writeln!(
                out,
                "  {:<3} {:<20} {} cubes, {} orientations",
                stone.code(),
                stone.name(),
                stone.size(),
                stone.orientations().len()
            );
        }
        out.push_str("`stones L4` draws a stone's orientations with their numbers.\n");
        out
    }

    pub(super) fn save_to(&self, path: &Path) -> String {
        match std::fs::write(path, self.record()) {
            Ok(()) => format!(
                "record saved to {} ({} moves)\n",
                path.display(),
                self.game.position.history().len() - self.game.position.generated_moves()
            ),
            Err(e) => format!("cannot save to {}: {e}\n", path.display()),
        }
    }
}

impl Frontend<RumisGame> for Terminal {
    fn game(&self) -> &RumisGame {
        &self.game
    }

    fn game_mut(&mut self) -> &mut RumisGame {
        &mut self.game
    }

    fn intro(&self) -> String {
        self.intro_text()
    }

    fn between_turns(&mut self, console: &mut Console) -> anyhow::Result<Flow> {
        let events = self.new_events();
        console.say(&events)?;
        Ok(Flow::Continue)
    }

    fn human_turn(&mut self, _seat: usize, console: &mut Console) -> anyhow::Result<Turn<Move>> {
        loop {
            let colour = self
                .game
                .position
                .to_move()
                .context("a person's turn needs a colour to move")?;
            if self.board_stale {
                console.say(&format!("{}{}", self.board(), self.status()))?;
                self.board_stale = false;
            }
            let Some(line) = console.ask(&format!("{} > ", self.paint.name(colour)))? else {
                console.say("\ninput ended\n")?;
                return Ok(Turn::Quit);
            };
            let mut words = line.split_whitespace();
            let command = words.next().unwrap_or("").to_ascii_lowercase();
            let argument = words.next();
            let reply = match command.as_str() {
                "" => String::new(),
                "help" | "?" => Self::help().to_string(),
                "board" => format!("{}{}", self.board(), self.status()),
                "moves" | "legal" => self.list_moves(argument),
                "stones" => self.stones(argument),
                "hint" => {
                    let position = &self.game.position;
                    let mut greedy = GreedyBot::new(position.history().len() as u64);
                    match greedy.choose(position) {
                        Some(mv) => format!("greedy would play {}\n", format_move(position, mv)),
                        None => "no move\n".to_string(),
                    }
                }
                "save" => match argument {
                    Some(file) => self.save_to(Path::new(file)),
                    None => "save needs a file name: save FILE\n".to_string(),
                },
                "quit" | "exit" => return Ok(Turn::Quit),
                // The whole turn is checked here (R16: both parts), then played.
                _ => match self.game.position.clone().play_text(&line) {
                    Ok(moves) => return Ok(Turn::Play(moves)),
                    Err(e) => format!("not played: {e}\n"),
                },
            };
            console.say(&reply)?;
        }
    }

    fn played(&mut self, before: &RumisGame, _seat: usize, moves: &[Move], _: &[()]) -> String {
        self.board_stale = true;
        let (Some(colour), Some(player)) = (before.position.to_move(), before.position.actor())
        else {
            return String::new();
        };
        let (text, _) = format_turn(&before.position, moves);
        format!(
            "move {}: {} ({}) plays {text}\n",
            self.move_number() - 1,
            self.paint.name(colour),
            self.player_label(player)
        )
    }

    fn finished(&mut self) -> String {
        self.final_report()
    }

    fn abandoned(&mut self) -> String {
        format!("game abandoned after {} moves\n", self.move_number() - 1)
    }
}
