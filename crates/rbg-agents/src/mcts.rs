//! Monte Carlo tree search with UCT, for any number of players.
//!
//! Every node keeps, for every player, the sum of normalised scores of the
//! playouts through it; the player on move at a node picks the child
//! maximising `mean_p + c * sqrt(ln N / n)` (unvisited children first, in a
//! random order). Each iteration descends from the root by re-applying the
//! stored moves (states are not stored in the tree), expands one new child,
//! plays out from it and backs the scores up. The move played is the most
//! visited child of the root. After a move is played (by anyone) the subtree
//! under it becomes the new tree.

use std::time::Instant;

use rand::seq::SliceRandom;
use rbg_engine::{GameModel, ModApp, Move, MoveList, State};

use crate::playout::{live_moves, restart_simulator, PlayoutPolicy, Simulator};
use crate::spec::Budget;
use crate::{Agent, SearchInfo};

const NONE: u32 = u32::MAX;

/// Settings of [`MctsAgent`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// Search budget per move.
    pub budget: Budget,
    /// UCT exploration constant (scores are normalised to `0..=1`).
    pub c: f64,
    /// Playout length limit (0 = none).
    pub max_plies: u64,
    /// Keep the subtree of the played move for the next search.
    pub reuse: bool,
}

#[derive(Clone, Copy, Debug)]
struct Node {
    /// The move into this node: a range of `Tree::apps`.
    mv: (u32, u32),
    /// First child (children are contiguous); `NONE` before expansion.
    children: u32,
    num_children: u32,
    /// Children `children..children + tried` have been visited.
    tried: u32,
    visits: u32,
    /// Player on move (set at expansion); `NONE` when the game is over.
    mover: u32,
    /// The keeper got stuck entering this node (the game is over).
    dead: bool,
}

impl Node {
    fn leaf(mv: (u32, u32)) -> Node {
        Node {
            mv,
            children: NONE,
            num_children: 0,
            tried: 0,
            visits: 0,
            mover: NONE,
            dead: false,
        }
    }
}

/// The search tree: nodes, their moves, and per-node per-player score sums.
struct Tree {
    players: usize,
    nodes: Vec<Node>,
    apps: Vec<ModApp>,
    rewards: Vec<f64>,
    root_state: State,
}

impl Tree {
    fn new(players: usize, root_state: State) -> Tree {
        Tree {
            players,
            nodes: vec![Node::leaf((0, 0))],
            apps: Vec::new(),
            rewards: vec![0.0; players],
            root_state,
        }
    }

    fn mv(&self, node: u32) -> &[ModApp] {
        let (a, b) = self.nodes[node as usize].mv;
        &self.apps[a as usize..b as usize]
    }

    fn push(&mut self, mv: &[ModApp]) {
        let a = self.apps.len() as u32;
        self.apps.extend_from_slice(mv);
        self.nodes.push(Node::leaf((a, self.apps.len() as u32)));
        self.rewards.extend(std::iter::repeat_n(0.0, self.players));
    }

    fn children(&self, node: u32) -> std::ops::Range<u32> {
        let n = &self.nodes[node as usize];
        if n.children == NONE {
            0..0
        } else {
            n.children..n.children + n.num_children
        }
    }

    /// Mean normalised score of `player` at `node`.
    fn mean(&self, node: u32, player: usize) -> f64 {
        let n = &self.nodes[node as usize];
        self.rewards[node as usize * self.players + player] / n.visits.max(1) as f64
    }

    /// The child chosen by UCT at a fully tried `node`.
    fn uct_child(&self, node: u32, c: f64) -> u32 {
        let nd = &self.nodes[node as usize];
        let mover = nd.mover as usize;
        let log_n = (nd.visits.max(1) as f64).ln();
        let mut best = (f64::NEG_INFINITY, nd.children);
        for ch in self.children(node) {
            let visits = self.nodes[ch as usize].visits.max(1) as f64;
            let value = self.mean(ch, mover) + c * (log_n / visits).sqrt();
            if value > best.0 {
                best = (value, ch);
            }
        }
        best.1
    }

