//! Frames of the generated walk: the function's entry (edges entered
//! from other functions, resumes, the root's push), the frame pushes, the
//! backtrack block with its dispatch on the resume number, the resume
//! blocks, and undoing a known chain of pushes ([`Chain`]).

use cranelift_codegen::entity::packed_option::ReservedValue;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I16, I32, I64};
use cranelift_codegen::ir::{Block, BlockArg, InstBuilder, JumpTableData, Value};
use rg_engine::raw::{Next, Op};

use super::parts::{Chain, Tops, ANY_RESUME, NO_FRAME};
use super::{Gen, FLAGS};
use crate::rt::{self, Off};

/// Resume numbers a backtrack site tells apart by comparisons at most
/// ([`Gen::dispatch_among`]); more take a jump table of their own, where
/// they span fewer than [`AMONG_RANGE`] numbers (else the shared one).
const AMONG_BRANCHES: usize = 8;

/// See [`AMONG_BRANCHES`].
const AMONG_RANGE: u32 = 1024;

impl Gen<'_, '_> {
    /// The entry: go on at target `target` ([`super::Parts`]). Targets
    /// from `edges + resumes` start walks (every walk enters so: tested
    /// first): the `k`th of [`super::Parts::direct`] at its own block,
    /// the others by the shared push, `arg` the root frame's resume block.
    /// Edges entered from other functions and every resume block are the
    /// targets below.
    pub(super) fn emit_entry(&mut self, target: Value, arg: Value) {
        let edges = self.t.edges.len() as u32;
        let total = edges + self.rnode.len() as u32;
        let [to_edge, not_push, to_resume, to_push, shared] = self.blocks();
        let is_push =
            self.b
                .ins()
                .icmp_imm(IntCC::UnsignedGreaterThanOrEqual, target, total as i64);
        self.b.ins().brif(is_push, to_push, &[], not_push, &[]);
        self.b.switch_to_block(not_push);
        let is_edge = self
            .b
            .ins()
            .icmp_imm(IntCC::UnsignedLessThan, target, edges as i64);
        self.b.ins().brif(is_edge, to_edge, &[], to_resume, &[]);
        // Edges entered from other functions (with no symbol), numbered
        // from this function's first.
        self.b.switch_to_block(to_edge);
        let part = |n: u32| self.node_part[n as usize];
        let mut entered = vec![false; self.t.edges.len()];
        for (i, e) in self.t.edges.iter().enumerate() {
            let from = part(self.edge_node[i]);
            if let (Next::Inline(k), true) = (e.next, from != u32::MAX && from != self.part) {
                entered[k as usize] |= part(self.edge_node[k as usize]) == self.part;
            }
        }
        // A direct start holding no frame (a lazy root's target) is
        // entered at its edge, from the first function's start.
        for &n in self.direct {
            if self.bases[n as usize] == u32::MAX && part(n) == self.part && self.part != 0 {
                entered[self.t.nodes[n as usize].first as usize] = true;
            }
        }
        let e0 = entered.iter().position(|&x| x).unwrap_or(0);
        let e1 = entered.iter().rposition(|&x| x).map_or(0, |k| k + 1);
        let zero = self.b.ins().iconst(I32, 0);
        let calls: Vec<_> = (e0..e1)
            .map(|k| match entered[k] {
                true => {
                    let args = self.edge_args(k, Some(zero));
                    self.b.func.dfg.block_call(self.edges[k], &args)
                }
                false => self.b.func.dfg.block_call(self.fail, &[]),
            })
            .collect();
        let def = self.b.func.dfg.block_call(self.fail, &[]);
        let jt = self.b.create_jump_table(JumpTableData::new(def, &calls));
        let local = self.b.ins().iadd_imm(target, -(e0 as i64));
        self.b.ins().br_table(local, jt);
        self.b.switch_to_block(to_resume);
        let f = self.top_frame();
        let next = self.b.ins().iadd_imm(target, -(edges as i64));
        self.dispatch(next, f, true);
        // Walks' starts.
        self.b.switch_to_block(to_push);
        let direct = self.direct;
        let k = self.b.ins().iadd_imm(target, -(total as i64));
        let blocks: Vec<Block> = direct.iter().map(|_| self.b.create_block()).collect();
        let calls: Vec<_> = blocks
            .iter()
            .map(|&blk| self.b.func.dfg.block_call(blk, &[]))
            .collect();
        let def = self.b.func.dfg.block_call(shared, &[]);
        let jt = self.b.create_jump_table(JumpTableData::new(def, &calls));
        self.b.ins().br_table(k, jt);
        for (&n, &blk) in direct.iter().zip(&blocks) {
            self.b.switch_to_block(blk);
            let info = self.t.nodes[n as usize];
            if self.bases[n as usize] == u32::MAX {
                // It holds no frame (its only edge is inline).
                self.jump_edge(info.first);
            } else if self.early[n as usize] && info.end == info.first + 1 && self.mine(n) {
                // Its frame would be popped before its only edge: none.
                self.jump_edge(info.first);
            } else {
                if self.push_at[n as usize] == Block::reserved_value() {
                    self.push_at[n as usize] = self.b.create_block();
                }
                self.b.ins().jump(self.push_at[n as usize], &[]);
            }
        }
        self.b.switch_to_block(shared);
        let first = self
            .b
            .ins()
            .iadd_imm(target, -((total + direct.len() as u32) as i64));
        let root = self.b.ins().iconst(I32, 0);
        self.b.ins().jump(
            self.push,
            &[
                BlockArg::Value(first),
                BlockArg::Value(arg),
                BlockArg::Value(root),
            ],
        );
    }

