//! Code generation: the move walk of every node, in one function (or a
//! few for large games: [`Parts`]; edges walks never take get no code).
//!
//! The walk is the interpreter's (`rg-engine/src/walk.rs`), with the
//! dispatch done at generation time: every edge is a block `E[i]` whose
//! action is specialised (operands by kind, constants as immediates, table
//! addresses embedded, assignments with their undo-log push and key-hash
//! update inline) and which jumps straight to its successor: the next edge
//! block (a node with one edge), the frame push (a choice), or the
//! backtrack block. Frames live in the workspace as in the interpreter;
//! `R[j]` resumes a frame whose edges `first .. j` are left, so the
//! backtrack block restores the frame's state and jumps through a table
//! on `j` (a resume block of another function returns its number to the
//! caller's loop, `rt.rs`, which calls that function). Visited checks
//! (but those of one-slot untagged keys: stamps inline), reachability
//! checks (memoised inline), moves' records, map operations and errors
//! call Rust (`rt.rs`).

use cranelift_codegen::entity::packed_option::ReservedValue;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I16, I32, I64};
use cranelift_codegen::ir::{
    Block, BlockArg, FuncRef, InstBuilder, InstructionData, JumpTableData, MemFlags, Opcode,
    SigRef, Value, ValueDef,
};
use cranelift_frontend::FunctionBuilder;
use rg_engine::raw::{
    Fast, Next, Op, Operand, Place, Tables, MAX_LOG, MAX_STEPS, MAX_TAGS, NO_SLOT,
};

use crate::rt::{self, Helper, Off, FAILED, NO_LEGAL};

mod check;
mod filter;
mod parts;
mod program;
mod search;
mod slot;
mod tail;
mod visit;

pub(crate) use check::{emit_program, emit_pure, leaf_program, leaf_pure};
pub use parts::PART_EDGES;
use parts::{chains, edge_nodes, parents, Chain};
pub(crate) use parts::{frame_bases, Keep, Parts};
pub(crate) use program::{emit_writing, nested, writing};
pub(crate) use search::{emit_search, search};
pub(crate) use slot::{emit_slot, leaf_slot};

const FLAGS: MemFlags = MemFlags::trusted();

/// The generator's state for one function.
struct Gen<'a, 'b> {
    t: &'a Tables,
    b: FunctionBuilder<'b>,
    sig: SigRef,
    /// The workspace and the semistate pointer of the current block
    /// ([`Gen::ws`], [`Gen::st`]).
    cache: Option<(Block, Value, Option<Value>)>,
    /// A walk function's caller's pinned register, restored at its
    /// returns; `None` in leaf checks, whose workspace and semistate are
    /// the parameters `params`.
    saved: Option<Value>,
    params: Option<(Value, Value)>,
    /// Edge blocks (parameter: the any-assignment's symbol).
    edges: Vec<Block>,
    /// Per comparison edge that filters an any-assignment, the block
    /// after its comparison: the any-assignment, whose symbol passed the
    /// filter, goes on there (reserved value: none).
    after: Vec<Block>,
    /// Resume blocks, one per (node that can hold a frame, edge `j` from
    /// its first to its end), numbered from the node's base
    /// ([`frame_bases`]) (parameter: the frame's address).
    resume: Vec<Block>,
    /// Per resume block: its node and `j`.
    rnode: Vec<(u32, u32)>,
    /// Per node, its first resume block (`u32::MAX`: never holds a frame).
    bases: &'a [u32],
    /// Per edge, its node.
    edge_node: Vec<u32>,
    /// Backtrack.
    back: Block,
    /// Push a frame (parameters: first, next, node).
    push: Block,
    /// Per node, the push of its frame over all its edges, which resumes
    /// it directly ([`Gen::emit_push_at`]; reserved value: not used here).
    push_at: Vec<Block>,
    /// Return 1 (error).
    fail: Block,
    /// Per check, its generated function (leaf pure checks).
    pures: &'a [Option<FuncRef>],
    /// Per edge, what it runs on relative to the top frame
    /// ([`chains`]).
    chain: Vec<Option<Chain>>,
    /// Per node, what its frames run on relative to the frame below
    /// ([`parents`]).
    parent: Vec<Option<Chain>>,
    /// What of the bookkeeping to keep (`gen/parts.rs` `keep`): in any walk (the
    /// shared frame push and backtrack), per node, and at the node whose
    /// code is being generated.
    keep: Keep,
    keep_at: Vec<Keep>,
    here: Keep,
    /// Per node, the log's length on entry where known (`gen/parts.rs` `log_lengths`).
    log_at: &'a [Option<Vec<u32>>],
    /// Whether move walks push few tags (`rg_engine::raw::few_tags`): playouts
    /// leave the tags' number alone where no visited check reads tags
    /// ([`Gen::tag`]).
    few_tags: bool,
    /// Per node, its walk function ([`Parts`]); empty: every node is this
    /// function's.
    node_part: &'a [u32],
    /// This function's number.
    part: u32,
    /// Leave this function for another one (parameter: the target's
    /// number, [`Parts`]).
    exit: Block,
    /// This function's first resume block.
    r0: u32,
    /// A slot whose value is known as a value, read as that instead of
    /// from the semistate (a filter loop's symbol, [`Gen::filter_loop`]).
    known: Option<(u32, Value)>,
}

