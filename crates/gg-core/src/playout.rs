//! Flat Monte Carlo: uniformly random playouts from the initial state, as
//! the references define them (every visited state computes all its legal
//! moves).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::{Game, MoveList, Reasoner, Turn};

/// Totals of a series of playouts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayoutStats {
    /// Playouts finished.
    pub playouts: u64,
    /// Moves applied by players (chance moves not counted).
    pub states: u64,
    /// Chance moves applied.
    pub chance: u64,
    /// Sum of every player's final score over all playouts.
    pub score_sums: Vec<i64>,
}

impl PlayoutStats {
    /// Average number of player moves per playout.
    pub fn avg_length(&self) -> f64 {
        self.states as f64 / self.playouts.max(1) as f64
    }

    /// Average final score of each player.
    pub fn avg_scores(&self) -> Vec<f64> {
        self.score_sums
            .iter()
            .map(|&s| s as f64 / self.playouts.max(1) as f64)
            .collect()
    }
}

/// Runs random playouts from the initial state.
pub struct Playouts<G: Game> {
    reasoner: G::Reasoner,
    root: G::State,
    state: G::State,
    moves: MoveList<G::Atom>,
    rng: SmallRng,
    /// Accumulated results.
    pub stats: PlayoutStats,
}

impl<G: Game> Playouts<G> {
    /// A playout runner with a seeded generator.
    pub fn new(game: &G, seed: u64) -> Result<Playouts<G>, G::Error> {
        let root = game.initial_state()?;
        Ok(Playouts {
            reasoner: game.reasoner(),
            state: root.clone(),
            root,
            moves: MoveList::default(),
            rng: SmallRng::seed_from_u64(seed),
            stats: PlayoutStats {
                score_sums: vec![0; game.num_players()],
                ..PlayoutStats::default()
            },
        })
    }

    /// Plays one game to the end; returns its length (player moves).
    pub fn run_one(&mut self) -> Result<u64, G::Error> {
        self.state.clone_from(&self.root);
        let mut length = 0;
        let mut chance = 0;
        loop {
            let turn = self.reasoner.game().turn(&self.state);
            if turn == Turn::Over {
                break;
            }
            self.reasoner
                .legal_moves_mut(&mut self.state, &mut self.moves)?;
            if self.moves.is_empty() {
                self.reasoner.game().stuck(&self.state)?;
                break;
            }
            let i = self.rng.gen_range(0..self.moves.len());
            match turn {
                Turn::Chance => chance += 1,
                _ => length += 1,
            }
            self.reasoner.apply(&mut self.state, self.moves.get(i))?;
        }
        self.stats.playouts += 1;
        self.stats.states += length;
        self.stats.chance += chance;
        let game = self.reasoner.game();
        for (p, sum) in self.stats.score_sums.iter_mut().enumerate() {
            *sum += game.score(&self.state, p);
        }
        Ok(length)
    }

    /// The final state of the last playout.
    pub fn last_state(&self) -> &G::State {
        &self.state
    }
}
