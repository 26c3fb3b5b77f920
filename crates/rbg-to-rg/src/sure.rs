//! The states of the rules' automaton from which a move surely completes
//! (every state, whatever the game state a walk of the rules brings there:
//! some walk from it reaches a switch). A switch into such a state needs no "has a move" check, and the
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
//!   completes, else the test does. The rules' walk may put pieces between
//!   the equal leaves where no later test reads them (`simulate.rs`);
//! - or, by induction, such a `{! p}` whose mirrored walks end in sure
//!   states or in states proved together, each such walk emptying a square
//!   of a set of pieces the walks never put (draughts' further jumps
//!   `(jump)* {! jump} ->>`: each jump takes a piece, so the jumps end);
//! - or, whatever the walk into the state, the squares it tested or
//!   changed decide a walk from it into a switch or a sure state
//!   (`history.rs`: amazons' arrow shot back toward the square its amazon
//!   left);
//! - or a `{! p}` as above whose mirrored walks end in states that what
//!   the walks from the state alone know proves so (`History::walks_from`:
//!   reversi's flips, `{! R} + d {opp} [me] ... {me} back ({me} back)* {e}`,
//!   walk back over the pieces they put to the empty square they started
//!   from; the whole game's walks into those states know too many
//!   combinations of earlier flips to keep).
//! - or, in such a walk, a shift that may land on a square holding pieces
//!   of `S`, then `{S} {! d {S'}}` with `S'` within `S`, `d` a chain
//!   without cycles and the shift closed under `d` (connect4's drop `down*
//!   {e} {! down {e}}` from the empty square the player chose): the walk
//!   along `d` from that square stops on the last (`slides`).
//!
//! Leaves are always legal, and chains of comparisons cover every value,
//! within the variables' ranges at the state (`ranges.rs`): draughts'
//! keeper `{$ s < 20} [$ me = 100] [$ opp = 0] [$ s = s + 1]` completes.
//!
//! A switch entered only after `{? p}`, where the walks of `p` are mirrored
//! from the switch, needs no check either (draughts' `{? canCapture} ->me`
//! followed by the captures).
//!
//! Callgrind instructions per playout (`rbg --engine native|interp bench`,
//! seed 1) against the always-legal rule and the `{? p} + {! p}` pair
//! alone: hex native -11.0% (the keeper's flood fill no longer checked at
//! the end of a move), reversi native -6.6% (no check of the next player),
//! englishDraughts interp -2.0%; see commits 3865bb0 and 7197ec3. Pieces
//! put between mirrored leaves, induction over jumps and the switch after
//! `{? p}` (commit 3ee9c0f): englishDraughts native -11.2% (its capture
//! turns unchecked), interp -1.0%; alternated 1.16 native. Its remaining
//! checks (`{! canCapture} ->me`: is there a plain move?) are real ones;
//! they cost native code a second search per turn unless rg-jit
//! speculates them as the interpreter does (`rg-engine` `mirror.rs`).
//! Reversi's keeper no longer checks its flips (facts of the walks from
//! each flip's start, walks of up to 16 leaves): callgrind instructions
//! per playout (100 playouts, seed 1) native 1.283M -> 0.959M (-25.2%),
//! interp 3.094M -> 2.410M (-22.1%); the other 7 games' translations
//! unchanged; translating reversi 0.6 -> 2.6 s. Connect4's drop no longer
//! checked (`slides`; the keeper's "has a move" check was a lazy root
//! for the interpreter, a second search for native code): callgrind
//! instructions per playout (400 playouts, seed 1) native 39,932 -> 36,526
//! (-8.5%), interp 58,333 -> 57,943 (-0.7%); the other 60 suite
//! translations unchanged.

use rbg_lang::ast::{Arith, CmpOp};

use crate::arith::{eval, inputs, Input};
use crate::board::{shape, Relation, Shape};
use crate::decls::Decls;
use crate::history::History;
use crate::ranges::{for_each, holds, Ranges};
use crate::regex::{Leaf, Lowered, Nfa};
use crate::simulate::{mirrored, Goal};

/// Most pattern tests in one chain of the tautology rule.
const MAX_CHAIN: usize = 3;

/// Most assignments (of patterns' truth, the vertex, variables' values)
/// one tautology may try.
const MAX_ASSIGNMENTS: u64 = 1 << 14;

