//! Operands, places and writes: reading a slot, a table's entry or a
//! constant, resolving an assignment's target, and the write with its
//! undo-log push and key-hash update.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I16, I32, I64};
use cranelift_codegen::ir::{InstBuilder, InstructionData, Opcode, Value, ValueDef};
use rg_engine::raw::{Fast, Mem, Operand, Place, NO_SLOT};

use super::{Gen, FLAGS};
use crate::rt::{self, Off};

impl Gen<'_, '_> {
    /// The address of `fun[index]` for a constant table offset and a value:
    /// from the table base ([`Gen::fun_base`]) unless the table's address
    /// is a 32-bit displacement (where the heap lies low), which needs no
    /// base.
    pub(super) fn fun_at(&mut self, table: u32, index: Value) -> Value {
        let i = self.widen(index);
        let off = self.b.ins().ishl_imm(i, 2);
        let fun = &self.t.fun;
        let end = fun.as_ptr() as usize + 4 * fun.len();
        if end <= i32::MAX as usize {
            let base = fun.as_ptr() as i64 + 4 * table as i64;
            return self.b.ins().iadd_imm(off, base);
        }
        let base = self.fun_base();
        let at = self.b.ins().iadd(base, off);
        self.b.ins().iadd_imm(at, 4 * table as i64)
    }

    pub(super) fn fun(&mut self, table: u32, index: Value) -> Value {
        let entry = self
            .konst(index)
            .and_then(|k| self.t.fun.get(table as usize + k as usize));
        if let Some(&v) = entry {
            return self.b.ins().iconst(I32, v as i64);
        }
        let a = self.fun_at(table, index);
        self.load(I32, a, 0)
    }

    /// `fun[table + st[s]]` where slot `s` is a loop's symbol by its index
    /// ([`Gen::at`]): one load from a table of the entries over the index
    /// (kept in the build's store), not the symbol's and then the entry's.
    fn indexed(&mut self, s: u32, table: u32) -> Option<Value> {
        let x = self.at.filter(|x| x.slot == s)?;
        let t = self.t;
        let syms = &t.any_syms[x.start as usize..(x.start + x.len) as usize];
        let entries: Option<Box<[u32]>> = syms
            .iter()
            .map(|&v| t.fun.get(table as usize + v as usize).copied())
            .collect();
        let base = self.word_table(entries?);
        let i = self.b.ins().uextend(I64, x.i);
        let off = self.b.ins().ishl_imm(i, 2);
        let a = self.b.ins().iadd_imm(off, base as i64);
        Some(self.load(I32, a, 0))
    }

    /// The value of `v` where it is a constant of the generator's.
    pub(super) fn konst(&self, v: Value) -> Option<u32> {
        let dfg = &self.b.func.dfg;
        let ValueDef::Result(inst, _) = dfg.value_def(v) else {
            return None;
        };
        match dfg.insts[inst] {
            InstructionData::UnaryImm {
                opcode: Opcode::Iconst,
                imm,
            } => u32::try_from(imm.bits()).ok(),
            _ => None,
        }
    }

    /// `st[slot]` for a constant slot.
    pub(super) fn slot(&mut self, s: u32) -> Value {
        if let Some(x) = self.at.filter(|x| x.slot == s) {
            return self.any_sym(x.start, x.i);
        }
        if let Some((k, v)) = self.known {
            if k == s {
                return v;
            }
        }
        let (base, off) = self.slot_ref(s);
        self.b.ins().uload16(I32, FLAGS, base, off)
    }

    /// `st[slot]` for a computed slot.
    pub(super) fn slot_at(&mut self, s: Value) -> Value {
        if let Some(k) = self.konst(s) {
            return self.slot(k);
        }
        let (a, at) = self.st_addr(s);
        self.b.ins().uload16(I32, FLAGS, a, at)
    }

    /// The address of slot `s` (a value) as a base and a displacement
    /// ([`Gen::slot_ref`]'s, the bias of walk functions folded into it).
    pub(super) fn st_addr(&mut self, s: Value) -> (Value, i32) {
        let i = self.widen(s);
        let off = self.b.ins().ishl_imm(i, 1);
        let (st, at) = self.slot_ref(0);
        (self.b.ins().iadd(st, off), at)
    }

