//! Flat Monte Carlo: uniformly random playouts, as the reference defines
//! them: the shared [`gg_core::playout`], monomorphised for this engine.

pub use gg_core::playout::PlayoutStats;

/// Runs random playouts from the initial state
/// (`run_one` returns `Result<u64, Infallible>`).
pub type Playouts = gg_core::playout::Playouts<crate::GameModel>;
