//! Modifiers: pieces put and taken (with counts and lists where they are
//! kept, `lazy.rs`), the move prefix, and the descent into the next level.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{Block, BlockArg, InstBuilder, Value};
use rbg_engine::raw::NONE;

use super::{Mode, Walk, FLAGS};
use crate::rt::{self, Off};

impl<'a, 'b> Walk<'a, 'b> {
    /// Puts piece `p` (a value) on `v`.
    pub(super) fn set_piece_dyn(&mut self, v: Value, p: Value) {
        let a = self.addr_in(Off::BOARD, v, 4);
        let old = self.b.ins().load(I32, FLAGS, a, 0);
        self.b.ins().store(FLAGS, p, a, 0);
        self.count(old, -1);
        self.count(p, 1);
        self.list_bit(old, None, v, false);
        self.list_bit(p, None, v, true);
    }

    /// Puts constant piece `p` on `v`, keeping the counts and the lists
    /// in step as `keeps` says (`lazy.rs`); returns the old piece.
    pub(super) fn set_piece_const(
        &mut self,
        v: Value,
        p: u32,
        (counts, lists): (bool, bool),
    ) -> Value {
        let a = self.addr_in(Off::BOARD, v, 4);
        let old = self.b.ins().load(I32, FLAGS, a, 0);
        let pv = self.b.ins().iconst(I32, p as i64);
        self.b.ins().store(FLAGS, pv, a, 0);
        if counts {
            self.count(old, -1);
            self.count(pv, 1);
        }
        if lists {
            self.list_bit(old, None, v, false);
            self.list_bit(pv, Some(p), v, true);
        }
        old
    }

    /// Puts `old` back on `v`, where constant piece `p` is (the counts and
    /// lists as `set_piece_const` kept them).
    pub(super) fn unset_piece(
        &mut self,
        v: Value,
        p: u32,
        old: Value,
        (counts, lists): (bool, bool),
    ) {
        let a = self.addr_in(Off::BOARD, v, 4);
        self.b.ins().store(FLAGS, old, a, 0);
        let pv = self.b.ins().iconst(I32, p as i64);
        if counts {
            self.count(pv, -1);
            self.count(old, 1);
        }
        if lists {
            self.list_bit(pv, Some(p), v, false);
            self.list_bit(old, None, v, true);
        }
    }

    pub(super) fn count(&mut self, p: Value, delta: i64) {
        let a = self.addr_in(Off::COUNTS, p, 4);
        let x = self.b.ins().load(I32, FLAGS, a, 0);
        let x = self.b.ins().iadd_imm(x, delta);
        self.b.ins().store(FLAGS, x, a, 0);
    }

    /// Sets (or clears) `v`'s bit in the piece list of piece `p` (given as
    /// a value, and as a constant when known), if that piece is tracked.
    pub(super) fn list_bit(&mut self, p: Value, known: Option<u32>, v: Value, set: bool) {
        let c = self.c;
        if c.num_lists == 0 {
            return;
        }
        let k = match known {
            Some(p) if c.piece_list[p as usize] == NONE => return,
            Some(p) => self.b.ins().iconst(I32, c.piece_list[p as usize] as i64),
            None => {
                let tab = self.table(&c.piece_list);
                let a = self.addr(tab, p, 4);
                self.b.ins().load(I32, FLAGS, a, 0)
            }
        };
        let done = self.b.create_block();
        if known.is_none() {
            let tracked = self.b.ins().icmp_imm(IntCC::NotEqual, k, NONE as i64);
            self.require(tracked, done);
        }
        // Word `k * words + v / 64` of the lists (`v / 64` is 0 with one
        // word a list); bit `v % 64` (shift amounts are taken modulo 64).
        let bits = self.wload(I64, Off::BITS);
        let v64 = self.b.ins().uextend(I64, v);
        let list = self.addr(bits, k, c.words as i64 * 8);
        let a = match c.words {
            1 => list,
            _ => {
                let word = self.b.ins().ushr_imm(v64, 6);
                let off = self.b.ins().ishl_imm(word, 3);
                self.b.ins().iadd(list, off)
            }
        };
        let x = self.b.ins().load(I64, FLAGS, a, 0);
        let one = self.b.ins().iconst(I64, 1);
        let bit = self.b.ins().ishl(one, v64);
        let x = if set {
            self.b.ins().bor(x, bit)
        } else {
            let nb = self.b.ins().bnot(bit);
            self.b.ins().band(x, nb)
        };
        self.b.ins().store(FLAGS, x, a, 0);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
    }

    /// Appends modifier `a` applied at `v` (i32 values) to the move
    /// prefix, in a rules walk: returns the prefix's length before it.
    pub(super) fn record_modifier(&mut self, a: Value, v: Value) -> Option<Value> {
        if self.mode != Mode::Rules {
            return None;
        }
        let len = self.grow_if_full(Off::CUR_LEN, Off::CUR_CAP, rt::grow_cur);
        self.append_pair(Off::CUR, Off::CUR_LEN, len, a, v);
        if self.f.keys.is_some() {
            // The keyed walk: the first atom's key, for the moves recorded
            // below it (`state.rs`, `switch`).
            let first = self.b.ins().icmp_imm(IntCC::Equal, len, 0);
            let (set, cont) = (self.b.create_block(), self.b.create_block());
            self.b.ins().brif(first, set, &[], cont, &[]);
            self.b.switch_to_block(set);
            let key = self.key_of(a, v);
            self.wstore(key, Off::KEY0);
            self.b.ins().jump(cont, &[]);
            self.b.switch_to_block(cont);
        }
        Some(len)
    }

