//! Flat Monte Carlo: uniformly random playouts, as the reference defines
//! them (every visited state computes all its legal moves).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::{GameModel, MoveList, Reasoner, State};

/// Totals of a series of playouts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayoutStats {
    /// Playouts finished.
    pub playouts: u64,
    /// Moves applied by regular players.
    pub states: u64,
    /// Sum of every player's final score over all playouts.
    pub score_sums: Vec<i64>,
}

impl PlayoutStats {
    /// Average number of moves per playout.
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
pub struct Playouts {
    reasoner: Reasoner,
    root: State,
    state: State,
    moves: MoveList,
    rng: SmallRng,
    /// Accumulated results.
    pub stats: PlayoutStats,
}

impl Playouts {
    /// A playout runner with a seeded generator.
    pub fn new(game: &GameModel, seed: u64) -> Playouts {
        let root = game.initial_state();
        Playouts {
            reasoner: game.reasoner(),
            state: root.clone(),
            root,
            moves: MoveList::default(),
            rng: SmallRng::seed_from_u64(seed),
            stats: PlayoutStats {
                score_sums: vec![0; game.num_players()],
                ..PlayoutStats::default()
            },
        }
    }

    /// Plays one game to the end; returns its length (moves applied).
    pub fn run_one(&mut self) -> u64 {
        self.state.clone_from(&self.root);
        let num_players = self.reasoner.game().num_players() as u32;
        let mut length = 0;
        while self.state.player < num_players {
            self.reasoner
                .legal_moves_mut(&mut self.state, &mut self.moves);
            if self.moves.is_empty() {
                break;
            }
            let i = self.rng.gen_range(0..self.moves.len());
            length += 1;
            if !self.reasoner.apply(&mut self.state, self.moves.get(i)) {
                break;
            }
        }
        self.stats.playouts += 1;
        self.stats.states += length;
        for (p, sum) in self.stats.score_sums.iter_mut().enumerate() {
            *sum += self.state.vars[p] as i64;
        }
        length
    }

    /// The final state of the last playout.
    pub fn last_state(&self) -> &State {
        &self.state
    }
}
