//! The visited set of one enumeration: keys (node, tags, user variables)
//! seen so far, in an open-addressing table cleared in O(1) by a generation
//! stamp. A key is found by its hash and then compared in full: the tags by
//! their sequence's number (`prefixes.rs`), the variables with a copy kept
//! in an arena, so a hash collision never merges two walks.

use crate::RunError;

/// At most this many keys per check's enumeration.
pub const MAX_KEYS: usize = 1 << 20;
/// At most this many keys per move enumeration (paperSoccer's bounce chains
/// take 2.2M; the table then holds at most 2^23 entries of 20 bytes).
pub const MAX_MOVE_KEYS: usize = 1 << 22;
/// At most this many symbols in the copies of the keys (32 MiB).
pub const MAX_ARENA: usize = 1 << 24;

#[derive(Clone, Copy, Default)]
struct Entry {
    /// The hash's upper half (which also chooses the place).
    hash: u32,
    gen: u32,
    node: u32,
    /// Offset of the variables' copy in the arena (its length is the
    /// node's: a node always compares the same slots).
    at: u32,
    /// The number of the tag sequence.
    tags: u32,
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
#[derive(Clone)]
pub struct Seen {
    gen: u32,
    entries: Vec<Entry>,
    count: usize,
    limit: usize,
    arena: Vec<u16>,
    /// Stamps of the dense keys (a check's one-slot keys: a node's base
    /// plus the slot's symbol), allocated on first use.
    dense: Vec<u32>,
}

impl Default for Seen {
    fn default() -> Seen {
        Seen {
            gen: 1,
            entries: vec![Entry::default(); 64],
            count: 0,
            limit: MAX_KEYS,
            arena: Vec::new(),
            dense: Vec::new(),
        }
    }
}

impl Seen {
    /// Forgets every key; at most `limit` keys may be added from now on.
    pub fn clear(&mut self, limit: usize) {
        self.count = 0;
        self.limit = limit;
        self.arena.clear();
        next_generation(&mut self.gen, &mut self.entries);
        if self.gen == 1 {
            // The stamps wrapped round: old dense stamps could match.
            self.dense.fill(0);
        }
    }

    /// Adds dense key `i` of a set of `size`; false if it was already there.
    #[inline]
    pub fn insert_dense(&mut self, i: u32, size: u32) -> bool {
        if self.dense.is_empty() {
            self.dense = vec![0; size as usize];
        }
        let stamp = &mut self.dense[i as usize];
        let new = *stamp != self.gen;
        *stamp = self.gen;
        new
    }

    /// Adds the key (node, vars, tags: a tag sequence's number) with the
    /// given hash; false if it was already there. A node's keys always
    /// have the same number of variables.
    #[inline]
    pub fn insert(
        &mut self,
        hash: u64,
        node: u32,
        vars: &[u16],
        tags: u32,
    ) -> Result<bool, RunError> {
        let mask = self.entries.len() - 1;
        let hash = (hash >> 32) as u32;
        let mut i = hash as usize & mask;
        loop {
            let e = self.entries[i];
            if e.gen != self.gen {
                break;
            }
            if e.hash == hash && e.node == node && e.tags == tags {
                let at = e.at as usize;
                if self.arena.get(at..at + vars.len()) == Some(vars) {
                    return Ok(false);
                }
            }
            i = (i + 1) & mask;
        }
        if self.count >= self.limit || self.arena.len() + vars.len() > MAX_ARENA {
            return Err(RunError::TooManyStates {
                limit: self.limit,
                node,
            });
        }
        let at = self.arena.len() as u32;
        self.arena.extend_from_slice(vars);
        self.entries[i] = Entry {
            hash,
            gen: self.gen,
            node,
            at,
            tags,
        };
        self.count += 1;
        if self.count * 2 > self.entries.len() {
            self.grow();
        }
        Ok(true)
    }

    #[cold]
    fn grow(&mut self) {
        let gen = self.gen;
        self.entries = doubled(&self.entries, |e| e.gen == gen, |e| e.hash as usize);
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
        s.clear(MAX_KEYS);
        assert!(s.insert(7, 1, &[1, 2], 3).unwrap());
    }
}
