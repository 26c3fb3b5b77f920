//! *One-slot checks* (`shortcut.rs` of rg-engine: checks whose walks
//! write one user slot only) as functions of their own: the interpreter's
//! `SlotSearch`, a search over (node, symbol) pairs, a node's edges tried
//! last to first with the slot holding the pair's symbol, then restored.
//!
//! Such a search cannot fail and its answer is reachability, so the
//! order in which pairs are expanded is free: a pair is expanded where
//! it is reached, inline (a node of few edges, [`INLINE_BUDGET`]), or by
//! a direct jump to its node's block where it is the last thing its
//! expansion does; only the others go on the pending stack and come back
//! through the jump table. A pair is stamped where it is pushed or a
//! jump to it could go round a cycle, but not where its node has one
//! edge in (not an any-assignment's, but from a start entered once): the
//! pair is then expanded at most as often as the one before it, and
//! every cycle keeps a stamped node.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I16, I32, I64};
use cranelift_codegen::ir::{Block, BlockArg, InstBuilder, Value};
use rg_engine::raw::{Op, Tables, NO_SLOT};

use super::check::{finish_leaf, leaf_gen, walked};
use super::{Func, Gen, FLAGS};
use crate::rt::{self, Off};

/// Edges (an any-assignment's symbols each, less one per node) of the
/// nodes expanded inline along one path of a pair's expansion.
const INLINE_BUDGET: u32 = 4;

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
pub(crate) fn emit_slot(t: &Tables, c: usize, f: Func<'_, '_>) {
    let check = t.checks[c];
    let order = region(t, c).expect("a one-slot check");
    let slot = t.one_slot[c];
    let mut g = leaf_gen(t, f);
    let mut local = vec![u32::MAX; t.nodes.len()];
    for (k, &n) in order.iter().enumerate() {
        local[n as usize] = k as u32;
    }
    // Per local node, its edges in, and whether its pairs are stamped:
    // not where one edge enters it, unless that is an any-assignment's
    // from a node entered more than once.
    let mut into = vec![0u32; order.len()];
    for &n in &order {
        let info = t.nodes[n as usize];
        for e in &t.edges[info.first as usize..info.end as usize] {
            if e.to != check.target {
                into[local[e.to as usize] as usize] += 1;
            }
        }
    }
    let once = into[0] == 0;
    let mut stamped: Vec<bool> = into.iter().map(|&d| d != 1).collect();
    stamped[0] = !once;
    for &n in &order {
        let info = t.nodes[n as usize];
        for e in &t.edges[info.first as usize..info.end as usize] {
            if e.to != check.target
                && matches!(e.op, Op::AssignAny(..))
                && (n != check.start || !once)
            {
                stamped[local[e.to as usize] as usize] = true;
            }
        }
    }
    // Where the comparisons read the slot only as a constant slot, its
    // symbol is a value and the semistate is not written.
    let direct = order.iter().all(|&n| {
        let info = t.nodes[n as usize];
        (info.first..info.end).all(|i| match t.edges[i as usize].op {
            Op::Cmp(a, b, _) => g.reads_directly(a, slot) && g.reads_directly(b, slot),
            Op::Assign(_, v) => g.reads_directly(v, slot),
            Op::CmpMap(..) => false,
            _ => true,
        })
    });
    let gen = g.fresh_stamp(Off::SLOT_GEN, rt::clear_slot_marks);
    let at = g.ws_load(Off::SLOT_AT);
    let pending = g.ws_load(Off::SLOT_PENDING);
    let old = g.slot(slot);
    let [lp, found, missed] = g.blocks();
    let s = SlotGen {
        at,
        pending,
        gen,
        symbols: t.symbols,
        local,
        stamped,
        blocks: order.iter().map(|_| g.b.create_block()).collect(),
        lp,
        found,
        target: check.target,
        slot,
        direct,
    };
    // The start with the slot's symbol.
    if s.stamped[0] {
        let i =
            g.b.ins()
                .iconst(I32, t.slot_index[check.start as usize] as i64);
        let a = s.stamp_at(&mut g, i, old);
        g.b.ins().store(FLAGS, gen, a, 0);
    }
    let zero = g.b.ins().iconst(I64, 0);
    g.b.ins()
        .jump(s.blocks[0], &[BlockArg::Value(zero), BlockArg::Value(old)]);
    // The pending pairs.
    let len = g.b.append_block_param(lp, I64);
    g.b.switch_to_block(lp);
    let pop = g.b.create_block();
    g.b.ins().brif(len, pop, &[], missed, &[]);
    g.b.switch_to_block(pop);
    let len1 = g.b.ins().iadd_imm(len, -1);
    let off = g.b.ins().ishl_imm(len1, 3);
    let a = g.b.ins().iadd(pending, off);
    let node = g.b.ins().load(I32, FLAGS, a, 0);
    let v = g.b.ins().load(I32, FLAGS, a, 4);
    let args = [BlockArg::Value(len1), BlockArg::Value(v)];
    g.jump_to_node(node, &s.blocks, &args, missed);
    // Per node, the expansion of a pair taken from the stack or jumped to.
    for (k, &n) in order.iter().enumerate() {
        let blk = s.blocks[k];
        let len = g.b.append_block_param(blk, I64);
        let v = g.b.append_block_param(blk, I32);
        g.b.switch_to_block(blk);
        s.store(&mut g, v);
        s.expand(&mut g, n, v, len, true, &mut vec![(n, v)], INLINE_BUDGET);
    }
    // The slot gets its symbol back.
    let [yes, no] = g.blocks();
    for (from, to) in [(found, yes), (missed, no)] {
        g.b.switch_to_block(from);
        g.known = None;
        s.store(&mut g, old);
        g.b.ins().jump(to, &[]);
    }
    finish_leaf(g, yes, no);
}