    /// The shared frame push: `push(first, next, node)`.
    pub(super) fn emit_push(&mut self) {
        let b = self.push;
        let first = self.b.append_block_param(b, I32);
        let next = self.b.append_block_param(b, I32);
        let node = self.b.append_block_param(b, I32);
        self.b.switch_to_block(b);
        self.here = self.keep;
        let f = self.push_frame(first, next, node);
        self.dispatch(next, f, false);
    }

    /// The push of node `n`'s frame over all its edges (`n` not
    /// `@disjoint`), which goes on at its resume block directly.
    pub(super) fn emit_push_at(&mut self, n: u32) {
        self.here = self.keep_at[n as usize];
        self.b.switch_to_block(self.push_at[n as usize]);
        let info = self.t.nodes[n as usize];
        if let Some(fails) = self.tried_first_fails(n) {
            // Its frame would be resumed at once and popped before its
            // other edge (`Gen::emit_resume`): no frame.
            let kept = self.kept();
            let [skip, push] = self.blocks();
            self.b.ins().brif(fails, skip, &[], push, &[]);
            self.b.switch_to_block(skip);
            self.jump_edge(info.first);
            self.enter_keeping(push, kept);
        }
        let r = self.bases[n as usize] + info.end - info.first;
        let first = self.b.ins().iconst(I32, info.first as i64);
        let next = self.b.ins().iconst(I32, r as i64);
        let node = self.b.ins().iconst(I32, n as i64);
        let f = self.push_frame(first, next, node);
        self.jump_resume(r, f);
    }

    /// Where node `n` has two edges, its frame is popped before its first
    /// ([`super::parts::early_pops`]) and its second, tried first, is a test (a
    /// comparison or a reachability check: it writes nothing), whether
    /// that test fails (nonzero); then the walk goes on at the first edge
    /// as after the frame's pop, and the frame need not be pushed.
    fn tried_first_fails(&mut self, n: u32) -> Option<Value> {
        let info = self.t.nodes[n as usize];
        if !self.early[n as usize] || info.end != info.first + 2 || !self.mine(n) {
            return None;
        }
        match self.t.edges[info.first as usize + 1].op {
            Op::Cmp(a, b, eq) => {
                let a = self.operand(a);
                let b = self.operand(b);
                let cc = if eq { IntCC::NotEqual } else { IntCC::Equal };
                Some(self.b.ins().icmp(cc, a, b))
            }
            Op::Reach(c, positive) => Some(self.reach(c, positive)),
            _ => None,
        }
    }

