//! *One-slot checks* (`shortcut.rs` of rg-engine: checks whose walks
//! write one user slot only) as functions of their own: the interpreter's
//! `SlotSearch`, a search over (node, symbol) pairs stamped once each, the
//! slot set to the pair's symbol while a node's edges are tried (last to
//! first), then restored.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I16, I32, I64};
use cranelift_codegen::ir::{BlockArg, InstBuilder, SigRef, Value};
use cranelift_frontend::FunctionBuilder;
use rg_engine::raw::{Op, Tables, NO_SLOT};

use super::check::{finish_leaf, leaf_gen, walked};
use super::{Gen, FLAGS};
use crate::rt::{self, Off};

/// The nodes of one-slot check `c`'s search, the start first (the target
/// is not one); `None` unless `c` is a one-slot check (and not a probe or
/// a program, which the interpreter prefers) whose nodes all have a
/// stamp index.
fn region(t: &Tables, c: usize) -> Option<Vec<u32>> {
    let check = t.checks[c];
    if t.one_slot[c] == NO_SLOT || !walked(t, c) {
        return None;
    }
    let mut local = vec![false; t.nodes.len()];
    let mut order = vec![check.start];
    local[check.start as usize] = true;
    let mut k = 0;
    while k < order.len() {
        let n = order[k];
        k += 1;
        if t.slot_index[n as usize] == NO_SLOT {
            return None;
        }
        let info = t.nodes[n as usize];
        for e in &t.edges[info.first as usize..info.end as usize] {
            if e.to != check.target && !local[e.to as usize] {
                local[e.to as usize] = true;
                order.push(e.to);
            }
        }
    }
    Some(order)
}

/// If check `c` is a one-slot check generated code takes, the number of
/// edges of its search, else 0.
pub(crate) fn leaf_slot(t: &Tables, c: usize) -> usize {
    region(t, c).map_or(0, |order| {
        order
            .iter()
            .map(|&n| (t.nodes[n as usize].end - t.nodes[n as usize].first) as usize)
            .sum()
    })
}

