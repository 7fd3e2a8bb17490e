//! Rummikub at the terminal: what is Rummikub's own of a terminal game (drawing the
//! table and racks, reading a person's commands, K2 redeal offers, the K7 clock); the
//! game loop is the table both games share ([`crate::terminal`]). Humans build their
//! new table with commands; the engine validates it when they end the turn. Bots see
//! only their own view.

use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use anyhow::Result;
use play::game::Game;
use play::rummikub_game::{RummikubConfig, RummikubGame};
use rummikub::round::EndReason;
use rummikub::tile::TileCounts;
use rummikub::{Action, Event, RuleSet, Set, Tile};
use rummikub_solver::{solve, Objective, TableAndRack};

use super::render::{sort_rack, RackOrder, Style};
use crate::terminal::{play_session, seat_bots, Console, Ending, Flow, Frontend, Seat, Turn};

/// Everything a session needs.
#[derive(Clone, Debug)]
pub struct SessionConfig {
    pub rules: RuleSet,
    pub seats: Vec<Seat>,
    pub seed: u64,
    /// Enforce the rules' turn time for humans (K7). Off in tests.
    pub timer: bool,
    pub style: Style,
}

/// The end of a session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionEnd {
    /// Totals per seat; a quit game has no winner.
    pub totals: Vec<i32>,
    pub winners: Vec<usize>,
    pub quit: bool,
    /// Record of every round played (finished or not).
    pub records: Vec<String>,
}

const HELP: &str = "\
Commands (tiles like r1 b13 k7 o5 J; sets are numbered as shown):
  lay TILES          lay a new set from your rack        lay r1 r2 r3
  add N TILES        add rack tiles to set N             add 2 k5
  move N TILE M      move a tile from set N to set M     move 1 k13 4
  move N TILE new    move a tile from set N to a new set
  split N K          split set N after its K-th tile     split 3 2
  back N TILE        take a tile you laid this turn back to your rack
  sort colour|number order your rack
  show               show the table and your rack again
  reset              undo everything this turn
  end                end the turn (the engine checks your table)
  hint [value]       the best play from your rack (most tiles, or most value)
  draw               draw a tile instead of playing
  quit               leave the game";

/// A human's turn in progress: the table being built and what is left on the rack.
struct Workspace {
    sets: Vec<Vec<Tile>>,
    rack: TileCounts,
    start_table: Vec<Set>,
    start_rack: Vec<Tile>,
}

impl Workspace {
    fn new(table: &[Set], rack: &[Tile]) -> Workspace {
        Workspace {
            sets: table.iter().map(|s| s.tiles().to_vec()).collect(),
            rack: TileCounts::from_tiles(rack),
            start_table: table.to_vec(),
            start_rack: rack.to_vec(),
        }
    }

    fn reset(&mut self) {
        *self = Workspace::new(&self.start_table.clone(), &self.start_rack.clone());
    }

    fn table(&self) -> Vec<Set> {
        self.sets
            .iter()
            .filter(|s| !s.is_empty())
            .map(|s| Set::new(s.clone()))
            .collect()
    }

    fn set_index(&self, text: &str) -> Result<usize, String> {
        text.parse::<usize>()
            .ok()
            .filter(|&n| n >= 1 && n <= self.sets.len())
            .map(|n| n - 1)
            .ok_or_else(|| format!("there is no set {text}"))
    }

    fn take_from_rack(&mut self, tiles: &[Tile]) -> Result<(), String> {
        let needed = TileCounts::from_tiles(tiles);
        for (tile, count) in needed.iter() {
            if self.rack.count(tile) < count {
                return Err(format!("you have no {tile} on your rack"));
            }
        }
        for &tile in tiles {
            self.rack.remove(tile);
        }
        Ok(())
    }

    /// Tidies sets after a change: valid sets shown in reading order, empty ones gone.
    fn tidy(&mut self, rules: &RuleSet) {
        self.sets.retain(|s| !s.is_empty());
        for set in &mut self.sets {
            *set = Set::new(set.clone()).arranged(rules).tiles().to_vec();
        }
    }