/// One search's layout: its stamps, pending pairs and node blocks
/// (parameters: the pending length, the symbol).
struct SlotGen {
    at: Value,
    pending: Value,
    gen: Value,
    symbols: u32,
    /// Per node, its index in `order` (`u32::MAX`: not in the search).
    local: Vec<u32>,
    /// Per local node, whether its pairs are stamped.
    stamped: Vec<bool>,
    blocks: Vec<Block>,
    lp: Block,
    found: Block,
    target: u32,
    slot: u32,
    /// Whether the slot's symbol is only a value (never written).
    direct: bool,
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

    /// The slot holds `v` (in the semistate unless [`SlotGen::direct`]).
    fn store(&self, g: &mut Gen<'_, '_>, v: Value) {
        if !self.direct {
            let v16 = g.b.ins().ireduce(I16, v);
            let (st, at) = g.slot_ref(self.slot);
            g.b.ins().store(FLAGS, v16, st, at);
        }
        g.known = Some((self.slot, v));
    }

    /// Expands (node `n`, symbol `v`), the pending length `len`: its
    /// edges last to first. `tail`: the expansion ends the path (back to
    /// the pending pairs, `None`), else it goes on (`Some`: the pending
    /// length). `chain`: the nodes being expanded, `budget` what is left
    /// for inline expansions.
    #[allow(clippy::too_many_arguments)]
    fn expand(
        &self,
        g: &mut Gen<'_, '_>,
        n: u32,
        v: Value,
        mut len: Value,
        tail: bool,
        chain: &mut Vec<(u32, Value)>,
        budget: u32,
    ) -> Option<Value> {
        let t = g.t;
        let info = t.nodes[n as usize];
        for i in (info.first..info.end).rev() {
            let e = t.edges[i as usize];
            let last = tail && i == info.first;
            let skip = g.b.create_block();
            let after = g.b.append_block_param(skip, I64);
            g.leaf_test(i, e.op, skip, len);
            let syms: Vec<Option<u16>> = match e.op {
                Op::AssignAny(_, (first, count)) => t.any_syms
                    [first as usize..(first + count) as usize]
                    .iter()
                    .map(|&x| Some(x))
                    .collect(),
                _ => vec![None],
            };
            let mut l = Some(len);
            if syms.is_empty() {
            } else if e.to == self.target {
                g.b.ins().jump(self.found, &[]);
                l = None;
            } else {
                for (j, &x) in syms.iter().enumerate() {
                    let x = match (x, e.op) {
                        (Some(x), _) => g.b.ins().iconst(I32, x as i64),
                        (None, Op::Assign(_, value)) => g.operand(value),
                        _ => v,
                    };
                    let here = l.expect("a path goes on");
                    l = self.enter(g, e.to, x, here, last && j + 1 == syms.len(), chain, budget);
                }
            }
            if let Some(l) = l {
                g.b.ins().jump(skip, &[BlockArg::Value(l)]);
            }
            g.b.switch_to_block(skip);
            len = after;
        }
        if tail {
            g.b.ins().jump(self.lp, &[BlockArg::Value(len)]);
            return None;
        }
        Some(len)
    }

