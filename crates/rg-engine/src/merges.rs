//! Whether a move walk's `@repeat` merges are of equal states (for
//! `mirror.rs`): a merge at a `@repeat` node drops a visit whose tags and
//! key variables equal an earlier visit's; it loses nothing when the two
//! visits' states are then equal.
//!
//! Pairs of walks from `b` with equal tag sequences are followed together:
//! a pair state is the two nodes and the user variables in which the two
//! states may differ. Both walks start in one state. Tagless edges are taken
//! by one walk at a time, or by both at once where they are at one node
//! (the same edge keeps equal what it reads from equal places: `coord =
//! go[coord]`, `board[coord] = empty` with `coord` equal); tag edges by both
//! at once, `$$ v` on both making `v` equal (equal tags), two different
//! `$ x` ending the pair. So each pair of walks is covered by some schedule:
//! at one node both take their next edges together when both are tagless
//! or both tags; the tagless one moves alone where the node also has a tag
//! edge; where one walk ends at a `@repeat` node, it stays there while the
//! other moves on (without tags). A `@repeat` node's merges are exact when
//! the pairs reaching it on both sides differ only in its key.
//!
//! Translated RBG moves need this: `$$ coord` tags the square a piece left,
//! the board is written there, and the `@repeat ... : coord` nodes after it
//! merge walks that may differ only in `coord`.

use std::collections::{HashMap, HashSet};

use rg_lang::checked::{CEdge, CExpr, CLabel, CheckedGame};

use crate::bits;

/// Pair states one analysis may create (beyond this, merges count as
/// inexact).
const MAX_PAIR_STATES: usize = 1 << 16;

/// One pair state: the two nodes and whether the first walk has ended (at
/// a `@repeat` node, the second one moving on).
type Pair = (u32, u32, bool);

/// Whether every `@repeat` node of `repeats` (with its key's user
/// variables in `keys`) merges only equal states in the move walks from
/// `b`, whose edges are `out` restricted to `region` and not `ends` (the
/// `player` assignments).
pub fn exact(
    g: &CheckedGame,
    out: &[Vec<&CEdge>],
    region: &HashSet<u32>,
    ends: impl Fn(&CEdge) -> bool,
    b: u32,
    repeats: &[(u32, &[u64])],
) -> bool {
    let words = g.user_variables().div_ceil(64);
    let user = |v: usize| v < g.user_variables();
    let is_repeat = |n: u32| repeats.iter().any(|r| r.0 == n);
    let follows = |e: &&CEdge| region.contains(&e.to.0) && !ends(e);
    let is_tag = |e: &CEdge| matches!(e.label, CLabel::Tag(_) | CLabel::TagVariable(_));
    // The user variable a label writes.
    let written = |e: &CEdge| match &e.label {
        CLabel::Assign(t, _) | CLabel::AssignAny(t, _) => t.root_var().filter(|&v| user(v)),
        _ => None,
    };
    // One walk takes `e`: what it writes may now differ.
    let alone = |d: &[u64], e: &CEdge| match written(e) {
        Some(w) => bits::with(d, w as u32),
        None => d.to_vec(),
    };
    // Both walks take `e`.
    let same = |d: &[u64], e: &CEdge| {
        let Some(w) = written(e) else {
            return d.to_vec();
        };
        let (t, value) = match &e.label {
            CLabel::Assign(t, v) => (t, Some(v)),
            CLabel::AssignAny(t, _) => (t, None),
            _ => unreachable!("a write"),
        };
        let mut reads = Vec::new();
        place_reads(t, &mut reads);
        let equal = match value {
            Some(v) => {
                expr_reads(v, &mut reads);
                // (`goals`, `visible` and `player` are not followed.)
                reads
                    .iter()
                    .all(|&r| user(r) && !bits::contains(d, r as u32))
            }
            None => false,
        };
        match (equal, t) {
            (true, CExpr::Var(_)) => bits::without(d, w as u32),
            (true, _) => d.to_vec(),
            (false, _) => bits::with(d, w as u32),
        }
    };
    let mut diff: HashMap<Pair, Vec<u64>> = HashMap::from([((b, b, false), vec![0; words])]);
    let mut stack = vec![(b, b, false)];
    while let Some(p @ (n1, n2, ended)) = stack.pop() {
        let d = diff[&p].clone();
        let mut next: Vec<(Pair, Vec<u64>)> = Vec::new();
        let e1s: Vec<&CEdge> = out[n1 as usize].iter().copied().filter(follows).collect();
        let e2s: Vec<&CEdge> = out[n2 as usize].iter().copied().filter(follows).collect();
        if ended {
            for e in e2s.iter().filter(|e| !is_tag(e)) {
                next.push(((n1, e.to.0, true), alone(&d, e)));
            }
        } else {
            // Tag edges, both at once.
            for e1 in e1s.iter().filter(|e| is_tag(e)) {
                for e2 in e2s.iter().filter(|e| is_tag(e)) {
                    let d = match (&e1.label, &e2.label) {
                        (CLabel::Tag(x), CLabel::Tag(y)) if x != y => continue,
                        (CLabel::TagVariable(x), CLabel::TagVariable(y)) if x == y && user(*x) => {
                            bits::without(&d, *x as u32)
                        }
                        _ => d.clone(),
                    };
                    next.push(((e1.to.0, e2.to.0, false), d));
                }
            }
            if n1 == n2 {
                // Tagless edges, both at once.
                for e1 in e1s.iter().filter(|e| !is_tag(e)) {
                    for e2 in e2s.iter().filter(|e| !is_tag(e)) {
                        let d = match std::ptr::eq(*e1, *e2) {
                            true => same(&d, e1),
                            false => alone(&alone(&d, e1), e2),
                        };
                        next.push(((e1.to.0, e2.to.0, false), d));
                    }
                }
                if is_repeat(n1) {
                    next.push(((n1, n2, true), d.clone()));
                }
            }
            // Tagless edges, one walk at a time (at one node only where the
            // other walk may take a tag edge).
            if n1 != n2 || e1s.iter().any(|e| is_tag(e)) {
                for e in e1s.iter().filter(|e| !is_tag(e)) {
                    next.push(((e.to.0, n2, false), alone(&d, e)));
                }
                for e in e2s.iter().filter(|e| !is_tag(e)) {
                    next.push(((n1, e.to.0, false), alone(&d, e)));
                }
            }
        }
        for (q, d) in next {
            match diff.get_mut(&q) {
                Some(old) if bits::subset(&d, old) => {}
                Some(old) => {
                    *old = bits::union(old, &d);
                    stack.push(q);
                }
                None => {
                    if diff.len() >= MAX_PAIR_STATES {
                        return false;
                    }
                    diff.insert(q, d);
                    stack.push(q);
                }
            }
        }
    }
    repeats.iter().all(|&(r, keys)| {
        [false, true].iter().all(|&ended| {
            diff.get(&(r, r, ended))
                .is_none_or(|d| bits::subset(d, keys))
        })
    })
}

/// The variables evaluating `e` reads.
fn expr_reads(e: &CExpr, reads: &mut Vec<usize>) {
    match e {
        CExpr::Var(v) => reads.push(*v),
        CExpr::Const(_) | CExpr::Sym(_) => {}
        CExpr::Access(m, k) => {
            expr_reads(m, reads);
            expr_reads(k, reads);
        }
    }
}

/// The variables finding the place `e` reads (its keys).
fn place_reads(e: &CExpr, reads: &mut Vec<usize>) {
    if let CExpr::Access(m, k) = e {
        place_reads(m, reads);
        expr_reads(k, reads);
    }
}
