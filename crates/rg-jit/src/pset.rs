//! The visited set of writing programs and searches (keys without tags,
//! as the interpreter's checks), shared by generated code and Rust: an
//! open-addressing table of [`PEntry`] stamped by a generation, and an
//! arena holding each key's slots, so a hash collision never merges two
//! keys. Generated code (`gen/visit.rs`) probes it for keys of
//! `Guard::Full` nodes and adds new keys while there is room; Rust
//! ([`PSet::insert`]) takes the others, grows it and fails past the
//! interpreter's bounds (`MAX_KEYS` keys, `MAX_ARENA` symbols) as
//! `rg_engine::raw::Seen` does.

use rg_engine::raw::{MAX_ARENA, MAX_KEYS};
use rg_engine::RunError;

/// One key: its hash's upper half, the generation that wrote it, its node
/// and where its slots start in the arena.
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub(crate) struct PEntry {
    pub hash: u32,
    pub gen: u32,
    pub node: u32,
    pub at: u32,
}

/// A key's hash: `h` (the key hash of its slots, or their sum) and its
/// node mixed; the upper half is kept (`gen/visit.rs` computes the same).
#[inline]
pub(crate) fn key_hash(h: u64, node: u32) -> u32 {
    let x = (h ^ (node as u64).wrapping_mul(NODE_MUL)).wrapping_mul(MIX_MUL);
    (x >> 32) as u32
}

/// [`key_hash`]'s multipliers.
pub(crate) const NODE_MUL: u64 = 0x9e37_79b9_7f4a_7c15;
pub(crate) const MIX_MUL: u64 = 0xbf58_476d_1ce4_e5b9;

/// The set; the first fields are read and written by generated code
/// (`rt::Off`), the buffers behind them are the `Vec`s below.
#[repr(C)]
pub(crate) struct PSet {
    pub entries: *mut PEntry,
    /// The table's length less one (a power of two less one).
    pub mask: u64,
    /// The generation (1 ..= u32::MAX).
    pub gen: u64,
    pub count: u64,
    /// The keys generated code may hold before Rust takes over: the
    /// smaller of the limit and half the table.
    pub room: u64,
    pub arena: *mut u16,
    pub arena_len: u64,
    /// The arena's capacity (at most `MAX_ARENA`).
    pub arena_cap: u64,
    entries_buf: Vec<PEntry>,
    arena_buf: Vec<u16>,
}

impl Default for PSet {
    fn default() -> PSet {
        let mut s = PSet {
            entries: std::ptr::null_mut(),
            mask: 0,
            gen: 1,
            count: 0,
            room: 0,
            arena: std::ptr::null_mut(),
            arena_len: 0,
            arena_cap: 0,
            entries_buf: vec![PEntry::default(); 64],
            arena_buf: Vec::with_capacity(1024),
        };
        s.point();
        s
    }
}

impl PSet {
    /// The raw fields from the buffers.
    fn point(&mut self) {
        self.entries = self.entries_buf.as_mut_ptr();
        self.mask = self.entries_buf.len() as u64 - 1;
        self.room = (MAX_KEYS as u64).min(self.entries_buf.len() as u64 / 2);
        self.arena = self.arena_buf.as_mut_ptr();
        self.arena_cap = self.arena_buf.capacity().min(MAX_ARENA) as u64;
    }

    /// Forgets every key.
    pub fn clear(&mut self) {
        self.count = 0;
        self.arena_len = 0;
        self.gen += 1;
        if self.gen > u32::MAX as u64 {
            self.entries_buf.fill(PEntry::default());
            self.gen = 1;
        }
    }

    /// Adds (node, vars) of hash `h` ([`key_hash`]); false if it was there.
    pub fn insert(&mut self, h: u32, node: u32, vars: &[u16]) -> Result<bool, RunError> {
        let gen = self.gen as u32;
        let mask = self.mask as usize;
        let mut i = h as usize & mask;
        loop {
            let e = self.entries_buf[i];
            if e.gen != gen {
                break;
            }
            if e.hash == h && e.node == node {
                let at = e.at as usize;
                // SAFETY: `arena_len` symbols were written (by generated
                // code or below) within the arena's capacity.
                let arena =
                    unsafe { std::slice::from_raw_parts(self.arena, self.arena_len as usize) };
                if arena.get(at..at + vars.len()) == Some(vars) {
                    return Ok(false);
                }
            }
            i = (i + 1) & mask;
        }
        let len = self.arena_len as usize;
        if self.count as usize >= MAX_KEYS || len + vars.len() > MAX_ARENA {
            return Err(RunError::TooManyStates {
                limit: MAX_KEYS,
                node,
            });
        }
        if len + vars.len() > self.arena_buf.capacity() {
            // SAFETY: as above, the first `len` symbols are written.
            unsafe { self.arena_buf.set_len(len) };
            let want = (2 * self.arena_buf.capacity()).max(len + vars.len());
            self.arena_buf.reserve_exact(want - len);
        }
        // SAFETY: within the capacity just ensured.
        unsafe {
            std::ptr::copy_nonoverlapping(
                vars.as_ptr(),
                self.arena_buf.as_mut_ptr().add(len),
                vars.len(),
            );
        }
        self.entries_buf[i] = PEntry {
            hash: h,
            gen,
            node,
            at: len as u32,
        };
        self.arena_len = (len + vars.len()) as u64;
        self.count += 1;
        if self.count * 2 > self.entries_buf.len() as u64 {
            let mut bigger = vec![PEntry::default(); 2 * self.entries_buf.len()];
            let mask = bigger.len() - 1;
            for e in self.entries_buf.iter().filter(|e| e.gen == gen) {
                let mut i = e.hash as usize & mask;
                while bigger[i].gen == gen {
                    i = (i + 1) & mask;
                }
                bigger[i] = *e;
            }
            self.entries_buf = bigger;
        }
        self.point();
        Ok(true)
    }
}