    /// Pushes a frame (edges `first .. next`, `next` its resume block, at
    /// node `node`) and returns its address; it holds the key hash and
    /// version where the walks at hand keep them ([`Gen::here`]: those
    /// through the node, or any walk).
    pub(super) fn push_frame(&mut self, first: Value, next: Value, node: Value) -> Value {
        let len = self.ws_load(Off::FRAMES_LEN);
        let cap = self.ws_load(Off::FRAMES_CAP);
        let full = self.b.ins().icmp(IntCC::Equal, len, cap);
        self.grow_if(full, rt::grow_frames, node);
        let frames = self.ws_load(Off::FRAMES);
        let off = self.b.ins().imul_imm(len, Off::FRAME_SIZE);
        let f = self.b.ins().iadd(frames, off);
        let len1 = self.b.ins().iadd_imm(len, 1);
        self.ws_store(len1, Off::FRAMES_LEN);
        self.b.ins().store(FLAGS, next, f, Off::F_NEXT);
        self.b.ins().store(FLAGS, first, f, Off::F_FIRST);
        let zero = self.b.ins().iconst(I32, 0);
        self.b.ins().store(FLAGS, zero, f, Off::F_SUB);
        let log = self.ws_load(Off::LOG_LEN);
        let log = self.b.ins().ireduce(I32, log);
        self.b.ins().store(FLAGS, log, f, Off::F_LOG);
        let tags = self.ws_load(Off::TAGS_LEN);
        let tags = self.b.ins().ireduce(I32, tags);
        self.b.ins().store(FLAGS, tags, f, Off::F_TAGS);
        for (from, to, kept) in [
            (Off::HASH, Off::F_HASH, self.here.hash),
            (Off::TAG_HASH, Off::F_TAG_HASH, true),
            (Off::VERSION, Off::F_VERSION, self.here.version),
        ] {
            if !kept {
                continue;
            }
            let v = self.ws_load(from);
            self.b.ins().store(FLAGS, v, f, to);
        }
        f
    }

    /// Jumps to `R[next]` with the frame's address (the top frame's),
    /// leaving the function for resume blocks of others; `restore`: after
    /// a backtrack, through [`Gen::restoring`].
    pub(super) fn dispatch(&mut self, next: Value, f: Value, restore: bool) {
        let arg = [BlockArg::Value(f)];
        let r0 = self.r0 as usize;
        let mine = self.resume[r0..]
            .iter()
            .take_while(|&&r| r != Block::reserved_value())
            .count();
        let blocks = match restore {
            true => self.restoring()[r0..r0 + mine].to_vec(),
            false => self.resume[r0..r0 + mine].to_vec(),
        };
        let calls: Vec<_> = blocks
            .iter()
            .map(|&r| self.b.func.dfg.block_call(r, &arg))
            .collect();
        let out = self.b.create_block();
        let def = self.b.func.dfg.block_call(out, &[]);
        let jt = self.b.create_jump_table(JumpTableData::new(def, &calls));
        let local = self.b.ins().iadd_imm(next, -(r0 as i64));
        self.b.ins().br_table(local, jt);
        self.b.switch_to_block(out);
        let id = self.b.ins().iadd_imm(next, self.t.edges.len() as i64);
        self.b.ins().jump(self.exit, &[BlockArg::Value(id)]);
    }

    /// Per resume block of this function, where a backtrack resumes it
    /// (the key hash and version are restored from the frame as its node's
    /// walks keep them: a frame is pushed with what they keep, and the
    /// walks after its resumption go through nodes that keep at least
    /// that); made once, when first asked for, and emitted by
    /// [`Gen::emit_restoring`].
    fn restoring(&mut self) -> &[Block] {
        if self.restore.is_empty() {
            let mut restore = self.resume.clone();
            for (r, blk) in restore.iter_mut().enumerate() {
                let keep = self.keep_at[self.rnode[r].0 as usize];
                if *blk != Block::reserved_value() && (keep.hash || keep.version) {
                    *blk = self.b.create_block();
                    self.b.append_block_param(*blk, I64);
                }
            }
            self.restore = restore;
        }
        &self.restore
    }

