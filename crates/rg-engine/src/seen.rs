//! The visited set of one enumeration: keys (node, tags, user variables)
//! seen so far, in an open-addressing table cleared in O(1) by a generation
//! stamp. A key is found by its hash and then compared in full with a copy
//! kept in an arena, so a hash collision never merges two walks.

use crate::RunError;

/// At most this many keys per enumeration.
pub const MAX_KEYS: usize = 1 << 20;
/// At most this many symbols in the copies of the keys (32 MiB).
pub const MAX_ARENA: usize = 1 << 24;

#[derive(Clone, Copy, Default)]
struct Entry {
    hash: u64,
    gen: u32,
    node: u32,
    /// Offset of the key's copy in the arena.
    at: u32,
    /// Length of its first part (variables); the rest is tags.
    split: u32,
    /// Total length.
    len: u32,
}

/// One enumeration's visited keys.
#[derive(Clone)]
pub struct Seen {
    gen: u32,
    entries: Vec<Entry>,
    count: usize,
    arena: Vec<u16>,
}

impl Default for Seen {
    fn default() -> Seen {
        Seen {
            gen: 1,
            entries: vec![Entry::default(); 64],
            count: 0,
            arena: Vec::new(),
        }
    }
}

impl Seen {
    /// Forgets every key.
    pub fn clear(&mut self) {
        self.count = 0;
        self.arena.clear();
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.entries.fill(Entry::default());
            self.gen = 1;
        }
    }

    /// Adds the key (node, vars, tags) with the given hash; false if it was
    /// already there.
    #[inline]
    pub fn insert(
        &mut self,
        hash: u64,
        node: u32,
        vars: &[u16],
        tags: &[u16],
    ) -> Result<bool, RunError> {
        let mask = self.entries.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let e = self.entries[i];
            if e.gen != self.gen {
                break;
            }
            if e.hash == hash
                && e.node == node
                && e.split as usize == vars.len()
                && e.len as usize == vars.len() + tags.len()
            {
                let at = e.at as usize;
                let split = at + e.split as usize;
                if self.arena[at..split] == *vars && self.arena[split..at + e.len as usize] == *tags
                {
                    return Ok(false);
                }
            }
            i = (i + 1) & mask;
        }
        if self.count >= MAX_KEYS || self.arena.len() + vars.len() + tags.len() > MAX_ARENA {
            return Err(RunError::TooManyStates(MAX_KEYS));
        }
        let at = self.arena.len() as u32;
        self.arena.extend_from_slice(vars);
        self.arena.extend_from_slice(tags);
        self.entries[i] = Entry {
            hash,
            gen: self.gen,
            node,
            at,
            split: vars.len() as u32,
            len: (vars.len() + tags.len()) as u32,
        };
        self.count += 1;
        if self.count * 2 > self.entries.len() {
            self.grow();
        }
        Ok(true)
    }

    #[cold]
    fn grow(&mut self) {
        let mut bigger = vec![Entry::default(); self.entries.len() * 2];
        let mask = bigger.len() - 1;
        for e in self.entries.iter().filter(|e| e.gen == self.gen) {
            let mut i = e.hash as usize & mask;
            while bigger[i].gen == self.gen {
                i = (i + 1) & mask;
            }
            bigger[i] = *e;
        }
        self.entries = bigger;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_compared_in_full() {
        let mut s = Seen::default();
        // Same hash, different keys: both are new.
        assert!(s.insert(7, 1, &[1, 2], &[3]).unwrap());
        assert!(s.insert(7, 1, &[1, 2], &[4]).unwrap());
        assert!(s.insert(7, 1, &[1], &[2, 3]).unwrap());
        assert!(s.insert(7, 2, &[1, 2], &[3]).unwrap());
        assert!(!s.insert(7, 1, &[1, 2], &[3]).unwrap());
        for i in 0..1000u16 {
            assert!(s.insert(i as u64 * 31, 0, &[i], &[]).unwrap());
        }
        assert!(!s.insert(999 * 31, 0, &[999], &[]).unwrap());
        s.clear();
        assert!(s.insert(7, 1, &[1, 2], &[3]).unwrap());
    }
}
