//! Leaf checks as the walk runs them: a check's comparisons in order, or
//! the program of its key slot's symbol ([`LeafCheck`], [`Sealed::leaf`]).

mod keyed;

pub(super) use keyed::Keyed;
use keyed::Programs;

use super::{Sealed, PAD};
use crate::code::Kind;
use crate::program::{Leaf, NO_TABLE};
use crate::tables::NO_SLOT;

/// A leaf check as the walk runs it ([`Sealed::leaf_range`]): its
/// instructions in [`Sealed`]'s `leaves`, and the programs specialised to
/// the symbol of its key slot, if it has them.
///
/// A leaf check whose comparisons all read through one slot `k` (the
/// `coord` of `board[go[coord]] == w`, `f[coord] == 1`; or read a slot
/// directly) is specialised at load to each symbol `v` of `k`: every
/// comparison then reads one slot known in advance (`board[go[v]]`'s),
/// or is decided (`f[v] == 1`, as `st[k] == v` or `!=`). The check reads
/// `st[k]` once and runs the program of its symbol ([`KeyedLeaf`]: one
/// load of the semistate and one comparison an instruction, no dispatch
/// on the comparison's kind, no table read). Equal programs (the symbols
/// outside the key's type read its maps' defaults) are stored once, and
/// all of them within [`MAX_KEYED`] instructions.
///
/// Callgrind instructions per playout (`rbg bench --engine interp`, seed
/// 1, in `play_random`) on the suite's translations, against cc31286:
/// reversi 1,643,754 -> 1,369,218 (-16.7%: its "this square flips
/// something", eight rays read from the square), ticTacToe 15,244 ->
/// 14,384 (-5.6%), connect4 62,256 -> 59,833 (-3.9%), chess +0.28%, the
/// others within 0.03%. The same programs, reading through a constant
/// map too (`f[board[x]] == c`, [`KeyedLeaf`]'s `table`, in a loop of
/// their own), decide the subtrees of checks' any-assignments that are
/// comparisons only ([`Sealed::subtree`], `walk/program.rs`).
///
/// A program leaves out its decided instructions ([`simplified`]): those
/// that read the key alone, and those that read a slot no reachable
/// semistate changes (`super::fixed`: ticTacToe's `board[null]`, read
/// where a line leaves the board). Callgrind instructions per playout
/// against 5299e3d: ticTacToe 12,831 -> 12,497 (-2.6%), the others
/// within 0.03% (their `coord = go[coord]` may write `null`, as far as
/// the flow-insensitive proof sees).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeafCheck {
    pub(super) start: u32,
    pub(super) end: u32,
    /// The key slot ([`NO_SLOT`]: not keyed) ...
    pub(super) key: u32,
    /// ... the check's first entry in `keyed_index` ...
    pub(super) keyed: u32,
    /// ... and whether its programs read through tables
    /// ([`KeyedLeaf`]'s `table`).
    pub(super) tables: bool,
}

/// An instruction of a leaf check specialised to its key's symbol
/// ([`LeafCheck`]): holds iff `(st[at] == value) == eq`, or, with a
/// `table` (not [`NO_TABLE`]), `(fun[table + st[at]] == value) == eq`
/// (`f[board[x]] == c`); on failure it goes to `skip` (relative to its
/// program's start), on success it accepts (`accept`) or goes on with
/// the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct KeyedLeaf {
    at: u32,
    skip: u32,
    table: u32,
    value: u16,
    eq: bool,
    accept: bool,
}

/// Where a leaf check goes after an instruction (`skip`, `accept`) that
/// `holds` or not: past its subtree when it fails, else on with the next
/// (`pc + 1`), or, accepting, out: whether the check then holds.
#[inline(always)]
fn leaf_jump(pc: &mut u32, holds: bool, (skip, accept): (u32, bool)) -> bool {
    match (holds, accept) {
        (false, _) => *pc = skip,
        (true, false) => *pc += 1,
        (true, true) => return true,
    }
    false
}