    /// `fun[table + st[s]]` (I32): over a loop's index where `s` is its
    /// symbol ([`Gen::indexed`]), else the slot's value, then the entry.
    fn tab(&mut self, s: u32, table: u32) -> Value {
        match self.indexed(s, table) {
            Some(v) => v,
            None => {
                let k = self.slot(s);
                self.fun(table, k)
            }
        }
    }

    /// The value of an operand (I32).
    pub(super) fn operand(&mut self, o: Operand) -> Value {
        match o {
            Operand::Imm(v) => self.b.ins().iconst(I32, v as i64),
            Operand::Slot(s) => self.slot(s),
            Operand::Tab(s, table) => self.tab(s, table),
            Operand::Ind(s, table) => {
                let slot = self.tab(s, table);
                self.slot_at(slot)
            }
            Operand::Read(i) => match self.t.fast[i as usize] {
                Fast::TabInd(s, inner, outer) => {
                    let k = self.operand(Operand::Ind(s, inner));
                    self.fun(outer, k)
                }
                Fast::IndInd(s, inner, outer) => {
                    let k = self.operand(Operand::Ind(s, inner));
                    let slot = self.fun(outer, k);
                    self.slot_at(slot)
                }
                Fast::TabIndInd(s, inner, mid, outer) => {
                    let k = self.operand(Operand::Ind(s, inner));
                    let slot = self.fun(mid, k);
                    let v = self.slot_at(slot);
                    self.fun(outer, v)
                }
                Fast::Pair {
                    first,
                    second,
                    first_table,
                    second_table,
                } => {
                    let a = self.operand(first);
                    let a = self.fun(first_table, a);
                    let b = self.operand(second);
                    let b = self.fun(second_table, b);
                    let (a, b) = (self.widen(a), self.widen(b));
                    let i = self.b.ins().iadd(a, b);
                    let off = self.b.ins().ishl_imm(i, 1);
                    let a = self.b.ins().iadd_imm(off, self.t.consts.as_ptr() as i64);
                    self.b.ins().uload16(I32, FLAGS, a, 0)
                }
                Fast::General if crate::safe::native_read(self.t, i) => self.read(i),
                Fast::General => {
                    let zero = self.b.ins().iconst(I32, 0);
                    let i = self.b.ins().iconst(I32, i as i64);
                    self.call(rt::read, i, zero)
                }
            },
        }
    }

    /// Computed read `i` ([`crate::safe::native_read`]): its root's
    /// first slot plus per key step the key's index in its set (a key
    /// outside the set reads the default entry) times the step's stride,
    /// read from the semistate or the constants (I32).
    fn read(&mut self, i: u32) -> Value {
        let t = self.t;
        let a = t.reads[i as usize];
        let mut off = None;
        for s in &t.steps[a.steps.0 as usize..(a.steps.0 + a.steps.1) as usize] {
            let k = self.operand(s.key);
            let k = self.widen(k);
            let k = self.b.ins().ishl_imm(k, 1);
            let keys = t.keys.table.as_ptr() as i64 + 2 * s.table as i64;
            let at = self.b.ins().iadd_imm(k, keys);
            let x = self.b.ins().uload16(I64, FLAGS, at, 0);
            let x = self.b.ins().imul_imm(x, 2 * s.stride as i64);
            off = Some(match off {
                None => x,
                Some(o) => self.b.ins().iadd(o, x),
            });
        }
        let (mem, base) = match a.mem {
            Mem::State => self.slot_ref(a.base),
            Mem::Const => {
                let c = self.b.ins().iconst(I64, t.consts.as_ptr() as i64);
                (c, 2 * a.base as i32)
            }
        };
        let at = match off {
            Some(o) => self.b.ins().iadd(mem, o),
            None => mem,
        };
        self.b.ins().uload16(I32, FLAGS, at, base)
    }

