//! The visited set of one enumeration: keys (node, tags, user variables)
//! seen so far, in an open-addressing table cleared in O(1) by a generation
//! stamp. A key is found by its hash and then compared in full: the tags by
//! their sequence's number (`prefixes.rs`), the variables with a copy kept
//! in an arena, so a hash collision never merges two walks.
//!
//! Keys of one enumeration often hold equal copies (arimaa's move walks:
//! 6.1M keys, 191M symbols, 161K distinct copies): once the arena holds
//! [`SHARE_FROM`] symbols, a new key's copy is looked up among the
//! copies made since (a second table, [`Copies`]) and an equal one is
//! shared instead of stored again. A key still points at a full copy of
//! its slots and is compared in full.
//!
//! The native engine (`rg-jit`) probes and extends the same set from
//! generated code: [`Seen`] is `repr(C)`, its first fields the table's
//! and the arena's addresses and counts ([`Seen::OFF_ENTRIES`] ...), an
//! entry's layout [`SeenEntry`]'s. Such code adds a key only while
//! `count < room` and the arena has capacity; [`Seen::insert`] takes the
//! rest (growth, bounds).

use std::mem::offset_of;

use crate::error::Bound;
use crate::RunError;

/// At most this many keys per check's enumeration.
pub const MAX_KEYS: usize = 1 << 20;
/// At most this many keys per move enumeration (paperSoccer's bounce chains
/// take 2.2M, arimaa's four steps more than 8.4M; the table then holds at
/// most 2^25 entries of 20 bytes, 640 MiB).
pub const MAX_MOVE_KEYS: usize = 1 << 24;
/// Table entries from which the table grows at three quarters full
/// (below: at half).
const DENSE_FROM: u64 = 1 << 22;
/// At most this many symbols in the copies of the keys (128 MiB; arimaa's
/// move walks take 24M with copies shared, 191M without).
pub const MAX_ARENA: usize = 1 << 26;
/// Arena symbols from which new copies are shared ([`Copies`]): smaller
/// enumerations never pay the copies' hashing and table.
pub const SHARE_FROM: usize = 1 << 18;

/// One copy of [`Copies`].
#[derive(Clone, Copy, Default)]
struct CopyEntry {
    /// The copy's hash's upper half.
    hash: u32,
    /// The generation that wrote it (older ones count as empty).
    gen: u32,
    /// Offset of the copy in the arena.
    at: u32,
    /// Its number of symbols.
    len: u32,
}

/// The distinct copies made since the arena passed [`SHARE_FROM`] in the
/// current generation: an open-addressing table by content, allocated on
/// first use.
#[derive(Clone, Default)]
struct Copies {
    entries: Vec<CopyEntry>,
    count: usize,
}