    /// The blocks of [`Gen::restoring`] that restore, then resume.
    pub(super) fn emit_restoring(&mut self) {
        for r in 0..self.restore.len() {
            let blk = self.restore[r];
            if blk == self.resume[r] {
                continue;
            }
            self.b.switch_to_block(blk);
            self.here = self.keep_at[self.rnode[r].0 as usize];
            let f = self.b.block_params(blk)[0];
            self.restore_hash(f);
            self.b.ins().jump(self.resume[r], &[BlockArg::Value(f)]);
        }
    }

    /// Undoes the log entry at `e + off`: its slot gets its old value.
    pub(super) fn undo_entry(&mut self, e: Value, off: i32) {
        let slot = self.load(I32, e, off);
        let old = self.load(I32, e, off + 4);
        let (a, at) = self.st_addr(slot);
        let old16 = self.b.ins().ireduce(I16, old);
        self.b.ins().store(FLAGS, old16, a, at);
    }

    /// The tags of frame `f`: their number (and how many have numbers) and
    /// hash.
    pub(super) fn restore_tags(&mut self, f: Value) {
        // Playouts leave the tags alone ([`Gen::tag`]).
        let done = self.skip_in_quiet_playouts();
        let tags = self.load(I32, f, Off::F_TAGS);
        let tags = self.b.ins().uextend(I64, tags);
        self.ws_store(tags, Off::TAGS_LEN);
        let ids = self.ws_load(Off::TAG_IDS_LEN);
        let ids = self.b.ins().umin(ids, tags);
        self.ws_store(ids, Off::TAG_IDS_LEN);
        let v = self.load(I64, f, Off::F_TAG_HASH);
        self.ws_store(v, Off::TAG_HASH);
        if let Some(done) = done {
            self.b.ins().jump(done, &[]);
            self.b.switch_to_block(done);
        }
    }

    /// The key hash and version of frame `f` (its semistate's).
    pub(super) fn restore_hash(&mut self, f: Value) {
        for (from, to, kept) in [
            (Off::F_HASH, Off::HASH, self.here.hash),
            (Off::F_VERSION, Off::VERSION, self.here.version),
        ] {
            if !kept {
                continue;
            }
            let v = self.load(I64, f, from);
            self.ws_store(v, to);
        }
    }

    /// Backtrack: restore the top frame's state, resume it (or return 0).
    pub(super) fn emit_back(&mut self) {
        self.here = self.keep;
        self.b.switch_to_block(self.back);
        let len = self.frames_or(|g| {
            // (The root frame may be popped before its last edge: what
            // that edge's walk wrote is undone here.)
            let zero = g.b.ins().iconst(I64, 0);
            g.undo_log_to(zero);
        });
        let f = self.frame_below(len);
        let target = self.load(I32, f, Off::F_LOG);
        let target = self.b.ins().uextend(I64, target);
        self.undo_log_to(target);
        self.restore_tags(f);
        let next = self.load(I32, f, Off::F_NEXT);
        self.dispatch(next, f, true);
    }

    /// This function's resume numbers in `tops` ([`super::parts::tops`]),
    /// where a resumption can dispatch over them alone: `None` where they
    /// are not known, some are another function's, or none is left (a
    /// site that only ends the walk).
    pub(super) fn among(&self, tops: &Tops) -> Option<Vec<u32>> {
        let tops = tops.as_ref()?;
        let mine: Vec<u32> = tops.iter().copied().filter(|&r| r != NO_FRAME).collect();
        let here = |r: u32| {
            self.resume
                .get(r as usize)
                .is_some_and(|&b| b != Block::reserved_value())
        };
        (!mine.is_empty() && mine.iter().all(|&r| here(r))).then_some(mine)
    }

