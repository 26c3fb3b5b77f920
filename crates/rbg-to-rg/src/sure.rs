//! The states of the rules' automaton from which a move surely completes
//! (every state, whatever the game state: some walk from it reaches a
//! switch). A switch into such a state needs no "has a move" check, and the
//! check copy accepts on reaching one.
//!
//! A state is sure when one of its transitions is
//! - an always-legal leaf (a piece put, a switch, a test of every piece, a
//!   constant assignment or comparison that holds) into a switch or a sure
//!   state;
//! - or when its chains of tests into switches or sure states (at most
//!   [`MAX_CHAIN`] tests of patterns, of the vertex or comparisons of
//!   variables: `{! a} + {! b} + {? a} {? b}`, draughts' `{$ s < 20} ... +
//!   {$ s == 20} ...` and its promotion `{? F} ... + {! F} ...` with `F`
//!   vertex-only) cover every truth assignment of the patterns, every
//!   vertex and every value of the variables (tests change nothing, so
//!   they read one game state; `coord` is a vertex there);
//! - or a `{! p}` into a switch or a sure state, where every accepting walk
//!   of pattern `p` (which modifies nothing) is mirrored, leaf by equal
//!   leaf, by a walk of the rules from the state into a sure state
//!   (reversi's pass `R ->> ... + {! R} ->>`): if `p` holds the rules' walk
//!   completes, else the test does.
//!
//! Callgrind instructions per playout (`rbg --engine native|interp bench`,
//! seed 1) against the always-legal rule and the `{? p} + {! p}` pair
//! alone: hex native -11.0% (the keeper's flood fill no longer checked at
//! the end of a move), reversi native -6.6% (no check of the next player),
//! englishDraughts interp -2.0%; see commits 3865bb0 and 7197ec3.

use std::collections::HashMap;

use rbg_lang::ast::{Arith, CmpOp};

use crate::arith::{compare, eval, inputs, Input};
use crate::board::{shape, Relation, Shape};
use crate::decls::Decls;
use crate::regex::{Leaf, Lowered, Nfa};

/// Most pattern tests in one chain of the tautology rule.
const MAX_CHAIN: usize = 3;

/// Most assignments (of patterns' truth, the vertex, variables' values)
/// one tautology may try.
const MAX_ASSIGNMENTS: u64 = 1 << 14;

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
                || (!maynull[s as usize] && tautology(low, d, s, &ok))
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

/// A test that changes nothing, as a chain of the tautology rule reads it.
enum Test<'a> {
    /// Pattern `k` holds (or not).
    Pattern(usize, bool),
    /// The current vertex is one of these.
    Filter(Vec<bool>),
    /// `{$ l op r}` over variables.
    Compare(&'a Arith, CmpOp, &'a Arith),
}

/// The test of a leaf, if it is one the tautology rule reads.
fn test<'a>(leaf: &'a Leaf, relations: &[Relation]) -> Option<Test<'a>> {
    match leaf {
        Leaf::Pattern(negated, k) => Some(Test::Pattern(*k, !negated)),
        Leaf::Move(r) => match shape(&relations[*r]) {
            Shape::Filter(set) => Some(Test::Filter(set)),
            _ => None,
        },
        Leaf::Compare(l, op, r) => Some(Test::Compare(l, *op, r)),
        _ => None,
    }
}

/// Whether the chains of tests from `s` (a vertex there) into states
/// where `ok` holds cover every truth assignment of their patterns, every
/// vertex and every value of the variables they compare.
fn tautology(low: &Lowered, d: &Decls, s: u32, ok: &dyn Fn(u32) -> bool) -> bool {
    let nfa = &low.rules;
    let mut chains: Vec<Vec<Test>> = Vec::new();
    let mut stack: Vec<(u32, Vec<u32>)> = vec![(s, Vec::new())];
    while let Some((v, tests)) = stack.pop() {
        for &t in &nfa.next[v as usize] {
            if test(nfa.leaf(t), &low.relations).is_none() {
                continue;
            }
            let mut more = tests.clone();
            more.push(t);
            if ok(t) {
                chains.push(
                    more.iter()
                        .filter_map(|&u| test(nfa.leaf(u), &low.relations))
                        .collect(),
                );
            } else if more.len() < MAX_CHAIN {
                stack.push((t, more));
            }
        }
    }
    // The free inputs: patterns, the vertex, variables.
    let mut patterns: Vec<usize> = Vec::new();
    let mut vars: Vec<Input> = Vec::new();
    let mut vertex = false;
    for t in chains.iter().flatten() {
        match t {
            Test::Pattern(k, _) => patterns.push(*k),
            Test::Filter(_) => vertex = true,
            Test::Compare(l, _, r) => {
                inputs(l, &mut vars);
                inputs(r, &mut vars);
            }
        }
    }
    patterns.sort_unstable();
    patterns.dedup();
    let mut sizes: Vec<u64> = vec![2; patterns.len()];
    if vertex {
        sizes.push(d.vertices.len() as u64);
    }
    for i in &vars {
        match i {
            Input::Var(v) => sizes.push(d.bounds[*v as usize] + 1),
            Input::Count(_) => return false,
        }
    }
    let total = sizes.iter().try_fold(1u64, |a, &b| a.checked_mul(b));
    if chains.is_empty() || total.is_none_or(|t| t > MAX_ASSIGNMENTS) {
        return false;
    }
    let mut digits = vec![0u64; sizes.len()];
    let holds = |t: &Test, digits: &[u64]| match t {
        Test::Pattern(k, h) => {
            let i = patterns.binary_search(k).expect("listed");
            (digits[i] == 1) == *h
        }
        Test::Filter(set) => set[digits[patterns.len()] as usize],
        Test::Compare(l, op, r) => {
            let values: Vec<i64> = digits[sizes.len() - vars.len()..]
                .iter()
                .map(|&x| x as i64)
                .collect();
            matches!((eval(l, &vars, &values), eval(r, &vars, &values)), (Some(x), Some(y)) if compare(x, *op, y))
        }
    };
    loop {
        if !chains.iter().any(|c| c.iter().all(|t| holds(t, &digits))) {
            return false;
        }
        // The next assignment (digits counted up, the first fastest).
        let mut i = 0;
        loop {
            if i == digits.len() {
                return true;
            }
            digits[i] += 1;
            if digits[i] < sizes[i] {
                break;
            }
            digits[i] = 0;
            i += 1;
        }
    }
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
