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

/// Per state of `nfa`: for a fused shift state, its walks into tests, each
/// a composed map and the test's state. `reach`: the states emitted;
/// `commit`: states whose transitions the keeper's commit emits (their
/// targets are not fused).
pub(crate) fn fusions(
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
                                let composed =
                                    m.iter().map(|x| x.and_then(|x| m2[x as usize])).collect();
                                walks.push((composed, *v));
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

impl Emitter<'_> {
    /// Emits the fused walks `walks` of a shift state from node `src`;
    /// `node`: the automaton's node names.
    pub(crate) fn fused_shifts(
        &mut self,
        nfa: &Nfa,
        src: &str,
        walks: &[(Map, u32)],
        node: &dyn Fn(u32) -> String,
    ) {
        let cn = self.d.coord.clone();
        for (map, u) in walks {
            let Leaf::On(set) = nfa.leaf(*u) else {
                unreachable!("walks end in tests")
            };
            let name = self.d.vertex_move(map);
            let at = || Expr::name(&name).at(Expr::name(&cn));
            let to = node(*u);
            let x = format!("{to}f{name}");
            let test = self.on_label(set, at());
            self.edge(src, &x, test);
            if self.created.insert(x.clone()) {
                self.edge(&x, &to, assign(Expr::name(&cn), at()));
            }
        }
    }
}
