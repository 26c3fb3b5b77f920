//! The values a walk reads and writes: the workspace (the pinned register)
//! and its fields and buffers, the game's tables as immediates, the board,
//! and piece sets as bit masks.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{InstBuilder, Value};

use super::{RunMode, Walk, FLAGS};
use crate::rt::{self, Off};

impl<'a, 'b> Walk<'a, 'b> {
    /// The workspace: the pinned register, read once per block (so that no
    /// value lives across blocks, or across a call: see `called`).
    pub(super) fn ws(&mut self) -> Value {
        let here = self.b.current_block();
        match self.ws_cache {
            Some((blk, ws)) if Some(blk) == here => ws,
            _ => {
                let ws = self.b.ins().get_pinned_reg(I64);
                self.ws_cache = here.map(|blk| (blk, ws));
                ws
            }
        }
    }

    /// After a call: the workspace is read again after it (a value kept
    /// across the call would be saved around it).
    pub(super) fn called(&mut self) {
        self.ws_cache = None;
    }

    /// The constant `x` is, if it is one.
    pub(super) fn const_of(&self, x: Value) -> Option<i64> {
        use cranelift_codegen::ir::{InstructionData, Opcode, ValueDef};
        let ValueDef::Result(inst, _) = self.b.func.dfg.value_def(x) else {
            return None;
        };
        match self.b.func.dfg.insts[inst] {
            InstructionData::UnaryImm {
                opcode: Opcode::Iconst,
                imm,
            } => Some(imm.bits()),
            _ => None,
        }
    }

    /// `x * k` (i64), a shift where `k` is a power of two.
    pub(super) fn scale(&mut self, x: Value, k: i64) -> Value {
        match k {
            1 => x,
            k if k > 0 && k & (k - 1) == 0 => self.b.ins().ishl_imm(x, k.trailing_zeros() as i64),
            k => self.b.ins().imul_imm(x, k),
        }
    }

    /// The workspace field at `off`.
    pub(super) fn wload(&mut self, ty: cranelift_codegen::ir::Type, off: i32) -> Value {
        let ws = self.ws();
        self.b.ins().load(ty, FLAGS, ws, off)
    }

    /// Stores `x` into the workspace field at `off`.
    pub(super) fn wstore(&mut self, x: Value, off: i32) {
        let ws = self.ws();
        self.b.ins().store(FLAGS, x, ws, off);
    }

    /// `field[index]`: `field` a buffer pointer of the workspace.
    pub(super) fn addr_in(&mut self, field: i32, index: Value, size: i64) -> Value {
        let base = self.wload(I64, field);
        self.addr(base, index, size)
    }

    /// Whether the run mode is `Keeper` (an i8).
    pub(super) fn keeper(&mut self) -> Value {
        let run = self.wload(I32, Off::RUN);
        self.b
            .ins()
            .icmp_imm(IntCC::Equal, run, RunMode::Keeper as i64)
    }

    /// `base[index]` (elements of `size` bytes, `index` an i32).
    pub(super) fn addr(&mut self, base: Value, index: Value, size: i64) -> Value {
        if let Some(k) = self.const_of(index) {
            return self.b.ins().iadd_imm(base, (k as u32 as i64) * size);
        }
        let i = self.b.ins().uextend(I64, index);
        let off = self.scale(i, size);
        self.b.ins().iadd(base, off)
    }

    pub(super) fn table<T>(&mut self, t: &[T]) -> Value {
        self.b.ins().iconst(I64, t.as_ptr() as i64)
    }

    /// The neighbour of `v` along `d` (or `NONE`).
    pub(super) fn neighbor(&mut self, v: Value, d: u32) -> Value {
        let tab = self.table(&self.c.neighbors);
        let stride = self.c.num_dirs as i64 * 4;
        let i = self.b.ins().uextend(I64, v);
        let off = self.scale(i, stride);
        let a = self.b.ins().iadd(tab, off);
        self.b.ins().load(I32, FLAGS, a, d as i32 * 4)
    }

    pub(super) fn piece(&mut self, v: Value) -> Value {
        let a = self.addr_in(Off::BOARD, v, 4);
        self.b.ins().load(I32, FLAGS, a, 0)
    }

