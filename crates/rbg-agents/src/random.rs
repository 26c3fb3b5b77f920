//! The uniformly random agent.

use std::time::Instant;

use gg_core::{Game, MoveList};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

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

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn new_game(&mut self, _game: &G, _state: &G::State) {}

    fn select(
        &mut self,
        _state: &G::State,
        moves: &MoveList<G::Atom>,
        _deadline: Option<Instant>,
    ) -> Result<usize, G::Error> {
        Ok(self.rng.gen_range(0..moves.len()))
    }
}