/// The hash of a copy's symbols.
#[inline]
fn copy_hash(vars: &[u16]) -> u64 {
    let h = vars.iter().fold(vars.len() as u64, |h, &v| {
        (h.rotate_left(17) ^ v as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    });
    h ^ h >> 29
}

/// One key of a [`Seen`] (`repr(C)`: generated code reads and writes it).
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct SeenEntry {
    /// The hash's upper half (which also chooses the place).
    pub hash: u32,
    /// The generation that wrote it (older ones count as empty).
    pub gen: u32,
    /// The node whose key it is.
    pub node: u32,
    /// Offset of the variables' copy in the arena (its length is the
    /// node's: a node always compares the same slots).
    pub at: u32,
    /// The number of the tag sequence.
    pub tags: u32,
}

/// Starts a new generation of a table stamped by `gen`: every entry of an
/// older one counts as empty. When the stamp wraps around, the entries are
/// really emptied, so no stale entry ever carries the new stamp.
pub(crate) fn next_generation<E: Default + Copy>(gen: &mut u32, entries: &mut [E]) {
    *gen = gen.wrapping_add(1);
    if *gen == 0 {
        entries.fill(E::default());
        *gen = 1;
    }
}

/// One enumeration's visited keys.
#[repr(C)]
pub struct Seen {
    // Read and written by generated code: addresses as integers, mirrors
    // of the buffers below (Rust only reads the buffers).
    /// The table's address.
    entries: u64,
    /// The table's length less one (a power of two less one).
    mask: u64,
    /// The generation (1 ..= u32::MAX).
    gen: u64,
    /// Keys added since the last clear.
    count: u64,
    /// The keys generated code may hold before [`Seen::insert`] takes
    /// over: the smaller of the limit and half the table.
    room: u64,
    /// The arena's address.
    arena: u64,
    /// Symbols used in the arena.
    arena_len: u64,
    /// The arena's length (at most [`MAX_ARENA`]).
    arena_cap: u64,
    // Rust only.
    entries_buf: Vec<SeenEntry>,
    /// The keys' copies: `arena_buf[..arena_len]` (its length is the
    /// capacity: it grows zero-filled).
    arena_buf: Vec<u16>,
    limit: usize,
    /// Stamps of the dense keys (a check's one-slot keys: a node's base
    /// plus the slot's symbol), allocated on first use.
    dense: Vec<u32>,
    /// The copies made past [`SHARE_FROM`] arena symbols.
    copies: Copies,
}

impl Default for Seen {
    fn default() -> Seen {
        let mut s = Seen {
            entries: 0,
            mask: 0,
            gen: 1,
            count: 0,
            room: 0,
            arena: 0,
            arena_len: 0,
            arena_cap: 0,
            entries_buf: vec![SeenEntry::default(); 64],
            arena_buf: Vec::new(),
            limit: MAX_KEYS,
            dense: Vec::new(),
            copies: Copies::default(),
        };
        s.point();
        s
    }
}

impl Clone for Seen {
    fn clone(&self) -> Seen {
        let mut s = Seen {
            entries_buf: self.entries_buf.clone(),
            arena_buf: self.arena_buf.clone(),
            dense: self.dense.clone(),
            copies: self.copies.clone(),
            ..Seen::default()
        };
        (s.gen, s.count, s.arena_len, s.limit) = (self.gen, self.count, self.arena_len, self.limit);
        s.point();
        s
    }
}

impl Seen {
    /// Offset of the table's address (`u64`, entries [`SeenEntry`]).
    pub const OFF_ENTRIES: usize = offset_of!(Seen, entries);
    /// Offset of the table's length less one (`u64`).
    pub const OFF_MASK: usize = offset_of!(Seen, mask);
    /// Offset of the generation (`u64` holding a `u32`).
    pub const OFF_GEN: usize = offset_of!(Seen, gen);
    /// Offset of the number of keys (`u64`).
    pub const OFF_COUNT: usize = offset_of!(Seen, count);
    /// Offset of the keys generated code may hold (`u64`).
    pub const OFF_ROOM: usize = offset_of!(Seen, room);
    /// Offset of the arena's address (`u64`, symbols `u16`).
    pub const OFF_ARENA: usize = offset_of!(Seen, arena);
    /// Offset of the symbols used in the arena (`u64`).
    pub const OFF_ARENA_LEN: usize = offset_of!(Seen, arena_len);
    /// Offset of the arena's length (`u64`).
    pub const OFF_ARENA_CAP: usize = offset_of!(Seen, arena_cap);

    /// The mirrored fields from the buffers (after they moved).
    fn point(&mut self) {
        self.entries = self.entries_buf.as_mut_ptr() as u64;
        self.mask = self.entries_buf.len() as u64 - 1;
        self.room = (self.limit as u64).min(self.entries_buf.len() as u64 / 2);
        self.arena = self.arena_buf.as_mut_ptr() as u64;
        self.arena_cap = self.arena_buf.len() as u64;
    }

    /// Forgets every key; at most `limit` keys may be added from now on.
    pub fn clear(&mut self, limit: usize) {
        self.count = 0;
        self.arena_len = 0;
        self.copies.count = 0;
        if self.limit != limit {
            self.limit = limit;
            self.point();
        }
        let mut gen = self.gen as u32;
        next_generation(&mut gen, &mut self.entries_buf);
        self.gen = gen as u64;
        if gen == 1 {
            // The stamps wrapped round: old dense stamps and copies could
            // match.
            self.dense.fill(0);
            self.copies.entries.fill(CopyEntry::default());
        }
    }

    /// Adds dense key `i` of a set of `size`; false if it was already there.
    #[inline]
    pub fn insert_dense(&mut self, i: u32, size: u32) -> bool {
        if self.dense.is_empty() {
            self.dense = vec![0; size as usize];
        }
        let gen = self.gen as u32;
        let stamp = &mut self.dense[i as usize];
        let new = *stamp != gen;
        *stamp = gen;
        new
    }

    /// Adds the key (node, vars, tags: a tag sequence's number) with the
    /// given hash (its upper half is kept); false if it was already there.
    /// A node's keys always have the same number of variables.
    #[inline]
    pub fn insert(
        &mut self,
        hash: u64,
        node: u32,
        vars: &[u16],
        tags: u32,
    ) -> Result<bool, RunError> {
        let gen = self.gen as u32;
        let mask = self.entries_buf.len() - 1;
        let hash = (hash >> 32) as u32;
        let mut i = hash as usize & mask;
        loop {
            let e = self.entries_buf[i];
            if e.gen != gen {
                break;
            }
            if e.hash == hash && e.node == node && e.tags == tags {
                let at = e.at as usize;
                if self.arena_buf.get(at..at + vars.len()) == Some(vars) {
                    return Ok(false);
                }
            }
            i = (i + 1) & mask;
        }
        if self.count as usize >= self.limit {
            return Err(RunError::TooManyStates {
                bound: Bound::States,
                limit: self.limit,
                node,
            });
        }
        let at = match self.arena_len as usize >= SHARE_FROM {
            false => self.copy(vars, node)?,
            true => self.shared_copy(vars, node)?,
        };
        self.entries_buf[i] = SeenEntry {
            hash,
            gen,
            node,
            at,
            tags,
        };
        self.count += 1;
        if self.count * 2 > self.entries_buf.len() as u64 && self.full() {
            self.grow();
        }
        Ok(true)
    }

    /// Appends a copy of `vars` to the arena (a key of `node`): its offset.
    #[inline]
    fn copy(&mut self, vars: &[u16], node: u32) -> Result<u32, RunError> {
        let len = self.arena_len as usize;
        if len + vars.len() > MAX_ARENA {
            return Err(RunError::TooManyStates {
                bound: Bound::KeySymbols,
                limit: MAX_ARENA,
                node,
            });
        }
        if len + vars.len() > self.arena_buf.len() {
            self.grow_arena(len + vars.len());
        }
        self.arena_buf[len..len + vars.len()].copy_from_slice(vars);
        self.arena_len += vars.len() as u64;
        Ok(len as u32)
    }

    /// The offset of a copy of `vars` made since the arena passed
    /// [`SHARE_FROM`], or of a new one.
    #[inline(never)]
    fn shared_copy(&mut self, vars: &[u16], node: u32) -> Result<u32, RunError> {
        if self.copies.entries.is_empty() {
            self.copies.entries = vec![CopyEntry::default(); 1 << 12];
        }
        let gen = self.gen as u32;
        let hash = (copy_hash(vars) >> 32) as u32;
        let mask = self.copies.entries.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let c = self.copies.entries[i];
            if c.gen != gen {
                break;
            }
            if c.hash == hash && c.len as usize == vars.len() {
                let at = c.at as usize;
                if self.arena_buf[at..at + vars.len()] == *vars {
                    return Ok(c.at);
                }
            }
            i = (i + 1) & mask;
        }
        let at = self.copy(vars, node)?;
        self.copies.entries[i] = CopyEntry {
            hash,
            gen,
            at,
            len: vars.len() as u32,
        };
        self.copies.count += 1;
        if self.copies.count * 2 > self.copies.entries.len() {
            self.copies.entries =
                doubled(&self.copies.entries, |c| c.gen == gen, |c| c.hash as usize);
        }
        Ok(at)
    }

    /// Whether the table is too full for more keys: at half its length,
    /// or at three quarters from [`DENSE_FROM`] entries (a table for
    /// arimaa's 8.4M keys and more then takes 320 MiB, not 640).
    #[cold]
    fn full(&self) -> bool {
        let len = self.entries_buf.len() as u64;
        len < DENSE_FROM || self.count * 4 > len * 3
    }

    #[cold]
    fn grow(&mut self) {
        let gen = self.gen as u32;
        self.entries_buf = doubled(&self.entries_buf, |e| e.gen == gen, |e| e.hash as usize);
        self.point();
    }

    /// Makes the arena at least `need` symbols long (at most
    /// [`MAX_ARENA`], which `need` is within).
    #[cold]
    fn grow_arena(&mut self, need: usize) {
        let want = (2 * self.arena_buf.len()).max(need).clamp(256, MAX_ARENA);
        self.arena_buf.resize(want, 0);
        self.point();
    }
}