    /// Jumps to `R[next]` (the frame at `f`, after a backtrack) where
    /// `among` (sorted) holds `next`: each site's own comparisons (at most
    /// [`AMONG_BRANCHES`]) or jump table over them, so that the branch
    /// predictor tells the sites apart (one table of every resume block
    /// predicted them poorly: chineseCheckers6's walk took 158 of its
    /// jumps per state to 224 targets). Any other `next` (none where the
    /// analysis holds) goes through the shared dispatch.
    fn dispatch_among(&mut self, next: Value, f: Value, among: Option<&[u32]>) {
        let Some(set) = among else {
            self.dispatch(next, f, true);
            return;
        };
        let any = *self.any_next.get_or_insert_with(|| self.b.create_block());
        let rest = [BlockArg::Value(next), BlockArg::Value(f)];
        let arg = [BlockArg::Value(f)];
        let (lo, hi) = (set[0], set[set.len() - 1]);
        if set.len() > AMONG_BRANCHES && hi - lo < AMONG_RANGE {
            let restore = self.restoring().to_vec();
            let mut calls = vec![self.b.func.dfg.block_call(any, &rest); (hi - lo + 1) as usize];
            for &r in set {
                calls[(r - lo) as usize] = self.b.func.dfg.block_call(restore[r as usize], &arg);
            }
            let def = self.b.func.dfg.block_call(any, &rest);
            let jt = self.b.create_jump_table(JumpTableData::new(def, &calls));
            let local = self.b.ins().iadd_imm(next, -(lo as i64));
            self.b.ins().br_table(local, jt);
            return;
        }
        if set.len() > AMONG_BRANCHES {
            self.b.ins().jump(any, &rest);
            return;
        }
        for &r in set {
            let to = self.restoring()[r as usize];
            let miss = self.b.create_block();
            let hit = self.b.ins().icmp_imm(IntCC::Equal, next, r as i64);
            self.b.ins().brif(hit, to, &arg, miss, &[]);
            self.continue_in(miss);
        }
        self.b.ins().jump(any, &rest);
    }

    /// The blocks of [`Gen::resume_top`] per set of resume numbers, and
    /// the shared dispatch of their misses.
    pub(super) fn emit_among(&mut self) {
        let blocks = std::mem::take(&mut self.among_blocks);
        for ((tags, set), &blk) in &blocks {
            self.emit_resume_top_in(blk, *tags, Some(set));
        }
        self.among_blocks = blocks;
        if let Some(any) = self.any_next {
            self.here = self.keep;
            let next = self.b.append_block_param(any, I32);
            let f = self.b.append_block_param(any, I64);
            self.b.switch_to_block(any);
            self.dispatch(next, f, true);
        }
    }

    /// The frames' count (I64), going on where there is a frame; where
    /// there is none, the walk ends (`done` emits what comes first).
    fn frames_or(&mut self, done: impl FnOnce(&mut Self)) -> Value {
        let len = self.ws_load(Off::FRAMES_LEN);
        let [none, some] = self.blocks();
        self.b.ins().brif(len, some, &[], none, &[]);
        self.b.switch_to_block(none);
        done(self);
        let zero = self.b.ins().iconst(I32, 0);
        self.ret(zero);
        self.b.switch_to_block(some);
        len
    }

    /// Undoes the log down to length `target` (I64), newest first.
    fn undo_log_to(&mut self, target: Value) {
        let log = self.ws_load(Off::LOG);
        let ll = self.ws_load(Off::LOG_LEN);
        let more = self.b.ins().icmp(IntCC::UnsignedGreaterThan, ll, target);
        self.do_while(more, ll, |g, cur| {
            let dec = g.b.ins().iadd_imm(cur, -1);
            let off = g.b.ins().ishl_imm(dec, 3);
            let e = g.b.ins().iadd(log, off);
            g.undo_entry(e, 0);
            (dec, g.b.ins().icmp(IntCC::UnsignedGreaterThan, dec, target))
        });
        self.ws_store(target, Off::LOG_LEN);
    }