    /// Runs one editing command; `Ok(false)` if it is not an editing command.
    fn edit(&mut self, words: &[&str], rules: &RuleSet) -> Result<bool, String> {
        match words {
            ["lay", tiles @ ..] if !tiles.is_empty() => {
                let tiles = parse_tiles(tiles)?;
                self.take_from_rack(&tiles)?;
                self.sets.push(tiles);
            }
            ["add", set, tiles @ ..] if !tiles.is_empty() => {
                let index = self.set_index(set)?;
                let tiles = parse_tiles(tiles)?;
                self.take_from_rack(&tiles)?;
                self.sets[index].extend(tiles);
            }
            ["move", from, tile, to] => {
                let from = self.set_index(from)?;
                let tile = parse_tile(tile)?;
                let to = match *to {
                    "new" => None,
                    to => Some(self.set_index(to)?),
                };
                let at = self.sets[from]
                    .iter()
                    .position(|&t| t == tile)
                    .ok_or_else(|| format!("set {} has no {tile}", from + 1))?;
                self.sets[from].remove(at);
                match to {
                    Some(to) => self.sets[to].push(tile),
                    None => self.sets.push(vec![tile]),
                }
            }
            ["split", set, after] => {
                let index = self.set_index(set)?;
                let len = self.sets[index].len();
                let after: usize = after
                    .parse()
                    .ok()
                    .filter(|&k| k >= 1 && k < len)
                    .ok_or_else(|| {
                        format!(
                            "set {} can be split after tile 1 to {}",
                            index + 1,
                            len.saturating_sub(1)
                        )
                    })?;
                let tail = self.sets[index].split_off(after);
                self.sets.insert(index + 1, tail);
                // Keep the halves in the order laid; tidy would re-sort a valid half only.
            }
            ["back", set, tile] => {
                let index = self.set_index(set)?;
                let tile = parse_tile(tile)?;
                let on_table_now = self.sets.iter().flatten().filter(|&&t| t == tile).count();
                let at_start = self
                    .start_table
                    .iter()
                    .flat_map(|s| s.tiles())
                    .filter(|&&t| t == tile)
                    .count();
                if on_table_now <= at_start {
                    return Err(format!(
                        "{tile} was on the table before your turn; it must stay there"
                    ));
                }
                let at = self.sets[index]
                    .iter()
                    .position(|&t| t == tile)
                    .ok_or_else(|| format!("set {} has no {tile}", index + 1))?;
                self.sets[index].remove(at);
                self.rack.add(tile);
            }
            _ => return Ok(false),
        }
        self.tidy(rules);
        Ok(true)
    }
}

fn parse_tile(word: &str) -> Result<Tile, String> {
    word.parse::<Tile>().map_err(|e| e.to_string())
}

fn parse_tiles(words: &[&str]) -> Result<Vec<Tile>, String> {
    words.iter().map(|w| parse_tile(w)).collect()
}

/// What Rummikub shows and reads at the terminal.
struct Terminal {
    game: RummikubGame,
    seats: Vec<Seat>,
    /// Enforce the rules' turn time for humans (K7).
    timer: bool,
    style: Style,
    order: RackOrder,
    /// Rounds announced and rounds whose end was shown so far.
    announced: usize,
    ended: usize,
}

/// Plays a whole game, reading human commands from `input` and writing to `output`.
pub fn run_session<R: BufRead, W: Write>(
    mut input: R,
    mut output: W,
    config: SessionConfig,
) -> Result<SessionEnd> {
    // A finished round waits here, so that its end is shown before the next deal.
    let game_config =
        RummikubConfig::new(config.rules.clone(), config.seats.len()).pausing_between_rounds();
    let game = RummikubGame::start(&game_config, config.seed)?;
    let mut bots = seat_bots::<RummikubGame>(&config.seats, config.seed)?;
    let mut terminal = Terminal {
        game,
        seats: config.seats,
        timer: config.timer,
        style: config.style,
        order: RackOrder::Colour,
        announced: 0,
        ended: 0,
    };
    let mut console = Console::new(&mut input, &mut output, false);
    let ending = play_session(&mut terminal, &mut bots, &mut console)?;
    let quit = ending == Ending::Quit;
    let series = &terminal.game.series;
    Ok(SessionEnd {
        totals: series.totals().to_vec(),
        winners: if quit { Vec::new() } else { series.winners() },
        quit,
        records: terminal.game.round_records(),
    })
}

impl Frontend<RummikubGame> for Terminal {
    fn game(&self) -> &RummikubGame {
        &self.game
    }

    fn game_mut(&mut self) -> &mut RummikubGame {
        &mut self.game
    }

