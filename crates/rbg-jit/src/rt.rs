//! The run-time side of the generated code: the workspace it reads and
//! writes (`Ws`, a `repr(C)` struct whose field offsets the generator
//! uses), the few helpers it calls (growing buffers, recording a move), and
//! the per-thread [`Walker`] that implements [`NativeWalker`].
//!
//! The workspace lives in Cranelift's pinned register (r15 on x86-64, x21
//! on aarch64, callee-saved for Rust): the two functions Rust calls
//! (`gen::emit_entry`) save it, set it and store the run mode, and the
//! walks read it and the buffer pointers from it at each use; a level's
//! number, stack base and stamps live in a stack slot per inlining depth.
//! So no value spans a whole walk function: such values were spilled
//! anyway, and regalloc2 pays for each one per block it spans at every
//! virtual register (183M instructions of chess's code generation, 29M
//! after).

use std::mem::offset_of;
use std::sync::Arc;

use rbg_engine::raw::{Change, Compiled, Fault, FaultKind, PathLog, NONE};
use rbg_engine::{limits, ModApp, MoveList, NativeWalker, State};

use crate::gen::RunMode;
use crate::Code;

/// A walk: `(workspace, state, vertex, level, run mode) -> stop`.
pub(crate) type WalkFn = unsafe extern "C" fn(*mut Ws, u32, u32, u32, u32) -> u32;

/// The keeper's prefix: `(workspace, state, vertex) -> moved`.
pub(crate) type KeeperFn = unsafe extern "C" fn(*mut Ws, u32, u32) -> u32;

/// Tag bit of an undo-log entry for a variable (without it: a vertex).
pub(crate) const LOG_VAR: u32 = 1 << 31;

/// Visited stamps of one level: the generation and the stamp buffer.
#[repr(C)]
pub(crate) struct LevelRec {
    pub gen: u32,
    pub stamps: *mut u32,
}

/// The workspace of the generated walks. The first fields are read and
/// written by generated code at the offsets of [`Off`]; the `Vec`s behind
/// the raw pointers are owned by the Rust fields below them.
#[repr(C)]
pub(crate) struct Ws {
    pub board: *mut u32,
    pub counts: *mut i32,
    pub vars: *mut i32,
    pub bits: *mut u64,
    /// Pending nodes: `q` then `v`, 4 bytes each (8-byte entries).
    pub stack: *mut u64,
    pub stack_len: u64,
    pub stack_cap: u64,
    pub levels: *mut LevelRec,
    pub levels_len: u64,
    /// The move prefix being built.
    pub cur: *mut ModApp,
    pub cur_len: u64,
    pub cur_cap: u64,
    /// Memoised pattern results, `version << 1 | result`.
    pub memo: *mut u64,
    pub version: u64,
    pub last_version: u64,
    /// The keeper's switch: player, rules index, position.
    pub switched: [u32; 3],
    /// The keeper's prefix's undo log: `(vertex or LOG_VAR | variable,
    /// old value)`, `MAX_STEPS` entries.
    pub log: *mut [u32; 2],
    pub log_len: u64,
    /// The output list's buffers (of the running `legal_moves` call).
    pub out_atoms: *mut ModApp,
    pub out_atoms_len: u64,
    pub out_atoms_cap: u64,
    pub out_ends: *mut u32,
    pub out_ends_len: u64,
    pub out_ends_cap: u64,
    /// A keyed walk's keys (`crate::compile_keyed`): one per move, beside
    /// `out_ends` (the same length, at least its capacity).
    pub out_keys: *mut u32,
    /// A keyed walk's key of the move prefix's first atom (`cur[0]`),
    /// written where that atom is pushed.
    pub key0: u32,
    /// Modifier applications left to the search; 0 after a fault, so that
    /// every further one calls [`watch`] (which stops the walk).
    pub budget: u64,
    /// Nonzero after a fault: the keeper does not keep its move.
    pub faulted: u32,
    /// The walk's run mode (`RunMode`), set on entry from Rust.
    pub run: u32,
    // Owned by Rust only.
    /// The bounds of the search (see [`watch`]).
    bounds: Bounds,
    stack_buf: Vec<u64>,
    level_recs: Vec<LevelRec>,
    stamp_bufs: Vec<Vec<u32>>,
    cur_buf: Vec<ModApp>,
    memo_buf: Vec<u64>,
    log_buf: Vec<[u32; 2]>,
    level_size: usize,
    /// The output list's vectors during `legal_moves` (and the keys'
    /// during a keyed walk, else null).
    out: (*mut Vec<ModApp>, *mut Vec<u32>, *mut Vec<u32>),
}

