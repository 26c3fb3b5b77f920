//! The workspace's buffers: made, grown, pointed at and handed over.

use std::sync::Arc;

use rg_engine::raw::{self, Prefixes, Seen, Tables, EMPTY, MAX_RECORDED, MAX_TAGS};
use rg_engine::{Effects, RunError};

use super::walker::dense_stamps;
use super::*;
use crate::Code;

impl Ws {
    pub(super) fn new(code: Arc<Code>) -> Box<Ws> {
        let t = code.game.tables();
        let slot_pairs = match t.one_slot.iter().any(|&s| s != raw::NO_SLOT) {
            true => t.slot_nodes as usize * t.symbols as usize,
            false => 0,
        };
        let mut ws = Box::new(Ws {
            log: std::ptr::null_mut(),
            log_len: 0,
            log_cap: 0,
            frames: std::ptr::null_mut(),
            frames_len: 0,
            frames_cap: 0,
            tags: std::ptr::null_mut(),
            tags_len: 0,
            tag_ids_len: 0,
            memo: std::ptr::null_mut(),
            hash: 0,
            tag_hash: 0,
            version: 0,
            next_version: 1,
            steps: 0,
            marks: std::ptr::null_mut(),
            mark_gen: 0,
            pending: std::ptr::null_mut(),
            rec_inline: 0,
            changes: std::ptr::null_mut(),
            changes_len: 0,
            changes_cap: 0,
            ends: std::ptr::null_mut(),
            ends_len: 0,
            ends_cap: 0,
            slot_at: std::ptr::null_mut(),
            slot_pending: std::ptr::null_mut(),
            slot_gen: 0,
            st: std::ptr::null_mut(),
            fun: t.fun.as_ptr(),
            dense: std::ptr::null_mut(),
            dense_gen: 0,
            local: std::ptr::null_mut(),
            local_ids: std::ptr::null_mut(),
            local_gen: 0,
            sframes: std::ptr::null_mut(),
            sframes_cap: 0,
            prog: Seen::default(),
            dense_buf: vec![0; dense_stamps(t)],
            local_buf: vec![0; t.local_size.max(1) as usize],
            local_ids_buf: vec![0; t.nodes.len().max(1)],
            slot_at_buf: vec![0; slot_pairs],
            slot_pending_buf: vec![[0, 0]; slot_pairs + 1],
            changes_buf: Vec::with_capacity(64),
            // (Never shorter than `changes_buf`: `point_rec`.)
            ends_buf: Vec::with_capacity(64),
            marks_buf: vec![0; t.nodes.len()],
            pending_buf: vec![0; t.nodes.len() + 1],
            log_buf: vec![LogEntry::default(); 256],
            frames_buf: vec![Frame::default(); 64],
            sframes_buf: vec![Frame::default(); 64],
            tags_buf: vec![0; MAX_TAGS],
            memo_buf: vec![[0, 0]; t.checks.len()],
            tag_ids: vec![0; MAX_TAGS],
            vis: vec![0; MAX_TAGS],
            prefixes: Prefixes::default(),
            seen: Seen::default(),
            sets: false,
            interp: raw::Walker::new(t),
            map_writes: Vec::new(),
            repeat_vars: Vec::new(),
            st_len: t.initial.len(),
            sink: None,
            want_vis: false,
            err: None,
            ahead: None,
            speculates: true,
            code,
        });
        ws.log = ws.log_buf.as_mut_ptr();
        ws.log_cap = ws.log_buf.len() as u64;
        ws.frames = ws.frames_buf.as_mut_ptr();
        ws.frames_cap = ws.frames_buf.len() as u64;
        ws.tags = ws.tags_buf.as_mut_ptr();
        ws.memo = ws.memo_buf.as_mut_ptr();
        ws.marks = ws.marks_buf.as_mut_ptr();
        ws.pending = ws.pending_buf.as_mut_ptr();
        ws.point_rec();
        ws.slot_at = ws.slot_at_buf.as_mut_ptr();
        ws.slot_pending = ws.slot_pending_buf.as_mut_ptr();
        ws.dense = ws.dense_buf.as_mut_ptr();
        ws.local = ws.local_buf.as_mut_ptr();
        ws.local_ids = ws.local_ids_buf.as_mut_ptr();
        ws.sframes = ws.sframes_buf.as_mut_ptr();
        ws.sframes_cap = ws.sframes_buf.len() as u64;
        ws
    }

