//! The native engine against the interpreter: along random plays of every
//! RG example and every game of `games/hrg/`, each state's move list
//! (tags, visibility, resulting states, in order) and errors are equal;
//! playouts (moves recorded as effects only) take the same steps; the
//! examples' perft through the native engine equals `perft.tsv`; the same
//! move lists on RBG suite games translated to RG.

use std::path::{Path, PathBuf};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rg_engine::perft::{perft, Counting};
use rg_engine::{GameModel, MoveList, Mover, State};

fn load(path: &Path) -> GameModel {
    let text = std::fs::read(path).expect("readable game");
    let name = path.display().to_string();
    if path.extension().is_some_and(|e| e == "rbg") {
        // Translated (`rbg translate --to rg`).
        let file = rbg_lang::SourceFile::from_bytes(&name, &text);
        let game = rbg_lang::load(&file).unwrap_or_else(|d| panic!("{d}"));
        let rg = rbg_to_rg::translate_text(&game).unwrap_or_else(|e| panic!("{name}: {e}"));
        GameModel::from_text(&rg).unwrap_or_else(|e| panic!("{name}: {e}"))
    } else if path.extension().is_some_and(|e| e == "hrg") {
        let file = rbg_lang::SourceFile::from_bytes(&name, &text);
        let (_, checked) = hrg_lang::load(&file).unwrap_or_else(|d| panic!("{}", d.rendered));
        GameModel::located(checked, file).expect("lowered")
    } else {
        let file = rg_lang::SourceFile::from_bytes(&name, &text);
        GameModel::load(&file).unwrap_or_else(|e| panic!("{e}"))
    }
}

