//! The run-time side of the generated walk: the workspace it reads and
//! writes (`Ws`, `repr(C)`: the generator uses its field offsets; its
//! buffers in `rt/ws.rs`), the helpers it calls for rare or complex steps
//! (`rt/helpers.rs`: visited checks, reachability checks, recording a
//! move, map operations, growing buffers, errors), and the per-thread
//! [`Walker`] (`rt/walker.rs`).

use std::mem::offset_of;
use std::sync::Arc;

use rg_engine::raw::{self, Prefixes, Seen};
use rg_engine::RunError;

use crate::Code;

mod ahead;
mod helpers;
mod walker;
mod ws;

pub(crate) use helpers::*;
pub(crate) use walker::{dense_key, Walker};

/// A function of the generated walk: `(workspace, semistate, target, arg)
/// -> 0 (done), 1 (error in the workspace) or 2 + the target to go on at`
/// (`gen::Parts`). Target `edges + resume blocks + k` starts a walk at
/// the `k`th of `gen::Parts::direct`; past those (`d` of them), `edges +
/// resume blocks + d + first` with `arg = next` pushes the root's frame
/// over edges `first .. next`, `next`'s resume block given.
pub(crate) type WalkFn = unsafe extern "C" fn(*mut Ws, *mut u16, u32, u32) -> u32;

/// Every helper the generated code calls: `(workspace, semistate, a, b)`.
pub(crate) type Helper = unsafe extern "C" fn(*mut Ws, *mut u16, u32, u32) -> u32;

/// How `moves` starts a walk at a node (`Code::entry`, one load where
/// per-node vectors were read one by one).
#[derive(Clone, Copy, Default)]
pub(crate) struct Entry {
    /// The walk's start at the node ([`WalkFn`]): its own (a node of
    /// `gen::Parts::direct`), or the push of the root frame over the
    /// node's edges (`edges + resumes + direct + first`) and its resume
    /// block (of `end`); a `@disjoint` node's are made per walk from its
    /// first legal edge.
    pub target: u32,
    pub next: u32,
    /// [`Entry::START`] and the others.
    pub flags: u8,
}