/// Byte offsets of the workspace fields the generated code uses.
pub(crate) struct Off;

impl Off {
    pub const BOARD: i32 = offset_of!(Ws, board) as i32;
    pub const COUNTS: i32 = offset_of!(Ws, counts) as i32;
    pub const VARS: i32 = offset_of!(Ws, vars) as i32;
    pub const BITS: i32 = offset_of!(Ws, bits) as i32;
    pub const STACK: i32 = offset_of!(Ws, stack) as i32;
    pub const STACK_LEN: i32 = offset_of!(Ws, stack_len) as i32;
    pub const STACK_CAP: i32 = offset_of!(Ws, stack_cap) as i32;
    pub const LEVELS: i32 = offset_of!(Ws, levels) as i32;
    pub const LEVELS_LEN: i32 = offset_of!(Ws, levels_len) as i32;
    pub const CUR: i32 = offset_of!(Ws, cur) as i32;
    pub const CUR_LEN: i32 = offset_of!(Ws, cur_len) as i32;
    pub const CUR_CAP: i32 = offset_of!(Ws, cur_cap) as i32;
    pub const MEMO: i32 = offset_of!(Ws, memo) as i32;
    pub const VERSION: i32 = offset_of!(Ws, version) as i32;
    pub const LAST_VERSION: i32 = offset_of!(Ws, last_version) as i32;
    pub const SWITCHED: i32 = offset_of!(Ws, switched) as i32;
    pub const LOG: i32 = offset_of!(Ws, log) as i32;
    pub const LOG_LEN: i32 = offset_of!(Ws, log_len) as i32;
    pub const OUT_ATOMS: i32 = offset_of!(Ws, out_atoms) as i32;
    pub const OUT_ATOMS_LEN: i32 = offset_of!(Ws, out_atoms_len) as i32;
    pub const OUT_ATOMS_CAP: i32 = offset_of!(Ws, out_atoms_cap) as i32;
    pub const OUT_ENDS: i32 = offset_of!(Ws, out_ends) as i32;
    pub const OUT_ENDS_LEN: i32 = offset_of!(Ws, out_ends_len) as i32;
    pub const OUT_ENDS_CAP: i32 = offset_of!(Ws, out_ends_cap) as i32;
    pub const OUT_KEYS: i32 = offset_of!(Ws, out_keys) as i32;
    pub const KEY0: i32 = offset_of!(Ws, key0) as i32;
    pub const BUDGET: i32 = offset_of!(Ws, budget) as i32;
    pub const RUN: i32 = offset_of!(Ws, run) as i32;
    pub const LEVEL_GEN: i32 = offset_of!(LevelRec, gen) as i32;
    pub const LEVEL_STAMPS: i32 = offset_of!(LevelRec, stamps) as i32;
    pub const LEVEL_SIZE: i64 = std::mem::size_of::<LevelRec>() as i64;
}