/// Instructions of all keyed leaf checks' programs at most (12 bytes
/// each), and entries of their index (8 bytes each).
const MAX_KEYED: usize = 1 << 18;

/// The key slot of a leaf check of instructions `leaves` (verified): the
/// slot every table read reads through, if there is a table read and
/// the instructions are all of the shapes [`keyed_program`] takes.
fn leaf_key(leaves: &[Leaf]) -> Option<u32> {
    let mut key = None;
    for l in leaves {
        let slot = match l.kind {
            Kind::Skip | Kind::CmpSlot { .. } => continue,
            Kind::CmpInd { slot, .. } | Kind::CmpTab { slot, .. } => slot,
            Kind::CmpTabInd { slot, .. } => slot,
            _ => return None,
        };
        if *key.get_or_insert(slot) != slot {
            return None;
        }
    }
    key
}

/// The program of leaf check `leaves` (verified, jumps relative to
/// `base`) for symbol `v` in its key slot `key` ([`leaf_key`]), read
/// through `vals` and `reads` (sealed), with the slots in `fixed`
/// ([`super::fixed`]) read as their symbols: each instruction with
/// whether it is decided (always holds or always fails), then
/// [`simplified`].
fn keyed_program(
    leaves: &[Leaf],
    base: u32,
    (key, v): (u32, u16),
    (vals, reads): (&[u32], &[u32]),
    fixed: &[Option<u16>],
) -> Vec<KeyedLeaf> {
    let fixed = |at: u32| fixed.get(at as usize).copied().flatten();
    let program = leaves
        .iter()
        .map(|l| {
            let (at, table, value, eq) = match l.kind {
                Kind::CmpSlot { slot, value, eq } => (slot, NO_TABLE, value, eq),
                Kind::CmpInd {
                    table, value, eq, ..
                } => (reads[(table + v as u32) as usize], NO_TABLE, value, eq),
                Kind::CmpTabInd {
                    inner,
                    outer,
                    value,
                    eq,
                    ..
                } => (reads[(inner + v as u32) as usize], outer, value, eq),
                Kind::CmpTab {
                    table, value, eq, ..
                } => {
                    let holds = (vals[(table + v as u32) as usize] as u16 == value) == eq;
                    (key, NO_TABLE, v, holds)
                }
                _ => (key, NO_TABLE, v, true),
            };
            // `st[key] == v` holds (or, with `eq` false, fails) in the
            // program for `v`; a fixed slot holds its symbol.
            let decided = match fixed(at) {
                _ if at == key && table == NO_TABLE && value == v => Some(eq),
                Some(x) if table == NO_TABLE => Some((x == value) == eq),
                Some(x) => vals
                    .get((table as usize).saturating_add(x as usize))
                    .map(|&y| (y as u16 == value) == eq),
                None => None,
            };
            let l = KeyedLeaf {
                at,
                skip: l.skip - base,
                table,
                value,
                eq,
                accept: l.accept,
            };
            (l, decided)
        })
        .collect::<Vec<_>>();
    simplified(&program)
}

/// A keyed program without its decided instructions where that keeps its
/// answer: one that always fails is left out with the subtree it skips
/// (the instructions up to its `skip`, when no jump from outside lands
/// inside them), one that always holds and does not accept is left out
/// (the walk goes on with the next); the jumps renumbered. Others, an
/// accepting one that always holds among them, stay as they are (their
/// comparisons decided as written). Linear in the program's length
/// ([`first_landings`]).
fn simplified(program: &[(KeyedLeaf, Option<bool>)]) -> Vec<KeyedLeaf> {
    let n = program.len();
    let landing = first_landings(program.iter().map(|(l, _)| l.skip as usize));
    let mut keep = vec![true; n];
    let mut i = 0;
    while i < n {
        let (l, decided) = program[i];
        let end = l.skip as usize;
        match decided {
            // No jump from before `i` lands strictly inside `i..end`.
            Some(false) if end <= n && landing[i] >= end => {
                keep[i..end].iter_mut().for_each(|k| *k = false);
                i = end;
                continue;
            }
            Some(true) if !l.accept => keep[i] = false,
            _ => {}
        }
        i += 1;
    }
    // The new index of each old position (`n` included).
    let mut new_at = Vec::with_capacity(n + 1);
    let mut kept = 0u32;
    for &k in &keep {
        new_at.push(kept);
        kept += k as u32;
    }
    new_at.push(kept);
    program
        .iter()
        .zip(&keep)
        .filter(|(_, &k)| k)
        .map(|(&(l, _), _)| KeyedLeaf {
            skip: new_at[(l.skip as usize).min(n)],
            ..l
        })
        .collect()
}

