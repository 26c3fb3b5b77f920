//! `rbg match GAME --agents A,B --games N`: agents play each other.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use clap::Args;
use gg_core::Game;
use gg_games::with_game;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rbg_agents::{from_spec, play_game, Agent, GameRecord, MatchStats, DEFAULT_MAX_LENGTH};
use rbg_engine::GameModel;

use super::view::score_bounds;
use super::{load_any, parse_max_length, print_error};

/// Arguments of `rbg match`.
#[derive(Args, Debug)]
#[command(after_help = concat!(
    "AGENTS (one per player, comma-separated):\n",
    "random | flatmc[:PARAMS] | mcts[:PARAMS], PARAMS are key=value separated by `:`\n",
    "  time=DURATION (500ms, 1s; default 1s), iterations=N, playout=random, depth=N,\n",
    "  c=X (mcts, default 1.4), reuse=BOOL (mcts, default true)\n",
    "Example: --agents mcts:time=1s:c=1.4,random\n\n",
    "Seats rotate: in game g (from 0) player p is played by agent (p + g) mod n.\n",
    "A win is a strictly highest score, a draw a tie for the highest score, anything\n",
    "else a loss (one player: a win is reaching the score bound).\n",
    "Matches are reproducible for a seed when the agents' budgets are iterations\n",
    "(each game seeds its agents from --seed and its number, whatever --threads is)."
))]
pub struct MatchArgs {
    /// Game description (`.rbg`, `.rg`, `.hrg`; `-` for RBG on standard input).
    pub game: String,
    /// The agents, one per player (see below).
    #[arg(long, required = true)]
    pub agents: String,
    /// Number of games.
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// Seed of the agents' random generators.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Cut games at this many moves (scored as they stand).
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

/// The seed of agent `agent` in game `game`.
fn agent_seed(seed: u64, game: usize, agent: usize) -> u64 {
    // SplitMix64 of the triple: nearby inputs give unrelated seeds.
    let mut z = seed
        .wrapping_add((game as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add((agent as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Agent playing player `p` in game `g` with `n` agents.
fn seat(p: usize, g: usize, n: usize) -> usize {
    (p + g) % n
}

/// Runs the command; returns the process exit code.
pub fn run(args: &MatchArgs) -> i32 {
    let specs: Vec<String> = args
        .agents
        .split(',')
        .map(|s| s.trim().to_string())
        .collect();
    let mut names = Vec::new();
    for spec in &specs {
        // Specs do not depend on the game: check them before loading it.
        match from_spec::<GameModel>(spec, 0) {
            Ok(a) => names.push(a.name()),
            Err(e) => {
                eprintln!("error: --agents: {e}");
                return 2;
            }
        }
    }
    if args.threads == 0 {
        eprintln!("error: --threads must be at least 1");
        return 2;
    }
    let Some(game) = load_any(&args.game) else {
        return 1;
    };
    with_game!(&game, g => run_match(args, g, &specs, names))
}

/// Plays the match on `game` with the agents of the checked `specs`.
fn run_match<G: Game>(args: &MatchArgs, game: &G, specs: &[String], names: Vec<String>) -> i32 {
    let n = game.num_players();
    if specs.len() != n {
        eprintln!(
            "error: --agents: the game has {n} player(s) ({}), {} agent(s) given",
            (0..n)
                .map(|p| game.player_name(p))
                .collect::<Vec<_>>()
                .join(", "),
            specs.len()
        );
        return 2;
    }
    let progress = if std::io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(args.games as u64), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    progress.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} (eta {eta})")
            .expect("valid template"),
    );
    // Drawn at once and redrawn while the first game is still running.
    progress.enable_steady_tick(std::time::Duration::from_millis(250));
    let start = Instant::now();
    let records = match play_all(game, specs, args, &progress) {
        Ok(r) => r,
        Err((g, e)) => {
            progress.finish_and_clear();
            print_error(&args.game, &game.error_text(&e));
            eprintln!(
                "error: game {} of the match cannot go on; match stopped",
                g + 1
            );
            return 1;
        }
    };
    progress.finish_and_clear();
    let wall = start.elapsed().as_secs_f64().max(1e-9);
    let bounds = score_bounds(game);
    let mut stats = MatchStats::new(labels(names));
    for (g, r) in records.iter().enumerate() {
        let seats: Vec<usize> = (0..n).map(|p| seat(p, g, n)).collect();
        stats.add(r, &seats, &bounds);
    }
    let cut = records.iter().filter(|r| r.cut).count();
    if args.json {
        print_json(args, &stats, wall, cut);
    } else {
        print_text(args, &stats, wall);
        if cut > 0 {
            println!(
                "  {cut} game(s) reached the maximum length of {} moves and were cut \
                 (scored as they stood; --max-length)",
                args.max_length
            );
        }
    }
    0
}

/// The agents' names for the table, numbered (`random #1`, `random #2`)
/// where the same name stands for several agents.
fn labels(names: Vec<String>) -> Vec<String> {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            if names.iter().filter(|m| *m == n).count() > 1 {
                format!("{n} #{}", i + 1)
            } else {
                n.clone()
            }
        })
        .collect()
}

/// A game the engine could not go on with: its number (0-based) and the
/// error.
type Failed<G> = (usize, <G as Game>::Error);

/// Plays all games on `args.threads` threads; records in game order, or
/// the first game the engine cannot go on with (its number and the error):
/// then no new game is started.
fn play_all<G: Game>(
    game: &G,
    specs: &[String],
    args: &MatchArgs,
    progress: &ProgressBar,
) -> Result<Vec<GameRecord<G::Atom>>, Failed<G>> {
    let next = AtomicUsize::new(0);
    type Played<G> = Result<GameRecord<<G as Game>::Atom>, <G as Game>::Error>;
    let results: Mutex<Vec<Option<Played<G>>>> =
        Mutex::new((0..args.games).map(|_| None).collect());
    let n = specs.len();
    std::thread::scope(|scope| {
        for _ in 0..args.threads.min(args.games.max(1)) {
            std::thread::Builder::new()
                .stack_size(64 << 20)
                .spawn_scoped(scope, || loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= args.games {
                        break;
                    }
                    let mut agents: Vec<Box<dyn Agent<G>>> = (0..n)
                        .map(|p| {
                            let a = seat(p, g, n);
                            from_spec(&specs[a], agent_seed(args.seed, g, a)).expect("checked")
                        })
                        .collect();
                    let record = play_game(
                        game,
                        &mut agents,
                        agent_seed(args.seed, g, n),
                        args.max_length,
                    );
                    if record.is_err() {
                        // The other games would fail the same way.
                        next.store(args.games, Ordering::Relaxed);
                    }
                    results.lock().expect("no panics while holding the lock")[g] = Some(record);
                    progress.inc(1);
                })
                .expect("spawn a match thread");
        }
    });
    let mut records = Vec::with_capacity(args.games);
    let results = results
        .into_inner()
        .expect("no panics while holding the lock");
    let mut first_error = None;
    for (g, r) in results.into_iter().enumerate() {
        match r {
            Some(Ok(record)) => records.push(record),
            Some(Err(e)) if first_error.is_none() => first_error = Some((g, e)),
            // Games after an error are not started.
            _ => {}
        }
    }
    match first_error {
        Some(e) => Err(e),
        None => Ok(records),
    }
}

fn print_text(args: &MatchArgs, stats: &MatchStats, wall: f64) {
    println!(
        "match {}: {} games, seed {}, {} thread(s)",
        args.game, stats.games, args.seed, args.threads
    );
    if stats.games == 0 {
        println!("  no games played: no results");
        return;
    }
    let width = stats
        .agents
        .iter()
        .map(|a| a.name.len())
        .max()
        .unwrap_or(5)
        .max(5);
    println!(
        "  {:width$}  {:>5} {:>5} {:>6}  {:>18}  {:>8}  {:>8}",
        "agent", "wins", "draws", "losses", "score (95% CI)", "s/move", "iter/s"
    );
    for a in &stats.agents {
        let score = format!("{:.2} ± {:.2}", a.mean_score(), a.ci95());
        let iters = if a.iterations > 0 {
            format!("{:.0}", a.iterations as f64 / a.think_seconds.max(1e-9))
        } else {
            "-".to_string()
        };
        let per_move = if a.moves > 0 {
            format!("{:.4}", a.think_seconds / a.moves as f64)
        } else {
            "-".to_string()
        };
        println!(
            "  {:width$}  {:>5} {:>5} {:>6}  {:>18}  {:>8}  {:>8}",
            a.name, a.wins, a.draws, a.losses, score, per_move, iters
        );
    }
    println!(
        "  average length {:.2} moves, {:.1} moves/s, {:.3} s",
        stats.avg_length(),
        stats.plies as f64 / wall,
        wall
    );
}

/// JSON of the match; averages over nothing are `null`.
fn print_json(args: &MatchArgs, stats: &MatchStats, wall: f64, cut: usize) {
    let played = stats.games > 0;
    let agents: Vec<serde_json::Value> = stats
        .agents
        .iter()
        .map(|a| {
            serde_json::json!({
                "agent": a.name,
                "wins": a.wins,
                "draws": a.draws,
                "losses": a.losses,
                "avg_score": played.then(|| a.mean_score()),
                "ci95": played.then(|| a.ci95()),
                "moves": a.moves,
                "seconds_per_move": (a.moves > 0).then(|| a.think_seconds / a.moves as f64),
                "iterations": a.iterations,
            })
        })
        .collect();
    let obj = serde_json::json!({
        "game": args.game,
        "games": stats.games,
        "seed": args.seed,
        "threads": args.threads,
        "agents": agents,
        "avg_length": played.then(|| stats.avg_length()),
        "moves_per_s": played.then(|| stats.plies as f64 / wall),
        "seconds": wall,
        "cut": cut,
        "max_length": args.max_length,
    });
    println!("{obj}");
}
