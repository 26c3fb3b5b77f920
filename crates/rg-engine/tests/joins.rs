//! Exclusive joins (`analysis/joins.rs`): nodes entered by several edges
//! whose walks split at tests that cannot both pass need no visited check;
//! against the same games with every node checked
//! (`GameModel::with_every_check`).

use rg_engine::perft::{perft, Counting};
use rg_engine::raw::Guard;
use rg_engine::GameModel;

const HEAD: &str = "type Player = {x, y};\ntype Score = {0, 1};\n\
    type V = {0, 1, 2, 3};\ntype P = {e, w, b};\ntype T = {0, 1, 2};\n\
    const next: V -> V = { 0: 1, 1: 2, 2: 3, :0 };\n\
    const t0: T -> Bool = { 0: 1, :0 };\nconst t1: T -> Bool = { 1: 1, :0 };\n\
    const t2: T -> Bool = { 2: 1, :0 };\n\
    var board: V -> P = { :e };\nvar pos: V = 0;\nvar tmp: T = 0;\n";

/// The game and the same with every node checked.
fn both(body: &str) -> (GameModel, GameModel) {
    let text = format!("{HEAD}{body}");
    let g = GameModel::from_text(&text).unwrap_or_else(|e| panic!("{e}\n{body}"));
    let (_, checked) = rg_lang::parse_str(&text).unwrap();
    (g, GameModel::with_every_check(checked).unwrap())
}

/// The visited check of node `name`.
fn guard(g: &GameModel, name: &str) -> Guard {
    let t = g.tables();
    let node = (0..t.nodes.len() as u32)
        .find(|&n| g.node_name(n) == name)
        .unwrap_or_else(|| panic!("no node {name}"));
    t.nodes[node as usize].guard
}

/// The leaves at depths 1 to `depth`.
fn leaves(g: &GameModel, depth: usize) -> Vec<u64> {
    (1..=depth)
        .map(|d| perft(g, d, Counting::Walks).unwrap().leaves)
        .collect()
}

/// `x` marks an empty square and stores the next square's piece in `tmp`
/// (three branches on `board[next[pos]]` meeting at `j`); the keeper
/// writes the next square by `tmp` (three branches on `t0[tmp]`,
/// `t1[tmp]`, `t2[tmp]` meeting at `kj`), scores by `? two` / `! two`
/// (meeting at `kw`) and ends the game when no square is empty; `y`
/// marks an empty square.
const ROTATE: &str = "begin, s: player = x;\n\
    s, a: pos = V(*);\na, a1: board[pos] == e;\na1, a2: $$ pos;\na2, a3: board[pos] = w;\n\
    a3, b0: board[next[pos]] == e;\nb0, j: tmp = 0;\n\
    a3, b1: board[next[pos]] == w;\nb1, j: tmp = 1;\n\
    a3, b2: board[next[pos]] == b;\nb2, j: tmp = 2;\n\
    j, k: player = keeper;\n\
    k, c0: t0[tmp] == 1;\nc0, kj: board[next[pos]] = w;\n\
    k, c1: t1[tmp] == 1;\nc1, kj: board[next[pos]] = b;\n\
    k, c2: t2[tmp] == 1;\nc2, kj: board[next[pos]] = e;\n\
    kj, w1: ? two -> tacc;\nw1, kw: goals[x] = 1;\n\
    kj, w2: ! two -> tacc;\nw2, kw: goals[x] = 0;\n\
    kw, n1: ? empty -> eacc;\nn1, t: player = y;\n\
    kw, n2: ! empty -> eacc;\nn2, end: player = keeper;\n\
    t, ta: pos = V(*);\nta, ta1: board[pos] == e;\nta1, ta2: $$ pos;\nta2, ta3: board[pos] = b;\n\
    ta3, kk: player = keeper;\n\
    kk, q1: ? empty -> eacc;\nq1, s: player = x;\n\
    kk, q2: ! empty -> eacc;\nq2, end: player = keeper;\n\
    two, two1: board[0] == w;\ntwo1, tacc: board[1] == w;\n\
    empty, e1: pos = V(*);\ne1, eacc: board[pos] == e;\n";

#[test]
fn exclusive_branches_meet_without_a_visited_check() {
    let (g, every) = both(ROTATE);
    for node in ["j", "kj", "kw"] {
        assert_eq!(guard(&g, node), Guard::None, "{node}");
        assert_ne!(guard(&every, node), Guard::None, "{node}");
    }
    let want = leaves(&every, 6);
    assert_eq!(want, vec![4, 8, 8, 4, 0, 0]);
    assert_eq!(leaves(&g, 6), want);
}

#[test]
fn branches_that_both_pass_keep_the_check() {
    // `board[next[pos]] != w` passes with `== e`: two walks of one square
    // may meet at `j`.
    let (g, every) = both(&ROTATE.replace(
        "a3, b1: board[next[pos]] == w;",
        "a3, b1: board[next[pos]] != w;",
    ));
    assert_ne!(guard(&g, "j"), Guard::None);
    assert_eq!(guard(&g, "kj"), Guard::None);
    assert_eq!(leaves(&g, 4), leaves(&every, 4));
}

#[test]
fn branches_that_write_what_keys_differ_in_keep_the_check() {
    // `a` is entered twice (square 0 `b`, then as it was, `e`): keys that
    // differ in the board; the exclusive branches both write `w` there,
    // so the two walks meet at `j` with one key and are one move.
    let body = "begin, s: player = x;\n\
        s, x1: board[pos] = b;\nx1, a: ;\ns, a: ;\n\
        a, b1: board[pos] == e;\nb1, j: board[pos] = w;\n\
        a, b2: board[pos] == b;\nb2, j: board[pos] = w;\n\
        j, m: $ go;\nm, k: player = keeper;\nk, end: player = keeper;\n";
    let (g, every) = both(body);
    assert_ne!(guard(&g, "a"), Guard::None);
    assert_ne!(guard(&g, "j"), Guard::None);
    assert_eq!(leaves(&every, 1), vec![1]);
    assert_eq!(leaves(&g, 1), vec![1]);
}
