//! Helpers shared by the random-game tests.

use rg_engine::perft::{perft, Counting};
use rg_engine::GameModel;

/// The deepest perft depth up to 3 whose count stays at most 2,000 leaves
/// (a tag on a cycle gives thousands of moves per state, and perft 3 of
/// that never ends).
pub fn small_depth(game: &GameModel) -> usize {
    let mut depth = 0;
    while depth < 3 {
        match perft(game, depth + 1, Counting::Walks) {
            Ok(c) if c.leaves <= 2000 => depth += 1,
            _ => break,
        }
    }
    depth
}