/// Per position `i` of a program whose instruction `k` jumps to
/// `skips[k]`: the first position after `i` that a jump from before `i`
/// lands at (`usize::MAX`: none), all in one pass over the jump targets
/// (a jump from `k` to `s` is the first landing after each position of
/// `k + 1 .. s` not yet given one by a nearer target; those positions
/// wait on a stack, highest on top).
fn first_landings(skips: impl ExactSizeIterator<Item = usize>) -> Vec<usize> {
    let n = skips.len();
    // The lowest source of a jump to each target (`n` and past: at `n`):
    // it lands after the most positions.
    let mut lowest = vec![usize::MAX; n + 1];
    for (k, s) in skips.enumerate() {
        let at = &mut lowest[s.min(n)];
        *at = (*at).min(k);
    }
    let mut landing = vec![usize::MAX; n];
    let mut waiting: Vec<usize> = Vec::new();
    for (s, &k) in lowest.iter().enumerate() {
        while let Some(&i) = waiting.last().filter(|&&i| k < i) {
            landing[i] = s;
            waiting.pop();
        }
        if s < n {
            waiting.push(s);
        }
    }
    landing
}

/// The keyed programs ([`LeafCheck`]) of the verified leaf checks
/// `ranges` of `leaves`, for the `symbols` symbols: `ranges` given their
/// keys, the index and the programs (verified: every read a slot below
/// `slots`, every jump forward within its program).
pub(super) fn keyed_programs(
    leaves: &[Leaf],
    ranges: &mut [Option<LeafCheck>],
    (vals, reads): (&[u32], &[u32]),
    (symbols, slots): (u32, usize),
    fixed: &[Option<u16>],
) -> (Vec<(u32, u32)>, Keyed) {
    let mut index: Vec<(u32, u32)> = Vec::new();
    let mut keyed = Programs::default();
    let mut seen: std::collections::HashMap<Vec<KeyedLeaf>, (u32, u32)> = Default::default();
    for r in ranges.iter_mut().flatten() {
        let ls = &leaves[r.start as usize..r.end as usize];
        let Some(key) = leaf_key(ls) else { continue };
        if (key as usize) >= slots || index.len() + symbols as usize > MAX_KEYED {
            continue;
        }
        let (first, len) = (index.len(), keyed.len());
        for v in 0..symbols.min(1 << 16) {
            let p = keyed_program(ls, r.start, (key, v as u16), (vals, reads), fixed);
            let n = p.len() as u32;
            // (A table is a verified comparison's: `vals` is padded.)
            let ok = p.iter().enumerate().all(|(i, l)| {
                (l.at as usize) < slots
                    && l.skip > i as u32
                    && l.skip <= n
                    && (l.table == NO_TABLE || (l.table as usize) + PAD <= vals.len())
            });
            let at = match seen.get(&p) {
                Some(&at) => at,
                None if ok && keyed.len() + p.len() <= MAX_KEYED => match keyed.push(&p) {
                    Some(start) => *seen.entry(p).or_insert((start, n)),
                    None => break,
                },
                None => break,
            };
            index.push(at);
        }
        if index.len() - first == symbols as usize {
            r.key = key;
            r.keyed = first as u32;
            r.tables = ls.iter().any(|l| matches!(l.kind, Kind::CmpTabInd { .. }));
        } else {
            // (Over the bound, or not verified: run as it is.)
            index.truncate(first);
            keyed.truncate(len);
            seen.retain(|_, &mut (at, _)| (at as usize) < len);
        }
    }
    (index, keyed.into())
}