    /// The key of atom (`a`, `v`) (i32 values) in the keyed walk: the key
    /// table's entry as constants where `a` is one, else read from the
    /// table.
    pub(super) fn key_of(&mut self, a: Value, v: Value) -> Value {
        let table = self.f.keys.clone().expect("the keyed walk");
        let last = table.len() as u32 - 1;
        if let Some(k) = self.const_of(a) {
            let [base, mask] = table[(k as u32).min(last) as usize];
            let x = match mask {
                0 => return self.b.ins().iconst(I32, base as i64),
                u32::MAX => v,
                m => self.b.ins().band_imm(v, m as i64),
            };
            return self.b.ins().iadd_imm(x, base as i64);
        }
        let lim = self.b.ins().iconst(I32, last as i64);
        let i = self.b.ins().umin(a, lim);
        let t = self.b.ins().iconst(I64, table.as_ptr() as i64);
        let e = self.addr(t, i, 8);
        let base = self.b.ins().load(I32, FLAGS, e, 0);
        let mask = self.b.ins().load(I32, FLAGS, e, 4);
        let x = self.b.ins().band(v, mask);
        self.b.ins().iadd(x, base)
    }

    /// After modifier `a` was applied at `v`, replacing `change` (a cell
    /// and its old value, see `rt::watch`): walks the next level within the
    /// bounds (`bound.rs`) and undoes the modifier with `undo`, unless the
    /// keeper stopped there: then `rt::kept` settles it (`lazy.rs`; `kept`:
    /// the piece put, or `NONE` for a variable, and what it left stale).
    /// Returns false when the code ended the block.
    pub(super) fn descend(
        &mut self,
        a: u32,
        v: Value,
        skip: Block,
        change: (Value, Value),
        undo: impl FnOnce(&mut Self),
        kept: (u32, i64),
    ) -> bool {
        let (go, undone) = (self.b.create_block(), self.b.create_block());
        self.b.append_block_param(undone, I32);
        let inline = self.inline_members(a);
        let av = self.b.ins().iconst(I32, a as i64);
        let level = self.level();
        let lvl = self.b.ins().iadd_imm(level, 1);
        // A called level checks the bounds and records the modifier itself
        // (one copy per function instead of one per modifier).
        let mut cur_len = None;
        if inline.is_some() {
            self.bound((av, v, lvl), change, go, undone);
            self.b.switch_to_block(go);
            cur_len = self.record_modifier(av, v);
        } else {
            self.b.ins().jump(go, &[]);
            self.b.switch_to_block(go);
            if self.mode == Mode::Rules {
                cur_len = Some(self.wload(I64, Off::CUR_LEN));
            }
        }
        // A new version for the memo, where a pattern can be decided
        // before the modifier is undone.
        let memo = self.c.num_memos > 0 && self.reads.patterns[a as usize];
        let mut saved = None;
        if memo {
            let ver = self.wload(I64, Off::VERSION);
            let last = self.wload(I64, Off::LAST_VERSION);
            let last = self.b.ins().iadd_imm(last, 1);
            self.wstore(last, Off::LAST_VERSION);
            self.wstore(last, Off::VERSION);
            saved = Some(ver);
        }
        let stopped = match inline {
            Some(members) => self.inline_level(a, v, &members),
            None => {
                let call = self
                    .b
                    .ins()
                    .call(self.f.this, &[av, v, lvl, change.0, change.1]);
                self.called();
                self.b.inst_results(call)[0]
            }
        };
        if self.mode == Mode::Rules {
            // The keeper keeps its move (a collecting walk never stops),
            // unless the walk stopped on a fault: decided, and the
            // modifier settled, out of line (a walk stops once per run).
            let (cont, check) = (self.b.create_block(), self.b.create_block());
            self.b.set_cold_block(check);
            self.b.ins().brif(stopped, check, &[], cont, &[]);
            self.b.switch_to_block(check);
            let ws = self.ws();
            let p = self.b.ins().iconst(I32, kept.0 as i64);
            let old = change.1;
            let stale = self.b.ins().iconst(I32, kept.1);
            let f = self.b.ins().iconst(I64, rt::kept as *const () as i64);
            let call = self
                .b
                .ins()
                .call_indirect(self.f.sig_kept, f, &[ws, v, p, old, stale]);
            self.called();
            let keep = self.b.inst_results(call)[0];
            self.b.ins().brif(keep, self.fr.stop, &[], cont, &[]);
            self.b.switch_to_block(cont);
        }
        if let Some(ver) = saved {
            self.wstore(ver, Off::VERSION);
        }
        if let Some(len) = cur_len {
            self.wstore(len, Off::CUR_LEN);
        }
        self.b.ins().jump(undone, &[BlockArg::Value(stopped)]);
        self.b.switch_to_block(undone);
        let stopped = self.b.block_params(undone)[0];
        undo(self);
        self.b.ins().brif(stopped, self.fr.stop, &[], skip, &[]);
        false
    }
}
