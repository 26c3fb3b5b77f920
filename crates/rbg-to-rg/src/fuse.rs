//! Shifts fused with the tests after them. A shift state whose every
//! continuation is a test of the piece (or another such shift) is not given
//! a node: a transition into it tests the square the shifts lead to, read
//! through their composed map, and only then moves `coord` there
//! (`src -> x: board[M[coord]] == p; x -> u: coord = M[coord]`). A failing
//! test costs a read, not an assignment the engines log and undo, and a
//! chain of shifts is one assignment (breakthrough's `forward (left +
//! right) {e, b}`).
//!
//! Callgrind instructions per playout (`rbg --engine native|interp bench`,
//! seed 1) against the unfused translation: native breakthrough -20.7%,
//! reversi -11.4%, amazons -9.4%, connect4 -7.6%, englishDraughts -6.6%,
//! chess -5.7%; interp reversi -7.3%, breakthrough -3.0%, connect4 -2.1%,
//! the others within 1%.
//!
//! A *lazy* test, one entered only by fused walks with fused shifts among
//! its continuations, has a node per composed map (`{u}f{map}`) instead:
//! the walk goes on through the shifts after it with the maps composed and
//! moves `coord` only into its other continuations (a ray of empty squares
//! ending in a modifier moves `coord` once, where it stops, and the undo
//! log a move record copies holds one entry for it). The moves keep their
//! order: those other continuations are one block of the test's, emitted
//! at its place. Walks meeting at the test's node meet where `coord` is
//! moved (every move ends past such a move: a switch is no test).
//! Callgrind instructions per playout against fusion alone: native amazons
//! -21.3%, reversi -11.3%, chess -5.2%; interp amazons -8.8%, reversi
//! -5.7%, chess -0.6%; englishDraughts within 0.02%, the other 4 games'
//! translations unchanged.

use crate::board::{shape, Shape};
use crate::decls::assign;
use crate::emit::Emitter;
use crate::regex::{Leaf, Nfa};
use rg_lang::ast::Expr;

/// A partial map of vertices.
type Map = Vec<Option<u32>>;

/// A fused shift state's walks: each a composed map and the state of the
/// test it leads to.
pub(crate) type Walks = Vec<(Map, u32)>;

/// Most fused walks (composed map, test state) of one shift state.
const MAX_WALKS: usize = 8;

/// Most (test state, composed map) nodes of one automaton's lazy tests
/// (past it, no test is lazy).
const MAX_LAZY: usize = 1024;

/// An automaton's fused shift states and lazy tests.
#[derive(Default)]
pub(crate) struct Fusion {
    /// Per state: a fused shift state's walks.
    pub(crate) walks: Vec<Option<Walks>>,
    /// Per state: a test entered only by fused walks, some continuations
    /// of which are fused shifts (the others contiguous in the
    /// automaton's order): a walk into it keeps the composed map pending
    /// into those shifts, and moves `coord` only into the others.
    pub(crate) lazy: Vec<bool>,
}

/// `first` then `then`.
fn compose(first: &Map, then: &Map) -> Map {
    first
        .iter()
        .map(|x| x.and_then(|x| then[x as usize]))
        .collect()
}

/// The fused shift states of `nfa` (for each, its walks into tests, each a
/// composed map and the test's state) and its lazy tests. `reach`: the
/// states emitted; `commit`: states whose transitions the keeper's commit
/// emits (their targets are not fused); `fixed`: states whose node is
/// entered from outside the automaton or emitted in its own way (not
/// lazy).
pub(crate) fn fusions(
    nfa: &Nfa,
    relations: &[crate::board::Relation],
    reach: &[bool],
    commit: &[bool],
    fixed: &[bool],
) -> Fusion {
    let walks = fused_walks(nfa, relations, reach, commit);
    let lazy = lazy_tests(nfa, &walks, reach, fixed);
    Fusion { walks, lazy }
}

/// Per state of `nfa`: for a fused shift state, its walks into tests.
fn fused_walks(
    nfa: &Nfa,
    relations: &[crate::board::Relation],
    reach: &[bool],
    commit: &[bool],
) -> Vec<Option<Walks>> {
    let n = nfa.states();
    let mut blocked = vec![false; n];
    for (next, _) in nfa.next.iter().zip(commit).filter(|(_, &c)| c) {
        for &t in next {
            blocked[t as usize] = true;
        }
    }
    let mut out: Vec<Option<Walks>> = vec![None; n];
    // Shifts whose continuations are fused first (chains are short: a
    // shift state's walks compose those of the shift states after it).
    loop {
        let mut changed = false;
        for t in 1..n as u32 {
            if out[t as usize].is_some() || blocked[t as usize] || !reach[t as usize] {
                continue;
            }
            let Leaf::Move(r) = nfa.leaf(t) else {
                continue;
            };
            let Shape::Maps(maps) = shape(&relations[*r]) else {
                continue;
            };
            let mut walks = Vec::new();
            let ok = nfa.next[t as usize].iter().all(|&u| match nfa.leaf(u) {
                Leaf::On(_) => {
                    walks.extend(maps.iter().map(|m| (m.clone(), u)));
                    true
                }
                Leaf::Move(_) => match &out[u as usize] {
                    Some(after) => {
                        for m in &maps {
                            for (m2, v) in after {
                                walks.push((compose(m, m2), *v));
                            }
                        }
                        true
                    }
                    None => false,
                },
                _ => false,
            });
            // (In the automaton's order: the moves keep theirs.)
            let mut seen = std::collections::HashSet::new();
            walks.retain(|w| seen.insert(w.clone()));
            if ok && !walks.is_empty() && walks.len() <= MAX_WALKS {
                out[t as usize] = Some(walks);
                changed = true;
            }
        }
        if !changed {
            return out;
        }
    }
}

