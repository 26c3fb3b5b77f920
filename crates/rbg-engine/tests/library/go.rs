//! Go (9x9, captures, no suicide, no ko, area scoring with komi 7.5):
//! perft and random playouts.
//!
//! Perft at small depths is counted by hand. Every move is a pass or a
//! stone on an empty point; two passes in a row end the game (the ending
//! pass is a leaf at its own depth, the game is not extended). That gives
//! 82, 6643, 531522, 42003441 for d = 1..4 when no move is illegal. The
//! first illegal moves are suicides at ply 4: white into a corner whose two
//! neighbours hold the two black stones. That is 4 corners x 2 orders of
//! the black stones x 79 white replies at ply 2 (the 78 empty points other
//! than the corner and the second neighbour, or a pass) = 632 sequences,
//! so perft(4) = 42003441 - 632 = 42002809. (Captures first happen at
//! ply 4 and change the counts from depth 5 on.) For comparison, the RBG
//! suite's 19x19 Go has 362 and 130683 = 361 x 361 + 362 at depths 1..2,
//! the same count on the bigger board.

use rbg_engine::perft::perft;

use crate::{load, perft_is, playouts_end};

const FILE: &str = "go.rbg";

#[test]
fn perft_matches_hand_count_to_depth_3() {
    perft_is(&load(FILE), &[82, 6643, 531_522]);
}

#[test]
#[ignore = "slow: the 10 ignored library tests take 2 min together on 2 cores (session 3)"]
fn perft_matches_hand_count_at_depth_4_with_suicides() {
    assert_eq!(perft(&load(FILE), 4).unwrap().leaves, 42_002_809);
}

#[test]
fn random_games_end_with_a_winner() {
    let g = load(FILE);
    // The turn limit is 300 moves; with a komi of 7.5 there is no draw.
    let res = playouts_end(&g, 20, 17, 300);
    for s in &res.scores {
        assert!(
            [[100, 0], [0, 100]].iter().any(|x| x[..] == s[..]),
            "unexpected scores {s:?}"
        );
    }
}
