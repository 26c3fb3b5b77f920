//! Edge blocks of the generated walk: each edge's action specialised
//! (assignments, comparisons, tags, visited and reachability checks,
//! moves' records) and the jump to its successor.

use cranelift_codegen::entity::packed_option::ReservedValue;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I16, I32, I64};
use cranelift_codegen::ir::{Block, BlockArg, InstBuilder, Value};
use rg_engine::raw::{Next, Op, MAX_LOG, MAX_STEPS, MAX_TAGS, NO_SLOT};

use super::parts::ANY_RESUME;
use super::{Gen, FLAGS};
use crate::rt::{self, Off, NO_LEGAL};

impl Gen<'_, '_> {
    /// `E[i](sym)`: edge `i`'s action, then its successor. Where the edge
    /// knows its top frame and what was pushed since ([`super::parts::chains`]), it
    /// backtracks by undoing that and resuming the frame directly.
    pub(super) fn emit_edge(&mut self, i: usize) {
        self.emit_edge_in(i, self.edges[i]);
    }

    /// [`Gen::emit_edge`] into block `blk` (a run's copy,
    /// [`super::parts::runs`], or the edge's own block).
    pub(super) fn emit_edge_in(&mut self, i: usize, blk: Block) {
        self.here = self.keep_at[self.edge_node[i] as usize];
        let e = self.t.edges[i];
        let exits = e.guard
            || e.next == Next::Dead
            || matches!(
                e.op,
                Op::Cmp(..) | Op::CmpMap(..) | Op::Reach(..) | Op::SetPlayer(_)
            );
        let tops = &self.tops.0[i];
        let undo = match self.chain[i].and_then(|c| c.after(e.op)) {
            Some(c) if exits => {
                // (One block per chain and bookkeeping, shared by the
                // edges that fail onto it.)
                let among = (c.resume == ANY_RESUME).then(|| self.among(tops));
                let key = (c, self.here, among.flatten());
                match self.undos.get(&key) {
                    Some(&blk) => Some((blk, None)),
                    None => {
                        let blk = self.b.create_block();
                        self.undos.insert(key, blk);
                        Some((blk, Some(c)))
                    }
                }
            }
            _ => None,
        };
        self.emit_edge_body(i, blk, undo.map_or(self.back, |(blk, _)| blk));
        if let Some((blk, Some(c))) = undo {
            self.b.switch_to_block(blk);
            self.undo(c, tops);
        }
    }