    /// The slot a place denotes: a constant, or a value (a key outside the
    /// map's keys fails the walk).
    pub(super) fn place(&mut self, p: Place) -> Result<u32, Value> {
        let (slot, key) = match p {
            Place::Slot(s) => return Ok(s),
            Place::Ind(s, table) => {
                let k = self.slot(s);
                (self.fun(table, k), k)
            }
            Place::Gen(i) => match self.t.fast[i as usize] {
                Fast::IndInd(s, inner, outer) => {
                    let k = self.operand(Operand::Ind(s, inner));
                    (self.fun(outer, k), k)
                }
                _ => {
                    let zero = self.b.ins().iconst(I32, 0);
                    let i = self.b.ins().iconst(I32, i as i64);
                    let r = self.call(rt::place, i, zero);
                    self.check_failed(r);
                    return Err(r);
                }
            },
        };
        let foreign = self.b.ins().icmp_imm(IntCC::Equal, slot, NO_SLOT as i64);
        let kept = self.kept();
        let [bad, ok] = self.blocks();
        self.b.set_cold_block(bad);
        self.b.ins().brif(foreign, bad, &[], ok, &[]);
        self.b.switch_to_block(bad);
        let kind = self.b.ins().iconst(I32, rt::FAIL_KEY as i64);
        self.call(rt::fail, kind, key);
        self.b.ins().jump(self.fail, &[]);
        self.enter_keeping(ok, kept);
        Err(slot)
    }

    /// `st[slot] = v`, logged, hashed and versioned; `room`: the log's
    /// length where it has room for the entry ([`Gen::log_room`]), else
    /// the room is made here.
    pub(super) fn write(&mut self, slot: Result<u32, Value>, v: Value, room: Option<Value>) {
        let ((addr, at), slot_v) = match slot {
            Ok(s) => (self.slot_ref(s), self.b.ins().iconst(I32, s as i64)),
            Err(s) => (self.st_addr(s), s),
        };
        let old = self.b.ins().uload16(I32, FLAGS, addr, at);
        // Log push.
        let len = match room {
            Some(len) => len,
            None => {
                let len = self.ws_load(Off::LOG_LEN);
                let cap = self.ws_load(Off::LOG_CAP);
                let full = self.b.ins().icmp(IntCC::Equal, len, cap);
                let zero = self.b.ins().iconst(I32, 0);
                self.grow_if(full, rt::grow_log, zero);
                len
            }
        };
        let log = self.ws_load(Off::LOG);
        let off = self.b.ins().ishl_imm(len, 3);
        let e = self.b.ins().iadd(log, off);
        self.b.ins().store(FLAGS, slot_v, e, 0);
        self.b.ins().store(FLAGS, old, e, 4);
        let len1 = self.b.ins().iadd_imm(len, 1);
        self.ws_store(len1, Off::LOG_LEN);
        let v16 = self.b.ins().ireduce(I16, v);
        self.b.ins().store(FLAGS, v16, addr, at);
        // Key hash: `hash += mul[slot] * (v - old)`.
        // (Only where something reads the key hash.)
        if let Some(m) = self.here.hash.then(|| self.hash_mul(slot)).flatten() {
            let v64 = self.b.ins().uextend(I64, v);
            let old64 = self.b.ins().uextend(I64, old);
            let d = self.b.ins().isub(v64, old64);
            let d = self.b.ins().imul(m, d);
            let h = self.ws_load(Off::HASH);
            let h = self.b.ins().iadd(h, d);
            self.ws_store(h, Off::HASH);
        }
        if self.here.version {
            let nv = self.ws_load(Off::NEXT_VERSION);
            self.ws_store(nv, Off::VERSION);
            let nv1 = self.b.ins().iadd_imm(nv, 1);
            self.ws_store(nv1, Off::NEXT_VERSION);
        }
    }

    /// The key hash's multiplier of `slot` (`None`: zero).
    pub(super) fn hash_mul(&mut self, slot: Result<u32, Value>) -> Option<Value> {
        match slot {
            Ok(s) => match self.t.hash_mul[s as usize] {
                0 => None,
                m => Some(self.b.ins().iconst(I64, m as i64)),
            },
            Err(s) => {
                let i = self.widen(s);
                let off = self.b.ins().ishl_imm(i, 3);
                let a = self.b.ins().iadd_imm(off, self.t.hash_mul.as_ptr() as i64);
                Some(self.load(I64, a, 0))
            }
        }
    }
}
