//! Filtered any-assignments (`shortcut.rs` of rg-engine: `x = any`
//! whose target's comparison, or whose target's choice between
//! comparisons, rejects symbols before they are written): the resume
//! block of such an edge finds the next symbol that passes. Where the
//! comparisons read `x` only directly, its symbols are tested 64 at a
//! time with `x` a constant (table reads folded: straight code, no branch
//! per symbol) into a mask in the frame, taken highest bit first;
//! otherwise one symbol after another in a loop. Comparisons of one
//! operand with constants are one load of a byte table.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I16, I16X8, I32, I64};
use cranelift_codegen::ir::{Block, BlockArg, InstBuilder, JumpTableData, Value};
use std::ops::Range;

use rg_engine::raw::{Act, Fast, Op, Operand, Place, NO_EDGE};

use super::{Gen, Indexed, FLAGS};
use crate::rt::Off;

/// Symbols of a filtered any-assignment beyond which they are tested one
/// at a time (the masks' code grows with them).
const MASKED_SYMBOLS: u32 = 256;

/// Symbols times comparisons of a filtered any-assignment beyond which
/// its symbols are tested one at a time.
const MASKED_TESTS: u32 = 512;

/// Symbols reading consecutive slots from which a mask's chunk tests
/// them in one vector ([`Gen::vector_run`]), not one by one.
const VECTOR_RUN: u32 = 3;

/// Runs of passing values beyond which a mask's chunk tests mapped
/// comparisons ([`Gen::lane_tests`]) one symbol at a time.
const LANE_RUNS: usize = 4;

/// A vector lane's test of its slot's value ([`Gen::lane_tests`]).
#[derive(Clone, Copy)]
enum Lane {
    /// `== c` (`true`) or `!= c`.
    Is(u16, bool),
    /// Within `lo ..= hi`.
    Within(u16, u16),
}

/// A filter: the any-assignment's slot and its comparison `a == b`
/// (`eq`) or `a != b`.
pub(super) type Filter = (u32, Operand, Operand, bool);

/// The tests of a filtered any-assignment: its slot and the comparison
/// edges of which one must hold (its [`Filter`]'s, or its target's choice
/// between comparisons: `Act::AnyTests`).
pub(super) type Tests = (u32, Range<u32>);

impl Gen<'_, '_> {
    /// A filtered any-assignment (`shortcut.rs` of rg-engine) at edge
    /// `i`: its slot and its target's comparison, which rejects symbols
    /// before they are written.
    pub(super) fn filter(&self, i: usize) -> Option<Filter> {
        let e = self.t.edges[i];
        // (An any-assignment at a node without frames is only ever taken
        // in checks, which this code does not walk.)
        let n = self.edge_node[i] as usize;
        if e.filter == NO_EDGE || self.bases[n] == u32::MAX {
            return None;
        }
        match (e.op, self.t.edges[e.filter as usize].op) {
            (Op::AssignAny(Place::Slot(slot), _), Op::Cmp(a, b, eq)) => Some((slot, a, b, eq)),
            _ => None,
        }
    }

    /// The tests of any-assignment edge `i` where some symbols are
    /// skipped before they are taken: its [`Filter`]'s comparison, or the
    /// comparisons of its target's choice (one must hold, `Act::AnyTests`:
    /// the interpreter skips the others too).
    pub(super) fn tests(&self, i: usize) -> Option<Tests> {
        let e = self.t.edges[i];
        let (Op::AssignAny(Place::Slot(slot), _), n) = (e.op, self.edge_node[i] as usize) else {
            return None;
        };
        if self.bases[n] == u32::MAX {
            return None;
        }
        if self.filter(i).is_some() {
            return Some((slot, e.filter..e.filter + 1));
        }
        match self.t.acts[i] {
            Act::AnyTests { first, count } if count > 0 => Some((slot, first..first + count)),
            _ => None,
        }
    }

    /// Comparison edge `k`'s operands and sense.
    fn cmp(&self, k: u32) -> (Operand, Operand, bool) {
        match self.t.edges[k as usize].op {
            Op::Cmp(a, b, eq) => (a, b, eq),
            _ => unreachable!("tests are comparisons (`Gen::tests`)"),
        }
    }

