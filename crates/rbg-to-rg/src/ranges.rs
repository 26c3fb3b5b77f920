//! The values the variables may hold at each state of the rules'
//! automaton: an interval per variable, propagated from the start (every
//! variable 0) through the assignments and narrowed by the comparisons
//! (RBG's patterns change nothing, so only the rules' own leaves count).
//!
//! An assignment whose every value in those intervals lies in range needs
//! no `nan` guard, one that always holds or never holds a comparison no
//! edge, and a leaf that is always legal there lets a move surely
//! complete (`sure.rs`): draughts' keeper `{$ s < 20} ... [$ s = s + 1]`
//! (`s` at most 19 after the test) no longer checks that it has a move,
//! nor guards the assignment. Callgrind instructions per playout (`rbg
//! bench --seed 1`, counted in `play_random`; the same engine binary on
//! both translations) on the suite's games: englishDraughts interp
//! 839,072 -> 788,166 (-6.1%), native 324,269 -> 311,100 (-4.1%); chess
//! interp 58,411,761 -> 57,963,185 (-0.8%), native 16,687,170 ->
//! 16,569,371 (-0.7%); the other six translations are unchanged (no
//! variables but the scores).

use rbg_lang::ast::{Arith, CmpOp};

use crate::arith::{compare, eval, inputs, Input};
use crate::regex::{Leaf, Nfa};

/// An inclusive interval of a variable's values.
pub(crate) type Span = (i64, i64);

/// Most input combinations one leaf's evaluation may try; above it the
/// leaf is taken as able to produce any value (assignments) or to narrow
/// nothing (comparisons).
const MAX_COMBINATIONS: u64 = 1 << 16;

/// Most times a state's intervals may grow before its growing variables
/// are taken at their whole range.
const MAX_GROWTH: u32 = 64;

/// The intervals before and after each state's leaf (`None`: no walk of
/// the rules reaches it with a legal leaf).
pub(crate) struct Ranges {
    before: Vec<Option<Vec<Span>>>,
    after: Vec<Option<Vec<Span>>>,
}

impl Ranges {
    /// The ranges over `nfa` (the rules) of variables bounded by `bounds`,
    /// piece counts at most `vertices`.
    pub(crate) fn new(nfa: &Nfa, bounds: &[u64], vertices: u64) -> Ranges {
        let n = nfa.states();
        let full: Vec<Span> = bounds.iter().map(|&b| (0, b as i64)).collect();
        let mut before: Vec<Option<Vec<Span>>> = vec![None; n];
        let mut after: Vec<Option<Vec<Span>>> = vec![None; n];
        let mut growth = vec![0u32; n];
        after[0] = Some(vec![(0, 0); bounds.len()]);
        let mut work = vec![0u32];
        while let Some(s) = work.pop() {
            let Some(out) = after[s as usize].clone() else {
                continue;
            };
            for &t in &nfa.next[s as usize] {
                let old = before[t as usize].clone();
                let mut joined = match &old {
                    None => out.clone(),
                    Some(o) => o.iter().zip(&out).map(|(a, b)| hull(*a, *b)).collect(),
                };
                if old.as_ref() == Some(&joined) {
                    continue;
                }
                growth[t as usize] += 1;
                if growth[t as usize] > MAX_GROWTH {
                    if let Some(o) = &old {
                        for (k, span) in joined.iter_mut().enumerate() {
                            if *span != o[k] {
                                *span = full[k];
                            }
                        }
                    }
                }
                after[t as usize] = apply(nfa.leaf(t), &joined, &full, vertices);
                before[t as usize] = Some(joined);
                work.push(t);
            }
        }
        Ranges { before, after }
    }

    /// The intervals on entering state `t` (before its leaf).
    pub(crate) fn before(&self, t: u32) -> Option<&[Span]> {
        self.before.get(t as usize)?.as_deref()
    }

    /// The intervals after state `s`'s leaf.
    pub(crate) fn after(&self, s: u32) -> Option<&[Span]> {
        self.after.get(s as usize)?.as_deref()
    }
}

/// The smallest interval holding both.
fn hull(a: Span, b: Span) -> Span {
    (a.0.min(b.0), a.1.max(b.1))
}

/// The intervals after `leaf` from `spans` (`None`: it never holds).
fn apply(leaf: &Leaf, spans: &[Span], full: &[Span], vertices: u64) -> Option<Vec<Span>> {
    let mut out = spans.to_vec();
    match leaf {
        Leaf::Assign(v, e, _) => {
            let v = *v as usize;
            let bound = full[v].1;
            let mut ins = Vec::new();
            inputs(e, &mut ins);
            let mut got: Option<Span> = None;
            let done = for_each(&ins, spans, vertices, |vals| {
                if let Some(x) = eval(e, &ins, vals).filter(|x| (0..=bound).contains(x)) {
                    got = Some(got.map_or((x, x), |g| hull(g, (x, x))));
                }
            });
            out[v] = if done { got? } else { full[v] };
        }
        Leaf::Compare(l, op, r) => {
            let mut ins = Vec::new();
            inputs(l, &mut ins);
            inputs(r, &mut ins);
            let mut got: Vec<Option<Span>> = vec![None; ins.len()];
            let mut any = false;
            let done = for_each(&ins, spans, vertices, |vals| {
                if holds(l, *op, r, &ins, vals) {
                    any = true;
                    for (g, &x) in got.iter_mut().zip(vals) {
                        *g = Some(g.map_or((x, x), |g| hull(g, (x, x))));
                    }
                }
            });
            if done {
                if !any {
                    return None;
                }
                for (i, g) in ins.iter().zip(got) {
                    if let (Input::Var(v), Some(g)) = (i, g) {
                        out[*v as usize] = g;
                    }
                }
            }
        }
        _ => {}
    }
    Some(out)
}

/// Whether `l op r` holds with `vals` for `ins`.
pub(crate) fn holds(l: &Arith, op: CmpOp, r: &Arith, ins: &[Input], vals: &[i64]) -> bool {
    matches!((eval(l, ins, vals), eval(r, ins, vals)), (Some(x), Some(y)) if compare(x, op, y))
}

/// The span of input `i`: a variable's from `spans`, a piece count's
/// `0..=vertices`.
fn span_of(i: Input, spans: &[Span], vertices: u64) -> Span {
    match i {
        Input::Var(v) => spans[v as usize],
        Input::Count(_) => (0, vertices as i64),
    }
}

/// Calls `f` with every combination of values of `ins` within `spans`
/// (piece counts `0..=vertices`); `false` (and no call) when there are
/// more than [`MAX_COMBINATIONS`].
pub(crate) fn for_each(
    ins: &[Input],
    spans: &[Span],
    vertices: u64,
    mut f: impl FnMut(&[i64]),
) -> bool {
    let s: Vec<Span> = ins.iter().map(|&i| span_of(i, spans, vertices)).collect();
    let total = s
        .iter()
        .try_fold(1u64, |a, &(lo, hi)| a.checked_mul((hi - lo + 1) as u64));
    if total.is_none_or(|t| t > MAX_COMBINATIONS) {
        return false;
    }
    let mut cur: Vec<i64> = s.iter().map(|&(lo, _)| lo).collect();
    loop {
        f(&cur);
        let mut k = 0;
        loop {
            if k == cur.len() {
                return true;
            }
            if cur[k] < s[k].1 {
                cur[k] += 1;
                break;
            }
            cur[k] = s[k].0;
            k += 1;
        }
    }
}
