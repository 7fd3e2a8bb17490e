//! `rumi play rumis`: a game of Rumis in the terminal, people and bots at one table.
//!
//! ```text
//! rumi play rumis --scenario chullpa --players 4 --seats human,random,greedy,greedy
//! ```
//!
//! The game loop is the terminal table both games share ([`crate::terminal`]); this
//! file draws Rumis and reads a person's commands. People type moves in either
//! form of the notation (`L4 a1 b1 c1 a2`, levels optional, or the drop form
//! `L4/7@c3`) or a command (`help` lists them); bots move by themselves.

use std::fmt::Write as _;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use clap::Args;
use play::bots::Bot;
use play::rumis_bots::{GreedyBot, RumisBot};
use play::rumis_game::{RumisConfig, RumisGame};
use rumis::notation::{format_drop, format_move, format_turn};
use rumis::record::Record;
use rumis::{
    Colour, Event, FirstStones, Move, Position, Provenance, Scenario, Setup, Stone, Variant,
};

use super::draw::{self, Paint};
use crate::terminal::{
    clock_seed, play_session, seat_bots, seats_text, Console, Ending, Flow, Frontend, Seat, Turn,
};

/// Most moves `moves` prints before it asks to be narrowed to one stone.
const MOVES_SHOWN: usize = 100;

#[derive(Args)]
pub struct PlayArgs {
    /// Built-in scenario (chullpa, pirka, tambo, pisac, coricancha, cucho; Rumis+:
    /// colca, puncu, apachita, chaka, huaca, incahuasi) or the path of a scenario file.
    #[arg(long, default_value = "chullpa")]
    scenario: String,
    /// Play on your own scenario file instead of a built-in one.
    #[arg(long, value_name = "PATH")]
    scenario_file: Option<PathBuf>,
    /// Number of players (default: one per seat given, else 2).
    #[arg(long)]
    players: Option<u8>,
    /// Who sits at each seat, in turn order, comma-separated, one per player: human or
    /// a Rumis bot (`greedy`, `mcts:3`; an unknown name lists them all). Default: human,
    /// then greedy.
    #[arg(long, value_delimiter = ',')]
    seats: Vec<String>,
    /// standard, four-colours (R10: 2 players, two colours each), ruinas or
    /// ruinas-random (R11: 2 or 3 players build a neutral ruin first), inverse (R15:
    /// 5 or 6 players, never beside your own colour) or dismantle (R16: 2 players on
    /// colca, puncu or apachita).
    #[arg(long, default_value = "standard")]
    variant: String,
    /// First stones: `edge` (R14, default for 5 and 6 players: first stones touch only
    /// by edges) or `face` (R6, default otherwise).
    #[arg(long, value_name = "RULE")]
    first_stones: Option<String>,
    /// Seed for the bots' choices and the random ruin (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Write the game record to this file when the game ends (or is quit).
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
}

/// The scenario named on the command line: a built-in key, or a user's file.
fn load_scenario(key: &str, file: Option<&Path>) -> anyhow::Result<Scenario> {
    match file {
        Some(path) => super::load_scenario(&path.display().to_string()),
        None => super::load_scenario(key),
    }
}

/// What Rumis shows and reads at the terminal (the game loop is [`play_session`]'s).
struct Terminal {
    game: RumisGame,
    seats: Vec<Seat>,
    paint: Paint,
    /// The user's scenario file, if the game is played on one: records name it by path.
    scenario_file: Option<PathBuf>,
    events_seen: usize,
    /// The build changed since it was last drawn.
    board_stale: bool,
}

/// A game being played at the terminal: the Rumis front end and the seats' bots.
pub struct Session {
    terminal: Terminal,
    bots: Vec<Option<Box<dyn Bot<RumisGame>>>>,
    /// Write each command after its prompt (for piped input, so the log reads well).
    echo: bool,
    save: Option<PathBuf>,
}

