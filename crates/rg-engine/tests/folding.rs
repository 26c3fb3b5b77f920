//! Checks whose programs fold (`program/fold.rs`) and `@disjoint` nodes
//! whose leading leaf checks are scanned (`sealed/scan.rs`), against the
//! same games with every node checked (`GameModel::with_every_check`: no
//! program, no scan).

use rg_engine::perft::{perft, Counting};
use rg_engine::{GameModel, MoveList};

const HEAD: &str = "type Player = {x, y};\ntype Score = {0, 1};\n\
    type V = {0, 1, 2, 3};\ntype P = {e, w, b};\nvar pos: V = 0;\n\
    const next: V -> V = { 0: 1, 1: 2, 2: 3, :0 };\n";

/// The game and the same with every node checked.
fn both(body: &str) -> (GameModel, GameModel) {
    let text = format!("{HEAD}{body}");
    let g = GameModel::from_text(&text).unwrap_or_else(|e| panic!("{e}\n{body}"));
    let (_, checked) = rg_lang::parse_str(&text).unwrap();
    (g, GameModel::with_every_check(checked).unwrap())
}

/// The moves (tag texts) of the first decision.
fn first_moves(g: &GameModel) -> Vec<String> {
    let mut r = g.reasoner();
    let mut s = g.initial_state();
    r.complete_keeper(&mut s).unwrap();
    let mut list = MoveList::default();
    r.moves(&mut s, &mut list).unwrap();
    (0..list.len()).map(|i| g.move_text(&list, i)).collect()
}

/// A `@disjoint` node `s` trying square 0 to 3 in turn: the edge to `sK`
/// is legal if `board[K]` (and the square after it) is as `test` says,
/// through `pos = K` in check `cK`; the move is tagged `mK`.
fn anysquare(board: &str, test: &str) -> String {
    anysquare_with(board, test, '?')
}

/// [`anysquare`] with the edges `? cK` (`sign` `?`) or `! cK`.
fn anysquare_with(board: &str, test: &str, sign: char) -> String {
    let mut t = format!("var board: V -> P = {board};\nbegin, s: player = x;\n");
    for k in 0..4 {
        t += &format!("s, s{k}: {sign} c{k} -> cacc;\ns{k}, u: $ m{k};\nc{k}, ct: pos = {k};\n");
    }
    t += &format!("{test}u, k: player = keeper;\nk, end: ;\n@disjoint s : s0 s1 s2 s3;\n");
    t
}

#[test]
fn a_check_through_a_known_square_is_a_leaf_check_and_scanned() {
    // `pos = K` then `board[pos] == w`: folded to `board[K] == w`, one
    // comparison of a fixed slot (a leaf check), scanned at `s`.
    let test = "ct, cacc: board[pos] == w;\n";
    for (board, want) in [
        ("{ :e }", vec![]),
        ("{ 2: w, :e }", vec!["m2"]),
        ("{ 1: w, 3: w, :e }", vec!["m1"]),
        ("{ 0: b, 3: w, :e }", vec!["m3"]),
    ] {
        let (g, every) = both(&anysquare(board, test));
        assert_eq!(first_moves(&g), want, "{board}");
        assert_eq!(first_moves(&every), want, "{board}");
        let t = g.tables();
        let leaves = (0..t.checks.len() as u32).filter(|&c| t.code.leaf_range(c).is_some());
        assert_eq!(leaves.count(), 4, "{board}");
        assert_eq!(t.code.scanned_edges(), 4);
        assert_eq!(every.tables().code.scanned_edges(), 0);
        // All four at `s` (rg-jit's walks call the scan there).
        let s = g.description().nodes.iter().position(|n| n == "s");
        assert_eq!(t.code.scanned(s.expect("node s") as u32), 4);
        assert_eq!(t.code.scanned(0), 0);
    }
}

#[test]
fn a_check_guarded_by_its_square_is_scanned_square_first() {
    // `board[K] == w` then `board[next[K]] == b`: `? cK` scanned with the
    // first as its guard (the four squares a run), the second tested
    // where it passes; `! cK` unguarded (its check failing makes it legal).
    let test = "ct, c5: board[pos] == w;\nc5, cacc: board[next[pos]] == b;\n";
    for (board, want, not) in [
        ("{ :e }", vec![], vec!["m0"]),
        ("{ 1: w, :e }", vec![], vec!["m0"]),
        ("{ 0: w, 1: b, :e }", vec!["m0"], vec!["m1"]),
        ("{ 0: w, 2: w, 3: b, :e }", vec!["m2"], vec!["m0"]),
        ("{ 3: w, 0: b, :e }", vec!["m3"], vec!["m0"]),
    ] {
        for (sign, want, run) in [('?', want, true), ('!', not, false)] {
            let (g, every) = both(&anysquare_with(board, test, sign));
            assert_eq!(first_moves(&g), want, "{sign} {board}");
            assert_eq!(first_moves(&every), want, "{sign} {board}");
            let t = g.tables();
            let s = g.description().nodes.iter().position(|n| n == "s");
            let s = s.expect("node s") as u32;
            assert_eq!(t.code.scanned(s), 4, "{sign} {board}");
            assert_eq!(t.code.scans_run(s), run, "{sign} {board}");
        }
    }
}

#[test]
fn a_known_comparison_removes_its_branch() {
    // `pos == 2` after `pos = K` is decided: only `c2` goes on to
    // `board[next[pos]] == b`; the other checks never hold.
    let test = "ct, c5: pos == 2;\nc5, cacc: board[next[pos]] == b;\nct, cacc: board[pos] == b;\n";
    for (board, want) in [
        ("{ :e }", vec![]),
        ("{ 3: b, :e }", vec!["m2"]),
        ("{ 1: b, 3: b, :e }", vec!["m1"]),
        ("{ 0: w, :e }", vec![]),
    ] {
        let (g, every) = both(&anysquare(board, test));
        assert_eq!(first_moves(&g), want, "{board}");
        assert_eq!(first_moves(&every), want, "{board}");
        let t = g.tables();
        let leaves = (0..t.checks.len() as u32).filter(|&c| t.code.leaf_range(c).is_some());
        assert_eq!(leaves.count(), 4, "{board}");
        assert_eq!(perft(&g, 2, Counting::Walks).unwrap().leaves, {
            perft(&every, 2, Counting::Walks).unwrap().leaves
        });
    }
}

#[test]
fn a_write_a_nested_check_reads_stays() {
    // `pos = K` then a check of `board[pos]` nested: the write stays (the
    // nested check reads it), no leaf check; the answers are the same.
    let test = "ct, cacc: ? d0 -> dacc;\nd0, dacc: board[pos] == w;\n";
    for (board, want) in [("{ :e }", vec![]), ("{ 2: w, :e }", vec!["m2"])] {
        let (g, every) = both(&anysquare(board, test));
        assert_eq!(first_moves(&g), want, "{board}");
        assert_eq!(first_moves(&every), want, "{board}");
        assert_eq!(g.tables().code.scanned_edges(), 0);
    }
}
