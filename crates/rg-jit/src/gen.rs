//! Code generation: the move walk of every node, in one function (or a
//! few for large games: [`Parts`]; edges walks never take get no code).
//!
//! The walk is the interpreter's (`rg-engine/src/walk.rs`), with the
//! dispatch done at generation time: every edge is a block `E[i]` whose
//! action is specialised (operands by kind, constants as immediates, table
//! reads at displacements from the table base, assignments with their
//! undo-log push and key-hash update inline) and which jumps straight to
//! its successor: the next edge block (a node with one edge), the frame
//! push (a choice), or the backtrack block (or a block shared by the edges
//! that undo the same known chain). Only an any-assignment's block takes a
//! parameter (its symbol). The code is kept dense: the workspace's fields
//! that blocks read most lie below offset 128 and the semistate's address
//! is biased ([`ST_BIAS`]), so that their displacements take one byte. Frames live in the workspace as in the interpreter;
//! `R[j]` resumes a frame whose edges `first .. j` are left, so the
//! backtrack block restores the frame's state and jumps through a table
//! on `j` (a resume block of another function returns its number to the
//! caller's loop, `rt.rs`, which calls that function). Visited checks
//! (but those of one-slot untagged keys: stamps inline), reachability
//! checks (memoised inline), moves' records, map operations and errors
//! call Rust (`rt.rs`).
//!
//! This file sets a function up ([`emit`]) and holds the generator's
//! shared steps; `gen/edge.rs` generates the edge blocks, `gen/frames.rs`
//! the entry, frame pushes, backtrack and resume blocks, and
//! `gen/operand.rs` operands, places and writes.

use std::collections::{BTreeMap, HashMap};

use cranelift_codegen::cursor::{Cursor, FuncCursor};
use cranelift_codegen::entity::packed_option::ReservedValue;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{
    Block, BlockArg, FuncRef, InstBuilder, InstructionData, MemFlags, Opcode, SigRef, Value,
    ValueDef,
};
use cranelift_frontend::FunctionBuilder;
use rg_engine::raw::{Op, Tables};

use crate::rt::{Helper, Off, FAILED, ST_BIAS};

mod check;
mod edge;
mod filter;
mod frames;
mod local;
mod operand;
mod parts;
mod program;
mod search;
mod slot;
mod switch;
mod tail;
mod visit;

pub(crate) use check::{emit_program, emit_pure, leaf_program, leaf_pure};
pub use parts::PART_EDGES;
pub(crate) use parts::{frame_bases, Keep, Parts};
use parts::{runs, Chain, Run, Tops};
pub(crate) use program::{emit_writing, nested, writing};
pub(crate) use search::{emit_search, region, search, Region, MAX_SEARCH_EDGES};
pub(crate) use slot::{emit_slot, leaf_slot};

const FLAGS: MemFlags = MemFlags::trusted();

