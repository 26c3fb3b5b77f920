//! The piece counters a modifier keeps up to date.
//!
//! When some expression reads a piece count (`$ toBeRemoved`), every
//! modifier `[p]` is three assignments: the count of the piece it replaces
//! down (`counters[board[coord]] = dec[counters[board[coord]]]`), the
//! square, the count of `p` up. An update no later read can see is left
//! out:
//! - a piece whose count no expression reads has no count to keep;
//! - in a pattern, whose changes are undone when its check ends, a count
//!   is only seen by the reads after the modifier in the same pattern (a
//!   nested pattern counts as reading every count).
//!
//! The replaced piece is one of the pieces the tests right before the
//! modifier allow (every way into its state a test `{a, b}`), else any
//! piece. A count a walk keeps is then exact wherever it is read: every
//! update before a read on the walk is kept (the read is after each of
//! them). An unread piece's count is not exact: a kept decrement may
//! replace that piece (the tests allow a read and an unread one) while its
//! puts are not counted, so the count drifts, down to the `dec` table's
//! `nan` (a value outside the counter's type, which RG does not check at
//! run time, and which `dec` maps to itself); no expression reads it, and
//! states with equal boards may then differ in it (`tests/counts.rs`).
//! Callgrind instructions per playout (`rbg bench G.rg --seed 1`,
//! in `play_random`, one binary on both translations): internationalDraughts
//! interp 25,210,365 -> 19,575,929 (-22.3%; its "can capture more" pattern
//! kept the counts of the captured and the moving piece, and of `empty`,
//! which it never reads), chess_kingCapture interp -14.0%, native -13.0%
//! (only the kings' counts are read).

use crate::arith::{inputs, Input};
use crate::regex::{Leaf, Lowered, Nfa};

/// Per piece: whether some expression of the rules or of a pattern reads
/// its count.
pub(crate) fn read_counts(low: &Lowered, pieces: usize) -> Vec<bool> {
    let mut read = vec![false; pieces];
    for nfa in std::iter::once(&low.rules).chain(&low.patterns) {
        for leaf in &nfa.leaves {
            for p in counts_of(leaf) {
                read[p as usize] = true;
            }
        }
    }
    read
}

/// The pieces whose counts `leaf` reads (not those of its patterns).
fn counts_of(leaf: &Leaf) -> Vec<u32> {
    let mut ins = Vec::new();
    match leaf {
        Leaf::Assign(_, e, _) => inputs(e, &mut ins),
        Leaf::Compare(l, _, r) => {
            inputs(l, &mut ins);
            inputs(r, &mut ins);
        }
        _ => {}
    }
    ins.into_iter()
        .filter_map(|i| match i {
            Input::Count(p) => Some(p),
            Input::Var(_) => None,
        })
        .collect()
}

/// Per state of `nfa`: for a modifier entering it, whether it keeps the
/// count of the piece it replaces and of the piece it puts (`(true, true)`
/// for other states). `read`: [`read_counts`]; `local`: `nfa` is a
/// pattern's (its changes undone at its end).
pub(crate) fn kept(nfa: &Nfa, read: &[bool], local: bool) -> Vec<(bool, bool)> {
    let n = nfa.states();
    let pieces = read.len();
    // Per state: the counts read on entering it or after (a pattern's).
    let live: Vec<Vec<bool>> = match local {
        false => Vec::new(),
        true => {
            let mut live = vec![vec![false; pieces]; n];
            let mut changed = true;
            while changed {
                changed = false;
                for s in (1..n).rev() {
                    let mut now = live[s].clone();
                    match nfa.leaf(s as u32) {
                        Leaf::Pattern(..) => now.copy_from_slice(read),
                        leaf => {
                            for p in counts_of(leaf) {
                                now[p as usize] = true;
                            }
                        }
                    }
                    for &t in &nfa.next[s] {
                        for (a, &b) in now.iter_mut().zip(&live[t as usize]) {
                            *a |= b;
                        }
                    }
                    if now != live[s] {
                        live[s] = now;
                        changed = true;
                    }
                }
            }
            live
        }
    };
    // Per state: the pieces its square may hold before a modifier into it.
    let mut before: Vec<Option<Vec<bool>>> = vec![None; n];
    let mut any = vec![false; n];
    for s in 0..n {
        for &t in &nfa.next[s] {
            let t = t as usize;
            match (s > 0).then(|| nfa.leaf(s as u32)) {
                Some(Leaf::On(set)) => {
                    let b = before[t].get_or_insert_with(|| vec![false; pieces]);
                    for &p in set {
                        b[p as usize] = true;
                    }
                }
                _ => any[t] = true,
            }
        }
    }
    (0..n)
        .map(|t| {
            let Some(Leaf::Off(p, _)) = (t > 0).then(|| nfa.leaf(t as u32)) else {
                return (true, true);
            };
            // The counts read after the modifier.
            let after: Vec<bool> = match local {
                false => read.to_vec(),
                true => (0..pieces)
                    .map(|q| nfa.next[t].iter().any(|&u| live[u as usize][q]))
                    .collect(),
            };
            let old = match (&before[t], any[t]) {
                (Some(b), false) => (0..pieces).any(|q| b[q] && after[q]),
                _ => after.iter().any(|&a| a),
            };
            (old, after[*p as usize])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rbg_lang::ast::{Arith, CmpOp};

    /// `{a} [b] {$ count(c) > 0}` and the same with `{$ count(a) > 0}`,
    /// as patterns and as rules, over three pieces.
    fn nfa(read: u32) -> Nfa {
        Nfa {
            leaves: vec![
                Leaf::On(vec![0]),
                Leaf::Off(1, 0),
                Leaf::Compare(Arith::PieceCount(read), CmpOp::Gt, Arith::Num(0)),
            ],
            next: vec![vec![1], vec![2], vec![3], vec![]],
            finals: vec![false, false, false, true],
        }
    }

    #[test]
    fn a_pattern_keeps_the_counts_read_after_it() {
        // Only `c` is read: the replaced `a` and the put `b` are unseen.
        assert_eq!(kept(&nfa(2), &[true; 3], true)[2], (false, false));
        // `a` is read after: its count goes down.
        assert_eq!(kept(&nfa(0), &[true; 3], true)[2], (true, false));
        // `b` is read after: its count goes up.
        assert_eq!(kept(&nfa(1), &[true; 3], true)[2], (false, true));
    }

    #[test]
    fn rules_keep_every_count_read_anywhere() {
        assert_eq!(kept(&nfa(2), &[true; 3], false)[2], (true, true));
        assert_eq!(kept(&nfa(2), &[false, true, true], false)[2], (false, true));
        assert_eq!(
            kept(&nfa(2), &[true, false, false], false)[2],
            (true, false)
        );
    }

    #[test]
    fn an_unknown_square_may_hold_any_piece() {
        // `[b]` right after the start: the square holds anything.
        let mut n = nfa(0);
        n.leaves[0] = Leaf::Compare(Arith::Num(1), CmpOp::Gt, Arith::Num(0));
        assert_eq!(kept(&n, &[false, false, true], false)[2], (true, false));
        assert_eq!(kept(&n, &[true; 3], true)[2], (true, false));
    }
}
