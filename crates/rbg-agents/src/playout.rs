//! Playouts (simulations to the end of the game) and score normalisation.

use gg_core::playout::DEFAULT_MAX_LENGTH;
use gg_core::{Game, MoveList, Reasoner, Turn};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Chooses players' moves during playouts (chance moves are always
/// uniform). Implement this to plug a heuristic into [`crate::FlatMcAgent`]
/// or [`crate::MctsAgent`].
pub trait PlayoutPolicy<G: Game>: Send {
    /// The policy's name in specs (`playout=NAME`).
    fn name(&self) -> String;

    /// Index of the move to play among `moves` (never empty) in `state`.
    fn choose(&mut self, state: &G::State, moves: &MoveList<G::Atom>, rng: &mut SmallRng) -> usize;
}

/// Uniformly random moves.
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformPolicy;

impl<G: Game> PlayoutPolicy<G> for UniformPolicy {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn choose(
        &mut self,
        _state: &G::State,
        moves: &MoveList<G::Atom>,
        rng: &mut SmallRng,
    ) -> usize {
        rng.gen_range(0..moves.len())
    }
}

/// Builds a playout policy by name (`random`).
pub fn policy_from_name<G: Game>(name: &str) -> Option<Box<dyn PlayoutPolicy<G>>> {
    match name {
        "random" | "uniform" => Some(Box::new(UniformPolicy)),
        _ => None,
    }
}

/// Scores mapped to `0.0..=1.0` by each player's score range
/// (`(score - low) / (high - low)`, clamped; a player whose range is a
/// single value always gets 0).
#[derive(Clone, Debug)]
pub struct Normaliser {
    ranges: Vec<(f64, f64)>,
}

impl Normaliser {
    /// The score ranges of `game`'s players.
    pub fn new<G: Game>(game: &G) -> Normaliser {
        Normaliser {
            ranges: (0..game.num_players())
                .map(|p| {
                    let (lo, hi) = game.score_range(p);
                    (lo as f64, hi as f64)
                })
                .collect(),
        }
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.ranges.len()
    }

    /// Writes the normalised scores of `state` into `out` (one per player).
    pub fn scores<G: Game>(&self, game: &G, state: &G::State, out: &mut [f64]) {
        for (p, (o, &(lo, hi))) in out.iter_mut().zip(&self.ranges).enumerate() {
            *o = if hi > lo {
                ((game.score(state, p) as f64 - lo) / (hi - lo)).clamp(0.0, 1.0)
            } else {
                0.0
            };
        }
    }
}

/// Lists the moves of `state` into `moves` and says who chooses among them:
/// a player, chance, or [`Turn::Over`] when the game is over or the player
/// on move has no legal move (then `moves` is empty).
pub fn live_moves<G: Game>(
    r: &mut G::Reasoner,
    state: &mut G::State,
    moves: &mut MoveList<G::Atom>,
) -> Result<Turn, G::Error> {
    moves.clear();
    let turn = r.game().turn(state);
    if turn == Turn::Over {
        return Ok(turn);
    }
    r.legal_moves_mut(state, moves)?;
    if moves.is_empty() {
        r.game().stuck(state)?;
        return Ok(Turn::Over);
    }
    Ok(turn)
}

/// Plays `state` to the end with `policy` (chance uniformly), or until
/// `max_plies` moves (`DEFAULT_MAX_LENGTH` when 0: a game need not end),
/// and returns the number of moves played.
pub fn playout<G: Game>(
    r: &mut G::Reasoner,
    state: &mut G::State,
    policy: &mut dyn PlayoutPolicy<G>,
    rng: &mut SmallRng,
    moves: &mut MoveList<G::Atom>,
    max_plies: u64,
) -> Result<u64, G::Error> {
    let max_plies = match max_plies {
        0 => DEFAULT_MAX_LENGTH,
        n => n,
    };
    let mut plies = 0;
    while plies < max_plies {
        let i = match live_moves::<G>(r, state, moves)? {
            Turn::Over => break,
            Turn::Chance => rng.gen_range(0..moves.len()),
            Turn::Player(_) => policy.choose(state, moves, rng),
        };
        r.apply(state, moves.get(i))?;
        plies += 1;
    }
    Ok(plies)
}

/// Makes (or remakes) an agent's simulator for a new game, keeping its
/// playout policy, and advances the agent's seed so that a game does not
/// depend on earlier ones.
pub fn restart_simulator<G: Game>(
    sim: &mut Option<Simulator<G>>,
    policy: &mut Option<Box<dyn PlayoutPolicy<G>>>,
    seed: &mut u64,
    game: &G,
    max_plies: u64,
) {
    let policy = match sim.take() {
        Some(s) => s.policy,
        None => policy.take().expect("policy present before the first game"),
    };
    let rng = SmallRng::seed_from_u64(*seed);
    *seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    *sim = Some(Simulator::new(game, policy, rng, max_plies));
}

/// What a search agent needs for playouts: a reasoner, a policy, a random
/// generator and buffers.
pub struct Simulator<G: Game> {
    /// The reasoner for the game.
    pub reasoner: G::Reasoner,
    /// Score normalisation.
    pub norm: Normaliser,
    /// Playout policy.
    pub policy: Box<dyn PlayoutPolicy<G>>,
    /// Random generator (also used by the search).
    pub rng: SmallRng,
    /// Playout length limit (0 = `DEFAULT_MAX_LENGTH`); a cut playout is
    /// scored as it stands.
    pub max_plies: u64,
    moves: MoveList<G::Atom>,
    rewards: Vec<f64>,
    /// Moves played in playouts so far.
    pub plies: u64,
}

impl<G: Game> Simulator<G> {
    /// A simulator for `game`.
    pub fn new(
        game: &G,
        policy: Box<dyn PlayoutPolicy<G>>,
        rng: SmallRng,
        max_plies: u64,
    ) -> Simulator<G> {
        let norm = Normaliser::new(game);
        Simulator {
            reasoner: game.reasoner(),
            rewards: vec![0.0; norm.players()],
            norm,
            policy,
            rng,
            max_plies,
            moves: MoveList::default(),
            plies: 0,
        }
    }

    /// Plays `state` out and returns every player's normalised score.
    pub fn simulate(&mut self, state: &mut G::State) -> Result<&[f64], G::Error> {
        self.plies += playout::<G>(
            &mut self.reasoner,
            state,
            self.policy.as_mut(),
            &mut self.rng,
            &mut self.moves,
            self.max_plies,
        )?;
        self.norm
            .scores(self.reasoner.game(), state, &mut self.rewards);
        Ok(&self.rewards)
    }
}
