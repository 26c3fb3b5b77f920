//! Lazy piece counts and piece lists. A state's counts (`$ count`
//! expressions) and piece lists (scans of a piece set) are derived from its
//! board; a piece modifier keeps them in step as it applies and undoes
//! itself. Where nothing the walk can still do after the modifier (its
//! level, the levels below, the patterns they call) reads the counts, or
//! the lists, the modifier writes only the board and leaves them stale:
//! the walk undoes it before anything reads them. Only the keeper keeps a
//! move's changes; where it stops, each kept modifier settles what it left
//! stale (`rt::kept`). Breakthrough's `[empty]` at a pawn's square is
//! then one store and its undo another. Likewise a modifier (of a piece or
//! a variable) starts a new version of the pattern memo only where a
//! pattern can be decided before it is undone.
//!
//! The marks come from a backward pass over the walk's steps (transitions,
//! switch rows, the patterns called; never past a switch). Instructions per
//! playout (callgrind, whole run with code generation): amazons -8.5%,
//! englishDraughts -5%, internationalDraughts -2.6%, paperSoccer -2.8%,
//! breakthrough -2.9%, chess -2.1%; reversi, mill, connect4, gomoku, hex
//! within 1%.

use rbg_engine::raw::{Act, Compiled, Expr, Op, NONE};

use super::Walk;

/// Per state: whether a walk from it can read the counts, the lists, and
/// decide a pattern (which reads the memo).
pub(super) struct Reads {
    pub counts: Vec<bool>,
    pub lists: Vec<bool>,
    pub patterns: Vec<bool>,
}

/// Whether `e` reads a count (with an explicit stack: expressions nest as
/// deep as the description says).
fn reads_count(e: &Expr) -> bool {
    let mut todo = vec![e];
    while let Some(e) = todo.pop() {
        match e {
            Expr::Count(_) => return true,
            Expr::Bin(l, _, r) => todo.extend([&**l, &**r]),
            Expr::Const(_) | Expr::Var(_) => {}
        }
    }
    false
}

/// What a walk from each state can read: the states reading directly,
/// closed backwards over the walk's steps (a transition's target, a
/// switch row's targets, a pattern's start; never past a switch).
pub(super) fn reads(c: &Compiled) -> Reads {
    let n = c.trans_off.len() - 1;
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut counts = vec![false; n];
    let mut lists = vec![false; n];
    let mut patterns = vec![false; n];
    for q in 0..n as u32 {
        for tr in c.transitions(q) {
            match tr.op {
                Op::ScanOn => lists[q as usize] = true,
                Op::Pattern => patterns[q as usize] = true,
                Op::Compare => {
                    if let Act::Compare(l, _, r) = &c.acts[tr.to as usize] {
                        counts[q as usize] |= reads_count(l) || reads_count(r);
                    }
                }
                Op::Assign => {
                    if let Act::Assign(_, e) = &c.acts[tr.to as usize] {
                        counts[q as usize] |= reads_count(e);
                    }
                }
                _ => {}
            }
            match tr.op {
                Op::Switch => {}
                Op::ShiftSwitch => {
                    for p in 0..c.num_pieces {
                        let (to, _) = c.switch_to(tr.set, p);
                        if to != NONE {
                            preds[to as usize].push(q);
                        }
                    }
                }
                Op::Pattern => {
                    preds[c.starts[(tr.arg >> 1) as usize] as usize].push(q);
                    preds[tr.to as usize].push(q);
                }
                _ => preds[tr.to as usize].push(q),
            }
        }
    }
    for set in [&mut counts, &mut lists, &mut patterns] {
        let mut todo: Vec<u32> = (0..n as u32).filter(|&q| set[q as usize]).collect();
        while let Some(q) = todo.pop() {
            for &p in &preds[q as usize] {
                if !set[p as usize] {
                    set[p as usize] = true;
                    todo.push(p);
                }
            }
        }
    }
    Reads {
        counts,
        lists,
        patterns,
    }
}

impl Walk<'_, '_> {
    /// Whether piece modifier `a` (the state it leads to) keeps the counts,
    /// and the lists, in step.
    pub(super) fn keeps(&self, a: u32) -> (bool, bool) {
        let r = &self.reads;
        (r.counts[a as usize], r.lists[a as usize])
    }
}
