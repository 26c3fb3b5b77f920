//! Amazons (10x10): perft and random playouts.
//!
//! White has 2176 first moves, the number usually quoted for the opening
//! of Amazons; we did not find a perft table published outside this
//! project with a citable source, so depths 1..2 are checked against the
//! counts of the RBG authors' own implementation (rbg2cpp, the RBG
//! suite's `perft.tsv`: 2176 and 4307152), an independent description of
//! the same rules.

use rbg_engine::perft::perft;

use crate::{load, perft_is, playouts_end};

const FILE: &str = "amazons.rbg";

#[test]
fn perft_matches_reference_at_depth_1() {
    perft_is(&load(FILE), &[2176]);
}

#[test]
#[ignore = "slow: the 10 ignored library tests take 2 min together on 2 cores (session 3)"]
fn perft_matches_reference_at_depth_2() {
    assert_eq!(perft(&load(FILE), 2).unwrap().leaves, 4_307_152);
}

#[test]
fn random_games_end_with_a_winner() {
    let g = load(FILE);
    // Every move puts an arrow on one of the 92 free squares.
    let res = playouts_end(&g, 20, 13, 92);
    for s in &res.scores {
        assert!(
            [[100, 0], [0, 100]].iter().any(|x| x[..] == s[..]),
            "unexpected scores {s:?}"
        );
    }
}