    fn intro(&self) -> String {
        String::new()
    }

    /// A round's end once it is over; a new round's deal and the K2 offers before its
    /// first turn.
    fn between_turns(&mut self, console: &mut Console) -> Result<Flow> {
        let series = &self.game.series;
        if series.round().is_over() {
            let finished = series.finished_rounds().len();
            if self.ended < finished {
                self.ended = finished;
                console.say(&self.round_end())?;
            }
            return Ok(Flow::Continue);
        }
        if self.announced < series.round_number() {
            self.announced = series.round_number();
            console.say(&self.round_start())?;
            if !self.offer_redeals(console)? {
                return Ok(Flow::Quit);
            }
        }
        Ok(Flow::Continue)
    }

    fn human_turn(&mut self, player: usize, console: &mut Console) -> Result<Turn<Action>> {
        let round = self.game.series.round();
        let mut work = Workspace::new(round.table(), &round.rack(player));
        let limit = round
            .rules()
            .turn_time_seconds
            .filter(|_| self.timer)
            .map(|s| Duration::from_secs(u64::from(s)));
        let started = Instant::now();
        console.say(&format!("--- Your turn, player {} ---\n", player + 1))?;
        console.say(&self.workspace(player, &work))?;
        loop {
            let Some(line) = console.ask("> ")? else {
                return Ok(Turn::Quit);
            };
            // K7: the clock is ours; an overdue turn becomes a time-out.
            if limit.is_some_and(|l| started.elapsed() > l) {
                console.say("Time is up.\n")?;
                return Ok(Turn::Play(vec![Action::TimeOut]));
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let reply = match words.as_slice() {
                [] => continue,
                ["help"] | ["?"] => format!("{HELP}\n"),
                ["show"] | ["s"] => self.workspace(player, &work),
                ["sort", how] => match *how {
                    "colour" | "color" | "c" | "number" | "n" => {
                        self.order = if how.starts_with('n') {
                            RackOrder::Number
                        } else {
                            RackOrder::Colour
                        };
                        self.workspace(player, &work)
                    }
                    _ => "sort by colour or number\n".to_string(),
                },
                ["reset"] => {
                    work.reset();
                    self.workspace(player, &work)
                }
                ["hint"] => self.hint(player, Objective::Tiles),
                ["hint", "value"] => self.hint(player, Objective::Value),
                ["draw"] => return Ok(Turn::Play(vec![Action::Draw])),
                ["quit"] => return Ok(Turn::Quit),
                ["end"] | ["done"] => {
                    let table = work.table();
                    match self.game.series.round().check_play(player, &table) {
                        Ok(_) => return Ok(Turn::Play(vec![Action::Play(table)])),
                        Err(error) => format!("Not accepted: {error}\n"),
                    }
                }
                words => match work.edit(words, self.game.series.rules()) {
                    Ok(true) => self.workspace(player, &work),
                    Ok(false) => format!("Unknown command '{line}'; type help\n"),
                    Err(message) => format!("{message}\n"),
                },
            };
            console.say(&reply)?;
        }
    }

    fn played(
        &mut self,
        _: &RummikubGame,
        player: usize,
        _: &[Action],
        events: &[Event],
    ) -> String {
        events.iter().map(|e| self.report(player, e)).collect()
    }

    fn finished(&mut self) -> String {
        let winners = self.game.series.winners();
        let names: Vec<String> = winners.iter().map(|&w| self.seat_name(w)).collect();
        format!("Game over. Winner: {}\n", names.join(" and "))
    }

    fn abandoned(&mut self) -> String {
        "Game abandoned.\n".to_string()
    }
}

impl Terminal {
    fn seat_name(&self, player: usize) -> String {
        match &self.seats[player] {
            Seat::Human => format!("player {} (human)", player + 1),
            Seat::Bot(spec) => format!("player {} ({spec} bot)", player + 1),
        }
    }

    fn round_start(&self) -> String {
        let round = self.game.series.round();
        let mut out = format!(
            "=== Round {} ({} rules) ===\n",
            self.game.series.round_number(),
            round.rules()
        );
        let lines: Vec<String> = round
            .start_draws()
            .iter()
            .map(|draws| {
                let text: Vec<String> = draws
                    .iter()
                    .map(|d| format!("player {} {}", d.player + 1, self.style.tile(d.tile)))
                    .collect();
                text.join(", ")
            })
            .collect();
        let _ = writeln!(out, "Start-player draw: {}", lines.join("; then "));
        let _ = writeln!(out, "{} starts.", self.seat_name(round.start_player()));
        out
    }