/// Emits walk function `part` of `parts` into `b` (signature
/// [`rt::WalkFn`]); `sig` is the helpers' signature ([`Helper`]).
pub(crate) fn emit(
    t: &Tables,
    mut b: FunctionBuilder<'_>,
    sig: SigRef,
    pures: &[Option<FuncRef>],
    bases: &[u32],
    parts: &Parts,
    part: u32,
) {
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let params = b.block_params(entry).to_vec();
    let (ws, st, target, arg) = (params[0], params[1], params[2], params[3]);
    // The workspace lives in the pinned register (callee-saved for Rust:
    // restored at the returns), the semistate pointer in the workspace.
    let saved = b.ins().get_pinned_reg(I64);
    b.ins().set_pinned_reg(ws);
    b.ins().store(FLAGS, st, ws, Off::ST);
    let mine = |n: u32| parts.node[n as usize] == part;
    let mut rnode = Vec::new();
    let edge_node = edge_nodes(t);
    let mut edges = vec![Block::reserved_value(); t.edges.len()];
    for (n, info) in t.nodes.iter().enumerate() {
        for i in info.first..info.end {
            if mine(n as u32) {
                edges[i as usize] = b.create_block();
            }
        }
        if bases[n] != u32::MAX {
            rnode.extend((info.first..=info.end).map(|j| (n as u32, j)));
        }
    }
    let resume: Vec<Block> = rnode
        .iter()
        .map(|&(n, _)| match mine(n) {
            true => b.create_block(),
            false => Block::reserved_value(),
        })
        .collect();
    let r0 = rnode.iter().position(|&(n, _)| mine(n)).unwrap_or(0) as u32;
    let (back, push, fail) = (b.create_block(), b.create_block(), b.create_block());
    let exit = b.create_block();
    let chain = chains(t, bases, &edge_node);
    let parent = parents(t, bases, &edge_node, &chain);
    let mut g = Gen {
        t,
        b,
        sig,
        cache: None,
        saved: Some(saved),
        params: None,
        after: vec![Block::reserved_value(); t.edges.len()],
        edges,
        resume,
        rnode,
        bases,
        edge_node,
        back,
        push,
        push_at: vec![Block::reserved_value(); t.nodes.len()],
        fail,
        pures,
        chain,
        parent,
        keep: parts.keep.0,
        keep_at: parts.keep.1.clone(),
        here: parts.keep.0,
        log_at: &parts.log_at,
        few_tags: parts.few_tags,
        node_part: &parts.node,
        part,
        exit,
        r0,
        known: None,
    };
    for j in 0..t.edges.len() {
        let k = t.edges[j].filter as usize;
        if g.edges[j] != Block::reserved_value()
            && g.filter(j).is_some()
            && g.edges[k] != Block::reserved_value()
        {
            g.after[k] = g.b.create_block();
        }
    }
    g.emit_entry(target, arg);
    g.emit_push();
    g.emit_back();
    for r in 0..g.resume.len() {
        if g.resume[r] != Block::reserved_value() {
            g.emit_resume(r);
        }
    }
    for i in 0..g.edges.len() {
        if g.edges[i] != Block::reserved_value() {
            g.emit_edge(i);
        }
    }
    for n in 0..t.nodes.len() as u32 {
        if g.push_at[n as usize] != Block::reserved_value() {
            g.emit_push_at(n);
        }
    }
    g.b.switch_to_block(g.exit);
    let id = g.b.append_block_param(g.exit, I32);
    let r = g.b.ins().iadd_imm(id, 2);
    g.ret(r);
    g.b.switch_to_block(g.fail);
    let one = g.b.ins().iconst(I32, 1);
    g.ret(one);
    g.b.seal_all_blocks();
    g.b.finalize();
}

impl Gen<'_, '_> {
    /// The entry: go on at target `target` ([`Parts`]); `arg` is the root
    /// frame's resume block when it pushes the root frame. Edges entered
    /// from other functions and every resume block are targets.
    fn emit_entry(&mut self, target: Value, arg: Value) {
        let edges = self.t.edges.len() as u32;
        let total = edges + self.rnode.len() as u32;
        let (to_edge, not_edge, to_resume, to_push) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        let is_edge = self
            .b
            .ins()
            .icmp_imm(IntCC::UnsignedLessThan, target, edges as i64);
        self.b.ins().brif(is_edge, to_edge, &[], not_edge, &[]);
        // Edges entered from other functions (with no symbol), numbered
        // from this function's first.
        self.b.switch_to_block(to_edge);
        let part = |n: u32| self.node_part[n as usize];
        let mut entered = vec![false; self.t.edges.len()];
        for (i, e) in self.t.edges.iter().enumerate() {
            let from = part(self.edge_node[i]);
            if let (Next::Inline(k), true) = (e.next, from != u32::MAX && from != self.part) {
                entered[k as usize] |= part(self.edge_node[k as usize]) == self.part;
            }
        }
        let e0 = entered.iter().position(|&x| x).unwrap_or(0);
        let e1 = entered.iter().rposition(|&x| x).map_or(0, |k| k + 1);
        let zero = self.b.ins().iconst(I32, 0);
        let calls: Vec<_> = (e0..e1)
            .map(|k| match entered[k] {
                true => self
                    .b
                    .func
                    .dfg
                    .block_call(self.edges[k], &[BlockArg::Value(zero)]),
                false => self.b.func.dfg.block_call(self.fail, &[]),
            })
            .collect();
        let def = self.b.func.dfg.block_call(self.fail, &[]);
        let jt = self.b.create_jump_table(JumpTableData::new(def, &calls));
        let local = self.b.ins().iadd_imm(target, -(e0 as i64));
        self.b.ins().br_table(local, jt);
        self.b.switch_to_block(not_edge);
        let is_resume = self
            .b
            .ins()
            .icmp_imm(IntCC::UnsignedLessThan, target, total as i64);
        self.b.ins().brif(is_resume, to_resume, &[], to_push, &[]);
        self.b.switch_to_block(to_resume);
        let f = self.top_frame();
        let next = self.b.ins().iadd_imm(target, -(edges as i64));
        self.dispatch(next, f);
        self.b.switch_to_block(to_push);
        let first = self.b.ins().iadd_imm(target, -(total as i64));
        let root = self.b.ins().iconst(I32, 0);
        self.b.ins().jump(
            self.push,
            &[
                BlockArg::Value(first),
                BlockArg::Value(arg),
                BlockArg::Value(root),
            ],
        );
    }

    /// Whether node `n`'s blocks are in this function.
    fn mine(&self, n: u32) -> bool {
        self.node_part.is_empty() || self.node_part[n as usize] == self.part
    }

    /// Goes on at edge `k` with no symbol (inline).
    fn jump_edge(&mut self, k: u32) {
        if self.mine(self.edge_node[k as usize]) {
            let zero = self.b.ins().iconst(I32, 0);
            self.b
                .ins()
                .jump(self.edges[k as usize], &[BlockArg::Value(zero)]);
        } else {
            let id = self.b.ins().iconst(I32, k as i64);
            self.b.ins().jump(self.exit, &[BlockArg::Value(id)]);
        }
    }

    /// Resumes the top frame, at `f`, at resume block `r`.
    fn jump_resume(&mut self, r: u32, f: Value) {
        if self.resume[r as usize] != Block::reserved_value() {
            self.b
                .ins()
                .jump(self.resume[r as usize], &[BlockArg::Value(f)]);
        } else {
            let id = self.t.edges.len() as i64 + r as i64;
            let id = self.b.ins().iconst(I32, id);
            self.b.ins().jump(self.exit, &[BlockArg::Value(id)]);
        }
    }

    fn load(&mut self, ty: cranelift_codegen::ir::Type, base: Value, off: i32) -> Value {
        self.b.ins().load(ty, FLAGS, base, off)
    }

    /// The workspace: in walk functions Cranelift's pinned register, read
    /// once per block (a walk's whole-function values were spilled and
    /// reloaded at each use).
    fn ws(&mut self) -> Value {
        if let Some((ws, _)) = self.params {
            return ws;
        }
        let here = self.b.current_block();
        match self.cache {
            Some((blk, ws, _)) if Some(blk) == here => ws,
            _ => {
                let ws = self.b.ins().get_pinned_reg(I64);
                self.cache = here.map(|blk| (blk, ws, None));
                ws
            }
        }
    }

    /// The semistate's address, read from the workspace once per block.
    fn st(&mut self) -> Value {
        if let Some((_, st)) = self.params {
            return st;
        }
        let ws = self.ws();
        if let Some((_, _, Some(st))) = self.cache {
            return st;
        }
        let st = self.load(I64, ws, Off::ST);
        if let Some(c) = &mut self.cache {
            c.2 = Some(st);
        }
        st
    }

