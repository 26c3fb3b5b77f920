//! Checks decided by scanning consecutive slots in place (`sealed::Run`):
//! a probe's "some square holds one of these" over boards longer than a
//! scan's block (eight slots) and shorter, the square found anywhere or
//! nowhere. Perft equals that of the game with every node checked.

use rg_engine::perft::{perft, Counting};
use rg_engine::GameModel;

/// `n` squares holding `e`, `w` or `b` as `board` says; x moves (one move,
/// `go`) when some square is `e`.
fn probe_game(n: usize, board: &str) -> String {
    let squares: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    format!(
        "type Player = {{x, y}};\ntype Score = {{0, 1}};\ntype V = {{{}}};\n\
         type P = {{e, w, b}};\nvar pos: V = 0;\nvar board: V -> P = {board};\n\
         begin, s: player = x;\ns, u: ? q0 -> qacc;\nu, v: $ go;\n\
         v, k: player = keeper;\nk, end: ;\nq0, q1: pos = V(*);\n\
         q1, qacc: board[pos] == e;\n",
        squares.join(", ")
    )
}

#[test]
fn a_probe_finds_a_passing_slot_in_any_block() {
    for n in [3, 7, 8, 9, 16, 17] {
        let mut boards = vec![("{ :w }".to_string(), 0)];
        for at in 0..n {
            boards.push((format!("{{ {at}: e, :b }}"), 1));
        }
        for (board, want) in boards {
            let text = probe_game(n, &board);
            let g = GameModel::from_text(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(g.tables().code.probe_runs(), 1, "{text}");
            let (_, checked) = rg_lang::parse_str(&text).unwrap();
            let every = GameModel::with_every_check(checked).unwrap();
            for g in [&g, &every] {
                assert_eq!(perft(g, 1, Counting::Walks).unwrap().leaves, want, "{text}");
            }
        }
    }
}