    /// Edge `i`'s code in block `blk`; `back` backtracks.
    pub(super) fn emit_edge_body(&mut self, i: usize, blk: Block, back: Block) {
        let e = self.t.edges[i];
        // (Only an any-assignment's block takes its symbol:
        // `Gen::edge_args`.)
        let sym = match e.op {
            Op::AssignAny(..) => self.b.append_block_param(blk, I32),
            _ => Value::reserved_value(),
        };
        self.b.switch_to_block(blk);
        match e.op {
            Op::Skip => {}
            Op::Tag(s) => {
                let s = self.b.ins().iconst(I32, s as i64);
                self.tag(s, e.to);
            }
            Op::TagVar(slot) => {
                let s = self.slot(slot);
                self.tag(s, e.to);
            }
            Op::Cmp(a, b, eq) => {
                let a = self.operand(a);
                let b = self.operand(b);
                let cc = if eq { IntCC::NotEqual } else { IntCC::Equal };
                let fails = self.b.ins().icmp(cc, a, b);
                self.exit_if(fails, back);
                let after = self.after.get(i).copied();
                if let Some(after) = after.filter(|&b| b != Block::reserved_value()) {
                    self.b.ins().jump(after, &[]);
                    self.b.switch_to_block(after);
                }
            }
            Op::CmpMap(..) | Op::AssignMap(_) => {
                let r = self.call_imm(rt::edge, i as u32, 0);
                self.check_failed(r);
                let fails = self.b.ins().icmp_imm(IntCC::Equal, r, 0);
                self.exit_if(fails, back);
            }
            Op::Reach(c, positive) => {
                let fails = self.reach(c, positive);
                self.exit_if(fails, back);
            }
            Op::Assign(p, v) => {
                let v = self.operand(v);
                let slot = self.place(p);
                if let Some(tail) = self.tail(i) {
                    self.defer(i, tail, v);
                }
                let len = self.log_room(blk, &[]);
                self.write(slot, v, Some(len));
            }
            Op::AssignAny(p, _) => {
                let slot = self.place(p);
                if let Some(tail) = self.tail(i) {
                    self.defer(i, tail, sym);
                }
                let len = self.log_room(blk, &[sym]);
                self.write(slot, sym, Some(len));
            }
            Op::SetPlayer(v) => {
                let v = self.operand(v);
                let [inline, call] = self.blocks();
                let flag = self.ws_load(Off::REC_INLINE);
                self.b.ins().brif(flag, inline, &[], call, &[]);
                self.b.switch_to_block(call);
                let node = self.b.ins().iconst(I32, e.to as i64);
                let r = self.call(rt::record, v, node);
                self.check_failed(r);
                self.b.ins().jump(back, &[]);
                self.b.switch_to_block(inline);
                let known = self.log_at[self.edge_node[i] as usize].as_deref();
                self.record(v, e.to, known, None);
                self.b.ins().jump(back, &[]);
                return;
            }
        }
        if e.guard {
            self.visit(e.to, back);
        }
        if self.owners.get(e.to as usize) == Some(&true) {
            self.local_visit(e.to);
        }
        match e.next {
            Next::Inline(next) => {
                if self.t.has_unique {
                    let steps = self.ws_load(Off::STEPS);
                    let steps = self.b.ins().iadd_imm(steps, 1);
                    self.ws_store(steps, Off::STEPS);
                    let many =
                        self.b
                            .ins()
                            .icmp_imm(IntCC::UnsignedGreaterThan, steps, MAX_STEPS as i64);
                    let ll = self.ws_load(Off::LOG_LEN);
                    let long =
                        self.b
                            .ins()
                            .icmp_imm(IntCC::UnsignedGreaterThan, ll, MAX_LOG as i64);
                    let bad = self.b.ins().bor(many, long);
                    let kept = self.kept();
                    let [stop, ok] = self.blocks();
                    self.b.set_cold_block(stop);
                    self.b.ins().brif(bad, stop, &[], ok, &[]);
                    self.b.switch_to_block(stop);
                    self.call_imm(rt::fail, rt::FAIL_STEPS, e.to);
                    self.b.ins().jump(self.fail, &[]);
                    self.enter_keeping(ok, kept);
                }
                match self.filter(i) {
                    // Its comparison holds: the symbol passed the filter.
                    Some(_) if self.after[next as usize] != Block::reserved_value() => {
                        self.b.ins().jump(self.after[next as usize], &[]);
                    }
                    _ => self.jump_inline(i, next),
                }
            }
            Next::Frame if !self.t.nodes[e.to as usize].disjoint => {
                // Its own push block, which resumes it directly.
                let n = e.to as usize;
                if self.push_at[n] == Block::reserved_value() {
                    self.push_at[n] = self.b.create_block();
                }
                self.b.ins().jump(self.push_at[n], &[]);
            }
            Next::Frame => self.push_disjoint(e.to),
            Next::Dead => {
                self.b.ins().jump(back, &[]);
            }
        }
    }

    /// Whether `? c` (`positive`) or `! c` fails (I8): check `c`,
    /// memoised by the semistate's version.
    pub(super) fn reach(&mut self, c: u32, positive: bool) -> Value {
        let memo = self.ws_load(Off::MEMO);
        let m = self.b.ins().iadd_imm(memo, 16 * c as i64);
        let mv = self.load(I64, m, 0);
        let ver = self.ws_load(Off::VERSION);
        let hit = self.b.ins().icmp(IntCC::Equal, mv, ver);
        let [h, miss, join] = self.blocks();
        let r = self.b.append_block_param(join, I32);
        self.b.ins().brif(hit, h, &[], miss, &[]);
        self.b.switch_to_block(h);
        let res = self.load(I32, m, 8);
        self.b.ins().jump(join, &[BlockArg::Value(res)]);
        self.b.switch_to_block(miss);
        if self.params.is_none() && self.speculate[c as usize] {
            // A walk's speculated check (`rt/ahead.rs`): the moves it
            // mirrors generated ahead, else its own code.
            let r = self.call_imm(rt::speculate, c, 0);
            let [held, own] = self.blocks();
            self.b.ins().brif(r, held, &[], own, &[]);
            self.b.switch_to_block(held);
            // Memoised as `decide` does (the check's other edge reads it).
            self.memoise(c, r);
            self.b.ins().jump(join, &[BlockArg::Value(r)]);
            self.b.switch_to_block(own);
        }
        let res = self.decide(c);
        self.b.ins().jump(join, &[BlockArg::Value(res)]);
        self.b.switch_to_block(join);
        let cc = if positive {
            IntCC::Equal
        } else {
            IntCC::NotEqual
        };
        self.b.ins().icmp_imm(cc, r, 0)
    }

