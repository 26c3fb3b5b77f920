//! `rbg perft GAME DEPTH`: leaf counts of the game tree, with speed.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use clap::Args;
use gg_core::perft::{perft_parallel, perft_split, PerftCount, STACK_SIZE};
use gg_core::Game;
use gg_games::{with_game, AnyGame};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::{load_any, print_error};

/// Arguments of `rbg perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Game description (`.rbg`, `.rg`, `.hrg`; `-` for RBG on standard input).
    pub game: String,
    /// Depth of the tree, in moves of players and chance (memory grows
    /// with the depth actually reached).
    #[arg(value_parser = parse_depth, allow_negative_numbers = true)]
    pub depth: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Count subtrees on this many threads (same counts, less time).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: u64,
    /// RG only: count one child per distinct move (tag sequence), as the RG
    /// paper defines moves, instead of one per walk as the reference's
    /// `cli perf` does (single-threaded).
    #[arg(long)]
    pub distinct_moves: bool,
}

/// Parses a depth: a whole number from 0.
fn parse_depth(text: &str) -> Result<usize, String> {
    text.trim().parse::<usize>().map_err(|_| {
        format!(
            "expected a depth (a whole number from 0 to {}), found `{text}`",
            usize::MAX
        )
    })
}

/// Runs the command; returns the process exit code.
pub fn run(args: &PerftArgs) -> i32 {
    let Some(game) = load_any(&args.game) else {
        return 1;
    };
    if args.distinct_moves {
        let AnyGame::Rg(g) = &game else {
            eprintln!(
                "{}: error: --distinct-moves is for RG games only",
                args.game
            );
            return 1;
        };
        let start = Instant::now();
        let counting = rg_engine::perft::Counting::DistinctMoves;
        return match rg_engine::perft::perft(g, args.depth, counting) {
            Ok(c) => report(
                args,
                PerftCount {
                    leaves: c.leaves,
                    states: c.states,
                },
                start,
            ),
            Err(e) => {
                eprintln!("{}: error: {}", args.game, g.error_text(&e));
                1
            }
        };
    }
    with_game!(&game, g => perft(args, g))
}

/// Runs perft; on a terminal (and without `--json`) a bar on standard error
/// shows the subtrees counted once the run has taken a second.
fn counted<G: Game>(args: &PerftArgs, game: &G) -> Result<PerftCount, G::Error> {
    let threads = args.threads as usize;
    if args.json || !std::io::stderr().is_terminal() {
        return perft_parallel(game, args.depth, threads);
    }
    let (done, total) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let report = |d: usize, t: usize| {
        done.fetch_max(d, Ordering::Relaxed);
        total.store(t, Ordering::Relaxed);
    };
    std::thread::scope(|scope| {
        let run = std::thread::Builder::new()
            .stack_size(STACK_SIZE)
            .spawn_scoped(scope, || perft_split(game, args.depth, threads, &report))
            .expect("spawn the perft thread");
        let start = Instant::now();
        let mut bar: Option<ProgressBar> = None;
        while !run.is_finished() {
            std::thread::sleep(Duration::from_millis(50));
            if start.elapsed() < Duration::from_secs(1) {
                continue;
            }
            let bar = bar.get_or_insert_with(|| {
                let b = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
                b.set_style(
                    ProgressStyle::with_template(
                        "{bar:40} {pos}/{len} subtrees, {elapsed} (eta {eta})",
                    )
                    .expect("valid template"),
                );
                b
            });
            bar.set_length(total.load(Ordering::Relaxed) as u64);
            bar.set_position(done.load(Ordering::Relaxed) as u64);
        }
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        run.join().expect("perft thread")
    })
}

fn perft<G: Game>(args: &PerftArgs, game: &G) -> i32 {
    let start = Instant::now();
    let count = match counted(args, game) {
        Ok(c) => c,
        Err(e) => {
            print_error(&args.game, &game.error_text(&e));
            return 1;
        }
    };
    report(args, count, start)
}

/// Prints the result; returns the exit code.
fn report(args: &PerftArgs, count: PerftCount, start: Instant) -> i32 {
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