fn games() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../games/hrg");
    let dirs = [Some(root), testkit::rg_examples()];
    for dir in dirs.into_iter().flatten() {
        for e in std::fs::read_dir(&dir).expect("games folder") {
            let p = e.expect("entry").path();
            if p.extension().is_some_and(|e| e == "rg" || e == "hrg") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// Equal move lists: same walks in the same order, same results.
fn same_lists(interp: &GameModel, s: &State, a: &MoveList, b: &MoveList) -> Result<(), String> {
    if a.len() != b.len() {
        return Err(format!("{} walks against {}", a.len(), b.len()));
    }
    let r = interp.reasoner();
    for i in 0..a.len() {
        if a.tags(i) != b.tags(i) || a.visibility(i) != b.visibility(i) {
            return Err(format!("walk {i}: {:?} against {:?}", a.tags(i), b.tags(i)));
        }
        let (mut x, mut y) = (s.clone(), s.clone());
        r.apply(&mut x, a, i);
        r.apply(&mut y, b, i);
        if x != y {
            return Err(format!("walk {i} leads elsewhere"));
        }
    }
    Ok(())
}

/// `plays` random plays of at most `length` moves: lists compared at every
/// state; returns the number of states compared. The walk is in functions
/// of at most `part_edges` edges.
fn compare(path: &Path, plays: usize, length: usize, seed: u64, part_edges: u32) -> usize {
    let interp = load(path);
    if interp.tables().edges.len() > rg_jit::MAX_EDGES {
        // Left to the interpreter (the reason is checked below).
        assert!(rg_jit::compile(&interp).is_err());
        return 0;
    }
    let native = rg_jit::compile_split(&interp, part_edges)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(native.engine_name(), "native");
    let (mut ri, mut rn) = (interp.reasoner(), native.reasoner());
    let (mut li, mut ln) = (MoveList::default(), MoveList::default());
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut states = 0;
    for play in 0..plays {
        let mut s = interp.initial_state();
        for step in 0..length {
            let (mut si, mut sn) = (s.clone(), s.clone());
            let a = ri.moves(&mut si, &mut li);
            let b = rn.moves(&mut sn, &mut ln);
            assert_eq!(
                si,
                s,
                "{}: the interpreter changed the state",
                path.display()
            );
            assert_eq!(sn, s, "{}: native code changed the state", path.display());
            states += 1;
            match (a, b) {
                (Ok(()), Ok(())) => {}
                (Err(x), Err(y)) => {
                    assert_eq!(x, y, "{}: play {play} step {step}", path.display());
                    break;
                }
                (x, y) => panic!(
                    "{}: play {play} step {step}: {x:?} against {y:?}",
                    path.display()
                ),
            }
            if let Err(e) = same_lists(&interp, &s, &li, &ln) {
                panic!("{}: play {play} step {step}: {e}", path.display());
            }
            if li.is_empty() {
                break;
            }
            let pick = match interp.mover(&s) {
                Ok(Mover::Keeper) => 0,
                _ => rng.gen_range(0..li.len()),
            };
            ri.apply(&mut s, &li, pick);
        }
    }
    states
}

#[test]
fn native_moves_equal_the_interpreters() {
    let files = games();
    assert!(files.len() >= 14, "only {} games", files.len());
    let mut compared = 0;
    for (k, path) in files.iter().enumerate() {
        let states = compare(path, 20, 400, 7 + k as u64, rg_jit::PART_EDGES);
        compared += (states > 0) as usize;
    }
    assert!(compared >= 14, "only {compared} games compared");
}

/// The walk split into a function per node (and games of several
/// functions at the default size: chess).
#[test]
fn split_native_moves_equal_the_interpreters() {
    let mut split = 0;
    for (k, path) in games().iter().enumerate() {
        let small = load(path).tables().edges.len() <= 1_000;
        let part_edges = if small { 1 } else { rg_jit::PART_EDGES };
        split += (compare(path, 5, 400, 11 + k as u64, part_edges) > 0) as usize;
    }
    assert!(split >= 14, "only {split} games compared");
}

/// `plays` random playouts of `path` (moves recorded as effects only, by
/// generated code) take the same steps on both engines; false when the
/// generator does not take the game.
fn same_playouts(path: &Path, plays: u64, seed: u64) -> bool {
    use gg_core::{Game, Reasoner, Turn};
    let interp = load(path);
    let Ok(native) = rg_jit::compile(&interp) else {
        return false;
    };
    let (mut ri, mut rn) = (Game::reasoner(&interp), Game::reasoner(&native));
    let (mut mi, mut mn) = (gg_core::MoveList::default(), gg_core::MoveList::default());
    for play in 0..plays {
        let seed = seed + play;
        let (mut gi, mut gn) = (SmallRng::seed_from_u64(seed), SmallRng::seed_from_u64(seed));
        let (Ok(mut si), Ok(mut sn)) = (Game::initial_state(&interp), Game::initial_state(&native))
        else {
            panic!("{}: no initial state", path.display());
        };
        for step in 0..400 {
            if Game::turn(&interp, &si) == Turn::Over {
                break;
            }
            let a = ri.play_random(&mut si, &mut mi, &mut gi);
            let b = rn.play_random(&mut sn, &mut mn, &mut gn);
            let at = format!("{}: play {play} step {step}", path.display());
            assert_eq!(a, b, "{at}");
            assert_eq!(si, sn, "{at}");
            if !matches!(a, Ok(n) if n > 0) {
                break;
            }
        }
    }
    true
}

#[test]
fn native_playouts_equal_the_interpreters() {
    let mut compared = 0;
    for (k, path) in games().iter().enumerate() {
        compared += same_playouts(path, 10, 1000 * k as u64) as usize;
    }
    assert!(compared >= 14, "only {compared} games compared");
}

/// The suite games' translations (`translated_native_moves_equal_the_interpreters`)
/// in playouts: their moves' last writes deferred into the records
/// (`gen/tail.rs`), past logs of computed places.
#[test]
fn translated_native_playouts_equal_the_interpreters() {
    let Some((_, files)) = translated() else {
        return;
    };
    for (k, path) in files.iter().enumerate() {
        assert!(same_playouts(path, 2, 31 + k as u64), "{}", path.display());
    }
}

/// Deferred last writes past logs the generator does not know
/// (`gen/tail.rs`): amazons_split2a's second half-move joins a queen's
/// further steps and none (logs of one `coord` entry and of none) before
/// the arrow, whose landings defer `coord` into records that copy the log.
#[test]
fn translated_deferred_writes_past_unknown_logs() {
    let Some((games, _)) = translated() else {
        return;
    };
    let path = games.join("amazons_split2a.rbg");
    assert!(same_playouts(&path, 3, 7), "{}", path.display());
    assert!(compare(&path, 2, 40, 8, rg_jit::PART_EDGES) > 0);
}

/// The RBG suite's games folder and `scripts/translation-table.py`'s
/// games in it (`None`: no suite beside the repository).
fn translated() -> Option<(PathBuf, Vec<PathBuf>)> {
    let games = testkit::rbg_suite("games/connect4.rbg")?.join("games");
    let names = [
        "breakthrough",
        "ticTacToe",
        "connect4",
        "reversi",
        "englishDraughts",
        "hex",
        "chess",
        "amazons",
    ];
    let files = names.map(|n| games.join(format!("{n}.rbg"))).to_vec();
    Some((games, files))
}

/// RBG suite games translated to RG (their checks write, nest writing
/// checks, visit; `scripts/translation-table.py`'s games).
#[test]
fn translated_native_moves_equal_the_interpreters() {
    let Some((games, files)) = translated() else {
        return;
    };
    for (k, path) in files.iter().enumerate() {
        assert!(compare(path, 3, 400, 21 + k as u64, rg_jit::PART_EDGES) > 0);
    }
    // connect4's end-of-turn checks nest its line checks, writing programs
    // of their own: all of them code.
    // reversi's has-a-move checks are searches through nodes with local
    // visited checks (checked in the search's set): all code too.
    for name in ["connect4", "reversi"] {
        let codes = rg_jit::check_codes(&load(&games.join(format!("{name}.rbg"))));
        assert!(!codes.contains(&rg_jit::CheckCode::Interpreted), "{name}");
    }
}

/// Speculated checks in native walks (`rt/ahead.rs`): a kingCapture chess
/// translation's end-of-turn checks (copies cut short before the pawns'
/// promotion rows: mirrors one way only) are decided by the moves generated
/// ahead and taken by the next enumeration, with the interpreter's moves
/// and playouts.
#[test]
fn translated_speculated_checks_as_the_interpreter() {
    let Some((games, _)) = translated() else {
        return;
    };
    let path = games.join("chessSilverman4x5_kingCapture.rbg");
    assert_eq!(load(&path).mirror_counts(), (3, 2));
    assert!(same_playouts(&path, 4, 5));
    assert!(compare(&path, 2, 200, 9, rg_jit::PART_EDGES) > 0);
}

/// Which speculated checks native walks speculate (`plan::speculates`):
/// not those a probe (ticTacToe, connect4) or a short program
/// (foxAndHounds' 9 instructions) decides, which cost less than handing
/// over the moves; a kingCapture chess translation's long programs (242
/// instructions) are.
#[test]
fn native_walks_speculate_only_costly_checks() {
    let Some((games, _)) = translated() else {
        return;
    };
    let count = |name: &str| {
        let game = load(&games.join(format!("{name}.rbg")));
        let mirrored = game.tables().speculated.iter();
        let mirrored = mirrored.filter(|&&y| y != rg_engine::raw::NO_NODE).count();
        let native = rg_jit::native_speculated(&game);
        (mirrored, native.iter().filter(|&&b| b).count())
    };
    assert_eq!(count("ticTacToe"), (2, 0));
    assert_eq!(count("connect4"), (2, 0));
    assert_eq!(count("foxAndHounds"), (3, 0));
    assert_eq!(count("chessSilverman4x5_kingCapture"), (2, 2));
}

/// A speculated check whose generated moves are none is decided by its own
/// code: here it holds (its copy ends before `s == y`, which fails), so
/// `a` is to move with no move, as written, on both engines (the native
/// walk decides this probe itself, `native_speculated`; the interpreter
/// speculates).
#[test]
fn speculation_without_moves_decides_as_written() {
    use rg_engine::playout::Playouts;
    let text = "type Player = {a, b};\ntype Score = {0, 1};\ntype C = {0, 1, 2};\n\
        type S = {x, y};\nvar c: C = 1;\nvar s: S = x;\n\
        begin, y0: ? k1 -> kacc;\ny0, m1: player = a;\nbegin, z0: ! k1 -> kacc;\n\
        z0, end: player = keeper;\nm1, m2: c = C(*);\nm2, m3: c == 0;\nm3, m4: s == y;\n\
        m4, t4: $ go;\nt4, end: player = keeper;\n\
        k1, k2: c = C(*);\nk2, k3: c == 0;\nk3, kacc: ;\n";
    let interp = GameModel::from_text(text).expect("loads");
    assert_eq!(interp.mirror_counts(), (0, 1));
    assert_eq!(rg_jit::native_speculated(&interp), [false]);
    let native = rg_jit::compile(&interp).expect("native code");
    for game in [&interp, &native] {
        let err = Playouts::new(game, 1).run_one().unwrap_err();
        assert!(matches!(err, rg_engine::RunError::NoMove(_)), "{err}");
    }
    // Where the comparison passes, the moves generated ahead are taken.
    let passing = text.replace("s == y", "s == x");
    let interp = GameModel::from_text(&passing).expect("loads");
    let native = rg_jit::compile(&interp).expect("native code");
    let mut s = native.initial_state();
    let mut r = native.reasoner();
    r.complete_keeper(&mut s).expect("the keeper moves");
    let mut moves = MoveList::default();
    r.moves(&mut s, &mut moves).expect("a's moves");
    assert_eq!(moves.len(), 1);
    for game in [&interp, &native] {
        assert_eq!(
            perft(game, 1, Counting::Walks).map(|c| c.leaves).ok(),
            Some(1)
        );
    }
}

#[test]
fn perft_of_the_examples_through_native_code() {
    let Some(dir) = testkit::rg_examples() else {
        return;
    };
    for ext in [".rg", ".hrg"] {
        testkit::check_rg_example_perft(&dir, ext, 5, |file, depth| {
            let game = rg_jit::compile(&load(&dir.join(file))).expect("native code");
            perft(&game, depth, Counting::Walks)
                .unwrap_or_else(|e| panic!("{file}: {}", game.error_text(&e)))
                .leaves
        });
    }
}

/// The library games above exercise every kind of generated check: chess's
/// writing programs (its legality check, from both arms of the in-check
/// test: choices and visited sets) with all its checks as code, English
/// draughts' leaf programs (its board scans unroll the squares), hex's
/// one-slot checks.
#[test]
fn library_checks_are_code() {
    use rg_jit::CheckCode;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../games/hrg");
    let codes = |name: &str| rg_jit::check_codes(&load(&root.join(name)));
    let count =
        |codes: &[CheckCode], f: fn(&CheckCode) -> bool| codes.iter().filter(|c| f(c)).count();
    let chess = codes("chess.hrg");
    assert_eq!(count(&chess, |c| matches!(c, CheckCode::Writing(..))), 2);
    assert_eq!(count(&chess, |c| matches!(c, CheckCode::Interpreted)), 0);
    // Its ~350 legality checks (calls of one reusable check, each entering
    // it by a node of its own) are one function, as are its two writing
    // programs (the two calls of `anyMove`).
    let owners = rg_jit::check_functions(&load(&root.join("chess.hrg")));
    let own = |f: fn(&CheckCode) -> bool| {
        let mut firsts: Vec<u32> = (0..chess.len())
            .filter(|&c| f(&chess[c]))
            .map(|c| owners[c])
            .collect();
        firsts.dedup();
        firsts.len()
    };
    assert_eq!(own(|c| matches!(c, CheckCode::Program(..))), 1);
    assert_eq!(own(|c| matches!(c, CheckCode::Writing(..))), 1);
    let draughts = codes("englishDraughts.hrg");
    assert_eq!(draughts.len(), 44);
    assert!(draughts.iter().all(|c| matches!(c, CheckCode::Program(..))));
    // hex: its four edge searches, nested in one writing program per player.
    let hex = codes("hex.hrg");
    assert_eq!(count(&hex, |c| matches!(c, CheckCode::Slot)), 4);
    assert_eq!(count(&hex, |c| matches!(c, CheckCode::Writing(..))), 2);
}