    /// Pushes the frame of `@disjoint` node `n` over its first edge whose
    /// leading test holds, in file order (`rt::first_legal`; none: a frame
    /// with no edge left): comparisons and checks as code, each check
    /// decided as the walk's `? c` edges are (generated where it is);
    /// nodes with map comparisons call Rust, and so do nodes whose leading
    /// leaf checks rg-engine tests in one loop (`sealed/scan.rs`: go's
    /// `anySquare` searches, one edge per square, ran 1.4x slower as
    /// generated checks, each memoised).
    fn push_disjoint(&mut self, n: u32) {
        let info = self.t.nodes[n as usize];
        let node = self.b.ins().iconst(I32, n as i64);
        let base = self.bases[n as usize];
        let ops = &self.t.edges[info.first as usize..info.end as usize];
        if self.t.code.scanned(n) > 0 || ops.iter().any(|e| matches!(e.op, Op::CmpMap(..))) {
            let r = self.call_imm(rt::first_legal, n, 0);
            self.check_failed(r);
            let none = self.b.ins().icmp_imm(IntCC::Equal, r, NO_LEGAL as i64);
            let f0 = self.b.ins().iconst(I32, info.first as i64);
            let first = self.b.ins().select(none, f0, r);
            // Resume block of `r + 1`.
            let r1 = self
                .b
                .ins()
                .iadd_imm(r, base as i64 + 1 - info.first as i64);
            let b0 = self.b.ins().iconst(I32, base as i64);
            let next = self.b.ins().select(none, b0, r1);
            self.b.ins().jump(
                self.push,
                &[
                    BlockArg::Value(first),
                    BlockArg::Value(next),
                    BlockArg::Value(node),
                ],
            );
            return;
        }
        let push = |g: &mut Self, first: u32, next: u32| {
            let first = g.b.ins().iconst(I32, first as i64);
            let next = g.b.ins().iconst(I32, next as i64);
            g.b.ins().jump(
                g.push,
                &[
                    BlockArg::Value(first),
                    BlockArg::Value(next),
                    BlockArg::Value(node),
                ],
            );
        };
        for i in info.first..info.end {
            let fails = match self.t.edges[i as usize].op {
                Op::Cmp(a, b, eq) => self.compare(a, b, eq),
                Op::Reach(c, positive) => self.reach(c, positive),
                _ => {
                    push(self, i, base + 1 + (i - info.first));
                    return;
                }
            };
            let [next, take] = self.blocks();
            self.b.ins().brif(fails, next, &[], take, &[]);
            self.b.switch_to_block(take);
            push(self, i, base + 1 + (i - info.first));
            self.b.switch_to_block(next);
        }
        push(self, info.first, base);
    }

    /// The visited check of node `n` (going `back` where its key was
    /// seen): a generated local check's stamp (`gen/local.rs`), a key of
    /// one slot and no tags a stamp of the workspace's dense stamps
    /// (`rt::dense_key`); the others call Rust.
    pub(super) fn visit(&mut self, n: u32, back: Block) {
        if self.local_stamp(n, back) {
            return;
        }
        let Some((base, slot)) = rt::dense_key(self.t, n) else {
            let r = self.call_imm(rt::visit, n, 0);
            self.check_failed(r);
            let seen = self.b.ins().icmp_imm(IntCC::Equal, r, 0);
            self.exit_if(seen, back);
            return;
        };
        let v = self.slot(slot);
        let stamps = self.ws_load(Off::DENSE);
        let i = self.widen(v);
        let off = self.b.ins().ishl_imm(i, 2);
        let at = self.b.ins().iadd(stamps, off);
        let gen = self.ws_load(Off::DENSE_GEN);
        let gen = self.b.ins().ireduce(I32, gen);
        let old = self.b.ins().load(I32, FLAGS, at, 4 * base as i32);
        self.b.ins().store(FLAGS, gen, at, 4 * base as i32);
        let seen = self.b.ins().icmp(IntCC::Equal, old, gen);
        self.exit_if(seen, back);
    }

    /// Symbol `any_syms[start + sub]` (I32) for an I32 `sub`.
    pub(super) fn any_sym(&mut self, start: u32, sub: Value) -> Value {
        let i = self.b.ins().uextend(I64, sub);
        self.any_sym_at(start, i)
    }