    /// Whether operand `o` reads slot `slot` only as a constant slot
    /// (never through a table of slots, nor in Rust): then its value with
    /// `slot` holding `v` is [`Gen::operand`] with `known` set to it.
    pub(super) fn reads_directly(&self, o: Operand, slot: u32) -> bool {
        let symbols = self.t.symbols as usize;
        let avoids = |table: u32| {
            let table = table as usize;
            !self.t.fun[table..table + symbols].contains(&slot)
        };
        match o {
            Operand::Imm(_) | Operand::Slot(_) | Operand::Tab(..) => true,
            Operand::Ind(_, table) => avoids(table),
            Operand::Read(i) => match self.t.fast[i as usize] {
                Fast::TabInd(_, inner, _) => avoids(inner),
                Fast::IndInd(_, inner, outer) => avoids(inner) && avoids(outer),
                Fast::TabIndInd(_, inner, mid, _) => avoids(inner) && avoids(mid),
                Fast::Pair { first, second, .. } => {
                    self.reads_directly(first, slot) && self.reads_directly(second, slot)
                }
                Fast::General => false,
            },
        }
    }

    /// Whether tests `f`'s comparisons read their slot only directly.
    fn direct(&self, (slot, cmps): &Tests) -> bool {
        cmps.clone().all(|k| {
            let (a, b, _) = self.cmp(k);
            self.reads_directly(a, *slot) && self.reads_directly(b, *slot)
        })
    }

    /// Whether edge `i` is a filtered any-assignment whose symbols are
    /// tested into masks ([`Gen::filter_masks`]): its comparisons read
    /// the slot only directly, at most [`MASKED_SYMBOLS`] symbols (and
    /// [`MASKED_TESTS`] symbols times comparisons), and its node is not
    /// `@disjoint` (whose frames are pushed with no symbols left: `sub`
    /// 0).
    fn masked(&self, i: usize) -> bool {
        let (Some(f), Op::AssignAny(_, (_, len))) = (self.tests(i), self.t.edges[i].op) else {
            return false;
        };
        len <= MASKED_SYMBOLS
            && len * f.1.len() as u32 <= MASKED_TESTS
            && !self.t.nodes[self.edge_node[i] as usize].disjoint
            && self.direct(&f)
    }

    /// Whether one of comparisons `cmps` (`a == b` or `a != b`) holds
    /// (nonzero), with the slot read as [`Gen::known`] where set (by a
    /// table where they compare one operand with constants:
    /// [`Gen::pass_by_table`]).
    pub(super) fn some_holds(&mut self, cmps: &[(Operand, Operand, bool)]) -> Value {
        if let Some(pass) = self.pass_by_table(cmps) {
            return pass.unwrap_or_else(|| self.b.ins().iconst(I64, 0));
        }
        let holds: Vec<Value> = cmps
            .iter()
            .map(|&(a, b, eq)| {
                let a = self.operand(a);
                let b = self.operand(b);
                let cc = if eq { IntCC::Equal } else { IntCC::NotEqual };
                self.b.ins().icmp(cc, a, b)
            })
            .collect();
        holds[1..]
            .iter()
            .fold(holds[0], |x, &y| self.b.ins().bor(x, y))
    }

    /// Frame `f` goes on at filtered any-assignment `i` with all its
    /// symbols left: its resume block finds the first that passes.
    pub(super) fn filter_enter(&mut self, i: u32, f: Value) {
        let Op::AssignAny(_, (_, len)) = self.t.edges[i as usize].op else {
            unreachable!("a filter is an any-assignment");
        };
        if self.masked(i as usize) {
            // Every chunk of 64 symbols still to test, none in the mask.
            let chunks = self.b.ins().iconst(I32, len.div_ceil(64) as i64);
            self.b.ins().store(FLAGS, chunks, f, Off::F_SUB);
            let zero = self.b.ins().iconst(I64, 0);
            self.b.ins().store(FLAGS, zero, f, Off::F_MASK);
        } else {
            let sub = self.b.ins().iconst(I32, len as i64);
            self.b.ins().store(FLAGS, sub, f, Off::F_SUB);
        }
    }

