//! The helpers the generated code calls (`extern "C"`, [`Helper`]) and
//! the workspace's steps behind them: visited, reachability and legality
//! checks, moves' records, tags, map operations, growing buffers, errors.

use rg_engine::raw::{
    self, Guard, Op, Operand, Place, Seen, Tables, EMPTY, MAX_FRAMES, MAX_KEYS, MAX_MOVE_KEYS,
    MAX_RECORDED, MAX_TAGS,
};
use rg_engine::{Bound, RunError, Sink};

use super::*;

impl Ws {
    /// Whether (node, key) is new in the enumeration (and records it), as
    /// the interpreter's `visit` of a move walk.
    pub(super) fn visit(&mut self, st: &[u16], node: u32) -> Result<bool, RunError> {
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
    pub(super) fn prog_visit(&mut self, st: &[u16], node: u32) -> Result<bool, RunError> {
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
            return Ok(self.prog.insert_dense(i, t.dense_size));
        }
        match info.guard {
            Guard::Full(lo, hi) => {
                let h = key_hash(self.hash, node);
                self.prog
                    .insert(h, node, &st[lo as usize..hi as usize], EMPTY)
            }
            Guard::Repeat(i) => {
                let vars = &mut self.repeat_vars;
                vars.clear();
                let mut h = 0u64;
                for &s in &t.repeat_slots[i as usize] {
                    vars.push(st[s as usize]);
                    h = h.wrapping_add(t.hash_mul[s as usize].wrapping_mul(st[s as usize] as u64));
                }
                self.prog.insert(key_hash(h, node), node, vars, EMPTY)
            }
            Guard::None => Ok(true),
        }
    }

    /// Check `c` through the interpreter (memoised by the caller's version).
    pub(super) fn check(&mut self, st: &mut [u16], c: u32) -> Result<bool, RunError> {
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
    pub(super) fn first_legal(
        &mut self,
        st: &mut [u16],
        node: u32,
    ) -> Result<Option<u32>, RunError> {
        let code = self.code.clone();
        let t = code.game.tables();
        let info = t.nodes[node as usize];
        // Its leading leaf checks in one loop (the move walk nests in no
        // check: rg-engine's `Sealed::scan`).
        let (found, scanned) = t.code.scan(st, node);
        if let Some(i) = found {
            return Ok(Some(info.first + i));
        }
        for i in info.first + scanned..info.end {
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
    pub(super) fn edge(&mut self, st: &mut [u16], edge: u32) -> Result<bool, RunError> {
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
    pub(super) fn record(&mut self, st: &[u16], player: u16, node: u32) -> Result<(), RunError> {
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
    pub(super) fn tag(&mut self, st: &[u16], tag: u16, node: u32) -> Result<(), RunError> {
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
pub(super) unsafe fn state<'a>(ws: &Ws, st: *mut u16) -> &'a mut [u16] {
    std::slice::from_raw_parts_mut(st, ws.st_len)
}

pub(super) fn answer(ws: &mut Ws, r: Result<u32, RunError>) -> u32 {
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
pub(super) fn grow(frames: &mut Vec<Frame>, node: u32) -> Result<(), RunError> {
    let n = frames.len();
    if n >= MAX_FRAMES {
        return Err(RunError::TooManyStates {
            bound: Bound::Frames,
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
/// Too many steps along single edges (`@unique` cycles), or too many
/// assignments along them (the workspace's steps tell which).
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
        FAIL_STEPS => raw::too_long((*ws).steps as usize, b),
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
pub(super) fn visit_in(
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
            let slots = &t.repeat_slots[i as usize];
            let mut h = tag_hash.rotate_left(29) ^ node_mix;
            for &s in slots {
                h = h.wrapping_add(t.hash_mul[s as usize].wrapping_mul(st[s as usize] as u64));
            }
            let vars = match slots[..] {
                // (One slot, as most: no copy.)
                [s] => std::slice::from_ref(&st[s as usize]),
                _ => {
                    vars.clear();
                    vars.extend(slots.iter().map(|&s| st[s as usize]));
                    &vars[..]
                }
            };
            seen.insert(raw::mix(h), node, vars, tags)
        }
        Guard::None => Ok(true),
    }
}

/// A writing program starts: its visited set is emptied; 0.
pub(crate) unsafe extern "C" fn prog_begin(ws: *mut Ws, _: *mut u16, _: u32, _: u32) -> u32 {
    (*ws).prog.clear(MAX_KEYS);
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

/// Speculated check `a` of a move walk (`rt/ahead.rs`): 1 holds (the moves
/// it mirrors, generated and kept, are some), 0 undecided.
pub(crate) unsafe extern "C" fn speculate(ws: *mut Ws, st: *mut u16, c: u32, _: u32) -> u32 {
    let ws = &mut *ws;
    let st = state(ws, st);
    ws.speculate(st, c) as u32
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