    /// K2: before the first turn, each human holding three pairs may demand a new deal.
    /// Returns false if the input ended.
    fn offer_redeals(&mut self, console: &mut Console) -> Result<bool> {
        'again: loop {
            for player in 0..self.seats.len() {
                let round = self.game.series.round();
                if self.seats[player] != Seat::Human || !round.can_claim_redeal(player) {
                    continue;
                }
                console.say(&format!(
                    "Player {}, your rack {} holds three pairs. Demand a new deal? (yes/no)\n",
                    player + 1,
                    self.style.tiles(&round.rack(player))
                ))?;
                let Some(answer) = console.ask("")? else {
                    return Ok(false);
                };
                if answer.starts_with('y') {
                    let event = self.game.apply(player, &Action::ClaimRedeal)?;
                    console.say(&self.report(player, &event))?;
                    console.say(&self.round_start())?;
                    continue 'again;
                }
            }
            return Ok(true);
        }
    }

    fn report(&self, player: usize, event: &Event) -> String {
        let name = self.seat_name(player);
        let human = self.seats[player] == Seat::Human;
        let style = self.style;
        match event {
            Event::Played {
                tiles,
                initial_meld,
            } => match initial_meld {
                Some(value) => format!(
                    "{name} plays {} (initial meld worth {value})\n",
                    style.tiles(tiles)
                ),
                None => format!("{name} plays {}\n", style.tiles(tiles)),
            },
            Event::Drew(Some(tile)) if human => format!("{name} draws {}\n", style.tile(*tile)),
            Event::Drew(Some(_)) => format!("{name} draws a tile\n"),
            Event::Drew(None) => format!("{name} cannot draw: the pool is empty\n"),
            Event::Penalty(tiles) => format!(
                "{name} ran out of time: the table is restored and {name} draws {} penalty tiles\n",
                tiles.len()
            ),
            Event::Redealt => format!("{name} shows three pairs: the tiles are dealt again\n"),
        }
    }

    fn workspace(&self, player: usize, work: &Workspace) -> String {
        let view = self.game.observe(player);
        let style = self.style;
        let mut out = String::new();
        let others: Vec<String> = (0..view.rack_sizes.len())
            .filter(|&p| p != player)
            .map(|p| format!("player {}: {} tiles", p + 1, view.rack_sizes[p]))
            .collect();
        let _ = writeln!(
            out,
            "Pool: {} tiles. Racks: {}",
            view.pool_size,
            others.join(", ")
        );
        if work.sets.is_empty() {
            out.push_str("Table: (empty)\n");
        } else {
            out.push_str("Table:\n");
        }
        for (i, tiles) in work.sets.iter().enumerate() {
            let set = Set::new(tiles.clone());
            let note = match set.check(&view.rules) {
                Ok(_) => String::new(),
                Err(problem) => format!("   <- {problem}"),
            };
            let _ = writeln!(out, "  {:>2}: {}{note}", i + 1, style.set(&set));
        }
        let mut rack = work.rack.tiles();
        sort_rack(&mut rack, self.order);
        let _ = writeln!(out, "Your rack ({}): {}", rack.len(), style.tiles(&rack));
        if !view.melded[player] {
            let _ = writeln!(
                out,
                "You have not melded yet: lay new sets worth {} from your rack.",
                view.rules.initial_meld_minimum
            );
        }
        out
    }

    /// The solver's best play from the position at the start of the turn, respecting the
    /// initial meld (K4) if the player has not made it.
    fn hint(&self, player: usize, objective: Objective) -> String {
        let round = self.game.series.round();
        let position = TableAndRack::with_sets(
            round.table().to_vec(),
            round.rack(player),
            round.has_melded(player),
        );
        match solve(round.rules(), &position, objective) {
            Ok(Some(best)) => {
                let drawn = crate::solve_cli::draw(&best, round.table());
                format!("Best play from the start of your turn:\n{drawn}")
            }
            Ok(None) => "No play lays a tile from your rack: draw.\n".to_string(),
            Err(error) => format!("No hint: {error}\n"),
        }
    }

