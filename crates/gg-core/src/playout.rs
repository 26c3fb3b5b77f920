//! Flat Monte Carlo: uniformly random playouts from the initial state, as
//! the references define them (every visited state computes all its legal
//! moves).
//!
//! A game need not end (RBG's `(->a)*`), so playouts stop at a maximum
//! length ([`DEFAULT_MAX_LENGTH`] unless set) and are then counted as *cut*,
//! scored as they stand.

use std::time::Instant;

use rand::rngs::SmallRng;
use rand::SeedableRng;

use crate::{Game, MoveList, Reasoner, Turn};

/// Default maximum length of a playout or a played game, in moves (players'
/// and chance's); the longest suite games take a few thousand.
pub const DEFAULT_MAX_LENGTH: u64 = 100_000;

/// A playout with a deadline looks at the clock once the moves listed
/// since the last look (plus one per state) reach this: every few states
/// in games with few moves, every state in games whose states have
/// thousands (arimaa: about 20,000 moves, a quarter of a second), so that
/// the deadline holds within about one state.
const CLOCK_WORK: u64 = 1024;

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
    /// Playouts stopped at the maximum length (included in `playouts`).
    pub cut: u64,
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
    max_length: u64,
    /// Accumulated results.
    pub stats: PlayoutStats,
}

impl<G: Game> Playouts<G> {
    /// A playout runner with a seeded generator and the default maximum
    /// length.
    pub fn new(game: &G, seed: u64) -> Result<Playouts<G>, G::Error> {
        let root = game.initial_state()?;
        Ok(Playouts {
            reasoner: game.reasoner(),
            state: root.clone(),
            root,
            moves: MoveList::default(),
            rng: SmallRng::seed_from_u64(seed),
            max_length: DEFAULT_MAX_LENGTH,
            stats: PlayoutStats {
                score_sums: vec![0; game.num_players()],
                ..PlayoutStats::default()
            },
        })
    }

    /// Sets the maximum length of a playout, in moves (at least 1).
    pub fn with_max_length(mut self, moves: u64) -> Playouts<G> {
        self.max_length = moves.max(1);
        self
    }

    /// Plays one game to the end or to the maximum length; returns its
    /// length (player moves).
    pub fn run_one(&mut self) -> Result<u64, G::Error> {
        self.run::<false>(None).map(|l| l.unwrap_or(0))
    }

    /// Like [`Playouts::run_one`], but gives up at `deadline` (looked at
    /// every few states, see `CLOCK_WORK`): `None` then, and the playout is not counted.
    pub fn run_one_until(&mut self, deadline: Instant) -> Result<Option<u64>, G::Error> {
        self.run::<true>(Some(deadline))
    }

    fn run<const CLOCK: bool>(
        &mut self,
        deadline: Option<Instant>,
    ) -> Result<Option<u64>, G::Error> {
        self.state.clone_from(&self.root);
        let mut length = 0;
        let mut chance = 0;
        let mut work = 0;
        loop {
            let turn = self.reasoner.game().turn(&self.state);
            if turn == Turn::Over {
                break;
            }
            let moves = length + chance;
            if moves == self.max_length {
                self.stats.cut += 1;
                break;
            }
            if CLOCK && work >= CLOCK_WORK {
                work = 0;
                if let Some(d) = deadline {
                    if Instant::now() >= d {
                        return Ok(None);
                    }
                }
            }
            let n = self
                .reasoner
                .play_random(&mut self.state, &mut self.moves, &mut self.rng)?;
            work += 1 + n as u64;
            if n == 0 {
                self.reasoner.game().stuck(&self.state)?;
                break;
            }
            match turn {
                Turn::Chance => chance += 1,
                _ => length += 1,
            }
        }
        self.stats.playouts += 1;
        self.stats.states += length;
        self.stats.chance += chance;
        let game = self.reasoner.game();
        for (p, sum) in self.stats.score_sums.iter_mut().enumerate() {
            *sum += game.score(&self.state, p);
        }
        Ok(Some(length))
    }

    /// The final state of the last playout.
    pub fn last_state(&self) -> &G::State {
        &self.state
    }
}
