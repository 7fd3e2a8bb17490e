//! `rumi match`, `rumi engine` and `rumi analyse`: the match runner, the engine protocol
//! over stdin/stdout, and the strongest bot's best moves for a position.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use anyhow::{bail, Context};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use play::bots::{accepted_specs, Bot, WithBots};
use play::engine::{analyse_lines, Engine};
use play::game::{Game, GameError};
use play::match_runner::{run_match, summarize, GameRecord, Summary};
use play::rumis_game::{RumisConfig, RumisGame};
use play::rummikub_bots::Estimate;
use play::rummikub_game::{RummikubConfig, RummikubGame};
use rumis::Position;

#[derive(Subcommand)]
pub enum MatchGame {
    /// Rumis: `--seats mcts:5,greedy,greedy,greedy`.
    Rumis(RumisMatchArgs),
    /// Rummikub: `--seats planner:5,greedy`.
    Rummikub(RummikubMatchArgs),
}

#[derive(Args)]
pub struct CommonArgs {
    /// One bot per seat, comma-separated: a bot of the game (`mcts:3`, `planner:5`; an
    /// unknown name lists them all), or "engine:COMMAND ARGS" for an external engine
    /// speaking the protocol of docs/engine-protocol.md.
    #[arg(long, value_delimiter = ',', required = true)]
    seats: Vec<String>,
    /// Games to play (a multiple of the seat count rotates seats fairly).
    #[arg(long, default_value_t = 100)]
    games: usize,
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed of the first deal; game g uses seed + g / seats.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Print the summary as JSON.
    #[arg(long)]
    json: bool,
    /// Write every game's record into this directory (game-0001.txt, …).
    #[arg(long, value_name = "DIR")]
    save_records: Option<PathBuf>,
    /// Check the seats and the settings, then stop before the first game.
    #[arg(long)]
    dry_run: bool,
}

#[derive(Args)]
pub struct RumisMatchArgs {
    #[arg(long, default_value = "chullpa")]
    scenario: String,
    /// Players (defaults to the number of seats).
    #[arg(long)]
    players: Option<u8>,
    #[arg(long, default_value = "standard")]
    variant: String,
    #[command(flatten)]
    common: CommonArgs,
}

#[derive(Args)]
pub struct RummikubMatchArgs {
    /// Rule set preset: current or old.
    #[arg(long, default_value = "current")]
    rules: String,
    /// Players (defaults to the number of seats).
    #[arg(long)]
    players: Option<usize>,
    #[command(flatten)]
    common: CommonArgs,
}

pub fn run_match_command(game: MatchGame) -> anyhow::Result<()> {
    match game {
        MatchGame::Rumis(args) => {
            let players = args.players.unwrap_or(args.common.seats.len() as u8);
            let config = RumisConfig::named(&args.scenario, players, &args.variant)?;
            run::<RumisGame>(&config, usize::from(players), &args.common)
        }
        MatchGame::Rummikub(args) => {
            let players = args.players.unwrap_or(args.common.seats.len());
            let config = RummikubConfig::preset(&args.rules, players)?;
            run::<RummikubGame>(&config, players, &args.common)
        }
    }
}

/// An entrant's bot: an external engine (`engine:COMMAND`) or one of the game's bots.
pub fn entrant_bot<G: WithBots>(spec: &str, seed: u64) -> Result<Box<dyn Bot<G>>, GameError>
where
    ExternalEngine: Bot<G>,
{
    match spec.strip_prefix("engine:") {
        Some(command) => Ok(Box::new(ExternalEngine::start(command)?)),
        None => G::bot(spec, seed),
    }
}

