//! The run-time side of the generated walk: the workspace it reads and
//! writes (`Ws`, `repr(C)`: the generator uses its field offsets), the
//! helpers it calls for rare or complex steps (visited checks,
//! reachability checks, recording a move, map operations, growing
//! buffers, errors), and the per-thread [`Walker`].

use std::mem::offset_of;
use std::sync::Arc;

use rg_engine::raw::{
    self, Guard, Op, Operand, Place, Prefixes, Seen, Tables, EMPTY, MAX_FRAMES, MAX_KEYS,
    MAX_MOVE_KEYS, MAX_RECORDED, MAX_STEPS, MAX_TAGS,
};
use rg_engine::{Effects, NativeWalker, RunError, Sink, SinkMut};

use crate::pset::{self, PSet};
use crate::Code;

/// A function of the generated walk: `(workspace, semistate, target, arg)
/// -> 0 (done), 1 (error in the workspace) or 2 + the target to go on at`
/// (`gen::Parts`). Target `edges + resume blocks + first` with `arg =
/// next` pushes the root's frame over edges `first .. next`, `next`'s
/// resume block given.
pub(crate) type WalkFn = unsafe extern "C" fn(*mut Ws, *mut u16, u32, u32) -> u32;

/// Every helper the generated code calls: `(workspace, semistate, a, b)`.
pub(crate) type Helper = unsafe extern "C" fn(*mut Ws, *mut u16, u32, u32) -> u32;

/// A helper's answer: an error is in [`Ws::err`].
pub(crate) const FAILED: u32 = u32::MAX;
/// [`first_legal`]'s answer for a `@disjoint` node without a legal edge.
pub(crate) const NO_LEGAL: u32 = u32::MAX - 1;

/// One undo-log entry: the slot and its old value.
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub(crate) struct LogEntry {
    pub slot: u32,
    pub old: u32,
}

// A slot change of a recorded move (generated code records the moves of
// playouts, `Effects` sinks, itself): the engine's, so records are copied
// to the sink as they are.
pub(crate) use rg_engine::Change;

/// A choice point, as the interpreter's: edges `first .. next` are still
/// to be tried (last first), `sub` symbols of edge `next`'s
/// any-assignment; what to restore when coming back.
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub(crate) struct Frame {
    pub next: u32,
    pub first: u32,
    pub sub: u32,
    pub log: u32,
    pub tags: u32,
    pub pad: u32,
    /// A filtered any-assignment's symbols of chunk `sub` that pass and
    /// are left (`gen/filter.rs`).
    pub mask: u64,
    pub hash: u64,
    pub tag_hash: u64,
    pub version: u64,
}