impl Session {
    /// A new game; `seats` has one entry per player, the bots' chance comes from the
    /// setup's seed.
    pub fn new(setup: Setup, seats: Vec<Seat>) -> anyhow::Result<Session> {
        if seats.len() != setup.players as usize {
            bail!(
                "{} seats given for {} players: give one per player, e.g. --seats {}",
                seats.len(),
                setup.players,
                std::iter::once("human")
                    .chain(std::iter::repeat("greedy"))
                    .take(setup.players as usize)
                    .collect::<Vec<_>>()
                    .join(",")
            );
        }
        let bots = seat_bots::<RumisGame>(&seats, setup.seed)?;
        let game = RumisGame::from_position(Position::new(setup)?);
        Ok(Session {
            terminal: Terminal {
                game,
                seats,
                paint: Paint::PLAIN,
                scenario_file: None,
                events_seen: 0,
                board_stale: true,
            },
            bots,
            echo: false,
            save: None,
        })
    }

    pub fn with_paint(mut self, paint: Paint) -> Session {
        self.terminal.paint = paint;
        self
    }

    pub fn with_echo(mut self, echo: bool) -> Session {
        self.echo = echo;
        self
    }

    pub fn with_save(mut self, save: Option<PathBuf>) -> Session {
        self.save = save;
        self
    }

    /// The game is played on this scenario file (saved records name it by path, so
    /// that `rumi rumis replay` finds it).
    pub fn with_scenario_file(mut self, path: Option<PathBuf>) -> Session {
        self.terminal.scenario_file = path;
        self
    }

    /// Plays the game to its end or until a person quits; people's commands come from
    /// `input` (its end counts as `quit`), everything shown goes to `out`.
    pub fn run(&mut self, mut input: impl BufRead, out: &mut impl Write) -> anyhow::Result<Ending> {
        let mut console = Console::new(&mut input, out, self.echo);
        let ending = play_session(&mut self.terminal, &mut self.bots, &mut console)?;
        if let Some(path) = &self.save {
            write!(out, "{}", self.terminal.save_to(path))?;
        }
        Ok(ending)
    }

    #[cfg(test)]
    fn position(&self) -> &Position {
        &self.terminal.game.position
    }

    #[cfg(test)]
    fn record(&self) -> String {
        self.terminal.record()
    }
}

