//! Visited checks of writing programs and searches in generated code: a
//! key of a `Guard::Full` node (its slots `lo .. hi`, no tags) is probed
//! in the programs' set (`Ws::prog`, the interpreter's `Seen`, whose
//! layout it reads) by its key hash, compared chunk by chunk with the
//! arena's copy, and added while the set has room; otherwise Rust
//! (`rt::prog_visit`) takes the key, grows the set or fails. Every key of
//! that set has no tags (`EMPTY`), so tags are written, never compared.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I16, I32, I64};
use cranelift_codegen::ir::{BlockArg, InstBuilder, MemFlags, Type, Value};
use rg_engine::raw::{Guard, Seen, SeenEntry, EMPTY, NO_DENSE};
use std::mem::{offset_of, size_of};

use super::{Gen, FLAGS};
use crate::rt::{self, Off, MIX_MUL, NODE_MUL};

/// The offsets of a [`SeenEntry`]'s fields.
const E_HASH: i32 = offset_of!(SeenEntry, hash) as i32;
const E_GEN: i32 = offset_of!(SeenEntry, gen) as i32;
const E_NODE: i32 = offset_of!(SeenEntry, node) as i32;
const E_AT: i32 = offset_of!(SeenEntry, at) as i32;
const E_TAGS: i32 = offset_of!(SeenEntry, tags) as i32;

/// Slots of a key beyond which the visited check calls Rust (the
/// comparison and copy are unrolled).
const MAX_NATIVE_KEY: u32 = 512;

/// The chunks of a key of `len` slots: (byte offset, type).
fn chunks(len: u32) -> Vec<(i32, Type)> {
    let (mut out, mut at, bytes) = (Vec::new(), 0, 2 * len as i32);
    for (ty, size) in [(I64, 8), (I32, 4), (I16, 2)] {
        while bytes - at >= size {
            out.push((at, ty));
            at += size;
        }
    }
    out
}

