//! `rumi`: the web app, terminal play and scripting commands for Rumis and Rummikub.
//! The benchmarks are `rumi-bench` (crates/bench).
//!
//! Each game has its own module; this file only wires the command line together.

mod cluster_cli;
mod match_cli;
mod rumis_cli;
mod rummikub_cli;
mod serve;
mod solo_cli;
mod solve_cli;
mod terminal;
mod verify;

use clap::{Parser, Subcommand};

/// The server builds many small JSON values per action; mimalloc serves those
/// allocations from many threads much faster than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "rumi",
    version,
    about = "Rumis and Rummikub: play, solve, analyse"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Start the web app: lobby, tables, bots, browser client (default SQLite database).
    Serve(Box<serve::ServeArgs>),
    /// A local cluster: several `rumi serve` nodes on one PostgreSQL database and NATS,
    /// behind HAProxy; dead nodes are restarted.
    Cluster(cluster_cli::ClusterArgs),
    /// Play a game in the terminal against bots or at one keyboard.
    Play {
        #[command(subcommand)]
        game: PlayGame,
    },
    /// Scripting commands for Rumis (legal moves, perft, stones, records).
    Rumis {
        #[command(subcommand)]
        command: rumis_cli::RumisCommand,
    },
    /// Scripting commands for Rummikub (records, deals).
    Rummikub {
        #[command(subcommand)]
        command: rummikub_cli::RummikubCommand,
    },
    /// The solo cube: build a full cube from Rumis stones, or let the solver do it.
    Solo {
        #[command(subcommand)]
        kind: solo_cli::SoloCommand,
    },
    /// The old name of `solo`, kept so that scripts keep working.
    #[command(hide = true)]
    Puzzle {
        #[command(subcommand)]
        kind: solo_cli::SoloCommand,
    },
    /// Best play for a position: `rumi solve rummikub --table ... --rack ...`.
    Solve {
        #[command(subcommand)]
        game: solve_cli::SolveGame,
    },
    /// Play seeded games between bots: win shares with 95% CIs, mean scores, Elo.
    Match {
        #[command(subcommand)]
        game: match_cli::MatchGame,
    },
    /// Speak the engine text protocol on stdin/stdout (docs/engine-protocol.md).
    Engine(match_cli::EngineArgs),
    /// The strongest bot's best few moves for a position, with win chances.
    Analyse {
        #[command(subcommand)]
        game: AnalyseGame,
    },
    /// Check a finished game's replay from the server against the commitment to its
    /// deal that was published when the table was created.
    Verify(verify::VerifyArgs),
}

#[derive(Subcommand)]
enum PlayGame {
    /// Rumis, the 3D building game.
    Rumis(rumis_cli::PlayArgs),
    /// Rummikub, the tile game.
    Rummikub(rummikub_cli::PlayArgs),
}

#[derive(Subcommand)]
enum AnalyseGame {
    /// A Rumis position: a new game's options or `--record FILE`.
    Rumis(match_cli::AnalyseArgs),
    /// A Rummikub turn: the last position of `--record FILE`, from the acting seat's view.
    Rummikub(match_cli::RummikubAnalyseArgs),
}

/// Errors are printed as one line of causes (`error: file:3: problem`), without a
/// backtrace, and exit with status 1.
fn main() {
    if let Err(error) = run(Cli::parse()) {
        // A reader that stopped early (`rumi rumis legal | head`) is not an error.
        let broken_pipe = error.chain().any(|cause| {
            cause
                .downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
        });
        if !broken_pipe {
            eprintln!("error: {error:#}");
            // Malformed input to `rumi solve` is a usage error.
            let usage = error.downcast_ref::<solve_cli::UsageError>().is_some();
            std::process::exit(if usage { 2 } else { 1 });
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Serve(args) => serve::serve(*args),
        Command::Cluster(args) => cluster_cli::cluster(args),
        Command::Play { game } => match game {
            PlayGame::Rumis(args) => rumis_cli::play(args),
            PlayGame::Rummikub(args) => rummikub_cli::play(args),
        },
        Command::Rumis { command } => rumis_cli::run(command),
        Command::Rummikub { command } => rummikub_cli::run(command),
        Command::Solo { kind } => solo_cli::run(kind),
        Command::Puzzle { kind } => {
            eprintln!("note: `rumi puzzle` is now `rumi solo` (the solo cube)");
            solo_cli::run(kind)
        }
        Command::Solve { game } => solve_cli::run(game),
        Command::Match { game } => match_cli::run_match_command(game),
        Command::Engine(args) => match_cli::engine(args),
        Command::Analyse { game } => match game {
            AnalyseGame::Rumis(args) => match_cli::analyse(args),
            AnalyseGame::Rummikub(args) => match_cli::analyse_rummikub(args),
        },
        Command::Verify(args) => verify::verify(args),
    }
}