/// The generator's state for one function.
struct Gen<'a, 'b> {
    t: &'a Tables,
    b: FunctionBuilder<'b>,
    sig: SigRef,
    /// The build's constant tables ([`Gen::byte_table`]).
    store: &'a mut Store,
    /// The workspace and the semistate pointer (biased: [`ST_BIAS`]) of
    /// the current block ([`Gen::ws`], [`Gen::stb`]).
    cache: Option<(Block, Value, Option<Value>)>,
    /// The table base of the current block ([`Gen::fun_base`]).
    fun_cache: Option<(Block, Value)>,
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
    /// Per resume block, where a backtrack resumes it: a block restoring
    /// the key hash and version its node's walks keep, then resuming, or
    /// the resume block itself (made by [`Gen::restoring`]; empty: not
    /// yet).
    restore: Vec<Block>,
    /// Per resume block: its node and `j`.
    rnode: Vec<(u32, u32)>,
    /// Resume the top frame at its own resume block, its state restored,
    /// without and with its tags ([`Gen::resume_top`]; `None`: not used).
    resume_top: [Option<Block>; 2],
    /// Per node, its first resume block (`u32::MAX`: never holds a frame).
    bases: &'a [u32],
    /// Per edge, its node.
    edge_node: &'a [u32],
    /// Backtrack.
    back: Block,
    /// Per chain and bookkeeping, the block that undoes the chain and
    /// resumes its frame (`Gen::emit_edge_in`).
    /// (With, where the chain's resume block is `ANY_RESUME`, the
    /// resume numbers its frame can hold, [`Gen::among`].)
    undos: HashMap<(Chain, Keep, Option<Vec<u32>>), Block>,
    /// Per edge, the resume numbers its top frame can hold, and per node
    /// those below its frames ([`parts::tops`]; none in leaf functions).
    tops: (&'a [Tops], &'a [Tops]),
    /// Resumptions of the top frame ([`Gen::resume_top`], `ANY_RESUME`
    /// chains) at sites whose frame holds one of a few resume numbers: per
    /// restoring of the tags and set, the block, which dispatches over
    /// that set alone (`gen/frames.rs` `Gen::dispatch_among`).
    among_blocks: BTreeMap<(bool, Vec<u32>), Block>,
    /// The shared dispatch those take for another resume number
    /// (parameters: it, the frame's address), where used.
    any_next: Option<Block>,
    /// Push a frame (parameters: first, next, node).
    push: Block,
    /// Per node, the push of its frame over all its edges, which resumes
    /// it directly ([`Gen::emit_push_at`]; reserved value: not used here).
    push_at: Vec<Block>,
    /// Return 1 (error).
    fail: Block,
    /// Per check, its generated function (leaf pure checks).
    pures: &'a [Option<FuncRef>],
    /// Per check, whether a walk's `? c` speculates ([`Parts::speculate`];
    /// empty outside walks).
    speculate: &'a [bool],
    /// Per edge, what it runs on relative to the top frame
    /// ([`parts::frames`]).
    chain: Vec<Option<Chain>>,
    /// Per node, what its frames run on relative to the frame below
    /// ([`parts::frames`]).
    parent: &'a [Option<Chain>],
    /// Per node, whether its frame is popped before its last edge
    /// ([`parts::early_pops`]).
    early: &'a [bool],
    /// The start nodes the entry starts at their own blocks
    /// ([`Parts::direct`]).
    direct: &'a [u32],
    /// The runs generated again per chain ([`parts::runs`]) with their
    /// blocks, and per edge the block of the run it enters, if any.
    runs: Vec<(Run, Vec<Block>)>,
    run_entry: Vec<Option<Block>>,
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
    /// Per node with a native local visited check, its frame node
    /// (`gen/local.rs`; [`rg_engine::raw::NO_NODE`]: none); per node,
    /// whether it is such a frame node.
    locals: &'a [u32],
    owners: &'a [bool],
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
    /// A slot whose value is a loop's symbol by its index ([`Indexed`]):
    /// table reads of it read a table over the index ([`Gen::indexed`]).
    at: Option<Indexed>,
}

/// Slot `slot` holds symbol `any_syms[start + i]` (`i` an I32 value below
/// `len`): a loop over an any-assignment's symbols, the symbol read only
/// where needed.
#[derive(Clone, Copy)]
struct Indexed {
    slot: u32,
    start: u32,
    len: u32,
    i: Value,
}

