//! Reproduces `../shared/rbg-suite/perft.tsv` (reference counts of the
//! original RBG compiler). Lines with `ref_seconds <= 2` run in the normal
//! test run (use `--release`), with both engines; the rest run with
//! `-- --ignored`.
//!
//! The suite lives beside the repository (`../shared/rbg-suite`, override
//! with `RBG_SUITE`). When it is missing the tests skip, except under
//! `CI=true`, where a missing suite is an error.

use rbg_engine::{perft::perft_parallel, GameModel};

fn suite_dir() -> Option<std::path::PathBuf> {
    testkit::rbg_suite("perft.tsv")
}

struct Line {
    game: String,
    depth: usize,
    leaves: u64,
    states: u64,
    ref_seconds: f64,
}

fn lines(dir: &std::path::Path) -> Vec<Line> {
    let text = std::fs::read_to_string(dir.join("perft.tsv")).expect("read perft.tsv");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Line {
                game: f[0].to_string(),
                depth: f[1].parse().unwrap(),
                leaves: f[2].parse().unwrap(),
                states: f[3].parse().unwrap(),
                ref_seconds: f[4].parse().unwrap(),
            }
        })
        .collect()
}

/// Runs the selected lines with the game prepared by `engine` (the
/// interpreter, or the native engine).
fn run(select: impl Fn(&Line) -> bool, threads: usize, engine: fn(GameModel) -> GameModel) {
    let Some(dir) = suite_dir() else { return };
    let selected: Vec<Line> = lines(&dir).into_iter().filter(|l| select(l)).collect();
    // Deep rule walks recurse; give them room.
    let handle = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || {
            let mut failures = Vec::new();
            let mut cache: Option<(String, GameModel)> = None;
            for l in &selected {
                if cache.as_ref().map(|c| &c.0) != Some(&l.game) {
                    let text = std::fs::read_to_string(dir.join("games").join(&l.game)).unwrap();
                    match GameModel::from_text(&text) {
                        Ok(g) => cache = Some((l.game.clone(), engine(g))),
                        Err(e) => {
                            failures.push(format!("{}: does not load: {}", l.game, e.message));
                            cache = None;
                            continue;
                        }
                    }
                }
                let g = &cache.as_ref().unwrap().1;
                let t = std::time::Instant::now();
                let c = match perft_parallel(g, l.depth, threads) {
                    Ok(c) => c,
                    Err(e) => {
                        failures.push(format!("{} depth {}: {e}", l.game, l.depth));
                        continue;
                    }
                };
                eprintln!(
                    "{} depth {}: leaves {} states {} in {:.3}s (reference {}s)",
                    l.game,
                    l.depth,
                    c.leaves,
                    c.states,
                    t.elapsed().as_secs_f64(),
                    l.ref_seconds
                );
                if (c.leaves, c.states) != (l.leaves, l.states) {
                    failures.push(format!(
                        "{} depth {}: got leaves {} states {}, expected {} {}",
                        l.game, l.depth, c.leaves, c.states, l.leaves, l.states
                    ));
                }
            }
            failures
        })
        .unwrap();
    let failures = handle.join().unwrap();
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
}

fn interp(g: GameModel) -> GameModel {
    g
}

fn native(g: GameModel) -> GameModel {
    rbg_jit::compile(&g).expect("native code generation")
}

#[test]
fn perft_quick_lines() {
    run(|l| l.ref_seconds <= 2.0, 1, interp);
}

#[test]
fn perft_quick_lines_native() {
    run(|l| l.ref_seconds <= 2.0, 1, native);
}

/// The lines over 2 s of reference time, on all cores; `RBG_PERFT_MAX_SECONDS`
/// skips the lines whose reference time is above it; `RBG_ENGINE=native` runs
/// them with the native engine.
#[test]
#[ignore = "slow: run with --release -- --ignored"]
fn perft_slow_lines() {
    let max: f64 = std::env::var("RBG_PERFT_MAX_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(f64::INFINITY);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let engine = match std::env::var("RBG_ENGINE").as_deref() {
        Ok("native") => native,
        _ => interp,
    };
    run(
        |l| l.ref_seconds > 2.0 && l.ref_seconds <= max,
        threads,
        engine,
    );
}

#[test]
fn parallel_perft_gives_the_reference_counts() {
    let Some(dir) = suite_dir() else { return };
    let wanted = [
        ("breakthrough.rbg", 3),
        ("ticTacToe.rbg", 9),
        ("connect4.rbg", 6),
        ("englishDraughts.rbg", 6),
        ("chess.rbg", 3),
    ];
    let lines = lines(&dir);
    for (game, depth) in wanted {
        let l = lines
            .iter()
            .find(|l| l.game == game && l.depth == depth)
            .unwrap_or_else(|| panic!("{game} depth {depth} in perft.tsv"));
        let text = std::fs::read_to_string(dir.join("games").join(game)).unwrap();
        let g = GameModel::from_text(&text).unwrap();
        let n = native(g.clone());
        for (g, threads) in [(&g, 2), (&g, 3), (&n, 2)] {
            let c = perft_parallel(g, depth, threads).unwrap();
            assert_eq!(
                (c.leaves, c.states),
                (l.leaves, l.states),
                "{game} depth {depth} on {threads} threads ({})",
                g.engine_name()
            );
        }
    }
}
