//! Perft: counting the leaves of the game tree to a fixed depth, exactly as
//! the reference driver does (see the suite's README). The counting is the
//! shared [`gg_core::perft`], monomorphised for this engine.

use crate::{GameModel, Reasoner, State};

pub use gg_core::perft::PerftCount;

/// Runs perft from the keeper-completed initial state.
pub fn perft(game: &GameModel, depth: usize) -> PerftCount {
    let Ok(c) = gg_core::perft::perft(game, depth);
    c
}

/// Runs perft on `threads` threads; gives the same counts as [`perft`].
pub fn perft_parallel(game: &GameModel, depth: usize, threads: usize) -> PerftCount {
    let Ok(c) = gg_core::perft::perft_parallel(game, depth, threads);
    c
}

/// Runs perft from a keeper-completed state.
pub fn perft_from(r: &mut Reasoner, root: &State, depth: usize) -> PerftCount {
    let Ok(c) = gg_core::perft::perft_from::<GameModel>(r, root, depth);
    c
}
