//! The automata of patterns (`{? R}`, `{! R}`): reachability checks from
//! their start node to their accepting node.
//!
//! A check only asks whether the accepting node is reachable, so where a
//! pattern accepts, `coord` no longer matters. Two shortcuts follow:
//!
//! - A *final leaf*, one that accepts and has no continuation (a test,
//!   a check, a filter of vertices), leads straight into the accepting
//!   node instead of into its own node and on by a no-op.
//! - A shift whose every continuation is a final test of the piece there
//!   (`knight {Knight}`, `... dir {me}`) is not taken: for each of its
//!   maps `g`, the source tests `board[g[coord]]` directly (a missing
//!   neighbour is `null`, whose square holds no piece). The search then
//!   neither moves nor keeps the shifted vertex. (Callgrind instructions
//!   per playout on translated chess before `unroll.rs`, which now covers
//!   its patterns: native -5.5%, interp -6.0%.)
//! - A shift whose continuations are all tests of the piece, some of
//!   them not final (a ray: `(dir {empty})* dir {Queen}`), tests
//!   `board[g[coord]]` first as well, and moves `coord` (`coord =
//!   g[coord]`, from a node `{test's node}f{g}`) only where a non-final
//!   test holds, into that test's node. The search makes no step to a
//!   square where the ray stops, nor to a missing neighbour. Callgrind
//!   instructions per playout (`rbg bench --seed 1`, counted in
//!   `play_random`; one binary on both translations) on the suite's
//!   games, against shifting first: hex interp 1,020,844 -> 981,615
//!   (-3.8%), native 654,188 -> 648,910 (-0.8%); chess within 0.01%
//!   (its king search is unrolled, `royal.rs`); the other six translate
//!   as before. (Before `royal.rs`, with chess's king search kept as a
//!   pattern: chess interp +4.6%, native -3.1%, the king's square
//!   popped, not expanded, in the interpreter's one-slot search; not
//!   landed then.)
//!
//! Patterns of shifts and tests alone are unrolled instead (`unroll.rs`).

use rg_lang::ast::{Expr, Label};

use crate::board::{shape, Shape};
use crate::decls::cmp;
use crate::emit::{Emitter, Mode};
use crate::regex::{Leaf, Nfa};
use crate::TranslateError;

/// How a transition into a pattern's state is emitted.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Into {
    /// Into the state's own node.
    Node,
    /// Into the accepting node (a final leaf).
    Accept,
    /// Replaced by tests of the shifted vertex into the accepting node.
    Fused,
    /// Replaced by tests of the shifted vertex, into the accepting node
    /// (final tests) or on to the test's node by the shift (the others).
    Walk,
}