impl Entry {
    /// A walk may start here (`gen::parts::starts`): the code knows the
    /// log's length elsewhere from the walks' starts.
    pub const START: u8 = 1;
    /// Walks through it read the key hash (`gen::parts::keep`): `moves`
    /// computes it.
    pub const HASH: u8 = 2;
    /// It has a visited check.
    pub const GUARD: u8 = 4;
    /// It is `@disjoint`.
    pub const DISJOINT: u8 = 8;
    /// A lazy root taken natively (`gen::Parts::lazy`; no [`Entry::START`],
    /// so `moves` leaves its hot path for it): its target's walks first.
    pub const LAZY: u8 = 16;
}

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
    // The fields generated code reads most come first: offsets below 128
    // are one-byte displacements.
    /// The semistate of the running walk (set by the walk functions'
    /// entry; generated code reads it from here once per block), plus
    /// [`ST_BIAS`] bytes: slots below 128 are one-byte displacements from it.
    pub st: *mut u16,
    /// 1 when the generated code records the moves itself (an `Effects`
    /// sink): every move's changes, then per move the end of its changes
    /// and its end node (`[end, node]`).
    pub rec_inline: u64,
    /// The game's `Tables::fun` (constant), the base of the generated
    /// code's table reads (`gen/operand.rs`).
    pub fun: *const u32,
    pub log: *mut LogEntry,
    pub log_len: u64,
    pub log_cap: u64,
    pub frames: *mut Frame,
    pub frames_len: u64,
    pub frames_cap: u64,
    /// The visited key's hash of the user slots (as the interpreter's).
    pub hash: u64,
    pub version: u64,
    pub next_version: u64,
    pub tags_len: u64,
    pub tag_hash: u64,
    /// Per check: `[version, result]`.
    pub memo: *mut [u64; 2],
    /// The move walks' dense visited stamps (one per key of the nodes
    /// whose key is one slot and no tags, `NodeInfo::dense`) and the
    /// running walk's stamp (below `u32::MAX`; wraps by clearing them).
    pub dense: *mut u32,
    pub dense_gen: u64,
    /// `MAX_TAGS` entries.
    pub tags: *mut u16,
    /// How many of `tag_ids` are valid (at most `tags_len`).
    pub tag_ids_len: u64,
    /// Inline edges followed (bounded only in games with `@unique`).
    pub steps: u64,
    /// Generated pure checks' node stamps (one per node) and stamp.
    pub marks: *mut u32,
    pub mark_gen: u64,
    /// Their pending nodes (one per node).
    pub pending: *mut u32,
    pub changes: *mut Change,
    pub changes_len: u64,
    pub changes_cap: u64,
    pub ends: *mut [u32; 2],
    pub ends_len: u64,
    pub ends_cap: u64,
    pub slot_at: *mut u32,
    pub slot_pending: *mut [u32; 2],
    pub slot_gen: u64,
    /// The move walks' local visited stamps (`gen/local.rs`: one per key
    /// of rg-engine's local checks), per node the number of its latest
    /// visit as a local check's frame node, and the last number given.
    pub local: *mut u64,
    pub local_ids: *mut u64,
    pub local_gen: u64,
    /// The frames of writing searches (`gen/search.rs`; their number is
    /// the search's own) and their capacity.
    pub sframes: *mut Frame,
    pub sframes_cap: u64,
    /// The visited set of writing programs and searches (probed by
    /// generated code: `gen/visit.rs`), as the interpreter's of a check.
    pub prog: Seen,
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
    local_buf: Vec<u64>,
    local_ids_buf: Vec<u64>,
    tag_ids: Vec<u32>,
    vis: Vec<u64>,
    prefixes: Prefixes,
    seen: Seen,
    /// Whether `prefixes` and `seen` are the running walk's (emptied at
    /// its first visited check that uses them).
    sets: bool,
    /// The interpreter, for reachability checks.
    interp: raw::Walker,
    map_writes: Vec<(u32, u16)>,
    /// The key of a `@repeat` visited check (reused).
    repeat_vars: Vec<u16>,
    st_len: usize,
    sink: Option<SinkPtr>,
    want_vis: bool,
    err: Option<RunError>,
    /// Moves generated ahead by speculated checks (`rt/ahead.rs`).
    ahead: Option<Box<ahead::Ahead>>,
    /// Whether this workspace's walks may speculate (the one inside
    /// [`ahead::Ahead`] does not).
    speculates: bool,
}

/// The sink of the running enumeration.
enum SinkPtr {
    List(*mut rg_engine::MoveList),
    Effects(*mut rg_engine::Effects),
}

/// The hash of a writing program's visited key: `h` (the key hash of its
/// slots, or their sum) and its node mixed; `Seen::insert` keeps the
/// upper half, which `gen/visit.rs` computes the same way.
#[inline]
pub(crate) fn key_hash(h: u64, node: u32) -> u64 {
    (h ^ (node as u64).wrapping_mul(NODE_MUL)).wrapping_mul(MIX_MUL)
}

/// [`key_hash`]'s multipliers.
pub(crate) const NODE_MUL: u64 = 0x9e37_79b9_7f4a_7c15;
pub(crate) const MIX_MUL: u64 = 0xbf58_476d_1ce4_e5b9;

/// What [`Ws::st`] adds to the semistate's address.
pub(crate) const ST_BIAS: i64 = 128;

/// Field offsets for the generator.
pub(crate) struct Off;

impl Off {
    /// The offset of field `field` (`Seen::OFF_*`) of `Ws::prog`.
    pub const fn prog(field: usize) -> i32 {
        (offset_of!(Ws, prog) + field) as i32
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
    pub const FUN: i32 = offset_of!(Ws, fun) as i32;
    pub const DENSE: i32 = offset_of!(Ws, dense) as i32;
    pub const DENSE_GEN: i32 = offset_of!(Ws, dense_gen) as i32;
    pub const LOCAL: i32 = offset_of!(Ws, local) as i32;
    pub const LOCAL_IDS: i32 = offset_of!(Ws, local_ids) as i32;
    pub const LOCAL_GEN: i32 = offset_of!(Ws, local_gen) as i32;
    pub const SFRAMES: i32 = offset_of!(Ws, sframes) as i32;
    pub const SFRAMES_CAP: i32 = offset_of!(Ws, sframes_cap) as i32;
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
