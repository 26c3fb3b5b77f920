//! The bounds of a walk, as the interpreter's `Searcher::descend`: before a
//! modifier starts the next level (at the entry of the called walk, which
//! gets the modifier as parameters, or before an inlined level), the
//! common case pays one comparison of the level with
//! `limits::WATCH_FROM_LEVEL` and one of the search's modifier budget with
//! zero (and the budget's decrement); deep levels, a
//! spent budget and faults call `rt::watch`, which logs the level to find a
//! move that comes back to an earlier state and checks the limits.
//!
//! The native code does not call `PathLog::leave` (entering a level
//! forgets deeper entries). A fault sets the budget to 0, so every level
//! unwinds at its next modifier; the keeper keeps a stopped walk's move
//! only without a fault (`Ws::faulted`). Levels are also limited to 1 MiB
//! of native stack over the largest walk frame (Cranelift's `frame_size`:
//! 5 KB for arimaa, so 153 levels; 200-1000 for chess and draughts, 2000
//! for small games). Cost: ~3% more instructions per breakthrough playout,
//! no difference in time beyond noise (alternated runs).

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{Block, BlockArg, InstBuilder, Value};
use rbg_engine::limits::WATCH_FROM_LEVEL;

use super::{Walk, FLAGS};
use crate::rt::{self, Off};

impl Walk<'_, '_> {
    /// Before modifier `a` (an i32), applied at `v` and replacing
    /// `(cell, old)`, starts level `lvl`: continues at `go`, or at
    /// `stopped` with 1 (the walk stops; the modifier is still to be
    /// undone). Ends the current block.
    pub(super) fn bound(
        &mut self,
        (a, v, lvl): (Value, Value, Value),
        (cell, old): (Value, Value),
        go: Block,
        stopped: Block,
    ) {
        let b = &mut self.b;
        let deep = b.ins().icmp_imm(
            IntCC::UnsignedGreaterThanOrEqual,
            lvl,
            WATCH_FROM_LEVEL as i64,
        );
        let (shallow, fast, slow) = (b.create_block(), b.create_block(), b.create_block());
        b.set_cold_block(slow);
        // Two branches on compares (no flags combined): cmp, jae, load,
        // test, jz, decrement, store.
        b.ins().brif(deep, slow, &[], shallow, &[]);
        b.switch_to_block(shallow);
        let ws = b.ins().get_pinned_reg(I64);
        let budget = b.ins().load(I64, FLAGS, ws, Off::BUDGET);
        b.ins().brif(budget, fast, &[], slow, &[]);
        b.switch_to_block(fast);
        let left = b.ins().iadd_imm(budget, -1);
        let ws = b.ins().get_pinned_reg(I64);
        b.ins().store(FLAGS, left, ws, Off::BUDGET);
        b.ins().jump(go, &[]);
        b.switch_to_block(slow);
        let f = b.ins().iconst(I64, rt::watch as *const () as i64);
        let ws = b.ins().get_pinned_reg(I64);
        let call = b
            .ins()
            .call_indirect(self.f.sig_watch, f, &[ws, a, v, lvl, cell, old]);
        // Nonzero (1) when it stops.
        let stop = b.inst_results(call)[0];
        b.ins()
            .brif(stop, stopped, &[BlockArg::Value(stop)], go, &[]);
    }
}