/// The workspace. The first fields are read and written by generated code
/// at the offsets of [`Off`]; the buffers behind the raw pointers are the
/// `Vec`s below them (full length: the code writes up to the capacity
/// fields).
#[repr(C)]
pub(crate) struct Ws {
    pub log: *mut LogEntry,
    pub log_len: u64,
    pub log_cap: u64,
    pub frames: *mut Frame,
    pub frames_len: u64,
    pub frames_cap: u64,
    /// `MAX_TAGS` entries.
    pub tags: *mut u16,
    pub tags_len: u64,
    /// How many of `tag_ids` are valid (at most `tags_len`).
    pub tag_ids_len: u64,
    /// Per check: `[version, result]`.
    pub memo: *mut [u64; 2],
    /// The visited key's hash of the user slots (as the interpreter's).
    pub hash: u64,
    pub tag_hash: u64,
    pub version: u64,
    pub next_version: u64,
    /// Inline edges followed (bounded only in games with `@unique`).
    pub steps: u64,
    /// Generated pure checks' node stamps (one per node) and stamp.
    pub marks: *mut u32,
    pub mark_gen: u64,
    /// Their pending nodes (one per node).
    pub pending: *mut u32,
    /// 1 when the generated code records the moves itself (an `Effects`
    /// sink): every move's changes, then per move the end of its changes
    /// and its end node (`[end, node]`).
    pub rec_inline: u64,
    pub changes: *mut Change,
    pub changes_len: u64,
    pub changes_cap: u64,
    pub ends: *mut [u32; 2],
    pub ends_len: u64,
    pub ends_cap: u64,
    pub slot_at: *mut u32,
    pub slot_pending: *mut [u32; 2],
    pub slot_gen: u64,
    /// The semistate of the running walk (set by the walk functions'
    /// entry; generated code reads it from here once per block).
    pub st: *mut u16,
    /// The move walks' dense visited stamps (one per key of the nodes
    /// whose key is one slot and no tags, `NodeInfo::dense`) and the
    /// running walk's stamp (below `u32::MAX`; wraps by clearing them).
    pub dense: *mut u32,
    pub dense_gen: u64,
    /// The frames of writing searches (`gen/search.rs`; their number is
    /// the search's own) and their capacity.
    pub sframes: *mut Frame,
    pub sframes_cap: u64,
    /// The visited set of writing programs and searches (but their dense
    /// keys, `prog_seen`'s).
    pub pset: PSet,
    // Owned by Rust only.
    code: Arc<Code>,
    log_buf: Vec<LogEntry>,
    frames_buf: Vec<Frame>,
    sframes_buf: Vec<Frame>,
    tags_buf: Vec<u16>,
    memo_buf: Vec<[u64; 2]>,
    marks_buf: Vec<u32>,
    pending_buf: Vec<u32>,
    changes_buf: Vec<Change>,
    ends_buf: Vec<[u32; 2]>,
    /// One-slot checks' stamps per (node index, symbol), and pending pairs.
    slot_at_buf: Vec<u32>,
    slot_pending_buf: Vec<[u32; 2]>,
    dense_buf: Vec<u32>,
    tag_ids: Vec<u32>,
    vis: Vec<u64>,
    prefixes: Prefixes,
    seen: Seen,
    /// Whether `prefixes` and `seen` are the running walk's (emptied at
    /// its first visited check that uses them).
    sets: bool,
    /// The dense visited stamps of writing programs (`gen/program.rs`).
    prog_seen: Seen,
    /// The interpreter, for reachability checks.
    interp: raw::Walker,
    map_writes: Vec<(u32, u16)>,
    /// The key of a `@repeat` visited check (reused).
    repeat_vars: Vec<u16>,
    st_len: usize,
    sink: Option<SinkPtr>,
    want_vis: bool,
    err: Option<RunError>,
}

/// The sink of the running enumeration.
enum SinkPtr {
    List(*mut rg_engine::MoveList),
    Effects(*mut rg_engine::Effects),
}

/// Field offsets for the generator.
pub(crate) struct Off;

impl Off {
    const fn pset(field: usize) -> i32 {
        (offset_of!(Ws, pset) + field) as i32
    }

