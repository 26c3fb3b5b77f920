//! Tag sequences of one move enumeration, numbered: the visited keys hold a
//! sequence's number instead of a copy of its tags. Each sequence is its
//! longest proper prefix's number plus its last tag, interned in an
//! open-addressing table cleared in O(1) by a generation stamp, so equal
//! sequences get equal numbers and a key costs the same for a move of 100
//! tags as for one of 1 (paperSoccer's bounce chains, arimaa's four steps).

use crate::RunError;

/// At most this many distinct non-empty tag sequences per enumeration
/// (arimaa's move walks take more than 2^22; the table then holds at most
/// 2^24 entries of 16 bytes, 256 MiB).
pub const MAX_PREFIXES: usize = 1 << 23;

/// The number of the empty sequence.
pub const EMPTY: u32 = 0;

#[derive(Clone, Copy, Default)]
struct Entry {
    /// `parent << 16 | tag`.
    key: u64,
    gen: u32,
    id: u32,
}

/// The numbered tag sequences of one enumeration.
#[derive(Clone)]
pub struct Prefixes {
    gen: u32,
    entries: Vec<Entry>,
    count: u32,
}

impl Default for Prefixes {
    fn default() -> Prefixes {
        Prefixes {
            gen: 1,
            entries: vec![Entry::default(); 64],
            count: 0,
        }
    }
}

impl Prefixes {
    /// Forgets every sequence.
    pub fn clear(&mut self) {
        self.count = 0;
        crate::seen::next_generation(&mut self.gen, &mut self.entries);
    }

    /// The number of the sequence `parent` (a number) followed by `tag`;
    /// fails when the numbers run out (a walk at `node`).
    #[inline]
    pub fn child(&mut self, parent: u32, tag: u16, node: u32) -> Result<u32, RunError> {
        let key = (parent as u64) << 16 | tag as u64;
        let mask = self.entries.len() - 1;
        let mut i = home(key) & mask;
        loop {
            let e = self.entries[i];
            if e.gen != self.gen {
                break;
            }
            if e.key == key {
                return Ok(e.id);
            }
            i = (i + 1) & mask;
        }
        if self.count as usize >= MAX_PREFIXES {
            return Err(RunError::TooManyStates {
                bound: crate::error::Bound::TagSequences,
                limit: MAX_PREFIXES,
                node,
            });
        }
        self.count += 1;
        self.entries[i] = Entry {
            key,
            gen: self.gen,
            id: self.count,
        };
        if self.count as usize * 2 > self.entries.len() {
            self.grow();
        }
        Ok(self.count)
    }

    #[cold]
    fn grow(&mut self) {
        let gen = self.gen;
        self.entries = crate::seen::doubled(&self.entries, |e| e.gen == gen, |e| home(e.key));
    }
}

/// Where `key`'s probe starts (before masking).
#[inline]
fn home(key: u64) -> usize {
    ((key ^ (key >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_sequences_get_equal_numbers() {
        let mut p = Prefixes::default();
        let a = p.child(EMPTY, 7, 0).unwrap();
        let ab = p.child(a, 8, 0).unwrap();
        let b = p.child(EMPTY, 8, 0).unwrap();
        let ba = p.child(b, 7, 0).unwrap();
        assert_eq!(p.child(EMPTY, 7, 0).unwrap(), a);
        assert_eq!(p.child(a, 8, 0).unwrap(), ab);
        let all = [EMPTY, a, ab, b, ba];
        for (i, x) in all.iter().enumerate() {
            assert!(all[i + 1..].iter().all(|y| y != x));
        }
        // Many sequences (the table grows), each found again.
        let mut ids = Vec::new();
        let mut parent = EMPTY;
        for t in 0..5000u16 {
            parent = p.child(parent, t % 3, 0).unwrap();
            ids.push(parent);
        }
        let mut parent = EMPTY;
        for (t, &id) in (0..5000u16).zip(&ids) {
            parent = p.child(parent, t % 3, 0).unwrap();
            assert_eq!(parent, id);
        }
        p.clear();
        assert_eq!(p.child(EMPTY, 8, 0).unwrap(), 1);
    }
}