impl Sealed {
    /// The instructions of check `c` if it is a leaf check
    /// (`program::leaves`), to run with [`Sealed::leaf`].
    #[inline(always)]
    pub fn leaf_range(&self, c: u32) -> Option<LeafCheck> {
        self.leaf_ranges[c as usize]
    }

    /// The subtree of the any-assignment at instruction `at` of the
    /// checks' programs as a leaf check, if it is one (`program::leaves`;
    /// checked): run with [`Sealed::leaf`] once the symbol is written.
    #[inline(always)]
    pub(crate) fn subtree(&self, at: usize) -> Option<LeafCheck> {
        self.subtrees.get(at).copied().flatten()
    }

    /// The number of any-assignments' subtrees run as leaf checks, and
    /// of them those keyed ([`Sealed::subtree`]).
    pub fn subtrees(&self) -> (usize, usize) {
        let keyed = self.subtrees.iter().flatten().filter(|r| r.key != NO_SLOT);
        (self.subtrees.iter().flatten().count(), keyed.count())
    }

    /// The number of leaf checks run as programs of their key's symbol
    /// ([`LeafCheck`]).
    pub fn keyed_leaves(&self) -> usize {
        self.leaf_ranges
            .iter()
            .flatten()
            .filter(|r| r.key != NO_SLOT)
            .count()
    }

    /// The instructions of all keyed programs ([`LeafCheck`]; equal
    /// programs stored once).
    pub fn keyed_instructions(&self) -> usize {
        self.keyed.len()
    }

    /// Whether leaf check `r` is keyed on `slot` ([`LeafCheck::key`]).
    #[inline(always)]
    pub(crate) fn keyed_on(r: LeafCheck, slot: u32) -> bool {
        r.key == slot
    }

    /// [`Sealed::leaf`] of a subtree `r` keyed on the slot that holds `v`
    /// ([`LeafCheck::key`]; `v` just written there): the program of `v`,
    /// its key not read again. Inline, for a scan of the symbols
    /// (`walk/program.rs`). Callgrind instructions per playout (`rbg
    /// bench --engine interp`, seed 1, in `play_random`), with the masks
    /// of `super::mask`, against 5d4e544: englishDraughts 573,565 ->
    /// 554,223 (-3.4%; the masks -2.3%), chess 22,116,198 -> 21,401,468
    /// (-3.2%), reversi 1,216,401 -> 1,195,188 (-1.7%), connect4 -0.3%,
    /// hex +0.06%, amazons +0.07%, the others within 0.03%; native within
    /// 0.02% (before ef0fb7a's programs).
    #[inline(always)]
    pub(crate) fn leaf_of_key(&self, st: &[u16], r: LeafCheck, v: u16) -> bool {
        assert!(st.len() >= self.slots, "a semistate of the game");
        debug_assert!(r.key == NO_SLOT || st[r.key as usize] == v);
        if r.key == NO_SLOT || (v as u32) >= self.symbols {
            return self.leaf(st, r);
        }
        // SAFETY: `new` made `symbols` entries from `r.keyed`.
        let (at, len) = unsafe {
            *self
                .keyed_index
                .get_unchecked((r.keyed + v as u32) as usize)
        };
        match r.tables {
            true => self.keyed_leaf::<true>(st, at, len),
            false => self.keyed_leaf::<false>(st, at, len),
        }
    }