impl Gen<'_, '_> {
    /// Writing programs' visited check of node `n`: 1 new (now added),
    /// 0 seen, or `FAILED` (I32).
    pub(super) fn prog_visit(&mut self, n: u32) -> Value {
        let info = self.t.nodes[n as usize];
        let (lo, hi) = match info.guard {
            Guard::Full(lo, hi)
                if info.dense == NO_DENSE && lo < hi && hi - lo <= MAX_NATIVE_KEY =>
            {
                (lo, hi)
            }
            _ => return self.call_imm(rt::prog_visit, n, 0),
        };
        let unaligned = MemFlags::new().with_notrap();
        let h = self.ws_load(Off::HASH);
        let node_mix = (n as u64).wrapping_mul(NODE_MUL) as i64;
        let x = self.b.ins().bxor_imm(h, node_mix);
        let x = self.b.ins().imul_imm(x, MIX_MUL as i64);
        let x = self.b.ins().ushr_imm(x, 32);
        let h32 = self.b.ins().ireduce(I32, x);
        let mask = self.ws_load(Off::prog(Seen::OFF_MASK));
        let gen = self.ws_load(Off::prog(Seen::OFF_GEN));
        let gen = self.b.ins().ireduce(I32, gen);
        let entries = self.ws_load(Off::prog(Seen::OFF_ENTRIES));
        let i0 = self.b.ins().band(x, mask);
        let [lp, occupied, cmp, next] = self.blocks();
        let [empty, add, slow, done] = self.blocks();
        let i = self.b.append_block_param(lp, I64);
        let r = self.b.append_block_param(done, I32);
        self.b.ins().jump(lp, &[BlockArg::Value(i0)]);
        self.b.switch_to_block(lp);
        let off = self.b.ins().imul_imm(i, size_of::<SeenEntry>() as i64);
        let e = self.b.ins().iadd(entries, off);
        let eg = self.b.ins().load(I32, FLAGS, e, E_GEN);
        let free = self.b.ins().icmp(IntCC::NotEqual, eg, gen);
        self.b.ins().brif(free, empty, &[], occupied, &[]);
        // A key there: the same hash and node, then the same slots?
        self.b.switch_to_block(occupied);
        let eh = self.b.ins().load(I32, FLAGS, e, E_HASH);
        let en = self.b.ins().load(I32, FLAGS, e, E_NODE);
        let same_h = self.b.ins().icmp(IntCC::Equal, eh, h32);
        let same_n = self.b.ins().icmp_imm(IntCC::Equal, en, n as i64);
        let same = self.b.ins().band(same_h, same_n);
        self.b.ins().brif(same, cmp, &[], next, &[]);
        self.b.switch_to_block(cmp);
        let at = self.b.ins().load(I32, FLAGS, e, E_AT);
        let at = self.widen(at);
        let at = self.b.ins().ishl_imm(at, 1);
        let arena = self.ws_load(Off::prog(Seen::OFF_ARENA));
        let a = self.b.ins().iadd(arena, at);
        let (st, at) = self.slot_ref(lo);
        let mut diff = None;
        for (k, ty) in chunks(hi - lo) {
            let x = self.b.ins().load(ty, unaligned, a, k);
            let y = self.b.ins().load(ty, unaligned, st, at + k);
            let d = self.b.ins().bxor(x, y);
            let d = match ty {
                I64 => d,
                _ => self.b.ins().uextend(I64, d),
            };
            diff = Some(match diff {
                None => d,
                Some(acc) => self.b.ins().bor(acc, d),
            });
        }
        let diff = diff.expect("a key of some slots");
        let zero = self.b.ins().iconst(I32, 0);
        self.b
            .ins()
            .brif(diff, next, &[], done, &[BlockArg::Value(zero)]);
        self.b.switch_to_block(next);
        let i1 = self.b.ins().iadd_imm(i, 1);
        let i1 = self.b.ins().band(i1, mask);
        self.b.ins().jump(lp, &[BlockArg::Value(i1)]);
        // A new key: added here while the set has room.
        self.b.switch_to_block(empty);
        let count = self.ws_load(Off::prog(Seen::OFF_COUNT));
        let room = self.ws_load(Off::prog(Seen::OFF_ROOM));
        let len = self.ws_load(Off::prog(Seen::OFF_ARENA_LEN));
        let cap = self.ws_load(Off::prog(Seen::OFF_ARENA_CAP));
        let full = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, count, room);
        let end = self.b.ins().iadd_imm(len, (hi - lo) as i64);
        let over = self.b.ins().icmp(IntCC::UnsignedGreaterThan, end, cap);
        let full = self.b.ins().bor(full, over);
        self.b.set_cold_block(slow);
        self.b.ins().brif(full, slow, &[], add, &[]);
        self.b.switch_to_block(add);
        self.b.ins().store(FLAGS, h32, e, E_HASH);
        self.b.ins().store(FLAGS, gen, e, E_GEN);
        let nv = self.b.ins().iconst(I32, n as i64);
        self.b.ins().store(FLAGS, nv, e, E_NODE);
        let len32 = self.b.ins().ireduce(I32, len);
        self.b.ins().store(FLAGS, len32, e, E_AT);
        let tags = self.b.ins().iconst(I32, EMPTY as i64);
        self.b.ins().store(FLAGS, tags, e, E_TAGS);
        let arena = self.ws_load(Off::prog(Seen::OFF_ARENA));
        let off = self.b.ins().ishl_imm(len, 1);
        let a = self.b.ins().iadd(arena, off);
        let (st, at) = self.slot_ref(lo);
        for (k, ty) in chunks(hi - lo) {
            let x = self.b.ins().load(ty, unaligned, st, at + k);
            self.b.ins().store(unaligned, x, a, k);
        }
        self.ws_store(end, Off::prog(Seen::OFF_ARENA_LEN));
        let count1 = self.b.ins().iadd_imm(count, 1);
        self.ws_store(count1, Off::prog(Seen::OFF_COUNT));
        let one = self.b.ins().iconst(I32, 1);
        self.b.ins().jump(done, &[BlockArg::Value(one)]);
        self.b.switch_to_block(slow);
        let r_slow = self.call_imm(rt::prog_visit, n, 0);
        self.b.ins().jump(done, &[BlockArg::Value(r_slow)]);
        self.b.switch_to_block(done);
        r
    }
}