impl Terminal {
    /// The game record, naming a user's scenario file by its path.
    fn record(&self) -> String {
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
    fn player_label(&self, player: u8) -> String {
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
    fn move_number(&self) -> usize {
        self.game.position.history().len() - self.game.position.generated_moves() + 1
    }

    fn intro_text(&self) -> String {
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
    fn status(&self) -> String {
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

    fn board(&self) -> String {
        draw::build(&self.game.position, self.paint)
    }

    /// Explains the events (R8, R11) that happened since the last call.
    fn new_events(&mut self) -> String {
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

    fn help() -> &'static str {
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

    fn list_moves(&self, filter: Option<&str>) -> String {
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

    fn stones(&self, filter: Option<&str>) -> String {
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

    fn save_to(&self, path: &Path) -> String {
        match std::fs::write(path, self.record()) {
            Ok(()) => format!(
                "record saved to {} ({} moves)\n",
                path.display(),
                self.game.position.history().len() - self.game.position.generated_moves()
            ),
            Err(e) => format!("cannot save to {}: {e}\n", path.display()),
        }
    }

    /// `red 12, blue 9`.
    fn points_text(&self, score: &rumis::Score) -> String {
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
    fn interim_report(&self) -> String {
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
    fn final_report(&self) -> String {
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

/// Builds the session the command line asks for.
fn session(args: PlayArgs) -> anyhow::Result<Session> {
    // A scenario given by path (either option) is named by that path in records.
    let scenario_file = args.scenario_file.clone().or_else(|| {
        Scenario::builtin(&args.scenario)
            .is_none()
            .then(|| PathBuf::from(&args.scenario))
    });
    let scenario = load_scenario(&args.scenario, scenario_file.as_deref())?;
    let players = args.players.unwrap_or(if args.seats.is_empty() {
        2
    } else {
        args.seats.len() as u8
    });
    let config = RumisConfig::from_words(
        scenario,
        players,
        &args.variant,
        args.first_stones.as_deref(),
    )?;
    let seats = if args.seats.is_empty() {
        (0..players)
            .map(|p| match p {
                0 => Seat::Human,
                _ => Seat::Bot("greedy".into()),
            })
            .collect()
    } else {
        Seat::parse_all::<RumisGame>(&args.seats)?
    };
    let seed = args.seed.unwrap_or_else(clock_seed);
    let setup = config.setup(seed);
    Ok(Session::new(setup, seats)?
        .with_save(args.save)
        .with_scenario_file(scenario_file))
}

pub fn play(args: PlayArgs) -> anyhow::Result<()> {
    let session = session(args)?;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut session = session
        .with_paint(Paint {
            ansi: stdout.is_terminal(),
        })
        .with_echo(!stdin.is_terminal());
    session.run(stdin.lock(), &mut stdout.lock())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_file(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("rumi-play-{}-{name}", std::process::id()))
    }

    fn chullpa(players: u8, variant: Variant, seed: u64) -> Setup {
        Setup::new(Scenario::builtin("chullpa").unwrap(), players)
            .with_variant(variant)
            .with_seed(seed)
    }

    fn run(session: &mut Session, script: &str) -> (Ending, String) {
        let mut out = Vec::new();
        let ending = session.run(script.as_bytes(), &mut out).unwrap();
        (ending, String::from_utf8(out).unwrap())
    }

    #[test]
    fn a_scripted_human_session() {
        let setup = chullpa(2, Variant::Standard, 1);
        let mut session =
            Session::new(setup.clone(), vec![Seat::Human, Seat::Bot("greedy".into())])
                .unwrap()
                .with_echo(true);
        let saved = temp_file("scripted.rumis");
        let script = format!(
            "L4 a1 b1 c1 d1\nX9 a1\nmoves D2\nO4 a1 b1 a2 b2\nsave {}\nquit\n",
            saved.display()
        );
        let (ending, out) = run(&mut session, &script);
        assert_eq!(ending, Ending::Quit);

        // The start: provenance, seats, the empty build and whose turn.
        assert!(out.contains("board: sourced"), "{out}");
        assert!(out.contains("seat 2: player 2 (blue, greedy)"));
        assert!(out.contains("(nothing built yet)"));
        assert!(out.contains("move 1: red to move, player 1 (red, human)"));

        // An illegal move and an unreadable one: the engine's reason, nothing played.
        let fresh = Position::new(setup.clone()).unwrap();
        let illegal = fresh.parse_move("L4 a1 b1 c1 d1").unwrap_err();
        assert!(out.contains(&format!("red > L4 a1 b1 c1 d1\nnot played: {illegal}\n")));
        assert!(illegal.to_string().contains("do not form the L4"));
        assert!(out.contains("not played: unknown stone `X9`"));

        // The domino's legal moves on the empty board: each in cells and drop form.
        assert!(out.contains("legal moves (D2 "));
        assert!(out.contains("  D2 a1:1 b1:1"));

        // The legal move is played, the greedy bot answers, the build is redrawn.
        assert!(out.contains("move 1: red (player 1 (red, human)) plays O4 a1:1 b1:1 a2:1 b2:1"));
        assert!(out.contains("move 2: blue (player 2 (blue, greedy)) plays"));
        assert!(out.contains("move 3: red to move"));
        assert!(out.contains("R1 R1"));

        // The record holds exactly the two moves and replays.
        assert!(out.contains(&format!("record saved to {} (2 moves)", saved.display())));
        let record = Record::parse(&std::fs::read_to_string(&saved).unwrap()).unwrap();
        std::fs::remove_file(&saved).unwrap();
        assert_eq!(record.seats.as_deref(), Some("human,greedy"));
        let replayed = record
            .replay(Scenario::builtin("chullpa").unwrap())
            .unwrap();
        assert_eq!(replayed.history(), session.position().history());
        assert!(out.ends_with("game abandoned after 2 moves\n"));
    }

    #[test]
    fn a_human_can_use_the_drop_form_and_see_the_orientations() {
        let setup = chullpa(2, Variant::Standard, 2);
        let fresh = Position::new(setup.clone()).unwrap();
        // Some flat L4 on the empty board, named in the drop form.
        let mv = fresh
            .legal_moves()
            .into_iter()
            .find(|&mv| {
                let p = fresh.board().placement(mv);
                p.stone == Stone::L4 && p.spans().len() == 4
            })
            .unwrap();
        let drop = format_drop(&fresh, mv);
        let mut session = Session::new(setup, vec![Seat::Human, Seat::Human]).unwrap();
        let (_, out) = run(&mut session, &format!("stones L4\n{drop}\nstones\n"));
        assert!(out.contains("L4 (L tetracube), 24 orientations"));
        assert!(out.contains(&format!("plays {}", format_move(&fresh, mv))));
        assert_eq!(session.position().history(), &[mv]);
        // Blue's turn now: its full supply is listed.
        assert!(out.contains("blue's stones left:\n  D2  domino"));
        assert!(out.ends_with("input ended\ngame abandoned after 1 moves\n"));
    }

    /// R16 at the terminal: two people play the golden Apachita dismantling game,
    /// one turn typed in two parts, with a refused removal and the removal list shown.
    #[test]
    fn people_play_the_dismantling_game() {
        let golden = Record::parse(include_str!(
            "../../../rumis/tests/golden/apachita-2p-dismantle.record"
        ))
        .unwrap();
        let mut script: Vec<String> = golden.moves.iter().map(|(_, m)| m.clone()).collect();
        script.splice(
            16..17,
            ["moves", "x L3", "x D2", "D2 b6 b6"].map(String::from),
        );
        let setup = Setup::new(Scenario::builtin("apachita").unwrap(), 2)
            .with_variant(Variant::Dismantle)
            .with_seed(12);
        let mut session = Session::new(setup, vec![Seat::Human, Seat::Human]).unwrap();
        let (ending, out) = run(&mut session, &(script.join("\n") + "\n"));
        assert_eq!(ending, Ending::Finished, "{out}");
        assert!(out.contains("Dismantling (R16)"));
        assert!(out
            .contains("interim score (R16: visible squares minus unplaced stones): red 8, blue 9"));
        assert!(out.contains("blue placed last and begins taking stones off"));
        assert!(out.contains("to take a stone off inside the red line (R16)"));
        assert!(
            out.contains("  x D2 f3:1 f3:2\n"),
            "the removals are listed"
        );
        assert!(out.contains(
            "not played: taking the L3 off would leave a hole under the cube on cell c5 level 2 (R16)"
        ));
        assert!(out.contains("to place the D2 it took off, outside the red line (R16)"));
        assert!(out.contains("blue cannot place the B4 it took off: it is set aside (R16)"));
        assert!(out.contains("blue is out (R16)"));
        assert!(
            out.contains("red      1               8        1      7       2"),
            "{out}"
        );
        assert!(out.contains("winner: player 2 (blue, human) with 3 points"));
        assert_eq!(session.position().history().len(), 22);
    }

    /// R16 by bots: a whole game whose saved record replays to the same scores.
    #[test]
    fn bots_play_the_dismantling_game_and_the_record_replays() {
        let saved = temp_file("dismantle.rumis");
        let setup = Setup::new(Scenario::builtin("puncu").unwrap(), 2)
            .with_variant(Variant::Dismantle)
            .with_seed(4);
        let mut session = Session::new(
            setup,
            vec![Seat::Bot("greedy".into()), Seat::Bot("random".into())],
        )
        .unwrap()
        .with_save(Some(saved.clone()));
        let (ending, out) = run(&mut session, "");
        assert_eq!(ending, Ending::Finished);
        assert!(out.contains("interim score (R16"));
        let text = std::fs::read_to_string(&saved).unwrap();
        std::fs::remove_file(&saved).unwrap();
        assert!(text.contains("\nx "), "dismantling turns are recorded");
        let replayed = Record::parse(&text)
            .unwrap()
            .replay(Scenario::builtin("puncu").unwrap())
            .unwrap();
        assert_eq!(replayed.score(), session.position().score());
        assert_eq!(replayed.interim(), session.position().interim());
    }

    #[test]
    fn an_all_bot_game_ends_with_scores_and_a_record_that_replays() {
        let saved = temp_file("bots.rumis");
        let mut session = Session::new(
            chullpa(2, Variant::Standard, 7),
            vec![Seat::Bot("greedy".into()), Seat::Bot("random".into())],
        )
        .unwrap()
        .with_save(Some(saved.clone()));
        let (ending, out) = run(&mut session, "");
        assert_eq!(ending, Ending::Finished);
        let score = session.position().score();

        assert!(out.contains("red is out"));
        assert!(out.contains("blue is out"));
        assert!(out.contains("game over\ntop view"));
        let red_row = format!(
            "red      1         {:>7} {:>9} {:>7}",
            score.visible[0], score.unplaced[0], score.colour_points[0]
        );
        assert!(out.contains(&red_row), "{out}");
        assert!(out.contains(&format!(
            "player 2 (blue, random): {} points",
            score.player_points[1]
        )));
        let w = score.winners[0];
        if score.winners.len() == 1 {
            assert!(out.contains(&format!(
                "winner: {} with {} points",
                session.terminal.player_label(w),
                score.player_points[w as usize]
            )));
        } else {
            assert!(out.contains("shared win (R9: no tie-break)"));
        }

        let text = std::fs::read_to_string(&saved).unwrap();
        std::fs::remove_file(&saved).unwrap();
        let record = Record::parse(&text).unwrap();
        assert_eq!(record.seats.as_deref(), Some("greedy,random"));
        let replayed = record
            .replay(Scenario::builtin("chullpa").unwrap())
            .unwrap();
        assert!(replayed.is_over());
        assert_eq!(replayed.score(), score);
    }

    #[test]
    fn four_colours_name_both_colours_and_the_best_one_wins() {
        let mut session = Session::new(
            chullpa(2, Variant::FourColours, 3),
            vec![Seat::Bot("greedy".into()), Seat::Bot("greedy".into())],
        )
        .unwrap();
        let (ending, out) = run(&mut session, "");
        assert_eq!(ending, Ending::Finished);
        assert!(out.contains("seat 1: player 1 (red+green, greedy)"));
        assert!(out.contains("seat 2: player 2 (blue+yellow, greedy)"));
        // Colours move in turn: red, blue, green, yellow.
        let order: Vec<&str> = out
            .lines()
            .filter(|l| l.starts_with("move "))
            .take(4)
            .map(|l| l.split_whitespace().nth(2).unwrap())
            .collect();
        assert_eq!(order, ["red", "blue", "green", "yellow"]);
        let score = session.position().score();
        let best_of_1 = score.colour_points[0].max(score.colour_points[2]);
        assert!(out.contains(&format!(
            "player 1 (red+green, greedy): {best_of_1} points (best colour, R10)"
        )));
    }

    #[test]
    fn in_ruinas_people_build_the_neutral_ruin_first() {
        let mut session = Session::new(
            chullpa(2, Variant::Ruinas, 0),
            vec![Seat::Human, Seat::Bot("greedy".into())],
        )
        .unwrap()
        .with_echo(true);
        let (_, out) = run(&mut session, "I4 a1 b1 c1 d1\nquit\n");
        assert!(out.contains("first build the ruin together"));
        assert!(
            out.contains("move 1: ruin stone (green, neutral), placed by player 1 (red, human)")
        );
        assert!(out.contains("move 1: green (player 1 (red, human)) plays I4 a1:1 b1:1 c1:1 d1:1"));
        // Then the greedy seat places the second neutral stone.
        assert!(out.contains("move 2: green (player 2 (blue, greedy)) plays"));
        assert!(out.contains("move 3: ruin stone (green, neutral), placed by player 1"));
        // Ruinas for 2 players uses the 3-player board (R11): chullpa 3p is 6 high.
        assert_eq!(session.position().board().height, 6);
    }

    #[test]
    fn a_random_ruin_is_announced_and_not_counted_as_moves() {
        let mut session = Session::new(
            chullpa(3, Variant::RuinasRandom, 5),
            vec![
                Seat::Human,
                Seat::Bot("random".into()),
                Seat::Bot("random".into()),
            ],
        )
        .unwrap();
        let (_, out) = run(&mut session, "quit\n");
        assert!(out.contains("a random ruin of 11 yellow stones was built (seed 5)"));
        assert!(out.contains("move 1: red to move"));
        assert!(out.contains("game abandoned after 0 moves"));
    }

    #[test]
    fn seats_must_match_the_players() {
        let err = Session::new(chullpa(3, Variant::Standard, 0), vec![Seat::Human])
            .err()
            .unwrap();
        assert_eq!(
            err.to_string(),
            "1 seats given for 3 players: give one per player, e.g. --seats human,greedy,greedy"
        );
        let err = Seat::parse::<RumisGame>("planner:5")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("seat `planner:5`: `planner:5` is a Rummikub bot, not a Rumis one; use random, greedy, mcts:1,"),
            "{err}"
        );
        assert!(err.ends_with("; or human"), "{err}");
        let err = Seat::parse::<RumisGame>("chess").unwrap_err().to_string();
        assert!(err.contains("unknown rumis bot `chess`"), "{err}");
        assert_eq!(
            Seat::parse::<RumisGame>("MCTS:3").unwrap(),
            Seat::Bot("mcts:3".into())
        );
    }

    #[test]
    fn a_game_on_a_scenario_file_records_its_path() {
        let path = temp_file("hut.scenario");
        std::fs::write(
            &path,
            "name: Hut\ntheme: hut\nstatus: reconstructed\nboard:\n  ###\n  ##.\nplayers 2: cap 2\n",
        )
        .unwrap();
        let scenario = load_scenario("chullpa", Some(&path)).unwrap();
        let mut session = Session::new(
            Setup::new(scenario, 2).with_seed(1),
            vec![Seat::Bot("greedy".into()), Seat::Bot("random".into())],
        )
        .unwrap()
        .with_scenario_file(Some(path.clone()));
        let (ending, out) = run(&mut session, "");
        assert_eq!(ending, Ending::Finished);
        assert!(out.contains(&format!(
            "Rumis on Hut ({}, hut), 2 players",
            path.display()
        )));
        assert!(out.contains("board: reconstructed"));
        let record = Record::parse(&session.record()).unwrap();
        assert_eq!(record.scenario, path.display().to_string());
        let replayed = record
            .replay(load_scenario("", Some(Path::new(&record.scenario))).unwrap())
            .unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(replayed.score(), session.position().score());
    }

    #[test]
    fn a_bad_scenario_file_is_named_with_its_line() {
        let path = temp_file("broken.scenario");
        std::fs::write(
            &path,
            "name: Broken\nstatus: sourced\nboard:\n  ##\n  #\nplayers 2: cap 4\n",
        )
        .unwrap();
        let err = load_scenario("chullpa", Some(&path))
            .unwrap_err()
            .to_string();
        std::fs::remove_file(&path).unwrap();
        assert!(err.starts_with(&format!("{}:", path.display())), "{err}");
        let line: usize = err[path.display().to_string().len() + 1..]
            .split(':')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!((1..=6).contains(&line), "{err}");

        let err = load_scenario("atlantis", None).unwrap_err().to_string();
        assert!(err.contains("unknown scenario `atlantis`"));
    }
}
