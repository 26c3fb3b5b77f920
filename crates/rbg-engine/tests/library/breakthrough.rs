//! Breakthrough (8x8): perft and random playouts.
//!
//! No perft of breakthrough published outside this project was found, so
//! depths 1..4 are checked against the counts of the RBG authors' own
//! implementation (rbg2cpp, in the RBG suite's `perft.tsv`), an
//! independent description of the same rules, and depths 1..2 by hand:
//! 22 first moves (8 straight steps of the front pawns plus 14 diagonal
//! ones: two for each of the 6 inner pawns, one for each edge pawn), and
//! 22 replies to each.

use crate::{load, perft_is, playouts_end};

const FILE: &str = "breakthrough.rbg";

#[test]
fn perft_matches_reference_to_depth_4() {
    perft_is(&load(FILE), &[22, 484, 11132, 256036]);
}

#[test]
fn random_games_end_with_a_winner() {
    let g = load(FILE);
    let res = playouts_end(&g, 100, 3, 2 * 16 * 7);
    for s in &res.scores {
        assert!(
            [[100, 0], [0, 100]].iter().any(|x| x[..] == s[..]),
            "unexpected scores {s:?}"
        );
    }
}
