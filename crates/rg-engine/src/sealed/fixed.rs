//! Slots that keep their initial value in every reachable semistate
//! (ticTacToe's `board[null]`: `coord` only ever holds a `Coord`, so
//! `board[coord] = x` never writes there), found at load so that the
//! keyed leaf programs ([`super::leaf`]) decide the comparisons that read
//! them.
//!
//! The proof is flow-insensitive: per slot, the set of symbols it can
//! hold, its initial symbol joined with every symbol an edge's assignment
//! (anywhere in the automaton: move walks, the keeper's, checks) can write
//! there, written places and values read through the sets of the slots
//! they depend on, iterated to a fixed point. Every write of a reachable
//! semistate is one of an edge's assignments, whose place and value are
//! read from slots whose symbols are in their sets (by induction on the
//! walk's steps), so each slot only ever holds symbols of its set; a slot
//! whose set is its initial symbol alone never changes. Computed places
//! and map assignments are not followed: a game with one has no fixed
//! slot.

use crate::tables::{Edge, Op, Operand, Place, NO_SLOT};

/// Words of all slots' symbol sets at most (a larger game has no fixed
/// slot).
const MAX_WORDS: usize = 1 << 22;

/// Rounds over the edges at most (a fixed point not reached by then: no
/// fixed slot).
const MAX_ROUNDS: usize = 256;

/// Per slot of `initial`: its initial symbol if no reachable semistate
/// holds another there. `fun` holds the edges' tables (`symbols` entries
/// each), `any_syms` the any-assignments' symbols, `player_slot` the slot
/// `player` assignments write.
pub(crate) fn fixed_slots(
    edges: &[Edge],
    fun: &[u32],
    any_syms: &[u16],
    initial: &[u16],
    (player_slot, symbols): (u32, u32),
) -> Vec<Option<u16>> {
    let none = vec![None; initial.len()];
    let words = (symbols as usize).div_ceil(64).max(1);
    if initial.len().saturating_mul(words) > MAX_WORDS {
        return none;
    }
    let mut sets = Sets {
        bits: vec![0; initial.len() * words],
        words,
        fun,
        symbols,
    };
    for (s, &v) in initial.iter().enumerate() {
        if !sets.insert(s as u32, v as u32) {
            return none;
        }
    }
    for _ in 0..MAX_ROUNDS {
        let mut changed = false;
        for e in edges {
            let (place, values) = match e.op {
                Op::Assign(place, value) => match sets.values(value) {
                    Some(values) => (place, values),
                    None => return none,
                },
                Op::AssignAny(place, (start, len)) => {
                    let range = start as usize..(start as usize).saturating_add(len as usize);
                    let Some(syms) = any_syms.get(range) else {
                        return none;
                    };
                    (place, syms.iter().map(|&x| x as u32).collect())
                }
                Op::SetPlayer(value) => match sets.values(value) {
                    Some(values) => (Place::Slot(player_slot), values),
                    None => return none,
                },
                Op::AssignMap(_) => return none,
                Op::Skip | Op::Tag(_) | Op::TagVar(_) | Op::Cmp(..) | Op::CmpMap(..) => continue,
                Op::Reach(..) => continue,
            };
            let Some(places) = sets.places(place) else {
                return none;
            };
            for s in places {
                for &v in &values {
                    match sets.bits_of(s) {
                        Some(_) if sets.has(s, v) => {}
                        Some(_) => {
                            if !sets.insert(s, v) {
                                return none;
                            }
                            changed = true;
                        }
                        None => return none,
                    }
                }
            }
        }
        if !changed {
            return (0..initial.len())
                .map(|s| {
                    let v = initial[s];
                    let only = sets
                        .bits_of(s as u32)?
                        .iter()
                        .map(|w| w.count_ones())
                        .sum::<u32>()
                        == 1;
                    only.then_some(v)
                })
                .collect();
        }
    }
    none
}

/// Per slot, the symbols it can hold (a bit set of `words` words).
struct Sets<'a> {
    bits: Vec<u64>,
    words: usize,
    fun: &'a [u32],
    symbols: u32,
}

impl Sets<'_> {
    fn bits_of(&self, s: u32) -> Option<&[u64]> {
        let at = (s as usize).checked_mul(self.words)?;
        self.bits.get(at..at + self.words)
    }

    fn has(&self, s: u32, v: u32) -> bool {
        self.bits_of(s)
            .and_then(|b| b.get(v as usize / 64))
            .is_some_and(|w| w >> (v % 64) & 1 == 1)
    }

    /// Adds `v` to `s`'s set; false if either is out of range.
    fn insert(&mut self, s: u32, v: u32) -> bool {
        if v >= self.symbols {
            return false;
        }
        let at = (s as usize) * self.words + v as usize / 64;
        match self.bits.get_mut(at) {
            Some(w) => {
                *w |= 1 << (v % 64);
                true
            }
            None => false,
        }
    }

    /// The symbols in `s`'s set.
    fn members(&self, s: u32) -> Option<Vec<u32>> {
        let b = self.bits_of(s)?;
        let mut out = Vec::new();
        for (i, &w) in b.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                out.push(i as u32 * 64 + w.trailing_zeros());
                w &= w - 1;
            }
        }
        Some(out)
    }

    /// `fun[table + v]` for each symbol `v` of `s`'s set.
    fn through(&self, table: u32, s: u32) -> Option<Vec<u32>> {
        let keys = self.members(s)?;
        keys.iter()
            .map(|&v| {
                self.fun
                    .get((table as usize).checked_add(v as usize)?)
                    .copied()
            })
            .collect()
    }

    /// The slots `place` can write (a key outside the map's keys writes
    /// none: the walk stops there with an error).
    fn places(&self, place: Place) -> Option<Vec<u32>> {
        match place {
            Place::Slot(s) => Some(vec![s]),
            // (As sealed: a table entry that is no slot and not
            // `NO_SLOT` writes slot 0.)
            Place::Ind(s, table) => Some(
                self.through(table, s)?
                    .into_iter()
                    .filter(|&x| x != NO_SLOT)
                    .map(|x| if self.bits_of(x).is_some() { x } else { 0 })
                    .collect(),
            ),
            Place::Gen(_) => None,
        }
    }

    /// The symbols `value` can be.
    fn values(&self, value: Operand) -> Option<Vec<u32>> {
        match value {
            Operand::Imm(v) => Some(vec![v as u32]),
            Operand::Slot(s) => self.members(s),
            Operand::Tab(s, table) => self.through(table, s),
            Operand::Ind(s, table) => {
                let mut out = Vec::new();
                // (As sealed: a table entry that is no slot reads slot 0.)
                for x in self.through(table, s)? {
                    let x = if self.bits_of(x).is_some() { x } else { 0 };
                    out.extend(self.members(x)?);
                }
                out.sort_unstable();
                out.dedup();
                Some(out)
            }
            Operand::Read(_) => Some((0..self.symbols).collect()),
        }
    }
}
