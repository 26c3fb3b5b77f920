//! Clobber (5x6, checkered start): perft against an independent count, a
//! direct implementation of the rules written here.

use crate::{load, perft_is, playouts_end_with};

const FILE: &str = "clobber.hrg";
const ROWS: usize = 5;
const COLS: usize = 6;

/// 0 empty, 1 white, 2 black.
type Board = [[u8; COLS]; ROWS];

fn count(b: &mut Board, me: u8, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let them = 3 - me;
    let mut total = 0;
    for r in 0..ROWS {
        for c in 0..COLS {
            if b[r][c] != me {
                continue;
            }
            let targets = [
                (r + 1 < ROWS).then(|| (r + 1, c)),
                (c + 1 < COLS).then(|| (r, c + 1)),
                r.checked_sub(1).map(|r| (r, c)),
                c.checked_sub(1).map(|c| (r, c)),
            ];
            for (tr, tc) in targets.into_iter().flatten() {
                if b[tr][tc] == them {
                    b[tr][tc] = me;
                    b[r][c] = 0;
                    total += count(b, them, depth - 1);
                    b[r][c] = me;
                    b[tr][tc] = them;
                }
            }
        }
    }
    total
}

#[test]
fn perft_matches_an_independent_count() {
    let mut b: Board = [[0; COLS]; ROWS];
    for (r, row) in b.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            *cell = if (r + c) % 2 == 0 { 1 } else { 2 };
        }
    }
    let expected: Vec<u64> = (1..=3).map(|d| count(&mut b, 1, d)).collect();
    // 49 first moves: every orthogonally adjacent pair (5 x 5 + 4 x 6).
    assert_eq!(expected[0], 49);
    perft_is(&load(FILE), &expected);
}

#[test]
fn random_games_end_with_a_winner() {
    // Every move removes a stone: at most 29 moves.
    playouts_end_with(&load(FILE), 100, &[&[100, 0], &[0, 100]], 1..=29);
}
