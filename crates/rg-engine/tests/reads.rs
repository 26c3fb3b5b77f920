//! Folded computed reads: a constant map of a semistate map read through
//! the board (`dec[count[board[pos]]]`, RBG translations' piece counters)
//! is one [`Fast::TabIndInd`] read, with the values of the general read.

use rg_engine::perft::{perft, Counting};
use rg_engine::raw::Fast;
use rg_engine::GameModel;

/// Four squares (`w` on 0, `b` on 1, `e` elsewhere), counts per piece
/// (`w` 2, `b` 1, `e` 0) and `rules`.
fn game(rules: &str) -> GameModel {
    let text = format!(
        "type Player = {{x, y}};\ntype Score = {{0, 1}};\ntype V = {{0, 1, 2, 3}};\n\
         type P = {{e, w, b}};\ntype N = {{0, 1, 2, 3}};\nvar pos: V = 0;\n\
         var board: V -> P = {{ 0: w, 1: b, :e }};\nvar count: P -> N = {{ w: 2, b: 1, :0 }};\n\
         const dec: N -> N = {{ 1: 0, 2: 1, 3: 2, :3 }};\n\
         begin, s: player = x;\ns, t: pos = V(*);\n{rules}\
         v, k: player = keeper;\nk, end: ;\n"
    );
    GameModel::from_text(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn leaves(g: &GameModel) -> u64 {
    perft(g, 1, Counting::Walks).unwrap().leaves
}

fn folded(g: &GameModel) -> usize {
    let f = &g.tables().fast;
    f.iter()
        .filter(|f| matches!(f, Fast::TabIndInd(..)))
        .count()
}

#[test]
fn a_constant_map_of_a_counter_through_the_board_is_one_folded_read() {
    // dec[count[board[pos]]]: square 0 (w, 2) gives 1, square 1 (b, 1)
    // gives 0, squares 2 and 3 (e, 0: outside dec's keys) dec's default 3.
    for (value, want) in [("0", 1), ("1", 1), ("2", 0), ("3", 2)] {
        let g = game(&format!(
            "t, u: dec[count[board[pos]]] == {value};\nu, v: $$ pos;\n"
        ));
        assert_eq!(folded(&g), 1, "{value}");
        assert_eq!(leaves(&g), want, "{value}");
    }
}

#[test]
fn a_decremented_counter_reads_back_through_the_fold() {
    // The counter of the piece on the chosen square decremented: only
    // square 0's (w: 2 -> 1) leaves `count[w] == 1`; squares 2 and 3 set
    // e's count to dec's default 3.
    let g = game(
        "t, t1: count[board[pos]] = dec[count[board[pos]]];\n\
         t1, u: count[w] == 1;\nu, v: $$ pos;\n",
    );
    assert_eq!(folded(&g), 1);
    assert_eq!(leaves(&g), 1);
    let g = game(
        "t, t1: count[board[pos]] = dec[count[board[pos]]];\n\
         t1, u: count[e] == 3;\nu, v: $$ pos;\n",
    );
    assert_eq!(leaves(&g), 2);
}
