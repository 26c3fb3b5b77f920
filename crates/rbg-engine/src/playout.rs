//! Flat Monte Carlo: uniformly random playouts, as the reference defines
//! them: the shared [`gg_core::playout`], monomorphised for this engine.

pub use gg_core::playout::{PlayoutStats, DEFAULT_MAX_LENGTH};

/// Runs random playouts from the initial state (`new` and `run_one` return
/// `Result<_, GameError>`).
pub type Playouts = gg_core::playout::Playouts<crate::GameModel>;