    /// Enters (node `m`, symbol `x`) reached with the pending length
    /// `len` ([`SlotGen::expand`]'s `tail`, `chain`, `budget`): a pair
    /// seen before (where stamped) is left, another expanded inline,
    /// jumped to (`tail`) or pushed.
    #[allow(clippy::too_many_arguments)]
    fn enter(
        &self,
        g: &mut Gen<'_, '_>,
        m: u32,
        x: Value,
        len: Value,
        tail: bool,
        chain: &mut Vec<(u32, Value)>,
        budget: u32,
    ) -> Option<Value> {
        let t = g.t;
        let k = self.local[m as usize] as usize;
        let info = t.nodes[m as usize];
        let cost = (info.first..info.end)
            .map(|i| match t.edges[i as usize].op {
                Op::AssignAny(_, (_, count)) => count,
                _ => 1,
            })
            .sum::<u32>()
            .saturating_sub(1);
        let inline = cost <= budget && chain.iter().all(|&(n, _)| n != m);
        // Where the path goes on: the pending length after.
        let join = (!tail).then(|| {
            let join = g.b.create_block();
            (join, g.b.append_block_param(join, I64))
        });
        if self.stamped[k] || !(inline || tail) {
            let i = g.b.ins().iconst(I32, g.t.slot_index[m as usize] as i64);
            let a = self.stamp_at(g, i, x);
            let mark = g.b.ins().load(I32, FLAGS, a, 0);
            let new = g.b.ins().icmp(IntCC::NotEqual, mark, self.gen);
            let fresh = g.b.create_block();
            let seen = join.map_or(self.lp, |(j, _)| j);
            g.b.ins()
                .brif(new, fresh, &[], seen, &[BlockArg::Value(len)]);
            g.b.switch_to_block(fresh);
            g.b.ins().store(FLAGS, self.gen, a, 0);
        }
        let len = if inline {
            self.store(g, x);
            chain.push((m, x));
            let r = self.expand(g, m, x, len, tail, chain, budget - cost);
            chain.pop();
            if r.is_some() {
                let &(_, v) = chain.last().expect("the expanded pair");
                self.store(g, v);
            }
            r
        } else if tail {
            let args = [BlockArg::Value(len), BlockArg::Value(x)];
            g.b.ins().jump(self.blocks[k], &args);
            None
        } else {
            let off = g.b.ins().ishl_imm(len, 3);
            let p = g.b.ins().iadd(self.pending, off);
            let nv = g.b.ins().iconst(I32, k as i64);
            g.b.ins().store(FLAGS, nv, p, 0);
            g.b.ins().store(FLAGS, x, p, 4);
            Some(g.b.ins().iadd_imm(len, 1))
        };
        let (join, out) = join?;
        let len = len.expect("a path that goes on");
        g.b.ins().jump(join, &[BlockArg::Value(len)]);
        g.b.switch_to_block(join);
        Some(out)
    }
}
