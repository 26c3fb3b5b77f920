//! Keyed leaf programs as the walk reads them ([`Keyed`]): each
//! instruction 8 bytes with both its targets, laid out so that the
//! instructions a check runs one after the other when comparisons fail
//! sit side by side.
//!
//! A keyed program ([`KeyedLeaf`]) goes on with the next instruction when
//! a comparison holds and past its subtree when it fails. Reversi's "this
//! square flips something" is eight rays, each a first comparison (the
//! next square holds the opponent's piece) over the ray's subtree; at an
//! empty square most first comparisons fail, so a check read eight
//! instructions each a subtree apart, and the 18 keyed checks' 50,598
//! instructions of 16 bytes (810 KB) did not stay in the first-level
//! data cache: cachegrind (seed 1) counted 17K of the interpreter's 29K
//! D1 read misses per playout there (the RBG engine's: 0.6K in all),
//! and 6K conditional mispredictions (of the two tests an instruction).
//! Here a program's instructions are placed chain by chain ([`order`]):
//! an instruction and those its failures go to (the eight rays' first
//! comparisons), then each one's subtree the same way, depth first (a
//! ray's squares one after the other). An instruction holds where it
//! goes on equality and on inequality ([`Packed`]: `eq` and `accept`
//! folded into the targets), so the walk picks the next one with a
//! select, not a branch, and stops past the program's end: at its length
//! (fails) or at [`ACCEPT`] (holds).

use super::KeyedLeaf;
use crate::program::NO_TABLE;
use crate::sealed::Sealed;

/// An instruction of a keyed program as the walk runs it ([`Keyed`]):
/// `x` is `st[at]` (or, with a table, `fun[table + st[at]]`); the walk
/// goes on at `on_eq` if `x == value`, else at `on_ne`. A target is an
/// instruction of the program, its length (the check fails) or
/// [`ACCEPT`] (the check holds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Packed {
    at: u16,
    value: u16,
    on_eq: u16,
    on_ne: u16,
}

/// A [`Packed`] target: the check holds.
const ACCEPT: u16 = u16::MAX;

/// The keyed programs (verified: every `at` below the game's slots, every
/// target within its program, its length or [`ACCEPT`], each program
/// shorter than [`ACCEPT`]): their instructions ([`Packed`]) and, per
/// instruction, its table ([`KeyedLeaf`]'s `table`, read only by
/// programs that have tables).
#[derive(Clone, Debug, Default)]
pub(in crate::sealed) struct Keyed {
    code: Box<[Packed]>,
    tables: Box<[u32]>,
}

/// [`Keyed`] while its programs are added.
#[derive(Default)]
pub(super) struct Programs {
    code: Vec<Packed>,
    tables: Vec<u32>,
}

impl From<Programs> for Keyed {
    fn from(p: Programs) -> Keyed {
        Keyed {
            code: p.code.into(),
            tables: p.tables.into(),
        }
    }
}

/// A program's instructions (verified: each `skip` after its own and at
/// most the length) in the order [`Keyed`] stores them: from the first,
/// the chain of instructions each one's failure goes to (within the
/// subtree being laid out), then each of them's subtree, depth first.
fn order(p: &[KeyedLeaf]) -> Vec<usize> {
    let n = p.len();
    let mut out = Vec::with_capacity(n);
    let mut placed = vec![false; n];
    // Subtrees (first instruction, end) still to lay out, the next on top.
    let mut todo = vec![(0, n)];
    while let Some((start, end)) = todo.pop() {
        let first = out.len();
        let mut i = start;
        while i < end && !placed[i] {
            placed[i] = true;
            out.push(i);
            i = p[i].skip as usize;
        }
        for &c in out[first..].iter().rev() {
            todo.push((c + 1, (p[c].skip as usize).min(end)));
        }
    }
    // (Each instruction is in some subtree; kept whole regardless.)
    out.extend((0..n).filter(|&i| !placed[i]));
    out
}

