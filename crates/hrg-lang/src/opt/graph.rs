//! The automaton as per-node edge lists (only the order of one node's edges
//! means anything: `rg-language.md` §5.4), and what the passes may assume
//! of each node ([`Facts`]).

use std::collections::HashMap;

use rg_lang::ast::{self as rg, Label, Loc, Name};

use super::names::{written, Names, Reads, BUILTIN_VARIABLES};

/// An edge from the node whose list holds it.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(super) struct Edge {
    pub to: usize,
    pub label: Label,
    pub loc: Loc,
}

/// Nodes (by index) with their outgoing edges in file order.
pub(super) struct Graph {
    pub names: Vec<String>,
    index: HashMap<String, usize>,
    /// Where a node's edges are printed: (its first edge's place in the
    /// input, or its origin's for a copy; creation order).
    key: Vec<(usize, usize)>,
    pub out: Vec<Vec<Edge>>,
    created: usize,
    /// The source node of each input edge, in file order.
    sources: Vec<usize>,
}

/// Node indices of `begin` and `end`.
pub(super) const BEGIN: usize = 0;
pub(super) const END: usize = 1;

impl Graph {
    pub(super) fn new(game: &rg::Game) -> Graph {
        let mut g = Graph {
            names: Vec::new(),
            index: HashMap::new(),
            key: Vec::new(),
            out: Vec::new(),
            created: 0,
            sources: Vec::new(),
        };
        g.node("begin", 0);
        g.node("end", usize::MAX);
        for (i, e) in game.edges.iter().enumerate() {
            let from = g.node(&e.from.text, i);
            let to = g.node(&e.to.text, i);
            g.sources.push(from);
            g.out[from].push(Edge {
                to,
                label: e.label.clone(),
                loc: e.loc,
            });
        }
        for (i, e) in game.edges.iter().enumerate() {
            if let Label::Reach { from, to, .. } = &e.label {
                g.node(&from.text, i);
                g.node(&to.text, i);
            }
        }
        g
    }

    /// The index of node `name`, made if new (printed at `place`).
    fn node(&mut self, name: &str, place: usize) -> usize {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        let i = self.names.len();
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), i);
        self.key.push((place, 0));
        self.out.push(Vec::new());
        i
    }

    pub(super) fn lookup(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// A new node copied from `origin` (a fresh name after it).
    pub(super) fn copy_of(&mut self, origin: usize) -> usize {
        let mut k = self.names.len();
        let mut name = format!("{}_{k}", self.names[origin]);
        while self.index.contains_key(&name) {
            k += 1;
            name = format!("{}_{k}", self.names[origin]);
        }
        self.created += 1;
        let i = self.names.len();
        self.names.push(name.clone());
        self.index.insert(name, i);
        self.key.push((self.key[origin].0, self.created));
        self.out.push(Vec::new());
        i
    }

    /// Removes the nodes from `n` on (copies given up).
    pub(super) fn truncate(&mut self, n: usize) {
        for name in self.names.drain(n..) {
            self.index.remove(&name);
        }
        self.key.truncate(n);
        self.out.truncate(n);
    }

    pub(super) fn edge_count(&self) -> usize {
        self.out.iter().map(Vec::len).sum()
    }

    /// The edges: where the input had an edge of node `n`, the next edge of
    /// `n` (so an unchanged game prints as it was read), then the rest of
    /// each node's edges, nodes in print order.
    pub(super) fn edges(&self) -> Vec<rg::Edge> {
        let name = |i: usize, loc: Loc| Name::at(self.names[i].clone(), loc.0);
        let edge = |from: usize, e: &Edge| rg::Edge {
            from: name(from, e.loc),
            to: name(e.to, e.loc),
            label: e.label.clone(),
            loc: e.loc,
        };
        let mut next = vec![0usize; self.names.len()];
        let mut out = Vec::with_capacity(self.edge_count());
        for &n in &self.sources {
            if let Some(e) = self.out[n].get(next[n]) {
                out.push(edge(n, e));
                next[n] += 1;
            }
        }
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by_key(|&i| self.key[i]);
        for n in order {
            out.extend(self.out[n][next[n]..].iter().map(|e| edge(n, e)));
        }
        out
    }

    /// The (start, target) nodes of a check label.
    pub(super) fn check(&self, label: &Label) -> Option<(usize, usize)> {
        match label {
            Label::Reach { from, to, .. } => {
                Some((self.lookup(&from.text)?, self.lookup(&to.text)?))
            }
            _ => None,
        }
    }
}

/// The checks whose search may pass a node's edges.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Owner {
    /// None.
    None,
    /// Only checks with this target; `clean` when none of them assigns
    /// `player`, `goals` or `visible` or passes a node named by a pragma.
    One { target: usize, clean: bool },
    /// Checks with different targets.
    Many,
}

/// What the passes may assume of each node.
pub(super) struct Facts {
    /// Reached from `begin` (edges followed, checks not entered).
    pub main: Vec<bool>,
    pub owner: Vec<Owner>,
    /// Named by a check (its start or target).
    pub referenced: Vec<bool>,
    pub pragma: Vec<bool>,
    /// Per check (start, target): the variables its search reads,
    /// nested checks included.
    pub check_reads: HashMap<(usize, usize), Reads>,
}

