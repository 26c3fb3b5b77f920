//! Slots that keep their initial value (`sealed/fixed.rs`): comparisons of
//! keyed leaf programs that read one are decided at load and left out
//! (`sealed/leaf.rs`). Perft equals that of the game with every node
//! checked (no keyed program), whether the slot is fixed or written.

use rg_engine::perft::{perft, Counting};
use rg_engine::GameModel;

/// Four squares and `n` (off the board, `next[3]`); x and y in turn put a
/// `w` or `b` on an empty square whose next square holds neither `w` nor
/// `b` (a keyed leaf check, reading `board[n]` at square 3); `keeper`
/// runs the keeper's actions after each move.
fn squares(keeper: &str) -> String {
    format!(
        "type Player = {{x, y}};\ntype Score = {{0, 1}};\ntype V = {{n, 0, 1, 2, 3}};\n\
         type Sq = {{0, 1, 2, 3}};\ntype P = {{z, e, w, b}};\nvar pos: V = 0;\n\
         const next: V -> V = {{ 0: 1, 1: 2, 2: 3, :n }};\n\
         const far: V -> V = {{ 0: 2, 1: 3, :n }};\nvar board: V -> P = {{ n: z, :e }};\n\
         begin, s: player = x;\ns, t: pos = Sq(*);\nt, t1: board[pos] == e;\n\
         t1, u: ! q0 -> qacc;\nu, v: $$ pos;\nv, k: player = keeper;\n\
         k, k1: board[pos] = w;\n{keeper}k9, s2: player = y;\nk9, k8: board[0] == z;\nk8, end: player = keeper;\n\
         s2, t2: pos = Sq(*);\n\
         t2, t3: board[pos] == e;\nt3, u2: ! q0 -> qacc;\nu2, v2: $$ pos;\n\
         v2, k2: player = keeper;\nk2, k3: board[pos] = b;\nk3, s: player = x;\n\
         q0, q1: board[next[pos]] == w;\nq1, qacc: board[pos] == e;\n\
         q0, q2: board[next[pos]] == b;\nq2, qacc: ;\n"
    )
}

fn models(text: &str) -> (GameModel, GameModel) {
    let g = GameModel::from_text(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let (_, checked) = rg_lang::parse_str(text).unwrap();
    (g, GameModel::with_every_check(checked).unwrap())
}

#[test]
fn comparisons_of_slots_never_written_are_decided_at_load() {
    // `board[n]` is never written (`pos` only holds squares where a
    // move writes: `Sq(*)`), or is: the keeper writes `w` at
    // `far[pos]`, `n` after a move at square 2 or 3; y's check at an
    // empty square 3 then reads it (decided at load as `z`, y would put
    // a piece there).
    let never = squares("k1, k9: ;\n");
    let written = squares("k1, k4: pos = far[pos];\nk4, k9: board[pos] = w;\n");
    let mut sizes = Vec::new();
    for text in [&never, &written] {
        let (g, every) = models(text);
        assert_eq!(g.tables().code.keyed_leaves(), 1, "{text}");
        assert_eq!(every.tables().code.keyed_leaves(), 0, "{text}");
        for depth in 1..=6 {
            let count = |g: &GameModel| perft(g, depth, Counting::Walks).unwrap().leaves;
            assert_eq!(count(&g), count(&every), "depth {depth}\n{text}");
        }
        sizes.push(g.tables().code.keyed_instructions());
    }
    // Square 3's program reads `board[n]` only: empty when it is fixed.
    assert!(sizes[0] < sizes[1], "{sizes:?}");
}
