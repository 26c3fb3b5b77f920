//! The RG → RG simplification of checks (`hrg_lang::opt`): what it makes
//! of natural HRG, where it must not act, and that it keeps perft.

use std::path::PathBuf;

use rg_engine::perft::{perft, Counting};
use rg_engine::GameModel;

/// Tic-tac-toe as the RG examples write it: the win check assigns `kind`
/// and `at` and reads a three-level constant map.
const TICTACTOE: &str = "domain Player = x | o\ndomain Cell = e | Player\n\
    domain Score = 0 | 50 | 100\ndomain Idx = 0 | 1 | 2\n\
    domain Coord = C(R, K) where R in 0..2, K in 0..2\n\
    domain Kind = row | col | diag | anti\n\
    cellOf : Kind -> Idx -> Idx -> Coord\ncellOf(row, I, J) = C(I, J)\n\
    cellOf(col, I, J) = C(J, I)\ncellOf(diag, _, J) = C(J, J)\n\
    cellOf(anti, _, J) = C(J, 2 - J)\n\
    board : Coord -> Cell = { _ = e }\nhere : Coord\nkind : Kind\nat : Idx\n\
    reusable graph three(who: Player) {\n  kind = Kind(*)\n  at = Idx(*)\n\
      check(board[cellOf(kind, at, 0)] == who)\n  check(board[cellOf(kind, at, 1)] == who)\n\
      check(board[cellOf(kind, at, 2)] == who)\n}\n\
    reusable graph room() {\n  here = Coord(*)\n  check(board[here] == e)\n}\n\
    graph move(me: Player) {\n  player = me\n  here = Coord(*)\n  check(board[here] == e)\n\
      board[here] = me\n  $$ here\n  player = keeper\n\
      if reachable(three(me)) {\n    goals[me] = 100\n    end()\n  }\n\
      if not(reachable(room())) {\n    goals[x] = 50\n    goals[o] = 50\n    end()\n  }\n}\n\
    graph rules() {\n  loop {\n    move(x)\n    move(o)\n  }\n}\n";

fn optimized(text: &str) -> String {
    let (game, _) = hrg_lang::parse_str(text).unwrap_or_else(|e| panic!("{e}"));
    rg_lang::print::print_game(&game)
}

fn perfts(game: rg_lang::Game, depth: usize) -> Vec<u64> {
    let checked = rg_lang::check::check(&game).unwrap_or_else(|e| panic!("{e}"));
    let model = GameModel::new(checked).unwrap();
    (1..=depth)
        .map(|d| perft(&model, d, Counting::Walks).unwrap().leaves)
        .collect()
}

#[test]
fn a_search_over_lines_becomes_comparisons_of_fixed_cells() {
    let t = optimized(TICTACTOE);
    // No assignment left in the checks, `kind` and `at` gone.
    for gone in [
        "kind = Kind(*)",
        "at = Idx(*)",
        "here = Coord(*);\nroom",
        "var kind",
        "var at",
        "cellOf[",
    ] {
        assert!(!t.contains(gone), "`{gone}` in\n{t}");
    }
    // The 12 (kind, at) pairs give the 8 lines: diagonals ignore `at`.
    let first: Vec<&str> = t
        .lines()
        .filter(|l| l.starts_with("three_16, "))
        .map(|l| l.split(": ").nth(1).unwrap())
        .collect();
    assert_eq!(first.len(), 8, "{t}");
    for cell in ["C__0_0", "C__1_0", "C__2_0", "C__0_1", "C__0_2"] {
        assert!(
            first.contains(&format!("board[{cell}] == three_arg0_who;").as_str()),
            "{cell}: {first:?}"
        );
    }
    // Tails shared: 8 first, at most 8 second and 8 third comparisons.
    let compares = t
        .lines()
        .filter(|l| l.contains("== three_arg0_who"))
        .count();
    assert!((16..=24).contains(&compares), "{compares} in\n{t}");
    // The room check: one comparison per cell, no assignment.
    assert_eq!(t.matches("== e;").count(), 9 + 2, "{t}");
    assert_eq!(
        perfts(hrg_lang::parse_str(TICTACTOE).unwrap().0, 9),
        [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
    );
}

#[test]
fn an_assignment_read_once_is_read_in_place() {
    let text = "domain Player = x | o\ndomain Score = 0 | 1\ndomain Dir = n | s\n\
        domain Sq = 0 | 1 | 2 | off\nstep : Sq -> Dir -> Sq\nstep(0, n) = 1\nstep(1, n) = 2\n\
        step(1, s) = 0\nstep(2, s) = 1\nstep(_, _) = off\n\
        board : Sq -> Player = { _ = x }\nfrom : Sq\nto : Sq\nd : Dir\n\
        graph near() {\n  d = Dir(*)\n  to = step(from, d)\n  check(board[to] == o)\n}\n\
        graph rules() {\n  loop {\n    player = x\n    from = Sq(*)\n    $$ from\n    player = keeper\n\
          if reachable(near()) {\n      board[from] = o\n    }\n    if from == off {\n      end()\n    }\n  }\n}\n";
    let t = optimized(text);
    assert!(t.contains(": board[step[from][n]] == o;"), "{t}");
    assert!(t.contains(": board[step[from][s]] == o;"), "{t}");
    assert!(!t.contains("to = ") && !t.contains("d = "), "{t}");
    assert!(!t.contains("var d:") && !t.contains("var to:"), "{t}");
    let plain = hrg_lang::translate_str(text).unwrap();
    assert_eq!(
        perfts(hrg_lang::parse_str(text).unwrap().0, 4),
        perfts(plain, 4)
    );
}

#[test]
fn checks_that_assign_player_or_goals_are_left_alone() {
    // The reference's search merges walks that differ only in `goals`
    // (§7.7): such a check is not touched.
    let text = "domain Player = x | o\ndomain Score = 0 | 1\ndomain K = a | b\n\
        k : K\ngraph probe() {\n  k = K(*)\n  goals[x] = 1\n  check(k == b)\n}\n\
        graph rules() {\n  player = x\n  $ go\n  player = keeper\n\
          if reachable(probe()) {\n    end()\n  }\n  end()\n}\n";
    let t = optimized(text);
    assert!(t.contains(": k = K(*);"), "{t}");
    assert!(t.contains(": k == b;"), "{t}");
}

#[test]
fn library_and_examples_keep_their_perft() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../games/hrg");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "hrg"))
        .collect();
    if let Some(dir) = testkit::rg_examples() {
        files.extend(
            std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "hrg")),
        );
    }
    files.sort();
    assert!(files.len() >= 12, "{files:?}");
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let plain = hrg_lang::translate_str(&text).unwrap();
        let (opt, _) = hrg_lang::parse_str(&text).unwrap();
        let depth = if path.ends_with("chess.hrg") { 2 } else { 3 };
        assert_eq!(
            perfts(opt, depth),
            perfts(plain, depth),
            "{}",
            path.display()
        );
    }
}
