//! `rumi-bench`: rumi's benchmarks, kept out of the shipped `rumi` binary with what
//! only they need (the integer program, HTTP and WebSocket clients). The server
//! benches start the `rumi` binary beside this one, or `RUMI_BIN`.

mod bench_cluster;
mod bench_puzzles;
mod bench_review;
mod bench_server;
mod bench_sign_ins;
mod bench_sockets;
mod bench_solo;
mod bench_starve;
mod ladder;
mod mcts_reuse_bench;
mod rumis_bench;
mod solver_bench;

use clap::{Parser, Subcommand};

/// The same allocator as `rumi`, so that the engines measure as they run there.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Measure the engines' speed against their reference implementations, and `rumi
/// serve` under load.
#[derive(Parser)]
#[command(name = "rumi-bench", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Move generation and random playouts, fast engine against the reference.
    Rumis(rumis_bench::BenchArgs),
    /// A load run of `rumi serve`: many tables of bots with WebSocket spectators, a
    /// kill -9 and restart halfway; actions per second, latency, lost actions. Or the
    /// resource figures: --memory (RSS per table), --restart (first answers after a
    /// restart with 10,000 tables), --fairness (bot replies while bot tables run).
    Server(bench_server::ServerBenchArgs),
    /// Idle WebSockets against `rumi serve`: RSS per socket, and whether a new client
    /// gets in while 64 addresses hold the server full (`--baseline` another binary).
    Sockets(bench_sockets::SocketsBenchArgs),
    /// The Rummikub solver against the integer program on a seeded suite: p50/p99/max.
    Solver(solver_bench::SolverBenchArgs),
    /// A person's bot replies while one address floods hints or replays (issue 45).
    Starve(bench_starve::StarveBenchArgs),
    /// The server's MCTS bot keeping its tree between moves against the same bot
    /// rebuilt every move, at the same time per move: the kept bot's win share.
    MctsReuse(mcts_reuse_bench::MctsReuseArgs),
    /// The cost of one Argon2 hash, and a person's wait for the bot's reply alone and
    /// during floods of sign-ins, password checks and weak sign-ups (issues 47, 56),
    /// with other people's sign-ins during each.
    SignIns(bench_sign_ins::SignInsArgs),
    /// The bot ladder: the server's bots play each other in each rating pool; their
    /// ratings on the people's scale with 95% intervals (--write: the docs and the
    /// server's embedded table).
    Ladder(ladder::LadderArgs),
    /// The Rummikub puzzle generator: time and dealt rounds per puzzle (p50/p99/max)
    /// over a range of daily dates and a held-out range of seeds.
    Puzzles(bench_puzzles::PuzzlesArgs),
    /// The solo cube's "can this still be finished?" over random partial builds of all
    /// 48 levels, within the server's bound: p50/p99/max per edge, answers unknown.
    Solo(bench_solo::SoloBenchArgs),
    /// Game reviews (issue 48): a 4-player Rummikub review's CPU time, a 2-player
    /// Chullpa review at its budget, a person's wait at another table while reviews run.
    Review(bench_review::ReviewBenchArgs),
}

fn main() {
    let result = match Cli::parse().command {
        Command::Rumis(args) => rumis_bench::bench(args),
        Command::Server(args) => bench_server::bench(args),
        Command::Sockets(args) => bench_sockets::bench(args),
        Command::Solver(args) => solver_bench::bench(args),
        Command::Starve(args) => bench_starve::bench(args),
        Command::MctsReuse(args) => mcts_reuse_bench::bench(args),
        Command::SignIns(args) => bench_sign_ins::bench(args),
        Command::Ladder(args) => ladder::bench(args),
        Command::Puzzles(args) => bench_puzzles::bench(args),
        Command::Solo(args) => bench_solo::bench(args),
        Command::Review(args) => bench_review::bench(args),
    };
    if let Err(error) = result {
        eprintln!("error: {error:#}");
        std::process::exit(1);
    }
}