    /// The resume block of filtered any-assignment `j` (its symbols from
    /// `start`, frame `f`): the next symbol that passes goes on at the
    /// edge (the frame keeps the symbols below it), none at the block's
    /// next part (the current block when this returns).
    pub(super) fn filter_resume(&mut self, j: u32, start: u32, filter: Tests, f: Value) {
        if self.masked(j as usize) {
            self.filter_masks(j, start, filter, f);
        } else {
            let sub = self.load(I32, f, Off::F_SUB);
            self.filter_loop(j, start, filter, f, sub);
        }
    }

    /// [`Gen::filter_resume`] by masks: the frame holds the mask of the
    /// symbols of chunk `sub` (symbols `64 sub .. 64 sub + 64`) that pass
    /// and are left, and `sub` (the chunks before it still to test); the
    /// highest bit goes on, an empty mask tests the chunk below.
    fn filter_masks(&mut self, j: u32, start: u32, (slot, cmps): Tests, f: Value) {
        let Op::AssignAny(_, (_, len)) = self.t.edges[j as usize].op else {
            unreachable!("a filter is an any-assignment");
        };
        let chunks = len.div_ceil(64);
        // (The semistate is read where a chunk is tested, not here: a
        // resume that takes a bit from the mask needs none.)
        let kept = self.kept();
        let [lp, take, next, compute, none] = self.blocks();
        let mask = self.load(I64, f, Off::F_MASK);
        let m = self.b.append_block_param(lp, I64);
        self.b.ins().jump(lp, &[BlockArg::Value(mask)]);
        // (The workspace and semistate read before hold in these blocks.)
        let enter = |g: &mut Self, blk: Block| g.enter_keeping(blk, kept);
        enter(self, lp);
        self.b.ins().brif(m, take, &[], next, &[]);
        enter(self, take);
        let lz = self.b.ins().clz(m);
        let bit = self.b.ins().irsub_imm(lz, 63);
        let one = self.b.ins().iconst(I64, 1);
        let high = self.b.ins().ishl(one, bit);
        let rest = self.b.ins().bxor(m, high);
        self.b.ins().store(FLAGS, rest, f, Off::F_MASK);
        let index = match chunks {
            1 => bit,
            _ => {
                let chunk = self.load(I32, f, Off::F_SUB);
                let chunk = self.b.ins().uextend(I64, chunk);
                let base = self.b.ins().ishl_imm(chunk, 6);
                self.b.ins().iadd(base, bit)
            }
        };
        let sym = self.any_sym_at(start, index);
        self.b
            .ins()
            .jump(self.edges[j as usize], &[BlockArg::Value(sym)]);
        enter(self, next);
        let sub = self.load(I32, f, Off::F_SUB);
        self.b.ins().brif(sub, compute, &[], none, &[]);
        enter(self, compute);
        let chunk = self.b.ins().iadd_imm(sub, -1);
        self.b.ins().store(FLAGS, chunk, f, Off::F_SUB);
        let blocks: Vec<Block> = match chunks {
            1 => vec![compute],
            _ => {
                let blocks: Vec<Block> = (0..chunks).map(|_| self.b.create_block()).collect();
                let calls: Vec<_> = blocks
                    .iter()
                    .map(|&blk| self.b.func.dfg.block_call(blk, &[]))
                    .collect();
                // (`chunk` is below `chunks`: the default is never taken.)
                let def = self.b.func.dfg.block_call(blocks[0], &[]);
                let jt = self.b.create_jump_table(JumpTableData::new(def, &calls));
                self.b.ins().br_table(chunk, jt);
                blocks
            }
        };
        for (k, &blk) in blocks.iter().enumerate() {
            if blk != compute {
                enter(self, blk);
            }
            let mut acc = self.b.ins().iconst(I64, 0);
            let lo = 64 * k as u32;
            let hi = len.min(lo + 64);
            let lanes = self.lane_tests(slot, &cmps);
            let mut i = lo;
            while i < hi {
                if let Some((run, pass)) = lanes
                    .as_ref()
                    .and_then(|(table, lanes)| self.vector_run(*table, lanes, start, i, hi))
                {
                    let pass = self.b.ins().ishl_imm(pass, (i - lo) as i64);
                    acc = self.b.ins().bor(acc, pass);
                    self.b.ins().store(FLAGS, acc, f, Off::F_MASK);
                    i += run;
                    continue;
                }
                i += 1;
                let i = i - 1;
                let sym = self.t.any_syms[(start + i) as usize];
                let v = self.b.ins().iconst(I32, sym as i64);
                self.known = Some((slot, v));
                let tests: Vec<_> = cmps.clone().map(|k| self.cmp(k)).collect();
                if let Some(pass) = self.pass_by_table(&tests) {
                    self.known = None;
                    let Some(pass) = pass else { continue };
                    let pass = self.b.ins().ishl_imm(pass, (i - lo) as i64);
                    acc = self.b.ins().bor(acc, pass);
                    if (i - lo) % 8 == 7 {
                        self.b.ins().store(FLAGS, acc, f, Off::F_MASK);
                    }
                    continue;
                }
                // One comparison's pass (I8) per comparison not decided
                // at generation time; none: the symbol fails.
                let mut passes = Vec::new();
                let mut holds = false;
                for c in cmps.clone() {
                    let (a, b, eq) = self.cmp(c);
                    let x = self.operand(a);
                    let y = self.operand(b);
                    match (self.konst(x), self.konst(y)) {
                        (Some(x), Some(y)) => holds |= (x == y) == eq,
                        _ => {
                            let cc = if eq { IntCC::Equal } else { IntCC::NotEqual };
                            passes.push(self.b.ins().icmp(cc, x, y));
                        }
                    }
                    if holds {
                        break;
                    }
                }
                self.known = None;
                let pass = match (holds, passes.split_first()) {
                    (true, _) => self.b.ins().iconst(I64, 1),
                    (false, None) => continue,
                    (false, Some((&p, rest))) => {
                        let p = rest.iter().fold(p, |p, &q| self.b.ins().bor(p, q));
                        self.b.ins().uextend(I64, p)
                    }
                };
                let pass = self.b.ins().ishl_imm(pass, (i - lo) as i64);
                acc = self.b.ins().bor(acc, pass);
                if (i - lo) % 8 == 7 {
                    // The mask so far, stored: the optimiser computes it
                    // here, so the loads before are not all kept alive
                    // (spilled) until the end (the frame's mask is
                    // written again before it is read).
                    self.b.ins().store(FLAGS, acc, f, Off::F_MASK);
                }
            }
            self.b.ins().jump(lp, &[BlockArg::Value(acc)]);
        }
        enter(self, none);
    }

