//! Connect four (7 columns x 6 rows): perft against published counts of
//! move sequences, and random playouts.
//!
//! Published perft (move sequences of length d; a game that ended earlier
//! is not extended, a game that ends at ply d counts):
//! 7, 49, 343, 2401, 16807, 117649, 823536, 5673234, 39394572 for d = 1..9,
//! from the comment on `generate_option_1` in `bruteforce_connect_four.c`
//! of <https://github.com/niven/connect4> ("Gen / Boards" table: every
//! board generated at generation d, games that are over are not extended).
//! Note OEIS A212693 (1, 7, 49, 238, 1120, ...) counts distinct positions,
//! not move sequences, so it is not perft.

use rbg_engine::perft::perft;

use crate::{load, perft_is, playouts_end};

const FILE: &str = "connect4.rbg";

#[test]
fn perft_matches_published_to_depth_7() {
    // Up to ply 6 nothing can end or fill a column: 7^d. Ply 7 is 7^7 - 7
    // (the seven sequences stacking one column have no seventh move there).
    perft_is(&load(FILE), &[7, 49, 343, 2401, 16807, 117649, 823536]);
}

#[test]
fn perft_matches_published_at_depth_8() {
    // Depth 8 is the first where wins (four discs of the first player at
    // ply 7) cut sequences.
    assert_eq!(perft(&load(FILE), 8).unwrap().leaves, 5_673_234);
}

#[test]
#[ignore = "slow: the 10 ignored library tests take 2 min together on 2 cores (session 3)"]
fn perft_matches_published_at_depth_9() {
    assert_eq!(perft(&load(FILE), 9).unwrap().leaves, 39_394_572);
}

#[test]
fn random_games_end_with_win_loss_or_draw() {
    let g = load(FILE);
    let res = playouts_end(&g, 300, 4, 42);
    res.assert_win_loss_draw();
    // A win needs at least seven plies.
    assert!(res.lengths.iter().all(|&l| (7..=42).contains(&l)));
}
