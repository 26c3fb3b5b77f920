//! A switch (`switch.rs`) entered from the walk's chain (`walk/run.rs`,
//! `Walker::enter`): the last edge of its range taken without its
//! comparison tested or dispatched, the edges below it from a frame; a
//! choice entered after it goes on past an edge's comparison only where
//! that comparison passed.

use rg_engine::{GameModel, MoveList};

/// Four squares holding `e`, `w` or `b` as `board` says. `x` picks a square
/// (`pos`), then node `a` is a switch on `board[pos]`: `== w` (tag `w1`),
/// `== b` (into node `c`'s choice of tags `b1` and `b2`), `we[..] == 1`
/// (`w` or `e`, tag `w2`). On a `w` the first and the last edge pass and
/// the middle one fails.
fn switch_game(board: &str) -> String {
    format!(
        "type Player = {{x, y}};\ntype Score = {{0, 1}};\n\
         type V = {{0, 1, 2, 3}};\ntype P = {{e, w, b}};\ntype T = {{w1, w2, b1, b2}};\n\
         const we: P -> Score = {{ w: 1, e: 1, :0 }};\n\
         var pos: V = 0;\nvar board: V -> P = {board};\n\
         begin, s: player = x;\ns, a: pos = V(*);\n\
         a, m1: board[pos] == w;\na, c: board[pos] == b;\na, m2: we[board[pos]] == 1;\n\
         m1, t1: $$ pos;\nt1, k: $ w1;\n\
         c, d1: $$ pos;\nd1, k: $ b1;\nc, d2: $$ pos;\nd2, k: $ b2;\n\
         m2, t2: $$ pos;\nt2, k: $ w2;\n\
         k, end: player = keeper;\n"
    )
}

/// The move texts of `x`'s first decision.
fn first_decision(g: &GameModel) -> Vec<String> {
    let mut r = g.reasoner();
    let mut s = g.initial_state();
    let mut list = MoveList::default();
    r.complete_keeper(&mut s).unwrap();
    r.moves(&mut s, &mut list).unwrap();
    (0..list.len()).map(|i| g.move_text(&list, i)).collect()
}

#[test]
fn a_switch_entered_inline_takes_its_ranges_edges_in_order() {
    let cases: [(&str, &[&str]); 3] = [
        (
            "{ 0: w, 1: b, 2: e, :b }",
            &["3 b2", "3 b1", "2 w2", "1 b2", "1 b1", "0 w2", "0 w1"],
        ),
        (
            "{ :w }",
            &[
                "3 w2", "3 w1", "2 w2", "2 w1", "1 w2", "1 w1", "0 w2", "0 w1",
            ],
        ),
        (
            "{ 1: w, :b }",
            &[
                "3 b2", "3 b1", "2 b2", "2 b1", "1 w2", "1 w1", "0 b2", "0 b1",
            ],
        ),
    ];
    for (board, want) in cases {
        let text = switch_game(board);
        let g = GameModel::from_text(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let t = g.tables();
        assert!(
            t.nodes
                .iter()
                .any(|n| n.switch != u32::MAX && n.end == n.first + 3),
            "a switch of three edges"
        );
        let (_, checked) = rg_lang::parse_str(&text).unwrap();
        let every = GameModel::with_every_check(checked).unwrap();
        assert_eq!(first_decision(&g), want, "{board}");
        assert_eq!(first_decision(&every), want, "{board} with every check");
    }
}
