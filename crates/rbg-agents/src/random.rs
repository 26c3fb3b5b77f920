//! The uniformly random agent.

use std::time::Instant;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rbg_engine::{GameModel, Move, MoveList, State};

use crate::Agent;

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
