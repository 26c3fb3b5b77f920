//! Nine men's morris (`games/nineMensMorris.rbg`): perft of the placing
//! phase against a count by hand, and random games.
//!
//! No perft of nine men's morris is published as far as we know; the first
//! five plies are simple enough to count:
//! - plies 1-4 put men on distinct points and cannot close a mill (a player
//!   has at most two men): 24, 24·23, 24·23·22, 24·23·22·21;
//! - at ply 5 white's third man closes a mill exactly when white's three
//!   men lie on one of the 16 lines; then white removes one of black's two
//!   men (neither in a mill): 2 moves instead of 1. There are 16·3! orders
//!   of white's men on a line and 21·20 placements of black's two men, so
//!   perft(5) = 24·23·22·21·20 + 16·6·21·20 = 5100480 + 40320 = 5140800.
//!
//! The RBG authors' own mill game (`theMillGame.rbg` of the RBG suite, a
//! separate description) has the same counts, and 99274176 at depth 6.

use crate::{load, perft_is, playouts_end};
use rbg_engine::perft::perft;

#[test]
fn placing_phase_perft_to_depth_5() {
    let g = load("nineMensMorris.rbg");
    let place = |k: u64| (0..k).map(|i| 24 - i).product::<u64>();
    perft_is(
        &g,
        &[
            place(1),
            place(2),
            place(3),
            place(4),
            place(5) + 16 * 6 * 21 * 20,
        ],
    );
}

#[test]
#[ignore = "slow: the 10 ignored library tests take 2 min together on 2 cores (session 3)"]
fn perft_depth_6_as_the_rbg_suite() {
    assert_eq!(
        perft(&load("nineMensMorris.rbg"), 6).unwrap().leaves,
        99274176
    );
}

#[test]
fn random_games_end_with_win_loss_or_draw() {
    let g = load("nineMensMorris.rbg");
    // 18 placements, then at most 100 half-moves after each of at most 14
    // removals (and before the first).
    let res = playouts_end(&g, 100, 5, 18 + 15 * 100);
    res.assert_win_loss_draw();
}
