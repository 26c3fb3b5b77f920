//! Connect four (7x6): perft against published counts of move sequences:
//! 7, 49, 343, 2401, 16807, 117649, 823536, 5673234, 39394572 for d = 1..9
//! (the "Gen / Boards" table of `bruteforce_connect_four.c` in
//! <https://github.com/niven/connect4>, games that are over not extended;
//! also our RBG version's test, `crates/rbg-engine/tests/library/connect4.rs`).

use crate::{leaves, load, perft_is, playouts_end_with};

const FILE: &str = "connect4.hrg";

#[test]
fn perft_matches_published_to_depth_7() {
    perft_is(&load(FILE), &[7, 49, 343, 2401, 16807, 117649, 823536]);
}

#[test]
#[ignore = "slow: about 20 s"]
fn perft_matches_published_at_depth_8() {
    // The first depth where wins (four discs at ply 7) cut sequences.
    assert_eq!(leaves(&load(FILE), 8), 5_673_234);
}

#[test]
fn random_games_end_with_win_loss_or_draw() {
    // A win needs at least seven plies, four of the winner.
    playouts_end_with(&load(FILE), 200, &[&[100, 0], &[0, 100], &[50, 50]], 7..=42);
}