impl Emitter<'_> {
    /// Emits the automaton of a pattern with node prefix `prefix`; returns
    /// its accepting node.
    pub(crate) fn pattern(&mut self, nfa: &Nfa, prefix: &str) -> Result<String, TranslateError> {
        if let Some(accept) = self.unrolled(nfa, prefix)? {
            return Ok(accept);
        }
        let node = |s: u32| format!("{prefix}{s}");
        let n = nfa.states();
        let maynull: Vec<bool> = (0..n as u32)
            .map(|s| s > 0 && self.may_null(nfa.leaf(s)))
            .collect();
        // A final leaf: accepts, no continuation, `coord` a vertex (or
        // irrelevant), one label.
        let final_leaf = |s: u32| {
            let single = match nfa.leaf(s) {
                Leaf::On(_) | Leaf::Pattern(..) => true,
                Leaf::Move(r) => matches!(shape(&self.low.relations[*r]), Shape::Filter(_)),
                _ => false,
            };
            s > 0 && nfa.finals[s as usize] && nfa.next[s as usize].is_empty() && single
        };
        let into: Vec<Into> = (0..n as u32)
            .map(|t| {
                if t == 0 {
                    return Into::Node;
                }
                if final_leaf(t) {
                    return Into::Accept;
                }
                let next = &nfa.next[t as usize];
                let shift = maynull[t as usize]
                    && !nfa.finals[t as usize]
                    && !next.is_empty()
                    && matches!(nfa.leaf(t), Leaf::Move(r)
                        if matches!(shape(&self.low.relations[*r]), Shape::Maps(_)));
                let tests = next.iter().all(|&u| matches!(nfa.leaf(u), Leaf::On(_)));
                match (shift && tests, next.iter().all(|&u| final_leaf(u))) {
                    (true, true) => Into::Fused,
                    (true, false) => Into::Walk,
                    _ => Into::Node,
                }
            })
            .collect();
        // The states that get a node: reached through transitions into
        // nodes.
        let mut reach = vec![false; n];
        reach[0] = true;
        let mut stack = vec![0u32];
        let mut shortcut = false;
        while let Some(s) = stack.pop() {
            for &t in &nfa.next[s as usize] {
                match into[t as usize] {
                    Into::Node => {
                        if !std::mem::replace(&mut reach[t as usize], true) {
                            stack.push(t);
                        }
                    }
                    Into::Walk => {
                        shortcut = true;
                        for &u in &nfa.next[t as usize] {
                            if !final_leaf(u) && !std::mem::replace(&mut reach[u as usize], true) {
                                stack.push(u);
                            }
                        }
                    }
                    _ => shortcut = true,
                }
            }
        }
        let finals: Vec<u32> = (0..n as u32)
            .filter(|&s| nfa.finals[s as usize] && reach[s as usize])
            .collect();
        // The accepting node: the one final state's, or a node of its own.
        let own = match finals[..] {
            [f] if !maynull[f as usize] && !shortcut => Some(f),
            _ => None,
        };
        let accept = own.map_or_else(|| format!("{prefix}acc"), node);
        for s in 0..n as u32 {
            if !reach[s as usize] {
                continue;
            }
            self.created.insert(node(s));
            for &t in &nfa.next[s as usize] {
                let src = self.source(node(s), maynull[s as usize], nfa.leaf(t));
                match into[t as usize] {
                    Into::Node => self.transition(nfa, &src, t, &node(t), Mode::Pattern, None)?,
                    Into::Accept => self.transition(nfa, &src, t, &accept, Mode::Pattern, None)?,
                    Into::Fused | Into::Walk => {
                        self.fused(nfa, &src, t, &accept, &|u| match final_leaf(u) {
                            true => None,
                            false => Some(node(u)),
                        })
                    }
                }
            }
        }
        if own.is_none() {
            for &f in &finals {
                let src = match maynull[f as usize] {
                    true => self.checked_node(&node(f)),
                    false => node(f),
                };
                self.edge(&src, &accept, Label::Skip);
            }
            self.created.insert(accept.clone());
        }
        Ok(accept)
    }

    /// From `src`, the tests of fused shift state `t` (see the module
    /// documentation) into `accept`, or where `onto` names the test's
    /// node, on to it by the shift.
    fn fused(
        &mut self,
        nfa: &Nfa,
        src: &str,
        t: u32,
        accept: &str,
        onto: &dyn Fn(u32) -> Option<String>,
    ) {
        let Leaf::Move(r) = nfa.leaf(t) else {
            unreachable!("a fused state is a shift")
        };
        let Shape::Maps(maps) = shape(&self.low.relations[*r]) else {
            unreachable!("a fused shift has maps")
        };
        for m in &maps {
            let g = self.d.vertex_move(m);
            for &u in &nfa.next[t as usize] {
                let Leaf::On(set) = nfa.leaf(u) else {
                    unreachable!("a fused shift's continuations are tests")
                };
                let coord = Expr::name(&self.d.coord);
                let at = Expr::name(&g).at(coord.clone());
                let label = self.on_label(&set.clone(), at.clone());
                match onto(u) {
                    None => self.edge(src, accept, label),
                    Some(to) => {
                        let x = format!("{to}f{g}");
                        self.edge(src, &x, label);
                        if self.created.insert(x.clone()) {
                            self.edge(&x, &to, crate::decls::assign(coord, at));
                        }
                    }
                }
            }
        }
    }

    /// The test that the square at `at` holds a piece of `set` (every
    /// piece: that `at` is a vertex).
    pub(crate) fn on_label(&mut self, set: &[u32], at: Expr) -> Label {
        if set.len() == self.d.pieces.len() {
            return cmp(at, Expr::name(&self.d.null), false);
        }
        let square = Expr::name(&self.d.board).at(at);
        match set {
            [p] => cmp(square, Expr::name(&self.d.pieces[*p as usize]), true),
            _ => {
                let test = self.d.piece_test(set);
                cmp(Expr::name(&test).at(square), Expr::name("1"), true)
            }
        }
    }
}