impl Ws {
    fn new(code: &Code) -> Box<Ws> {
        let c = &code.c;
        let mut ws = Box::new(Ws {
            board: std::ptr::null_mut(),
            counts: std::ptr::null_mut(),
            vars: std::ptr::null_mut(),
            bits: std::ptr::null_mut(),
            stack: std::ptr::null_mut(),
            stack_len: 0,
            stack_cap: 0,
            levels: std::ptr::null_mut(),
            levels_len: 0,
            cur: std::ptr::null_mut(),
            cur_len: 0,
            cur_cap: 0,
            memo: std::ptr::null_mut(),
            version: 0,
            last_version: 0,
            switched: [0; 3],
            log: std::ptr::null_mut(),
            log_len: 0,
            out_atoms: std::ptr::null_mut(),
            out_atoms_len: 0,
            out_atoms_cap: 0,
            out_ends: std::ptr::null_mut(),
            out_ends_len: 0,
            out_ends_cap: 0,
            out_keys: std::ptr::null_mut(),
            key0: 0,
            budget: 0,
            faulted: 0,
            run: 0,
            bounds: Bounds {
                c: code.c.clone(),
                state: std::ptr::null(),
                max_levels: max_levels(code),
                path: PathLog::default(),
                fault: None,
            },
            stack_buf: Vec::with_capacity(64),
            level_recs: Vec::new(),
            stamp_bufs: Vec::new(),
            cur_buf: Vec::with_capacity(16),
            memo_buf: vec![0; c.num_memos as usize * c.num_vertices as usize],
            log_buf: vec![[0; 2]; crate::gen::KEEPER_STEPS],
            level_size: c.num_slots as usize * c.num_vertices as usize,
            out: (
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            ),
        });
        ws.stack = ws.stack_buf.as_mut_ptr();
        ws.stack_cap = ws.stack_buf.capacity() as u64;
        ws.cur = ws.cur_buf.as_mut_ptr();
        ws.cur_cap = ws.cur_buf.capacity() as u64;
        ws.memo = ws.memo_buf.as_mut_ptr();
        ws.log = ws.log_buf.as_mut_ptr();
        ws
    }

    fn enter(&mut self, s: &mut State) {
        self.budget = limits::MAX_SEARCH_MODIFIERS;
        self.faulted = 0;
        self.bounds.state = s;
        self.bounds.path.clear();
        self.bounds.fault = None;
        let b = s.raw_buffers();
        (self.board, self.counts, self.vars, self.bits) = (b.board, b.counts, b.vars, b.bits);
        self.last_version += 1;
        self.version = self.last_version;
        self.cur_len = 0;
    }
}

/// What [`watch`] needs besides the generated code's fields.
struct Bounds {
    c: Arc<Compiled>,
    /// The state of the running walk.
    state: *const State,
    /// The deepest level a modifier application may start.
    max_levels: usize,
    path: PathLog,
    fault: Option<Fault>,
}

/// The native stack a search may take: the walks recurse once per level
/// (a modifier application or a nested pattern), so the levels of a
/// search are also limited to this over the largest frame of a walk.
/// Searches then fit, like the interpreter's, the 2 MiB stack of a
/// spawned thread.
const STACK_BUDGET: usize = 1 << 20;

/// The deepest level of a search: the interpreter's limit
/// (`raw::max_levels`), or fewer when the walks' frames would take more
/// than [`STACK_BUDGET`].
pub(crate) fn max_levels(code: &Code) -> usize {
    // The frame plus the return address, the saved frame pointer and
    // alignment.
    let per_level = code.frame as usize + 64;
    rbg_engine::raw::max_levels(&code.c).min(STACK_BUDGET / per_level)
}

impl Ws {
    /// Records a fault at action `a`: the walk stops at its next modifier
    /// application (or at once, when it is in one), undoing everything.
    #[cold]
    fn fail(&mut self, kind: FaultKind, a: u32) {
        if self.bounds.fault.is_none() {
            self.bounds.fault = Some(Fault { kind, action: a });
        }
        self.faulted = 1;
        self.budget = 0;
    }
}

/// Called by generated code before modifier `a`, applied at `v`, starts
/// level `level` (`level >= limits::WATCH_FROM_LEVEL`, or the budget is
/// spent, or after a fault); `cell` and `old` are what it replaced (a
/// vertex and its piece, or `num_vertices` plus a variable and its value).
/// Returns nonzero to stop the walk (the caller undoes the modifier): on a
/// fault, past the limits, or when the state repeats an earlier level's.
/// The interpreter's `Searcher::descend_watched`.
pub(crate) extern "C" fn watch(
    ws: *mut Ws,
    a: u32,
    v: u32,
    level: u32,
    cell: u32,
    old: i32,
) -> u32 {
    // SAFETY: as in `grow_stack`.
    let ws = unsafe { &mut *ws };
    let level = level as usize;
    let fault = if ws.bounds.fault.is_some() {
        return 1;
    } else if ws.budget == 0 {
        FaultKind::LongSearch
    } else if level >= ws.bounds.max_levels {
        FaultKind::LongMove
    } else {
        let b = &mut ws.bounds;
        let nv = b.c.num_vertices;
        let change = match cell.checked_sub(nv) {
            None => Change::Piece(cell, old as u32),
            Some(var) => Change::Var(var, old),
        };
        // SAFETY: `state` is the state of the running walk (set by
        // `Ws::enter`); generated code writes it only between calls.
        let s = unsafe { &*b.state };
        if !b.path.enter(&b.c, s, level, a, v, change) {
            ws.budget -= 1;
            return 0;
        }
        FaultKind::EndlessMove
    };
    ws.fail(fault, a);
    1
}