    /// Goes on in `cont`, whose only predecessor is the current block:
    /// the workspace and semistate read there hold.
    fn continue_in(&mut self, cont: Block) {
        let here = self.b.current_block();
        self.b.switch_to_block(cont);
        if let Some(c) = &mut self.cache {
            if Some(c.0) == here {
                c.0 = cont;
            }
        }
    }

    /// Returns `r`, the caller's pinned register restored.
    fn ret(&mut self, r: Value) {
        if let Some(saved) = self.saved {
            self.b.ins().set_pinned_reg(saved);
        }
        self.b.ins().return_(&[r]);
    }

    fn ws_load(&mut self, off: i32) -> Value {
        let ws = self.ws();
        self.load(I64, ws, off)
    }

    fn ws_store(&mut self, v: Value, off: i32) {
        let ws = self.ws();
        self.b.ins().store(FLAGS, v, ws, off);
    }

    /// A fresh stamp (i32) from the generation counter at workspace field
    /// `off`, incremented; stamps wrap: at the wrap `clear` clears the
    /// marks and the counter starts again at 1.
    fn fresh_stamp(&mut self, off: i32, clear: Helper) -> Value {
        let gen = self.ws_load(off);
        let gen = self.b.ins().iadd_imm(gen, 1);
        let wrap = self
            .b
            .ins()
            .icmp_imm(IntCC::UnsignedGreaterThanOrEqual, gen, u32::MAX as i64);
        let (clear_block, stamped) = (self.b.create_block(), self.b.create_block());
        let gen_p = self.b.append_block_param(stamped, I64);
        self.b.set_cold_block(clear_block);
        self.b
            .ins()
            .brif(wrap, clear_block, &[], stamped, &[BlockArg::Value(gen)]);
        self.b.switch_to_block(clear_block);
        self.call_imm(clear, 0, 0);
        let one = self.b.ins().iconst(I64, 1);
        self.b.ins().jump(stamped, &[BlockArg::Value(one)]);
        self.b.switch_to_block(stamped);
        self.ws_store(gen_p, off);
        self.b.ins().ireduce(I32, gen_p)
    }

    /// Calls a helper with `(ws, st, a, b)`.
    fn call(&mut self, f: Helper, a: Value, b: Value) -> Value {
        let f = self.b.ins().iconst(I64, f as *const () as i64);
        let (ws, st) = (self.ws(), self.st());
        let call = self.b.ins().call_indirect(self.sig, f, &[ws, st, a, b]);
        // (Values kept across the call would be saved around it.)
        self.cache = None;
        self.b.inst_results(call)[0]
    }

    fn call_imm(&mut self, f: Helper, a: u32, b: u32) -> Value {
        let a = self.b.ins().iconst(I32, a as i64);
        let b = self.b.ins().iconst(I32, b as i64);
        self.call(f, a, b)
    }

    /// Goes on in a fresh block when `cond` is zero, else to `target`.
    fn exit_if(&mut self, cond: Value, target: Block) {
        let cont = self.b.create_block();
        self.b.ins().brif(cond, target, &[], cont, &[]);
        self.continue_in(cont);
    }

    /// When `cond`, calls helper `f(a, 0)` in a cold block (it grows a
    /// buffer, or fails the walk); then goes on.
    fn grow_if(&mut self, cond: Value, f: Helper, a: Value) {
        let (grow, cont) = (self.b.create_block(), self.b.create_block());
        self.b.set_cold_block(grow);
        self.b.ins().brif(cond, grow, &[], cont, &[]);
        self.b.switch_to_block(grow);
        let zero = self.b.ins().iconst(I32, 0);
        let r = self.call(f, a, zero);
        self.check_failed(r);
        self.b.ins().jump(cont, &[]);
        self.b.switch_to_block(cont);
    }

    /// Fails the walk when a helper's answer is [`FAILED`].
    fn check_failed(&mut self, r: Value) {
        let bad = self.b.ins().icmp_imm(IntCC::Equal, r, FAILED as i64);
        self.exit_if(bad, self.fail);
    }

    /// The address of `fun[index]` for a constant table offset and a value.
    fn fun_at(&mut self, table: u32, index: Value) -> Value {
        let base = self.t.fun.as_ptr() as i64 + 4 * table as i64;
        let i = self.b.ins().uextend(I64, index);
        let off = self.b.ins().ishl_imm(i, 2);
        self.b.ins().iadd_imm(off, base)
    }

    fn fun(&mut self, table: u32, index: Value) -> Value {
        let entry = self
            .konst(index)
            .and_then(|k| self.t.fun.get(table as usize + k as usize));
        if let Some(&v) = entry {
            return self.b.ins().iconst(I32, v as i64);
        }
        let a = self.fun_at(table, index);
        self.load(I32, a, 0)
    }

    /// The value of `v` where it is a constant of the generator's.
    fn konst(&self, v: Value) -> Option<u32> {
        let dfg = &self.b.func.dfg;
        let ValueDef::Result(inst, _) = dfg.value_def(v) else {
            return None;
        };
        match dfg.insts[inst] {
            InstructionData::UnaryImm {
                opcode: Opcode::Iconst,
                imm,
            } => u32::try_from(imm.bits()).ok(),
            _ => None,
        }
    }

    /// `st[slot]` for a constant slot.
    fn slot(&mut self, s: u32) -> Value {
        if let Some((k, v)) = self.known {
            if k == s {
                return v;
            }
        }
        let st = self.st();
        self.b.ins().uload16(I32, FLAGS, st, 2 * s as i32)
    }

    /// `st[slot]` for a computed slot.
    fn slot_at(&mut self, s: Value) -> Value {
        if let Some(k) = self.konst(s) {
            return self.slot(k);
        }
        let a = self.st_addr(s);
        self.b.ins().uload16(I32, FLAGS, a, 0)
    }

    fn st_addr(&mut self, s: Value) -> Value {
        let i = self.b.ins().uextend(I64, s);
        let off = self.b.ins().ishl_imm(i, 1);
        let st = self.st();
        self.b.ins().iadd(st, off)
    }

    /// The value of an operand (I32).
    fn operand(&mut self, o: Operand) -> Value {
        match o {
            Operand::Imm(v) => self.b.ins().iconst(I32, v as i64),
            Operand::Slot(s) => self.slot(s),
            Operand::Tab(s, table) => {
                let k = self.slot(s);
                self.fun(table, k)
            }
            Operand::Ind(s, table) => {
                let k = self.slot(s);
                let slot = self.fun(table, k);
                self.slot_at(slot)
            }
            Operand::Read(i) => match self.t.fast[i as usize] {
                Fast::TabInd(s, inner, outer) => {
                    let k = self.operand(Operand::Ind(s, inner));
                    self.fun(outer, k)
                }
                Fast::IndInd(s, inner, outer) => {
                    let k = self.operand(Operand::Ind(s, inner));
                    let slot = self.fun(outer, k);
                    self.slot_at(slot)
                }
                Fast::Pair {
                    first,
                    second,
                    first_table,
                    second_table,
                } => {
                    let a = self.operand(first);
                    let a = self.fun(first_table, a);
                    let b = self.operand(second);
                    let b = self.fun(second_table, b);
                    let i = self.b.ins().iadd(a, b);
                    let i = self.b.ins().uextend(I64, i);
                    let off = self.b.ins().ishl_imm(i, 1);
                    let a = self.b.ins().iadd_imm(off, self.t.consts.as_ptr() as i64);
                    self.b.ins().uload16(I32, FLAGS, a, 0)
                }
                Fast::General => {
                    let zero = self.b.ins().iconst(I32, 0);
                    let i = self.b.ins().iconst(I32, i as i64);
                    self.call(rt::read, i, zero)
                }
            },
        }
    }

