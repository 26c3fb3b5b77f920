//! Reversi with Othello rules (8x8, forced passes): perft against the
//! published counts, a pass counted as one ply and a game that has ended not
//! extended: 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288 for d = 1..9
//! (OEIS A124004, <https://oeis.org/A124004>; Aart Bik, "Perft for
//! Reversi", <https://aartbik.blogspot.com/2009/02/perft-for-reversi.html>;
//! also our RBG version's test).

use crate::{leaves, load, perft_is, playouts_end_with};

const FILE: &str = "reversi.hrg";

#[test]
fn perft_matches_published_to_depth_6() {
    perft_is(&load(FILE), &[4, 12, 56, 244, 1396, 8200]);
}

#[test]
#[ignore = "slow: about 3 s"]
fn perft_matches_published_at_depth_7() {
    assert_eq!(leaves(&load(FILE), 7), 55_092);
}

#[test]
#[ignore = "slow: about 20 s"]
fn perft_matches_published_at_depth_8() {
    assert_eq!(leaves(&load(FILE), 8), 390_216);
}

#[test]
fn random_games_end_with_win_loss_or_draw() {
    // 60 placements at most, plus passes (never two in a row).
    playouts_end_with(&load(FILE), 20, &[&[100, 0], &[0, 100], &[50, 50]], 1..=120);
}