/// Where a rules walk stopped below a modifier that put piece `p` on `v`
/// over `old` (`p` is `NONE` for a variable's): whether the keeper keeps
/// the move (a keeper's run, no fault); then settles the counts (`stale`
/// bit 0) and the piece lists (bit 1) the modifier left stale
/// (`gen/lazy.rs`). Modifiers settle from the deepest level up, so a list
/// bit is set from the board as it ends.
pub(crate) extern "C" fn kept(ws: *mut Ws, v: u32, p: u32, old: u32, stale: u32) -> u32 {
    // SAFETY: as in `grow_stack`.
    let ws = unsafe { &mut *ws };
    if ws.run != RunMode::Keeper as u32 || ws.faulted != 0 {
        return 0;
    }
    if p == NONE {
        return 1;
    }
    let c = &ws.bounds.c;
    // SAFETY: the fields point at the running state's board, counts and
    // piece lists, which have these lengths (a state of this game).
    let (board, counts, bits) = unsafe {
        (
            std::slice::from_raw_parts(ws.board, c.num_vertices as usize),
            std::slice::from_raw_parts_mut(ws.counts, c.num_pieces as usize),
            std::slice::from_raw_parts_mut(ws.bits, c.num_lists as usize * c.words as usize),
        )
    };
    if stale & 1 != 0 {
        counts[old as usize] -= 1;
        counts[p as usize] += 1;
    }
    if stale & 2 != 0 {
        let v = v as usize;
        let mut bit = |piece: u32, set: bool| {
            let k = c.piece_list[piece as usize];
            if k != NONE {
                let w = &mut bits[k as usize * c.words as usize + v / 64];
                match set {
                    true => *w |= 1 << (v % 64),
                    false => *w &= !(1 << (v % 64)),
                }
            }
        };
        bit(old, false);
        bit(board[v], true);
    }
    1
}

/// Entries `grow_stack` leaves free at least: a state's block pushes up
/// to this many after one check (`gen.rs`, `reserve`).
pub(crate) const STACK_SLACK: usize = 64;

/// Doubles the node stack, leaving at least `STACK_SLACK` entries free
/// (called by generated code when it is full, or short of a state's room).
pub(crate) extern "C" fn grow_stack(ws: *mut Ws) {
    // SAFETY: generated code passes the workspace it was called with.
    let ws = unsafe { &mut *ws };
    // SAFETY: the generated code keeps `stack_len <= capacity` and wrote
    // every entry below `stack_len`.
    unsafe { ws.stack_buf.set_len(ws.stack_len as usize) };
    ws.stack_buf
        .reserve(ws.stack_buf.capacity().max(STACK_SLACK));
    ws.stack = ws.stack_buf.as_mut_ptr();
    ws.stack_cap = ws.stack_buf.capacity() as u64;
}

/// Doubles the move prefix buffer.
pub(crate) extern "C" fn grow_cur(ws: *mut Ws) {
    // SAFETY: as in `grow_stack`.
    let ws = unsafe { &mut *ws };
    // SAFETY: as in `grow_stack`.
    unsafe { ws.cur_buf.set_len(ws.cur_len as usize) };
    ws.cur_buf.reserve(ws.cur_buf.capacity().max(16));
    ws.cur = ws.cur_buf.as_mut_ptr();
    ws.cur_cap = ws.cur_buf.capacity() as u64;
}

