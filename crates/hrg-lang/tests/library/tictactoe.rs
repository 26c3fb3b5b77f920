//! Tic-tac-toe: the full game tree is known (9, 72, 504, 3024, 15120,
//! 54720, 148176, 200448, 127872 move sequences of length 1..9; 255168
//! complete games), and equal to our RBG version's.

use crate::{load, perft_is, playouts_end_with};

const FILE: &str = "ticTacToe.hrg";

#[test]
fn perft_matches_the_full_game_tree() {
    perft_is(
        &load(FILE),
        &[9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872, 0],
    );
}

#[test]
fn random_games_end_with_win_loss_or_draw() {
    playouts_end_with(&load(FILE), 300, &[&[100, 0], &[0, 100], &[50, 50]], 5..=9);
}
