//! Playouts (simulations to the end of the game) and score normalisation.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rbg_engine::{GameModel, MoveList, Reasoner, State};

/// Chooses moves during playouts. Implement this to plug a heuristic into
/// [`crate::FlatMcAgent`] or [`crate::MctsAgent`].
pub trait PlayoutPolicy: Send {
    /// The policy's name in specs (`playout=NAME`).
    fn name(&self) -> String;

    /// Index of the move to play among `moves` (never empty) in `state`.
    fn choose(&mut self, state: &State, moves: &MoveList, rng: &mut SmallRng) -> usize;
}

/// Uniformly random moves.
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformPolicy;

impl PlayoutPolicy for UniformPolicy {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn choose(&mut self, _state: &State, moves: &MoveList, rng: &mut SmallRng) -> usize {
        rng.gen_range(0..moves.len())
    }
}

/// Builds a playout policy by name (`random`).
pub fn policy_from_name(name: &str) -> Option<Box<dyn PlayoutPolicy>> {
    match name {
        "random" | "uniform" => Some(Box::new(UniformPolicy)),
        _ => None,
    }
}

/// Scores mapped to `0.0..=1.0` by each player's bound (`score / bound`,
/// clamped; a player with bound 0 always gets 0).
#[derive(Clone, Debug)]
pub struct Normaliser {
    bounds: Vec<f64>,
}

impl Normaliser {
    /// The bounds of `game`'s players.
    pub fn new(game: &GameModel) -> Normaliser {
        Normaliser {
            bounds: game
                .description()
                .players
                .iter()
                .map(|p| p.bound as f64)
                .collect(),
        }
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.bounds.len()
    }

    /// Writes the normalised scores of `state` into `out` (one per player).
    pub fn scores(&self, state: &State, out: &mut [f64]) {
        for (p, (o, &b)) in out.iter_mut().zip(&self.bounds).enumerate() {
            *o = if b > 0.0 {
                (state.var(p as u32) as f64 / b).clamp(0.0, 1.0)
            } else {
                0.0
            };
        }
    }
}

/// Whether `state` is not over: a player is on move and has a legal move
/// (which is then in `moves`). `alive` is the result of the last
/// [`Reasoner::apply`] (false = the keeper got stuck).
pub fn live_moves(r: &mut Reasoner, state: &mut State, alive: bool, moves: &mut MoveList) -> bool {
    moves.clear();
    if !alive || r.game().current_player(state).is_none() {
        return false;
    }
    r.legal_moves_mut(state, moves);
    !moves.is_empty()
}

/// Plays `state` to the end with `policy` (or until `max_plies` moves when
/// non-zero) and returns the number of moves played. `alive` is as in
/// [`live_moves`].
pub fn playout(
    r: &mut Reasoner,
    state: &mut State,
    mut alive: bool,
    policy: &mut dyn PlayoutPolicy,
    rng: &mut SmallRng,
    moves: &mut MoveList,
    max_plies: u64,
) -> u64 {
    let mut plies = 0;
    while (max_plies == 0 || plies < max_plies) && live_moves(r, state, alive, moves) {
        let i = policy.choose(state, moves, rng);
        alive = r.apply(state, moves.get(i));
        plies += 1;
    }
    plies
}

/// Makes (or remakes) an agent's simulator for a new game, keeping its
/// playout policy, and advances the agent's seed so that a game does not
/// depend on earlier ones.
pub fn restart_simulator(
    sim: &mut Option<Simulator>,
    policy: &mut Option<Box<dyn PlayoutPolicy>>,
    seed: &mut u64,
    game: &GameModel,
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
pub struct Simulator {
    /// The reasoner for the game.
    pub reasoner: Reasoner,
    /// Score normalisation.
    pub norm: Normaliser,
    /// Playout policy.
    pub policy: Box<dyn PlayoutPolicy>,
    /// Random generator (also used by the search).
    pub rng: SmallRng,
    /// Playout length limit (0 = none); a cut playout is scored as it stands.
    pub max_plies: u64,
    moves: MoveList,
    rewards: Vec<f64>,
    /// Moves played in playouts so far.
    pub plies: u64,
}

impl Simulator {
    /// A simulator for `game`.
    pub fn new(
        game: &GameModel,
        policy: Box<dyn PlayoutPolicy>,
        rng: SmallRng,
        max_plies: u64,
    ) -> Simulator {
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
    pub fn simulate(&mut self, state: &mut State, alive: bool) -> &[f64] {
        self.plies += playout(
            &mut self.reasoner,
            state,
            alive,
            self.policy.as_mut(),
            &mut self.rng,
            &mut self.moves,
            self.max_plies,
        );
        self.norm.scores(state, &mut self.rewards);
        &self.rewards
    }
}
