//! *Writing searches*: checks whose walks write and may go round cycles
//! (rg-engine unfolds only acyclic checks into programs), as functions of
//! their own that run the interpreter's walk of a check (`Walker::run`
//! without moves): depth-first, a node's edges last to first, frames of
//! their own (`Ws::sframes`: next edge, any-assignment symbols left, log
//! length, key hash, version), writes undone through the log, visited
//! checks in the writing programs' set (`gen/visit.rs`, keys without
//! tags, as the interpreter's checks), nested checks as in writing
//! programs. Filtered any-assignments test their comparison before the
//! target's visited check, as the interpreter's filters do, so the visited
//! set holds the same keys. A node with a local check (rg-engine's
//! `local.rs`: stamps under its choice node's frame) is checked in the set
//! as the others: the stamps drop exactly the visits the set drops (but
//! its keys count towards the set's `MAX_KEYS`, as in move walks).

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{Block, BlockArg, FuncRef, InstBuilder, Value};
use std::cell::RefCell;

use cranelift_frontend::{Switch, Variable};
use rg_engine::raw::{Next, Op, Place, Tables, NO_EDGE};

use super::check::{finish_leaf, leaf_gen};
use super::{Func, Gen, Keep, FLAGS};
use crate::rt::{self, Off};

mod region;
mod resume;
mod seek;

pub(crate) use region::{region, search, Region, MAX_SEARCH_EDGES};

/// Emits the search of the checks of `target` that start at `starts`
/// ([`region()`]) as one function with the helpers' signature (`(ws, st,
/// start, _) -> 1 reached, 0 not, FAILED`; a start not among `starts`
/// is taken as the first); `pures` are the generated checks it nests.
pub(crate) fn emit_search(
    t: &Tables,
    (starts, target): (&[u32], u32),
    f: Func<'_, '_>,
    pures: &[Option<FuncRef>],
) {
    let region = region(t, starts, target, &|_| true).expect("a search");
    let mut at = vec![u32::MAX; t.nodes.len()];
    for (k, &n) in region.nodes.iter().enumerate() {
        at[n as usize] = k as u32;
    }
    let mut g = leaf_gen(t, f);
    g.pures = pures;
    // The key hash only for visited checks and nested checks, the version
    // only for nested checks (their memo).
    let guards = region.nodes.iter().any(|&n| {
        let info = t.nodes[n as usize];
        t.edges[info.first as usize..info.end as usize]
            .iter()
            .any(|e| e.guard && e.to != target)
    });
    let nests = !region.nested.is_empty();
    g.here = Keep {
        hash: guards || nests,
        version: nests,
        tags: true,
    };
    let flow = resume::flow(t, &region, &at, starts, target);
    let entry = g.b.current_block().expect("the entry block");
    let start = g.b.block_params(entry)[2];
    let frames = Variable::from_u32(0);
    g.b.declare_var(frames, I64);
    let base = g.ws_load(Off::LOG_LEN);
    let hash = g.ws_load(Off::HASH);
    let version = g.ws_load(Off::VERSION);
    let r = g.call_imm(rt::prog_begin, 0, 0);
    g.check_failed(r);
    let zero = g.b.ins().iconst(I64, 0);
    g.b.def_var(frames, zero);
    let [found, missed, dispatch] = g.blocks();
    let s = Search {
        region: &region,
        at,
        dispatch,
        found,
        target,
        frames,
        flow,
        resumes: RefCell::default(),
    };
    // Per start, its block: its key visited first (its answer does not
    // matter), its frame pushed.
    let enter: Vec<Block> = starts.iter().map(|_| g.b.create_block()).collect();
    match starts {
        [_] => {
            g.b.ins().jump(enter[0], &[]);
        }
        _ => {
            let mut switch = Switch::new();
            for (k, &n) in starts.iter().enumerate().skip(1) {
                switch.set_entry(n as u128, enter[k]);
            }
            switch.emit(&mut g.b, start, enter[0]);
        }
    }
    for (k, &n) in starts.iter().enumerate() {
        g.b.switch_to_block(enter[k]);
        let r = g.call_imm(rt::prog_visit, n, 0);
        g.check_failed(r);
        s.push(&mut g, n, false);
        g.b.ins().jump(dispatch, &[]);
    }
    // Per local edge: its body (parameter: the any-assignment's symbol
    // index), and the block that takes it fresh from a frame.
    let mut body = Vec::with_capacity(region.edges);
    let mut fresh = Vec::with_capacity(region.edges);
    // Per local edge, where a frame takes its next symbol: a filtered
    // any-assignment's seek block ([`Search::seek`]), else its body.
    let mut again = Vec::with_capacity(region.edges);
    let mut seeks = Vec::new();
    for (k, &n) in region.nodes.iter().enumerate() {
        let info = t.nodes[n as usize];
        for i in info.first..info.end {
            let blk = g.b.create_block();
            g.b.append_block_param(blk, I32);
            body.push(blk);
            fresh.push(g.b.create_block());
            match s.seekable(&g, i) {
                Some(tests) => {
                    let seek = g.b.create_block();
                    g.b.append_block_param(seek, I32);
                    again.push(seek);
                    seeks.push((seek, blk, tests, (again.len() - 1) as u32, k));
                }
                None => again.push(blk),
            }
        }
    }
    s.emit_dispatch(&mut g, &again, &fresh, missed);
    for (seek, blk, tests, local, k) in seeks {
        let first = region.first[k];
        s.seek(
            &mut g,
            (seek, blk),
            tests,
            ((k as u32, local), first, &fresh),
        );
    }
    for (k, &n) in region.nodes.iter().enumerate() {
        let info = t.nodes[n as usize];
        for (j, i) in (info.first..info.end).enumerate() {
            let local = (region.first[k] + j as u32) as usize;
            // Taken fresh: an any-assignment starts at its last symbol.
            g.b.switch_to_block(fresh[local]);
            let sub = match t.edges[i as usize].op {
                Op::AssignAny(_, (_, 0)) => None,
                Op::AssignAny(_, (_, len)) => Some(len - 1),
                _ => Some(0),
            };
            if let Op::Cmp(a, b, eq) = t.edges[i as usize].op {
                // A failing comparison wrote nothing: the frame's next edge
                // at once, not through the frames' loop.
                let fails = g.compare(a, b, eq);
                let [skip, ok] = g.blocks();
                g.b.ins().brif(fails, skip, &[], ok, &[]);
                g.b.switch_to_block(skip);
                s.next_edge(&mut g, (k as u32, local as u32), region.first[k], &fresh);
                g.b.switch_to_block(ok);
            }
            match sub {
                Some(sub) => {
                    let v = g.b.ins().iconst(I32, sub as i64);
                    if sub > 0 && again[local] == body[local] {
                        let f = s.top(&mut g);
                        g.b.ins().store(FLAGS, v, f, Off::F_SUB);
                    }
                    g.b.ins().jump(again[local], &[BlockArg::Value(v)]);
                }
                // (No symbol: nothing to try.)
                None => s.next_edge(&mut g, (k as u32, local as u32), region.first[k], &fresh),
            }
            s.emit_edge(&mut g, (i, local as u32), body[local], (&body, &fresh));
        }
    }
    s.emit_resumes(&mut g, (&again, &fresh));
    // Out: every write undone, the key hash and version back.
    let [yes, no] = g.blocks();
    for (from, to) in [(found, yes), (missed, no)] {
        g.b.switch_to_block(from);
        s.rollback(&mut g, base);
        g.ws_store(hash, Off::HASH);
        g.ws_store(version, Off::VERSION);
        g.b.ins().jump(to, &[]);
    }
    finish_leaf(g, yes, no);
}

