//! Games as reinforcement-learning environments, in the manner of
//! OpenSpiel: a fixed action space per game, legal-action masks,
//! fixed-length observations, returns, and batches of games stepped on
//! threads. The Python package (`python/`) is a thin layer over this crate.
//!
//! - [`spec`]: what an engine provides ([`Spec`]: atom ids, observations);
//!   the RBG engine's implementation in `rbg.rs` (RG's in `rg.rs`);
//!   [`choosable`]: which RBG modifiers are players' choices;
//! - [`decision`]: split moves, the action interface over an engine's moves;
//! - [`batch`]: many games stepped together (the `VecEnv`); its performance
//!   notes in [`batch_notes`];
//! - [`dynamic`]: the same behind trait objects, one per loaded game, with
//!   agents.

pub mod batch;
pub mod batch_notes;
pub mod choosable;
pub mod decision;
pub mod dynamic;
mod rbg;
mod rg;
pub mod spec;

pub use batch::{Batch, Frame};
pub use decision::{action_perft, Decision, StepError};
pub use dynamic::{load, DynAgent, DynBatch, DynGame, DynState, EnvError};
pub use gg_core::Turn;
pub use rbg::{keyed, RbgIds};
pub use rg::RgIds;
pub use spec::{Numbering, Segment, Spec, View};
