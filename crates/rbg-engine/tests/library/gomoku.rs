//! Gomoku (15x15, exactly five): perft and random playouts.
//!
//! Nobody can make five before ply 9, so perft at depth d is
//! 225 x 224 x ... x (226 - d) (the falling factorial).

use crate::{load, perft_is, playouts_end};

const FILE: &str = "gomoku.rbg";

#[test]
fn perft_is_falling_factorial_to_depth_2() {
    perft_is(&load(FILE), &[225, 225 * 224]);
}

#[test]
#[ignore = "slow: the 10 ignored library tests take 2 min together on 2 cores (session 3)"]
fn perft_is_falling_factorial_at_depth_3() {
    assert_eq!(
        rbg_engine::perft::perft(&load(FILE), 3).unwrap().leaves,
        225 * 224 * 223
    );
}

#[test]
fn random_games_end_with_win_loss_or_draw() {
    let g = load(FILE);
    let res = playouts_end(&g, 40, 5, 225);
    res.assert_win_loss_draw();
    assert!(res.lengths.iter().all(|&l| l >= 9));
}
