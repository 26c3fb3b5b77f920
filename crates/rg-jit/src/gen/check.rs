//! Reachability checks in generated code: probes inline (a loop over the
//! any-assignment's symbols around straight-line comparisons) and *leaf
//! pure* checks as functions of their own (a search over the nodes, each
//! expanded once, edges last to first, as the interpreter's `pure_reach`);
//! *leaf programs* (the interpreter's check programs, `program.rs` of
//! rg-engine, made of comparisons only) as straight code in functions of
//! their own; other checks call the interpreter. Results are memoised
//! inline by the caller (`gen.rs`, `Op::Reach`).

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I16, I32, I64};
use cranelift_codegen::ir::{Block, BlockArg, InstBuilder, JumpTableData, Value};
use rg_engine::raw::{Op, Operand, Step, Tables};

use super::{Func, Gen, FLAGS};
use crate::rt::{self, Off, FAILED};

/// Whether the interpreter decides check `c` by walking it: no probe, no
/// program, not pure, and its start is not its target (the generated
/// one-slot and writing searches take such checks).
pub(super) fn walked(t: &Tables, c: usize) -> bool {
    let check = t.checks[c];
    t.probes[c].is_none() && t.programs[c].is_none() && !t.pure[c] && check.start != check.target
}

/// If check `c` is *leaf pure*, the number of edges of its search, else 0.
/// Leaf pure: pure (no reachable edge assigns), and every edge reachable
/// from its start (not expanding its target) is a no-op, a tag or a
/// comparison of symbols or maps, at nodes without `@disjoint`: a plain
/// search needing no nested check.
pub(crate) fn leaf_pure(t: &Tables, c: usize) -> usize {
    let check = t.checks[c];
    if !t.pure[c] || t.probes[c].is_some() || check.start == check.target {
        return 0;
    }
    let mut edges = 0;
    let mut seen = vec![false; t.nodes.len()];
    let mut stack = vec![check.start];
    seen[check.start as usize] = true;
    while let Some(n) = stack.pop() {
        let info = t.nodes[n as usize];
        if info.disjoint {
            return 0;
        }
        for e in &t.edges[info.first as usize..info.end as usize] {
            edges += 1;
            let simple = matches!(
                e.op,
                Op::Skip | Op::Tag(_) | Op::TagVar(_) | Op::Cmp(..) | Op::CmpMap(..)
            );
            if !simple {
                return 0;
            }
            if e.to != check.target && !seen[e.to as usize] {
                seen[e.to as usize] = true;
                stack.push(e.to);
            }
        }
    }
    edges
}

/// A step of a leaf program as a comparison (`None`: `Pass`, which holds).
pub(super) fn comparison(step: Step) -> Option<Option<(Operand, Operand, bool)>> {
    match step {
        Step::Pass => Some(None),
        Step::Cmp(a, b, eq) => Some(Some((a, b, eq))),
        Step::IndImm(s, table, v, eq) => Some(Some((Operand::Ind(s, table), Operand::Imm(v), eq))),
        Step::IndTab(s, table, s2, table2, eq) => {
            Some(Some((Operand::Ind(s, table), Operand::Tab(s2, table2), eq)))
        }
        _ => None,
    }
}

/// If check `c` has a *leaf program*, its instructions `start .. end`:
/// its program (no probe) only compares (`Pass` and comparisons, then
/// `End`), and every comparison's skip is further on in it. Such a program
/// writes nothing, visits nothing and cannot fail.
pub(crate) fn leaf_program(t: &Tables, c: usize) -> Option<(u32, u32)> {
    let p = t.programs.get(c).copied().flatten()?;
    if t.probes[c].is_some() || p.writes || p.visits {
        return None;
    }
    let start = p.start as usize;
    let mut end = start;
    while !matches!(t.program.get(end)?.step, Step::End) {
        end += 1;
    }
    let ok = (start..end).all(|i| match comparison(t.program[i].step) {
        Some(Some(_)) => (i + 1..=end).contains(&(t.program[i].skip as usize)),
        Some(None) => true,
        None => false,
    });
    ok.then_some((start as u32, end as u32 + 1))
}

