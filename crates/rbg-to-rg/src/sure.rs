//! The states of the rules' automaton from which a move surely completes
//! (every state, whatever the game state: some walk from it reaches a
//! switch). A switch into such a state needs no "has a move" check, and the
//! check copy accepts on reaching one.
//!
//! A state is sure when one of its transitions is
//! - an always-legal leaf (a piece put, a switch, a test of every piece, a
//!   constant assignment or comparison that holds) into a switch or a sure
//!   state;
//! - or when its chains of pattern tests into switches or sure states (at
//!   most [`MAX_CHAIN`] tests: `{! a} + {! b} + {? a} {? b}`) cover every
//!   truth assignment of the patterns they test (tests change nothing, so
//!   they read one game state);
//! - or a `{! p}` into a switch or a sure state, where every accepting walk
//!   of pattern `p` (which modifies nothing) is mirrored, leaf by equal
//!   leaf, by a walk of the rules from the state into a sure state
//!   (reversi's pass `R ->> ... + {! R} ->>`): if `p` holds the rules' walk
//!   completes, else the test does.

use std::collections::HashMap;

use crate::arith::{compare, eval, inputs, Input};
use crate::decls::Decls;
use crate::regex::{Leaf, Lowered, Nfa};

/// Most pattern tests in one chain of the tautology rule.
const MAX_CHAIN: usize = 3;

/// Most distinct patterns one tautology may test (2^N assignments tried).
const MAX_TAUTOLOGY_PATTERNS: usize = 8;

/// Most (pattern state, rules state) pairs one mirrored pattern may take.
const MAX_PAIRS: usize = 1 << 14;

/// Per state of `low.rules`: whether a move surely completes from it;
/// `maynull[s]`: `coord` may be `null` at state `s`.
pub(crate) fn sure_states(low: &Lowered, d: &Decls, maynull: &[bool]) -> Vec<bool> {
    let nfa = &low.rules;
    let n = nfa.states();
    let is_switch = |s: u32| s > 0 && matches!(nfa.leaf(s), Leaf::Switch(..));
    let always = |t: u32| match nfa.leaf(t) {
        Leaf::Off(..) | Leaf::Switch(..) => true,
        Leaf::On(set) => set.len() == d.pieces.len(),
        Leaf::Assign(v, e, _) => {
            let mut ins = Vec::new();
            inputs(e, &mut ins);
            let bound = d.bounds[*v as usize] as i64;
            ins.is_empty() && eval(e, &ins, &[]).is_some_and(|x| (0..=bound).contains(&x))
        }
        Leaf::Compare(l, op, r) => {
            let mut ins: Vec<Input> = Vec::new();
            inputs(l, &mut ins);
            inputs(r, &mut ins);
            ins.is_empty()
                && matches!((eval(l, &[], &[]), eval(r, &[], &[])), (Some(x), Some(y)) if compare(x, *op, y))
        }
        Leaf::Move(_) | Leaf::Pattern(..) => false,
    };
    let mut sure = vec![false; n];
    loop {
        let mut changed = false;
        for s in 0..n as u32 {
            if sure[s as usize] {
                continue;
            }
            let ok = |t: u32| is_switch(t) || sure[t as usize];
            let next = &nfa.next[s as usize];
            let yes = next.iter().any(|&t| always(t) && ok(t))
                || tautology(nfa, s, &ok)
                || next.iter().any(|&t| match nfa.leaf(t) {
                    Leaf::Pattern(true, k) => {
                        ok(t) && mirrored(&low.patterns[*k], nfa, s, &sure, maynull)
                    }
                    _ => false,
                });
            if yes {
                sure[s as usize] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    sure
}

/// Whether the chains of pattern tests from `s` into states where `ok`
/// holds cover every truth assignment of their patterns.
fn tautology(nfa: &Nfa, s: u32, ok: &dyn Fn(u32) -> bool) -> bool {
    // Each chain: its tests (pattern, holds).
    let mut chains: Vec<Vec<(usize, bool)>> = Vec::new();
    let mut stack: Vec<(u32, Vec<(usize, bool)>)> = vec![(s, Vec::new())];
    while let Some((v, tests)) = stack.pop() {
        for &t in &nfa.next[v as usize] {
            let Leaf::Pattern(negated, k) = *nfa.leaf(t) else {
                continue;
            };
            let mut more = tests.clone();
            more.push((k, !negated));
            if ok(t) {
                chains.push(more);
            } else if more.len() < MAX_CHAIN {
                stack.push((t, more));
            }
        }
    }
    let mut patterns: Vec<usize> = chains.iter().flatten().map(|&(k, _)| k).collect();
    patterns.sort_unstable();
    patterns.dedup();
    if chains.is_empty() || patterns.len() > MAX_TAUTOLOGY_PATTERNS {
        return false;
    }
    let bit = |k: usize| patterns.binary_search(&k).expect("listed");
    (0..1u32 << patterns.len()).all(|truth| {
        chains.iter().any(|c| {
            c.iter()
                .all(|&(k, holds)| (truth >> bit(k) & 1 == 1) == holds)
        })
    })
}

/// Whether every accepting walk of `pattern` (modifying nothing) is
/// mirrored by a walk of `rules` from state `s` through equal leaves into a
/// sure state where `coord` is a vertex: the greatest simulation of the
/// pattern's states by the rules' states, from (start, `s`).
fn mirrored(pattern: &Nfa, rules: &Nfa, s: u32, sure: &[bool], maynull: &[bool]) -> bool {
    let modifies = pattern
        .leaves
        .iter()
        .any(|l| matches!(l, Leaf::Off(..) | Leaf::Assign(..) | Leaf::Switch(..)));
    if modifies {
        return false;
    }
    // The pairs reachable from (0, s) through equal leaves.
    let mut ids: HashMap<(u32, u32), usize> = HashMap::from([((0, s), 0)]);
    let mut pairs = vec![(0u32, s)];
    let mut succ: Vec<Vec<Vec<usize>>> = Vec::new();
    let mut i = 0;
    while i < pairs.len() {
        let (p, q) = pairs[i];
        let mut per: Vec<Vec<usize>> = Vec::new();
        for &p2 in &pattern.next[p as usize] {
            let mut alts = Vec::new();
            for &q2 in &rules.next[q as usize] {
                if pattern.leaf(p2) != rules.leaf(q2) {
                    continue;
                }
                let id = *ids.entry((p2, q2)).or_insert_with(|| {
                    pairs.push((p2, q2));
                    pairs.len() - 1
                });
                alts.push(id);
            }
            per.push(alts);
        }
        succ.push(per);
        if pairs.len() > MAX_PAIRS {
            return false;
        }
        i += 1;
    }
    // Drop pairs that fail, to the greatest fixpoint.
    let mut holds: Vec<bool> = pairs
        .iter()
        .map(|&(p, q)| !pattern.finals[p as usize] || (sure[q as usize] && !maynull[q as usize]))
        .collect();
    loop {
        let mut changed = false;
        for i in 0..pairs.len() {
            if holds[i] && !succ[i].iter().all(|alts| alts.iter().any(|&j| holds[j])) {
                holds[i] = false;
                changed = true;
            }
        }
        if !changed {
            return holds[0];
        }
    }
}
