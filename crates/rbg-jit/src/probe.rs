//! Probes (`rbg-engine/src/probe.rs`) as straight code: one function per
//! probed pattern, `(board, vertex) -> holds`, each instruction a block
//! whose column is a table load and whose row is two bit-mask tests, with
//! the vertex registers as variables.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{InstBuilder, MemFlags, Value};
use cranelift_frontend::{FunctionBuilder, Variable};
use rbg_engine::raw::{Compiled, ACCEPT, FAIL, NONE, STEP_ACCEPTS, STEP_GOES_ON};

const FLAGS: MemFlags = MemFlags::trusted();
const REGS: u32 = 16;

/// Emits the program starting at `pc0` into `b` (signature
/// `(board: i64, v: i32) -> i32`).
pub(crate) fn emit(c: &Compiled, pc0: u32, mut b: FunctionBuilder) {
    let p = &c.probes;
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let (board, v0) = (b.block_params(entry)[0], b.block_params(entry)[1]);
    let regs: Vec<Variable> = (0..REGS)
        .map(|i| {
            let r = Variable::from_u32(i);
            b.declare_var(r, I32);
            r
        })
        .collect();
    let zero = b.ins().iconst(I32, 0);
    for &r in &regs[1..] {
        b.def_var(r, zero);
    }
    b.def_var(regs[0], v0);
    let (yes, no) = (b.create_block(), b.create_block());
    // Instructions reachable from `pc0`, in discovery order.
    let mut blocks = std::collections::HashMap::new();
    let mut order = vec![pc0];
    let mut i = 0;
    while i < order.len() {
        let pc = order[i];
        i += 1;
        if pc >= ACCEPT || blocks.contains_key(&pc) {
            continue;
        }
        blocks.insert(pc, b.create_block());
        let ins = p.ins[pc as usize];
        order.push(ins.ok);
        order.push(ins.fail);
    }
    let target = |pc: u32| match pc {
        ACCEPT => yes,
        FAIL => no,
        pc => blocks[&pc],
    };
    b.ins().jump(target(pc0), &[]);
    let np = c.num_pieces as usize;
    for (&pc, &blk) in &blocks {
        let ins = p.ins[pc as usize];
        b.switch_to_block(blk);
        let from = b.use_var(regs[ins.src as usize]);
        let cols = b
            .ins()
            .iconst(I64, p.cols.as_ptr() as i64 + ins.col as i64 * 4);
        let a = index(&mut b, cols, from, 4);
        let t = b.ins().load(I32, FLAGS, a, 0);
        let has = b.ins().icmp_imm(IntCC::NotEqual, t, NONE as i64);
        let look = b.create_block();
        b.ins().brif(has, look, &[], target(ins.fail), &[]);
        b.switch_to_block(look);
        let a = index(&mut b, board, t, 4);
        let piece = b.ins().load(I32, FLAGS, a, 0);
        let row = &p.rows[ins.row as usize..ins.row as usize + np];
        let go_on = b.create_block();
        let accepts = test(&mut b, row, STEP_ACCEPTS, piece);
        let not_acc = b.create_block();
        b.ins().brif(accepts, yes, &[], not_acc, &[]);
        b.switch_to_block(not_acc);
        let goes = test(&mut b, row, STEP_GOES_ON, piece);
        b.ins().brif(goes, go_on, &[], target(ins.fail), &[]);
        b.switch_to_block(go_on);
        b.def_var(regs[ins.dst as usize], t);
        b.ins().jump(target(ins.ok), &[]);
    }
    for (blk, r) in [(yes, 1), (no, 0)] {
        b.switch_to_block(blk);
        let r = b.ins().iconst(I32, r);
        b.ins().return_(&[r]);
    }
    b.seal_all_blocks();
    b.finalize();

    /// Whether the row's cell for `piece` is `step`.
    fn test(b: &mut FunctionBuilder, row: &[u8], step: u8, piece: Value) -> Value {
        if row.len() <= 64 {
            let mask = row
                .iter()
                .enumerate()
                .fold(0u64, |m, (i, &x)| m | ((x == step) as u64) << i);
            let m = b.ins().iconst(I64, mask as i64);
            let p64 = b.ins().uextend(I64, piece);
            let sh = b.ins().ushr(m, p64);
            b.ins().band_imm(sh, 1)
        } else {
            let tab = b.ins().iconst(I64, row.as_ptr() as i64);
            let a = index(b, tab, piece, 1);
            let cell = b.ins().uload8(I32, FLAGS, a, 0);
            b.ins().icmp_imm(IntCC::Equal, cell, step as i64)
        }
    }
}

fn index(b: &mut FunctionBuilder, base: Value, i: Value, size: i64) -> Value {
    let i = b.ins().uextend(I64, i);
    let off = b.ins().imul_imm(i, size);
    b.ins().iadd(base, off)
}