/// Starts level `level` when the inline path cannot (a new level, or a
/// generation about to wrap): returns its record with a fresh generation.
pub(crate) extern "C" fn level_slow(ws: *mut Ws, level: u32) -> *mut LevelRec {
    // SAFETY: as in `grow_stack`.
    let ws = unsafe { &mut *ws };
    let level = level as usize;
    while ws.level_recs.len() <= level {
        let mut buf = vec![0u32; ws.level_size];
        ws.level_recs.push(LevelRec {
            gen: 0,
            stamps: buf.as_mut_ptr(),
        });
        ws.stamp_bufs.push(buf);
    }
    ws.levels = ws.level_recs.as_mut_ptr();
    ws.levels_len = ws.level_recs.len() as u64;
    let rec = &mut ws.level_recs[level];
    rec.gen = rec.gen.wrapping_add(1);
    if rec.gen == 0 {
        ws.stamp_bufs[level].iter_mut().for_each(|x| *x = 0);
        rec.gen = 1;
    }
    rec
}

/// Makes room in the output list for `need` atoms and one more move (called
/// by the generated `record` of switch `a` when the buffers are full).
/// Past `limits::MAX_LISTED_MODIFIERS` atoms it is a fault (the list still
/// grows to `need`; the walk stops at its next modifier application).
pub(crate) extern "C" fn grow_out(ws: *mut Ws, need: u64, a: u32) {
    // SAFETY: as in `grow_stack`.
    let ws = unsafe { &mut *ws };
    // SAFETY: `out` points at the list of the running `legal_moves` call.
    let (atoms, ends) = unsafe { (&mut *ws.out.0, &mut *ws.out.1) };
    // SAFETY: as the list's: the keys of a running keyed walk, or null.
    let keys = unsafe { ws.out.2.as_mut() };
    // SAFETY: the generated code wrote the atoms and ends below the
    // recorded lengths, within the lists' capacities.
    unsafe {
        atoms.set_len(ws.out_atoms_len as usize);
        ends.set_len(ws.out_ends_len as usize);
    }
    let max = limits::MAX_LISTED_MODIFIERS;
    let need = need as usize;
    if need > max {
        ws.fail(FaultKind::ManyMoves, a);
    }
    // Double, but not past the limit (plus one) unless needed.
    let len = atoms.len();
    atoms.reserve((need - len).max(len.min((max + 1).saturating_sub(len))));
    ends.reserve(ends.len().max(16));
    ws.out_atoms = atoms.as_mut_ptr();
    ws.out_atoms_cap = atoms.capacity() as u64;
    ws.out_ends = ends.as_mut_ptr();
    ws.out_ends_cap = ends.capacity() as u64;
    if let Some(keys) = keys {
        // SAFETY: a keyed walk wrote a key beside every end.
        unsafe { keys.set_len(ws.out_ends_len as usize) };
        keys.reserve(ends.capacity() - keys.len());
        ws.out_keys = keys.as_mut_ptr();
    }
}

/// A thread's workspace running a game's generated code.
pub(crate) struct Walker {
    code: Arc<Code>,
    ws: Box<Ws>,
}

// SAFETY: the raw pointers of `Ws` point into buffers the walker owns (or
// into the state of the call running, during a call only); the code is
// immutable.
unsafe impl Send for Walker {}

impl Walker {
    pub(crate) fn new(code: Arc<Code>) -> Walker {
        let ws = Ws::new(&code);
        Walker { code, ws }
    }

    /// Runs the rules' walk from `(q, v)`; whether it stopped, or its fault.
    fn run(&mut self, mode: RunMode, s: &mut State, q: u32, v: u32) -> Result<bool, Fault> {
        self.run_fn(self.code.rules, mode, s, q, v)
    }

    /// [`Walker::run`] of `walk` (the rules' walk or its keyed copy).
    fn run_fn(
        &mut self,
        walk: WalkFn,
        mode: RunMode,
        s: &mut State,
        q: u32,
        v: u32,
    ) -> Result<bool, Fault> {
        self.ws.enter(s);
        // SAFETY: the walk is generated for this game, `s` is a state of this
        // game (checked by the caller), and the workspace points at its
        // buffers for the duration of the call.
        let stop = unsafe { walk(&mut *self.ws, q, v, 0, mode as u32) } != 0;
        self.ws.board = std::ptr::null_mut();
        self.ws.bounds.state = std::ptr::null();
        match self.ws.bounds.fault.take() {
            None => Ok(stop),
            Some(f) => Err(f),
        }
    }
}

