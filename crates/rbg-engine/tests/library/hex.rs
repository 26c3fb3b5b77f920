//! Hex (11x11, no swap rule): perft and random playouts.
//!
//! Nobody can connect before ply 21, so perft at depth d is
//! 121 x 120 x ... x (122 - d) (the falling factorial).

use crate::{load, perft_is, playouts_end};

const FILE: &str = "hex.rbg";

#[test]
fn perft_is_falling_factorial_to_depth_3() {
    perft_is(&load(FILE), &[121, 121 * 120, 121 * 120 * 119]);
}

#[test]
fn random_games_end_with_a_winner() {
    let g = load(FILE);
    let res = playouts_end(&g, 100, 11, 121);
    for s in &res.scores {
        assert!(
            [[100, 0], [0, 100]].iter().any(|x| x[..] == s[..]),
            "unexpected scores {s:?}"
        );
    }
    // A chain across the board needs 11 stones of the winner.
    assert!(res.lengths.iter().all(|&l| l >= 21));
}
