//! Agents that play games of any language with a [`gg_core::Game`] engine,
//! behind one small trait, and matches between them.
//!
//! An [`Agent`] is told about the game once ([`Agent::new_game`]), asked for
//! moves ([`Agent::select`]) and told about every move played by anyone
//! ([`Agent::observe`]), so that search agents can reuse their trees.
//! [`from_spec`] builds the agents of this crate from text such as
//! `mcts:time=1s:c=1.4`; [`play_game`] plays one game and [`MatchStats`]
//! sums up many.
//!
//! All agents handle any number of players: scores are normalised to
//! `0..=1` by each player's bound (see [`playout::Normaliser`]) and every
//! player maximises their own. A state is terminal when the game says so
//! ([`Turn::Over`]) or the player on move has no legal move. Chance moves
//! ([`Turn::Chance`]) are drawn uniformly by the caller (the arena, the
//! playouts); agents are asked only for players' moves. Agents see the full
//! state, also in games of imperfect information.

pub mod arena;
pub mod flatmc;
pub mod mcts;
pub mod playout;
pub mod random;
pub mod spec;
pub mod stats;

use std::time::{Duration, Instant};

use gg_core::{Game, MoveList};

pub use arena::{play_game, GameRecord, Playthrough, DEFAULT_MAX_LENGTH};
pub use flatmc::FlatMcAgent;
pub use gg_core::Turn;
pub use mcts::{MctsAgent, MctsConfig};
pub use playout::{PlayoutPolicy, UniformPolicy};
pub use random::RandomAgent;
pub use spec::{Budget, Spec};
pub use stats::{MatchStats, Outcome};

/// A player of games `G`. Agents are `Send` so matches can run on several
/// threads.
pub trait Agent<G: Game>: Send {
    /// A short name for tables and logs, e.g. `mcts:time=1s`.
    fn name(&self) -> String;

    /// Starts a new game (the state is the game's initial state). Called
    /// before the first [`Agent::select`].
    fn new_game(&mut self, game: &G, state: &G::State);

    /// Chooses one of `moves` (never empty), the legal moves of the player on
    /// move in `state`, and returns its index. `deadline`, when given, is
    /// the time by which the answer is needed (search agents stop at the
    /// earlier of it and their budget).
    fn select(
        &mut self,
        state: &G::State,
        moves: &MoveList<G::Atom>,
        deadline: Option<Instant>,
    ) -> Result<usize, G::Error>;

    /// Tells the agent that `m` was played in `before` (by any player or
    /// chance, including itself). The default does nothing.
    fn observe(&mut self, before: &G::State, m: &[G::Atom]) {
        let _ = (before, m);
    }

    /// What the last [`Agent::select`] did, for search agents.
    fn last_search(&self) -> Option<SearchInfo> {
        None
    }
}

/// Work done by one search.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchInfo {
    /// Iterations (playouts) run.
    pub iterations: u64,
    /// Moves played inside playouts.
    pub playout_plies: u64,
    /// Wall time of the search.
    pub seconds: f64,
}

/// The agent kinds of [`from_spec`] with their parameters, for help texts.
pub const SPEC_HELP: &str = "\
random                      uniformly random moves
flatmc[:PARAMS]             flat Monte Carlo: playouts spread evenly over the moves
mcts[:PARAMS]               MCTS with UCT (tree kept between moves)
PARAMS are key=value separated by `:` (`,` separates agents), e.g. mcts:time=1s:c=1.4
  time=DURATION             time per move (500ms, 1s, 1.5s); default 1s
  iterations=N              playouts per move (with time: whichever ends first)
  playout=random            playout policy
  depth=N                   cut playouts after N moves and score them as they stand (0 = never)
  c=X                       (mcts) UCT exploration constant, default 1.4
  reuse=BOOL                (mcts) keep the subtree of the played move, default true";

/// A search agent's budget, playout policy and playout length limit.
type SearchParams<G> = (Budget, Box<dyn PlayoutPolicy<G>>, u64);

/// Builds an agent from a spec such as `random`, `flatmc:iterations=1000` or
/// `mcts:time=1s:c=1.4` (see [`SPEC_HELP`]). `seed` seeds its generator.
pub fn from_spec<G: Game>(spec: &str, seed: u64) -> Result<Box<dyn Agent<G>>, String> {
    let spec = Spec::parse(spec)?;
    let default = Budget::time(Duration::from_secs(1));
    let search = |spec: &Spec| -> Result<SearchParams<G>, String> {
        let budget = spec.budget(default)?;
        let name = spec.get("playout").unwrap_or("random");
        let policy = playout::policy_from_name(name).ok_or_else(|| {
            format!(
                "agent {}: unknown playout policy {name:?} (expected random)",
                spec.kind
            )
        })?;
        let depth = spec.get_or("depth", 0, |v| v.parse().ok(), "a number of moves")?;
        Ok((budget, policy, depth))
    };
    match spec.kind.as_str() {
        "random" => {
            spec.check_known(&[])?;
            Ok(Box::new(RandomAgent::new(seed)))
        }
        "flatmc" => {
            spec.check_known(&["time", "iterations", "playout", "depth"])?;
            let (budget, policy, depth) = search(&spec)?;
            Ok(Box::new(FlatMcAgent::new(budget, policy, depth, seed)))
        }
        "mcts" => {
            spec.check_known(&["time", "iterations", "playout", "depth", "c", "reuse"])?;
            let (budget, policy, max_plies) = search(&spec)?;
            let c = spec.get_or("c", 1.4, spec::non_negative, "a non-negative number")?;
            let reuse = spec.get_or("reuse", true, |v| v.parse().ok(), "true or false")?;
            let config = MctsConfig {
                budget,
                c,
                max_plies,
                reuse,
            };
            Ok(Box::new(MctsAgent::new(config, policy, seed)))
        }
        "human" => Err("agent human: only `rbg play` has human players".to_string()),
        other => Err(format!(
            "unknown agent {other:?} (expected random, flatmc or mcts)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rbg_engine::GameModel;

    #[test]
    fn specs_build_named_agents() {
        let name = |s: &str| from_spec::<GameModel>(s, 1).unwrap().name();
        assert_eq!(name("random"), "random");
        assert_eq!(name("flatmc"), "flatmc:time=1s");
        assert_eq!(
            name("flatmc:iterations=50:depth=9"),
            "flatmc:iterations=50:depth=9"
        );
        assert_eq!(name("mcts:time=500ms:c=0.7"), "mcts:time=500ms:c=0.7");
        assert_eq!(
            name("mcts:iterations=100:reuse=false"),
            "mcts:iterations=100:c=1.4:reuse=false"
        );
    }

    #[test]
    fn bad_specs_are_errors() {
        let err = |s: &str| from_spec::<GameModel>(s, 1).err().unwrap();
        assert_eq!(
            err("alphazero"),
            "unknown agent \"alphazero\" (expected random, flatmc or mcts)"
        );
        assert_eq!(
            err("random:time=1s"),
            "agent random: takes no parameters, found `time`"
        );
        assert_eq!(
            err("mcts:time=soon"),
            "agent mcts: `time` expects a duration such as 500ms, 1s or 1.5s, found \"soon\""
        );
        assert_eq!(
            err("mcts:c=-1"),
            "agent mcts: `c` expects a non-negative number, found \"-1\""
        );
        assert_eq!(
            err("flatmc:playout=smart"),
            "agent flatmc: unknown playout policy \"smart\" (expected random)"
        );
        assert!(err("human").contains("rbg play"));
    }
}
