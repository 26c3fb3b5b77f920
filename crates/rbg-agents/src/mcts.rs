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
//!
//! At a chance node (RG's `random` player) the iteration follows a child
//! drawn uniformly, as the game would; a child drawn for the first time is
//! the iteration's new node. Its value is then the average over the
//! outcomes drawn, an estimate of the expectation.

use std::time::Instant;

use gg_core::{Game, MoveList, Reasoner, Turn};
use rand::seq::SliceRandom;
use rand::Rng;

use crate::playout::{live_moves, restart_simulator, PlayoutPolicy, Simulator};
use crate::spec::Budget;
use crate::{Agent, SearchInfo};

const NONE: u32 = u32::MAX;
/// `Node::mover` of a chance node.
const CHANCE: u32 = u32::MAX - 1;

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
    /// Player on move (set at expansion); `CHANCE` at a chance node,
    /// `NONE` when the game is over.
    mover: u32,
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
        }
    }
}

/// The search tree: nodes, their moves, and per-node per-player score sums.
struct Tree<G: Game> {
    players: usize,
    nodes: Vec<Node>,
    apps: Vec<G::Atom>,
    rewards: Vec<f64>,
    root_state: G::State,
}

impl<G: Game> Tree<G> {
    fn new(players: usize, root_state: G::State) -> Tree<G> {
        Tree {
            players,
            nodes: vec![Node::leaf((0, 0))],
            apps: Vec::new(),
            rewards: vec![0.0; players],
            root_state,
        }
    }

    fn mv(&self, node: u32) -> &[G::Atom] {
        let (a, b) = self.nodes[node as usize].mv;
        &self.apps[a as usize..b as usize]
    }

