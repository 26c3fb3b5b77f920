//! A state's block: its transitions emitted inline in order, the node
//! found last kept in variables, and the jump to the next state's block;
//! switches (a move recorded, or the keeper's stop).

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{Block, InstBuilder, Value};
use rbg_engine::raw::{Act, Op, Tr, NONE};

use super::{switch_groups, Mode, RunMode, Walk, FLAGS};
use crate::rt::Off;

impl<'a, 'b> Walk<'a, 'b> {
    /// Records discovered node (to, t) as `next` (pushing the previous
    /// one). Returns false when it ended the block (a pattern accepted).
    pub(super) fn found_state(&mut self, to: u32, t: Value) -> bool {
        if self.fr.next_set {
            for &c in &self.fr.cands {
                self.fr.pushed[c as usize] = true;
            }
            // In a loop the node pushed may be this one.
            self.fr.pushed[to as usize] = true;
            let nq = self.b.use_var(self.fr.nq);
            let set = self.b.ins().icmp_imm(IntCC::NotEqual, nq, NONE as i64);
            let (push, cont) = (self.b.create_block(), self.b.create_block());
            self.b.ins().brif(set, push, &[], cont, &[]);
            self.b.switch_to_block(push);
            let nv = self.b.use_var(self.fr.nv);
            self.push(nq, nv);
            self.b.ins().jump(cont, &[]);
            self.b.switch_to_block(cont);
        }
        self.fr.next_set = true;
        let toq = self.b.ins().iconst(I32, to as i64);
        self.b.def_var(self.fr.nq, toq);
        self.b.def_var(self.fr.nv, t);
        if !self.fr.cands.contains(&to) {
            self.fr.cands.push(to);
        }
        if matches!(self.mode, Mode::Pattern(_)) && self.c.accepting[to as usize] {
            self.b.ins().jump(self.fr.stop, &[]);
            return false;
        }
        true
    }

    /// Discovering node (tr.to, t) through `tr`. Returns false when it
    /// ended the block.
    pub(super) fn found(&mut self, tr: &Tr, t: Value) -> bool {
        if tr.ends {
            let sw = self.c.transitions(tr.to)[0];
            return self.switch(&sw, t);
        }
        self.found_state(tr.to, t)
    }

    /// Takes switch `sw` at `v`: records the move, or stops (keeping the
    /// switch for the keeper). Returns false when it ended the block.
    pub(super) fn switch(&mut self, sw: &Tr, v: Value) -> bool {
        if matches!(self.mode, Mode::Pattern(_)) {
            // Patterns contain no switches.
            return true;
        }
        if self.f.keys.is_some() {
            // The keyed walk only collects: the move and its key (the
            // switch's when the prefix is empty, else the first atom's).
            let a = self.b.ins().iconst(I32, sw.to as i64);
            let key = self.key_of(a, v);
            let i = self.new_var(I64);
            crate::record::emit(&mut self.b, self.f.sig_grow, i, a, v, Some(key));
            self.ws_cache = None;
            return true;
        }
        let (collect, other, keep, cont) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        let run = self.wload(I32, Off::RUN);
        let is_collect = self
            .b
            .ins()
            .icmp_imm(IntCC::Equal, run, RunMode::Collect as i64);
        self.b.ins().brif(is_collect, collect, &[], other, &[]);
        self.b.switch_to_block(collect);
        let a = self.b.ins().iconst(I32, sw.to as i64);
        let i = self.new_var(I64);
        crate::record::emit(&mut self.b, self.f.sig_grow, i, a, v, None);
        self.b.ins().jump(cont, &[]);
        self.b.switch_to_block(other);
        let keeper = self.keeper();
        self.b.ins().brif(keeper, keep, &[], self.fr.stop, &[]);
        self.b.switch_to_block(keep);
        let p = self.b.ins().iconst(I32, sw.arg as i64);
        let r = self.b.ins().iconst(I32, sw.to as i64);
        self.wstore(p, Off::SWITCHED);
        self.wstore(r, Off::SWITCHED + 4);
        self.wstore(v, Off::SWITCHED + 8);
        self.b.ins().jump(self.fr.stop, &[]);
        self.b.switch_to_block(cont);
        true
    }

