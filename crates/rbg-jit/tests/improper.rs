//! Descriptions that are not proper, or push the engine to its limits: each
//! gets an error (or a cut playout), never a crash or a hang (issue 12),
//! from both engines: the interpreter and the native code.

use rbg_engine::limits;
use rbg_engine::perft::perft;
use rbg_engine::playout::Playouts;
use rbg_engine::{ErrorKind, GameError, GameModel, MoveList};
use rbg_lang::SourceFile;

/// A one-player game on a 2x2 board with the given rules.
fn text(rules: &str) -> String {
    format!(
        "#players = a(1)\n#pieces = e, w\n#variables = v(100000)\n\
         #board = rectangle(up, down, left, right, [e, e] [e, e])\n#rules = {rules}\n"
    )
}

/// The game of [`text`] loaded from file `g.rbg`, played by each engine.
fn game(rules: &str) -> [GameModel; 2] {
    let file = SourceFile::new("g.rbg", text(rules));
    let model = GameModel::load(&file).unwrap_or_else(|d| panic!("{d}"));
    engines(&model)
}

/// `g` played by the interpreter and by native code.
fn engines(g: &GameModel) -> [GameModel; 2] {
    let native = rbg_jit::compile(g).expect("code generation");
    [g.interpreted(), native]
}

/// The error of building the game of [`text`]: the keeper's completion of
/// the initial state failed. Checks the same error comes from `load` (as a
/// diagnostic at `g.rbg:5:col`) and `from_text` (at the same place).
fn initial_error(rules: &str, col: usize) -> GameError {
    let text = text(rules);
    let e = GameModel::new(rbg_lang::parse_str(&text).unwrap()).unwrap_err();
    let d = GameModel::load(&SourceFile::new("g.rbg", text.clone())).unwrap_err();
    assert_eq!((d.line, d.column), (5, col), "{d}");
    assert_eq!(d.message(), e.kind().message());
    let f = GameModel::from_text(&text).unwrap_err();
    assert_eq!(
        f.span,
        rbg_lang::parse_str_with_spans(&text).unwrap().1[e.action().unwrap()]
    );
    e
}

/// The moves of the initial state, or the error on the way.
fn moves(g: &GameModel) -> Result<usize, GameError> {
    let s = g.initial_state();
    let mut list = MoveList::default();
    g.reasoner().legal_moves(&s, &mut list)?;
    Ok(list.len())
}

/// The error of applying the first legal move of the initial state (the
/// keeper's completion after it fails).
fn first_move_error(g: &GameModel) -> GameError {
    let mut s = g.initial_state();
    let mut list = MoveList::default();
    let mut r = g.reasoner();
    r.legal_moves(&s, &mut list).unwrap();
    let m = list.get(0).to_vec();
    r.apply(&mut s, &m).unwrap_err()
}

/// Runs `f` on a thread with the default 2 MiB stack of spawned threads
/// (the time bound only catches a hang).
fn small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    testkit::on_small_stack("improper", std::time::Duration::from_secs(600), f)
}

/// Asserts `e` is `kind`, located at 5:`col` of `g.rbg` (the rules line).
fn located(e: &GameError, kind: ErrorKind, col: usize) {
    assert_eq!(e.kind(), &kind, "{e}");
    located_at(e, &format!("g.rbg:5:{col}"));
}

/// Asserts `e` is located at `at` (`file:line:column`).
fn located_at(e: &GameError, at: &str) {
    let text = e.to_string();
    assert!(text.starts_with(&format!("{at}: error: ")), "{text}");
}