/// Emits walk function `part` of `parts` into `f` (signature
/// [`crate::rt::WalkFn`]).
pub(crate) fn emit(
    t: &Tables,
    f: Func<'_, '_>,
    pures: &[Option<FuncRef>],
    bases: &[u32],
    parts: &Parts,
    part: u32,
) {
    let Func { mut b, sig, store } = f;
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let params = b.block_params(entry).to_vec();
    let (ws, st, target, arg) = (params[0], params[1], params[2], params[3]);
    // The workspace lives in the pinned register (callee-saved for Rust:
    // restored at the returns), the semistate pointer in the workspace.
    let saved = b.ins().get_pinned_reg(I64);
    b.ins().set_pinned_reg(ws);
    let stb = b.ins().iadd_imm(st, ST_BIAS);
    b.ins().store(FLAGS, stb, ws, Off::ST);
    let mine = |n: u32| parts.node[n as usize] == part;
    let mut rnode = Vec::new();
    let edge_node = &parts.edge_node[..];
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
    // Errors are cold: the edges into `fail` (each a split edge restoring
    // the caller's pinned register) are laid out past the hot code.
    b.set_cold_block(fail);
    // (`emit_run` sets the chains of a run's edges for the while.)
    let chain = parts.frames.0.clone();
    let budget = t.edges.len() / 8 + 64;
    let entered = |e: usize| edges[e] != Block::reserved_value();
    let runs: Vec<(Run, Vec<Block>)> = runs(t, bases, edge_node, &chain, entered, budget)
        .into_iter()
        .map(|r| {
            let blocks = r.edges.iter().map(|_| b.create_block()).collect();
            (r, blocks)
        })
        .collect();
    let mut run_entry = vec![None; t.edges.len()];
    for (r, blocks) in &runs {
        for &i in &r.from {
            run_entry[i] = Some(blocks[0]);
        }
    }
    let mut g = Gen {
        t,
        b,
        sig,
        store,
        cache: None,
        fun_cache: None,
        saved: Some(saved),
        params: None,
        after: vec![Block::reserved_value(); t.edges.len()],
        edges,
        resume,
        restore: Vec::new(),
        rnode,
        resume_top: [None; 2],
        bases,
        edge_node,
        back,
        undos: HashMap::new(),
        tops: (&parts.tops.0, &parts.tops.1),
        among_blocks: BTreeMap::new(),
        any_next: None,
        push,
        push_at: vec![Block::reserved_value(); t.nodes.len()],
        fail,
        pures,
        speculate: &parts.speculate,
        chain,
        parent: &parts.frames.1,
        early: &parts.early,
        direct: &parts.direct,
        runs,
        run_entry,
        keep: parts.keep.0,
        keep_at: parts.keep.1.clone(),
        here: parts.keep.0,
        log_at: &parts.log_at,
        few_tags: parts.few_tags,
        locals: &parts.locals.0,
        owners: &parts.locals.1,
        node_part: &parts.node,
        part,
        exit,
        r0,
        known: None,
        at: None,
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
    // Exclusive comparisons' edges are entered past their tests
    // (`switch.rs`), where they are this function's and no run copies them.
    let mut in_runs = vec![false; t.edges.len()];
    for &k in g.runs.iter().flat_map(|(run, _)| &run.edges) {
        in_runs[k] = true;
    }
    for n in 0..t.nodes.len() as u32 {
        let info = t.nodes[n as usize];
        let edges = info.first as usize..info.end as usize;
        if edges
            .clone()
            .all(|k| g.edges[k] != Block::reserved_value() && !in_runs[k])
            && switch::exclusive(t, n).is_some()
        {
            for k in edges {
                if g.after[k] == Block::reserved_value() {
                    g.after[k] = g.b.create_block();
                }
            }
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
    for r in 0..g.runs.len() {
        g.emit_run(r);
    }
    for n in 0..t.nodes.len() as u32 {
        if g.push_at[n as usize] != Block::reserved_value() {
            g.emit_push_at(n);
        }
    }
    g.emit_among();
    g.emit_restoring();
    g.emit_resume_top();
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

/// The constant tables of one build's code ([`Gen::byte_table`]): the
/// code reads them, so the store lives as long as it (`crate::Code`).
#[derive(Default)]
pub(crate) struct Store {
    bytes: Vec<Box<[u8]>>,
    words: Vec<Box<[u32]>>,
    /// Vectors of slots tested by filter masks (`gen/filter.rs`
    /// `Gen::vector_run`).
    vectors: usize,
}

impl Store {
    /// Whether the code reads no byte table of the store's.
    #[cfg(test)]
    pub(crate) fn no_bytes(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Whether the code reads no word table of the store's.
    #[cfg(test)]
    pub(crate) fn no_words(&self) -> bool {
        self.words.is_empty()
    }

    /// How many vectors of slots filter masks test.
    #[cfg(test)]
    pub(crate) fn vectors(&self) -> usize {
        self.vectors
    }
}

/// The address of `table` in `tables`, added there unless an equal one
/// is (the boxes' contents do not move).
fn interned<T: PartialEq>(tables: &mut Vec<Box<[T]>>, table: Box<[T]>) -> *const T {
    match tables.iter().position(|t| *t == table) {
        Some(k) => tables[k].as_ptr(),
        None => {
            tables.push(table);
            tables[tables.len() - 1].as_ptr()
        }
    }
}

/// The function being generated: its builder, the helpers' signature
/// ([`Helper`]) and the build's table store.
pub(crate) struct Func<'b, 'x> {
    pub b: FunctionBuilder<'b>,
    pub sig: SigRef,
    pub store: &'x mut Store,
}

impl Gen<'_, '_> {
    /// The address of byte table `table`, which the code reads; the same
    /// table's once. The tables are kept with the code ([`Store`]).
    fn byte_table(&mut self, table: Box<[u8]>) -> *const u8 {
        interned(&mut self.store.bytes, table)
    }

    /// [`Gen::byte_table`] for a table of words.
    fn word_table(&mut self, table: Box<[u32]>) -> *const u32 {
        interned(&mut self.store.words, table)
    }

    /// `N` new blocks, created in order.
    fn blocks<const N: usize>(&mut self) -> [Block; N] {
        std::array::from_fn(|_| self.b.create_block())
    }

    /// Whether node `n`'s blocks are in this function.
    fn mine(&self, n: u32) -> bool {
        self.node_part.is_empty() || self.node_part[n as usize] == self.part
    }

    /// `v` (I32, nonnegative) as an I64 index. Where `v` is an I32 load
    /// (`uload16`, `uload8`, `load`), the load is made an I64 one in
    /// place and `v` its `ireduce` (free), so that the index needs no
    /// 32-bit register move (Cranelift's `uextend` after a 32-bit load;
    /// a second load would stay, dead, beside the first); `v`'s other
    /// uses are unchanged.
    fn widen(&mut self, v: Value) -> Value {
        let dfg = &self.b.func.dfg;
        if dfg.value_type(v) == I64 {
            return v;
        }
        let ValueDef::Result(inst, 0) = dfg.value_def(v) else {
            return self.b.ins().uextend(I64, v);
        };
        match dfg.insts[inst] {
            InstructionData::Unary {
                opcode: Opcode::Ireduce,
                arg,
            } if dfg.value_type(arg) == I64 => arg,
            InstructionData::UnaryImm {
                opcode: Opcode::Iconst,
                imm,
            } => self.b.ins().iconst(I64, imm.bits() as u32 as i64),
            InstructionData::Load {
                opcode: opcode @ (Opcode::Uload16 | Opcode::Uload8 | Opcode::Load),
                arg,
                flags,
                offset,
            } if dfg.value_type(v) == I32 => {
                let mut pos = FuncCursor::new(self.b.func).at_inst(inst);
                let wide = match opcode {
                    Opcode::Uload16 => pos.ins().uload16(I64, flags, arg, offset),
                    Opcode::Uload8 => pos.ins().uload8(I64, flags, arg, offset),
                    _ => pos.ins().uload32(flags, arg, offset),
                };
                self.b.func.dfg.replace(inst).ireduce(I32, wide);
                wide
            }
            _ => self.b.ins().uextend(I64, v),
        }
    }

    /// The arguments of a jump to edge `k`'s block: only an
    /// any-assignment's takes one, its symbol (`sym`, else 0).
    fn edge_args(&mut self, k: usize, sym: Option<Value>) -> Vec<BlockArg> {
        match self.t.edges[k].op {
            Op::AssignAny(..) => {
                let sym = sym.unwrap_or_else(|| self.b.ins().iconst(I32, 0));
                vec![BlockArg::Value(sym)]
            }
            _ => Vec::new(),
        }
    }

    /// Goes on at edge `k` with no symbol (inline).
    fn jump_edge(&mut self, k: u32) {
        if self.mine(self.edge_node[k as usize]) {
            let args = self.edge_args(k as usize, None);
            self.b.ins().jump(self.edges[k as usize], &args);
        } else {
            let id = self.b.ins().iconst(I32, k as i64);
            self.b.ins().jump(self.exit, &[BlockArg::Value(id)]);
        }
    }

    /// Goes on at edge `k`, inline after edge `i`: at the run of `i`'s
    /// chain where there is one ([`parts::runs`]).
    fn jump_inline(&mut self, i: usize, k: u32) {
        match self.run_entry.get(i).copied().flatten() {
            Some(blk) => {
                let args = self.edge_args(k as usize, None);
                self.b.ins().jump(blk, &args);
            }
            None => self.jump_edge(k),
        }
    }

    /// The edges of run `r` generated again in its blocks, on its chain.
    /// Each copy is emitted into its run block, and jumps to the run's
    /// later edges (entered inline only by the edge before them) go to
    /// their copies; a jump to its first edge (entered inline from
    /// elsewhere too: a cycle back into the run, or an edge's loop onto
    /// itself) goes to the original, which knows no chain: the copy's is
    /// that of the run's entries only.
    fn emit_run(&mut self, r: usize) {
        let (edges, blocks, chain) = {
            let (run, blocks) = &self.runs[r];
            (run.edges.clone(), blocks.clone(), run.chain)
        };
        let saved: Vec<_> = edges
            .iter()
            .map(|&e| (self.edges[e], self.chain[e]))
            .collect();
        let mut c = Some(chain);
        for (k, (&e, &blk)) in edges.iter().zip(&blocks).enumerate() {
            if k > 0 {
                self.edges[e] = blk;
            }
            self.chain[e] = c;
            c = c.and_then(|c| c.after(self.t.edges[e].op));
        }
        for (&e, &blk) in edges.iter().zip(&blocks) {
            self.emit_edge_in(e, blk);
        }
        for (&e, (blk, c)) in edges.iter().zip(saved) {
            self.edges[e] = blk;
            self.chain[e] = c;
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

    /// The semistate's address: in walk functions [`Gen::stb`] less the
    /// bias, which the uses as an address fold into their displacements.
    fn st(&mut self) -> Value {
        if let Some((_, st)) = self.params {
            return st;
        }
        let stb = self.stb();
        self.b.ins().iadd_imm(stb, -ST_BIAS)
    }

    /// The base and displacement of constant slot `s`: from [`Gen::stb`] in
    /// walk functions (one-byte displacements for slots below 128).
    fn slot_ref(&mut self, s: u32) -> (Value, i32) {
        match self.params {
            Some((_, st)) => (st, 2 * s as i32),
            None => (self.stb(), 2 * s as i32 - ST_BIAS as i32),
        }
    }

    /// In walk functions, the semistate's address plus [`ST_BIAS`], read
    /// from the workspace once per block.
    fn stb(&mut self) -> Value {
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

    /// The base of the game's table `fun` (`Ws::fun`), read from the
    /// workspace once per block: a table read is then one load at a
    /// displacement from it, not an absolute address and a load.
    fn fun_base(&mut self) -> Value {
        let here = self.b.current_block();
        match self.fun_cache {
            Some((blk, f)) if Some(blk) == here => f,
            _ => {
                let f = self.ws_load(Off::FUN);
                self.fun_cache = here.map(|blk| (blk, f));
                f
            }
        }
    }

    /// Forgets the values read in the current block (after a call: kept
    /// across it, they would be saved around it).
    fn forget(&mut self) {
        self.cache = None;
        self.fun_cache = None;
    }

    /// A do-while loop over an I64 counter, entered only where `enter`
    /// (an integer, nonzero) holds, with the counter at `start`: `step`
    /// emits one iteration on the counter (making no call) and gives the
    /// next counter and whether to go on (I8); code goes on after the
    /// loop. The workspace and semistate are read once, before the loop,
    /// not at each iteration.
    fn do_while(
        &mut self,
        enter: Value,
        start: Value,
        step: impl FnOnce(&mut Self, Value) -> (Value, Value),
    ) {
        let [pre, body, done] = self.blocks();
        self.b.ins().brif(enter, pre, &[], done, &[]);
        self.continue_in(pre);
        let held = (self.ws(), self.params.is_none().then(|| self.stb()));
        let i = self.b.append_block_param(body, I64);
        self.b.ins().jump(body, &[BlockArg::Value(start)]);
        self.b.switch_to_block(body);
        if self.params.is_none() {
            self.cache = Some((body, held.0, held.1));
        }
        let (next, more) = step(self, i);
        self.b
            .ins()
            .brif(more, body, &[BlockArg::Value(next)], done, &[]);
        self.b.switch_to_block(done);
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
        if let Some(c) = &mut self.fun_cache {
            if Some(c.0) == here {
                c.0 = cont;
            }
        }
    }

    /// Switches to `blk`, where the workspace and semistate values of
    /// `kept` (the cache of a block that dominates `blk`: before a filter's
    /// loop, or a cold exit's) still hold.
    fn enter_keeping(&mut self, blk: Block, kept: Option<(Block, Value, Option<Value>)>) {
        self.b.switch_to_block(blk);
        self.cache = kept.map(|(_, ws, st)| (blk, ws, st));
    }

    /// The cache of the current block ([`Gen::ws`]), to enter a block it
    /// dominates with ([`Gen::enter_keeping`]).
    fn kept(&self) -> Option<(Block, Value, Option<Value>)> {
        let here = self.b.current_block();
        self.cache.filter(|c| Some(c.0) == here)
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
        let [clear_block, stamped] = self.blocks();
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
        self.forget();
        self.b.inst_results(call)[0]
    }

    fn call_imm(&mut self, f: Helper, a: u32, b: u32) -> Value {
        let a = self.b.ins().iconst(I32, a as i64);
        let b = self.b.ins().iconst(I32, b as i64);
        self.call(f, a, b)
    }

    /// Goes on in a fresh block when `cond` is zero, else to `target`;
    /// the fresh block is cold where the current one is (a grow's call
    /// and rejoin stay out of the hot code).
    fn exit_if(&mut self, cond: Value, target: Block) {
        let cont = self.b.create_block();
        if self
            .b
            .current_block()
            .is_some_and(|c| self.b.func.layout.is_cold(c))
        {
            self.b.set_cold_block(cont);
        }
        self.b.ins().brif(cond, target, &[], cont, &[]);
        self.continue_in(cont);
    }

    /// When `cond`, calls helper `f(a, 0)` (`a` 0 if `None`) in a cold
    /// block (it grows a buffer, or fails the walk), then starts again at
    /// `retry` (with `args`), which must have done nothing the retry would
    /// do twice; goes on otherwise. Nothing lives across the call but `a`
    /// and `args`.
    fn grow_and_retry(
        &mut self,
        cond: Value,
        f: Helper,
        a: Option<Value>,
        retry: Block,
        args: &[Value],
    ) {
        let kept = self.kept();
        let [grow, cont] = self.blocks();
        self.b.set_cold_block(grow);
        self.b.ins().brif(cond, grow, &[], cont, &[]);
        self.b.switch_to_block(grow);
        let zero = self.b.ins().iconst(I32, 0);
        let r = self.call(f, a.unwrap_or(zero), zero);
        self.check_failed(r);
        let args: Vec<BlockArg> = args.iter().map(|&v| BlockArg::Value(v)).collect();
        self.b.ins().jump(retry, &args);
        self.enter_keeping(cont, kept);
    }

    /// Makes room for one entry of the undo log in an edge's code, which
    /// has written nothing yet: its block `blk` (parameters `args`) is run
    /// again after the log grows. Gives the log's length.
    fn log_room(&mut self, blk: Block, args: &[Value]) -> Value {
        let len = self.ws_load(Off::LOG_LEN);
        let cap = self.ws_load(Off::LOG_CAP);
        let full = self.b.ins().icmp(IntCC::Equal, len, cap);
        self.grow_and_retry(full, crate::rt::grow_log, None, blk, args);
        len
    }

    /// When `cond`, calls helper `f(a, 0)` in a cold block (it grows a
    /// buffer, or fails the walk); then goes on.
    fn grow_if(&mut self, cond: Value, f: Helper, a: Value) {
        // The workspace and semistate read before go on in `cont` as its
        // parameters, read afresh after the call (no value lives across
        // it: kept across, they were spilled).
        let kept = self.kept();
        let [grow, cont] = self.blocks();
        let held: Vec<Value> = kept
            .map(|(_, ws, st)| [Some(ws), st].into_iter().flatten().collect())
            .unwrap_or_default();
        let params: Vec<Value> = held
            .iter()
            .map(|_| self.b.append_block_param(cont, I64))
            .collect();
        let args: Vec<BlockArg> = held.iter().map(|&v| BlockArg::Value(v)).collect();
        self.b.set_cold_block(grow);
        self.b.ins().brif(cond, grow, &[], cont, &args);
        self.b.switch_to_block(grow);
        let zero = self.b.ins().iconst(I32, 0);
        let r = self.call(f, a, zero);
        self.check_failed(r);
        let fresh: Vec<BlockArg> = match held.len() {
            0 => Vec::new(),
            1 => vec![BlockArg::Value(self.ws())],
            _ => vec![BlockArg::Value(self.ws()), BlockArg::Value(self.stb())],
        };
        self.b.ins().jump(cont, &fresh);
        let kept = kept.map(|_| (cont, params[0], params.get(1).copied()));
        self.enter_keeping(cont, kept);
    }

    /// Fails the walk when a helper's answer is [`FAILED`].
    fn check_failed(&mut self, r: Value) {
        let bad = self.b.ins().icmp_imm(IntCC::Equal, r, FAILED as i64);
        self.exit_if(bad, self.fail);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use cranelift_codegen::ir::types::I8;
    use cranelift_codegen::ir::{AbiParam, Function, Signature, UserFuncName};
    use cranelift_codegen::isa::CallConv;
    use cranelift_frontend::FunctionBuilderContext;
    use cranelift_module::Module;

    use super::*;

    /// The function `body` generates (from a leaf check's entry, in a small
    /// game; it returns the function), verified, with the values `body`
    /// names.
    fn generated(body: impl FnOnce(&mut Gen<'_, '_>) -> Vec<Value>) -> (Function, Vec<Value>) {
        let text = "type Player = {a, b};\ntype Score = {0, 1};\ntype C = {p, q};\n\
                    var x: C = p;\nbegin, n1: player = a;\nn1, end: player = keeper;\n";
        let game = rg_engine::GameModel::from_text(text).unwrap();
        let t = game.tables();
        let mut sig = Signature::new(CallConv::SystemV);
        sig.params
            .extend([I64, I64, I32, I32].iter().map(|&t| AbiParam::new(t)));
        sig.returns.push(AbiParam::new(I32));
        let mut func = Function::with_name_signature(UserFuncName::default(), sig.clone());
        let mut fctx = FunctionBuilderContext::new();
        let mut store = Store::default();
        let helper = func.import_signature(sig);
        let f = Func {
            b: FunctionBuilder::new(&mut func, &mut fctx),
            sig: helper,
            store: &mut store,
        };
        let mut g = check::leaf_gen(t, f);
        let values = body(&mut g);
        // (The failure exit, where `body` branches to it.)
        g.b.switch_to_block(g.fail);
        let one = g.b.ins().iconst(I32, 1);
        g.b.ins().return_(&[one]);
        g.b.seal_all_blocks();
        g.b.finalize();
        // (With the host's ISA: the pinned register needs one.)
        let module = jit_support::module(true, true).unwrap();
        cranelift_codegen::verify_function(&func, module.isa()).unwrap();
        (func, values)
    }

    /// An index read from the semistate is widened by making its load an
    /// I64 one (the I32 value its `ireduce`), not by a `uextend`: the
    /// function verifies and holds no `uextend`.
    #[test]
    fn indices_widen_their_loads() {
        let (func, values) = generated(|g| {
            let v = g.slot(0);
            let wide = g.widen(v);
            assert_eq!(g.widen(v), wide, "widened once");
            let (a, at) = g.st_addr(v);
            let w = g.b.ins().uload16(I32, FLAGS, a, at);
            let r = g.b.ins().iadd(v, w);
            g.b.ins().return_(&[r]);
            vec![v, wide]
        });
        let (v, wide) = (values[0], values[1]);
        let dfg = &func.dfg;
        assert_eq!(dfg.value_type(wide), I64);
        let op = |v: Value| match dfg.value_def(v) {
            ValueDef::Result(inst, _) => dfg.insts[inst].opcode(),
            _ => unreachable!("results"),
        };
        assert_eq!(op(wide), Opcode::Uload16);
        assert_eq!(op(v), Opcode::Ireduce);
        let uextends = func
            .layout
            .blocks()
            .flat_map(|b| func.layout.block_insts(b))
            .filter(|&i| dfg.insts[i].opcode() == Opcode::Uextend)
            .count();
        assert_eq!(uextends, 0);
    }

    /// After a buffer's capacity test (`Gen::grow_if`), a walk's code goes
    /// on with the workspace and semistate it read before, passed as the
    /// next block's parameters (read afresh after the cold call), not
    /// read again.
    #[test]
    fn capacity_tests_keep_the_workspace() {
        let (func, values) = generated(|g| {
            // A walk's function: the workspace in the pinned register.
            g.params = None;
            let (ws, st) = (g.ws(), g.stb());
            let no = g.b.ins().iconst(I8, 0);
            let zero = g.b.ins().iconst(I32, 0);
            g.grow_if(no, crate::rt::grow_log, zero);
            let (ws2, st2) = (g.ws(), g.stb());
            let v = g.slot(0);
            g.b.ins().return_(&[v]);
            vec![ws, st, ws2, st2]
        });
        let dfg = &func.dfg;
        for (k, &v) in values[2..].iter().enumerate() {
            assert!(
                matches!(dfg.value_def(v), ValueDef::Param(_, n) if n == k),
                "parameter {k}"
            );
        }
    }

    /// The numbers of moves the interpreter and the native code list in
    /// `game`'s first player's first state.
    pub(crate) fn moves_both(game: &rg_engine::GameModel) -> [usize; 2] {
        let native = crate::compile(game).unwrap();
        [game, &native].map(|g| {
            let mut list = rg_engine::MoveList::default();
            let mut r = g.reasoner();
            let mut s = g.initial_state();
            r.complete_keeper(&mut s).unwrap();
            r.moves(&mut s, &mut list).unwrap();
            list.len()
        })
    }
}
