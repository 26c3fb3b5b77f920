//! `rbg perft GAME DEPTH`: leaf counts of the game tree, with speed.

use std::time::Instant;

use clap::Args;
use gg_core::perft::perft_parallel;
use gg_core::Game;
use gg_games::with_game;

use super::load_any;

/// Arguments of `rbg perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Game description (`.rbg`, `.rg`; `-` for RBG on standard input).
    pub game: String,
    /// Depth of the tree, in moves of players and chance.
    pub depth: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Count subtrees on this many threads (same counts, less time).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: u64,
}

/// Runs the command; returns the process exit code.
pub fn run(args: &PerftArgs) -> i32 {
    let Some(game) = load_any(&args.game) else {
        return 1;
    };
    with_game!(&game, g => perft(args, g))
}

fn perft<G: Game>(args: &PerftArgs, game: &G) -> i32 {
    let start = Instant::now();
    let count = match perft_parallel(game, args.depth, args.threads as usize) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{}: error: {e}", args.game);
            return 1;
        }
    };
    let secs = start.elapsed().as_secs_f64();
    if args.json {
        let obj = serde_json::json!({
            "game": args.game,
            "depth": args.depth,
            "leaves": count.leaves,
            "states": count.states,
            "seconds": secs,
            "threads": args.threads,
        });
        println!("{obj}");
    } else {
        println!(
            "perft {} depth {}: {} leaves, {} states in {:.3} s ({:.0} nodes/s)",
            args.game,
            args.depth,
            count.leaves,
            count.states,
            secs,
            count.states as f64 / secs.max(1e-9)
        );
    }
    0
}