#[test]
fn modifiers_repeating_in_a_move_are_an_endless_move() {
    small_stack(|| {
        // `->a [e]*`: `[e]` again and again on the same square.
        for g in game("->a [e]*") {
            let e = moves(&g).unwrap_err();
            located(&e, ErrorKind::EndlessMove, 15);
            assert!(e.kind().is_improper());
            assert!(e.to_string().contains("a move can go on forever"), "{e}");
        }
        // In the keeper's completion before the first move: the game does
        // not load.
        let e = initial_error("[$ v = 1]* ->a", 13);
        assert_eq!(e.kind(), &ErrorKind::EndlessMove);
        // A macro of two modifiers under a star: the cycle has length 2.
        // (Either modifier may be named, whichever comes back first.)
        for g in game("->a ([w] [e])*") {
            assert_eq!(moves(&g).unwrap_err().kind(), &ErrorKind::EndlessMove);
        }
        // Inside a pattern that never holds. (`{? [w]*}` holds at once: the
        // engine never tries the endless words, as a pattern needs one
        // accepting path.)
        for g in game("->a {? [w]* {w} {e}} ->a") {
            located(&moves(&g).unwrap_err(), ErrorKind::EndlessMove, 18);
        }
        // Around a ring: back to the first square, all `w`.
        let ring = "#players = a(1)\n#pieces = e, w\n#variables =\n\
            #board = v0[e]{r:v1} v1[e]{r:v2} v2[e]{r:v0}\n#rules = ->a ([w] r)* ->a";
        for g in engines(&GameModel::from_text(ring).unwrap()) {
            let e = moves(&g).unwrap_err();
            assert_eq!(e.kind(), &ErrorKind::EndlessMove);
            // Without a source file the error says what, not where.
            assert!(
                e.to_string()
                    .starts_with("error: the description is not proper"),
                "{e}"
            );
        }
        // Perft and playouts answer the same.
        for g in game("->a [e]*") {
            assert_eq!(perft(&g, 3).unwrap_err().kind(), &ErrorKind::EndlessMove);
            let mut p = Playouts::new(&g, 1).unwrap();
            assert_eq!(p.run_one().unwrap_err().kind(), &ErrorKind::EndlessMove);
        }
        // A keeper's move that can go on forever.
        for g in game("->a ->> [w] [e]* ->a") {
            located(&first_move_error(&g), ErrorKind::EndlessMove, 23);
        }
    });
}

#[test]
fn a_star_no_move_reaches_is_proper() {
    for g in game("->a {w} [e]* ->a") {
        // `{w} [e]*`: no `w` on the board, so no move gets to the star.
        assert_eq!(moves(&g).unwrap(), 0);
    }
    for g in game("[w] ->a {w} [e]* ->a") {
        // Once a `w` is there, the move can go on forever.
        assert_eq!(moves(&g).unwrap_err().kind(), &ErrorKind::EndlessMove);
    }
}

#[test]
fn long_moves_that_do_not_repeat_are_counted_or_hit_the_limit() {
    small_stack(|| {
        for g in game("->a ([$ v = v + 1] {$ v <= 100})* ->a") {
            // 0 to 100 increments and a switch: 101 moves, none endless,
            // and deeper than the levels where the engine starts watching.
            assert_eq!(moves(&g).unwrap(), 101);
        }
        for g in game("->a [$ v = v + 1]* ->a") {
            // Up to 100000 increments: past the engine's limit of levels
            // (the native engine's is lower when its frames are large).
            let e = moves(&g).unwrap_err();
            assert!(
                matches!(e.kind(), ErrorKind::LongMove { limit } if *limit <= limits::MAX_LEVELS),
                "{e}"
            );
            assert!(!e.kind().is_improper());
            assert!(e.to_string().contains("the engine's limit"), "{e}");
        }
    });
}

#[test]
fn exponentially_many_moves_hit_the_list_limit() {
    for g in game("->a ([e] + [w])^30 ->a") {
        // 2^30 moves of 31 modifier applications each.
        let e = moves(&g).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::ManyMoves { .. }), "{e}");
        located(&e, e.kind().clone(), 29);
    }
}

#[test]
fn an_endless_keeper_completion_is_an_error() {
    let e = initial_error("(->> [e])*", 11);
    assert_eq!(e.kind(), &ErrorKind::EndlessKeeper);
    for g in game("->a (->> [w] ->> [e])*") {
        // The keeper alternates two states: found as well.
        located(&first_move_error(&g), ErrorKind::EndlessKeeper, 23);
    }
    for g in game("->> ({$ v < 1000} [$ v = v + 1] ->>)* {$ v == 1000} ->a ->a") {
        // A long but finite completion is fine: 1000 keeper moves.
        assert_eq!(moves(&g).unwrap(), 1);
    }
}