    /// The slot a place denotes: a constant, or a value (a key outside the
    /// map's keys fails the walk).
    fn place(&mut self, p: Place) -> Result<u32, Value> {
        let (slot, key) = match p {
            Place::Slot(s) => return Ok(s),
            Place::Ind(s, table) => {
                let k = self.slot(s);
                (self.fun(table, k), k)
            }
            Place::Gen(i) => match self.t.fast[i as usize] {
                Fast::IndInd(s, inner, outer) => {
                    let k = self.operand(Operand::Ind(s, inner));
                    (self.fun(outer, k), k)
                }
                _ => {
                    let zero = self.b.ins().iconst(I32, 0);
                    let i = self.b.ins().iconst(I32, i as i64);
                    let r = self.call(rt::place, i, zero);
                    self.check_failed(r);
                    return Err(r);
                }
            },
        };
        let foreign = self.b.ins().icmp_imm(IntCC::Equal, slot, NO_SLOT as i64);
        let (bad, ok) = (self.b.create_block(), self.b.create_block());
        self.b.set_cold_block(bad);
        self.b.ins().brif(foreign, bad, &[], ok, &[]);
        self.b.switch_to_block(bad);
        let kind = self.b.ins().iconst(I32, rt::FAIL_KEY as i64);
        self.call(rt::fail, kind, key);
        self.b.ins().jump(self.fail, &[]);
        self.b.switch_to_block(ok);
        Err(slot)
    }

    /// `st[slot] = v`, logged, hashed and versioned.
    fn write(&mut self, slot: Result<u32, Value>, v: Value) {
        let (addr, slot_v) = match slot {
            Ok(s) => {
                let st = self.st();
                let a = self.b.ins().iadd_imm(st, 2 * s as i64);
                (a, self.b.ins().iconst(I32, s as i64))
            }
            Err(s) => (self.st_addr(s), s),
        };
        let old = self.b.ins().uload16(I32, FLAGS, addr, 0);
        // Log push.
        let len = self.ws_load(Off::LOG_LEN);
        let cap = self.ws_load(Off::LOG_CAP);
        let full = self.b.ins().icmp(IntCC::Equal, len, cap);
        let zero = self.b.ins().iconst(I32, 0);
        self.grow_if(full, rt::grow_log, zero);
        let log = self.ws_load(Off::LOG);
        let off = self.b.ins().ishl_imm(len, 3);
        let e = self.b.ins().iadd(log, off);
        self.b.ins().store(FLAGS, slot_v, e, 0);
        self.b.ins().store(FLAGS, old, e, 4);
        let len1 = self.b.ins().iadd_imm(len, 1);
        self.ws_store(len1, Off::LOG_LEN);
        let v16 = self.b.ins().ireduce(I16, v);
        self.b.ins().store(FLAGS, v16, addr, 0);
        // Key hash: `hash += mul[slot] * (v - old)`.
        // (Only where something reads the key hash.)
        if let Some(m) = self.here.hash.then(|| self.hash_mul(slot)).flatten() {
            let v64 = self.b.ins().uextend(I64, v);
            let old64 = self.b.ins().uextend(I64, old);
            let d = self.b.ins().isub(v64, old64);
            let d = self.b.ins().imul(m, d);
            let h = self.ws_load(Off::HASH);
            let h = self.b.ins().iadd(h, d);
            self.ws_store(h, Off::HASH);
        }
        if self.here.version {
            let nv = self.ws_load(Off::NEXT_VERSION);
            self.ws_store(nv, Off::VERSION);
            let nv1 = self.b.ins().iadd_imm(nv, 1);
            self.ws_store(nv1, Off::NEXT_VERSION);
        }
    }

    /// The key hash's multiplier of `slot` (`None`: zero).
    fn hash_mul(&mut self, slot: Result<u32, Value>) -> Option<Value> {
        match slot {
            Ok(s) => match self.t.hash_mul[s as usize] {
                0 => None,
                m => Some(self.b.ins().iconst(I64, m as i64)),
            },
            Err(s) => {
                let i = self.b.ins().uextend(I64, s);
                let off = self.b.ins().ishl_imm(i, 3);
                let a = self.b.ins().iadd_imm(off, self.t.hash_mul.as_ptr() as i64);
                Some(self.load(I64, a, 0))
            }
        }
    }