    /// Where comparisons `cmps` all compare `st[fun[table + x]]` (`x` the
    /// any-assignment's slot `slot`: `board[x] == e`), or a constant map
    /// of it (`isOneOf[board[x]] == 1`), with constants: the table and the
    /// tests of that slot's value, one of which holds where the symbol
    /// passes (symbol `v` of `x` reads slot `fun[table + v]`). Mapped
    /// comparisons are turned into the runs of values that pass (at most
    /// [`LANE_RUNS`]), plain ones kept as they are.
    fn lane_tests(&self, slot: u32, cmps: &Range<u32>) -> Option<(u32, Vec<Lane>)> {
        let symbols = self.t.symbols;
        let mut table = None;
        let mut lanes = Vec::new();
        let mut mapped = false;
        let mut pass = vec![false; symbols as usize];
        for k in cmps.clone() {
            let (a, b, eq) = self.cmp(k);
            let ((o, Operand::Imm(c)) | (Operand::Imm(c), o)) = (a, b) else {
                return None;
            };
            let (s, t, map) = match o {
                Operand::Ind(s, t) => (s, t, None),
                Operand::Read(r) => match self.t.fast[r as usize] {
                    Fast::TabInd(s, t, outer) => (s, t, Some(outer)),
                    _ => return None,
                },
                _ => return None,
            };
            if s != slot || table.is_some_and(|x| x != t) {
                return None;
            }
            table = Some(t);
            mapped |= map.is_some();
            lanes.push(Lane::Is(c, eq));
            for (v, p) in pass.iter_mut().enumerate() {
                let x = map.map_or(v as u32, |m| self.t.fun[m as usize + v]);
                *p |= (x == c as u32) == eq;
            }
        }
        let table = table?;
        if !mapped {
            return Some((table, lanes));
        }
        let mut runs = Vec::new();
        let mut v = 0;
        while v < pass.len() {
            let lo = v;
            while v < pass.len() && pass[v] {
                v += 1;
            }
            if v > lo {
                runs.push(Lane::Within(lo as u16, (v - 1) as u16));
            }
            v += 1;
        }
        (runs.len() <= LANE_RUNS).then_some((table, runs))
    }

