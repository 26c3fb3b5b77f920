//! Recording a legal move, inline at each switch of the rules walk: appends
//! the move prefix and the final switch to the output list's buffers
//! (`Ws::out_*`, the caller's `MoveList`), growing them through a helper
//! only when full. Atoms are `ModApp`s (`repr(C)`: action, then vertex),
//! copied as 8-byte blocks. Inline rather than a function: a call clobbers
//! the caller-saved registers, so the walk spilled its live values around
//! every recorded move: inline, breakthrough -10% instructions per state,
//! reversi -2%, chess +0.4%, for ~35 IR instructions per switch (chess's
//! rules +9%, reversi's +37%: its code generation 85-100 -> 100-135 ms).

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{InstBuilder, MemFlags, SigRef, Value};
use cranelift_frontend::{FunctionBuilder, Variable};

use crate::rt::{self, Off};

const FLAGS: MemFlags = MemFlags::trusted();

/// Emits the recording of the move that ends with switch `action` at
/// `vertex` (i32 values) into `b`'s current block, and continues in a new
/// block; `sig_grow` is the signature of the growing helper `(ws, atoms
/// needed, action) -> ()`, `i` a fresh i64 variable. The workspace is the
/// pinned register. With `key` (the keyed walk, `crate::compile_keyed`):
/// the move's key beside its end, `key` (the switch's) when the prefix is
/// empty, else the first atom's (`Ws::key0`).
pub(crate) fn emit(
    b: &mut FunctionBuilder,
    sig_grow: SigRef,
    i: Variable,
    action: Value,
    vertex: Value,
    key: Option<Value>,
) {
    let ws = b.ins().get_pinned_reg(I64);
    let n = b.ins().load(I64, FLAGS, ws, Off::CUR_LEN);
    let len = b.ins().load(I64, FLAGS, ws, Off::OUT_ATOMS_LEN);
    let need = b.ins().iadd(len, n);
    let need = b.ins().iadd_imm(need, 1);
    let cap = b.ins().load(I64, FLAGS, ws, Off::OUT_ATOMS_CAP);
    let ends_len = b.ins().load(I64, FLAGS, ws, Off::OUT_ENDS_LEN);
    let ends_cap = b.ins().load(I64, FLAGS, ws, Off::OUT_ENDS_CAP);
    let short = b.ins().icmp(IntCC::UnsignedGreaterThan, need, cap);
    let ends_full = b.ins().icmp(IntCC::Equal, ends_len, ends_cap);
    let grow_any = b.ins().bor(short, ends_full);
    let (grow, write) = (b.create_block(), b.create_block());
    b.set_cold_block(grow);
    b.ins().brif(grow_any, grow, &[], write, &[]);
    b.switch_to_block(grow);
    let f = b.ins().iconst(I64, rt::grow_out as *const () as i64);
    let ws1 = b.ins().get_pinned_reg(I64);
    b.ins().call_indirect(sig_grow, f, &[ws1, need, action]);
    b.ins().jump(write, &[]);
    b.switch_to_block(write);
    let ws = b.ins().get_pinned_reg(I64);
    let atoms = b.ins().load(I64, FLAGS, ws, Off::OUT_ATOMS);
    let cur = b.ins().load(I64, FLAGS, ws, Off::CUR);
    let off = b.ins().ishl_imm(len, 3);
    let dst = b.ins().iadd(atoms, off);
    // Copy the prefix: for i in 0..n { dst[i] = cur[i] }.
    let zero = b.ins().iconst(I64, 0);
    b.def_var(i, zero);
    let (head, body, last) = (b.create_block(), b.create_block(), b.create_block());
    b.ins().jump(head, &[]);
    b.switch_to_block(head);
    let iv = b.use_var(i);
    let more = b.ins().icmp(IntCC::UnsignedLessThan, iv, n);
    b.ins().brif(more, body, &[], last, &[]);
    b.switch_to_block(body);
    let o = b.ins().ishl_imm(iv, 3);
    let src = b.ins().iadd(cur, o);
    let x = b.ins().load(I64, FLAGS, src, 0);
    let d = b.ins().iadd(dst, o);
    b.ins().store(FLAGS, x, d, 0);
    let i1 = b.ins().iadd_imm(iv, 1);
    b.def_var(i, i1);
    b.ins().jump(head, &[]);
    b.switch_to_block(last);
    let o = b.ins().ishl_imm(n, 3);
    let d = b.ins().iadd(dst, o);
    b.ins().store(FLAGS, action, d, 0);
    b.ins().store(FLAGS, vertex, d, 4);
    b.ins().store(FLAGS, need, ws, Off::OUT_ATOMS_LEN);
    let ends = b.ins().load(I64, FLAGS, ws, Off::OUT_ENDS);
    let o = b.ins().ishl_imm(ends_len, 2);
    let d = b.ins().iadd(ends, o);
    let need32 = b.ins().ireduce(I32, need);
    b.ins().store(FLAGS, need32, d, 0);
    let ends_len1 = b.ins().iadd_imm(ends_len, 1);
    b.ins().store(FLAGS, ends_len1, ws, Off::OUT_ENDS_LEN);
    if let Some(key) = key {
        let key0 = b.ins().load(I32, FLAGS, ws, Off::KEY0);
        let key = b.ins().select(n, key0, key);
        let keys = b.ins().load(I64, FLAGS, ws, Off::OUT_KEYS);
        let d = b.ins().iadd(keys, o);
        b.ins().store(FLAGS, key, d, 0);
    }
}