fn run<G: WithBots>(config: &G::Config, players: usize, args: &CommonArgs) -> anyhow::Result<()>
where
    ExternalEngine: Bot<G>,
{
    let make_bot = &entrant_bot::<G>;
    if args.seats.len() != players {
        bail!(
            "{} seats given for {players} players: name one bot per seat",
            args.seats.len()
        );
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    // Every spec is checked before the first game.
    for spec in &args.seats {
        if !spec.starts_with("engine:") {
            make_bot(spec, 0)?;
        }
    }
    if args.dry_run {
        println!(
            "{} match: seats {} accepted; no games played (--dry-run)",
            G::NAME,
            args.seats.join(",")
        );
        return Ok(());
    }
    if let Some(dir) = &args.save_records {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let bar = ProgressBar::new(args.games as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games  {elapsed_precise} (eta {eta})  {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let done = |_: &GameRecord| bar.inc(1);
    let started = std::time::Instant::now();
    let results = run_match::<G>(
        config,
        &args.seats,
        args.games,
        args.seed,
        args.threads,
        make_bot,
        &done,
    )?;
    bar.finish_and_clear();
    if let Some(dir) = &args.save_records {
        for r in &results {
            let path = dir.join(format!("game-{:04}.txt", r.index + 1));
            std::fs::write(&path, &r.record)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
    }
    let summary = summarize(&args.seats, &results);
    if args.json {
        println!(
            "{}",
            summary_json::<G>(&summary, args, started.elapsed().as_secs_f64())
        );
    } else {
        print_summary::<G>(&summary, args, started.elapsed().as_secs_f64());
    }
    Ok(())
}

fn print_summary<G: Game>(summary: &Summary, args: &CommonArgs, seconds: f64) {
    println!(
        "{} match: {} games, seats {}, seed {}, {:.1} s",
        G::NAME,
        summary.games,
        args.seats.join(","),
        args.seed,
        seconds
    );
    println!(
        "{:<24} {:>10} {:>20} {:>11}",
        "bot", "seat-games", "win share (95% CI)", "mean score"
    );
    for b in &summary.bots {
        println!(
            "{:<24} {:>10} {:>9.1}% ± {:>5.1}% {:>11.2}",
            b.name,
            b.seat_games,
            b.win_share * 100.0,
            b.ci95 * 100.0,
            b.mean_score
        );
    }
    for e in &summary.elo {
        println!(
            "Elo {} − {}: {:+.0} ± {:.0} (score {:.1}% over {} head-to-head comparisons)",
            e.a,
            e.b,
            e.elo,
            e.elo_ci95,
            e.score * 100.0,
            e.comparisons
        );
    }
}

fn summary_json<G: Game>(summary: &Summary, args: &CommonArgs, seconds: f64) -> serde_json::Value {
    serde_json::json!({
        "game": G::NAME,
        "games": summary.games,
        "seats": args.seats,
        "seed": args.seed,
        "seconds": seconds,
        "bots": summary.bots.iter().map(|b| serde_json::json!({
            "name": b.name,
            "seat_games": b.seat_games,
            "win_share": b.win_share,
            "ci95": b.ci95,
            "mean_score": b.mean_score,
        })).collect::<Vec<_>>(),
        "elo": summary.elo.iter().map(|e| serde_json::json!({
            "a": e.a, "b": e.b, "comparisons": e.comparisons, "score": e.score,
            "elo": e.elo, "elo_ci95": e.elo_ci95,
        })).collect::<Vec<_>>(),
    })
}

/// An external engine seated in a match: a child process speaking the engine protocol.
/// Rumis: before each move it is brought up to the position (a new game when the
/// position does not follow from what it was sent, then the moves it has not seen).
/// Rummikub: before each move it gets the seat's view (`setview`), never more.
pub struct ExternalEngine {
    command: String,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// The moves sent for the current game, and the game's setup key.
    sent: Vec<rumis::Move>,
    game_key: Option<String>,
}

impl ExternalEngine {
    pub fn start(command: &str) -> Result<ExternalEngine, GameError> {
        let words: Vec<&str> = command.split_whitespace().collect();
        let Some((program, args)) = words.split_first() else {
            return Err(GameError::Engine(
                "engine: needs a command, e.g. \"engine:rumi engine\"".into(),
            ));
        };
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| GameError::Engine(format!("cannot start engine `{command}`: {e}")))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| GameError::Engine("engine has no stdin".into()))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| GameError::Engine("engine has no stdout".into()))?;
        let mut engine = ExternalEngine {
            command: command.to_string(),
            child,
            stdin,
            stdout: BufReader::new(stdout),
            sent: Vec::new(),
            game_key: None,
        };
        let answer = engine.ask("protocol")?;
        if !answer[0].starts_with("rumi-engine") {
            return Err(GameError::Engine(format!(
                "`{command}` does not speak the rumi engine protocol: `{}`",
                answer[0]
            )));
        }
        Ok(engine)
    }

    /// Sends one command; returns the response's lines (the first without `= `).
    fn ask(&mut self, line: &str) -> Result<Vec<String>, GameError> {
        let fail = |e: std::io::Error| GameError::Engine(format!("engine `{}`: {e}", self.command));
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(fail)?;
        let mut lines = Vec::new();
        loop {
            let mut buf = String::new();
            let n = self
                .stdout
                .read_line(&mut buf)
                .map_err(|e| GameError::Engine(format!("engine `{}`: {e}", self.command)))?;
            if n == 0 {
                return Err(GameError::Engine(format!(
                    "engine `{}` closed its output after `{line}`",
                    self.command
                )));
            }
            let text = buf.trim_end_matches(['\n', '\r']).to_string();
            if text.is_empty() {
                if lines.is_empty() {
                    continue;
                }
                break;
            }
            lines.push(text);
        }
        let first = &lines[0];
        if let Some(rest) = first.strip_prefix('?') {
            return Err(GameError::Engine(format!(
                "engine `{}` refused `{line}`:{rest}",
                self.command
            )));
        }
        let Some(rest) = first.strip_prefix('=') else {
            return Err(GameError::Engine(format!(
                "engine `{}` answered `{first}` to `{line}`",
                self.command
            )));
        };
        lines[0] = rest.trim().to_string();
        Ok(lines)
    }
}

impl Drop for ExternalEngine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

impl Bot<RumisGame> for ExternalEngine {
    fn name(&self) -> String {
        format!("engine:{}", self.command)
    }

    fn choose(&mut self, position: &Position, _seat: usize) -> Result<rumis::Move, GameError> {
        let setup = position.setup();
        let key = format!(
            "newgame rumis scenario={} players={} variant={} seed={}",
            setup.scenario.key, setup.players, setup.variant, setup.seed
        );
        let moves = &position.history()[position.generated_moves()..];
        let follows = self.game_key.as_deref() == Some(key.as_str())
            && moves.len() >= self.sent.len()
            && moves[..self.sent.len()] == self.sent[..];
        if !follows {
            self.ask(&key)?;
            self.game_key = Some(key);
            self.sent.clear();
        }
        let mut replay = Position::new(setup.clone()).map_err(GameError::of)?;
        for (i, &mv) in moves.iter().enumerate() {
            if i >= self.sent.len() {
                let text = rumis::notation::format_move(&replay, mv);
                self.ask(&format!("play {text}"))?;
                self.sent.push(mv);
            }
            replay.play_unchecked(mv);
        }
        let answer = self.ask("genmove")?;
        let mv = position.parse_move(&answer[0]).map_err(|e| {
            GameError::Engine(format!(
                "engine `{}` chose `{}`: {e}",
                self.command, answer[0]
            ))
        })?;
        self.sent.push(mv);
        Ok(mv)
    }
}

impl Bot<RummikubGame> for ExternalEngine {
    fn name(&self) -> String {
        format!("engine:{}", self.command)
    }

    fn choose(
        &mut self,
        view: &rummikub::PlayerView,
        _seat: usize,
    ) -> Result<rummikub::Action, GameError> {
        let lines = rummikub::view::write_view(view).map_err(GameError::Game)?;
        self.ask(&format!("setview\n{}\nend", lines.join("\n")))?;
        let answer = self.ask("genmove")?;
        rummikub::record::parse_action(&answer[0]).map_err(|e| {
            GameError::Engine(format!(
                "engine `{}` chose `{}`: {e}",
                self.command, answer[0]
            ))
        })
    }
}

#[derive(Args)]
pub struct EngineArgs {
    /// The bot that answers `genmove` in new games (default: mcts:5, planner:5).
    #[arg(long)]
    bot: Option<String>,
}

/// `rumi engine`: the protocol over stdin/stdout.
pub fn engine(args: EngineArgs) -> anyhow::Result<()> {
    let mut engine = match &args.bot {
        Some(spec) => {
            if RumisGame::bot(spec, 0).is_err() && RummikubGame::bot(spec, 0).is_err() {
                bail!(
                    "unknown bot `{spec}`; Rumis: {}; Rummikub: {}",
                    accepted_specs::<RumisGame>(),
                    accepted_specs::<RummikubGame>()
                );
            }
            Engine::with_bot(spec)
        }
        None => Engine::new(),
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line?;
        let response = engine.handle(&line);
        out.write_all(response.as_bytes())?;
        out.flush()?;
        if engine.quit {
            break;
        }
    }
    Ok(())
}

#[derive(Args)]
pub struct AnalyseArgs {
    #[command(flatten)]
    game: crate::rumis_cli::GameArgs,
    /// How many moves to show.
    #[arg(long, default_value_t = 3)]
    count: usize,
    /// The search: mcts:1…5, mcts:p=N or mcts:ms=N.
    #[arg(long, default_value = "mcts:5")]
    bot: String,
}

/// `rumi analyse rumis`: the best few moves with estimated win chances.
pub fn analyse(args: AnalyseArgs) -> anyhow::Result<()> {
    let position = args.game.position(false)?;
    if position.is_over() {
        bail!("the game is over: nothing to analyse");
    }
    let config = args
        .bot
        .strip_prefix("mcts:")
        .and_then(play::bots::mcts_config)
        .with_context(|| {
            format!(
                "--bot takes mcts:1…5, mcts:p=N or mcts:ms=N, not `{}`",
                args.bot
            )
        })?;
    let spinner = ProgressBar::new_spinner();
    spinner.set_message("searching…");
    spinner.enable_steady_tick(std::time::Duration::from_millis(100));
    let lines = analyse_lines(&position, config, 0, args.count);
    spinner.finish_and_clear();
    for line in lines {
        println!("{line}");
    }
    Ok(())
}

#[derive(Args)]
pub struct RummikubAnalyseArgs {
    /// A round record (as `rumi match --save-records` or `rumi play rummikub --record`
    /// write); the turn after its last line is analysed, from the acting seat's view.
    #[arg(long)]
    record: std::path::PathBuf,
    /// Deals of the unseen tiles per candidate turn.
    #[arg(long, default_value_t = 64)]
    samples: u32,
    /// Turns played on after the candidate at most.
    #[arg(long, default_value_t = 80)]
    horizon: u32,
    /// Seed of the deals.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// `rumi analyse rummikub`: the candidate turns with estimated win chances.
pub fn analyse_rummikub(args: RummikubAnalyseArgs) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&args.record)
        .with_context(|| format!("reading {}", args.record.display()))?;
    let round = rummikub::record::replay(&text)?;
    if round.is_over() {
        bail!("the round is over: nothing to analyse");
    }
    let view = round.view(round.current_player());
    let spinner = ProgressBar::new_spinner();
    spinner.set_message(format!("{} deals per candidate…", args.samples));
    spinner.enable_steady_tick(std::time::Duration::from_millis(100));
    let estimates = play::rummikub_bots::analyse(&view, args.samples, args.horizon, args.seed);
    spinner.finish_and_clear();
    println!(
        "seat {} to act, rack {}",
        view.player + 1,
        rummikub::notation::format_tiles(&view.rack)
    );
    if let [Estimate {
        action: rummikub::Action::Draw,
        ..
    }] = estimates.as_slice()
    {
        println!("nothing can be laid: draw");
        return Ok(());
    }
    for e in estimates {
        let bar = "#".repeat((e.win_chance.max(0.0) * 20.0).round() as usize);
        println!(
            "{:>5.1}%  {bar:<20}  {}",
            e.win_chance * 100.0,
            rummikub::record::format_action(&e.action)
        );
    }
    Ok(())
}
