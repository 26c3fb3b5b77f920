//! Pig (dice, first to 100): perft against an independent count, a direct
//! recursion over the rules written here (random moves use a ply; random
//! children are distinct states; keeper moves are free).

use crate::{load, perft_is, playouts_end_with};

const FILE: &str = "pig.hrg";

/// Whose move it is and what is pending, as the rules define it.
#[derive(Clone, Copy)]
struct State {
    banked: [u32; 2],
    /// The mover's banked points plus the turn total.
    pending: u32,
    mover: usize,
    /// The die is to be rolled (else the mover chooses).
    rolling: bool,
}

fn count(s: State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if s.rolling {
        (1..=6)
            .map(|roll| {
                if roll == 1 {
                    let next = 1 - s.mover;
                    let t = State {
                        pending: s.banked[next],
                        mover: next,
                        rolling: true,
                        ..s
                    };
                    count(t, depth - 1)
                } else if s.pending + roll >= 100 {
                    // The roller has won: a leaf at any remaining depth > 0
                    // has no moves.
                    u64::from(depth == 1)
                } else {
                    let t = State {
                        pending: s.pending + roll,
                        rolling: false,
                        ..s
                    };
                    count(t, depth - 1)
                }
            })
            .sum()
    } else {
        let again = State { rolling: true, ..s };
        let mut banked = s.banked;
        banked[s.mover] = s.pending;
        let next = 1 - s.mover;
        let hold = State {
            banked,
            pending: banked[next],
            mover: next,
            rolling: true,
        };
        count(again, depth - 1) + count(hold, depth - 1)
    }
}

#[test]
fn perft_matches_an_independent_count() {
    let start = State {
        banked: [0, 0],
        pending: 0,
        mover: 0,
        rolling: true,
    };
    let expected: Vec<u64> = (1..=9).map(|d| count(start, d)).collect();
    assert_eq!(&expected[..4], &[6, 16, 76, 236]);
    perft_is(&load(FILE), &expected);
}

#[test]
fn random_games_end_with_a_winner() {
    playouts_end_with(&load(FILE), 100, &[&[1, 0], &[0, 1]], 1..=100_000);
}