    fn push(&mut self, mv: &[G::Atom]) {
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
    fn subtree(&self, node: u32, root_state: G::State) -> Tree<G> {
        let mut t = Tree::new(self.players, root_state);
        let mut old = vec![node];
        let copy_stats = |t: &mut Tree<G>, new: usize, from: u32| {
            let src = &self.nodes[from as usize];
            let dst = &mut t.nodes[new];
            (dst.tried, dst.visits, dst.mover) = (src.tried, src.visits, src.mover);
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
pub struct MctsAgent<G: Game> {
    config: MctsConfig,
    seed: u64,
    policy: Option<Box<dyn PlayoutPolicy<G>>>,
    sim: Option<Simulator<G>>,
    tree: Option<Tree<G>>,
    scratch: Option<G::State>,
    moves: MoveList<G::Atom>,
    path: Vec<u32>,
    order: Vec<u32>,
    last: Option<SearchInfo>,
}

impl<G: Game> MctsAgent<G> {
    /// An MCTS agent with the given settings and playout policy.
    pub fn new(config: MctsConfig, policy: Box<dyn PlayoutPolicy<G>>, seed: u64) -> MctsAgent<G> {
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
    fn iterate(&mut self) -> Result<(), G::Error> {
        let sim = self.sim.as_mut().expect("initialised");
        let tree = self.tree.as_mut().expect("initialised");
        let s = self.scratch.get_or_insert_with(|| tree.root_state.clone());
        s.clone_from(&tree.root_state);
        self.path.clear();
        let mut node = 0u32;
        self.path.push(node);
        let rewards: &[f64] = loop {
            let nd = tree.nodes[node as usize];
            if nd.children == NONE {
                // Expansion: list the moves, children in a random order.
                let first = tree.nodes.len() as u32;
                let turn = live_moves::<G>(&mut sim.reasoner, s, &mut self.moves)?;
                let n = if turn == Turn::Over {
                    0
                } else {
                    self.moves.len() as u32
                };
                self.order.clear();
                self.order.extend(0..n);
                self.order.shuffle(&mut sim.rng);
                for &i in &self.order {
                    tree.push(self.moves.get(i as usize));
                }
                let nd = &mut tree.nodes[node as usize];
                nd.children = first;
                nd.num_children = n;
                nd.mover = match turn {
                    Turn::Player(p) => p as u32,
                    Turn::Chance => CHANCE,
                    Turn::Over => NONE,
                };
            }
            let nd = tree.nodes[node as usize];
            if nd.mover == NONE {
                break sim.simulate(s)?;
            }
            let (child, new) = if nd.mover == CHANCE {
                let ch = nd.children + sim.rng.gen_range(0..nd.num_children);
                (ch, tree.nodes[ch as usize].visits == 0)
            } else if nd.tried < nd.num_children {
                tree.nodes[node as usize].tried += 1;
                (nd.children + nd.tried, true)
            } else {
                (tree.uct_child(node, self.config.c), false)
            };
            let (a, b) = tree.nodes[child as usize].mv;
            sim.reasoner.apply(s, &tree.apps[a as usize..b as usize])?;
            self.path.push(child);
            node = child;
            if new {
                break sim.simulate(s)?;
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
        Ok(())
    }
}

impl<G: Game> Agent<G> for MctsAgent<G> {
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

    fn new_game(&mut self, game: &G, _state: &G::State) {
        restart_simulator(
            &mut self.sim,
            &mut self.policy,
            &mut self.seed,
            game,
            self.config.max_plies,
        );
        self.tree = None;
    }

    fn select(
        &mut self,
        state: &G::State,
        moves: &MoveList<G::Atom>,
        deadline: Option<Instant>,
    ) -> Result<usize, G::Error> {
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
                self.iterate()?;
            }
        }
        let sim = self.sim.as_ref().expect("initialised");
        let tree = self.tree.as_ref().expect("initialised");
        self.last = Some(SearchInfo {
            iterations: if moves.len() > 1 { clock.done() } else { 0 },
            playout_plies: sim.plies - plies,
            seconds: start.elapsed().as_secs_f64(),
        });
        // The most visited child among `moves` (which may be only some of
        // the legal moves: callers that fixed part of a move pass the rest).
        let mover = tree.nodes[0].mover as usize;
        let best = tree
            .children(0)
            .filter_map(|ch| Some((ch, moves.position(tree.mv(ch))?)))
            .max_by(|&(a, _), &(b, _)| {
                let (na, nb) = (&tree.nodes[a as usize], &tree.nodes[b as usize]);
                na.visits
                    .cmp(&nb.visits)
                    .then(tree.mean(a, mover).total_cmp(&tree.mean(b, mover)))
            });
        Ok(best.map_or(0, |(_, i)| i))
    }

    fn observe(&mut self, before: &G::State, m: &[G::Atom]) {
        let (Some(tree), Some(sim)) = (self.tree.take(), self.sim.as_mut()) else {
            return;
        };
        if !self.config.reuse || tree.root_state != *before {
            return;
        }
        if let Some(ch) = tree.children(0).find(|&ch| tree.mv(ch) == m) {
            let mut after = before.clone();
            if sim.reasoner.apply(&mut after, m).is_ok() {
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
    use rbg_engine::{GameModel, ModApp};

    const TTT: &str = include_str!("../../../games/ticTacToe.rbg");

    fn agent(reuse: bool) -> MctsAgent<GameModel> {
        let config = MctsConfig {
            budget: Budget::iterations(300),
            c: 1.4,
            max_plies: 0,
            reuse,
        };
        MctsAgent::new(config, Box::new(UniformPolicy), 5)
    }

    fn child_visits(a: &MctsAgent<GameModel>, m: &[ModApp]) -> u32 {
        let t = a.tree.as_ref().unwrap();
        let ch = t.children(0).find(|&ch| t.mv(ch) == m).unwrap();
        t.nodes[ch as usize].visits
    }

    #[test]
    fn tree_is_reused_after_both_moves() {
        let game = GameModel::from_text(TTT).unwrap();
        let mut p = Playthrough::new(&game).unwrap();
        let mut a = agent(true);
        a.new_game(&game, p.state());
        let i = a.select(p.state(), p.moves(), None).unwrap();
        let m = p.moves().get(i).to_vec();
        assert_eq!(a.root_visits(), 300);
        assert_eq!(a.last_search().unwrap().iterations, 300);
        let kept = child_visits(&a, &m);
        a.observe(p.state(), &m);
        p.play(i).unwrap();
        assert_eq!(a.root_visits(), kept);
        // The opponent's reply: the subtree under it is kept too.
        let reply = p.moves().get(0).to_vec();
        let kept = child_visits(&a, &reply);
        assert!(kept > 0);
        a.observe(p.state(), &reply);
        p.play(0).unwrap();
        assert_eq!(a.root_visits(), kept);
        let _ = a.select(p.state(), p.moves(), None).unwrap();
        assert_eq!(a.root_visits(), kept + 300);
    }

    #[test]
    fn without_reuse_the_tree_is_dropped() {
        let game = GameModel::from_text(TTT).unwrap();
        let p = Playthrough::new(&game).unwrap();
        let mut a = agent(false);
        a.new_game(&game, p.state());
        let i = a.select(p.state(), p.moves(), None).unwrap();
        assert!(a.tree_size() > 9);
        a.observe(p.state(), p.moves().get(i));
        assert_eq!(a.tree_size(), 0);
    }

    #[test]
    fn chooses_among_the_given_moves_only() {
        let game = GameModel::from_text(TTT).unwrap();
        let p = Playthrough::new(&game).unwrap();
        // Corners only: the centre, the best first move, is not offered.
        let mut corners = MoveList::default();
        for i in [0, 2, 6, 8] {
            corners.push(p.moves().get(i));
        }
        let mut a = agent(false);
        a.new_game(&game, p.state());
        let i = a.select(p.state(), &corners, None).unwrap();
        let visits: Vec<u32> = corners.iter().map(|m| child_visits(&a, m)).collect();
        assert_eq!(visits[i], *visits.iter().max().unwrap(), "{visits:?}");
        // The search looked at every legal move, and liked another best.
        let overall = (0..9).map(|j| child_visits(&a, p.moves().get(j))).max();
        assert!(overall > visits.iter().max().copied(), "{visits:?}");
    }
}