/// One search's layout.
struct Search<'r> {
    region: &'r Region,
    /// Per node, its index in the region (`u32::MAX`: not in it).
    at: Vec<u32>,
    dispatch: Block,
    found: Block,
    target: u32,
    /// The frames' number (a variable of the function).
    frames: Variable,
    /// What is known of the frames where edges fail ([`resume::flow`]).
    flow: resume::Flow,
    resumes: RefCell<resume::Resumes>,
}

impl Search<'_> {
    /// The top frame's address.
    fn top(&self, g: &mut Gen<'_, '_>) -> Value {
        let n = g.b.use_var(self.frames);
        let frames = g.ws_load(Off::SFRAMES);
        let off = g.b.ins().imul_imm(n, rt::Off::FRAME_SIZE);
        let f = g.b.ins().iadd(frames, off);
        g.b.ins().iadd_imm(f, -rt::Off::FRAME_SIZE)
    }

    /// Pushes node `n`'s frame over all its edges (growing the frames,
    /// or failing past `MAX_FRAMES` as the interpreter); `taken`: its last
    /// edge already taken (the caller goes on at it, as the frames' loop
    /// would).
    fn push(&self, g: &mut Gen<'_, '_>, n: u32, taken: bool) {
        let k = self.at[n as usize] as usize;
        let info = g.t.nodes[n as usize];
        let first = self.region.first[k];
        let next = first + (info.end - info.first) - taken as u32;
        let len = g.b.use_var(self.frames);
        let cap = g.ws_load(Off::SFRAMES_CAP);
        let full = g.b.ins().icmp(IntCC::Equal, len, cap);
        let node = g.b.ins().iconst(I32, n as i64);
        g.grow_if(full, rt::grow_sframes, node);
        let len1 = g.b.ins().iadd_imm(len, 1);
        g.b.def_var(self.frames, len1);
        let f = self.top(g);
        let next = g.b.ins().iconst(I32, next as i64);
        g.b.ins().store(FLAGS, next, f, Off::F_NEXT);
        let first = g.b.ins().iconst(I32, first as i64);
        g.b.ins().store(FLAGS, first, f, Off::F_FIRST);
        let zero = g.b.ins().iconst(I32, 0);
        g.b.ins().store(FLAGS, zero, f, Off::F_SUB);
        let log = g.ws_load(Off::LOG_LEN);
        let log = g.b.ins().ireduce(I32, log);
        g.b.ins().store(FLAGS, log, f, Off::F_LOG);
        if g.here.hash {
            let hash = g.ws_load(Off::HASH);
            g.b.ins().store(FLAGS, hash, f, Off::F_HASH);
        }
        if g.here.version {
            let version = g.ws_load(Off::VERSION);
            g.b.ins().store(FLAGS, version, f, Off::F_VERSION);
        }
    }

    /// The key hash and version back from frame `f`, where kept.
    fn restore_keys(&self, g: &mut Gen<'_, '_>, f: Value) {
        if g.here.hash {
            let hash = g.load(I64, f, Off::F_HASH);
            g.ws_store(hash, Off::HASH);
        }
        if g.here.version {
            let version = g.load(I64, f, Off::F_VERSION);
            g.ws_store(version, Off::VERSION);
        }
    }

    /// Undoes the log down to `len` entries (I64), newest first.
    fn rollback(&self, g: &mut Gen<'_, '_>, len: Value) {
        let [lp, body, done] = g.blocks();
        let cur = g.ws_load(Off::LOG_LEN);
        g.b.ins().jump(lp, &[BlockArg::Value(cur)]);
        let n = g.b.append_block_param(lp, I64);
        g.b.switch_to_block(lp);
        let more = g.b.ins().icmp(IntCC::UnsignedGreaterThan, n, len);
        g.b.ins().brif(more, body, &[], done, &[]);
        g.b.switch_to_block(body);
        let n1 = g.b.ins().iadd_imm(n, -1);
        let log = g.ws_load(Off::LOG);
        let off = g.b.ins().ishl_imm(n1, 3);
        let e = g.b.ins().iadd(log, off);
        g.undo_entry(e, 0);
        g.b.ins().jump(lp, &[BlockArg::Value(n1)]);
        g.b.switch_to_block(done);
        g.ws_store(len, Off::LOG_LEN);
    }

    /// The loop over frames: the top frame's state back, then its next
    /// (edge, symbol): a symbol left of its any-assignment, else its next
    /// edge (taken fresh), else the frame popped; no frame left: `missed`.
    fn emit_dispatch(&self, g: &mut Gen<'_, '_>, body: &[Block], fresh: &[Block], missed: Block) {
        g.b.switch_to_block(self.dispatch);
        let n = g.b.use_var(self.frames);
        let [some, pop] = g.blocks();
        g.b.ins().brif(n, some, &[], missed, &[]);
        g.b.switch_to_block(some);
        let f = self.top(g);
        let log = g.b.ins().load(I32, FLAGS, f, Off::F_LOG);
        let log = g.b.ins().uextend(I64, log);
        self.rollback(g, log);
        let f = self.top(g);
        self.restore_keys(g, f);
        let sub = g.b.ins().load(I32, FLAGS, f, Off::F_SUB);
        let next = g.b.ins().load(I32, FLAGS, f, Off::F_NEXT);
        let [again, other] = g.blocks();
        g.b.ins().brif(sub, again, &[], other, &[]);
        // The same any-assignment, its next symbol.
        g.b.switch_to_block(again);
        let sub1 = g.b.ins().iadd_imm(sub, -1);
        g.b.ins().store(FLAGS, sub1, f, Off::F_SUB);
        g.jump_to_node(next, body, &[BlockArg::Value(sub1)], missed);
        // The next edge, or the frame done.
        g.b.switch_to_block(other);
        let first = g.b.ins().load(I32, FLAGS, f, Off::F_FIRST);
        let left = g.b.ins().icmp(IntCC::UnsignedGreaterThan, next, first);
        let take = g.b.create_block();
        g.b.ins().brif(left, take, &[], pop, &[]);
        g.b.switch_to_block(take);
        let next1 = g.b.ins().iadd_imm(next, -1);
        g.b.ins().store(FLAGS, next1, f, Off::F_NEXT);
        g.jump_to_node(next1, fresh, &[], missed);
        g.b.switch_to_block(pop);
        let n = g.b.use_var(self.frames);
        let n1 = g.b.ins().iadd_imm(n, -1);
        g.b.def_var(self.frames, n1);
        g.b.ins().jump(self.dispatch, &[]);
    }

    /// Edge `i`'s body `blk` (its symbol index the parameter): its action,
    /// then the target (found), its visited check, and on: a frame, the
    /// target's single edge's body, or back to the frames.
    fn emit_edge(
        &self,
        g: &mut Gen<'_, '_>,
        (i, local): (u32, u32),
        blk: Block,
        (body, fresh): (&[Block], &[Block]),
    ) {
        let t = g.t;
        let e = t.edges[i as usize];
        let back = self.fail(g, local, e.op);
        g.b.switch_to_block(blk);
        let sub = g.b.block_params(blk)[0];
        match e.op {
            Op::Skip | Op::Tag(_) | Op::TagVar(_) => {}
            Op::Cmp(a, b, eq) => {
                let fails = g.compare(a, b, eq);
                g.exit_if(fails, back);
            }
            Op::Reach(c, positive) => {
                let fails = g.reach(c, positive);
                g.exit_if(fails, back);
            }
            Op::Assign(p, v) => {
                let v = g.operand(v);
                let slot = g.place(p);
                g.write(slot, v, None);
            }
            Op::AssignAny(p, (start, _)) => {
                let slot = g.place(p);
                let sym = g.any_sym(start, sub);
                g.write(slot, sym, None);
                if e.to != self.target {
                    if let Place::Slot(_) = p {
                        self.any_filter(g, i, back);
                    }
                }
            }
            Op::SetPlayer(v) => {
                let v = g.operand(v);
                g.write(Ok(t.player_slot), v, None);
            }
            Op::CmpMap(..) | Op::AssignMap(_) => unreachable!("not in searches"),
        }
        if e.to == self.target {
            g.b.ins().jump(self.found, &[]);
            return;
        }
        if e.guard {
            let [visit, after] = g.blocks();
            if e.cyclic != NO_EDGE {
                // A ray's visited check only for the values its table marks.
                let (slot, table) = t.cyclic[e.cyclic as usize];
                let v = g.slot(slot);
                let mark = g.fun(table, v);
                g.b.ins().brif(mark, visit, &[], after, &[]);
            } else {
                g.b.ins().jump(visit, &[]);
            }
            g.b.switch_to_block(visit);
            let r = g.prog_visit(e.to);
            g.check_failed(r);
            g.b.ins().brif(r, after, &[], back, &[]);
            g.b.switch_to_block(after);
        }
        match e.next {
            Next::Dead => {
                g.b.ins().jump(back, &[]);
            }
            Next::Frame => {
                let info = t.nodes[e.to as usize];
                if info.end > info.first {
                    // Its last edge at once (nothing to undo or restore).
                    self.push(g, e.to, true);
                    let k = self.at[e.to as usize] as usize;
                    let last = self.region.first[k] + (info.end - info.first) - 1;
                    g.b.ins().jump(fresh[last as usize], &[]);
                } else {
                    self.push(g, e.to, false);
                    g.b.ins().jump(self.dispatch, &[]);
                }
            }
            Next::Inline(j) => {
                let k = self.at[e.to as usize] as usize;
                let local = self.region.first[k] + (j - t.nodes[e.to as usize].first);
                let zero = g.b.ins().iconst(I32, 0);
                g.b.ins()
                    .jump(body[local as usize], &[BlockArg::Value(zero)]);
            }
        }
    }

    /// The top frame, region node `k`'s at its local edge `local` (the
    /// node's first `first`), with nothing written since it was resumed
    /// and no symbol left: its next edge taken fresh, or the frame popped
    /// (the frame below resumed directly where known).
    fn next_edge(&self, g: &mut Gen<'_, '_>, (k, local): (u32, u32), first: u32, fresh: &[Block]) {
        if local > first {
            let f = self.top(g);
            let next = g.b.ins().iconst(I32, local as i64 - 1);
            g.b.ins().store(FLAGS, next, f, Off::F_NEXT);
            g.b.ins().jump(fresh[local as usize - 1], &[]);
        } else {
            let n = g.b.use_var(self.frames);
            let n1 = g.b.ins().iadd_imm(n, -1);
            g.b.def_var(self.frames, n1);
            let below = match self.flow.below[k as usize] {
                Some(a) => self.resume(g, a),
                None => self.dispatch,
            };
            g.b.ins().jump(below, &[]);
        }
    }
}
