//! Reading the semistate: operands, computed reads and places, comparisons
//! through their specialised shapes (`code.rs`), and the hashes of visited
//! keys and tag sequences.

use crate::code::Kind;
use crate::tables::{Access, Fast, Mem, Operand, Place, Tables, NO_SLOT};
use crate::RunError;

/// Finishes a visited key's hash.
#[inline(always)]
pub fn mix(h: u64) -> u64 {
    let h = (h ^ (h >> 32)).wrapping_mul(0xd6e8_feb8_6659_fd93);
    h ^ (h >> 32)
}

/// Extends a tag sequence's hash by `tag`.
#[inline(always)]
pub fn tag_step(h: u64, tag: u16) -> u64 {
    (h ^ (tag as u64 + 1))
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .rotate_left(17)
}

/// The value of an operand.
#[inline(always)]
pub fn read(t: &Tables, st: &[u16], o: Operand) -> u16 {
    match o {
        Operand::Imm(v) => v,
        Operand::Slot(s) => st[s as usize],
        Operand::Tab(s, table) => t.fun[(table + st[s as usize] as u32) as usize] as u16,
        Operand::Ind(s, table) => st[t.fun[(table + st[s as usize] as u32) as usize] as usize],
        Operand::Read(i) => read_general(t, st, i),
    }
}

/// A computed read ([`Operand::Read`]) with the folded `f[board[x]]`
/// ([`Fast::TabInd`]) inline: the one-slot checks' rays and attack tests
/// read it at each step.
#[inline(always)]
pub(crate) fn read_computed(t: &Tables, st: &[u16], i: u32) -> u16 {
    match t.fast[i as usize] {
        Fast::TabInd(s, inner, outer) => tab_ind(t, st, s, inner, outer),
        _ => read_general(t, st, i),
    }
}

/// A folded `f[board[x]]` ([`Fast::TabInd`]): constant table `outer` at
/// the value [`inner_key`] reads.
#[inline(always)]
pub(crate) fn tab_ind(t: &Tables, st: &[u16], s: u32, inner: u32, outer: u32) -> u16 {
    t.fun[(outer + inner_key(t, st, s, inner) as u32) as usize] as u16
}

/// The inner read of a folded two-level read (`Fast::TabInd`,
/// `Fast::IndInd`): the slot that table `inner` gives for slot `s`'s value,
/// read.
#[inline]
fn inner_key(t: &Tables, st: &[u16], s: u32, inner: u32) -> u16 {
    st[t.fun[(inner + st[s as usize] as u32) as usize] as usize]
}

#[inline(never)]
fn read_general(t: &Tables, st: &[u16], i: u32) -> u16 {
    match t.fast[i as usize] {
        Fast::General => {}
        Fast::TabInd(s, inner, outer) => return tab_ind(t, st, s, inner, outer),
        Fast::IndInd(s, inner, outer) => {
            let k = inner_key(t, st, s, inner);
            return st[t.fun[(outer + k as u32) as usize] as usize];
        }
        Fast::TabIndInd(s, inner, mid, outer) => {
            let k = inner_key(t, st, s, inner);
            let v = st[t.fun[(mid + k as u32) as usize] as usize];
            return t.fun[(outer + v as u32) as usize] as u16;
        }
        Fast::Pair {
            first,
            second,
            first_table,
            second_table,
        } => {
            let a = t.fun[(first_table + read(t, st, first) as u32) as usize];
            let b = t.fun[(second_table + read(t, st, second) as u32) as usize];
            return t.consts[(a + b) as usize];
        }
    }
    let a = &t.reads[i as usize];
    let off = offset(t, st, a);
    match a.mem {
        Mem::State => st[off as usize],
        Mem::Const => t.consts[off as usize],
    }
}

/// The slot an access reads (a key outside a map's keys reads its default).
pub(crate) fn offset(t: &Tables, st: &[u16], a: &Access) -> u32 {
    let mut off = a.base;
    for s in &t.steps[a.steps.0 as usize..(a.steps.0 + a.steps.1) as usize] {
        let k = read(t, st, s.key);
        off += t.keys.table[(s.table + k as u32) as usize] as u32 * s.stride;
    }
    off
}

/// The slot an assignment writes; a key outside a map's keys is an error.
#[inline(always)]
pub fn place(t: &Tables, st: &[u16], p: Place) -> Result<u32, RunError> {
    match p {
        Place::Slot(s) => Ok(s),
        Place::Ind(s, table) => {
            let k = st[s as usize];
            match t.fun[(table + k as u32) as usize] {
                NO_SLOT => Err(RunError::ForeignKey(k)),
                slot => Ok(slot),
            }
        }
        Place::Gen(i) => match t.fast[i as usize] {
            Fast::IndInd(s, inner, outer) => {
                let k = inner_key(t, st, s, inner);
                match t.fun[(outer + k as u32) as usize] {
                    NO_SLOT => Err(RunError::ForeignKey(k)),
                    slot => Ok(slot),
                }
            }
            _ => place_access(t, st, &t.reads[i as usize]),
        },
    }
}

/// The slot a computed place writes.
#[inline(never)]
pub(crate) fn place_access(t: &Tables, st: &[u16], a: &Access) -> Result<u32, RunError> {
    let mut off = a.base;
    for s in &t.steps[a.steps.0 as usize..(a.steps.0 + a.steps.1) as usize] {
        let k = read(t, st, s.key);
        let i = t.keys.table[(s.table + k as u32) as usize];
        if i == s.limit {
            return Err(RunError::ForeignKey(k));
        }
        off += i as u32 * s.stride;
    }
    Ok(off)
}

/// Whether a comparison `a == b` (`eq`) or `a != b` holds, through its
/// matched shape `kind` ([`Code::kind`](crate::code::Code::kind)) where it has one.
#[inline(always)]
pub(crate) fn compares(
    t: &Tables,
    st: &[u16],
    kind: &Kind,
    a: Operand,
    b: Operand,
    eq: bool,
) -> bool {
    match *kind {
        Kind::CmpInd {
            slot,
            table,
            value,
            eq,
        } => (read(t, st, Operand::Ind(slot, table)) == value) == eq,
        Kind::CmpTab {
            slot,
            table,
            value,
            eq,
        } => (read(t, st, Operand::Tab(slot, table)) == value) == eq,
        Kind::CmpTabInd {
            slot,
            inner,
            outer,
            value,
            eq,
        } => (tab_ind(t, st, slot, inner, outer) == value) == eq,
        _ => (read(t, st, a) == read(t, st, b)) == eq,
    }
}