impl Walker {
    /// All legal moves into `out`, by the rules' walk (`walk` and `keys`
    /// none) or by the keyed walk writing each move's key into `keys`.
    /// Inlined into both callers, so that the plain walk's tests of `keys`
    /// are folded away.
    #[inline(always)]
    fn collect(
        &mut self,
        s: &mut State,
        out: &mut MoveList,
        walk: WalkFn,
        keys: Option<&mut Vec<u32>>,
    ) -> Result<(), Fault> {
        out.clear();
        let (atoms, ends) = out.raw_parts_mut();
        let ws = &mut *self.ws;
        (ws.out_atoms, ws.out_atoms_len) = (atoms.as_mut_ptr(), 0);
        ws.out_atoms_cap = atoms.capacity() as u64;
        (ws.out_ends, ws.out_ends_len) = (ends.as_mut_ptr(), 0);
        ws.out_ends_cap = ends.capacity() as u64;
        let keys: *mut Vec<u32> = match keys {
            Some(k) => {
                k.clear();
                // A key beside every end: at least the ends' capacity.
                if k.capacity() < ends.capacity() {
                    k.reserve(ends.capacity());
                }
                ws.out_keys = k.as_mut_ptr();
                k
            }
            None => std::ptr::null_mut(),
        };
        ws.out = (atoms, ends, keys);
        let (_, q, v) = s.raw_control();
        let r = self.run_fn(walk, RunMode::Collect, s, q, v);
        let ws = &mut *self.ws;
        // SAFETY: the generated code wrote this many atoms and ends (and
        // keys, in a keyed walk), within the capacities (`grow_out` keeps
        // the vectors' buffers and the workspace's pointers in step).
        unsafe {
            (*ws.out.0).set_len(ws.out_atoms_len as usize);
            (*ws.out.1).set_len(ws.out_ends_len as usize);
            if let Some(k) = ws.out.2.as_mut() {
                k.set_len(ws.out_ends_len as usize);
            }
        }
        ws.out = (
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        );
        r.map(|_| ())
    }
}

impl NativeWalker for Walker {
    fn legal_moves(&mut self, s: &mut State, out: &mut MoveList) -> Result<(), Fault> {
        self.collect(s, out, self.code.rules, None)
    }

    fn legal_moves_keyed(
        &mut self,
        s: &mut State,
        out: &mut MoveList,
        keys: &mut Vec<u32>,
    ) -> Result<bool, Fault> {
        match self.code.keyed.as_ref().map(|k| k.rules) {
            Some(walk) => self.collect(s, out, walk, Some(keys)).map(|_| true),
            None => self.collect(s, out, self.code.rules, None).map(|_| false),
        }
    }

    fn has_move(&mut self, s: &mut State) -> Result<bool, Fault> {
        let (_, q, v) = s.raw_control();
        self.run(RunMode::Exists, s, q, v)
    }

    fn keeper_move(&mut self, s: &mut State) -> Result<Option<(u32, u32, u32)>, Fault> {
        let (_, q, v) = s.raw_control();
        self.ws.enter(s);
        // SAFETY: as in `run`. A keeper that found no move has undone
        // everything it applied (so has a walk stopped by a fault, except
        // the prefix's modifiers: the state is then valid but unspecified,
        // as `GameError` says).
        let moved = unsafe { (self.code.keeper)(&mut *self.ws, q, v) } != 0;
        self.ws.board = std::ptr::null_mut();
        self.ws.bounds.state = std::ptr::null();
        if let Some(f) = self.ws.bounds.fault.take() {
            return Err(f);
        }
        Ok(moved.then(|| {
            let [p, r, pos] = self.ws.switched;
            (p, r, pos)
        }))
    }

    fn max_levels(&self) -> usize {
        self.ws.bounds.max_levels
    }

    fn clone_box(&self) -> Box<dyn NativeWalker> {
        Box::new(Walker::new(self.code.clone()))
    }
}
