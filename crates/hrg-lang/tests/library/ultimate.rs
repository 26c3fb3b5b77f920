//! Ultimate tic-tac-toe: perft against an independent implementation of
//! the rules written here (depth 2 by hand: after a first move in cell k of
//! board b, the reply goes to board k, which has 9 empty cells, or 8 when
//! k = b: 9 x (8 x 9 + 8) = 720), and the outcomes of random games against
//! the same implementation.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rg_engine::MoveList;

use crate::{load, perft_is};

const FILE: &str = "ultimateTicTacToe.hrg";

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// Marks 0 empty, 1 x, 2 o; a local board's status 0 open, 1 or 2 won,
/// 3 full.
#[derive(Clone)]
struct Ultimate {
    cells: [[u8; 9]; 9],
    status: [u8; 9],
    /// The board to play in, or 9 for any.
    target: usize,
    mover: u8,
}

impl Ultimate {
    fn new() -> Ultimate {
        Ultimate {
            cells: [[0; 9]; 9],
            status: [0; 9],
            target: 9,
            mover: 1,
        }
    }

    fn moves(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for b in 0..9 {
            if self.status[b] != 0 || (self.target != 9 && self.target != b) {
                continue;
            }
            for k in 0..9 {
                if self.cells[b][k] == 0 {
                    out.push((b, k));
                }
            }
        }
        out
    }

    /// Plays a move; the game's result if it ends: 1 or 2 the winner, 0 a
    /// draw.
    fn play(&mut self, (b, k): (usize, usize)) -> Option<u8> {
        let me = self.mover;
        self.cells[b][k] = me;
        if LINES
            .iter()
            .any(|l| l.iter().all(|&i| self.cells[b][i] == me))
        {
            self.status[b] = me;
        } else if self.cells[b].iter().all(|&c| c != 0) {
            self.status[b] = 3;
        }
        self.target = if self.status[k] == 0 { k } else { 9 };
        self.mover = 3 - me;
        if LINES
            .iter()
            .any(|l| l.iter().all(|&i| self.status[i] == me))
        {
            return Some(me);
        }
        self.status.iter().all(|&s| s != 0).then_some(0)
    }
}

fn count(u: &Ultimate, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    u.moves()
        .into_iter()
        .map(|m| {
            let mut next = u.clone();
            match next.play(m) {
                Some(_) => u64::from(depth == 1),
                None => count(&next, depth - 1),
            }
        })
        .sum()
}

#[test]
fn perft_matches_an_independent_count() {
    let expected: Vec<u64> = (1..=4).map(|d| count(&Ultimate::new(), d)).collect();
    assert_eq!(&expected[..2], &[81, 720]);
    perft_is(&load(FILE), &expected);
}

#[test]
fn random_games_match_an_independent_implementation() {
    let game = load(FILE);
    let mut r = game.reasoner();
    let mut moves = MoveList::default();
    let mut rng = SmallRng::seed_from_u64(11);
    for _ in 0..100 {
        let mut s = game.initial_state();
        r.complete_keeper(&mut s).unwrap();
        let mut u = Ultimate::new();
        loop {
            r.moves(&mut s, &mut moves).unwrap();
            assert_eq!(moves.len(), u.moves().len());
            let i = rng.gen_range(0..moves.len());
            let text = game.move_text(&moves, i);
            let (b, k) = text.strip_prefix("C__").unwrap().split_once('_').unwrap();
            let result = u.play((b.parse().unwrap(), k.parse().unwrap()));
            r.apply(&mut s, &moves, i);
            r.complete_keeper(&mut s).unwrap();
            assert_eq!(game.is_terminal(&s), result.is_some(), "after {text}");
            if let Some(winner) = result {
                let expected = match winner {
                    0 => vec![50, 50],
                    1 => vec![100, 0],
                    _ => vec![0, 100],
                };
                assert_eq!(game.scores(&s), expected);
                break;
            }
        }
    }
}
