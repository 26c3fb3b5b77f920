//! Dots and boxes (3x3 boxes): every move draws one of the lines left, so
//! perft is the falling factorial 24 x 23 x ...; who moves and who wins are
//! checked against an independent implementation of the rules, written
//! here, along random games.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rg_engine::{MoveList, Mover};

use crate::{load, perft_is};

const FILE: &str = "dotsAndBoxes.hrg";

#[test]
fn perft_is_the_falling_factorial() {
    let expected: Vec<u64> = (1..=4).map(|d| (0..d).map(|i| 24 - i).product()).collect();
    perft_is(&load(FILE), &expected);
}

/// The lines drawn and the boxes each player has, by the rules.
struct Dots {
    /// `h[r][c]`: dot (r, c) to (r, c + 1); `v[r][c]`: (r, c) to (r + 1, c).
    h: [[bool; 3]; 4],
    v: [[bool; 4]; 3],
    boxes: [u32; 2],
    mover: usize,
}

impl Dots {
    fn complete(&self, r: usize, c: usize) -> bool {
        self.h[r][c] && self.h[r + 1][c] && self.v[r][c] && self.v[r][c + 1]
    }

    /// Draws the line of a tag `H__r_c` or `V__r_c`.
    fn play(&mut self, tag: &str) {
        let (kind, rest) = tag.split_once("__").unwrap();
        let (r, c) = rest.split_once('_').unwrap();
        let (r, c): (usize, usize) = (r.parse().unwrap(), c.parse().unwrap());
        let mut near = Vec::new();
        if kind == "H" {
            assert!(!self.h[r][c]);
            self.h[r][c] = true;
            near.extend((r > 0).then(|| (r - 1, c)));
            near.extend((r < 3).then_some((r, c)));
        } else {
            assert!(!self.v[r][c]);
            self.v[r][c] = true;
            near.extend((c > 0).then(|| (r, c - 1)));
            near.extend((c < 3).then_some((r, c)));
        }
        let scored = near.iter().filter(|&&(r, c)| self.complete(r, c)).count() as u32;
        self.boxes[self.mover] += scored;
        if scored == 0 {
            self.mover = 1 - self.mover;
        }
    }
}

#[test]
fn random_games_follow_the_rules() {
    let game = load(FILE);
    let mut r = game.reasoner();
    let mut moves = MoveList::default();
    let mut rng = SmallRng::seed_from_u64(3);
    for _ in 0..200 {
        let mut s = game.initial_state();
        r.complete_keeper(&mut s).unwrap();
        let mut dots = Dots {
            h: [[false; 3]; 4],
            v: [[false; 4]; 3],
            boxes: [0, 0],
            mover: 0,
        };
        while !game.is_terminal(&s) {
            assert_eq!(game.mover(&s).unwrap(), Mover::Player(dots.mover));
            r.moves(&mut s, &mut moves).unwrap();
            let i = rng.gen_range(0..moves.len());
            dots.play(&game.move_text(&moves, i));
            r.apply(&mut s, &moves, i);
            r.complete_keeper(&mut s).unwrap();
        }
        assert_eq!(dots.boxes[0] + dots.boxes[1], 9);
        let winner = usize::from(dots.boxes[1] > dots.boxes[0]);
        let mut expected = vec![0, 0];
        expected[winner] = 100;
        assert_eq!(game.scores(&s), expected);
    }
}
