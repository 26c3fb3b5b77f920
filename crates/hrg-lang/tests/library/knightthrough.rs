//! Knightthrough (8x8): no perft published outside the RBG project was
//! found; depths 1..4 equal the counts of the RBG suite's description
//! (`knightthrough.rbg` in the suite's `perft.tsv`: 40, 1600, 63520,
//! 2521306), an independent description of the same rules. Depth 1 by
//! hand: knights on row 0 jump two rows up onto row 2 (14 jumps: one from
//! each corner file, two from the others; their one-row jumps hit their own
//! row 1); knights on row 1 jump two rows up (14) and one row up, two files
//! over, onto row 2 (12: one from files a, b, g, h, two from c to f): 40.

use crate::{leaves, load, perft_is, playouts_end_with};

const FILE: &str = "knightthrough.hrg";

#[test]
fn perft_matches_reference_to_depth_3() {
    perft_is(&load(FILE), &[40, 1600, 63520]);
}

#[test]
#[ignore = "slow: about 15 s"]
fn perft_matches_reference_at_depth_4() {
    assert_eq!(leaves(&load(FILE), 4), 2_521_306);
}

#[test]
fn random_games_end_with_a_winner() {
    playouts_end_with(&load(FILE), 100, &[&[100, 0], &[0, 100]], 1..=2 * 16 * 7);
}