/// At most this many node visits for the checks' searches in one analysis.
const ANALYSIS_WORK: usize = 4_000_000;

impl Facts {
    /// `None` when the checks' searches are too large to analyse.
    pub(super) fn new(g: &Graph, names: &Names) -> Option<Facts> {
        let n = g.names.len();
        let mut pragma = vec![false; n];
        for p in &names.pragma_nodes {
            if let Some(i) = g.lookup(p) {
                pragma[i] = true;
            }
        }
        let mut search = Search::new(n);
        let mut main = vec![false; n];
        for i in search.reach(g, BEGIN, None) {
            main[i] = true;
        }
        let mut referenced = vec![false; n];
        let mut checks: Vec<(usize, usize)> = Vec::new();
        for e in g.out.iter().flatten() {
            if let Some((a, b)) = g.check(&e.label) {
                referenced[a] = true;
                referenced[b] = true;
                checks.push((a, b));
            }
        }
        checks.sort_unstable();
        checks.dedup();
        let mut owner = vec![Owner::None; n];
        // Per node: what its edges read, and whether one writes a built-in.
        let mut node_reads: Vec<Option<(Reads, bool)>> = vec![None; n];
        let mut reads: HashMap<(usize, usize), Reads> = HashMap::new();
        let mut nested: HashMap<(usize, usize), Vec<(usize, usize)>> = HashMap::new();
        let mut work = 0;
        for &(a, b) in &checks {
            let mut nodes = search.reach(g, a, Some(b));
            nodes.retain(|&i| i != b);
            work += nodes.len();
            if work > ANALYSIS_WORK {
                return None;
            }
            let mut clean = true;
            let mut r = Reads::default();
            let mut inner = Vec::new();
            for &i in &nodes {
                let (node_r, writes_builtin) = node_reads[i].get_or_insert_with(|| {
                    let mut r = Reads::default();
                    let mut w = false;
                    for e in &g.out[i] {
                        w |= written(&e.label).is_some_and(|w| BUILTIN_VARIABLES.contains(&w));
                        r.union(&names.read_set(&e.label));
                    }
                    (r, w)
                });
                clean &= !pragma[i] && !*writes_builtin;
                r.union(node_r);
                inner.extend(g.out[i].iter().filter_map(|e| g.check(&e.label)));
            }
            for &i in &nodes {
                owner[i] = match owner[i] {
                    Owner::None => Owner::One { target: b, clean },
                    Owner::One { target, clean: c } if target == b => Owner::One {
                        target,
                        clean: c && clean,
                    },
                    _ => Owner::Many,
                };
            }
            reads.insert((a, b), r);
            nested.insert((a, b), inner);
        }
        // Nested checks' reads, to a fixed point.
        loop {
            let mut grew = false;
            for c in &checks {
                for d in &nested[c] {
                    if d != c {
                        let add = reads[d].clone();
                        grew |= reads.get_mut(c).expect("every check").union(&add);
                    }
                }
            }
            if !grew {
                break;
            }
        }
        Some(Facts {
            main,
            owner,
            referenced,
            pragma,
            check_reads: reads,
        })
    }

    /// A node only check searches with one target pass, all of them clean:
    /// there every walk has the check's `player`, `goals` and `visible`, so
    /// the reference's visited set (§5.4, §7.7) drops only walks in a state
    /// already reached, and the check holds exactly when its target is
    /// reachable in the graph of states. Returns that target.
    pub(super) fn editable(&self, n: usize) -> Option<usize> {
        match self.owner.get(n).copied().unwrap_or(Owner::Many) {
            Owner::One {
                target,
                clean: true,
            } if !self.main[n] && !self.pragma[n] && n != BEGIN && n != END && n != target => {
                Some(target)
            }
            _ => None,
        }
    }

    /// An editable node no check names: it may be merged or bypassed.
    pub(super) fn removable(&self, n: usize) -> Option<usize> {
        self.editable(n).filter(|_| !self.referenced[n])
    }
}

/// Searches of the graph with one visited array.
pub(super) struct Search {
    seen: Vec<u32>,
    stamp: u32,
}

impl Search {
    pub(super) fn new(n: usize) -> Search {
        Search {
            seen: vec![0; n],
            stamp: 0,
        }
    }

    /// The nodes reached from `start` following edges (not entering
    /// checks), not leaving `stop`; `start` first.
    pub(super) fn reach(&mut self, g: &Graph, start: usize, stop: Option<usize>) -> Vec<usize> {
        if self.seen.len() < g.names.len() {
            self.seen.resize(g.names.len(), 0);
        }
        self.stamp += 1;
        let stamp = self.stamp;
        self.seen[start] = stamp;
        let mut out = vec![start];
        let mut next = 0;
        while next < out.len() {
            let i = out[next];
            next += 1;
            if Some(i) == stop {
                continue;
            }
            for e in &g.out[i] {
                if self.seen[e.to] != stamp {
                    self.seen[e.to] = stamp;
                    out.push(e.to);
                }
            }
        }
        out
    }
}