    /// Makes room for `need` changes and one more move (the generated
    /// record), or fails as the interpreter does past [`MAX_RECORDED`].
    pub(super) fn grow_rec(&mut self, need: usize) -> Result<(), RunError> {
        if need > MAX_RECORDED {
            return Err(RunError::MovesTooLarge(MAX_RECORDED));
        }
        self.take_rec();
        let cap = self.changes_buf.capacity();
        if need > cap {
            let n = need.max(2 * cap).clamp(64, MAX_RECORDED);
            self.changes_buf.reserve_exact(n - self.changes_buf.len());
        }
        if self.ends_len == self.ends_cap {
            let n = 2 * self.ends_buf.capacity() + 64;
            self.ends_buf.reserve_exact(n - self.ends_buf.len());
        }
        self.point_rec();
        Ok(())
    }

    /// Points the generated record at the change and end buffers' room
    /// (at most [`MAX_RECORDED`] changes). The end buffer is made at least
    /// as long as the change buffer, so the generated record tests only the
    /// changes' room (every move records a change: there are never more
    /// ends than changes).
    pub(super) fn point_rec(&mut self) {
        let cap = self.changes_buf.capacity().min(MAX_RECORDED);
        if self.ends_buf.capacity() < cap {
            self.ends_buf.reserve_exact(cap - self.ends_buf.len());
        }
        self.changes = self.changes_buf.as_mut_ptr();
        self.changes_cap = cap as u64;
        self.ends = self.ends_buf.as_mut_ptr();
        self.ends_cap = self.ends_buf.capacity() as u64;
    }

    /// The buffers' lengths set to what the generated code recorded.
    pub(super) fn take_rec(&mut self) {
        // SAFETY: the generated code wrote the first `changes_len` changes
        // and `ends_len` ends (plain words) within the buffers' capacity
        // (`point_rec`).
        unsafe {
            self.changes_buf.set_len(self.changes_len as usize);
            self.ends_buf.set_len(self.ends_len as usize);
        }
    }

    /// Hands the moves the generated code recorded to `out` (its buffers,
    /// whose walks are dropped, become the next walk's).
    pub(super) fn flush(&mut self, out: &mut Effects) {
        self.take_rec();
        out.swap_flat(&mut self.changes_buf, &mut self.ends_buf);
        self.changes_len = 0;
        self.ends_len = 0;
        self.point_rec();
    }

    pub(super) fn tables(&self) -> &Tables {
        self.code.game.tables()
    }

    pub(super) fn fail(&mut self, e: RunError) -> u32 {
        self.err = Some(e);
        FAILED
    }

    /// Undoes the log down to `to` entries.
    pub(super) fn rollback(&mut self, st: &mut [u16], to: usize) {
        while self.log_len as usize > to {
            self.log_len -= 1;
            let e = self.log_buf[self.log_len as usize];
            st[e.slot as usize] = e.old as u16;
        }
    }

    /// An assignment made by Rust: logged, hashed and versioned as the
    /// generated code does.
    pub(super) fn write(&mut self, st: &mut [u16], slot: u32, v: u16) {
        if self.log_len == self.log_cap {
            self.grow_log();
        }
        let old = st[slot as usize];
        self.log_buf[self.log_len as usize] = LogEntry {
            slot,
            old: old as u32,
        };
        self.log_len += 1;
        st[slot as usize] = v;
        let m = self.tables().hash_mul[slot as usize];
        self.hash = self
            .hash
            .wrapping_add(m.wrapping_mul((v as u64).wrapping_sub(old as u64)));
        self.version = self.next_version;
        self.next_version += 1;
    }

    pub(super) fn grow_log(&mut self) {
        let n = self.log_buf.len() * 2;
        self.log_buf.resize(n, LogEntry::default());
        self.log = self.log_buf.as_mut_ptr();
        self.log_cap = n as u64;
    }

    /// The number of the current tag sequence (as the interpreter's
    /// `tag_id`).
    pub(super) fn tag_id(&mut self, node: u32) -> Result<u32, RunError> {
        let (done, len) = (self.tag_ids_len as usize, self.tags_len as usize);
        let mut id = match done {
            0 => EMPTY,
            _ => self.tag_ids[done - 1],
        };
        for i in done..len {
            id = self.prefixes.child(id, self.tags_buf[i], node)?;
            self.tag_ids[i] = id;
        }
        self.tag_ids_len = len as u64;
        Ok(id)
    }
}