    pub const LOG: i32 = offset_of!(Ws, log) as i32;
    pub const LOG_LEN: i32 = offset_of!(Ws, log_len) as i32;
    pub const LOG_CAP: i32 = offset_of!(Ws, log_cap) as i32;
    pub const FRAMES: i32 = offset_of!(Ws, frames) as i32;
    pub const FRAMES_LEN: i32 = offset_of!(Ws, frames_len) as i32;
    pub const FRAMES_CAP: i32 = offset_of!(Ws, frames_cap) as i32;
    pub const TAGS: i32 = offset_of!(Ws, tags) as i32;
    pub const TAGS_LEN: i32 = offset_of!(Ws, tags_len) as i32;
    pub const TAG_IDS_LEN: i32 = offset_of!(Ws, tag_ids_len) as i32;
    pub const MEMO: i32 = offset_of!(Ws, memo) as i32;
    pub const HASH: i32 = offset_of!(Ws, hash) as i32;
    pub const TAG_HASH: i32 = offset_of!(Ws, tag_hash) as i32;
    pub const VERSION: i32 = offset_of!(Ws, version) as i32;
    pub const NEXT_VERSION: i32 = offset_of!(Ws, next_version) as i32;
    pub const STEPS: i32 = offset_of!(Ws, steps) as i32;
    pub const MARKS: i32 = offset_of!(Ws, marks) as i32;
    pub const MARK_GEN: i32 = offset_of!(Ws, mark_gen) as i32;
    pub const PENDING: i32 = offset_of!(Ws, pending) as i32;
    pub const REC_INLINE: i32 = offset_of!(Ws, rec_inline) as i32;
    pub const CHANGES: i32 = offset_of!(Ws, changes) as i32;
    pub const CHANGES_LEN: i32 = offset_of!(Ws, changes_len) as i32;
    pub const CHANGES_CAP: i32 = offset_of!(Ws, changes_cap) as i32;
    pub const ENDS: i32 = offset_of!(Ws, ends) as i32;
    pub const ENDS_LEN: i32 = offset_of!(Ws, ends_len) as i32;
    pub const SLOT_AT: i32 = offset_of!(Ws, slot_at) as i32;
    pub const SLOT_PENDING: i32 = offset_of!(Ws, slot_pending) as i32;
    pub const SLOT_GEN: i32 = offset_of!(Ws, slot_gen) as i32;
    pub const ST: i32 = offset_of!(Ws, st) as i32;
    pub const DENSE: i32 = offset_of!(Ws, dense) as i32;
    pub const DENSE_GEN: i32 = offset_of!(Ws, dense_gen) as i32;
    pub const SFRAMES: i32 = offset_of!(Ws, sframes) as i32;
    pub const SFRAMES_CAP: i32 = offset_of!(Ws, sframes_cap) as i32;
    pub const PSET_ENTRIES: i32 = Off::pset(offset_of!(PSet, entries));
    pub const PSET_MASK: i32 = Off::pset(offset_of!(PSet, mask));
    pub const PSET_GEN: i32 = Off::pset(offset_of!(PSet, gen));
    pub const PSET_COUNT: i32 = Off::pset(offset_of!(PSet, count));
    pub const PSET_ROOM: i32 = Off::pset(offset_of!(PSet, room));
    pub const PSET_ARENA: i32 = Off::pset(offset_of!(PSet, arena));
    pub const PSET_ARENA_LEN: i32 = Off::pset(offset_of!(PSet, arena_len));
    pub const PSET_ARENA_CAP: i32 = Off::pset(offset_of!(PSet, arena_cap));
    pub const F_NEXT: i32 = offset_of!(Frame, next) as i32;
    pub const F_FIRST: i32 = offset_of!(Frame, first) as i32;
    pub const F_SUB: i32 = offset_of!(Frame, sub) as i32;
    pub const F_LOG: i32 = offset_of!(Frame, log) as i32;
    pub const F_TAGS: i32 = offset_of!(Frame, tags) as i32;
    pub const F_MASK: i32 = offset_of!(Frame, mask) as i32;
    pub const F_HASH: i32 = offset_of!(Frame, hash) as i32;
    pub const F_TAG_HASH: i32 = offset_of!(Frame, tag_hash) as i32;
    pub const F_VERSION: i32 = offset_of!(Frame, version) as i32;
    pub const FRAME_SIZE: i64 = std::mem::size_of::<Frame>() as i64;
}

impl Ws {
    fn new(code: Arc<Code>) -> Box<Ws> {
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
            dense: std::ptr::null_mut(),
            dense_gen: 0,
            sframes: std::ptr::null_mut(),
            sframes_cap: 0,
            pset: PSet::default(),
            dense_buf: vec![0; dense_stamps(t)],
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
            prog_seen: Seen::default(),
            interp: raw::Walker::new(t),
            map_writes: Vec::new(),
            repeat_vars: Vec::new(),
            st_len: t.initial.len(),
            sink: None,
            want_vis: false,
            err: None,
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
        ws.sframes = ws.sframes_buf.as_mut_ptr();
        ws.sframes_cap = ws.sframes_buf.len() as u64;
        ws
    }