    /// Symbol `any_syms[start + i]` (I32) for an I64 `i`.
    pub(super) fn any_sym_at(&mut self, start: u32, i: Value) -> Value {
        let off = self.b.ins().ishl_imm(i, 1);
        let base = self.t.any_syms.as_ptr() as i64 + 2 * start as i64;
        let a = self.b.ins().iadd_imm(off, base);
        self.b.ins().uload16(I32, FLAGS, a, 0)
    }

    /// Records the walk's move (`player = v`, ending at `node`) in the
    /// workspace's change and end buffers, as `Effects::push`: the slots of
    /// the undo log with their values now, then `player`. `known`: the
    /// log's entries' slots ([`NO_SLOT`] where not constant), where the
    /// generator knows its length (the copy unrolled, constant slots read
    /// directly). `deferred`: a slot whose value is this one, not the
    /// semistate's ([`Gen::defer`]): the last entry of a known log (the
    /// entries of slots not known compared with it), else an entry after
    /// the log's, which is copied with the value written in the semistate
    /// for the while.
    pub(super) fn record(
        &mut self,
        v: Value,
        node: u32,
        known: Option<&[u32]>,
        deferred: Option<(u32, Value)>,
    ) {
        let len = match known {
            Some(k) => self.b.ins().iconst(I64, k.len() as i64),
            None => self.ws_load(Off::LOG_LEN),
        };
        // A deferred write the log does not hold (not known).
        let after = deferred.filter(|_| known.is_none());
        let cl = self.ws_load(Off::CHANGES_LEN);
        let need = self.b.ins().iadd(cl, len);
        let need = self.b.ins().iadd_imm(need, 1 + after.is_some() as i64);
        let cap = self.ws_load(Off::CHANGES_CAP);
        // (The end buffer is never shorter than the change buffer, and
        // every move has a change: room for the changes is room for the
        // end.)
        let grow = self.b.ins().icmp(IntCC::UnsignedGreaterThan, need, cap);
        // (`need` stays below 2^32: the log and the changes are bounded.)
        let need32 = self.b.ins().ireduce(I32, need);
        self.grow_if(grow, rt::grow_rec, need32);
        // (Not read where every entry's slot is known.)
        let log = match known {
            Some(k) if !k.contains(&NO_SLOT) => None,
            _ => Some(self.ws_load(Off::LOG)),
        };
        let changes = self.ws_load(Off::CHANGES);
        let off = self.b.ins().ishl_imm(cl, 3);
        let dst = self.b.ins().iadd(changes, off);
        // `dst[i] = (slot, st[slot])` per log entry `i`.
        match known {
            Some(k) => {
                for (i, &s) in k.iter().enumerate() {
                    let slot = match (s, log) {
                        (NO_SLOT, Some(log)) => self.load(I32, log, 8 * i as i32),
                        _ => self.b.ins().iconst(I32, s as i64),
                    };
                    let val = match deferred {
                        Some((d, val)) if d == s => val,
                        // An entry whose slot is not known may be the
                        // deferred one.
                        Some((d, val)) if s == NO_SLOT => {
                            let now = self.slot_at(slot);
                            let same = self.b.ins().icmp_imm(IntCC::Equal, slot, d as i64);
                            self.b.ins().select(same, val, now)
                        }
                        _ => self.slot_at(slot),
                    };
                    self.b.ins().store(FLAGS, slot, dst, 8 * i as i32);
                    self.b.ins().store(FLAGS, val, dst, 8 * i as i32 + 4);
                }
            }
            None => {
                let log = log.expect("read where the log is not known");
                // The copy reads a deferred value from the semistate:
                // written for the while.
                let held = after.map(|(d, v)| {
                    let (a, at) = self.slot_ref(d);
                    let old = self.b.ins().load(I16, FLAGS, a, at);
                    let v16 = self.b.ins().ireduce(I16, v);
                    self.b.ins().store(FLAGS, v16, a, at);
                    (d, old)
                });
                let zero = self.b.ins().iconst(I64, 0);
                self.do_while(len, zero, |g, i| {
                    let off = g.b.ins().ishl_imm(i, 3);
                    let src = g.b.ins().iadd(log, off);
                    let slot = g.load(I32, src, 0);
                    let val = g.slot_at(slot);
                    let d = g.b.ins().iadd(dst, off);
                    g.b.ins().store(FLAGS, slot, d, 0);
                    g.b.ins().store(FLAGS, val, d, 4);
                    let i1 = g.b.ins().iadd_imm(i, 1);
                    (i1, g.b.ins().icmp(IntCC::NotEqual, i1, len))
                });
                if let Some((d, old)) = held {
                    let (a, at) = self.slot_ref(d);
                    self.b.ins().store(FLAGS, old, a, at);
                }
            }
        }
        let off = self.b.ins().ishl_imm(len, 3);
        let mut d = self.b.ins().iadd(dst, off);
        if let Some((slot, v)) = after {
            let slot = self.b.ins().iconst(I32, slot as i64);
            self.b.ins().store(FLAGS, slot, d, 0);
            self.b.ins().store(FLAGS, v, d, 4);
            d = self.b.ins().iadd_imm(d, 8);
        }
        let ps = self.b.ins().iconst(I32, self.t.player_slot as i64);
        self.b.ins().store(FLAGS, ps, d, 0);
        self.b.ins().store(FLAGS, v, d, 4);
        self.ws_store(need, Off::CHANGES_LEN);
        let el = self.ws_load(Off::ENDS_LEN);
        let ends = self.ws_load(Off::ENDS);
        let off = self.b.ins().ishl_imm(el, 3);
        let a = self.b.ins().iadd(ends, off);
        let need32 = self.b.ins().ireduce(I32, need);
        self.b.ins().store(FLAGS, need32, a, 0);
        let n = self.b.ins().iconst(I32, node as i64);
        self.b.ins().store(FLAGS, n, a, 4);
        let el1 = self.b.ins().iadd_imm(el, 1);
        self.ws_store(el1, Off::ENDS_LEN);
    }