    /// The copy of the subtree under `node`, which becomes the root.
    fn subtree(&self, node: u32, root_state: State) -> Tree {
        let mut t = Tree::new(self.players, root_state);
        let mut old = vec![node];
        let copy_stats = |t: &mut Tree, new: usize, from: u32| {
            let src = &self.nodes[from as usize];
            let dst = &mut t.nodes[new];
            (dst.tried, dst.visits, dst.mover, dst.dead) =
                (src.tried, src.visits, src.mover, src.dead);
            let p = self.players;
            t.rewards[new * p..(new + 1) * p]
                .copy_from_slice(&self.rewards[from as usize * p..(from as usize + 1) * p]);
        };
        copy_stats(&mut t, 0, node);
        let mut i = 0;
        while i < t.nodes.len() {
            let from = old[i];
            let range = self.children(from);
            if self.nodes[from as usize].children != NONE {
                t.nodes[i].children = t.nodes.len() as u32;
                t.nodes[i].num_children = range.len() as u32;
                for ch in range {
                    t.push(self.mv(ch));
                    let new = t.nodes.len() - 1;
                    copy_stats(&mut t, new, ch);
                    old.push(ch);
                }
            }
            i += 1;
        }
        t
    }
}

/// MCTS with UCT.
pub struct MctsAgent {
    config: MctsConfig,
    seed: u64,
    policy: Option<Box<dyn PlayoutPolicy>>,
    sim: Option<Simulator>,
    tree: Option<Tree>,
    scratch: Option<State>,
    moves: MoveList,
    path: Vec<u32>,
    order: Vec<u32>,
    last: Option<SearchInfo>,
}

impl MctsAgent {
    /// An MCTS agent with the given settings and playout policy.
    pub fn new(config: MctsConfig, policy: Box<dyn PlayoutPolicy>, seed: u64) -> MctsAgent {
        MctsAgent {
            config,
            seed,
            policy: Some(policy),
            sim: None,
            tree: None,
            scratch: None,
            moves: MoveList::default(),
            path: Vec::new(),
            order: Vec::new(),
            last: None,
        }
    }

    /// Number of nodes in the current tree (0 when there is none).
    pub fn tree_size(&self) -> usize {
        self.tree.as_ref().map_or(0, |t| t.nodes.len())
    }

    /// Visits of the current root (playouts kept from earlier searches plus
    /// the last search's).
    pub fn root_visits(&self) -> u32 {
        self.tree.as_ref().map_or(0, |t| t.nodes[0].visits)
    }

    /// One iteration: descend, expand, play out, back up.
    fn iterate(&mut self) {
        let sim = self.sim.as_mut().expect("initialised");
        let tree = self.tree.as_mut().expect("initialised");
        let s = self.scratch.get_or_insert_with(|| tree.root_state.clone());
        s.clone_from(&tree.root_state);
        self.path.clear();
        let mut node = 0u32;
        self.path.push(node);
        let mut alive = true;
        let rewards: &[f64] = loop {
            let nd = tree.nodes[node as usize];
            if nd.children == NONE {
                // Expansion: list the moves, children in a random order.
                let first = tree.nodes.len() as u32;
                let live = !nd.dead && live_moves(&mut sim.reasoner, s, alive, &mut self.moves);
                let n = if live { self.moves.len() as u32 } else { 0 };
                self.order.clear();
                self.order.extend(0..n);
                self.order.shuffle(&mut sim.rng);
                for &i in &self.order {
                    tree.push(self.moves.get(i as usize));
                }
                let nd = &mut tree.nodes[node as usize];
                nd.children = first;
                nd.num_children = n;
                nd.mover = match live {
                    true => sim.reasoner.game().current_player(s).expect("live") as u32,
                    false => NONE,
                };
            }
            let nd = tree.nodes[node as usize];
            if nd.mover == NONE {
                break sim.simulate(s, false);
            }
            let child = if nd.tried < nd.num_children {
                tree.nodes[node as usize].tried += 1;
                nd.children + nd.tried
            } else {
                tree.uct_child(node, self.config.c)
            };
            let (a, b) = tree.nodes[child as usize].mv;
            alive = sim.reasoner.apply(s, &tree.apps[a as usize..b as usize]);
            tree.nodes[child as usize].dead = !alive;
            self.path.push(child);
            node = child;
            if nd.tried < nd.num_children {
                break sim.simulate(s, alive);
            }
        };
        let p = tree.players;
        for &n in &self.path {
            tree.nodes[n as usize].visits += 1;
            for (sum, r) in tree.rewards[n as usize * p..(n as usize + 1) * p]
                .iter_mut()
                .zip(rewards)
            {
                *sum += r;
            }
        }
    }
}

impl Agent for MctsAgent {
    fn name(&self) -> String {
        let policy = match (&self.sim, &self.policy) {
            (Some(s), _) => s.policy.name(),
            (None, Some(p)) => p.name(),
            (None, None) => unreachable!("the policy is kept in one of the two"),
        };
        let mut name = format!("mcts:{}:c={}", self.config.budget.describe(), self.config.c);
        if policy != "random" {
            name.push_str(&format!(":playout={policy}"));
        }
        if self.config.max_plies > 0 {
            name.push_str(&format!(":depth={}", self.config.max_plies));
        }
        if !self.config.reuse {
            name.push_str(":reuse=false");
        }
        name
    }