/// Per state of `low.rules`: whether a move surely completes from it;
/// `maynull[s]`: `coord` may be `null` at state `s`.
pub(crate) fn sure_states(
    low: &Lowered,
    d: &Decls,
    maynull: &[bool],
    ranges: &Ranges,
) -> Vec<bool> {
    let nfa = &low.rules;
    let n = nfa.states();
    let is_switch = |s: u32| s > 0 && matches!(nfa.leaf(s), Leaf::Switch(..));
    let vertices = d.vertices.len() as u64;
    // Legal whatever the values of the variables on entering `t` (their
    // ranges there).
    let always = |t: u32| match nfa.leaf(t) {
        Leaf::Off(..) | Leaf::Switch(..) => true,
        Leaf::On(set) => set.len() == d.pieces.len(),
        Leaf::Assign(v, e, _) => {
            let mut ins = Vec::new();
            inputs(e, &mut ins);
            let bound = d.bounds[*v as usize] as i64;
            let mut ok = true;
            ranges.before(t).is_some_and(|spans| {
                for_each(&ins, spans, vertices, |vals| {
                    ok &= eval(e, &ins, vals).is_some_and(|x| (0..=bound).contains(&x));
                })
            }) && ok
        }
        Leaf::Compare(l, op, r) => {
            let mut ins: Vec<Input> = Vec::new();
            inputs(l, &mut ins);
            inputs(r, &mut ins);
            let mut ok = true;
            ranges.before(t).is_some_and(|spans| {
                for_each(&ins, spans, vertices, |vals| {
                    ok &= holds(l, *op, r, &ins, vals);
                })
            }) && ok
        }
        Leaf::Move(_) | Leaf::Pattern(..) => false,
    };
    let vertices = d.vertices.len();
    let mut history = History::new(nfa, &low.relations, vertices);
    let mut sure = vec![false; n];
    loop {
        loop {
            let mut changed = false;
            for s in 0..n as u32 {
                if sure[s as usize] {
                    continue;
                }
                let ok = |t: u32| is_switch(t) || sure[t as usize];
                let next = &nfa.next[s as usize];
                let goal = Goal {
                    sure: &sure,
                    maynull,
                    hyp: None,
                };
                let negated: Vec<usize> = next
                    .iter()
                    .filter_map(|&t| match nfa.leaf(t) {
                        Leaf::Pattern(true, k) if ok(t) => Some(*k),
                        _ => None,
                    })
                    .collect();
                let mirror = |goal: &Goal| {
                    negated.iter().any(|&k| {
                        mirrored(&low.patterns[k], nfa, s, goal, &low.relations, vertices)
                    })
                };
                let yes = next.iter().any(|&t| always(t) && ok(t))
                    || (!maynull[s as usize] && tautology(low, d, s, &ok, ranges))
                    || (!maynull[s as usize]
                        && history.proves(nfa, &low.relations, s, &ok, &always, &|t, p| {
                            slides(low, t, p, &ok)
                        }))
                    || mirror(&goal)
                    || (!negated.is_empty() && {
                        // The mirrored walks' ends proved by what the walks
                        // from `s` alone know (reversi's flips walk back
                        // to the square they started from). A mirrored walk
                        // passes no switch (the pattern has none); those
                        // walks stop at switches and sure states too, so
                        // they tell nothing of a state after a sure one.
                        let stop = |t: u32| ok(t);
                        let mut local = history.walks_from(nfa, &low.relations, s, &stop);
                        let after_sure = beyond_sure(nfa, s, &is_switch, &sure);
                        let ends: Vec<bool> = (0..n as u32)
                            .map(|q| {
                                sure[q as usize]
                                    || (!maynull[q as usize]
                                        && !after_sure[q as usize]
                                        && local.proves(
                                            nfa,
                                            &low.relations,
                                            q,
                                            &ok,
                                            &always,
                                            &|t, p| slides(low, t, p, &ok),
                                        ))
                            })
                            .collect();
                        mirror(&Goal {
                            sure: &ends,
                            ..goal
                        })
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
        let proved = by_induction(low, d, &sure, maynull);
        if !proved.iter().any(|&b| b) {
            break;
        }
        for (s, b) in sure.iter_mut().zip(proved) {
            *s |= b;
        }
    }
    // A switch entered only after `{? p}` where `p`'s walks are mirrored
    // by the rules from the switch: `p` held, so a move completes.
    let goal = Goal {
        sure: &sure,
        maynull,
        hyp: None,
    };
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
    for s in 0..n as u32 {
        for &t in &nfa.next[s as usize] {
            preds[t as usize].push(s);
        }
    }
    let assured: Vec<bool> = (0..n as u32)
        .map(|t| {
            let k = match preds[t as usize]
                .first()
                .map(|&u| (u > 0).then(|| nfa.leaf(u)))
            {
                Some(Some(Leaf::Pattern(false, k))) => *k,
                _ => return false,
            };
            is_switch(t)
                && !sure[t as usize]
                && preds[t as usize]
                    .iter()
                    .all(|&u| u > 0 && nfa.leaf(u) == &Leaf::Pattern(false, k))
                && mirrored(&low.patterns[k], nfa, t, &goal, &low.relations, vertices)
        })
        .collect();
    sure.iter().zip(assured).map(|(&a, b)| a || b).collect()
}

/// Whether from state `t`, entered by a shift by relation `R` that may
/// land on a square holding one of pieces `held`, a walk surely reaches a
/// state where `ok` holds by `{S} {! d {S'}}` (connect4's drop `down* {e}
/// {! down {e}}`): `held` and `S'` within `S`, `d` at most one target per
/// vertex and no cycle, `R` closed under `d`. Then from a square of `R`
/// holding `held`, the walk along `d` while the next square holds `S'`
/// stops within `R` on a square holding `S` whose next square (if any)
/// does not hold `S'`.
fn slides(low: &Lowered, t: u32, held: &[u32], ok: &dyn Fn(u32) -> bool) -> bool {
    let nfa = &low.rules;
    let Leaf::Move(r) = nfa.leaf(t) else {
        return false;
    };
    let rel = &low.relations[*r];
    nfa.next[t as usize].iter().any(|&u| {
        let Leaf::On(set) = nfa.leaf(u) else {
            return false;
        };
        held.iter().all(|x| set.contains(x))
            && nfa.next[u as usize].iter().any(|&x| {
                let Leaf::Pattern(true, k) = nfa.leaf(x) else {
                    return false;
                };
                ok(x)
                    && step_then_test(&low.patterns[*k]).is_some_and(|(d, next)| {
                        let d = &low.relations[d];
                        next.iter().all(|y| set.contains(y)) && closed(rel, d) && chains(d)
                    })
            })
    })
}

/// The shift `d` and pieces `S` of a pattern that is exactly `d {S}`.
fn step_then_test(p: &Nfa) -> Option<(usize, &[u32])> {
    if p.states() != 3 || p.next[0] != [1] || p.next[1] != [2] || !p.next[2].is_empty() {
        return None;
    }
    if p.finals != [false, false, true] {
        return None;
    }
    match (p.leaf(1), p.leaf(2)) {
        (Leaf::Move(d), Leaf::On(set)) => Some((*d, set)),
        _ => None,
    }
}

/// Whether every target of `rel` has its `d` targets among its start's.
fn closed(rel: &Relation, d: &Relation) -> bool {
    rel.iter().all(|ws| {
        ws.iter()
            .all(|&w| d[w as usize].iter().all(|y| ws.contains(y)))
    })
}

/// Whether `d` has at most one target per vertex and no cycle: every walk
/// along it ends.
fn chains(d: &Relation) -> bool {
    if d.iter().any(|ws| ws.len() > 1) {
        return false;
    }
    // Each vertex's walk followed until a vertex already known to end it:
    // every vertex is on one followed path at most (linear in the board;
    // a path longer than the board has a cycle).
    let mut ends = vec![false; d.len()];
    let mut path = Vec::new();
    for v in 0..d.len() {
        let mut at = v;
        path.clear();
        while !ends[at] {
            let Some(&w) = d[at].first() else { break };
            path.push(at);
            if path.len() > d.len() {
                return false;
            }
            at = w as usize;
        }
        ends[at] = true;
        for &p in &path {
            ends[p] = true;
        }
    }
    true
}

/// The states that some walk from `s` passing no switch reaches through a
/// state of `sure` (after it).
fn beyond_sure(nfa: &Nfa, s: u32, is_switch: &dyn Fn(u32) -> bool, sure: &[bool]) -> Vec<bool> {
    let n = nfa.states();
    // (state, a sure state passed since `s`)
    let mut seen = vec![[false; 2]; n];
    let mut stack = vec![(s, false)];
    seen[s as usize][0] = true;
    while let Some((q, past)) = stack.pop() {
        for &t in &nfa.next[q as usize] {
            if is_switch(t) {
                continue;
            }
            let p = past || sure[q as usize] && q != s;
            if !std::mem::replace(&mut seen[t as usize][p as usize], true) {
                stack.push((t, p));
            }
        }
    }
    seen.iter().map(|x| x[1]).collect()
}

/// The states not yet `sure` that hold by induction: a hypothesis set
/// `H` of states each with a `{! q}` into a switch or a sure state, where
/// every accepting walk of `q` is mirrored by the rules into sure states
/// or, decreasing the count of squares holding pieces of `T`, into `H`
/// (`simulate.rs`), `T` the pieces no walk from `H` puts before a switch;
/// the greatest such set.
fn by_induction(low: &Lowered, d: &Decls, sure: &[bool], maynull: &[bool]) -> Vec<bool> {
    let nfa = &low.rules;
    let n = nfa.states();
    let is_switch = |s: u32| s > 0 && matches!(nfa.leaf(s), Leaf::Switch(..));
    let ok = |t: u32| is_switch(t) || sure[t as usize];
    let negated = |s: u32| {
        nfa.next[s as usize]
            .iter()
            .filter_map(|&t| match nfa.leaf(t) {
                Leaf::Pattern(true, k) if ok(t) => Some(*k),
                _ => None,
            })
            .collect::<Vec<usize>>()
    };
    let mut hyp: Vec<bool> = (0..n as u32)
        .map(|s| !sure[s as usize] && !maynull[s as usize] && !negated(s).is_empty())
        .collect();
    loop {
        // The pieces put from `H` before a switch.
        let mut put = vec![false; d.pieces.len()];
        let mut seen = vec![false; n];
        let mut stack: Vec<u32> = (0..n as u32).filter(|&s| hyp[s as usize]).collect();
        while let Some(s) = stack.pop() {
            for &t in &nfa.next[s as usize] {
                if is_switch(t) || std::mem::replace(&mut seen[t as usize], true) {
                    continue;
                }
                if let Leaf::Off(x, _) = nfa.leaf(t) {
                    put[*x as usize] = true;
                }
                stack.push(t);
            }
        }
        let t: Vec<bool> = put.iter().map(|&b| !b).collect();
        let goal = Goal {
            sure,
            maynull,
            hyp: Some((&hyp, &t)),
        };
        let keep: Vec<bool> = (0..n as u32)
            .map(|s| {
                hyp[s as usize]
                    && negated(s).iter().any(|&k| {
                        mirrored(
                            &low.patterns[k],
                            nfa,
                            s,
                            &goal,
                            &low.relations,
                            d.vertices.len(),
                        )
                    })
            })
            .collect();
        if keep == hyp {
            return hyp;
        }
        hyp = keep;
    }
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
fn tautology(low: &Lowered, d: &Decls, s: u32, ok: &dyn Fn(u32) -> bool, ranges: &Ranges) -> bool {
    let Some(spans) = ranges.after(s) else {
        return false;
    };
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
    // The variables' values from their ranges at `s` (the tests change
    // nothing): `lows[k] + digit`.
    let mut lows: Vec<i64> = Vec::new();
    for i in &vars {
        match i {
            Input::Var(v) => {
                let (lo, hi) = spans[*v as usize];
                lows.push(lo);
                sizes.push((hi - lo + 1) as u64);
            }
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
                .zip(&lows)
                .map(|(&x, lo)| lo + x as i64)
                .collect();
            holds(l, *op, r, &vars, &values)
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

#[cfg(test)]
mod tests {
    use super::chains;

    #[test]
    fn chains_are_single_targets_without_a_cycle() {
        // A column 0 -> 1 -> 2, and 3 joining it.
        assert!(chains(&vec![vec![1], vec![2], vec![], vec![1]]));
        // A cycle 1 -> 2 -> 1, reached from 0 and from 3.
        assert!(!chains(&vec![vec![1], vec![2], vec![1], vec![0]]));
        // A loop at the last vertex only.
        assert!(!chains(&vec![vec![1], vec![2], vec![2]]));
        // Two targets at 0.
        assert!(!chains(&vec![vec![1, 2], vec![], vec![]]));
    }
}