/// Emits one-slot check `c` ([`leaf_slot`]) as a function with the
/// helpers' signature (`(ws, st, _, _) -> 1 reached, 0 not, FAILED`).
pub(crate) fn emit_slot(t: &Tables, c: usize, b: FunctionBuilder<'_>, sig: SigRef) {
    let check = t.checks[c];
    let order = region(t, c).expect("a one-slot check");
    let mut local = vec![u32::MAX; t.nodes.len()];
    for (k, &n) in order.iter().enumerate() {
        local[n as usize] = k as u32;
    }
    let slot = t.one_slot[c];
    let mut g = leaf_gen(t, b, sig);
    let gen = g.fresh_stamp(Off::SLOT_GEN, rt::clear_slot_marks);
    let at = g.ws_load(Off::SLOT_AT);
    let pending = g.ws_load(Off::SLOT_PENDING);
    let old = g.slot(slot);
    // The start with the slot's symbol, stamped.
    let s = SlotGen {
        at,
        pending,
        gen,
        symbols: t.symbols,
    };
    let i =
        g.b.ins()
            .iconst(I32, t.slot_index[check.start as usize] as i64);
    let a = s.stamp_at(&mut g, i, old);
    g.b.ins().store(FLAGS, gen, a, 0);
    let zero = g.b.ins().iconst(I32, 0);
    g.b.ins().store(FLAGS, zero, pending, 0);
    g.b.ins().store(FLAGS, old, pending, 4);
    let (lp, found, missed) = (g.b.create_block(), g.b.create_block(), g.b.create_block());
    let len = g.b.append_block_param(lp, I64);
    let one = g.b.ins().iconst(I64, 1);
    g.b.ins().jump(lp, &[BlockArg::Value(one)]);
    let blocks: Vec<_> = order.iter().map(|_| g.b.create_block()).collect();
    g.b.switch_to_block(lp);
    let (pop, none) = (g.b.create_block(), g.b.create_block());
    g.b.ins().brif(len, pop, &[], none, &[]);
    g.b.switch_to_block(none);
    g.b.ins().jump(missed, &[]);
    g.b.switch_to_block(pop);
    let len1 = g.b.ins().iadd_imm(len, -1);
    let off = g.b.ins().ishl_imm(len1, 3);
    let a = g.b.ins().iadd(pending, off);
    let node = g.b.ins().load(I32, FLAGS, a, 0);
    let v = g.b.ins().load(I32, FLAGS, a, 4);
    let v16 = g.b.ins().ireduce(I16, v);
    let st = g.st();
    g.b.ins().store(FLAGS, v16, st, 2 * slot as i32);
    let args = [BlockArg::Value(len1), BlockArg::Value(v)];
    g.jump_to_node(node, &blocks, &args, missed);
    for (&n, &blk) in order.iter().zip(&blocks) {
        let mut len = g.b.append_block_param(blk, I64);
        let v = g.b.append_block_param(blk, I32);
        g.b.switch_to_block(blk);
        let info = t.nodes[n as usize];
        for i in (info.first..info.end).rev() {
            let e = t.edges[i as usize];
            let skip = g.b.create_block();
            let after = g.b.append_block_param(skip, I64);
            g.leaf_test(i, e.op, skip, len);
            let x = match e.op {
                Op::Assign(_, value) => g.operand(value),
                Op::AssignAny(_, (first, count)) => {
                    if count == 0 {
                    } else if e.to == check.target {
                        g.b.ins().jump(found, &[]);
                        g.b.switch_to_block(skip);
                        len = after;
                        continue;
                    } else {
                        for &x in &t.any_syms[first as usize..(first + count) as usize] {
                            let x = g.b.ins().iconst(I32, x as i64);
                            len = s.enter(
                                &mut g,
                                local[e.to as usize],
                                t.slot_index[e.to as usize],
                                x,
                                len,
                            );
                        }
                    }
                    g.b.ins().jump(skip, &[BlockArg::Value(len)]);
                    g.b.switch_to_block(skip);
                    len = after;
                    continue;
                }
                _ => v,
            };
            if e.to == check.target {
                g.b.ins().jump(found, &[]);
            } else {
                let l = s.enter(
                    &mut g,
                    local[e.to as usize],
                    t.slot_index[e.to as usize],
                    x,
                    len,
                );
                g.b.ins().jump(skip, &[BlockArg::Value(l)]);
            }
            g.b.switch_to_block(skip);
            len = after;
        }
        g.b.ins().jump(lp, &[BlockArg::Value(len)]);
    }
    // The slot gets its symbol back.
    let (yes, no) = (g.b.create_block(), g.b.create_block());
    for (from, to) in [(found, yes), (missed, no)] {
        g.b.switch_to_block(from);
        let old16 = g.b.ins().ireduce(I16, old);
        let st = g.st();
        g.b.ins().store(FLAGS, old16, st, 2 * slot as i32);
        g.b.ins().jump(to, &[]);
    }
    finish_leaf(g, yes, no);
}

/// The stamps and pending pairs of one search.
#[derive(Clone, Copy)]
struct SlotGen {
    at: Value,
    pending: Value,
    gen: Value,
    symbols: u32,
}

impl SlotGen {
    /// The address of the stamp of (node index `i`, symbol `x`).
    fn stamp_at(&self, g: &mut Gen<'_, '_>, i: Value, x: Value) -> Value {
        let k = g.b.ins().imul_imm(i, self.symbols as i64);
        let k = g.b.ins().iadd(k, x);
        let k = g.b.ins().uextend(I64, k);
        let off = g.b.ins().ishl_imm(k, 2);
        g.b.ins().iadd(self.at, off)
    }

    /// Enters (local node `node`, of stamp index `index`, symbol `x`) if
    /// not stamped yet; the pending length after.
    fn enter(&self, g: &mut Gen<'_, '_>, node: u32, index: u32, x: Value, len: Value) -> Value {
        let i = g.b.ins().iconst(I32, index as i64);
        let a = self.stamp_at(g, i, x);
        let m = g.b.ins().load(I32, FLAGS, a, 0);
        let new = g.b.ins().icmp(IntCC::NotEqual, m, self.gen);
        let (mark, join) = (g.b.create_block(), g.b.create_block());
        let out = g.b.append_block_param(join, I64);
        g.b.ins()
            .brif(new, mark, &[], join, &[BlockArg::Value(len)]);
        g.b.switch_to_block(mark);
        g.b.ins().store(FLAGS, self.gen, a, 0);
        let off = g.b.ins().ishl_imm(len, 3);
        let p = g.b.ins().iadd(self.pending, off);
        let nv = g.b.ins().iconst(I32, node as i64);
        g.b.ins().store(FLAGS, nv, p, 0);
        g.b.ins().store(FLAGS, x, p, 4);
        let len1 = g.b.ins().iadd_imm(len, 1);
        g.b.ins().jump(join, &[BlockArg::Value(len1)]);
        g.b.switch_to_block(join);
        out
    }
}