    fn new_game(&mut self, game: &GameModel, _state: &State) {
        restart_simulator(
            &mut self.sim,
            &mut self.policy,
            &mut self.seed,
            game,
            self.config.max_plies,
        );
        self.tree = None;
    }

    fn select(&mut self, state: &State, moves: &MoveList, deadline: Option<Instant>) -> Move {
        let sim = self
            .sim
            .as_ref()
            .expect("Agent::new_game is called before select");
        if self.tree.as_ref().is_none_or(|t| t.root_state != *state) {
            self.tree = Some(Tree::new(sim.norm.players(), state.clone()));
        }
        let start = Instant::now();
        let plies = sim.plies;
        let mut clock = self.config.budget.start(deadline);
        if moves.len() > 1 {
            while clock.tick() {
                self.iterate();
            }
        }
        let sim = self.sim.as_ref().expect("initialised");
        let tree = self.tree.as_ref().expect("initialised");
        self.last = Some(SearchInfo {
            iterations: if moves.len() > 1 { clock.done() } else { 0 },
            playout_plies: sim.plies - plies,
            seconds: start.elapsed().as_secs_f64(),
        });
        let best = tree.children(0).max_by(|&a, &b| {
            let (na, nb) = (&tree.nodes[a as usize], &tree.nodes[b as usize]);
            let mover = tree.nodes[0].mover as usize;
            na.visits
                .cmp(&nb.visits)
                .then(tree.mean(a, mover).total_cmp(&tree.mean(b, mover)))
        });
        match best {
            Some(ch) => Move(tree.mv(ch).to_vec()),
            None => Move(moves.get(0).to_vec()),
        }
    }

    fn observe(&mut self, before: &State, m: &[ModApp]) {
        let (Some(tree), Some(sim)) = (self.tree.take(), self.sim.as_mut()) else {
            return;
        };
        if !self.config.reuse || tree.root_state != *before {
            return;
        }
        if let Some(ch) = tree.children(0).find(|&ch| tree.mv(ch) == m) {
            let mut after = before.clone();
            if sim.reasoner.apply(&mut after, m) {
                self.tree = Some(tree.subtree(ch, after));
            }
        }
    }

    fn last_search(&self) -> Option<SearchInfo> {
        self.last
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Playthrough, UniformPolicy};

    const TTT: &str = include_str!("../../../games/ticTacToe.rbg");

    fn agent(reuse: bool) -> MctsAgent {
        let config = MctsConfig {
            budget: Budget::iterations(300),
            c: 1.4,
            max_plies: 0,
            reuse,
        };
        MctsAgent::new(config, Box::new(UniformPolicy), 5)
    }

    fn child_visits(a: &MctsAgent, m: &[ModApp]) -> u32 {
        let t = a.tree.as_ref().unwrap();
        let ch = t.children(0).find(|&ch| t.mv(ch) == m).unwrap();
        t.nodes[ch as usize].visits
    }

    #[test]
    fn tree_is_reused_after_both_moves() {
        let game = GameModel::from_text(TTT).unwrap();
        let mut p = Playthrough::new(&game);
        let mut a = agent(true);
        a.new_game(&game, p.state());
        let m = a.select(p.state(), p.moves(), None);
        assert_eq!(a.root_visits(), 300);
        assert_eq!(a.last_search().unwrap().iterations, 300);
        let kept = child_visits(&a, m.apps());
        a.observe(p.state(), m.apps());
        p.play(p.find(m.apps()).unwrap());
        assert_eq!(a.root_visits(), kept);
        // The opponent's reply: the subtree under it is kept too.
        let reply = p.moves().get(0).to_vec();
        let kept = child_visits(&a, &reply);
        assert!(kept > 0);
        a.observe(p.state(), &reply);
        p.play(0);
        assert_eq!(a.root_visits(), kept);
        a.select(p.state(), p.moves(), None);
        assert_eq!(a.root_visits(), kept + 300);
    }

    #[test]
    fn without_reuse_the_tree_is_dropped() {
        let game = GameModel::from_text(TTT).unwrap();
        let p = Playthrough::new(&game);
        let mut a = agent(false);
        a.new_game(&game, p.state());
        let m = a.select(p.state(), p.moves(), None);
        assert!(a.tree_size() > 9);
        a.observe(p.state(), m.apps());
        assert_eq!(a.tree_size(), 0);
    }
}
