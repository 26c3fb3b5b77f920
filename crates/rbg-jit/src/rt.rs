//! The run-time side of the generated code: the workspace it reads and
//! writes (`Ws`, a `repr(C)` struct whose field offsets the generator
//! uses), the few helpers it calls (growing buffers, recording a move), and
//! the per-thread [`Walker`] that implements [`NativeWalker`].

use std::mem::offset_of;
use std::sync::Arc;

use rbg_engine::{ModApp, MoveList, NativeWalker, State};

use crate::gen::RunMode;
use crate::Code;

/// A walk: `(workspace, state, vertex, level, run mode) -> stop`.
pub(crate) type WalkFn = unsafe extern "C" fn(*mut Ws, u32, u32, u32, u32) -> u32;

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
    /// Pending nodes `q | v << 32`.
    pub stack: *mut u64,
    pub stack_len: u64,
    pub stack_cap: u64,
    pub levels: *mut LevelRec,
    pub levels_len: u64,
    /// The move prefix being built, `action | vertex << 32` per modifier.
    pub cur: *mut u64,
    pub cur_len: u64,
    pub cur_cap: u64,
    /// Memoised pattern results, `version << 1 | result`.
    pub memo: *mut u64,
    pub version: u64,
    pub last_version: u64,
    /// The keeper's switch: player, rules index, position.
    pub switched: [u32; 3],
    // Owned by Rust only.
    stack_buf: Vec<u64>,
    level_recs: Vec<LevelRec>,
    stamp_bufs: Vec<Vec<u32>>,
    cur_buf: Vec<u64>,
    memo_buf: Vec<u64>,
    level_size: usize,
    out: MoveList,
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
            stack_buf: Vec::with_capacity(64),
            level_recs: Vec::new(),
            stamp_bufs: Vec::new(),
            cur_buf: Vec::with_capacity(16),
            memo_buf: vec![0; c.num_memos as usize * c.num_vertices as usize],
            level_size: c.num_slots as usize * c.num_vertices as usize,
            out: MoveList::default(),
        });
        ws.stack = ws.stack_buf.as_mut_ptr();
        ws.stack_cap = ws.stack_buf.capacity() as u64;
        ws.cur = ws.cur_buf.as_mut_ptr();
        ws.cur_cap = ws.cur_buf.capacity() as u64;
        ws.memo = ws.memo_buf.as_mut_ptr();
        ws
    }

    fn enter(&mut self, s: &mut State) {
        let b = s.raw_buffers();
        (self.board, self.counts, self.vars, self.bits) = (b.board, b.counts, b.vars, b.bits);
        self.last_version += 1;
        self.version = self.last_version;
        self.cur_len = 0;
    }
}

/// Doubles the node stack (called by generated code when it is full).
pub(crate) extern "C" fn grow_stack(ws: *mut Ws) {
    // SAFETY: generated code passes the workspace it was called with.
    let ws = unsafe { &mut *ws };
    // SAFETY: the generated code keeps `stack_len <= capacity` and wrote
    // every entry below `stack_len`.
    unsafe { ws.stack_buf.set_len(ws.stack_len as usize) };
    ws.stack_buf.reserve(ws.stack_buf.capacity().max(64));
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

/// Records a legal move: the prefix plus the final switch `action` at
/// `vertex`.
pub(crate) extern "C" fn push_move(ws: *mut Ws, action: u32, vertex: u32) {
    // SAFETY: as in `grow_stack`.
    let ws = unsafe { &mut *ws };
    // SAFETY: the generated code wrote every entry below `cur_len`, which
    // stays within the buffer's capacity.
    let cur = unsafe { std::slice::from_raw_parts(ws.cur, ws.cur_len as usize) };
    let mut prefix = [ModApp {
        action: 0,
        vertex: 0,
    }; 8];
    if cur.len() <= prefix.len() {
        for (p, &x) in prefix.iter_mut().zip(cur) {
            *p = unpack(x);
        }
        ws.out
            .push_with(&prefix[..cur.len()], ModApp { action, vertex });
    } else {
        let mut m: Vec<ModApp> = cur.iter().map(|&x| unpack(x)).collect();
        m.push(ModApp { action, vertex });
        ws.out.push(&m);
    }
}

fn unpack(x: u64) -> ModApp {
    ModApp {
        action: x as u32,
        vertex: (x >> 32) as u32,
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

    fn run(&mut self, mode: RunMode, s: &mut State, q: u32, v: u32) -> bool {
        self.ws.enter(s);
        // SAFETY: the walk is generated for this game, `s` is a state of this
        // game (checked by the caller), and the workspace points at its
        // buffers for the duration of the call.
        let stop = unsafe { (self.code.rules)(&mut *self.ws, q, v, 0, mode as u32) } != 0;
        self.ws.board = std::ptr::null_mut();
        stop
    }
}

impl NativeWalker for Walker {
    fn legal_moves(&mut self, s: &mut State, out: &mut MoveList) {
        out.clear();
        std::mem::swap(&mut self.ws.out, out);
        let (_, q, v) = s.raw_control();
        self.run(RunMode::Collect, s, q, v);
        std::mem::swap(&mut self.ws.out, out);
    }

    fn has_move(&mut self, s: &mut State) -> bool {
        let (_, q, v) = s.raw_control();
        self.run(RunMode::Exists, s, q, v)
    }

    fn keeper_move(&mut self, s: &mut State) -> Option<(u32, u32, u32)> {
        let (_, q, v) = s.raw_control();
        // A walk that found no move has undone everything it applied.
        self.run(RunMode::Keeper, s, q, v).then(|| {
            let [p, r, pos] = self.ws.switched;
            (p, r, pos)
        })
    }

    fn clone_box(&self) -> Box<dyn NativeWalker> {
        Box::new(Walker::new(self.code.clone()))
    }
}