    /// The block of state `q`.
    pub(super) fn state(&mut self, q: u32) {
        let blk = self.fr.blocks[q as usize].expect("member state");
        self.b.switch_to_block(blk);
        self.fr.next_set = false;
        self.fr.cands.clear();
        let none = self.b.ins().iconst(I32, NONE as i64);
        self.b.def_var(self.fr.nq, none);
        self.reserve(q);
        let v = self.b.use_var(self.fr.v);
        for tr in self.c.transitions(q) {
            let skip = self.b.create_block();
            if self.transition(tr, v, skip) {
                self.b.ins().jump(skip, &[]);
            }
            self.b.switch_to_block(skip);
        }
        // Go on with the node found last, or pop.
        if self.fr.cands.is_empty() {
            self.b.ins().jump(self.fr.pop, &[]);
            return;
        }
        let nq = self.b.use_var(self.fr.nq);
        let nv = self.b.use_var(self.fr.nv);
        self.b.def_var(self.fr.v, nv);
        if self.fr.cands.len() > 4 {
            for &c in &self.fr.cands {
                self.fr.pushed[c as usize] = true;
            }
            self.b.def_var(self.fr.q, nq);
            let set = self.b.ins().icmp_imm(IntCC::NotEqual, nq, NONE as i64);
            self.b
                .ins()
                .brif(set, self.fr.dispatch, &[], self.fr.pop, &[]);
            return;
        }
        let cands = self.fr.cands.clone();
        for c in cands {
            let is = self.b.ins().icmp_imm(IntCC::Equal, nq, c as i64);
            let other = self.b.create_block();
            let target = self.fr.blocks[c as usize].expect("member state");
            self.b.ins().brif(is, target, &[], other, &[]);
            self.b.switch_to_block(other);
        }
        self.b.ins().jump(self.fr.pop, &[]);
    }