    /// Records the walk's move (`player = v`, ending at `node`) in the
    /// workspace's change and end buffers, as `Effects::push`: the slots of
    /// the undo log with their values now, then `player`. `known`: the
    /// log's entries' slots ([`NO_SLOT`] where not constant), where the
    /// generator knows its length (the copy unrolled, constant slots read
    /// directly). `deferred`: a slot whose value is this one, not the
    /// semistate's ([`Gen::defer`]; its entries known).
    fn record(
        &mut self,
        v: Value,
        node: u32,
        known: Option<&[u32]>,
        deferred: Option<(u32, Value)>,
    ) {
        let len = match known {
            Some(k) => self.b.ins().iconst(I64, k.len() as i64),
            None => self.ws_load(Off::LOG_LEN),
        };
        let cl = self.ws_load(Off::CHANGES_LEN);
        let need = self.b.ins().iadd(cl, len);
        let need = self.b.ins().iadd_imm(need, 1);
        let cap = self.ws_load(Off::CHANGES_CAP);
        // (The end buffer is never shorter than the change buffer, and
        // every move has a change: room for the changes is room for the
        // end.)
        let grow = self.b.ins().icmp(IntCC::UnsignedGreaterThan, need, cap);
        // (`need` stays below 2^32: the log and the changes are bounded.)
        let need32 = self.b.ins().ireduce(I32, need);
        self.grow_if(grow, rt::grow_rec, need32);
        // (Not read where every entry's slot is known.)
        let log = match known {
            Some(k) if !k.contains(&NO_SLOT) => None,
            _ => Some(self.ws_load(Off::LOG)),
        };
        let changes = self.ws_load(Off::CHANGES);
        let off = self.b.ins().ishl_imm(cl, 3);
        let dst = self.b.ins().iadd(changes, off);
        // `dst[i] = (slot, st[slot])` per log entry `i`.
        let entry = |g: &mut Self, log: Value, off: Value| {
            let src = g.b.ins().iadd(log, off);
            let slot = g.load(I32, src, 0);
            let val = g.slot_at(slot);
            let d = g.b.ins().iadd(dst, off);
            g.b.ins().store(FLAGS, slot, d, 0);
            g.b.ins().store(FLAGS, val, d, 4);
        };
        match known {
            Some(k) => {
                for (i, &s) in k.iter().enumerate() {
                    let slot = match (s, log) {
                        (NO_SLOT, Some(log)) => self.load(I32, log, 8 * i as i32),
                        _ => self.b.ins().iconst(I32, s as i64),
                    };
                    let val = match deferred {
                        Some((d, val)) if d == s => val,
                        _ => self.slot_at(slot),
                    };
                    self.b.ins().store(FLAGS, slot, dst, 8 * i as i32);
                    self.b.ins().store(FLAGS, val, dst, 8 * i as i32 + 4);
                }
            }
            None => {
                let (lp, body, done) = (
                    self.b.create_block(),
                    self.b.create_block(),
                    self.b.create_block(),
                );
                let i = self.b.append_block_param(lp, I64);
                let zero = self.b.ins().iconst(I64, 0);
                self.b.ins().jump(lp, &[BlockArg::Value(zero)]);
                self.b.switch_to_block(lp);
                let more = self.b.ins().icmp(IntCC::UnsignedLessThan, i, len);
                self.b.ins().brif(more, body, &[], done, &[]);
                self.b.switch_to_block(body);
                let off = self.b.ins().ishl_imm(i, 3);
                let log = log.expect("read where the log is not known");
                entry(self, log, off);
                let i1 = self.b.ins().iadd_imm(i, 1);
                self.b.ins().jump(lp, &[BlockArg::Value(i1)]);
                self.b.switch_to_block(done);
            }
        }
        let off = self.b.ins().ishl_imm(len, 3);
        let d = self.b.ins().iadd(dst, off);
        let ps = self.b.ins().iconst(I32, self.t.player_slot as i64);
        self.b.ins().store(FLAGS, ps, d, 0);
        self.b.ins().store(FLAGS, v, d, 4);
        self.ws_store(need, Off::CHANGES_LEN);
        let el = self.ws_load(Off::ENDS_LEN);
        let ends = self.ws_load(Off::ENDS);
        let off = self.b.ins().ishl_imm(el, 3);
        let a = self.b.ins().iadd(ends, off);
        let need32 = self.b.ins().ireduce(I32, need);
        self.b.ins().store(FLAGS, need32, a, 0);
        let n = self.b.ins().iconst(I32, node as i64);
        self.b.ins().store(FLAGS, n, a, 4);
        let el1 = self.b.ins().iadd_imm(el, 1);
        self.ws_store(el1, Off::ENDS_LEN);
    }

    /// Where tags are quiet (the walk keeps none and `few_tags`), a block
    /// that playouts jump to from here, skipping the tag work that follows
    /// (the caller jumps to it when done); code continues in the other
    /// arm. `None` elsewhere.
    fn skip_in_quiet_playouts(&mut self) -> Option<Block> {
        if self.here.tags || !self.few_tags {
            return None;
        }
        let (done, rest) = (self.b.create_block(), self.b.create_block());
        let flag = self.ws_load(Off::REC_INLINE);
        self.b.ins().brif(flag, done, &[], rest, &[]);
        self.b.switch_to_block(rest);
        Some(done)
    }

    /// Pushes a tag (games whose `visible` cannot change).
    fn tag(&mut self, tag: Value, node: u32) {
        if self.t.visible_slots.is_some() {
            let node = self.b.ins().iconst(I32, node as i64);
            let r = self.call(rt::tag, tag, node);
            self.check_failed(r);
            return;
        }
        // Playouts count tags only for a bound their walks never reach:
        // nothing to do.
        let skip = self.skip_in_quiet_playouts();
        let len = self.ws_load(Off::TAGS_LEN);
        let full = self
            .b
            .ins()
            .icmp_imm(IntCC::UnsignedGreaterThanOrEqual, len, MAX_TAGS as i64);
        let (bad, ok) = (self.b.create_block(), self.b.create_block());
        self.b.set_cold_block(bad);
        self.b.ins().brif(full, bad, &[], ok, &[]);
        self.b.switch_to_block(bad);
        self.call_imm(rt::fail, rt::FAIL_TAGS, node);
        self.b.ins().jump(self.fail, &[]);
        self.b.switch_to_block(ok);
        let done = skip.unwrap_or_else(|| self.b.create_block());
        if !self.here.tags && skip.is_none() {
            // In playouts only the number counts.
            let (count, all) = (self.b.create_block(), self.b.create_block());
            let flag = self.ws_load(Off::REC_INLINE);
            self.b.ins().brif(flag, count, &[], all, &[]);
            self.b.switch_to_block(count);
            let len1 = self.b.ins().iadd_imm(len, 1);
            self.ws_store(len1, Off::TAGS_LEN);
            self.b.ins().jump(done, &[]);
            self.b.switch_to_block(all);
        }
        let tags = self.ws_load(Off::TAGS);
        let off = self.b.ins().ishl_imm(len, 1);
        let a = self.b.ins().iadd(tags, off);
        let t16 = self.b.ins().ireduce(I16, tag);
        self.b.ins().store(FLAGS, t16, a, 0);
        let len1 = self.b.ins().iadd_imm(len, 1);
        self.ws_store(len1, Off::TAGS_LEN);
        // `tag_step`: ((h ^ (tag + 1)) * K).rotate_left(17).
        let h = self.ws_load(Off::TAG_HASH);
        let t64 = self.b.ins().uextend(I64, tag);
        let t1 = self.b.ins().iadd_imm(t64, 1);
        let x = self.b.ins().bxor(h, t1);
        let x = self.b.ins().imul_imm(x, 0x9e37_79b9_7f4a_7c15_u64 as i64);
        let x = self.b.ins().rotl_imm(x, 17);
        self.ws_store(x, Off::TAG_HASH);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
    }

    /// The shared frame push: `push(first, next, node)`.
    fn emit_push(&mut self) {
        let b = self.push;
        let first = self.b.append_block_param(b, I32);
        let next = self.b.append_block_param(b, I32);
        let node = self.b.append_block_param(b, I32);
        self.b.switch_to_block(b);
        let f = self.push_frame(first, next, node);
        self.dispatch(next, f);
    }

    /// The push of node `n`'s frame over all its edges (`n` not
    /// `@disjoint`), which goes on at its resume block directly.
    fn emit_push_at(&mut self, n: u32) {
        self.here = self.keep;
        self.b.switch_to_block(self.push_at[n as usize]);
        let info = self.t.nodes[n as usize];
        let r = self.bases[n as usize] + info.end - info.first;
        let first = self.b.ins().iconst(I32, info.first as i64);
        let next = self.b.ins().iconst(I32, r as i64);
        let node = self.b.ins().iconst(I32, n as i64);
        let f = self.push_frame(first, next, node);
        self.jump_resume(r, f);
    }

