//! A level's frame: its stack slot (level number, stack base), its visited
//! set (stamps and generation), and the node stack it pushes to.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{Block, BlockArg, InstBuilder, Value};
use rbg_engine::raw::{Op, NONE};

use super::{switch_groups, Walk, FLAGS, FR_BASE, FR_GEN, FR_LEVEL, FR_STAMPS};
use crate::rt::{self, Off};

impl<'a, 'b> Walk<'a, 'b> {
    /// The level number (i32).
    pub(super) fn level(&mut self) -> Value {
        self.b.ins().stack_load(I32, self.fr.slot, FR_LEVEL)
    }

    /// The stack length when the level started (i64).
    pub(super) fn base(&mut self) -> Value {
        self.b.ins().stack_load(I64, self.fr.slot, FR_BASE)
    }

    /// The level's visited set: (stamps pointer, generation).
    pub(super) fn stamps(&mut self) -> (Value, Value) {
        assert!(self.fr.stamps, "slots imply a level");
        let st = self.b.ins().stack_load(I64, self.fr.slot, FR_STAMPS);
        let gen = self.b.ins().stack_load(I32, self.fr.slot, FR_GEN);
        (st, gen)
    }

    /// Starts a fresh visited set for this level (see `stamps`).
    pub(super) fn begin_level(&mut self) {
        let level = self.level();
        let b = &mut self.b;
        let ws = b.ins().get_pinned_reg(I64);
        let n = b.ins().load(I64, FLAGS, ws, Off::LEVELS_LEN);
        let lvl = b.ins().uextend(I64, level);
        let have = b.ins().icmp(IntCC::UnsignedLessThan, lvl, n);
        let (fast, fast2, slow, join) = (
            b.create_block(),
            b.create_block(),
            b.create_block(),
            b.create_block(),
        );
        b.append_block_param(join, I64);
        b.append_block_param(join, I32);
        b.set_cold_block(slow);
        b.ins().brif(have, fast, &[], slow, &[]);
        b.switch_to_block(fast);
        let ws = b.ins().get_pinned_reg(I64);
        let levels = b.ins().load(I64, FLAGS, ws, Off::LEVELS);
        let off = b.ins().imul_imm(lvl, Off::LEVEL_SIZE);
        let rec = b.ins().iadd(levels, off);
        let gen = b.ins().load(I32, FLAGS, rec, Off::LEVEL_GEN);
        let wraps = b.ins().icmp_imm(IntCC::Equal, gen, u32::MAX as i64);
        b.ins().brif(wraps, slow, &[], fast2, &[]);
        b.switch_to_block(fast2);
        let gen1 = b.ins().iadd_imm(gen, 1);
        b.ins().store(FLAGS, gen1, rec, Off::LEVEL_GEN);
        let st = b.ins().load(I64, FLAGS, rec, Off::LEVEL_STAMPS);
        b.ins()
            .jump(join, &[BlockArg::Value(st), BlockArg::Value(gen1)]);
        b.switch_to_block(slow);
        let f = b.ins().iconst(I64, rt::level_slow as *const () as i64);
        let ws = b.ins().get_pinned_reg(I64);
        let call = b.ins().call_indirect(self.f.sig_level, f, &[ws, level]);
        let rec = b.inst_results(call)[0];
        let gen = b.ins().load(I32, FLAGS, rec, Off::LEVEL_GEN);
        let st = b.ins().load(I64, FLAGS, rec, Off::LEVEL_STAMPS);
        b.ins()
            .jump(join, &[BlockArg::Value(st), BlockArg::Value(gen)]);
        b.switch_to_block(join);
        let (st, gen) = (b.block_params(join)[0], b.block_params(join)[1]);
        b.ins().stack_store(st, self.fr.slot, FR_STAMPS);
        b.ins().stack_store(gen, self.fr.slot, FR_GEN);
        self.fr.stamps = true;
    }

    /// Marks node (slot, t) or jumps to `skip` when already marked.
    pub(super) fn mark(&mut self, slot: u32, t: Value, skip: Block) {
        if slot == NONE {
            return;
        }
        let (stamps, gen) = self.stamps();
        // Stamp `slot * nv + t`: the slot's part as the access's offset.
        let row = slot as i64 * self.c.num_vertices as i64 * 4;
        let (a, at) = match i32::try_from(row) {
            Ok(row) => (self.addr(stamps, t, 4), row),
            Err(_) => {
                let base = self.b.ins().iadd_imm(stamps, row);
                (self.addr(base, t, 4), 0)
            }
        };
        let old = self.b.ins().load(I32, FLAGS, a, at);
        let fresh = self.b.ins().icmp(IntCC::NotEqual, old, gen);
        self.require(fresh, skip);
        self.b.ins().store(FLAGS, gen, a, at);
    }

    /// Makes room on the stack for the pushes of state `q`'s block outside
    /// loops (one check per state instead of one per push), at most
    /// `STACK_SLACK` of them: `rt::grow_stack` leaves that many free. A
    /// loop takes the room away (its pushes check the capacity each); a
    /// level walked inside the block (a modifier's, a pattern's) leaves
    /// the stack as long as it found it.
    pub(super) fn reserve(&mut self, q: u32) {
        let c = self.c;
        let found: usize = c
            .transitions(q)
            .iter()
            .map(|tr| match tr.op {
                Op::ShiftSwitch => switch_groups(c, tr).len(),
                Op::Multi | Op::MultiOn | Op::ScanOn => 0,
                Op::Off | Op::Assign | Op::Switch => 0,
                _ => !tr.ends as usize,
            })
            .sum();
        // The first node found is kept in `next`, not pushed. One push is
        // checked where it happens (the state's check would run at every
        // visit, the push's only when it pushes).
        let room = found.saturating_sub(1).min(rt::STACK_SLACK) as i64;
        if room < 2 {
            self.fr.room = 0;
            return;
        }
        self.fr.room = room as u32;
        let len = self.wload(I64, Off::STACK_LEN);
        let cap = self.wload(I64, Off::STACK_CAP);
        let free = self.b.ins().isub(cap, len);
        let short = self.b.ins().icmp_imm(IntCC::UnsignedLessThan, free, room);
        self.grow_if(short, rt::grow_stack);
    }

    /// Pushes node (q, v) on the stack: without a capacity check while the
    /// state's block has room (`reserve`).
    pub(super) fn push(&mut self, q: Value, v: Value) {
        let len = if self.fr.room > 0 {
            self.fr.room -= 1;
            self.wload(I64, Off::STACK_LEN)
        } else {
            self.grow_if_full(Off::STACK_LEN, Off::STACK_CAP, rt::grow_stack)
        };
        // An entry is `q` then `v`, 4 bytes each.
        self.append_pair(Off::STACK, Off::STACK_LEN, len, q, v);
    }
}