    /// Whether leaf check `r` (a [`Sealed::leaf_range`]) holds in `st`:
    /// its comparisons in order, each going on with the next when it holds
    /// (or accepting), past its subtree when it fails. A keyed check runs
    /// its key's symbol's program ([`LeafCheck`]).
    #[inline]
    pub(crate) fn leaf(&self, st: &[u16], r: LeafCheck) -> bool {
        assert!(st.len() >= self.slots, "a semistate of the game");
        if r.key != NO_SLOT {
            // SAFETY: `new` keyed the check with a slot below `slots`;
            // `st` checked above.
            let v = unsafe { *st.get_unchecked(r.key as usize) };
            if (v as u32) < self.symbols {
                // SAFETY: `new` made `symbols` entries from `r.keyed`.
                let (at, len) = unsafe {
                    *self
                        .keyed_index
                        .get_unchecked((r.keyed + v as u32) as usize)
                };
                return match r.tables {
                    true => self.keyed_leaf::<true>(st, at, len),
                    false => self.keyed_leaf::<false>(st, at, len),
                };
            }
        }
        let (start, end) = (r.start, r.end);
        let mut pc = start;
        while pc < end {
            // SAFETY: `new` verified `start .. end` within `leaves` and
            // each jump forward to at most `end`.
            let l = unsafe { self.leaves.get_unchecked(pc as usize) };
            let holds = match l.kind {
                Kind::Skip => true,
                // SAFETY: a comparison `new` verified; `st` checked above.
                k => unsafe { self.holds(st, k) },
            };
            if leaf_jump(&mut pc, holds, (l.skip, l.accept)) {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ins(at: u32, skip: u32, accept: bool, decided: Option<bool>) -> (KeyedLeaf, Option<bool>) {
        let l = KeyedLeaf {
            at,
            skip,
            table: NO_TABLE,
            value: 0,
            eq: true,
            accept,
        };
        (l, decided)
    }

    /// The first landing after each position by its definition: every
    /// jump from before it, looked at (quadratic).
    fn landings_by_definition(skips: &[usize]) -> Vec<usize> {
        (0..skips.len())
            .map(|i| {
                let after = skips[..i].iter().filter(|&&s| s > i);
                after
                    .map(|&s| s.min(skips.len()))
                    .min()
                    .unwrap_or(usize::MAX)
            })
            .collect()
    }

    #[test]
    fn first_landings_are_those_by_definition() {
        // Forward jumps (as verified programs have), some past the end,
        // from a small generator: nested, crossing, shared targets.
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for n in 0..40 {
            for _ in 0..50 {
                let skips: Vec<usize> = (0..n)
                    .map(|k| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        k + 1 + (x % (n as u64 - k as u64 + 2)) as usize
                    })
                    .collect();
                let got = first_landings(skips.iter().copied());
                assert_eq!(got, landings_by_definition(&skips), "{skips:?}");
            }
        }
        // 0 jumps to 3, 1 to 2: after 1 the first landing from before
        // it is 0's (3), and so after 2 (1's jump to 2 is not after 2).
        assert_eq!(first_landings([3, 2, 3].into_iter()), [usize::MAX, 3, 3]);
    }

    #[test]
    fn decided_instructions_are_left_out_where_no_jump_lands_inside() {
        // 1 always fails: its subtree (2) goes with it, and 0's failure
        // (to 1) and 3's success now go to 3's and 4's new places; 3
        // always holds, is left out.
        let p = [
            ins(10, 1, false, None),
            ins(11, 3, false, Some(false)),
            ins(12, 3, true, None),
            ins(13, 5, false, Some(true)),
            ins(14, 5, true, None),
        ];
        let s = simplified(&p);
        let got: Vec<_> = s.iter().map(|l| (l.at, l.skip)).collect();
        assert_eq!(got, [(10, 1), (14, 2)]);
        // 0 fails to 2, inside 1's subtree: 1 and 2 stay.
        let p = [
            ins(10, 2, false, None),
            ins(11, 3, false, Some(false)),
            ins(12, 3, true, None),
        ];
        let s = simplified(&p);
        let got: Vec<_> = s.iter().map(|l| (l.at, l.skip)).collect();
        assert_eq!(got, [(10, 2), (11, 3), (12, 3)]);
    }
}