impl Programs {
    /// Adds program `p` (verified, [`order`]), if every slot it reads
    /// and its length fit a `u16` (below [`ACCEPT`]): where it starts.
    pub(super) fn push(&mut self, p: &[KeyedLeaf]) -> Option<u32> {
        let n = p.len();
        if n >= ACCEPT as usize || p.iter().any(|l| l.at > u16::MAX as u32) {
            return None;
        }
        let order = order(p);
        let mut new_at = vec![n as u16; n + 1];
        for (to, &from) in order.iter().enumerate() {
            new_at[from] = to as u16;
        }
        let start = self.code.len() as u32;
        for &i in &order {
            let l = p[i];
            let next = match l.accept {
                true => ACCEPT,
                false => new_at[i + 1],
            };
            let skip = new_at[(l.skip as usize).min(n)];
            let (on_eq, on_ne) = match l.eq {
                true => (next, skip),
                false => (skip, next),
            };
            self.code.push(Packed {
                at: l.at as u16,
                value: l.value,
                on_eq,
                on_ne,
            });
            self.tables.push(l.table);
        }
        Some(start)
    }

    /// The number of instructions.
    pub(super) fn len(&self) -> usize {
        self.code.len()
    }

    /// Drops the instructions from `len` on.
    pub(super) fn truncate(&mut self, len: usize) {
        self.code.truncate(len);
        self.tables.truncate(len);
    }
}

impl Keyed {
    /// The number of instructions.
    pub(super) fn len(&self) -> usize {
        self.code.len()
    }
}

impl Sealed {
    /// Whether the keyed program of `len` instructions at `at` holds in
    /// `st` ([`Keyed`]).
    #[inline(always)]
    pub(super) fn keyed_leaf<const TABLES: bool>(&self, st: &[u16], at: u32, len: u32) -> bool {
        let k = &self.keyed;
        debug_assert!((at + len) as usize <= k.len() && st.len() >= self.slots);
        // SAFETY: `new` verified the program within `keyed`.
        let p = unsafe { k.code.get_unchecked(at as usize..(at + len) as usize) };
        let mut pc = 0u32;
        while pc < len {
            // SAFETY: `pc < len`, the program's length.
            let l = unsafe { p.get_unchecked(pc as usize) };
            // SAFETY: `new` verified `at` below `slots`; `st` is as long
            // (`leaf`).
            let mut x = unsafe { *st.get_unchecked(l.at as usize) };
            if TABLES {
                // SAFETY: `tables` is as long as `code`.
                let table = unsafe { *k.tables.get_unchecked((at + pc) as usize) };
                if table != NO_TABLE {
                    // SAFETY: `new` verified the table within `vals`, padded.
                    x = unsafe { self.tab_at(x, table) };
                }
            }
            pc = match x == l.value {
                true => {
                    // A branch, not a select: the next instruction's
                    // loads then start before this comparison is known
                    // (predicted), not after (a select made reversi's
                    // interpreter 17-20% slower by time).
                    // SAFETY: an empty instruction sequence.
                    unsafe { std::arch::asm!("", options(nomem, nostack, preserves_flags)) };
                    l.on_eq
                }
                false => l.on_ne,
            } as u32;
        }
        pc == ACCEPT as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ins(skip: u32) -> KeyedLeaf {
        KeyedLeaf {
            at: 0,
            skip,
            table: NO_TABLE,
            value: 0,
            eq: true,
            accept: false,
        }
    }

    #[test]
    fn chains_of_failures_first_then_each_subtree_depth_first() {
        // Three rays: 0 over 1..4 (1 over 2, then 3), 4 alone, 5 over 6.
        let p = [ins(4), ins(3), ins(3), ins(4), ins(5), ins(7), ins(7)];
        assert_eq!(order(&p), [0, 4, 5, 1, 3, 2, 6]);
    }
}