    /// Pushes a frame (edges `first .. next`, `next` its resume block, at
    /// node `node`) and returns its address.
    fn push_frame(&mut self, first: Value, next: Value, node: Value) -> Value {
        let len = self.ws_load(Off::FRAMES_LEN);
        let cap = self.ws_load(Off::FRAMES_CAP);
        let full = self.b.ins().icmp(IntCC::Equal, len, cap);
        self.grow_if(full, rt::grow_frames, node);
        let frames = self.ws_load(Off::FRAMES);
        let off = self.b.ins().imul_imm(len, Off::FRAME_SIZE);
        let f = self.b.ins().iadd(frames, off);
        let len1 = self.b.ins().iadd_imm(len, 1);
        self.ws_store(len1, Off::FRAMES_LEN);
        self.b.ins().store(FLAGS, next, f, Off::F_NEXT);
        self.b.ins().store(FLAGS, first, f, Off::F_FIRST);
        let zero = self.b.ins().iconst(I32, 0);
        self.b.ins().store(FLAGS, zero, f, Off::F_SUB);
        let log = self.ws_load(Off::LOG_LEN);
        let log = self.b.ins().ireduce(I32, log);
        self.b.ins().store(FLAGS, log, f, Off::F_LOG);
        let tags = self.ws_load(Off::TAGS_LEN);
        let tags = self.b.ins().ireduce(I32, tags);
        self.b.ins().store(FLAGS, tags, f, Off::F_TAGS);
        for (from, to, kept) in [
            (Off::HASH, Off::F_HASH, self.keep.hash),
            (Off::TAG_HASH, Off::F_TAG_HASH, true),
            (Off::VERSION, Off::F_VERSION, self.keep.version),
        ] {
            if !kept {
                continue;
            }
            let v = self.ws_load(from);
            self.b.ins().store(FLAGS, v, f, to);
        }
        f
    }

    /// Jumps to `R[next]` with the frame's address (the top frame's),
    /// leaving the function for resume blocks of others.
    fn dispatch(&mut self, next: Value, f: Value) {
        let arg = [BlockArg::Value(f)];
        let r0 = self.r0 as usize;
        let mine = self.resume[r0..]
            .iter()
            .take_while(|&&r| r != Block::reserved_value())
            .count();
        let calls: Vec<_> = self.resume[r0..r0 + mine]
            .to_vec()
            .iter()
            .map(|&r| self.b.func.dfg.block_call(r, &arg))
            .collect();
        let out = self.b.create_block();
        let def = self.b.func.dfg.block_call(out, &[]);
        let jt = self.b.create_jump_table(JumpTableData::new(def, &calls));
        let local = self.b.ins().iadd_imm(next, -(r0 as i64));
        self.b.ins().br_table(local, jt);
        self.b.switch_to_block(out);
        let id = self.b.ins().iadd_imm(next, self.t.edges.len() as i64);
        self.b.ins().jump(self.exit, &[BlockArg::Value(id)]);
    }

    /// Undoes the log entry at `e + off`: its slot gets its old value.
    fn undo_entry(&mut self, e: Value, off: i32) {
        let slot = self.load(I32, e, off);
        let old = self.load(I32, e, off + 4);
        let a = self.st_addr(slot);
        let old16 = self.b.ins().ireduce(I16, old);
        self.b.ins().store(FLAGS, old16, a, 0);
    }

    /// The tags of frame `f`: their number (and how many have numbers) and
    /// hash.
    fn restore_tags(&mut self, f: Value) {
        // Playouts leave the tags alone ([`Gen::tag`]).
        let done = self.skip_in_quiet_playouts();
        let tags = self.load(I32, f, Off::F_TAGS);
        let tags = self.b.ins().uextend(I64, tags);
        self.ws_store(tags, Off::TAGS_LEN);
        let ids = self.ws_load(Off::TAG_IDS_LEN);
        let ids = self.b.ins().umin(ids, tags);
        self.ws_store(ids, Off::TAG_IDS_LEN);
        let v = self.load(I64, f, Off::F_TAG_HASH);
        self.ws_store(v, Off::TAG_HASH);
        if let Some(done) = done {
            self.b.ins().jump(done, &[]);
            self.b.switch_to_block(done);
        }
    }

    /// The key hash and version of frame `f` (its semistate's).
    fn restore_hash(&mut self, f: Value) {
        for (from, to, kept) in [
            (Off::F_HASH, Off::HASH, self.here.hash),
            (Off::F_VERSION, Off::VERSION, self.here.version),
        ] {
            if !kept {
                continue;
            }
            let v = self.load(I64, f, from);
            self.ws_store(v, to);
        }
    }

    /// Backtrack: restore the top frame's state, resume it (or return 0).
    fn emit_back(&mut self) {
        self.here = self.keep;
        self.b.switch_to_block(self.back);
        let len = self.ws_load(Off::FRAMES_LEN);
        let (done, some) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(len, some, &[], done, &[]);
        self.b.switch_to_block(done);
        let zero = self.b.ins().iconst(I32, 0);
        self.ret(zero);
        self.b.switch_to_block(some);
        let frames = self.ws_load(Off::FRAMES);
        let top = self.b.ins().iadd_imm(len, -1);
        let off = self.b.ins().imul_imm(top, Off::FRAME_SIZE);
        let f = self.b.ins().iadd(frames, off);
        let target = self.load(I32, f, Off::F_LOG);
        let target = self.b.ins().uextend(I64, target);
        let log = self.ws_load(Off::LOG);
        let ll = self.ws_load(Off::LOG_LEN);
        // Undo the log down to the frame's length.
        let (lp, body, after) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        let cur = self.b.append_block_param(lp, I64);
        self.b.ins().jump(lp, &[BlockArg::Value(ll)]);
        self.b.switch_to_block(lp);
        let more = self.b.ins().icmp(IntCC::UnsignedGreaterThan, cur, target);
        self.b.ins().brif(more, body, &[], after, &[]);
        self.b.switch_to_block(body);
        let dec = self.b.ins().iadd_imm(cur, -1);
        let off = self.b.ins().ishl_imm(dec, 3);
        let e = self.b.ins().iadd(log, off);
        self.undo_entry(e, 0);
        self.b.ins().jump(lp, &[BlockArg::Value(dec)]);
        self.b.switch_to_block(after);
        self.ws_store(target, Off::LOG_LEN);
        self.restore_tags(f);
        self.restore_hash(f);
        let next = self.load(I32, f, Off::F_NEXT);
        self.dispatch(next, f);
    }

