//! Tests of our own game library (`games/`): perft against published
//! numbers and random playouts. One module per game family.
//!
//! Shared helpers live here; each game module calls [`perft_is`],
//! [`playouts_end`] and friends.

use std::path::PathBuf;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rbg_engine::{perft::perft, GameModel, MoveList};

mod amazons;
mod breakthrough;
mod chess;
mod connect4;
mod draughts;
mod go;
mod gomoku;
mod hex;
mod morris;
mod reversi;
mod tictactoe;

/// Path of a file in the repository's `games/` directory.
pub fn game_path(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../games")
        .join(file)
}

/// Loads `games/<file>`, panicking with the rendered diagnostic on error.
pub fn load(file: &str) -> GameModel {
    let path = game_path(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let src = rbg_lang::SourceFile::new(path.display().to_string(), text);
    GameModel::load(&src).unwrap_or_else(|d| panic!("{}", d.rendered))
}

/// Asserts perft leaves for depths 1, 2, ... equal `expected`.
pub fn perft_is(game: &GameModel, expected: &[u64]) {
    let got: Vec<u64> = (1..=expected.len())
        .map(|d| perft(game, d).unwrap().leaves)
        .collect();
    assert_eq!(got, expected, "perft leaves by depth");
}

/// Result of [`playouts_end`]: final scores of every playout and lengths.
pub struct PlayoutResults {
    /// Final scores, one vector per playout.
    pub scores: Vec<Vec<i64>>,
    /// Number of moves of every playout.
    pub lengths: Vec<u64>,
}

impl PlayoutResults {
    /// Asserts every game ended 100–0, 0–100 or 50–50 (two players).
    pub fn assert_win_loss_draw(&self) {
        for s in &self.scores {
            assert!(
                [[100, 0], [0, 100], [50, 50]]
                    .iter()
                    .any(|x| x[..] == s[..]),
                "unexpected scores {s:?}"
            );
        }
    }
}

/// Plays `n` uniformly random games to the end (each must end within
/// `max_moves`), asserting every score is within its player's bound.
pub fn playouts_end(game: &GameModel, n: usize, seed: u64, max_moves: u64) -> PlayoutResults {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut r = game.reasoner();
    let mut moves = MoveList::default();
    let bounds: Vec<i64> = game
        .description()
        .players
        .iter()
        .map(|p| p.bound as i64)
        .collect();
    let mut out = PlayoutResults {
        scores: Vec::new(),
        lengths: Vec::new(),
    };
    for _ in 0..n {
        let mut s = game.initial_state();
        let mut length = 0;
        loop {
            r.legal_moves(&s, &mut moves).unwrap();
            if moves.is_empty() {
                break;
            }
            assert!(length < max_moves, "playout longer than {max_moves} moves");
            let m = moves.get(rng.gen_range(0..moves.len())).to_vec();
            length += 1;
            if !r.apply(&mut s, &m).unwrap() {
                break;
            }
        }
        let scores = game.scores(&s);
        for (p, (&sc, &b)) in scores.iter().zip(&bounds).enumerate() {
            assert!(
                (0..=b).contains(&sc),
                "player {p} score {sc} outside 0..={b}"
            );
        }
        out.scores.push(scores);
        out.lengths.push(length);
    }
    out
}