    /// Makes room for `need` changes and one more move (the generated
    /// record), or fails as the interpreter does past [`MAX_RECORDED`].
    fn grow_rec(&mut self, need: usize) -> Result<(), RunError> {
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
    fn point_rec(&mut self) {
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
    fn take_rec(&mut self) {
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
    fn flush(&mut self, out: &mut Effects) {
        self.take_rec();
        out.swap_flat(&mut self.changes_buf, &mut self.ends_buf);
        self.changes_len = 0;
        self.ends_len = 0;
        self.point_rec();
    }

    fn tables(&self) -> &Tables {
        self.code.game.tables()
    }

    fn fail(&mut self, e: RunError) -> u32 {
        self.err = Some(e);
        FAILED
    }

    /// Undoes the log down to `to` entries.
    fn rollback(&mut self, st: &mut [u16], to: usize) {
        while self.log_len as usize > to {
            self.log_len -= 1;
            let e = self.log_buf[self.log_len as usize];
            st[e.slot as usize] = e.old as u16;
        }
    }

    /// An assignment made by Rust: logged, hashed and versioned as the
    /// generated code does.
    fn write(&mut self, st: &mut [u16], slot: u32, v: u16) {
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

    fn grow_log(&mut self) {
        let n = self.log_buf.len() * 2;
        self.log_buf.resize(n, LogEntry::default());
        self.log = self.log_buf.as_mut_ptr();
        self.log_cap = n as u64;
    }

    /// The number of the current tag sequence (as the interpreter's
    /// `tag_id`).
    fn tag_id(&mut self, node: u32) -> Result<u32, RunError> {
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

    /// Whether (node, key) is new in the enumeration (and records it), as
    /// the interpreter's `visit` of a move walk.
    fn visit(&mut self, st: &[u16], node: u32) -> Result<bool, RunError> {
        let t = self.code.game.tables();
        let guard = t.nodes[node as usize].guard;
        if guard == Guard::None {
            return Ok(true);
        }
        if let Some((base, slot)) = dense_key(t, node) {
            // As the generated code's stamps (`gen::Gen::visit`).
            let at = &mut self.dense_buf[(base + st[slot as usize] as u32) as usize];
            let new = *at != self.dense_gen as u32;
            *at = self.dense_gen as u32;
            return Ok(new);
        }
        if !self.sets {
            // As the interpreter's `begin`.
            self.prefixes.clear();
            self.seen.clear(MAX_MOVE_KEYS);
            self.sets = true;
        }
        let tags = self.tag_id(node)?;
        let t = self.code.game.tables();
        let (hash, vars) = (self.hash, &mut self.repeat_vars);
        visit_in(
            &mut self.seen,
            vars,
            t,
            st,
            node,
            (hash, tags, self.tag_hash),
        )
    }

    /// Whether (node, key) is new in the running writing program's visited
    /// set (and records it), as the interpreter's `visit` of a check.
    fn prog_visit(&mut self, st: &[u16], node: u32) -> Result<bool, RunError> {
        let t = self.code.game.tables();
        let info = t.nodes[node as usize];
        let slot = match info.guard {
            Guard::None => return Ok(true),
            Guard::Full(lo, _) => lo,
            Guard::Repeat(i) => t.repeat_slots[i as usize][0],
        };
        if info.dense != raw::NO_DENSE {
            // A key of one slot: a stamp.
            let i = info.dense + st[slot as usize] as u32;
            return Ok(self.prog_seen.insert_dense(i, t.dense_size));
        }
        match info.guard {
            Guard::Full(lo, hi) => {
                let h = pset::key_hash(self.hash, node);
                self.pset.insert(h, node, &st[lo as usize..hi as usize])
            }
            Guard::Repeat(i) => {
                let vars = &mut self.repeat_vars;
                vars.clear();
                let mut h = 0u64;
                for &s in &t.repeat_slots[i as usize] {
                    vars.push(st[s as usize]);
                    h = h.wrapping_add(t.hash_mul[s as usize].wrapping_mul(st[s as usize] as u64));
                }
                self.pset.insert(pset::key_hash(h, node), node, vars)
            }
            Guard::None => Ok(true),
        }
    }

    /// Check `c` through the interpreter (memoised by the caller's version).
    fn check(&mut self, st: &mut [u16], c: u32) -> Result<bool, RunError> {
        let [version, result] = self.memo_buf[c as usize];
        if version == self.version {
            return Ok(result != 0);
        }
        let code = self.code.clone();
        let mut steps = self.steps as usize;
        let r = self
            .interp
            .check_from(code.game.tables(), st, c, self.hash, &mut steps);
        self.steps = steps as u64;
        let r = r?;
        self.memo_buf[c as usize] = [self.version, r as u64];
        Ok(r)
    }

    /// The first edge of a `@disjoint` node (file order) whose action is
    /// legal now.
    fn first_legal(&mut self, st: &mut [u16], node: u32) -> Result<Option<u32>, RunError> {
        let code = self.code.clone();
        let t = code.game.tables();
        let info = t.nodes[node as usize];
        for i in info.first..info.end {
            let legal = match t.edges[i as usize].op {
                Op::Cmp(a, b, eq) => (raw::read(t, st, a) == raw::read(t, st, b)) == eq,
                Op::CmpMap(i, eq) => raw::equal(t, st, i) == eq,
                Op::Reach(c, positive) => self.check(st, c)? == positive,
                _ => true,
            };
            if legal {
                return Ok(Some(i));
            }
        }
        Ok(None)
    }

    /// The operations the generated code leaves to Rust: map comparisons
    /// and assignments.
    fn edge(&mut self, st: &mut [u16], edge: u32) -> Result<bool, RunError> {
        let code = self.code.clone();
        let t = code.game.tables();
        match t.edges[edge as usize].op {
            Op::CmpMap(i, eq) => Ok(raw::equal(t, st, i) == eq),
            Op::AssignMap(i) => {
                let mut writes = std::mem::take(&mut self.map_writes);
                writes.clear();
                let r = raw::assign(t, st, i, &mut writes);
                for &(slot, v) in &writes {
                    self.write(st, slot, v);
                }
                self.map_writes = writes;
                r.map(|_| true)
            }
            _ => unreachable!("only map operations are left to Rust"),
        }
    }

    /// Records the walk ending with `player = value` at `node` (in a move
    /// list; the generated code records the moves of `Effects` itself).
    fn record(&mut self, st: &[u16], player: u16, node: u32) -> Result<(), RunError> {
        let Some(SinkPtr::List(p)) = self.sink else {
            return Ok(());
        };
        let vis: &[u64] = match self.want_vis && self.tables().visible_slots.is_some() {
            true => &self.vis[..self.tags_len as usize],
            false => &[],
        };
        // SAFETY: the sink pointer is set by `moves` for the duration of
        // the generated walk, from a `&mut` it holds.
        let list = unsafe { &mut *p };
        list.push(
            &self.tags_buf[..self.tags_len as usize],
            vis,
            self.log_buf[..self.log_len as usize].iter().map(|e| e.slot),
            st,
            self.tables().player_slot,
            player,
            node,
            self.tag_hash,
        );
        if list.recorded() > MAX_RECORDED {
            return Err(RunError::MovesTooLarge(MAX_RECORDED));
        }
        Ok(())
    }

    /// A tag in a game whose `visible` can change: pushed with who sees it.
    fn tag(&mut self, st: &[u16], tag: u16, node: u32) -> Result<(), RunError> {
        let len = self.tags_len as usize;
        if len >= MAX_TAGS {
            return Err(RunError::EndlessWalk {
                limit: MAX_TAGS,
                node,
            });
        }
        self.tags_buf[len] = tag;
        self.tags_len += 1;
        self.tag_hash = raw::tag_step(self.tag_hash, tag);
        if self.want_vis {
            if let Some(vis) = &self.code.game.tables().visible_slots {
                let one = self.code.game.tables().visible_one;
                let mut mask = 0u64;
                for (p, &s) in vis.iter().enumerate() {
                    mask |= ((st[s as usize] == one) as u64) << p;
                }
                self.vis[len] = mask;
            }
        }
        Ok(())
    }
}

/// The semistate of a helper call.
///
/// # Safety
/// `st` is the semistate the walk was called with (`ws.st_len` slots).
unsafe fn state<'a>(ws: &Ws, st: *mut u16) -> &'a mut [u16] {
    std::slice::from_raw_parts_mut(st, ws.st_len)
}

fn answer(ws: &mut Ws, r: Result<u32, RunError>) -> u32 {
    match r {
        Ok(x) => x,
        Err(e) => ws.fail(e),
    }
}

/// Grows the log (`a`, `b` unused).
pub(crate) unsafe extern "C" fn grow_log(ws: *mut Ws, _: *mut u16, _: u32, _: u32) -> u32 {
    (*ws).grow_log();
    0
}

/// Makes room for `a` recorded changes and one more move, or fails past
/// [`MAX_RECORDED`].
pub(crate) unsafe extern "C" fn grow_rec(ws: *mut Ws, _: *mut u16, need: u32, _: u32) -> u32 {
    let ws = &mut *ws;
    let r = ws.grow_rec(need as usize).map(|_| 0);
    answer(ws, r)
}

/// Grows the frames, or fails past [`MAX_FRAMES`] (at node `a`).
pub(crate) unsafe extern "C" fn grow_frames(ws: *mut Ws, _: *mut u16, node: u32, _: u32) -> u32 {
    let ws = &mut *ws;
    match grow(&mut ws.frames_buf, node) {
        Ok(()) => {
            ws.frames = ws.frames_buf.as_mut_ptr();
            ws.frames_cap = ws.frames_buf.len() as u64;
            0
        }
        Err(e) => ws.fail(e),
    }
}

/// Grows the writing searches' frames, or fails past [`MAX_FRAMES`] (at
/// node `a`).
pub(crate) unsafe extern "C" fn grow_sframes(ws: *mut Ws, _: *mut u16, node: u32, _: u32) -> u32 {
    let ws = &mut *ws;
    match grow(&mut ws.sframes_buf, node) {
        Ok(()) => {
            ws.sframes = ws.sframes_buf.as_mut_ptr();
            ws.sframes_cap = ws.sframes_buf.len() as u64;
            0
        }
        Err(e) => ws.fail(e),
    }
}

/// Doubles `frames` up to [`MAX_FRAMES`]; full, the interpreter's error
/// at `node`.
fn grow(frames: &mut Vec<Frame>, node: u32) -> Result<(), RunError> {
    let n = frames.len();
    if n >= MAX_FRAMES {
        return Err(RunError::TooManyStates {
            limit: MAX_FRAMES,
            node,
        });
    }
    frames.resize((n * 2).min(MAX_FRAMES), Frame::default());
    Ok(())
}

/// Clears the pure checks' node stamps (their stamp wrapped around).
pub(crate) unsafe extern "C" fn clear_marks(ws: *mut Ws, _: *mut u16, _: u32, _: u32) -> u32 {
    let ws = &mut *ws;
    ws.marks_buf.fill(0);
    ws.mark_gen = 0;
    0
}

/// One-slot checks' stamps wrapped: all cleared; 0.
pub(crate) unsafe extern "C" fn clear_slot_marks(ws: *mut Ws, _: *mut u16, _: u32, _: u32) -> u32 {
    let ws = &mut *ws;
    ws.slot_at_buf.fill(0);
    ws.slot_gen = 0;
    0
}

/// Kinds of error the generated code detects itself.
pub(crate) const FAIL_TAGS: u32 = 0;
/// Too many steps along single edges (`@unique` cycles).
pub(crate) const FAIL_STEPS: u32 = 1;
/// A key outside a map's keys (`b`: the key).
pub(crate) const FAIL_KEY: u32 = 2;

/// Records an error of kind `a` (at node or with key `b`).
pub(crate) unsafe extern "C" fn fail(ws: *mut Ws, _: *mut u16, kind: u32, b: u32) -> u32 {
    let e = match kind {
        FAIL_TAGS => RunError::EndlessWalk {
            limit: MAX_TAGS,
            node: b,
        },
        FAIL_STEPS => RunError::TooManyStates {
            limit: MAX_STEPS,
            node: b,
        },
        _ => RunError::ForeignKey(b as u16),
    };
    (*ws).fail(e)
}

/// Visited check of node `a`: 1 new, 0 seen.
pub(crate) unsafe extern "C" fn visit(ws: *mut Ws, st: *mut u16, node: u32, _: u32) -> u32 {
    let ws = &mut *ws;
    let st = state(ws, st);
    let r = ws.visit(st, node).map(u32::from);
    answer(ws, r)
}

/// Inserts (node, key, tags) in `seen`, `key` given by the key hash (the
/// tags': their number and hash); `vars` is scratch.
fn visit_in(
    seen: &mut Seen,
    vars: &mut Vec<u16>,
    t: &Tables,
    st: &[u16],
    node: u32,
    (hash, tags, tag_hash): (u64, u32, u64),
) -> Result<bool, RunError> {
    let node_mix = (node as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    match t.nodes[node as usize].guard {
        Guard::Full(lo, hi) => {
            let h = raw::mix(hash ^ tag_hash.rotate_left(29) ^ node_mix);
            seen.insert(h, node, &st[lo as usize..hi as usize], tags)
        }
        Guard::Repeat(i) => {
            vars.clear();
            let mut h = tag_hash.rotate_left(29) ^ node_mix;
            for &s in &t.repeat_slots[i as usize] {
                vars.push(st[s as usize]);
                h = h.wrapping_add(t.hash_mul[s as usize].wrapping_mul(st[s as usize] as u64));
            }
            seen.insert(raw::mix(h), node, vars, tags)
        }
        Guard::None => Ok(true),
    }
}

/// A writing program starts: its visited set is emptied; 0.
pub(crate) unsafe extern "C" fn prog_begin(ws: *mut Ws, _: *mut u16, _: u32, _: u32) -> u32 {
    (*ws).prog_seen.clear(MAX_KEYS);
    (*ws).pset.clear();
    0
}

/// A writing program's visited check of node `a`: 1 new, 0 seen.
pub(crate) unsafe extern "C" fn prog_visit(ws: *mut Ws, st: *mut u16, node: u32, _: u32) -> u32 {
    let ws = &mut *ws;
    let st = state(ws, st);
    let r = ws.prog_visit(st, node).map(u32::from);
    answer(ws, r)
}

/// Check `a` (memoised): 1 holds, 0 not.
pub(crate) unsafe extern "C" fn check(ws: *mut Ws, st: *mut u16, c: u32, _: u32) -> u32 {
    let ws = &mut *ws;
    let st = state(ws, st);
    let r = ws.check(st, c).map(u32::from);
    answer(ws, r)
}

/// Records a move: `player = a` at node `b`; 0.
pub(crate) unsafe extern "C" fn record(ws: *mut Ws, st: *mut u16, player: u32, node: u32) -> u32 {
    let ws = &mut *ws;
    let st = state(ws, st);
    let r = ws.record(st, player as u16, node).map(|_| 0);
    answer(ws, r)
}

/// Pushes tag `a` (walk at node `b`) with its visibility; 0.
pub(crate) unsafe extern "C" fn tag(ws: *mut Ws, st: *mut u16, tag: u32, node: u32) -> u32 {
    let ws = &mut *ws;
    let st = state(ws, st);
    let r = ws.tag(st, tag as u16, node).map(|_| 0);
    answer(ws, r)
}

/// Runs map operation edge `a`: 1 passes, 0 fails.
pub(crate) unsafe extern "C" fn edge(ws: *mut Ws, st: *mut u16, e: u32, _: u32) -> u32 {
    let ws = &mut *ws;
    let st = state(ws, st);
    let r = ws.edge(st, e).map(u32::from);
    answer(ws, r)
}

/// The first legal edge of `@disjoint` node `a`, or [`NO_LEGAL`].
pub(crate) unsafe extern "C" fn first_legal(ws: *mut Ws, st: *mut u16, node: u32, _: u32) -> u32 {
    let ws = &mut *ws;
    let st = state(ws, st);
    let r = ws.first_legal(st, node).map(|e| e.unwrap_or(NO_LEGAL));
    answer(ws, r)
}

/// The value of computed read `a` (the general case).
pub(crate) unsafe extern "C" fn read(ws: *mut Ws, st: *mut u16, i: u32, _: u32) -> u32 {
    let ws = &*ws;
    let st = state(ws, st);
    raw::read(ws.tables(), st, Operand::Read(i)) as u32
}

/// The slot of computed place `a` (the general case).
pub(crate) unsafe extern "C" fn place(ws: *mut Ws, st: *mut u16, i: u32, _: u32) -> u32 {
    let ws = &mut *ws;
    let st = state(ws, st);
    let r = raw::place(ws.code.clone().game.tables(), st, Place::Gen(i));
    answer(ws, r)
}

/// The dense visited key of move walks at `node`, as the interpreter's:
/// a node reached without tags whose key is one slot has its stamps from
/// `NodeInfo::dense` on (its base and the slot).
pub(crate) fn dense_key(t: &Tables, node: u32) -> Option<(u32, u32)> {
    let info = t.nodes[node as usize];
    if !info.untagged || info.dense == raw::NO_DENSE {
        return None;
    }
    match info.guard {
        Guard::Full(lo, _) => Some((info.dense, lo)),
        Guard::Repeat(i) => Some((info.dense, t.repeat_slots[i as usize][0])),
        Guard::None => None,
    }
}

/// Length of the dense stamps: every node's base plus any symbol (the
/// generated code indexes them unchecked).
fn dense_stamps(t: &Tables) -> usize {
    (0..t.nodes.len() as u32)
        .filter_map(|n| dense_key(t, n))
        .map(|(base, _)| base as usize + t.symbols as usize)
        .max()
        .unwrap_or(0)
}

/// A thread's native walker.
pub(crate) struct Walker {
    ws: Box<Ws>,
    /// The workspace's code, held here too so that a run borrows it
    /// beside the workspace (no reference count changes per walk).
    code: Arc<Code>,
}

// SAFETY: the raw pointers in `Ws` point into buffers it owns; a walker is
// used by one thread at a time (`&mut self`).
unsafe impl Send for Walker {}
// SAFETY: as for `Send`: every use takes `&mut self`.
unsafe impl Sync for Walker {}

impl Walker {
    pub(crate) fn new(code: Arc<Code>) -> Walker {
        Walker {
            ws: Ws::new(code.clone()),
            code,
        }
    }

    fn run(&mut self, st: &mut [u16], node: u32) -> Result<(), RunError> {
        let ws = &mut *self.ws;
        let code = &*self.code;
        let info = code.game.tables().nodes[node as usize];
        if info.guard != Guard::None {
            ws.visit(st, node)?;
        }
        let (first, next) = match info.disjoint {
            true => match ws.first_legal(st, node)? {
                Some(e) => (e, e + 1),
                None => (info.first, info.first),
            },
            false => (info.first, info.end),
        };
        // SAFETY: the code was generated for these tables and checked
        // (`safe.rs`); `st` is a semistate of this game (checked by
        // `moves`); the workspace's buffers match its capacity fields.
        let next = code.bases[node as usize] + (next - info.first);
        // The walk's functions pass control through here (`gen::Parts`):
        // the first pushes the root frame.
        let mut f = code.walk[0];
        let (mut target, mut arg) = (code.targets.len() as u32 + first, next);
        loop {
            // SAFETY: see above; targets are the code's own.
            let r = unsafe { f(ws, st.as_mut_ptr(), target, arg) };
            match r {
                0 => return Ok(()),
                1 => return Err(ws.err.take().unwrap_or(RunError::NotAPlayer(0))),
                _ => {
                    (target, arg) = (r - 2, 0);
                    f = code.walk[code.targets[target as usize] as usize];
                }
            }
        }
    }
}

impl NativeWalker for Walker {
    fn moves(&mut self, st: &mut [u16], node: u32, out: SinkMut<'_>) -> Result<(), RunError> {
        let code = &*self.code;
        let t = code.game.tables();
        // (A maximum, not `all`: it vectorises; in a loop of its own, as the
        // hash's multiplications would keep it from vectorising.)
        let valid = st.len() == self.ws.st_len
            && (node as usize) < t.nodes.len()
            && code.roots[node as usize]
            && (st.iter().fold(0, |m, &v| m.max(v)) as usize) < code.symbols;
        if !valid {
            // Not a state of this game: the interpreter's checked indexing
            // answers it.
            let t = self.ws.code.game.tables();
            let mut w = raw::Walker::new(t);
            return match out {
                SinkMut::List(l) => w.moves(t, st, node, l),
                SinkMut::Effects(l) => w.moves(t, st, node, l),
            };
        }
        let ws = &mut *self.ws;
        ws.want_vis = matches!(out, SinkMut::List(_));
        ws.rec_inline = matches!(out, SinkMut::Effects(_)) as u64;
        ws.changes_len = 0;
        ws.ends_len = 0;
        ws.sink = Some(match out {
            SinkMut::List(l) => {
                l.clear();
                SinkPtr::List(l)
            }
            // (Its walks are replaced by the walk's: `flush`.)
            SinkMut::Effects(l) => SinkPtr::Effects(l),
        });
        // As the interpreter's `begin`.
        ws.log_len = 0;
        ws.frames_len = 0;
        ws.tags_len = 0;
        ws.tag_ids_len = 0;
        ws.sets = false;
        ws.tag_hash = 0;
        ws.steps = 0;
        ws.err = None;
        // (Walks that never read the hash leave it stale. The others start
        // from 0 unless interpreted checks, which memoise by the hash
        // across walks, read it: the visited sets are emptied per walk
        // and compare whole keys, so the hash of a key's difference from
        // the walk's first semistate serves as well.)
        if code.hashes[node as usize] {
            ws.hash = match code.hash_base {
                true => st[..t.user_slots]
                    .iter()
                    .zip(&t.hash_mul)
                    .fold(0u64, |h, (&v, &m)| h.wrapping_add(m.wrapping_mul(v as u64))),
                false => 0,
            };
        }
        ws.dense_gen += 1;
        if ws.dense_gen >= u32::MAX as u64 {
            ws.dense_buf.fill(0);
            ws.dense_gen = 1;
        }
        ws.version = ws.next_version;
        ws.next_version += 1;
        let r = self.run(st, node);
        let ws = &mut *self.ws;
        if r.is_err() {
            ws.rollback(st, 0);
            ws.frames_len = 0;
        }
        if let Some(SinkPtr::Effects(p)) = ws.sink {
            // SAFETY: as in `record`: `p` is the sink `moves` was given.
            ws.flush(unsafe { &mut *p });
        }
        ws.sink = None;
        r
    }

    fn clone_box(&self) -> Box<dyn NativeWalker> {
        Box::new(Walker::new(self.code.clone()))
    }
}