    /// Emits transition `tr` from vertex `v`; failing tests jump to `skip`.
    /// Returns false when the code ended the block (a stop).
    pub(super) fn transition(&mut self, tr: &Tr, v: Value, skip: Block) -> bool {
        let c = self.c;
        match tr.op {
            Op::Shift | Op::ShiftOn => {
                let t = self.neighbor(v, tr.arg);
                let ok = self.b.ins().icmp_imm(IntCC::NotEqual, t, NONE as i64);
                self.require(ok, skip);
                if tr.op == Op::ShiftOn {
                    let p = self.piece(t);
                    let ok = self.in_set(p, self.on_row(tr.set));
                    self.require(ok, skip);
                }
                self.mark(tr.slot, t, skip);
                self.found(tr, t)
            }
            Op::ShiftSwitch => {
                let t = self.neighbor(v, tr.arg);
                let ok = self.b.ins().icmp_imm(IntCC::NotEqual, t, NONE as i64);
                self.require(ok, skip);
                let p = self.piece(t);
                let groups = switch_groups(c, tr);
                // With several groups and a mark for the transition: one
                // test of their union, the mark, and the last group
                // untested (instead of the mark in every group).
                let hoist = tr.slot != NONE && groups.len() > 1 && c.num_pieces <= 64;
                if hoist {
                    let np = c.num_pieces as usize;
                    let union: Vec<bool> = (0..np).map(|i| groups.iter().any(|g| g.1[i])).collect();
                    let any = self.mask_test(p, &union);
                    self.require(any, skip);
                    self.mark(tr.slot, t, skip);
                }
                let last = groups.len().saturating_sub(1);
                for (i, ((to, slot), set)) in groups.into_iter().enumerate() {
                    let (this, other) = (self.b.create_block(), self.b.create_block());
                    if hoist && i == last {
                        self.b.ins().jump(this, &[]);
                    } else {
                        let is = self.switches_to(p, &set, tr.set, to);
                        self.b.ins().brif(is, this, &[], other, &[]);
                    }
                    self.b.switch_to_block(this);
                    if !hoist {
                        self.mark(tr.slot, t, skip);
                    }
                    self.mark(slot, t, skip);
                    if self.found_state(to, t) {
                        self.b.ins().jump(skip, &[]);
                    }
                    self.b.switch_to_block(other);
                }
                true
            }
            Op::Multi | Op::MultiOn => {
                self.fr.room = 0;
                let off_tab = self.table(&c.multi_off);
                let i0 = tr.arg as i64 * (c.num_vertices as i64 + 1);
                let vi = self.b.ins().uextend(I64, v);
                let vi = self.b.ins().iadd_imm(vi, i0);
                let o = self.b.ins().ishl_imm(vi, 2);
                let a = self.b.ins().iadd(off_tab, o);
                let start = self.b.ins().load(I32, FLAGS, a, 0);
                let end = self.b.ins().load(I32, FLAGS, a, 4);
                let j = self.new_var(I32);
                self.b.def_var(j, start);
                let (head, body, next) = (
                    self.b.create_block(),
                    self.b.create_block(),
                    self.b.create_block(),
                );
                self.b.ins().jump(head, &[]);
                self.b.switch_to_block(head);
                let jv = self.b.use_var(j);
                let more = self.b.ins().icmp(IntCC::UnsignedLessThan, jv, end);
                self.b.ins().brif(more, body, &[], skip, &[]);
                self.b.switch_to_block(body);
                let tt = self.table(&c.multi_targets);
                let a = self.addr(tt, jv, 4);
                let t = self.b.ins().load(I32, FLAGS, a, 0);
                if tr.op == Op::MultiOn {
                    let p = self.piece(t);
                    let ok = self.in_set(p, self.on_row(tr.set));
                    self.require(ok, next);
                }
                self.mark(tr.slot, t, next);
                self.fr.next_set = true;
                if self.found(tr, t) {
                    self.b.ins().jump(next, &[]);
                }
                self.b.switch_to_block(next);
                let j1 = self.b.ins().iadd_imm(jv, 1);
                self.b.def_var(j, j1);
                self.b.ins().jump(head, &[]);
                false
            }
            Op::ScanOn => {
                self.fr.room = 0;
                let mut i = tr.arg as usize;
                let words = c.words as i64;
                while c.set_pieces[i] != NONE {
                    let k = c.piece_list[c.set_pieces[i] as usize] as i64;
                    i += 1;
                    // for wi in 0..words { for each bit of the word }
                    let wi = self.new_var(I32);
                    let word = self.new_var(I64);
                    let zero = self.b.ins().iconst(I32, 0);
                    self.b.def_var(wi, zero);
                    let (whead, wbody, bhead, bbody, piece_done) = (
                        self.b.create_block(),
                        self.b.create_block(),
                        self.b.create_block(),
                        self.b.create_block(),
                        self.b.create_block(),
                    );
                    self.b.ins().jump(whead, &[]);
                    self.b.switch_to_block(whead);
                    let w = self.b.use_var(wi);
                    let more = self.b.ins().icmp_imm(IntCC::UnsignedLessThan, w, words);
                    self.b.ins().brif(more, wbody, &[], piece_done, &[]);
                    self.b.switch_to_block(wbody);
                    let w64 = self.b.ins().uextend(I64, w);
                    let idx = self.b.ins().iadd_imm(w64, k * words);
                    let off = self.b.ins().ishl_imm(idx, 3);
                    let bits = self.wload(I64, Off::BITS);
                    let a = self.b.ins().iadd(bits, off);
                    let x = self.b.ins().load(I64, FLAGS, a, 0);
                    self.b.def_var(word, x);
                    self.b.ins().jump(bhead, &[]);
                    self.b.switch_to_block(bhead);
                    let x = self.b.use_var(word);
                    let any = self.b.ins().icmp_imm(IntCC::NotEqual, x, 0);
                    let wnext = self.b.create_block();
                    self.b.ins().brif(any, bbody, &[], wnext, &[]);
                    self.b.switch_to_block(bbody);
                    let tz = self.b.ins().ctz(x);
                    let x1 = self.b.ins().iadd_imm(x, -1);
                    let rest = self.b.ins().band(x, x1);
                    self.b.def_var(word, rest);
                    let tz32 = self.b.ins().ireduce(I32, tz);
                    let w = self.b.use_var(wi);
                    let wbase = self.b.ins().ishl_imm(w, 6);
                    let t = self.b.ins().iadd(wbase, tz32);
                    self.mark(tr.slot, t, bhead);
                    self.fr.next_set = true;
                    if self.found(tr, t) {
                        self.b.ins().jump(bhead, &[]);
                    }
                    self.b.switch_to_block(wnext);
                    let w = self.b.use_var(wi);
                    let w1 = self.b.ins().iadd_imm(w, 1);
                    self.b.def_var(wi, w1);
                    self.b.ins().jump(whead, &[]);
                    self.b.switch_to_block(piece_done);
                }
                true
            }
            Op::On | Op::Filter | Op::Compare => {
                let ok = self.test(tr, v, skip);
                self.require(ok, skip);
                self.mark(tr.slot, v, skip);
                self.found(tr, v)
            }
            Op::Noop => {
                self.mark(tr.slot, v, skip);
                self.found(tr, v)
            }
            Op::Pattern => {
                self.mark(tr.slot, v, skip);
                let ok = self.test(tr, v, skip);
                self.require(ok, skip);
                self.found(tr, v)
            }
            Op::Off => {
                self.mark(tr.slot, v, skip);
                let keeps = self.keeps(tr.to);
                let old = self.set_piece_const(v, tr.arg, keeps);
                let p = tr.arg;
                // What the modifier leaves stale, for `rt::kept` to settle.
                let stale = !keeps.0 as i64 | (!keeps.1 as i64) << 1;
                self.descend(
                    tr.to,
                    v,
                    skip,
                    (v, old),
                    |w| w.unset_piece(v, p, old, keeps),
                    (p, stale),
                )
            }
            Op::Assign => {
                let Act::Assign(var, e) = &c.acts[tr.to as usize] else {
                    unreachable!("decoded from an assignment")
                };
                let val = self.assigned(*var, e, skip);
                self.mark(tr.slot, v, skip);
                let vars = self.wload(I64, Off::VARS);
                let old = self.b.ins().load(I32, FLAGS, vars, *var as i32 * 4);
                self.b.ins().store(FLAGS, val, vars, *var as i32 * 4);
                let cell = self.b.ins().iconst(I32, (c.num_vertices + *var) as i64);
                let var = *var as i32;
                self.descend(
                    tr.to,
                    v,
                    skip,
                    (cell, old),
                    |w| {
                        let vars = w.wload(I64, Off::VARS);
                        w.b.ins().store(FLAGS, old, vars, var * 4);
                    },
                    (NONE, 0),
                )
            }
            Op::Switch => {
                self.mark(tr.slot, v, skip);
                self.switch(tr, v)
            }
        }
    }
}
