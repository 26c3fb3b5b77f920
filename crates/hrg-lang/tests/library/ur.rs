//! The Royal Game of Ur: perft against an independent count, a direct
//! implementation of the rules written here (the roll is a chance move that
//! uses a ply, its children merged by the rolled value; a pass is no move).

use crate::{load, perft_is, playouts_end_with};

const FILE: &str = "ur.hrg";

#[derive(Clone, Copy)]
struct Ur {
    /// Bit i: a piece on square i of the player's track (1..=14).
    track: [u16; 2],
    waiting: [u8; 2],
    home: [u8; 2],
    mover: usize,
}

impl Ur {
    /// The legal moves for `roll`: (from, to), 0 = start, 15 = off.
    fn moves(&self, roll: u8) -> Vec<(u8, u8)> {
        let me = self.mover;
        let mut out = Vec::new();
        if roll == 0 {
            return out;
        }
        for from in 0..15u8 {
            let has = if from == 0 {
                self.waiting[me] > 0
            } else {
                self.track[me] & (1 << from) != 0
            };
            let to = from + roll;
            if !has || to > 15 {
                continue;
            }
            if to < 15 {
                let theirs = self.track[1 - me] & (1 << to) != 0;
                if self.track[me] & (1 << to) != 0 || (to == 8 && theirs) {
                    continue;
                }
            }
            out.push((from, to));
        }
        out
    }

    fn play(mut self, (from, to): (u8, u8)) -> (Ur, bool) {
        let me = self.mover;
        if from == 0 {
            self.waiting[me] -= 1;
        } else {
            self.track[me] &= !(1 << from);
        }
        if to == 15 {
            self.home[me] += 1;
        } else {
            if (5..=12).contains(&to) && self.track[1 - me] & (1 << to) != 0 {
                self.track[1 - me] &= !(1 << to);
                self.waiting[1 - me] += 1;
            }
            self.track[me] |= 1 << to;
        }
        let won = self.home[me] == 7;
        if ![4, 8, 14].contains(&to) {
            self.mover = 1 - me;
        }
        (self, won)
    }
}

/// Leaves `depth` plies below a state where `s.mover` is about to roll.
fn count(s: Ur, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    (0..=4)
        .map(|roll| {
            let moves = s.moves(roll);
            if moves.is_empty() {
                let next = Ur {
                    mover: 1 - s.mover,
                    ..s
                };
                return count(next, depth - 1);
            }
            if depth == 1 {
                return 1;
            }
            moves
                .into_iter()
                .map(|m| match s.play(m) {
                    (_, true) => u64::from(depth == 2),
                    (t, false) => count(t, depth - 2),
                })
                .sum()
        })
        .sum()
}

#[test]
fn perft_matches_an_independent_count() {
    let start = Ur {
        track: [0, 0],
        waiting: [7, 7],
        home: [0, 0],
        mover: 0,
    };
    let expected: Vec<u64> = (1..=9).map(|d| count(start, d)).collect();
    assert_eq!(&expected[..3], &[5, 9, 29]);
    perft_is(&load(FILE), &expected);
}

#[test]
fn random_games_end_with_a_winner() {
    playouts_end_with(&load(FILE), 50, &[&[1, 0], &[0, 1]], 1..=100_000);
}

#[test]
fn the_roll_is_four_binary_dice() {
    // 16 equally likely walks, one per outcome of the four dice, so the
    // roll is binomial: 1, 4, 6, 4, 1 ways to roll 0..4.
    let game = load(FILE);
    let mut r = game.reasoner();
    let mut s = game.initial_state();
    let mut moves = rg_engine::MoveList::default();
    r.complete_keeper(&mut s).unwrap();
    r.moves(&mut s, &mut moves).unwrap();
    assert_eq!(game.mover(&s).unwrap(), rg_engine::Mover::Random);
    let mut ways = [0; 5];
    for i in 0..moves.len() {
        let text = game.move_text(&moves, i);
        ways[text.split(' ').filter(|t| *t == "1").count()] += 1;
    }
    assert_eq!(ways, [1, 4, 6, 4, 1]);
}