/// Emits the leaf program `start .. end` ([`leaf_program`]) as a function
/// with the helpers' signature (`(ws, st, _, _) -> 1 holds, 0 not`): a
/// block per instruction, a comparison that fails jumping to its skip, one
/// that holds to the next instruction (or returning 1 where it accepts).
pub(crate) fn emit_program(t: &Tables, (start, end): (u32, u32), f: Func<'_, '_>) {
    let mut g = leaf_gen(t, f);
    let blocks: Vec<Block> = (start..end).map(|_| g.b.create_block()).collect();
    let [yes, no] = g.blocks();
    g.b.ins().jump(blocks[0], &[]);
    for (k, &blk) in blocks.iter().enumerate() {
        g.b.switch_to_block(blk);
        let ins = t.program[start as usize + k];
        let Some(cmp) = comparison(ins.step) else {
            // `End` (the last).
            g.b.ins().jump(no, &[]);
            continue;
        };
        let holds = match ins.accept {
            true => yes,
            false => blocks[k + 1],
        };
        match cmp {
            Some((a, b, eq)) => {
                let fails = g.compare(a, b, eq);
                let skip = blocks[(ins.skip - start) as usize];
                g.b.ins().brif(fails, skip, &[], holds, &[]);
            }
            None => {
                g.b.ins().jump(holds, &[]);
            }
        }
    }
    finish_leaf(g, yes, no);
}

/// Ends a leaf check's function: `yes` returns 1, `no` 0, the fail block
/// `FAILED`.
pub(super) fn finish_leaf(mut g: Gen<'_, '_>, yes: Block, no: Block) {
    for (blk, r) in [(yes, 1), (no, 0), (g.fail, FAILED as i64)] {
        g.b.switch_to_block(blk);
        let r = g.b.ins().iconst(I32, r);
        g.b.ins().return_(&[r]);
    }
    g.b.seal_all_blocks();
    g.b.finalize();
}

/// The generator of a leaf check's function, its entry block current.
pub(super) fn leaf_gen<'a, 'b>(t: &'a Tables, f: Func<'b, 'a>) -> Gen<'a, 'b> {
    let Func { mut b, sig, store } = f;
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let params = b.block_params(entry).to_vec();
    let fail = b.create_block();
    Gen {
        t,
        b,
        sig,
        store,
        cache: None,
        fun_cache: None,
        undos: Default::default(),
        tops: (&[], &[]),
        among_blocks: Default::default(),
        any_next: None,
        saved: None,
        params: Some((params[0], params[1])),
        edges: Vec::new(),
        after: Vec::new(),
        resume: Vec::new(),
        restore: Vec::new(),
        rnode: Vec::new(),
        resume_top: [None; 2],
        bases: &[],
        edge_node: &[],
        back: fail,
        push: fail,
        push_at: Vec::new(),
        fail,
        pures: &[],
        speculate: &[],
        chain: Vec::new(),
        parent: &[],
        early: &[],
        direct: &[],
        runs: Vec::new(),
        run_entry: Vec::new(),
        keep: super::Keep::ALL,
        keep_at: Vec::new(),
        here: super::Keep::ALL,
        log_at: &[],
        few_tags: false,
        locals: &[],
        owners: &[],
        node_part: &[],
        part: 0,
        exit: fail,
        r0: 0,
        known: None,
        at: None,
    }
}

