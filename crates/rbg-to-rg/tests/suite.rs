//! Every suite game translates into RG that the RG front end checks, and
//! the RG engine's perft of the translation equals the suite's RBG perft
//! (`perft.tsv`) on every line whose reference time is at most 2 s. The
//! lines above that run with
//! `cargo test -p rbg-to-rg --test suite -- --ignored --nocapture`.

mod common;

use std::collections::HashMap;
use std::path::Path;

use gg_core::{perft, Game, MoveList, Reasoner, Turn};
use rg_engine::{GameModel, State};

struct Line {
    game: String,
    depth: usize,
    leaves: u64,
    ref_seconds: f64,
}

fn lines(dir: &Path) -> Vec<Line> {
    let text = std::fs::read_to_string(dir.join("perft.tsv")).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            Line {
                game: c[0].to_string(),
                depth: c[1].parse().unwrap(),
                leaves: c[2].parse().unwrap(),
                ref_seconds: c[4].parse().unwrap(),
            }
        })
        .collect()
}

/// Leaves of the game tree at depths `0..=depth` (perft of each depth), by
/// levels: equal states are merged with their number of paths, and the
/// last level counts moves without playing them (a leaf is the state right
/// after a move, `rg-language.md` §6.1). A level that would hold more than
/// [`MAX_LEVEL`] states is counted depth first from the level before it.
fn leaves_by_depth(
    model: &GameModel,
    depth: usize,
) -> Result<Vec<u64>, <GameModel as Game>::Error> {
    let mut r = Game::reasoner(model);
    let mut level: HashMap<State, u64> = HashMap::from([(Game::initial_state(model)?, 1)]);
    let mut leaves = vec![1];
    let (mut moves, mut kids) = (MoveList::default(), Vec::new());
    for d in 1..=depth {
        if d == depth || level.len() > MAX_LEVEL {
            // The remaining levels, depth first from each state.
            let mut rest = vec![0; depth + 1 - d];
            for (s, &paths) in &level {
                below(&mut r, s, paths, &mut rest, &mut moves)?;
            }
            leaves.extend(rest);
            break;
        }
        let mut next: HashMap<State, u64> = HashMap::new();
        for (s, &paths) in &level {
            kids.clear();
            perft::children::<GameModel>(&mut r, s, &mut moves, &mut kids)?;
            for k in kids.drain(..) {
                *next.entry(k).or_default() += paths;
            }
        }
        leaves.push(next.values().sum());
        level = next;
    }
    Ok(leaves)
}

/// States in one merged level at most (memory).
const MAX_LEVEL: usize = 200_000;

/// Adds `paths` times the leaves below `s` to `out` (`out[i]`: depth i + 1
/// below `s`).
fn below(
    r: &mut <GameModel as Game>::Reasoner,
    s: &State,
    paths: u64,
    out: &mut [u64],
    moves: &mut MoveList<<GameModel as Game>::Atom>,
) -> Result<(), <GameModel as Game>::Error> {
    if out.len() == 1 && r.game().turn(s) != Turn::Chance {
        if r.game().turn(s) != Turn::Over {
            r.legal_moves(s, moves)?;
            out[0] += paths * moves.len() as u64;
        }
        return Ok(());
    }
    let mut kids = Vec::new();
    perft::children::<GameModel>(r, s, moves, &mut kids)?;
    out[0] += paths * kids.len() as u64;
    if out.len() > 1 {
        for k in &kids {
            below(r, k, paths, &mut out[1..], moves)?;
        }
    }
    Ok(())
}

/// Checks the perft lines `keep` selects: one count by levels per game, to
/// the deepest selected line.
fn check(keep: impl Fn(&Line) -> bool) {
    let Some(dir) = common::suite() else { return };
    let all = lines(&dir);
    let mut games: Vec<&str> = all.iter().map(|l| l.game.as_str()).collect();
    games.dedup();
    let mut failures = Vec::new();
    let mut checked = 0;
    for name in games {
        let todo: Vec<&Line> = all.iter().filter(|l| l.game == name && keep(l)).collect();
        let Some(depth) = todo.iter().map(|l| l.depth).max() else {
            continue;
        };
        let started = std::time::Instant::now();
        let model = common::translated(name, &common::game(&dir, name));
        match leaves_by_depth(&model, depth) {
            Ok(leaves) => {
                for l in &todo {
                    // One line per depth (read by scripts/translation-table.py).
                    let line = format!(
                        "perft {name} depth {}: {} leaves, expected {} (reference {} s)",
                        l.depth, leaves[l.depth], l.leaves, l.ref_seconds
                    );
                    eprintln!("{line}");
                    if leaves[l.depth] != l.leaves {
                        failures.push(line);
                    }
                }
            }
            Err(e) => failures.push(format!("{name}: {}", model.error_text(&e))),
        }
        eprintln!(
            "{name} to depth {depth}: {:.2} s",
            started.elapsed().as_secs_f64()
        );
        checked += todo.len();
    }
    eprintln!("{checked} lines checked");
    assert!(!failures.is_empty() || checked > 0, "no line checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_game_translates_and_checks() {
    let Some(dir) = common::suite() else { return };
    let mut names: Vec<String> = lines(&dir).into_iter().map(|l| l.game).collect();
    names.dedup();
    assert_eq!(names.len(), 65);
    for name in &names {
        let game = common::game(&dir, name);
        let text = rbg_to_rg::translate_text(&game).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (ast, checked) =
            rg_lang::parse_str(&text).unwrap_or_else(|e| panic!("{name}: {}", e.message));
        assert!(
            checked.warnings.is_empty(),
            "{name}: {:?}",
            checked.warnings
        );
        // The printed translation reads back as the same game.
        assert_eq!(rg_lang::print::print_game(&ast), text, "{name}");
    }
}

#[test]
fn perft_up_to_two_reference_seconds() {
    check(|l| l.ref_seconds <= 2.0);
}

/// `RG_PERFT_MAX_SECONDS=X` leaves out the lines above X reference seconds,
/// `RG_PERFT_MIN_SECONDS=Y` those at or below Y (at least 2),
/// `RG_PERFT_GAMES=a.rbg,b.rbg` the other games.
#[test]
#[ignore = "minutes: the suite's longer perft lines"]
fn perft_above_two_reference_seconds() {
    let seconds = |var: &str, default: f64| -> f64 {
        std::env::var(var)
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(default)
    };
    let max = seconds("RG_PERFT_MAX_SECONDS", f64::INFINITY);
    let min = seconds("RG_PERFT_MIN_SECONDS", 2.0).max(2.0);
    let games = std::env::var("RG_PERFT_GAMES").ok();
    let chosen = |g: &str| {
        games
            .as_ref()
            .is_none_or(|list| list.split(',').any(|x| x == g))
    };
    check(|l| l.ref_seconds > min && l.ref_seconds <= max && chosen(&l.game));
}