    /// Where tags are quiet (the walk keeps none and `few_tags`), a block
    /// that playouts jump to from here, skipping the tag work that follows
    /// (the caller jumps to it when done); code continues in the other
    /// arm. `None` elsewhere.
    pub(super) fn skip_in_quiet_playouts(&mut self) -> Option<Block> {
        if self.here.tags || !self.few_tags {
            return None;
        }
        let [done, rest] = self.blocks();
        let flag = self.ws_load(Off::REC_INLINE);
        self.b.ins().brif(flag, done, &[], rest, &[]);
        self.b.switch_to_block(rest);
        Some(done)
    }

    /// Pushes a tag (games whose `visible` cannot change).
    pub(super) fn tag(&mut self, tag: Value, node: u32) {
        if self.t.visible_slots.is_some() {
            let node = self.b.ins().iconst(I32, node as i64);
            let r = self.call(rt::tag, tag, node);
            self.check_failed(r);
            return;
        }
        // Playouts count tags only for a bound their walks never reach:
        // nothing to do.
        let skip = self.skip_in_quiet_playouts();
        let len = self.ws_load(Off::TAGS_LEN);
        let full = self
            .b
            .ins()
            .icmp_imm(IntCC::UnsignedGreaterThanOrEqual, len, MAX_TAGS as i64);
        let kept = self.kept();
        let [bad, ok] = self.blocks();
        self.b.set_cold_block(bad);
        self.b.ins().brif(full, bad, &[], ok, &[]);
        self.b.switch_to_block(bad);
        self.call_imm(rt::fail, rt::FAIL_TAGS, node);
        self.b.ins().jump(self.fail, &[]);
        self.enter_keeping(ok, kept);
        let done = skip.unwrap_or_else(|| self.b.create_block());
        if !self.here.tags && skip.is_none() {
            // In playouts only the number counts.
            let [count, all] = self.blocks();
            let flag = self.ws_load(Off::REC_INLINE);
            self.b.ins().brif(flag, count, &[], all, &[]);
            self.b.switch_to_block(count);
            let len1 = self.b.ins().iadd_imm(len, 1);
            self.ws_store(len1, Off::TAGS_LEN);
            self.b.ins().jump(done, &[]);
            self.b.switch_to_block(all);
        }
        let tags = self.ws_load(Off::TAGS);
        let off = self.b.ins().ishl_imm(len, 1);
        let a = self.b.ins().iadd(tags, off);
        let t16 = self.b.ins().ireduce(I16, tag);
        self.b.ins().store(FLAGS, t16, a, 0);
        let len1 = self.b.ins().iadd_imm(len, 1);
        self.ws_store(len1, Off::TAGS_LEN);
        // `tag_step`: ((h ^ (tag + 1)) * K).rotate_left(17).
        let h = self.ws_load(Off::TAG_HASH);
        let t64 = self.b.ins().uextend(I64, tag);
        let t1 = self.b.ins().iadd_imm(t64, 1);
        let x = self.b.ins().bxor(h, t1);
        let x = self.b.ins().imul_imm(x, 0x9e37_79b9_7f4a_7c15_u64 as i64);
        let x = self.b.ins().rotl_imm(x, 17);
        self.ws_store(x, Off::TAG_HASH);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
    }
}