/// Emits leaf pure check `c` as a function with the helpers' signature
/// (`(ws, st, _, _) -> 1 reached, 0 not, FAILED`).
pub(crate) fn emit_pure(t: &Tables, c: usize, f: Func<'_, '_>) {
    let check = t.checks[c];
    let mut g = leaf_gen(t, f);
    let gen = g.fresh_stamp(Off::MARK_GEN, rt::clear_marks);
    let marks = g.ws_load(Off::MARKS);
    let pending = g.ws_load(Off::PENDING);
    g.b.ins().store(FLAGS, gen, marks, 4 * check.start as i32);
    // The start is local node 0.
    let start = g.b.ins().iconst(I32, 0);
    g.b.ins().store(FLAGS, start, pending, 0);
    // The search: pop a node, expand it.
    let [lp, found, missed] = g.blocks();
    let len = g.b.append_block_param(lp, I64);
    let one = g.b.ins().iconst(I64, 1);
    g.b.ins().jump(lp, &[BlockArg::Value(one)]);
    // Nodes of the search, numbered densely (`local`): pending entries
    // are these numbers, so the dispatch table is the search's size.
    let mut local = vec![u32::MAX; t.nodes.len()];
    let mut order = vec![check.start];
    local[check.start as usize] = 0;
    let mut k = 0;
    while k < order.len() {
        let info = t.nodes[order[k] as usize];
        k += 1;
        for e in &t.edges[info.first as usize..info.end as usize] {
            if e.to != check.target && local[e.to as usize] == u32::MAX {
                local[e.to as usize] = order.len() as u32;
                order.push(e.to);
            }
        }
    }
    let blocks: Vec<_> = order.iter().map(|_| g.b.create_block()).collect();
    g.b.switch_to_block(lp);
    let [pop, none] = g.blocks();
    g.b.ins().brif(len, pop, &[], none, &[]);
    g.b.switch_to_block(none);
    g.b.ins().jump(missed, &[]);
    g.b.switch_to_block(pop);
    let len1 = g.b.ins().iadd_imm(len, -1);
    let off = g.b.ins().ishl_imm(len1, 2);
    let a = g.b.ins().iadd(pending, off);
    let node = g.b.ins().load(I32, FLAGS, a, 0);
    g.jump_to_node(node, &blocks, &[BlockArg::Value(len1)], missed);
    for (&n, &blk) in order.iter().zip(&blocks) {
        let mut len = g.b.append_block_param(blk, I64);
        g.b.switch_to_block(blk);
        let info = t.nodes[n as usize];
        for i in (info.first..info.end).rev() {
            let e = t.edges[i as usize];
            let skip = g.b.create_block();
            let after = g.b.append_block_param(skip, I64);
            g.leaf_test(i, e.op, skip, len);
            if e.to == check.target {
                g.b.ins().jump(found, &[]);
            } else {
                let m = g.b.ins().load(I32, FLAGS, marks, 4 * e.to as i32);
                let new = g.b.ins().icmp(IntCC::NotEqual, m, gen);
                let mark = g.b.create_block();
                g.b.ins()
                    .brif(new, mark, &[], skip, &[BlockArg::Value(len)]);
                g.b.switch_to_block(mark);
                g.b.ins().store(FLAGS, gen, marks, 4 * e.to as i32);
                let off = g.b.ins().ishl_imm(len, 2);
                let a = g.b.ins().iadd(pending, off);
                let to = g.b.ins().iconst(I32, local[e.to as usize] as i64);
                g.b.ins().store(FLAGS, to, a, 0);
                let len1 = g.b.ins().iadd_imm(len, 1);
                g.b.ins().jump(skip, &[BlockArg::Value(len1)]);
            }
            g.b.switch_to_block(skip);
            len = after;
        }
        g.b.ins().jump(lp, &[BlockArg::Value(len)]);
    }
    finish_leaf(g, found, missed);
}

impl Gen<'_, '_> {
    /// Emits edge `i`'s comparison (`op`: `Cmp` or `CmpMap`) in a leaf
    /// search: goes on in a fresh block when it holds, else to `skip` with
    /// the pending length `len`. Emits nothing for other edges.
    pub(super) fn leaf_test(&mut self, i: u32, op: Op, skip: Block, len: Value) {
        let fail = [BlockArg::Value(len)];
        let cont = match op {
            Op::Cmp(a, b, eq) => {
                let fails = self.compare(a, b, eq);
                let cont = self.b.create_block();
                self.b.ins().brif(fails, skip, &fail, cont, &[]);
                cont
            }
            Op::CmpMap(..) => {
                let r = self.call_imm(rt::edge, i, 0);
                self.check_failed(r);
                let cont = self.b.create_block();
                self.b.ins().brif(r, cont, &[], skip, &fail);
                cont
            }
            _ => return,
        };
        self.b.switch_to_block(cont);
    }

    /// Jumps to `blocks[node]` with `args`: a jump table (every pending
    /// number is a node of the search; the table's default, never taken,
    /// goes to `missed`).
    pub(super) fn jump_to_node(
        &mut self,
        node: Value,
        blocks: &[Block],
        args: &[BlockArg],
        missed: Block,
    ) {
        let dead = self.b.create_block();
        for a in args {
            if let BlockArg::Value(v) = *a {
                let ty = self.b.func.dfg.value_type(v);
                self.b.append_block_param(dead, ty);
            }
        }
        let calls: Vec<_> = blocks
            .iter()
            .map(|&blk| self.b.func.dfg.block_call(blk, args))
            .collect();
        let def = self.b.func.dfg.block_call(dead, args);
        let jt = self.b.create_jump_table(JumpTableData::new(def, &calls));
        self.b.ins().br_table(node, jt);
        self.b.switch_to_block(dead);
        self.b.ins().jump(missed, &[]);
    }

