//! English draughts (`games/hrg/englishDraughts.hrg`, the rules of
//! `games/englishDraughts.rbg`): perft from the start position against the
//! published values, and random games.
//!
//! Source: Aart Bik, "Aart's Computer Checkers Page", "Perft for Checkers"
//! (<http://www.aartbik.com/MISC/checkers.html>): perft(1..=10) = 7, 49,
//! 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564, counting
//! captures that differ only in the order of the captured pieces as
//! different moves, as ours do.

use crate::{leaves, load, perft_is, playouts_end_with};

const FILE: &str = "englishDraughts.hrg";

#[test]
fn perft_to_depth_5() {
    perft_is(&load(FILE), &[7, 49, 302, 1469, 7361]);
}

#[test]
#[ignore = "slow: about 1 min"]
fn perft_depths_6_to_8() {
    let g = load(FILE);
    assert_eq!(leaves(&g, 6), 36_768);
    assert_eq!(leaves(&g, 7), 179_740);
    assert_eq!(leaves(&g, 8), 845_931);
}

#[test]
fn random_games_end_properly() {
    playouts_end_with(
        &load(FILE),
        20,
        &[&[100, 0], &[0, 100], &[50, 50]],
        1..=2000,
    );
}