    /// Resume block `r` of (node, `j`): the frame at `f` has edges
    /// `first .. j` left (and the symbols below `sub` of edge `j`'s
    /// any-assignment).
    pub(super) fn emit_resume(&mut self, r: usize) {
        let blk = self.resume[r];
        let (n, j) = self.rnode[r];
        self.here = self.keep_at[n as usize];
        let info = self.t.nodes[n as usize];
        let f = self.b.append_block_param(blk, I64);
        self.b.switch_to_block(blk);
        let op = self.t.edges.get(j as usize).map(|e| e.op);
        if let (true, Some(Op::AssignAny(_, (start, _)))) = (j < info.end, op) {
            match self.tests(j as usize) {
                Some(tests) => self.filter_resume(j, start, tests, f),
                None => {
                    let sub = self.load(I32, f, Off::F_SUB);
                    let [more, none] = self.blocks();
                    self.b.ins().brif(sub, more, &[], none, &[]);
                    self.b.switch_to_block(more);
                    let sub1 = self.b.ins().iadd_imm(sub, -1);
                    self.b.ins().store(FLAGS, sub1, f, Off::F_SUB);
                    let sym = self.any_sym(start, sub1);
                    self.b
                        .ins()
                        .jump(self.edges[j as usize], &[BlockArg::Value(sym)]);
                    self.b.switch_to_block(none);
                }
            }
        }
        let pop = self.b.create_block();
        let switched = j > info.first && self.switched(n);
        if switched && j == info.end {
            self.emit_switch(r, n, f, pop);
            self.b.switch_to_block(pop);
            self.pop(n, f);
            return;
        }
        if j > info.first {
            let take = self.b.create_block();
            if switched {
                self.pass_left(n, j, take, pop);
            } else if info.disjoint {
                // The first edge left is the frame's.
                let first = self.load(I32, f, Off::F_FIRST);
                let left = self
                    .b
                    .ins()
                    .icmp_imm(IntCC::UnsignedLessThan, first, j as i64);
                self.b.ins().brif(left, take, &[], pop, &[]);
            } else {
                self.b.ins().jump(take, &[]);
            }
            self.b.switch_to_block(take);
            let i = j - 1;
            if i == info.first && self.early[n as usize] {
                // The frame's last edge: popped first (its edge's chain
                // is its node's parent, `gen::parts::frames`).
                let len = self.ws_load(Off::FRAMES_LEN);
                let len = self.b.ins().iadd_imm(len, -1);
                self.ws_store(len, Off::FRAMES_LEN);
                self.jump_edge(i);
                if switched {
                    self.b.switch_to_block(pop);
                    self.pop(n, f);
                }
                return;
            }
            let prev = self.b.ins().iconst(I32, r as i64 - 1);
            self.b.ins().store(FLAGS, prev, f, Off::F_NEXT);
            if self.tests(i as usize).is_some() {
                // All its symbols left: its resume block finds the first
                // that passes.
                self.filter_enter(i, f);
                let prev = self.resume[r - 1];
                self.b.ins().jump(prev, &[BlockArg::Value(f)]);
                self.b.switch_to_block(pop);
                self.pop(n, f);
                return;
            }
            let sym = match self.t.edges[i as usize].op {
                Op::AssignAny(_, (start, len)) => {
                    let sub = self.b.ins().iconst(I32, len as i64 - 1);
                    self.b.ins().store(FLAGS, sub, f, Off::F_SUB);
                    let sym = self.t.any_syms[(start + len - 1) as usize];
                    Some(self.b.ins().iconst(I32, sym as i64))
                }
                _ => None,
            };
            let args = self.edge_args(i as usize, sym);
            self.b.ins().jump(self.edges[i as usize], &args);
        } else {
            self.b.ins().jump(pop, &[]);
        }
        self.b.switch_to_block(pop);
        self.pop(n, f);
    }

    /// Pops the exhausted frame `f` of node `n`: the frame below resumes,
    /// directly where `n`'s frames are pushed on a known chain.
    pub(super) fn pop(&mut self, n: u32, f: Value) {
        let len = self.ws_load(Off::FRAMES_LEN);
        let len = self.b.ins().iadd_imm(len, -1);
        self.ws_store(len, Off::FRAMES_LEN);
        let tops = &self.tops.1[n as usize];
        match self.parent[n as usize] {
            Some(c) => {
                let below = self.b.ins().iadd_imm(f, -Off::FRAME_SIZE);
                self.undo_to(c, below, tops);
            }
            None => {
                self.b.ins().jump(self.back, &[]);
            }
        }
    }

    /// The top frame's address.
    pub(super) fn top_frame(&mut self) -> Value {
        let len = self.ws_load(Off::FRAMES_LEN);
        self.frame_below(len)
    }