/// Per state of `nfa`: whether it is a lazy test (see [`Fusion::lazy`]);
/// none when their nodes (test state, composed map) would pass
/// [`MAX_LAZY`].
fn lazy_tests(nfa: &Nfa, walks: &[Option<Walks>], reach: &[bool], fixed: &[bool]) -> Vec<bool> {
    let n = nfa.states();
    let fused = |t: u32| walks[t as usize].is_some();
    // Tests entered by a transition that is not a fused walk.
    let mut plain = vec![false; n];
    for s in (0..n as u32).filter(|&s| reach[s as usize] && !fused(s)) {
        for &u in &nfa.next[s as usize] {
            plain[u as usize] = true;
        }
    }
    let mut lazy: Vec<bool> = (0..n as u32)
        .map(|u| {
            let next = &nfa.next[u as usize];
            // The continuations moving `coord` in one block.
            let blocks = next
                .windows(2)
                .filter(|w| fused(w[0]) != fused(w[1]))
                .count();
            let unfused = next.iter().any(|&t| !fused(t));
            u > 0
                && reach[u as usize]
                && !plain[u as usize]
                && !fixed[u as usize]
                && matches!(nfa.leaf(u), Leaf::On(_))
                && next.iter().any(|&t| fused(t))
                && (blocks <= 1 || (blocks == 2 && unfused && fused(next[0])))
        })
        .collect();
    // The nodes the lazy tests make, bounded.
    let mut seen = std::collections::HashSet::new();
    let mut work: Vec<(u32, Map)> = Vec::new();
    for (m, u) in walks.iter().flatten().flatten() {
        if lazy[*u as usize] && seen.insert((*u, m.clone())) {
            work.push((*u, m.clone()));
        }
    }
    while let Some((u, m)) = work.pop() {
        for &t in &nfa.next[u as usize] {
            for (m2, v) in walks[t as usize].iter().flatten() {
                let c = compose(&m, m2);
                if c.iter().any(Option::is_some) && seen.insert((*v, c.clone())) {
                    if seen.len() > MAX_LAZY {
                        lazy.iter_mut().for_each(|l| *l = false);
                        return lazy;
                    }
                    if lazy[*v as usize] {
                        work.push((*v, c));
                    }
                }
            }
        }
    }
    lazy
}

impl Emitter<'_> {
    /// Emits the fused walks `walks` of a shift state from node `src`;
    /// `node`: the automaton's node names. A walk into a lazy test goes on
    /// through the fused shifts after it with the map composed, and moves
    /// `coord` only into the test's other continuations (from its node).
    pub(crate) fn fused_shifts(
        &mut self,
        nfa: &Nfa,
        src: &str,
        walks: &[(Map, u32)],
        node: &dyn Fn(u32) -> String,
    ) {
        let mut work = Vec::new();
        for (map, u) in walks {
            self.fused_walk(nfa, src, map, *u, node, &mut work);
        }
        // Lazy nodes: their edges in the order of the test's
        // continuations (the moves keep theirs).
        while let Some((x, u, map)) = work.pop() {
            let mut moved = false;
            for &t in &nfa.next[u as usize] {
                match self.fuse.0.walks[t as usize].clone() {
                    Some(after) => {
                        for (m2, v) in &after {
                            let c = compose(&map, m2);
                            if c.iter().any(Option::is_some) {
                                self.fused_walk(nfa, &x, &c, *v, node, &mut work);
                            }
                        }
                    }
                    None if !moved => {
                        moved = true;
                        let label = self.move_coord(&map);
                        self.edge(&x, &node(u), label);
                    }
                    None => {}
                }
            }
        }
    }

    /// `coord = M[coord]`.
    fn move_coord(&mut self, map: &Map) -> rg_lang::ast::Label {
        let cn = self.d.coord.clone();
        let name = self.d.vertex_move(map);
        assign(Expr::name(&cn), Expr::name(&name).at(Expr::name(&cn)))
    }

    /// From `src`, the test of `u` through `map`, into the node of that
    /// test and map: new lazy nodes are pushed on `work`.
    fn fused_walk(
        &mut self,
        nfa: &Nfa,
        src: &str,
        map: &Map,
        u: u32,
        node: &dyn Fn(u32) -> String,
        work: &mut Vec<(String, u32, Map)>,
    ) {
        let Leaf::On(set) = nfa.leaf(u) else {
            unreachable!("walks end in tests")
        };
        let cn = self.d.coord.clone();
        let name = self.d.vertex_move(map);
        let to = node(u);
        let x = format!("{to}f{name}");
        let test = self.on_label(set, Expr::name(&name).at(Expr::name(&cn)));
        self.edge(src, &x, test);
        if self.created.insert(x.clone()) {
            if self.fuse.0.lazy[u as usize] {
                work.push((x, u, map.clone()));
            } else {
                let label = self.move_coord(map);
                self.edge(&x, &to, label);
            }
        }
    }
}
