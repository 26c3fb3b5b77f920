//! Flat Monte Carlo: playouts after every legal move, spread evenly; the
//! move with the best average (normalised) score for the mover wins.

use std::time::Instant;

use gg_core::{Game, MoveList, Reasoner, Turn};

use crate::playout::{restart_simulator, PlayoutPolicy, Simulator};
use crate::spec::Budget;
use crate::{Agent, SearchInfo};

/// Flat Monte Carlo search.
pub struct FlatMcAgent<G: Game> {
    budget: Budget,
    max_plies: u64,
    seed: u64,
    policy: Option<Box<dyn PlayoutPolicy<G>>>,
    sim: Option<Simulator<G>>,
    state: Option<G::State>,
    /// Playouts of the last `select`.
    pub last_playouts: u64,
    /// What the last `select` did.
    last: Option<SearchInfo>,
}

impl<G: Game> FlatMcAgent<G> {
    /// A flat Monte Carlo agent; `max_plies` limits playouts (0 = none).
    pub fn new(
        budget: Budget,
        policy: Box<dyn PlayoutPolicy<G>>,
        max_plies: u64,
        seed: u64,
    ) -> Self {
        FlatMcAgent {
            budget,
            max_plies,
            seed,
            policy: Some(policy),
            sim: None,
            state: None,
            last_playouts: 0,
            last: None,
        }
    }
}

impl<G: Game> Agent<G> for FlatMcAgent<G> {
    fn name(&self) -> String {
        let policy = match (&self.sim, &self.policy) {
            (Some(s), _) => s.policy.name(),
            (None, Some(p)) => p.name(),
            (None, None) => unreachable!("the policy is kept in one of the two"),
        };
        let mut name = format!("flatmc:{}", self.budget.describe());
        if policy != "random" {
            name.push_str(&format!(":playout={policy}"));
        }
        if self.max_plies > 0 {
            name.push_str(&format!(":depth={}", self.max_plies));
        }
        name
    }

    fn new_game(&mut self, game: &G, _state: &G::State) {
        restart_simulator(
            &mut self.sim,
            &mut self.policy,
            &mut self.seed,
            game,
            self.max_plies,
        );
        self.state = None;
    }

    fn select(
        &mut self,
        state: &G::State,
        moves: &MoveList<G::Atom>,
        deadline: Option<Instant>,
    ) -> Result<usize, G::Error> {
        let sim = self
            .sim
            .as_mut()
            .expect("Agent::new_game is called before select");
        let Turn::Player(me) = sim.reasoner.game().turn(state) else {
            panic!("select is called with a player on move");
        };
        let n = moves.len();
        let mut visits = vec![0u64; n];
        let mut sums = vec![0f64; n];
        let scratch = self.state.get_or_insert_with(|| state.clone());
        let start = Instant::now();
        let plies = sim.plies;
        let mut clock = self.budget.start(deadline);
        let mut i = 0;
        while n > 1 && clock.tick() {
            scratch.clone_from(state);
            sim.reasoner.apply(scratch, moves.get(i))?;
            sums[i] += sim.simulate(scratch)?[me];
            visits[i] += 1;
            i = (i + 1) % n;
        }
        self.last_playouts = visits.iter().sum();
        self.last = Some(SearchInfo {
            iterations: self.last_playouts,
            playout_plies: sim.plies - plies,
            seconds: start.elapsed().as_secs_f64(),
        });
        let mean = |i: usize| sums[i] / visits[i].max(1) as f64;
        let best = (0..n)
            .max_by(|&a, &b| mean(a).total_cmp(&mean(b)).then(b.cmp(&a)))
            .expect("moves is not empty");
        Ok(best)
    }

    fn last_search(&self) -> Option<SearchInfo> {
        self.last
    }
}