    /// The address of the frame below the first `len` (I64): `frames +
    /// 56 len - 56` (the product and the sum take their loads, the
    /// difference is a displacement: three instructions, where `(len - 1)`
    /// first took five).
    fn frame_below(&mut self, len: Value) -> Value {
        let frames = self.ws_load(Off::FRAMES);
        let off = self.b.ins().imul_imm(len, Off::FRAME_SIZE);
        let end = self.b.ins().iadd(frames, off);
        self.b.ins().iadd_imm(end, -Off::FRAME_SIZE)
    }

    /// Backtracks over chain `c`: the log entries and tags it pushed are
    /// undone (the hashes and version restored from the frame), then the
    /// frame resumes.
    /// `tops`: the resume numbers the frame can hold
    /// ([`super::parts::tops`]), where `c` knows none.
    pub(super) fn undo(&mut self, c: Chain, tops: &Tops) {
        let f = self.top_frame();
        self.undo_to(c, f, tops);
    }

    /// [`Gen::undo`] with the top frame at `f` (where `c` knows its
    /// resume block).
    pub(super) fn undo_to(&mut self, c: Chain, f: Value, tops: &Tops) {
        if matches!(c.resume, ANY_RESUME | NO_FRAME) {
            // The frame's state is restored where it is resumed.
            self.undo_log(c.logs);
            match c.resume {
                ANY_RESUME => {
                    let blk = self.resume_top(c.tags > 0, tops);
                    self.b.ins().jump(blk, &[]);
                }
                _ => {
                    let zero = self.b.ins().iconst(I32, 0);
                    self.ret(zero);
                }
            }
            return;
        }
        if c.logs > 0 {
            self.undo_log(c.logs);
            self.restore_hash(f);
        }
        if c.tags > 0 {
            self.restore_tags(f);
        }
        self.jump_resume(c.resume, f);
    }

    /// Undoes the newest `logs` log entries (newest first: a slot written
    /// twice gets its oldest value).
    pub(super) fn undo_log(&mut self, logs: u32) {
        if logs == 0 {
            return;
        }
        let len = self.ws_load(Off::LOG_LEN);
        let log = self.ws_load(Off::LOG);
        let off = self.b.ins().ishl_imm(len, 3);
        let end = self.b.ins().iadd(log, off);
        for j in 1..=logs as i32 {
            self.undo_entry(end, -8 * j);
        }
        let len = self.b.ins().iadd_imm(len, -(logs as i64));
        self.ws_store(len, Off::LOG_LEN);
    }

    /// The block that resumes the top frame, the log already undone to
    /// its length ([`ANY_RESUME`]): the backtrack without its undo loop,
    /// and without restoring the tags unless `tags` (some were pushed);
    /// made when first asked for, emitted by [`Gen::emit_resume_top`];
    /// a block of its own per set where the frame holds one of a few
    /// resume numbers `tops` ([`Gen::among`]), which dispatches over those
    /// alone ([`Gen::dispatch_among`]).
    fn resume_top(&mut self, tags: bool, tops: &Tops) -> Block {
        if let Some(set) = self.among(tops) {
            return *self
                .among_blocks
                .entry((tags, set))
                .or_insert_with(|| self.b.create_block());
        }
        let blk = &mut self.resume_top[tags as usize];
        *blk.get_or_insert_with(|| self.b.create_block())
    }

    /// [`Gen::resume_top`]'s blocks, where used.
    pub(super) fn emit_resume_top(&mut self) {
        for (tags, blk) in self.resume_top.into_iter().enumerate() {
            if let Some(blk) = blk {
                self.emit_resume_top_in(blk, tags == 1, None);
            }
        }
    }

    /// A [`Gen::resume_top`] block `blk`, dispatching over `among` alone
    /// where given.
    fn emit_resume_top_in(&mut self, blk: Block, tags: bool, among: Option<&[u32]>) {
        self.here = self.keep;
        self.b.switch_to_block(blk);
        self.frames_or(|_| {});
        let f = self.top_frame();
        if tags {
            self.restore_tags(f);
        }
        let next = self.load(I32, f, Off::F_NEXT);
        self.dispatch_among(next, f, among);
    }
}