/// An open-addressing table twice the size of `entries` holding its live
/// entries, each probed linearly from `home` (any bits; masked here).
pub(crate) fn doubled<E: Copy + Default>(
    entries: &[E],
    live: impl Fn(&E) -> bool,
    home: impl Fn(&E) -> usize,
) -> Vec<E> {
    let mut bigger = vec![E::default(); entries.len() * 2];
    let mask = bigger.len() - 1;
    for e in entries.iter().filter(|e| live(e)) {
        let mut i = home(e) & mask;
        while live(&bigger[i]) {
            i = (i + 1) & mask;
        }
        bigger[i] = *e;
    }
    bigger
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_compared_in_full() {
        let mut s = Seen::default();
        // Same hash, different keys: both are new.
        assert!(s.insert(7, 1, &[1, 2], 3).unwrap());
        assert!(s.insert(7, 1, &[1, 2], 4).unwrap());
        assert!(s.insert(7, 1, &[1, 3], 3).unwrap());
        assert!(s.insert(7, 1, &[0, 2], 3).unwrap());
        assert!(s.insert(7, 2, &[1, 2], 3).unwrap());
        assert!(!s.insert(7, 1, &[1, 2], 3).unwrap());
        // Many keys, half of them with one upper hash half (the table
        // grows; colliding keys are told apart).
        for i in 0..1000u16 {
            assert!(s
                .insert((i as u64 % 2) << 40 | i as u64, 0, &[i], 0)
                .unwrap());
        }
        assert!(!s.insert(1 << 40 | 999, 0, &[999], 0).unwrap());
        assert!(s.insert(1 << 40 | 999, 0, &[998], 0).unwrap());
        // A copy holds the same keys in buffers of its own.
        let c = s.clone();
        assert_ne!(c.entries, s.entries);
        assert_eq!((c.count, c.arena_len), (s.count, s.arena_len));
        s.clear(MAX_KEYS);
        assert!(s.insert(7, 1, &[1, 2], 3).unwrap());
        let mut c = c;
        assert!(!c.insert(1 << 40 | 999, 0, &[998], 0).unwrap());
    }

    #[test]
    fn the_limit_bounds_the_keys_and_the_room() {
        let mut s = Seen::default();
        s.clear(3);
        assert_eq!(s.room, 3);
        for i in 0..3 {
            assert!(s.insert(i << 32, 0, &[i as u16], 0).unwrap());
        }
        let err = s.insert(9 << 32, 0, &[9], 0).unwrap_err();
        assert_eq!(err.to_string(), "an enumeration visited more than 3 states");
        s.clear(MAX_KEYS);
        assert_eq!(s.room, 32);
    }

    /// Keys of many variables fill the arena before the key limit: the
    /// error names the arena's bound, not the keys'.
    #[test]
    fn the_arena_bounds_the_keys_symbols() {
        let mut s = Seen::default();
        s.clear(MAX_MOVE_KEYS);
        let vars = vec![0u16; MAX_ARENA / 16];
        for i in 0..16u16 {
            let mut key = vars.clone();
            key[0] = i;
            assert!(s.insert(u64::from(i) << 32, 0, &key, 0).unwrap());
        }
        // A copy of another content: no room (an equal one is shared).
        let mut other = vars.clone();
        other[1] = 1;
        let err = s.insert(99 << 32, 0, &other, 1).unwrap_err();
        assert!(
            matches!(err, RunError::TooManyStates { bound: Bound::KeySymbols, limit, .. } if limit == MAX_ARENA),
            "{err:?}"
        );
        assert_eq!(
            err.to_string(),
            "an enumeration's visited states hold more than 67108864 symbols together"
        );
        // A content stored past SHARE_FROM, under other tags: shared.
        let mut key = vars.clone();
        key[0] = 5;
        assert!(s.insert(5 << 32, 0, &key, 1).unwrap());
    }

    #[test]
    fn equal_copies_are_shared_past_share_from() {
        // 2^20 keys (nodes and tags differ) over 64 contents of 160
        // symbols: 2^27.3 symbols copied one per key, more than
        // MAX_ARENA; 64 copies shared.
        let mut s = Seen::default();
        s.clear(MAX_MOVE_KEYS);
        let content = |c: u32| -> Vec<u16> { (0..160).map(|k| (k * 7 + c) as u16).collect() };
        let n = 1u32 << 20;
        for i in 0..n {
            let vars = content(i % 64);
            let h = u64::from(i).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            assert!(s.insert(h, i % 5, &vars, i / 5).unwrap(), "key {i}");
        }
        assert!(
            (s.arena_len as usize) <= SHARE_FROM + 65 * 160,
            "{}",
            s.arena_len
        );
        // Every key is still compared in full: each is there once, its
        // neighbours in content are not.
        for i in (0..n).step_by(4099) {
            let h = u64::from(i).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            assert!(!s.insert(h, i % 5, &content(i % 64), i / 5).unwrap());
            let mut near = content(i % 64);
            near[159] ^= 1;
            assert!(s.insert(h, i % 5, &near, i / 5).unwrap(), "key {i}");
        }
    }
}
