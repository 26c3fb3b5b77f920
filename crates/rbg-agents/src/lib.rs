//! Agents that play RBG games, behind one small trait.
//!
//! An [`Agent`] is told about the game once ([`Agent::new_game`]), asked for
//! moves ([`Agent::select`]) and told about every move played by anyone
//! ([`Agent::observe`]), so that search agents can reuse their trees.

use std::time::Instant;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rbg_engine::{GameModel, ModApp, Move, MoveList, State};

/// A player. Agents are `Send` so matches can run on several threads.
pub trait Agent: Send {
    /// A short name for tables and logs, e.g. `mcts:time=1s`.
    fn name(&self) -> String;

    /// Starts a new game (the state is the game's initial state).
    fn new_game(&mut self, game: &GameModel, state: &State);

    /// Chooses one of `moves` (never empty) for the player on move in
    /// `state`. `deadline`, when given, is the time by which the answer is
    /// needed.
    fn select(&mut self, state: &State, moves: &MoveList, deadline: Option<Instant>) -> Move;

    /// Tells the agent that `m` was played in `before` (by any player,
    /// including itself). The default does nothing.
    fn observe(&mut self, before: &State, m: &[ModApp]) {
        let _ = (before, m);
    }
}

/// Picks uniformly among the legal moves.
pub struct RandomAgent {
    rng: SmallRng,
}

impl RandomAgent {
    /// A random agent with a seeded generator.
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent {
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn new_game(&mut self, _game: &GameModel, _state: &State) {}

    fn select(&mut self, _state: &State, moves: &MoveList, _deadline: Option<Instant>) -> Move {
        let i = self.rng.gen_range(0..moves.len());
        Move(moves.get(i).to_vec())
    }
}

/// Builds an agent from a spec such as `random` or `mcts:time=1s`.
pub fn from_spec(spec: &str, seed: u64) -> Result<Box<dyn Agent>, String> {
    let (kind, _params) = spec.split_once(':').unwrap_or((spec, ""));
    match kind {
        "random" => Ok(Box::new(RandomAgent::new(seed))),
        other => Err(format!("unknown agent {other:?} (expected random)")),
    }
}