    fn round_end(&self) -> String {
        let round = self.game.series.round();
        let Some(outcome) = round.outcome() else {
            return String::new();
        };
        let winners: Vec<String> = outcome.winners.iter().map(|&w| self.seat_name(w)).collect();
        let mut out = match outcome.reason {
            EndReason::Rummikub => format!(
                "Rummikub! {} has played every tile.\n",
                winners.join(" and ")
            ),
            EndReason::PoolExhausted => format!(
                "The pool is empty and nobody could play: {} wins with the lowest rack.\n",
                winners.join(" and ")
            ),
        };
        out.push_str("Round scores:\n");
        for player in 0..outcome.scores.len() {
            let rack = round.rack(player);
            let _ = writeln!(
                out,
                "  player {}: {:+} (rack {}: {})",
                player + 1,
                outcome.scores[player],
                outcome.rack_values[player],
                if rack.is_empty() {
                    "empty".to_string()
                } else {
                    self.style.tiles(&rack)
                }
            );
        }
        let totals: Vec<String> = self
            .game
            .series
            .totals()
            .iter()
            .enumerate()
            .map(|(p, t)| format!("player {}: {t}", p + 1))
            .collect();
        let _ = writeln!(out, "Totals: {}", totals.join(", "));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(script: &str, seed: u64, seats: Vec<Seat>) -> (String, SessionEnd) {
        let config = SessionConfig {
            rules: RuleSet::current(),
            seats,
            seed,
            timer: false,
            style: Style { ansi: false },
        };
        let mut output = Vec::new();
        let end = run_session(script.as_bytes(), &mut output, config).unwrap();
        (String::from_utf8(output).unwrap(), end)
    }

    /// Seed 12: player 1 starts with r6 r9 r13 b1 b9 b10 b11 b13 k1 k3 k13 o4 o6 o10.
    const SCRIPT: &str = "\
lay r13 b13
end
add 1 k13
move 1 r13 5
lay k1 k3 o4
back 2 o4
reset
lay b13 k13 r13
lay b9 b10 b11
sort number
end
draw
quit
";

    #[test]
    fn a_scripted_human_lays_sets_sees_errors_draws_and_quits() {
        let (out, end) = session(SCRIPT, 12, vec![Seat::Human, Seat::Bot("random".into())]);
        assert!(out.contains("player 1 (human) starts."), "{out}");
        assert!(out.contains("Your rack (14): r6 r9 r13 b1 b9 b10 b11 b13 k1 k3 k13 o4 o6 o10"));
        assert!(out.contains("You have not melded yet: lay new sets worth 30 from your rack."));
        // The half-built set is marked, and ending the turn with it is refused.
        assert!(out.contains("   1: [r13 b13]   <- has only 2 tiles; a set needs at least 3"));
        assert!(
            out.contains("Not accepted: set 1 [r13 b13] has only 2 tiles; a set needs at least 3")
        );
        assert!(out.contains("   1: [r13 b13 k13]\n"));
        assert!(out.contains("there is no set 5"));
        assert!(out.contains("   2: [k1 k3 o4]   <- is neither a run nor a group"));
        assert!(out.contains("   2: [k1 k3]   <- has only 2 tiles; a set needs at least 3"));
        // Sorted by number, after laying 6 tiles.
        assert!(out.contains("Your rack (8): b1 k1 k3 o4 r6 o6 r9 o10\n"));
        assert!(
            out.contains("player 1 (human) plays r13 b9 b10 b11 b13 k13 (initial meld worth 69)")
        );
        assert!(out.contains("   1: [r13 b13 k13]\n   2: [b9 b10 b11]\n"));
        assert!(out.contains("player 1 (human) draws "));
        assert!(out.contains("Game abandoned."));
        assert!(end.quit);
        assert!(end.records[0]
            .starts_with("rules current\nplayers 2\nseed 12\n1 play [r13 b13 k13] [b9 b10 b11]\n"));
        // The record of the abandoned round replays.
        assert!(rummikub::record::replay(&end.records[0]).is_ok());
        // Plain text: no ANSI colours when not on a terminal.
        assert!(!out.contains('\x1b'));
    }

    #[test]
    fn hint_shows_the_best_initial_meld_from_the_rack() {
        // Seed 12: the 13s and b9 b10 b11 are the most tiles worth 30 from the rack.
        let (out, _) = session(
            "hint\nhint value\nquit\n",
            12,
            vec![Seat::Human, Seat::Bot("random".into())],
        );
        assert!(
            out.contains("Best play from the start of your turn:"),
            "{out}"
        );
        assert!(out.contains("  + [b9* b10* b11*]\n"), "{out}");
        assert!(out.contains("  + [r13* b13* k13*]\n"), "{out}");
        assert!(
            out.contains("placed: r13 b9 b10 b11 b13 k13 (6 tiles, value 69)"),
            "{out}"
        );
    }

    #[test]
    fn a_human_who_only_draws_sees_the_round_scores_and_the_winner() {
        let script = "draw\n".repeat(200);
        let (out, end) = session(&script, 3, vec![Seat::Human, Seat::Bot("random".into())]);
        assert!(out.contains("Round scores:"), "{out}");
        assert!(out.contains("Game over. Winner: "));
        assert!(!end.quit);
        assert_eq!(end.totals.iter().sum::<i32>(), 0);
        assert_eq!(end.winners.len(), 1);
        assert!(out.contains(&format!(
            "Totals: player 1: {}, player 2: {}",
            end.totals[0], end.totals[1]
        )));
    }

    #[test]
    fn a_human_with_three_pairs_is_offered_a_new_deal() {
        // Seed 0: player 1 holds r5 r5, b10 b10, k2 k2.
        let (out, end) = session(
            "yes\nquit\n",
            0,
            vec![Seat::Human, Seat::Bot("random".into())],
        );
        assert!(out.contains("Player 1, your rack r1 r5 r5 r8 r11 r13 b10 b10 b12 k2 k2 k4 o1 o13 holds three pairs. Demand a new deal? (yes/no)"), "{out}");
        assert!(out.contains("player 1 (human) shows three pairs: the tiles are dealt again"));
        assert_eq!(out.matches("=== Round 1").count(), 2);
        assert!(end.records[0].contains("\n1 redeal\n"));
    }

    #[test]
    fn bots_alone_play_a_whole_game_over_several_rounds() {
        let config = SessionConfig {
            rules: "current game=rounds:2".parse().unwrap(),
            seats: vec![Seat::Bot("random".into()); 3],
            seed: 4,
            timer: false,
            style: Style { ansi: false },
        };
        let mut output = Vec::new();
        let end = run_session("".as_bytes(), &mut output, config).unwrap();
        let out = String::from_utf8(output).unwrap();
        assert_eq!(out.matches("Round scores:").count(), 2);
        assert_eq!(end.records.len(), 2);
        for record in &end.records {
            assert!(rummikub::record::replay(record).unwrap().is_over());
        }
    }
}

#[cfg(test)]
mod workspace_tests {
    use super::*;
    use rummikub::notation::{format_table, parse_table, parse_tiles};

