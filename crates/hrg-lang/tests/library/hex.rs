//! Hex (11x11, no swap): every move fills one of the empty cells and no
//! chain can join two edges before ply 21, so perft is the falling
//! factorial 121 x 120 x ...; the winner is checked against an independent
//! connection test (a flood fill written here) along random games: the
//! game ends exactly when the mover's stones first join their edges.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rg_engine::MoveList;

use crate::{leaves, load, perft_is};

const FILE: &str = "hex.hrg";
const N: usize = 11;

#[test]
fn perft_is_the_falling_factorial() {
    perft_is(&load(FILE), &[121, 121 * 120]);
}

#[test]
#[ignore = "slow: about 30 s"]
fn perft_at_depth_3() {
    assert_eq!(leaves(&load(FILE), 3), 121 * 120 * 119);
}

/// Whether `who`'s stones (1 red: top to bottom, 2 blue: left to right)
/// join their edges.
fn joined(board: &[[u8; N]; N], who: u8) -> bool {
    let mut seen = [[false; N]; N];
    let mut stack = Vec::new();
    for i in 0..N {
        let (r, c) = if who == 1 { (0, i) } else { (i, 0) };
        if board[r][c] == who {
            seen[r][c] = true;
            stack.push((r, c));
        }
    }
    while let Some((r, c)) = stack.pop() {
        if (who == 1 && r == N - 1) || (who == 2 && c == N - 1) {
            return true;
        }
        let (r, c) = (r as i32, c as i32);
        for (dr, dc) in [(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)] {
            let (nr, nc) = (r + dr, c + dc);
            if (0..N as i32).contains(&nr) && (0..N as i32).contains(&nc) {
                let (nr, nc) = (nr as usize, nc as usize);
                if board[nr][nc] == who && !seen[nr][nc] {
                    seen[nr][nc] = true;
                    stack.push((nr, nc));
                }
            }
        }
    }
    false
}

#[test]
fn random_games_end_when_a_chain_joins_the_edges() {
    let game = load(FILE);
    let mut r = game.reasoner();
    let mut moves = MoveList::default();
    let mut rng = SmallRng::seed_from_u64(5);
    for _ in 0..30 {
        let mut s = game.initial_state();
        r.complete_keeper(&mut s).unwrap();
        let mut board = [[0u8; N]; N];
        let mut who = 1u8;
        loop {
            r.moves(&mut s, &mut moves).unwrap();
            let i = rng.gen_range(0..moves.len());
            let text = game.move_text(&moves, i);
            let (r0, c0) = text.strip_prefix("H__").unwrap().split_once('_').unwrap();
            let (r0, c0): (usize, usize) = (r0.parse().unwrap(), c0.parse().unwrap());
            assert_eq!(board[r0][c0], 0);
            board[r0][c0] = who;
            r.apply(&mut s, &moves, i);
            r.complete_keeper(&mut s).unwrap();
            let won = joined(&board, who);
            assert_eq!(game.is_terminal(&s), won, "after {text}");
            if won {
                let mut expected = vec![0, 0];
                expected[usize::from(who - 1)] = 100;
                assert_eq!(game.scores(&s), expected);
                break;
            }
            who = 3 - who;
        }
    }
}
