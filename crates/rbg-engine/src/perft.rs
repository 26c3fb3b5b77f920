//! Perft: counting the leaves of the game tree to a fixed depth, exactly as
//! the reference driver does (see the suite's README). The counting is the
//! shared [`gg_core::perft`], monomorphised for this engine.

use crate::{GameError, GameModel, Reasoner, State};

pub use gg_core::perft::PerftCount;

/// Runs perft from the keeper-completed initial state.
pub fn perft(game: &GameModel, depth: usize) -> Result<PerftCount, GameError> {
    gg_core::perft::perft(game, depth)
}

/// Runs perft on `threads` threads; gives the same counts as [`perft`].
pub fn perft_parallel(
    game: &GameModel,
    depth: usize,
    threads: usize,
) -> Result<PerftCount, GameError> {
    gg_core::perft::perft_parallel(game, depth, threads)
}

/// Runs perft from a keeper-completed state.
pub fn perft_from(r: &mut Reasoner, root: &State, depth: usize) -> Result<PerftCount, GameError> {
    gg_core::perft::perft_from::<GameModel>(r, root, depth)
}