    /// Symbols `i ..` (below `hi`) of an any-assignment (from `start`)
    /// whose [`Gen::lane_tests`] read consecutive slots, at least
    /// [`VECTOR_RUN`] and at most eight: tested in one vector of eight
    /// slots (in the semistate: shifted down at its end), the passing
    /// ones' bits from bit 0 (I64), and how many.
    fn vector_run(
        &mut self,
        table: u32,
        lanes: &[Lane],
        start: u32,
        i: u32,
        hi: u32,
    ) -> Option<(u32, Value)> {
        let slot_of = |i: u32| {
            let sym = self.t.any_syms[(start + i) as usize];
            self.t.fun[(table + sym as u32) as usize]
        };
        let s0 = slot_of(i);
        let run = (1..8.min(hi - i))
            .take_while(|&m| slot_of(i + m) == s0 + m)
            .count() as u32
            + 1;
        let slots = self.t.initial.len() as u32;
        if run < VECTOR_RUN || slots < 8 {
            return None;
        }
        // (Eight slots from `base` lie in the semistate.)
        let base = s0.min(slots - 8);
        let (st, at) = self.slot_ref(base);
        let flags = cranelift_codegen::ir::MemFlags::new().with_notrap();
        let v = self.b.ins().load(I16X8, flags, st, at);
        let mut pass = None;
        for &lane in lanes {
            let splat = |g: &mut Self, c: u16| {
                let c = g.b.ins().iconst(I16, c as i64);
                g.b.ins().splat(I16X8, c)
            };
            let p = match lane {
                Lane::Is(c, eq) => {
                    let c = splat(self, c);
                    let cc = if eq { IntCC::Equal } else { IntCC::NotEqual };
                    self.b.ins().icmp(cc, v, c)
                }
                Lane::Within(lo, hi) if lo == hi => {
                    let c = splat(self, lo);
                    self.b.ins().icmp(IntCC::Equal, v, c)
                }
                Lane::Within(lo, hi) => {
                    // (`lo <= v <= hi` as `v - lo <= hi - lo`, unsigned.)
                    let x = match lo {
                        0 => v,
                        _ => {
                            let lo = splat(self, lo);
                            self.b.ins().isub(v, lo)
                        }
                    };
                    let d = splat(self, hi - lo);
                    self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, x, d)
                }
            };
            pass = Some(match pass {
                Some(q) => self.b.ins().bor(q, p),
                None => p,
            });
        }
        let bits = self.b.ins().vhigh_bits(I64, pass?);
        let bits = match s0 - base {
            0 => bits,
            d => self.b.ins().ushr_imm(bits, d as i64),
        };
        let bits = match run {
            8 => bits,
            _ => self.b.ins().band_imm(bits, (1 << run) - 1),
        };
        self.store.vectors += 1;
        Some((run, bits))
    }

    /// Where comparisons `cmps` (two or more) all compare one operand with constants
    /// (`board[coord] == whiteMan`, `board[coord] == whiteKing`), whether
    /// one holds, as a byte table over the operand's value read in one
    /// load (I64, 0 or 1; `None`: none holds for any value), instead of a
    /// comparison each; `None` for other comparisons. The slot read as
    /// [`Gen::known`] where set.
    fn pass_by_table(&mut self, cmps: &[(Operand, Operand, bool)]) -> Option<Option<Value>> {
        let mut x = None;
        let mut consts = Vec::new();
        for &(a, b, eq) in cmps {
            // (Operands whose values are symbols: slots and tables.)
            let (o, k) = match (a, b) {
                (o @ (Operand::Slot(_) | Operand::Ind(..) | Operand::Tab(..)), Operand::Imm(k))
                | (Operand::Imm(k), o @ (Operand::Slot(_) | Operand::Ind(..) | Operand::Tab(..))) => {
                    (o, k as u32)
                }
                _ => return None,
            };
            match x {
                None => x = Some(o),
                Some(x) if x == o => {}
                Some(_) => return None,
            }
            consts.push((k, eq));
        }
        // (One comparison is as cheap as the table's load, and its
        // latency shorter.)
        if consts.len() < 2 {
            return None;
        }
        let x = self.operand(x?);
        let table: Box<[u8]> = (0..self.t.symbols)
            .map(|v| consts.iter().any(|&(k, eq)| (v == k) == eq) as u8)
            .collect();
        if let Some(v) = self.konst(x) {
            return Some(match table.get(v as usize) {
                Some(1) => Some(self.b.ins().iconst(I64, 1)),
                _ => None,
            });
        }
        if table.iter().all(|&p| p == 0) {
            return Some(None);
        }
        let base = self.byte_table(table);
        // (Every value read from the semistate is a symbol: `safe.rs`.)
        let i = self.widen(x);
        let at = self.b.ins().iadd_imm(i, base as i64);
        Some(Some(self.b.ins().uload8(I64, FLAGS, at, 0)))
    }

    /// [`Gen::filter_resume`] one symbol at a time (symbols `start ..
    /// start + sub` left): a loop over the symbols, last first, each
    /// tested by the comparisons (read with the slot known as the symbol
    /// where they read it only directly, else written in place and the
    /// slot restored after them).
    fn filter_loop(&mut self, j: u32, start: u32, tests: Tests, f: Value, sub: Value) {
        let (slot, cmps) = tests.clone();
        let old = match self.direct(&tests) {
            true => None,
            false => Some(self.slot(slot)),
        };
        let (st, at) = self.slot_ref(slot);
        let kept = self.cache;
        let [more, next, pass, none] = self.blocks();
        // (A loop tested at its end.)
        self.b
            .ins()
            .brif(sub, more, &[BlockArg::Value(sub)], none, &[]);
        let left = self.b.append_block_param(more, I32);
        // (The workspace and semistate read before the loop hold in it.)
        let enter = |g: &mut Self, blk: Block| g.enter_keeping(blk, kept);
        enter(self, more);
        let sub1 = self.b.ins().iadd_imm(left, -1);
        let sym = match old {
            Some(_) => {
                let sym = self.any_sym(start, sub1);
                let sym16 = self.b.ins().ireduce(I16, sym);
                self.b.ins().store(FLAGS, sym16, st, at);
                Some(sym)
            }
            None => {
                // (Read where it passes.)
                let Op::AssignAny(_, (_, len)) = self.t.edges[j as usize].op else {
                    unreachable!("a filter is an any-assignment");
                };
                let i = sub1;
                self.at = Some(Indexed {
                    slot,
                    start,
                    len,
                    i,
                });
                None
            }
        };
        let cmps: Vec<_> = cmps.map(|k| self.cmp(k)).collect();
        let holds = self.some_holds(&cmps);
        self.at = None;
        self.b.ins().brif(holds, pass, &[], next, &[]);
        enter(self, next);
        self.b
            .ins()
            .brif(sub1, more, &[BlockArg::Value(sub1)], none, &[]);
        enter(self, pass);
        let sym = sym.unwrap_or_else(|| self.any_sym(start, sub1));
        let restore = |g: &mut Self| {
            if let Some(old) = old {
                let old16 = g.b.ins().ireduce(I16, old);
                g.b.ins().store(FLAGS, old16, st, at);
            }
        };
        restore(self);
        self.b.ins().store(FLAGS, sub1, f, Off::F_SUB);
        self.b
            .ins()
            .jump(self.edges[j as usize], &[BlockArg::Value(sym)]);
        enter(self, none);
        restore(self);
    }
}