    /// Resume block `r` of (node, `j`): the frame at `f` has edges
    /// `first .. j` left (and the symbols below `sub` of edge `j`'s
    /// any-assignment).
    fn emit_resume(&mut self, r: usize) {
        let blk = self.resume[r];
        let (n, j) = self.rnode[r];
        self.here = self.keep_at[n as usize];
        let info = self.t.nodes[n as usize];
        let f = self.b.append_block_param(blk, I64);
        self.b.switch_to_block(blk);
        let op = self.t.edges.get(j as usize).map(|e| e.op);
        if let (true, Some(Op::AssignAny(_, (start, _)))) = (j < info.end, op) {
            match self.filter(j as usize) {
                Some(filter) => self.filter_resume(j, start, filter, f),
                None => {
                    let sub = self.load(I32, f, Off::F_SUB);
                    let (more, none) = (self.b.create_block(), self.b.create_block());
                    self.b.ins().brif(sub, more, &[], none, &[]);
                    self.b.switch_to_block(more);
                    let sub1 = self.b.ins().iadd_imm(sub, -1);
                    self.b.ins().store(FLAGS, sub1, f, Off::F_SUB);
                    let sym = self.any_sym(start, sub1);
                    self.b
                        .ins()
                        .jump(self.edges[j as usize], &[BlockArg::Value(sym)]);
                    self.b.switch_to_block(none);
                }
            }
        }
        let pop = self.b.create_block();
        if j > info.first {
            let take = self.b.create_block();
            if info.disjoint {
                // The first edge left is the frame's.
                let first = self.load(I32, f, Off::F_FIRST);
                let left = self
                    .b
                    .ins()
                    .icmp_imm(IntCC::UnsignedLessThan, first, j as i64);
                self.b.ins().brif(left, take, &[], pop, &[]);
            } else {
                self.b.ins().jump(take, &[]);
            }
            self.b.switch_to_block(take);
            let i = j - 1;
            let prev = self.b.ins().iconst(I32, r as i64 - 1);
            self.b.ins().store(FLAGS, prev, f, Off::F_NEXT);
            if self.filter(i as usize).is_some() {
                // All its symbols left: its resume block finds the first
                // that passes.
                self.filter_enter(i, f);
                let prev = self.resume[r - 1];
                self.b.ins().jump(prev, &[BlockArg::Value(f)]);
                self.b.switch_to_block(pop);
                self.pop(n, f);
                return;
            }
            let sym = match self.t.edges[i as usize].op {
                Op::AssignAny(_, (start, len)) => {
                    let sub = self.b.ins().iconst(I32, len as i64 - 1);
                    self.b.ins().store(FLAGS, sub, f, Off::F_SUB);
                    self.t.any_syms[(start + len - 1) as usize]
                }
                _ => 0,
            };
            let sym = self.b.ins().iconst(I32, sym as i64);
            self.b
                .ins()
                .jump(self.edges[i as usize], &[BlockArg::Value(sym)]);
        } else {
            self.b.ins().jump(pop, &[]);
        }
        self.b.switch_to_block(pop);
        self.pop(n, f);
    }

    /// Pops the exhausted frame `f` of node `n`: the frame below resumes,
    /// directly where `n`'s frames are pushed on a known chain.
    fn pop(&mut self, n: u32, f: Value) {
        let len = self.ws_load(Off::FRAMES_LEN);
        let len = self.b.ins().iadd_imm(len, -1);
        self.ws_store(len, Off::FRAMES_LEN);
        match self.parent[n as usize] {
            Some(c) => {
                let below = self.b.ins().iadd_imm(f, -Off::FRAME_SIZE);
                self.undo_to(c, below);
            }
            None => {
                self.b.ins().jump(self.back, &[]);
            }
        }
    }

    /// Symbol `any_syms[start + sub]` (I32) for an I32 `sub`.
    pub(super) fn any_sym(&mut self, start: u32, sub: Value) -> Value {
        let i = self.b.ins().uextend(I64, sub);
        self.any_sym_at(start, i)
    }

    /// Symbol `any_syms[start + i]` (I32) for an I64 `i`.
    pub(super) fn any_sym_at(&mut self, start: u32, i: Value) -> Value {
        let off = self.b.ins().ishl_imm(i, 1);
        let base = self.t.any_syms.as_ptr() as i64 + 2 * start as i64;
        let a = self.b.ins().iadd_imm(off, base);
        self.b.ins().uload16(I32, FLAGS, a, 0)
    }

    /// The visited check of node `n` (going `back` where its key was
    /// seen): a key of one slot and no tags is a stamp of the workspace's
    /// dense stamps (`rt::dense_key`), the others call Rust.
    fn visit(&mut self, n: u32, back: Block) {
        let Some((base, slot)) = rt::dense_key(self.t, n) else {
            let r = self.call_imm(rt::visit, n, 0);
            self.check_failed(r);
            let seen = self.b.ins().icmp_imm(IntCC::Equal, r, 0);
            self.exit_if(seen, back);
            return;
        };
        let v = self.slot(slot);
        let stamps = self.ws_load(Off::DENSE);
        let i = self.b.ins().uextend(I64, v);
        let off = self.b.ins().ishl_imm(i, 2);
        let at = self.b.ins().iadd(stamps, off);
        let gen = self.ws_load(Off::DENSE_GEN);
        let gen = self.b.ins().ireduce(I32, gen);
        let old = self.b.ins().load(I32, FLAGS, at, 4 * base as i32);
        self.b.ins().store(FLAGS, gen, at, 4 * base as i32);
        let seen = self.b.ins().icmp(IntCC::Equal, old, gen);
        self.exit_if(seen, back);
    }

    /// The top frame's address.
    fn top_frame(&mut self) -> Value {
        let frames = self.ws_load(Off::FRAMES);
        let len = self.ws_load(Off::FRAMES_LEN);
        let top = self.b.ins().iadd_imm(len, -1);
        let off = self.b.ins().imul_imm(top, Off::FRAME_SIZE);
        self.b.ins().iadd(frames, off)
    }

    /// `E[i](sym)`: edge `i`'s action, then its successor. Where the edge
    /// knows its top frame and what was pushed since ([`chains`]), it
    /// backtracks by undoing that and resuming the frame directly.
    fn emit_edge(&mut self, i: usize) {
        self.here = self.keep_at[self.edge_node[i] as usize];
        let e = self.t.edges[i];
        let exits = e.guard
            || e.next == Next::Dead
            || matches!(
                e.op,
                Op::Cmp(..) | Op::CmpMap(..) | Op::Reach(..) | Op::SetPlayer(_)
            );
        let undo = match self.chain[i].and_then(|c| c.after(e.op)) {
            Some(c) if exits => Some((self.b.create_block(), c)),
            _ => None,
        };
        self.emit_edge_body(i, undo.map_or(self.back, |(blk, _)| blk));
        if let Some((blk, c)) = undo {
            self.b.switch_to_block(blk);
            self.undo(c);
        }
    }

    /// Backtracks over chain `c`: the log entries and tags it pushed are
    /// undone (the hashes and version restored from the frame), then the
    /// frame resumes.
    fn undo(&mut self, c: Chain) {
        let f = self.top_frame();
        self.undo_to(c, f);
    }

