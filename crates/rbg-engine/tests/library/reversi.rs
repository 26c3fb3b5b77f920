//! Reversi with Othello rules (8x8, passes): perft against published
//! counts, and random playouts.
//!
//! Published perft, a pass counted as one ply and a game that has ended
//! not extended (the definition of our perft):
//! 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571056 for
//! d = 1..10: OEIS A124004 (<https://oeis.org/A124004>). Aart Bik's "Perft
//! for Reversi" (<https://aartbik.blogspot.com/2009/02/perft-for-reversi.html>)
//! has the same values for d = 1..9 but 24571284 at d = 10, because there a
//! game that has ended counts as a leaf at every greater depth (the 228
//! games that end at ply 9, the shortest Othello games, are counted again).
//! Depth 9 is the first where a game can end.

use rbg_engine::perft::perft;

use crate::{load, perft_is, playouts_end};

const FILE: &str = "reversi.rbg";

#[test]
fn perft_matches_published_to_depth_7() {
    perft_is(&load(FILE), &[4, 12, 56, 244, 1396, 8200, 55092]);
}

#[test]
fn perft_matches_published_at_depth_8() {
    assert_eq!(perft(&load(FILE), 8).unwrap().leaves, 390_216);
}

#[test]
#[ignore = "slow: the 10 ignored library tests take 2 min together on 2 cores (session 3)"]
fn perft_matches_published_at_depth_9() {
    assert_eq!(perft(&load(FILE), 9).unwrap().leaves, 3_005_288);
}

#[test]
fn random_games_end_with_win_loss_or_draw() {
    let g = load(FILE);
    // 60 placements at most, plus passes (never two in a row).
    let res = playouts_end(&g, 40, 7, 120);
    res.assert_win_loss_draw();
    // The shortest game is a wipeout after nine plies.
    assert!(res.lengths.iter().all(|&l| l >= 9));
}
