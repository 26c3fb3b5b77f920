//! `rbg bench GAME --seconds N`: flat Monte Carlo playouts per second.

use std::time::{Duration, Instant};

use clap::Args;
use gg_core::clock::ClockReads;
use gg_core::playout::{Playouts, DEFAULT_MAX_LENGTH};
use gg_core::Game;
use gg_games::with_game;
use indicatif::{ProgressBar, ProgressStyle};

use super::{load_any, parse_max_length, parse_seconds, print_error};

/// Arguments of `rbg bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Game description (`.rbg`, `.rg`, `.hrg`; `-` for RBG on standard input).
    pub game: String,
    /// How long to run (a playout still running then is dropped).
    #[arg(long, default_value_t = 10.0, value_parser = parse_seconds, allow_negative_numbers = true)]
    pub seconds: f64,
    /// Run exactly this many playouts instead (ignores --seconds).
    #[arg(long)]
    pub playouts: Option<u64>,
    /// Seed of the random generator.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Cut playouts at this many moves (scored as they stand, and counted).
    #[arg(
        long,
        default_value_t = DEFAULT_MAX_LENGTH,
        value_parser = parse_max_length,
        allow_negative_numbers = true
    )]
    pub max_length: u64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs the command; returns the process exit code.
pub fn run(args: &BenchArgs) -> i32 {
    let Some(game) = load_any(&args.game) else {
        return 1;
    };
    let engine = super::engine_of(&game);
    let engine = EngineInfo {
        name: engine.0,
        codegen_ms: engine.1.map(|t| t.as_secs_f64() * 1e3),
    };
    with_game!(&game, g => bench(args, g, &engine))
}

/// The engine that plays, for the report.
struct EngineInfo {
    name: &'static str,
    /// Code generation time of a native engine.
    codegen_ms: Option<f64>,
}

fn bench<G: Game>(args: &BenchArgs, game: &G, engine: &EngineInfo) -> i32 {
    let mut runner = match Playouts::new(game, args.seed) {
        Ok(r) => r.with_max_length(args.max_length),
        Err(e) => {
            print_error(&args.game, &game.error_text(&e));
            return 1;
        }
    };
    let limit = Duration::from_secs_f64(args.seconds);
    let progress = ProgressBar::new_spinner();
    progress.set_style(
        ProgressStyle::with_template("{spinner} {elapsed} {msg}").expect("valid template"),
    );
    let start = Instant::now();
    let deadline = start + limit;
    let cpu_start = cpu_time();
    let mut last_tick = start;
    let mut reads = ClockReads::new(start, Duration::from_millis(1));
    loop {
        let done = runner.stats.playouts;
        if args.playouts.is_some_and(|n| done >= n) {
            break;
        }
        if let Some(now) = reads.now(done) {
            if args.playouts.is_none() && now >= deadline {
                break;
            }
            if now - last_tick >= Duration::from_millis(250) {
                last_tick = now;
                let secs = (now - start).as_secs_f64();
                progress.set_message(format!(
                    "{done} playouts, {:.1} playouts/s",
                    done as f64 / secs
                ));
                progress.tick();
            }
        }
        let timed_out = match args.playouts {
            Some(_) => runner.run_one().map(|_| false),
            None => runner.run_one_until(deadline).map(|l| l.is_none()),
        };
        match timed_out {
            Ok(false) => {}
            Ok(true) => break,
            Err(e) => {
                progress.finish_and_clear();
                print_error(&args.game, &game.error_text(&e));
                return 1;
            }
        }
    }
    progress.finish_and_clear();
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    // Processor time of the playouts: rates per CPU second stay fair on a
    // busy machine, wall-clock ones do not.
    let cpu = cpu_time().map(|t| (t - cpu_start.unwrap_or_default()).max(1e-9));
    let s = &runner.stats;
    let avg_scores = s.avg_scores();
    // Rates and averages of no playouts are not numbers: `null` / left out.
    let played = s.playouts > 0;
    if args.json {
        let obj = serde_json::json!({
            "game": args.game,
            "playouts": s.playouts,
            "states": s.states,
            "seconds": secs,
            "cpu_seconds": cpu,
            "playouts_per_cpu_s": cpu.filter(|_| played).map(|c| s.playouts as f64 / c),
            "playouts_per_s": played.then(|| s.playouts as f64 / secs),
            "states_per_s": played.then(|| s.states as f64 / secs),
            "avg_length": played.then(|| s.avg_length()),
            "avg_scores": played.then_some(avg_scores),
            "engine": engine.name,
            "codegen_ms": engine.codegen_ms,
            "cut": s.cut,
            "max_length": args.max_length,
        });
        println!("{obj}");
    } else {
        println!(
            "bench {}: {} playouts, {} states in {:.3} s",
            args.game, s.playouts, s.states, secs
        );
        if !played {
            println!("  no playouts: no rates");
            return 0;
        }
        println!(
            "  {:.1} playouts/s, {:.0} states/s, average length {:.2}",
            s.playouts as f64 / secs,
            s.states as f64 / secs,
            s.avg_length()
        );
        if let Some(c) = cpu {
            println!(
                "  {:.1} playouts per CPU second ({c:.3} s of CPU)",
                s.playouts as f64 / c
            );
        }
        let names: Vec<String> = (0..game.num_players())
            .map(|p| format!("{} {:.2}", game.player_name(p), avg_scores[p]))
            .collect();
        println!("  average scores: {}", names.join(", "));
        if s.cut > 0 {
            println!(
                "  {} playout(s) reached the maximum length of {} moves and were cut \
                 (scored as they stood; --max-length)",
                s.cut, args.max_length
            );
        }
        match engine.codegen_ms {
            Some(ms) => println!(
                "  engine {} (code generation {ms:.1} ms of CPU)",
                engine.name
            ),
            None => println!("  engine {}", engine.name),
        }
    }
    0
}

/// The process's processor time in seconds (user and system), where the
/// platform has it.
fn cpu_time() -> Option<f64> {
    #[cfg(unix)]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `clock_gettime` writes the timespec it is given.
        if unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) } == 0 {
            return Some(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9);
        }
    }
    None
}