#[test]
fn a_game_that_never_ends_is_cut() {
    for g in game("(->a)*") {
        assert_eq!(perft(&g, 1000).unwrap().leaves, 1);
        let mut p = Playouts::new(&g, 1).unwrap().with_max_length(5000);
        assert_eq!(p.run_one().unwrap(), 5000);
        assert_eq!(p.stats.cut, 1);
        // A deadline stops a playout in the middle (the bound catches a
        // hang, not speed).
        let mut p = Playouts::new(&g, 1).unwrap().with_max_length(u64::MAX);
        let t = std::time::Instant::now();
        let deadline = t + std::time::Duration::from_millis(100);
        assert_eq!(p.run_one_until(deadline).unwrap(), None);
        assert!(t.elapsed() < std::time::Duration::from_secs(20));
        assert_eq!(p.stats.playouts, 0);
    }
}

#[test]
fn perft_of_a_huge_depth_allocates_per_depth_reached() {
    // Tic-tac-toe ends by depth 9: depth 10^11 costs nothing more.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../games/ticTacToe.rbg"
    ))
    .unwrap();
    for g in engines(&GameModel::from_text(&text).unwrap()) {
        let c = perft(&g, 99_999_999_999).unwrap();
        assert_eq!(c.leaves, 0);
        assert_eq!(c.states, 549_946);
    }
}

#[test]
fn an_exponential_search_without_moves_hits_the_budget() {
    for g in game("->a ([e] + [w])^30 {w} {e} ->a") {
        // 2^30 prefixes, none of which ends in a move.
        let t = std::time::Instant::now();
        let e = moves(&g).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::LongSearch { .. }), "{e}");
        eprintln!("{}: budget reached in {:?}", g.engine_name(), t.elapsed());
    }
}

#[test]
fn the_deepest_nesting_the_parser_accepts_runs_on_a_small_stack() {
    small_stack(|| {
        let depth = rbg_lang::parse::MAX_NESTING - 1;
        // Patterns in patterns, each with a modifier: a walk per level.
        let patterns = format!(
            "->a {} [w] {} ->a",
            "{? [w] ".repeat(depth),
            "}".repeat(depth)
        );
        // Stars in stars around endless modifiers.
        let stars = format!("->a {} [e] {} ->a", "(".repeat(depth), ")*".repeat(depth));
        for (rules, expected) in [(patterns, Ok(1)), (stars, Err(ErrorKind::EndlessMove))] {
            let [g, native] = game(&rules);
            let got = moves(&g).map_err(|e| e.kind().clone());
            assert_eq!(got, expected, "{rules:.60}");
            assert_eq!(moves(&native).map_err(|e| e.kind().clone()), expected);
            let text = rbg_lang::print::print_game(g.description());
            assert_eq!(rbg_lang::parse_str(&text).as_ref(), Ok(g.description()));
            let _ = rbg_lang::analysis::Summary::of(g.description());
            let _ = rbg_lang::analysis::endless::endless_stars(g.description());
        }
    });
}

#[test]
fn rules_whose_automaton_would_be_quadratic_are_refused() {
    // A star over a sum of 20000 actions: 400 million transitions.
    let sum = vec!["[e]"; 20_000].join(" + ");
    let t = std::time::Instant::now();
    let e = GameModel::new(rbg_lang::parse_str(&text(&format!("->a ({sum})* ->a"))).unwrap())
        .unwrap_err();
    assert!(t.elapsed() < std::time::Duration::from_secs(20));
    assert!(matches!(e.kind(), ErrorKind::LargeRules { .. }), "{e}");
    // It points at the star's body.
    assert_eq!(e.action(), Some(1));
}

#[test]
fn the_deepest_move_of_a_game_with_large_frames_runs_on_a_small_stack() {
    // Arimaa's walk has the suite's largest stack frame (about 5 KB): its
    // native searches take fewer levels, so that they fit 1 MiB of stack.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/rbg-suite/games/arimaa.rbg"
    );
    let Ok(text) = std::fs::read_to_string(path) else {
        assert!(std::env::var_os("CI").is_none(), "suite missing under CI");
        return;
    };
    let text = text
        .replacen("#variables = ", "#variables = deep(100000), ", 1)
        .replacen(
            "#rules =",
            "#rules = ->gold [$ deep = deep + 1]* ->silver",
            1,
        );
    let g = GameModel::load(&SourceFile::new("arimaa.rbg", text)).unwrap();
    small_stack(move || {
        for g in engines(&g) {
            let e = moves(&g).unwrap_err();
            let ErrorKind::LongMove { limit } = *e.kind() else {
                panic!("{e}")
            };
            assert!(limit <= limits::MAX_LEVELS, "{e}");
            located_at(&e, "arimaa.rbg:196:20");
        }
    });
}
