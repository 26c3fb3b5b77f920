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
