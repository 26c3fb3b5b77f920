//! Random small games (most of them improper): loading, perft and playouts
//! always answer — counts or a run-time error — and never panic or hang.

mod common;

use proptest::prelude::*;
use rg_engine::perft::{perft, Counting};
use rg_engine::playout::Playouts;
use rg_engine::GameModel;
use testkit::random_rg::{self, PRAGMAS};

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_games_never_panic(edges in random_rg::edges(1, 14), pragma in 0..PRAGMAS) {
        let text = random_rg::game(&edges, pragma);
        let Ok(game) = GameModel::from_text(&text) else { return Ok(()) };
        let start = std::time::Instant::now();
        if std::env::var_os("ROBUST_TRACE").is_some() {
            eprintln!("CASE\n{text}");
        }
        // The visited checks the analysis leaves out change nothing.
        let checked = rg_lang::parse_str(&text).expect("valid").1;
        let every = GameModel::with_every_check(checked).expect("lowers");
        let depth = common::small_depth(&game);
        if let (Ok(a), Ok(b)) = (perft(&game, depth, Counting::Walks), perft(&every, depth, Counting::Walks)) {
            prop_assert_eq!(a.leaves, b.leaves, "{}", text);
        }
        let _ = perft(&game, depth.min(2), Counting::DistinctMoves);
        let mut p = Playouts::new(&game, 7);
        p.max_moves = 1000;
        for _ in 0..5 {
            let _ = p.run_one();
        }
        prop_assert!(start.elapsed().as_secs_f64() < 30.0, "slow: {:?}\n{}", start.elapsed(), text);
    }
}

/// A `@unique` node on a cycle of empty edges, or of a comparison of maps
/// of different key sets (found by `random_games_never_panic`: 85 s in a
/// debug build when each step looked the maps' types up): the walk cannot see
/// the repetition, so the step bound ends it — an error, quickly.
#[test]
fn unique_cycle_is_an_error_not_a_hang() {
    let head = "type Player = {x};\ntype Score = {0};\n";
    let maps = "type S = {x, y};\ntype T = {x};\ntype C = {0, 1};\nvar row: S -> C = { :0 };\n\
                var col: T -> C = { :0 };\n";
    for body in [
        "begin, end: player = keeper;\nbegin, n1: ;\nn1, n1: ;\n@unique n1;\n",
        "begin, end: player = keeper;\nbegin, n1: ;\nn1, n1: row == col;\n@unique n1;\n",
    ] {
        let text = format!(
            "{head}{}{body}",
            if body.contains("row") { maps } else { "" }
        );
        let game = GameModel::from_text(&text).unwrap();
        let start = std::time::Instant::now();
        let err = perft(&game, 1, Counting::Walks).unwrap_err();
        assert!(
            matches!(err, rg_engine::RunError::TooManyStates { bound: rg_engine::Bound::Steps, limit, .. } if limit == 1 << 25),
            "{err}"
        );
        assert_eq!(
            err.to_string(),
            "a walk followed more than 33554432 edges without a choice"
        );
        assert!(
            start.elapsed().as_secs_f64() < 20.0,
            "{:?}\n{text}",
            start.elapsed()
        );
    }
}

/// 10,000 moves of 1,000 tags each: the move list would grow past the
/// engine's bound on what one state's moves hold, so the enumeration stops
/// with an error instead of taking memory without limit.
#[test]
fn moves_too_large_to_hold_are_an_error() {
    // 100^3 moves of 1,000 tags: more than 2^26 tags.
    let symbols: Vec<String> = (0..100).map(|i| format!("d{i}")).collect();
    let mut text = format!(
        "type Player = {{x}};\ntype Score = {{0}};\ntype D = {{{}}};\nvar a: D = d0;\nvar b: D = d0;\n\
         var c: D = d0;\nbegin, s1: player = x;\ns1, s2: a = D(*);\ns2, s3: b = D(*);\ns3, c0: c = D(*);\n",
        symbols.join(", ")
    );
    for i in 0..1000 {
        text.push_str(&format!("c{i}, c{}: $ a;\n", i + 1));
    }
    text.push_str("c1000, end: player = keeper;\n");
    let game = GameModel::from_text(&text).unwrap();
    let err = perft(&game, 1, Counting::Walks).unwrap_err();
    assert!(
        matches!(err, rg_engine::RunError::MovesTooLarge(n) if n == 1 << 26),
        "{err}"
    );
    assert!(
        err.to_string().contains("moves hold more than 67108864"),
        "{err}"
    );
    assert_eq!(
        game.error_text(&err),
        "game too large for the engine, or improper: \
         a state's moves hold more than 67108864 tags and assignments together"
    );
    // A hundredth of the moves fits: 10,000 moves of 1,000 tags.
    let small = text.replace("s2, s3: b = D(*);", "s2, s3: ;");
    let game = GameModel::from_text(&small).unwrap();
    assert_eq!(perft(&game, 1, Counting::Walks).unwrap().leaves, 10_000);
}

/// A move enumeration whose visited keys carry long tag sequences: 200
/// tags, then a million keys at the checked nodes after three
/// any-assignments. Copying the tags into each key took 200M symbols (the
/// store's bound is 16M); keys hold a sequence's number, so it runs.
#[test]
fn long_tags_in_many_visited_keys() {
    let symbols: Vec<String> = (0..100).map(|i| format!("d{i}")).collect();
    let mut text = format!(
        "type Player = {{x}};\ntype Score = {{0}};\ntype D = {{{}}};\n\
         var a: D = d0;\nvar b: D = d0;\nvar c: D = d0;\nbegin, t0: player = x;\n",
        symbols.join(", ")
    );
    for i in 0..200 {
        text.push_str(&format!("t{i}, t{}: $ d{};\n", i + 1, i % 100));
    }
    text.push_str(
        "t200, u1: a = D(*);\nu1, u2: b = D(*);\nu2, u3: c = D(*);\n\
         u3, u4: a == b;\nu4, u5: b == c;\nu5, u6: $$ a;\nu6, end: player = keeper;\n",
    );
    let (_, checked) = rg_lang::parse_str(&text).unwrap();
    let game = GameModel::with_every_check(checked).unwrap();
    assert_eq!(perft(&game, 1, Counting::Walks).unwrap().leaves, 100);
}
