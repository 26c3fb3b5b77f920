//! English draughts (`games/englishDraughts.rbg`): perft from the start
//! position against the published values, and random games.
//!
//! Source of the published numbers: Aart Bik, "Aart's Computer Checkers
//! Page", section "Perft for Checkers"
//! (<http://www.aartbik.com/MISC/checkers.html>), first posted as "perft for
//! 8x8 Checkers" on the TalkChess forum (CCC), 8 May 2009: perft(1..=10) =
//! 7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564.
//! Like ours, these count captures that differ only in the order of the
//! captured pieces as different moves.

use crate::{load, perft_is, playouts_end};
use rbg_engine::perft::perft;

const PUBLISHED: [u64; 10] = [
    7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564,
];

#[test]
fn perft_to_depth_8() {
    perft_is(&load("englishDraughts.rbg"), &PUBLISHED[..8]);
}

#[test]
#[ignore = "slow: the 10 ignored library tests take 2 min together on 2 cores (session 3)"]
fn perft_depths_9_and_10() {
    let g = load("englishDraughts.rbg");
    assert_eq!(perft(&g, 9).unwrap().leaves, PUBLISHED[8]);
    assert_eq!(perft(&g, 10).unwrap().leaves, PUBLISHED[9]);
}

#[test]
fn random_games_end_with_win_loss_or_draw() {
    let g = load("englishDraughts.rbg");
    // The draw rule bounds a game: at most 12 * 7 moves of men per side and
    // 23 captures, each followed by at most 79 other half-moves.
    let res = playouts_end(&g, 100, 3, (2 * 12 * 7 + 23 + 1) * 80);
    res.assert_win_loss_draw();
}
