//! A translation's modifier chains taken without the walk's dispatch
//! (`walk/run.rs`: `$$ v`, then `$ s`, then `board[x] = c` or `player =
//! p`, run in the first one's arm): every tag of the chain recorded, its
//! write done, its move ended, and a check's walk stopping at its target
//! inside the chain.

use rg_engine::{GameModel, MoveList};

/// Four squares holding `e`, `w` or `b` as `board` says. `x` picks a `w`
/// square (`pos`) when check `? c0 -> {target}` holds, empties it (tags
/// `$$ pos $ i0`), steps to the next square and ends there (`$$ pos $ i1`);
/// then the keeper, and `x` again (`end` only where square 0 is `b`). The
/// check's walk is a chain of its own (`$$ pos $ z`, `board[pos] = b`),
/// dead at `c3`: it holds if it reaches `target` on the way. Its cycle
/// back to `c0` (never taken: `pos` holds `w`) makes it a walk of its own,
/// not a leaf program.
fn chain_game(board: &str, target: &str) -> String {
    format!(
        "type Player = {{x, y}};\ntype Score = {{0, 1}};\n\
         type V = {{0, 1, 2, 3}};\ntype P = {{e, w, b}};\ntype T = {{i0, i1, z}};\n\
         var pos: V = 0;\nvar board: V -> P = {board};\n\
         const next: V -> V = {{ 0: 1, 1: 2, 2: 3, :0 }};\n\
         begin, s: player = x;\nbegin, end: board[0] == b;\ns, a: pos = V(*);\na, b: board[pos] == w;\n\
         b, b1: ? c0 -> {target};\n\
         b1, c: $$ pos;\nc, d: $ i0;\nd, f: board[pos] = e;\n\
         f, g: pos = next[pos];\ng, h: $$ pos;\nh, k: $ i1;\nk, l: player = keeper;\n\
         l, s: player = x;\n\
         c0, ct: $$ pos;\nct, c2: $ z;\nc2, c3: board[pos] = b;\n\
         c0, cq: board[pos] == e;\ncq, c0: board[pos] = b;\n"
    )
}

/// The move texts of `x`'s first decision, then of its next one after the
/// first move of the list.
fn two_decisions(g: &GameModel) -> (Vec<String>, Vec<String>) {
    let mut r = g.reasoner();
    let mut s = g.initial_state();
    let mut list = MoveList::default();
    let mut texts = || {
        r.complete_keeper(&mut s).unwrap();
        r.moves(&mut s, &mut list).unwrap();
        let texts: Vec<_> = (0..list.len()).map(|i| g.move_text(&list, i)).collect();
        if !list.is_empty() {
            r.apply(&mut s, &list, 0);
        }
        texts
    };
    (texts(), texts())
}

#[test]
fn modifier_chains_record_every_tag_and_write() {
    // The check's walk reaches its target after `$$ pos`, after `$ z`, or
    // at its end: the chain stops there, not at its dead end.
    for target in ["ct", "c2", "c3"] {
        let text = chain_game("{ 1: w, 3: w, :e }", target);
        let g = GameModel::from_text(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        // The check run as a walk of its own, not a cheaper form.
        let (_, checked) = rg_lang::parse_str(&text).unwrap();
        let every = GameModel::with_every_check(checked).unwrap();
        for g in [&g, &every] {
            let (first, next) = two_decisions(g);
            assert_eq!(first, ["3 i0 0 i1", "1 i0 2 i1"], "{text}");
            // Square 3 emptied by the first move.
            assert_eq!(next, ["1 i0 2 i1"], "{text}");
        }
    }
}
