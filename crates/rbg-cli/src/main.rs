//! The `rbg` command-line tool.
//!
//! Each subcommand lives in its own module under `cmd/` with an `Args`
//! struct (clap derive) and a `run(&Args) -> i32` returning the exit code.

use clap::{Parser, Subcommand};
use rbg_cli::cmd;

/// Regular Boardgames: check, expand and run game descriptions.
#[derive(Parser, Debug)]
#[command(name = "rbg", version)]
struct Cli {
    /// Engine that plays the games: `native` (machine code generated at
    /// load time; the default on x86-64 and aarch64, for `.rg`/`.hrg` games
    /// of at most 5,000 edges; for `.rg`/`.hrg` it generates the move walks,
    /// and games it does not take stay interpreted, with a note if chosen)
    /// or `interp` (the interpreter; the default elsewhere).
    #[arg(long, global = true, value_name = "ENGINE")]
    engine: Option<rbg_jit::Engine>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check descriptions; print one summary line per valid game.
    Check(cmd::check::CheckArgs),
    /// Print a description as low-level RBG (macros expanded, board as a graph).
    Expand(cmd::expand::ExpandArgs),
    /// Count the leaves of the game tree to a depth.
    Perft(cmd::perft::PerftArgs),
    /// Flat Monte Carlo playouts per second.
    Bench(cmd::bench::BenchArgs),
    /// Run the game manager (original RBG protocol) for clients over TCP.
    Serve(cmd::serve::ServeArgs),
    /// Play as a client of a game manager (original RBG protocol).
    Client(cmd::client::ClientArgs),
    /// Agents play each other: wins, draws, losses and average scores.
    Match(cmd::matches::MatchArgs),
    /// Play a game in the terminal (humans and agents).
    Play(cmd::play::PlayArgs),
    /// Show a recorded game move by move.
    Replay(cmd::replay::ReplayArgs),
    /// Print a description translated to another language (`.rbg`, `.hrg` to RG).
    Translate(cmd::translate::TranslateArgs),
}

fn main() {
    // Behave like other command-line tools when the reader of our output
    // goes away (`rbg expand x | head`): end quietly instead of panicking on
    // a broken pipe.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE at start-up,
    // before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    cmd::set_engine(cli.engine);
    let code = match &cli.command {
        Command::Check(a) => cmd::check::run(a),
        Command::Expand(a) => cmd::expand::run(a),
        Command::Perft(a) => cmd::perft::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Serve(a) => cmd::serve::run(a),
        Command::Client(a) => cmd::client::run(a),
        Command::Match(a) => cmd::matches::run(a),
        Command::Play(a) => cmd::play::run(a),
        Command::Replay(a) => cmd::replay::run(a),
        Command::Translate(a) => cmd::translate::run(a),
    };
    std::process::exit(code);
}