    /// [`Gen::undo`] with the top frame at `f`.
    fn undo_to(&mut self, c: Chain, f: Value) {
        if c.logs > 0 {
            let len = self.ws_load(Off::LOG_LEN);
            let log = self.ws_load(Off::LOG);
            let off = self.b.ins().ishl_imm(len, 3);
            let end = self.b.ins().iadd(log, off);
            // Newest first: a slot written twice gets its oldest value.
            for j in 1..=c.logs as i32 {
                self.undo_entry(end, -8 * j);
            }
            let len = self.b.ins().iadd_imm(len, -(c.logs as i64));
            self.ws_store(len, Off::LOG_LEN);
            self.restore_hash(f);
        }
        if c.tags > 0 {
            self.restore_tags(f);
        }
        self.jump_resume(c.resume, f);
    }

    /// Whether `? c` (`positive`) or `! c` fails (I8): check `c`,
    /// memoised by the semistate's version.
    fn reach(&mut self, c: u32, positive: bool) -> Value {
        let memo = self.ws_load(Off::MEMO);
        let m = self.b.ins().iadd_imm(memo, 16 * c as i64);
        let mv = self.load(I64, m, 0);
        let ver = self.ws_load(Off::VERSION);
        let hit = self.b.ins().icmp(IntCC::Equal, mv, ver);
        let (h, miss, join) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        let r = self.b.append_block_param(join, I32);
        self.b.ins().brif(hit, h, &[], miss, &[]);
        self.b.switch_to_block(h);
        let res = self.load(I32, m, 8);
        self.b.ins().jump(join, &[BlockArg::Value(res)]);
        self.b.switch_to_block(miss);
        let res = self.decide(c);
        self.b.ins().jump(join, &[BlockArg::Value(res)]);
        self.b.switch_to_block(join);
        let cc = if positive {
            IntCC::Equal
        } else {
            IntCC::NotEqual
        };
        self.b.ins().icmp_imm(cc, r, 0)
    }

    /// Edge `i`'s block; `back` backtracks.
    fn emit_edge_body(&mut self, i: usize, back: Block) {
        let blk = self.edges[i];
        let sym = self.b.append_block_param(blk, I32);
        self.b.switch_to_block(blk);
        let e = self.t.edges[i];
        match e.op {
            Op::Skip => {}
            Op::Tag(s) => {
                let s = self.b.ins().iconst(I32, s as i64);
                self.tag(s, e.to);
            }
            Op::TagVar(slot) => {
                let s = self.slot(slot);
                self.tag(s, e.to);
            }
            Op::Cmp(a, b, eq) => {
                let a = self.operand(a);
                let b = self.operand(b);
                let cc = if eq { IntCC::NotEqual } else { IntCC::Equal };
                let fails = self.b.ins().icmp(cc, a, b);
                self.exit_if(fails, back);
                let after = self.after.get(i).copied();
                if let Some(after) = after.filter(|&b| b != Block::reserved_value()) {
                    self.b.ins().jump(after, &[]);
                    self.b.switch_to_block(after);
                }
            }
            Op::CmpMap(..) | Op::AssignMap(_) => {
                let r = self.call_imm(rt::edge, i as u32, 0);
                self.check_failed(r);
                let fails = self.b.ins().icmp_imm(IntCC::Equal, r, 0);
                self.exit_if(fails, back);
            }
            Op::Reach(c, positive) => {
                let fails = self.reach(c, positive);
                self.exit_if(fails, back);
            }
            Op::Assign(p, v) => {
                let v = self.operand(v);
                let slot = self.place(p);
                if let Some(tail) = self.tail(i) {
                    self.defer(i, tail, v);
                }
                self.write(slot, v);
            }
            Op::AssignAny(p, _) => {
                let slot = self.place(p);
                if let Some(tail) = self.tail(i) {
                    self.defer(i, tail, sym);
                }
                self.write(slot, sym);
            }
            Op::SetPlayer(v) => {
                let v = self.operand(v);
                let (inline, call) = (self.b.create_block(), self.b.create_block());
                let flag = self.ws_load(Off::REC_INLINE);
                self.b.ins().brif(flag, inline, &[], call, &[]);
                self.b.switch_to_block(call);
                let node = self.b.ins().iconst(I32, e.to as i64);
                let r = self.call(rt::record, v, node);
                self.check_failed(r);
                self.b.ins().jump(back, &[]);
                self.b.switch_to_block(inline);
                let known = self.log_at[self.edge_node[i] as usize].as_deref();
                self.record(v, e.to, known, None);
                self.b.ins().jump(back, &[]);
                return;
            }
        }
        if e.guard {
            self.visit(e.to, back);
        }
        match e.next {
            Next::Inline(next) => {
                if self.t.has_unique {
                    let steps = self.ws_load(Off::STEPS);
                    let steps = self.b.ins().iadd_imm(steps, 1);
                    self.ws_store(steps, Off::STEPS);
                    let many =
                        self.b
                            .ins()
                            .icmp_imm(IntCC::UnsignedGreaterThan, steps, MAX_STEPS as i64);
                    let ll = self.ws_load(Off::LOG_LEN);
                    let long =
                        self.b
                            .ins()
                            .icmp_imm(IntCC::UnsignedGreaterThan, ll, MAX_LOG as i64);
                    let bad = self.b.ins().bor(many, long);
                    let (stop, ok) = (self.b.create_block(), self.b.create_block());
                    self.b.set_cold_block(stop);
                    self.b.ins().brif(bad, stop, &[], ok, &[]);
                    self.b.switch_to_block(stop);
                    self.call_imm(rt::fail, rt::FAIL_STEPS, e.to);
                    self.b.ins().jump(self.fail, &[]);
                    self.b.switch_to_block(ok);
                }
                match self.filter(i) {
                    // Its comparison holds: the symbol passed the filter.
                    Some(_) if self.after[next as usize] != Block::reserved_value() => {
                        self.b.ins().jump(self.after[next as usize], &[]);
                    }
                    _ => self.jump_edge(next),
                }
            }
            Next::Frame if !self.t.nodes[e.to as usize].disjoint => {
                // Its own push block, which resumes it directly.
                let n = e.to as usize;
                if self.push_at[n] == Block::reserved_value() {
                    self.push_at[n] = self.b.create_block();
                }
                self.b.ins().jump(self.push_at[n], &[]);
            }
            Next::Frame => {
                let info = self.t.nodes[e.to as usize];
                let node = self.b.ins().iconst(I32, e.to as i64);
                let base = self.bases[e.to as usize];
                let r = self.call_imm(rt::first_legal, e.to, 0);
                self.check_failed(r);
                let none = self.b.ins().icmp_imm(IntCC::Equal, r, NO_LEGAL as i64);
                let f0 = self.b.ins().iconst(I32, info.first as i64);
                let first = self.b.ins().select(none, f0, r);
                // Resume block of `r + 1`.
                let r1 = self
                    .b
                    .ins()
                    .iadd_imm(r, base as i64 + 1 - info.first as i64);
                let b0 = self.b.ins().iconst(I32, base as i64);
                let next = self.b.ins().select(none, b0, r1);
                self.b.ins().jump(
                    self.push,
                    &[
                        BlockArg::Value(first),
                        BlockArg::Value(next),
                        BlockArg::Value(node),
                    ],
                );
            }
            Next::Dead => {
                self.b.ins().jump(back, &[]);
            }
        }
    }
}