    /// Whether `a == b` (`eq`) or `a != b` fails (I8).
    pub(super) fn compare(&mut self, a: Operand, b: Operand, eq: bool) -> Value {
        let a = self.operand(a);
        let b = self.operand(b);
        let cc = if eq { IntCC::NotEqual } else { IntCC::Equal };
        self.b.ins().icmp(cc, a, b)
    }

    /// Decides check `c` (memo missed) and memoises it: 1 or 0 (I32).
    pub(super) fn decide(&mut self, c: u32) -> Value {
        let (probe, pure) = (self.t.probes[c as usize], self.pures[c as usize]);
        let r = match (probe, pure) {
            (Some(p), _) => self.probe(&p),
            (None, Some(f)) => {
                // (A search shared by checks of one target is entered at
                // the check's start, `gen/search.rs`.)
                let z = self.b.ins().iconst(I32, 0);
                let start = self.t.checks[c as usize].start;
                let start = self.b.ins().iconst(I32, start as i64);
                let (ws, st) = (self.ws(), self.st());
                let call = self.b.ins().call(f, &[ws, st, start, z]);
                self.forget();
                let r = self.b.inst_results(call)[0];
                self.check_failed(r);
                r
            }
            // The interpreter (which memoises).
            (None, None) => {
                let r = self.call_imm(rt::check, c, 0);
                self.check_failed(r);
                return r;
            }
        };
        self.memoise(c, r);
        r
    }

    /// Memoises `r` (I32) as check `c`'s answer for the semistate's
    /// version (what `reach` reads back).
    pub(super) fn memoise(&mut self, c: u32, r: Value) {
        let memo = self.ws_load(Off::MEMO);
        let m = self.b.ins().iadd_imm(memo, 16 * c as i64);
        let ver = self.ws_load(Off::VERSION);
        self.b.ins().store(FLAGS, ver, m, 0);
        let r64 = self.b.ins().uextend(I64, r);
        self.b.ins().store(FLAGS, r64, m, 8);
    }

    /// A probe: some symbol of its any-assignment (written in place, then
    /// restored) makes every comparison hold.
    fn probe(&mut self, p: &rg_engine::raw::Probe) -> Value {
        let conds = &self.t.probe_conds[p.conds.0 as usize..(p.conds.0 + p.conds.1) as usize];
        let join = self.b.create_block();
        let r = self.b.append_block_param(join, I32);
        let Some((slot, (start, len))) = p.any else {
            let no = self.b.create_block();
            for &(a, b, eq) in conds {
                let fails = self.compare(a, b, eq);
                self.exit_if(fails, no);
            }
            let one = self.b.ins().iconst(I32, 1);
            self.b.ins().jump(join, &[BlockArg::Value(one)]);
            self.b.switch_to_block(no);
            let zero = self.b.ins().iconst(I32, 0);
            self.b.ins().jump(join, &[BlockArg::Value(zero)]);
            self.b.switch_to_block(join);
            return r;
        };
        let old = self.slot(slot);
        let [lp, body, next, done] = self.blocks();
        let i = self.b.append_block_param(lp, I64);
        let res = self.b.append_block_param(done, I32);
        let zero = self.b.ins().iconst(I64, 0);
        self.b.ins().jump(lp, &[BlockArg::Value(zero)]);
        self.b.switch_to_block(lp);
        let more = self
            .b
            .ins()
            .icmp_imm(IntCC::UnsignedLessThan, i, len as i64);
        let no = self.b.ins().iconst(I32, 0);
        self.b
            .ins()
            .brif(more, body, &[], done, &[BlockArg::Value(no)]);
        self.b.switch_to_block(body);
        let sym = self.any_sym_at(start, i);
        let sym16 = self.b.ins().ireduce(I16, sym);
        let (base, off) = self.slot_ref(slot);
        self.b.ins().store(FLAGS, sym16, base, off);
        for &(a, b, eq) in conds {
            let fails = self.compare(a, b, eq);
            self.exit_if(fails, next);
        }
        let yes = self.b.ins().iconst(I32, 1);
        self.b.ins().jump(done, &[BlockArg::Value(yes)]);
        self.b.switch_to_block(next);
        let i1 = self.b.ins().iadd_imm(i, 1);
        self.b.ins().jump(lp, &[BlockArg::Value(i1)]);
        self.b.switch_to_block(done);
        let old16 = self.b.ins().ireduce(I16, old);
        let (base, off) = self.slot_ref(slot);
        self.b.ins().store(FLAGS, old16, base, off);
        self.b.ins().jump(join, &[BlockArg::Value(res)]);
        self.b.switch_to_block(join);
        r
    }
}