    #[test]
    fn the_seed_example_can_be_built_with_split_move_and_add() {
        let rules = RuleSet::current();
        let table = parse_table("[k10 k11 k12 k13]").unwrap();
        let mut work = Workspace::new(&table, &parse_tiles("r13 b13 o2").unwrap());
        assert_eq!(work.edit(&["split", "1", "3"], &rules), Ok(true));
        assert_eq!(format_table(&work.table()), "[k10 k11 k12] [k13]");
        assert_eq!(work.edit(&["add", "2", "r13", "b13"], &rules), Ok(true));
        assert_eq!(format_table(&work.table()), "[k10 k11 k12] [r13 b13 k13]");
        assert_eq!(work.rack.tiles(), parse_tiles("o2").unwrap());
        assert_eq!(work.edit(&["move", "2", "k13", "1"], &rules), Ok(true));
        assert_eq!(format_table(&work.table()), "[k10 k11 k12 k13] [r13 b13]");
        assert_eq!(
            work.edit(&["back", "1", "k13"], &rules),
            Err("k13 was on the table before your turn; it must stay there".to_string())
        );
        assert_eq!(
            work.edit(&["add", "1", "o5"], &rules),
            Err("you have no o5 on your rack".to_string())
        );
        assert_eq!(work.edit(&["back", "2", "r13"], &rules), Ok(true));
        work.reset();
        assert_eq!(format_table(&work.table()), "[k10 k11 k12 k13]");
        assert_eq!(work.edit(&["dance"], &rules), Ok(false));
    }
}
