//! Breakthrough (8x8): no perft published outside the RBG project was
//! found; depths 1..4 equal the counts of the RBG authors' implementation
//! (the RBG suite's `perft.tsv`: 22, 484, 11132, 256036) and depth 5 our
//! RBG version's (6182818), two independent descriptions of the same rules.
//! By hand: 22 first moves (8 straight steps of the front pawns, 14
//! diagonal ones) and 22 replies to each.

use crate::{leaves, load, perft_is, playouts_end_with};

const FILE: &str = "breakthrough.hrg";

#[test]
fn perft_matches_reference_to_depth_4() {
    perft_is(&load(FILE), &[22, 484, 11132, 256036]);
}

#[test]
#[ignore = "slow: about 10 s"]
fn perft_matches_the_rbg_version_at_depth_5() {
    assert_eq!(leaves(&load(FILE), 5), 6_182_818);
}

#[test]
fn random_games_end_with_a_winner() {
    // Every move advances a pawn: at most 2 x 16 x 6 moves.
    playouts_end_with(&load(FILE), 100, &[&[100, 0], &[0, 100]], 1..=2 * 16 * 6);
}
