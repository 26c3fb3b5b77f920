//! Tic-tac-toe: the full game tree is known.

use crate::{load, perft_is, playouts_end};

#[test]
fn perft_matches_full_game_tree() {
    let g = load("ticTacToe.rbg");
    perft_is(
        &g,
        &[9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872],
    );
}

#[test]
fn random_games_end_with_win_loss_or_draw() {
    let g = load("ticTacToe.rbg");
    let res = playouts_end(&g, 200, 1, 9);
    res.assert_win_loss_draw();
}

/// Counts the complete games (move sequences that end the game) below `s`.
fn complete_games(r: &mut rbg_engine::Reasoner, s: &rbg_engine::State) -> u64 {
    let mut moves = rbg_engine::MoveList::default();
    r.legal_moves(s, &mut moves).unwrap();
    if moves.is_empty() {
        return 1;
    }
    let mut total = 0;
    for m in moves.iter() {
        let mut t = s.clone();
        total += if r.apply(&mut t, m).unwrap() {
            complete_games(r, &t)
        } else {
            1
        };
    }
    total
}

#[test]
fn complete_games_number_255168() {
    // The well-known number of tic-tac-toe games (move sequences ending in
    // a win or a full board): Steve Schaefer's analysis (mathrec.org), as
    // quoted by Wikipedia's "Tic-tac-toe" article.
    let g = load("ticTacToe.rbg");
    let mut r = g.reasoner();
    assert_eq!(complete_games(&mut r, &g.initial_state()), 255_168);
}