    /// Whether piece `p` is in the set of `pieces`, a boolean row of the
    /// game's tables (which live as long as the code).
    pub(super) fn in_set(&mut self, p: Value, pieces: &'a [bool]) -> Value {
        if pieces.len() <= 64 {
            self.mask_test(p, pieces)
        } else {
            let tab = self.table(pieces);
            let a = self.addr(tab, p, 1);
            self.b.ins().uload8(I32, FLAGS, a, 0)
        }
    }

    /// Whether piece `p` (`< 64`) is in `set`: a bit of an immediate mask.
    pub(super) fn mask_test(&mut self, p: Value, set: &[bool]) -> Value {
        let mask = set
            .iter()
            .enumerate()
            .fold(0u64, |m, (i, &x)| m | (x as u64) << i);
        let m = self.b.ins().iconst(I64, mask as i64);
        let p64 = self.b.ins().uextend(I64, p);
        let sh = self.b.ins().ushr(m, p64);
        self.b.ins().band_imm(sh, 1)
    }

    /// Whether the `Op::ShiftSwitch` row starting at `row` sends piece `p`
    /// to state `to` (the pieces `set`).
    pub(super) fn switches_to(&mut self, p: Value, set: &[bool], row: u32, to: u32) -> Value {
        if set.len() <= 64 {
            return self.mask_test(p, set);
        }
        let cells = &self.c.switch_rows[row as usize..];
        let stride = std::mem::size_of::<(u32, u32)>() as i64;
        let field = (&cells[0].0 as *const u32 as i64) - (cells.as_ptr() as i64);
        let tab = self.b.ins().iconst(I64, cells.as_ptr() as i64 + field);
        let a = self.addr(tab, p, stride);
        let cell = self.b.ins().load(I32, FLAGS, a, 0);
        self.b.ins().icmp_imm(IntCC::Equal, cell, to as i64)
    }

    pub(super) fn on_row(&self, row: u32) -> &'a [bool] {
        let np = self.c.num_pieces as usize;
        &self.c.on_sets[row as usize..row as usize + np]
    }

    /// The length of the workspace buffer whose length and capacity are at
    /// `len_off` and `cap_off`, after calling `grow` (cold) when it is full:
    /// there is room for one more entry.
    pub(super) fn grow_if_full(
        &mut self,
        len_off: i32,
        cap_off: i32,
        grow: extern "C" fn(*mut rt::Ws),
    ) -> Value {
        let len = self.wload(I64, len_off);
        let cap = self.wload(I64, cap_off);
        let full = self.b.ins().icmp(IntCC::Equal, len, cap);
        self.grow_if(full, grow);
        len
    }

    /// Calls `grow` (cold) when `cond` holds, and continues in a new block.
    pub(super) fn grow_if(&mut self, cond: Value, grow: extern "C" fn(*mut rt::Ws)) {
        let (grow_block, cont) = (self.b.create_block(), self.b.create_block());
        self.b.set_cold_block(grow_block);
        self.b.ins().brif(cond, grow_block, &[], cont, &[]);
        self.b.switch_to_block(grow_block);
        let ws = self.ws();
        let f = self.b.ins().iconst(I64, grow as *const () as i64);
        self.b.ins().call_indirect(self.f.sig_ws, f, &[ws]);
        self.called();
        self.b.ins().jump(cont, &[]);
        self.b.switch_to_block(cont);
    }

    /// Writes `x` and `y` (4 bytes each) as entry `len` of the buffer of
    /// 8-byte entries at workspace field `buf`, and stores `len + 1` into
    /// its length field `len_off` (capacity tested by the caller).
    pub(super) fn append_pair(&mut self, buf: i32, len_off: i32, len: Value, x: Value, y: Value) {
        let base = self.wload(I64, buf);
        let off = self.b.ins().ishl_imm(len, 3);
        let a = self.b.ins().iadd(base, off);
        self.b.ins().store(FLAGS, x, a, 0);
        self.b.ins().store(FLAGS, y, a, 4);
        let len1 = self.b.ins().iadd_imm(len, 1);
        self.wstore(len1, len_off);
    }
}
