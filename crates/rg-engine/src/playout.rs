//! Flat Monte Carlo as the reference's `cli run` plays (`rg-language.md`
//! §6.2): from the initial state, enumerate the walks; none → the play must
//! be at `end`; the keeper must have exactly one; random and the players pick
//! one uniformly, after checking that no two walks with the same tags and
//! node lead to different states. Player moves are turns.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::{GameModel, MoveList, Mover, Reasoner, RunError, State};

/// Moves (of anyone) in one playout beyond this are an error (by default).
pub const MAX_PLAYOUT_MOVES: u64 = 1 << 20;

/// Totals of a series of playouts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayoutStats {
    /// Playouts finished.
    pub playouts: u64,
    /// Player moves (turns) over all playouts.
    pub turns: u64,
    /// Sum of the players' branching (walks per turn) over all turns.
    pub branching: u64,
    /// Sum of every player's final score.
    pub score_sums: Vec<i64>,
}

impl PlayoutStats {
    /// Average turns per playout.
    pub fn avg_turns(&self) -> f64 {
        self.turns as f64 / self.playouts.max(1) as f64
    }

    /// Average walks per turn.
    pub fn avg_branching(&self) -> f64 {
        self.branching as f64 / self.turns.max(1) as f64
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
    order: Vec<u32>,
    scratch: (State, State),
    rng: SmallRng,
    /// Whether to check every turn's walks for ambiguity (as `cli run` does).
    pub check_ambiguity: bool,
    /// Moves (of anyone) in one playout beyond this are an error: the game
    /// does not end.
    pub max_moves: u64,
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
            scratch: (root.clone(), root.clone()),
            root,
            moves: MoveList::default(),
            order: Vec::new(),
            rng: SmallRng::seed_from_u64(seed),
            check_ambiguity: true,
            max_moves: MAX_PLAYOUT_MOVES,
            stats: PlayoutStats {
                score_sums: vec![0; game.num_players()],
                ..PlayoutStats::default()
            },
        }
    }

    /// Plays one game to the end; returns its number of turns.
    pub fn run_one(&mut self) -> Result<u64, RunError> {
        self.state.clone_from(&self.root);
        let game = self.reasoner.game().clone();
        let mut turns = 0;
        for _ in 0..self.max_moves {
            self.reasoner.moves(&mut self.state, &mut self.moves)?;
            let n = self.moves.len();
            if n == 0 {
                if !game.is_terminal(&self.state) {
                    return Err(RunError::NoMove(self.state.node()));
                }
                self.stats.playouts += 1;
                self.stats.turns += turns;
                for (sum, v) in self
                    .stats
                    .score_sums
                    .iter_mut()
                    .zip(game.scores(&self.state))
                {
                    *sum += v;
                }
                return Ok(turns);
            }
            let pick = match game.mover(&self.state)? {
                Mover::Keeper if n != 1 => {
                    return Err(RunError::KeeperMoves {
                        count: n,
                        node: self.state.node(),
                    })
                }
                Mover::Keeper => 0,
                mover => {
                    if let Mover::Player(_) = mover {
                        turns += 1;
                        self.stats.branching += n as u64;
                    }
                    if self.check_ambiguity {
                        let scratch = (&mut self.scratch.0, &mut self.scratch.1);
                        self.reasoner.check_unambiguous(
                            &self.state,
                            &self.moves,
                            &mut self.order,
                            scratch,
                        )?;
                    }
                    self.rng.gen_range(0..n)
                }
            };
            self.reasoner.apply(&mut self.state, &self.moves, pick);
        }
        Err(RunError::EndlessPlay {
            moves: self.max_moves,
            node: self.state.node(),
        })
    }

    /// The final state of the last playout.
    pub fn last_state(&self) -> &State {
        &self.state
    }
}
