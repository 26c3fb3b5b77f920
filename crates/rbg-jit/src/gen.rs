//! Code generation of the walks: the interpreter's `Searcher::node`
//! (`rbg-engine/src/search.rs`) specialised to one game and one mode.
//!
//! One function per mode walks one level: `(q0, v0, level, cell, old) ->
//! stop`, the workspace in the pinned register; `cell` and `old` are what
//! the modifier that started the level replaced (`NONE`: no modifier).
//! Every automaton state of the function is a block; a state's transitions
//! are emitted inline in order, with their operands (direction offsets,
//! piece sets as bit masks, slots, target states) as immediates. The node
//! found last is kept in variables (`next`), and at the end of a state's
//! block a compare chain over the states it can be jumps straight to that
//! state's block; only nodes popped from the stack go through a jump table.
//! Modifiers are applied and undone inline around a recursive call for the
//! next level, or around the next level's code emitted in place when it is
//! small and ends in switches (`inline.rs`); piece modifiers
//! keep piece counts and lists in step only where the walk may read them
//! (`lazy.rs`). Patterns call the pattern walk (or a probe), with the
//! interpreter's memo. The order of discovery, and so the order of moves
//! and the keeper's choice, is exactly the interpreter's; so are the
//! bounds of a walk (`bound.rs`).

mod bound;
mod inline;
mod lazy;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64, I8};
use cranelift_codegen::ir::{
    Block, BlockArg, FuncRef, InstBuilder, JumpTableData, MemFlags, SigRef, StackSlot,
    StackSlotData, StackSlotKind, Value,
};
use cranelift_frontend::{FunctionBuilder, Variable};
use rbg_engine::raw::{apply_op, Act, Compiled, Expr, Op, Tr, NONE};
use rbg_lang::ast::{ArithOp, CmpOp};

use crate::rt::{self, Off};

mod keeper;

pub(crate) use keeper::MAX_STEPS as KEEPER_STEPS;

/// Which automata a walk handles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// The rules; what to do at a switch is the run-time mode (`RunMode`),
    /// a parameter of the function.
    Rules,
    /// The body of pattern `k` (an index of `Compiled::starts`): stop at
    /// the first accepting node. One function per pattern keeps functions
    /// small (register allocation grows faster than their size).
    Pattern(u32),
}

/// What a rules walk does at a switch (the interpreter's `M`), passed as
/// the walk's last parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub(crate) enum RunMode {
    /// Record every move.
    Collect = 0,
    /// Stop at the first move.
    Exists = 1,
    /// Stop at the first move, keeping its changes and its switch.
    Keeper = 2,
}

/// Functions a walk calls.
pub(crate) struct Callees {
    /// This mode's walk (for the next level).
    pub this: FuncRef,
    /// The pattern walks by pattern (or `None`: a probe decides it).
    pub patterns: Vec<Option<FuncRef>>,
    /// Probe functions by pattern automaton (or `None`).
    pub probes: Vec<Option<FuncRef>>,
    /// Signature of helpers `(ws) -> ()`.
    pub sig_ws: SigRef,
    /// Signature of `level_slow`.
    pub sig_level: SigRef,
    /// Signature of `rt::watch`.
    pub sig_watch: SigRef,
    /// Signature of `rt::grow_out` (`record.rs`).
    pub sig_grow: SigRef,
    /// Signature of `rt::kept`.
    pub sig_kept: SigRef,
}

/// Emits a function that Rust calls, `(ws, args.., [run]) -> r`: it saves
/// the pinned register (callee-saved for Rust), sets it to `ws`, stores
/// the run mode (`run`, or its last parameter) in the workspace, calls
/// `callee` with `args` and `extra` and restores the register.
pub(crate) fn emit_entry(
    mut b: FunctionBuilder,
    callee: FuncRef,
    run: Option<RunMode>,
    extra: &[i64],
) {
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let mut p = b.block_params(entry).to_vec();
    let ws = p.remove(0);
    let run = match run {
        Some(r) => b.ins().iconst(I32, r as i64),
        None => p.pop().expect("a run mode parameter"),
    };
    b.ins().store(FLAGS, run, ws, Off::RUN);
    let saved = b.ins().get_pinned_reg(I64);
    b.ins().set_pinned_reg(ws);
    p.extend(extra.iter().map(|&x| b.ins().iconst(I32, x)));
    let call = b.ins().call(callee, &p);
    let r = b.inst_results(call)[0];
    b.ins().set_pinned_reg(saved);
    b.ins().return_(&[r]);
    b.seal_all_blocks();
    b.finalize();
}

/// The states a walk of `mode` handles: those reachable from the roots
/// (the rules' start, or the pattern's start) without calling a pattern.
pub(crate) fn states_of(c: &Compiled, mode: Mode) -> Vec<bool> {
    let n = c.trans_off.len() - 1;
    let mut seen = vec![false; n];
    let mut todo: Vec<u32> = match mode {
        Mode::Pattern(k) => vec![c.starts[k as usize]],
        Mode::Rules => vec![c.starts[0]],
    };
    for &q in &todo {
        seen[q as usize] = true;
    }
    while let Some(q) = todo.pop() {
        for tr in c.transitions(q) {
            let mut next = vec![tr.to];
            if tr.op == Op::ShiftSwitch {
                next.clear();
                for p in 0..c.num_pieces {
                    let (to, _) = c.switch_to(tr.set, p);
                    if to != NONE {
                        next.push(to);
                    }
                }
            }
            for t in next {
                if !seen[t as usize] {
                    seen[t as usize] = true;
                    todo.push(t);
                }
            }
        }
    }
    seen
}

/// The patterns decided by a walk (not by a probe), as indices of
/// `Compiled::starts`.
pub(crate) fn walked_patterns(c: &Compiled) -> impl Iterator<Item = u32> + '_ {
    (1..c.starts.len() as u32).filter(|&k| c.probes.start[k as usize] == NONE)
}

/// The states a walk of `mode` can start at: the automata's starts, the
/// states after a modifier (a new level) and after a switch (a rules
/// index).
fn roots(c: &Compiled, mode: Mode, members: &[bool]) -> Vec<bool> {
    let mut root = vec![false; members.len()];
    match mode {
        Mode::Pattern(k) => root[c.starts[k as usize] as usize] = true,
        Mode::Rules => {
            root[c.starts[0] as usize] = true;
            // Where the keeper's prefix may hand over to the walk.
            let prefix = keeper::prefix_states(c, members);
            root.iter_mut().zip(prefix).for_each(|(r, p)| *r |= p);
        }
    }
    for q in (0..members.len()).filter(|&q| members[q]) {
        for tr in c.transitions(q as u32) {
            if matches!(tr.op, Op::Off | Op::Assign | Op::Switch) {
                root[tr.to as usize] = true;
            }
            if tr.ends {
                root[c.transitions(tr.to)[0].to as usize] = true;
            }
        }
    }
    root
}

const FLAGS: MemFlags = MemFlags::trusted();

/// Offsets in a level's stack slot (`Frame::slot`).
const FR_BASE: i32 = 0;
const FR_STAMPS: i32 = 8;
const FR_LEVEL: i32 = 16;
const FR_GEN: i32 = 20;
const FR_SIZE: u32 = 24;

/// The row of `Op::ShiftSwitch` transition `tr` grouped by cell: each
/// (target state, visited slot) with the set of pieces that lead there.
fn switch_groups(c: &Compiled, tr: &Tr) -> Vec<((u32, u32), Vec<bool>)> {
    let np = c.num_pieces as usize;
    let row = &c.switch_rows[tr.set as usize..tr.set as usize + np];
    let mut groups: Vec<((u32, u32), Vec<bool>)> = Vec::new();
    for (piece, &cell) in row.iter().enumerate() {
        if cell.0 == NONE {
            continue;
        }
        match groups.iter_mut().find(|g| g.0 == cell) {
            Some(g) => g.1[piece] = true,
            None => {
                let mut set = vec![false; np];
                set[piece] = true;
                groups.push((cell, set));
            }
        }
    }
    groups
}

/// The generator of one walk function.
pub(crate) struct Walk<'a, 'b> {
    c: &'a Compiled,
    mode: Mode,
    b: FunctionBuilder<'b>,
    f: &'a Callees,
    next_var: u32,
    /// The level being emitted (the function's own, or one inlined at a
    /// modifier, `inline.rs`).
    fr: Frame,
    /// The levels' stack slots, by depth (`Frame::slot`).
    slots: Vec<StackSlot>,
    /// Transitions left to inline levels in this function.
    inline_budget: usize,
    /// What walks from each state read of the derived data (`lazy.rs`).
    reads: lazy::Reads,
    /// The workspace read in the current block (`ws`).
    ws_cache: Option<(Block, Value)>,
}

/// The code of one level: its blocks, variables and the stack slot that
/// holds its level number, stack base and visited stamps (read at each
/// use: values that span a whole level cost the register allocator time
/// in proportion to the function's size, and get spilled anyway).
pub(crate) struct Frame {
    slot: StackSlot,
    /// Whether the level has visited stamps (`begin_level`).
    stamps: bool,
    /// Current vertex, state to dispatch on, next node (state, vertex).
    v: Variable,
    q: Variable,
    nq: Variable,
    nv: Variable,
    blocks: Vec<Option<Block>>,
    stop: Block,
    pop: Block,
    dispatch: Block,
    /// Whether `next` may hold a node at this point of a state's block.
    next_set: bool,
    /// Pushes the state's block may still make without checking the
    /// stack's capacity (`state`).
    room: u32,
    /// States `next` may hold at the end of the state's block.
    cands: Vec<u32>,
    /// States that may be pushed on the stack (and so popped).
    pushed: Vec<bool>,
    /// Inlined levels: where the level ends (with an i32 parameter: 1 when
    /// it stopped), and how deep it is inlined.
    exit: Option<Block>,
    depth: u32,
}

impl<'a, 'b> Walk<'a, 'b> {
    /// Emits the whole function into `b` (whose signature is the walk's).
    pub(crate) fn emit(c: &'a Compiled, mode: Mode, mut b: FunctionBuilder<'b>, f: &'a Callees) {
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let params = b.block_params(entry).to_vec();
        let (q0, v0, level) = (params[0], params[1], params[2]);
        let members = states_of(c, mode);
        let mut w = Walk::new(c, mode, b, f, level, &members);
        // Called at a modifier (`cell` is not `NONE`): check the bounds and
        // record the modifier (`descend`).
        let (cell, old) = (params[3], params[4]);
        let (pro, go, stopped, body) = (
            w.b.create_block(),
            w.b.create_block(),
            w.b.create_block(),
            w.b.create_block(),
        );
        w.b.append_block_param(stopped, I32);
        let modified = w.b.ins().icmp_imm(IntCC::NotEqual, cell, NONE as i64);
        w.b.ins().brif(modified, pro, &[], body, &[]);
        w.b.switch_to_block(pro);
        w.bound((q0, v0, level), (cell, old), go, stopped);
        w.b.switch_to_block(go);
        w.record_modifier(q0, v0);
        w.b.ins().jump(body, &[]);
        w.b.switch_to_block(stopped);
        let r = w.b.block_params(stopped)[0];
        w.b.ins().return_(&[r]);
        w.b.switch_to_block(body);
        if c.num_slots > 0 {
            w.begin_level();
        }
        w.b.def_var(w.fr.v, v0);
        // Enter at the root; the root of a pattern walk may already accept.
        let is_root = roots(c, mode, &members);
        let ret1 = w.b.create_block();
        let targets = (0..members.len())
            .map(|s| match is_root[s] {
                true if matches!(mode, Mode::Pattern(_)) && c.accepting[s] => Some(ret1),
                true => w.fr.blocks[s],
                false => None,
            })
            .collect();
        w.jump_table(q0, targets);
        w.b.switch_to_block(ret1);
        let one = w.b.ins().iconst(I32, 1);
        w.b.ins().return_(&[one]);
        w.level_body(&members);
        w.b.seal_all_blocks();
        w.b.finalize();
    }

    /// Ends the current block: the level returns `stopped` (from the
    /// function, or to its modifier when inlined).
    fn leave(&mut self, stopped: i64) {
        let x = self.b.ins().iconst(I32, stopped);
        match self.fr.exit {
            None => self.b.ins().return_(&[x]),
            Some(exit) => self.b.ins().jump(exit, &[BlockArg::Value(x)]),
        };
    }

    /// The blocks of the current level: stop, pop, the states of
    /// `members` and the dispatch of popped nodes.
    fn level_body(&mut self, members: &[bool]) {
        // Stop: drop this level's pending nodes.
        self.b.switch_to_block(self.fr.stop);
        let base = self.base();
        self.wstore(base, Off::STACK_LEN);
        self.leave(1);
        // Pop the next pending node of this level, or return.
        self.b.switch_to_block(self.fr.pop);
        let len = self.wload(I64, Off::STACK_LEN);
        let base = self.base();
        let more = self.b.ins().icmp(IntCC::UnsignedGreaterThan, len, base);
        let (take, done) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(more, take, &[], done, &[]);
        self.b.switch_to_block(take);
        let len1 = self.b.ins().iadd_imm(len, -1);
        self.wstore(len1, Off::STACK_LEN);
        let stack = self.wload(I64, Off::STACK);
        let off = self.b.ins().ishl_imm(len1, 3);
        let addr = self.b.ins().iadd(stack, off);
        let pq = self.b.ins().load(I32, FLAGS, addr, 0);
        let pv = self.b.ins().load(I32, FLAGS, addr, 4);
        self.b.def_var(self.fr.q, pq);
        self.b.def_var(self.fr.v, pv);
        self.b.ins().jump(self.fr.dispatch, &[]);
        self.b.switch_to_block(done);
        self.leave(0);
        // The states.
        for (s, _) in members.iter().enumerate().filter(|m| *m.1) {
            self.state(s as u32);
        }
        // Dispatch on `q` among the states that can be pushed.
        self.b.switch_to_block(self.fr.dispatch);
        let q = self.b.use_var(self.fr.q);
        let targets = (0..members.len())
            .map(|s| self.fr.blocks[s].filter(|_| self.fr.pushed[s]))
            .collect();
        self.jump_table(q, targets);
    }

    /// A generator for a function whose entry block is current: `level`
    /// is the level's value; `members` the states that get a block.
    fn new(
        c: &'a Compiled,
        mode: Mode,
        b: FunctionBuilder<'b>,
        f: &'a Callees,
        level: Value,
        members: &[bool],
    ) -> Walk<'a, 'b> {
        let mut w = Walk {
            c,
            mode,
            b,
            f,
            next_var: 0,
            fr: Frame::placeholder(),
            slots: Vec::new(),
            inline_budget: inline::budget(c, members),
            reads: lazy::reads(c),
            ws_cache: None,
        };
        w.fr = w.frame(level, members, None, 0);
        w
    }

    /// A new level's frame: fresh variables and blocks for `members`, the
    /// stack base read here.
    fn frame(&mut self, level: Value, members: &[bool], exit: Option<Block>, depth: u32) -> Frame {
        // Levels inlined at the same depth are never live at once: they
        // share a slot.
        while self.slots.len() <= depth as usize {
            let data = StackSlotData::new(StackSlotKind::ExplicitSlot, FR_SIZE, 3);
            self.slots.push(self.b.create_sized_stack_slot(data));
        }
        let slot = self.slots[depth as usize];
        let base = self.wload(I64, Off::STACK_LEN);
        self.b.ins().stack_store(base, slot, FR_BASE);
        self.b.ins().stack_store(level, slot, FR_LEVEL);
        let [v, q, nq, nv] = [0; 4].map(|_| self.new_var(I32));
        let blocks: Vec<Option<Block>> = members
            .iter()
            .map(|&m| m.then(|| self.b.create_block()))
            .collect();
        let (stop, pop, dispatch) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        Frame {
            slot,
            stamps: false,
            v,
            q,
            nq,
            nv,
            blocks,
            stop,
            pop,
            dispatch,
            next_set: false,
            room: 0,
            cands: Vec::new(),
            pushed: vec![false; members.len()],
            exit,
            depth,
        }
    }

    /// Jumps on state `q` to `targets[q]`; other values leave the level
    /// with 0. A few targets are a compare chain, more a `br_table` over
    /// the range of states that have one.
    fn jump_table(&mut self, q: Value, targets: Vec<Option<Block>>) {
        let bad = self.b.create_block();
        let some: Vec<(usize, Block)> = targets
            .iter()
            .enumerate()
            .filter_map(|(s, blk)| blk.map(|b| (s, b)))
            .collect();
        if some.len() <= 3 {
            for (s, blk) in some {
                let is = self.b.ins().icmp_imm(IntCC::Equal, q, s as i64);
                let other = self.b.create_block();
                self.b.ins().brif(is, blk, &[], other, &[]);
                self.b.switch_to_block(other);
            }
            self.b.ins().jump(bad, &[]);
        } else {
            let (lo, hi) = (some[0].0, some[some.len() - 1].0);
            let calls: Vec<_> = targets[lo..=hi]
                .iter()
                .map(|blk| self.b.func.dfg.block_call(blk.unwrap_or(bad), &[]))
                .collect();
            let def = self.b.func.dfg.block_call(bad, &[]);
            let jt = self.b.create_jump_table(JumpTableData::new(def, &calls));
            // States below `lo` wrap around to large indices.
            let i = self.b.ins().iadd_imm(q, -(lo as i64));
            self.b.ins().br_table(i, jt);
        }
        self.b.switch_to_block(bad);
        self.leave(0);
    }

    /// The workspace: the pinned register, read once per block (so that no
    /// value lives across blocks, or across a call: see `called`).
    fn ws(&mut self) -> Value {
        let here = self.b.current_block();
        match self.ws_cache {
            Some((blk, ws)) if Some(blk) == here => ws,
            _ => {
                let ws = self.b.ins().get_pinned_reg(I64);
                self.ws_cache = here.map(|blk| (blk, ws));
                ws
            }
        }
    }

    /// After a call: the workspace is read again after it (a value kept
    /// across the call would be saved around it).
    fn called(&mut self) {
        self.ws_cache = None;
    }

    /// The constant `x` is, if it is one.
    fn const_of(&self, x: Value) -> Option<i64> {
        use cranelift_codegen::ir::{InstructionData, Opcode, ValueDef};
        let ValueDef::Result(inst, _) = self.b.func.dfg.value_def(x) else {
            return None;
        };
        match self.b.func.dfg.insts[inst] {
            InstructionData::UnaryImm {
                opcode: Opcode::Iconst,
                imm,
            } => Some(imm.bits()),
            _ => None,
        }
    }

    /// `x * k` (i64), a shift where `k` is a power of two.
    fn scale(&mut self, x: Value, k: i64) -> Value {
        match k {
            1 => x,
            k if k > 0 && k & (k - 1) == 0 => self.b.ins().ishl_imm(x, k.trailing_zeros() as i64),
            k => self.b.ins().imul_imm(x, k),
        }
    }

    /// The workspace field at `off`.
    fn wload(&mut self, ty: cranelift_codegen::ir::Type, off: i32) -> Value {
        let ws = self.ws();
        self.b.ins().load(ty, FLAGS, ws, off)
    }

    /// Stores `x` into the workspace field at `off`.
    fn wstore(&mut self, x: Value, off: i32) {
        let ws = self.ws();
        self.b.ins().store(FLAGS, x, ws, off);
    }

    /// `field[index]`: `field` a buffer pointer of the workspace.
    fn addr_in(&mut self, field: i32, index: Value, size: i64) -> Value {
        let base = self.wload(I64, field);
        self.addr(base, index, size)
    }

    /// Whether the run mode is `Keeper` (an i8).
    fn keeper(&mut self) -> Value {
        let run = self.wload(I32, Off::RUN);
        self.b
            .ins()
            .icmp_imm(IntCC::Equal, run, RunMode::Keeper as i64)
    }

    fn new_var(&mut self, ty: cranelift_codegen::ir::Type) -> Variable {
        let v = Variable::from_u32(self.next_var);
        self.next_var += 1;
        self.b.declare_var(v, ty);
        v
    }

    /// The level number (i32).
    fn level(&mut self) -> Value {
        self.b.ins().stack_load(I32, self.fr.slot, FR_LEVEL)
    }

    /// The stack length when the level started (i64).
    fn base(&mut self) -> Value {
        self.b.ins().stack_load(I64, self.fr.slot, FR_BASE)
    }

    /// The level's visited set: (stamps pointer, generation).
    fn stamps(&mut self) -> (Value, Value) {
        assert!(self.fr.stamps, "slots imply a level");
        let st = self.b.ins().stack_load(I64, self.fr.slot, FR_STAMPS);
        let gen = self.b.ins().stack_load(I32, self.fr.slot, FR_GEN);
        (st, gen)
    }

    /// Starts a fresh visited set for this level (see `stamps`).
    fn begin_level(&mut self) {
        let level = self.level();
        let b = &mut self.b;
        let ws = b.ins().get_pinned_reg(I64);
        let n = b.ins().load(I64, FLAGS, ws, Off::LEVELS_LEN);
        let lvl = b.ins().uextend(I64, level);
        let have = b.ins().icmp(IntCC::UnsignedLessThan, lvl, n);
        let (fast, fast2, slow, join) = (
            b.create_block(),
            b.create_block(),
            b.create_block(),
            b.create_block(),
        );
        b.append_block_param(join, I64);
        b.append_block_param(join, I32);
        b.set_cold_block(slow);
        b.ins().brif(have, fast, &[], slow, &[]);
        b.switch_to_block(fast);
        let ws = b.ins().get_pinned_reg(I64);
        let levels = b.ins().load(I64, FLAGS, ws, Off::LEVELS);
        let off = b.ins().imul_imm(lvl, Off::LEVEL_SIZE);
        let rec = b.ins().iadd(levels, off);
        let gen = b.ins().load(I32, FLAGS, rec, Off::LEVEL_GEN);
        let wraps = b.ins().icmp_imm(IntCC::Equal, gen, u32::MAX as i64);
        b.ins().brif(wraps, slow, &[], fast2, &[]);
        b.switch_to_block(fast2);
        let gen1 = b.ins().iadd_imm(gen, 1);
        b.ins().store(FLAGS, gen1, rec, Off::LEVEL_GEN);
        let st = b.ins().load(I64, FLAGS, rec, Off::LEVEL_STAMPS);
        b.ins()
            .jump(join, &[BlockArg::Value(st), BlockArg::Value(gen1)]);
        b.switch_to_block(slow);
        let f = b.ins().iconst(I64, rt::level_slow as *const () as i64);
        let ws = b.ins().get_pinned_reg(I64);
        let call = b.ins().call_indirect(self.f.sig_level, f, &[ws, level]);
        let rec = b.inst_results(call)[0];
        let gen = b.ins().load(I32, FLAGS, rec, Off::LEVEL_GEN);
        let st = b.ins().load(I64, FLAGS, rec, Off::LEVEL_STAMPS);
        b.ins()
            .jump(join, &[BlockArg::Value(st), BlockArg::Value(gen)]);
        b.switch_to_block(join);
        let (st, gen) = (b.block_params(join)[0], b.block_params(join)[1]);
        b.ins().stack_store(st, self.fr.slot, FR_STAMPS);
        b.ins().stack_store(gen, self.fr.slot, FR_GEN);
        self.fr.stamps = true;
    }

    /// Continues in a new block when `cond` holds, else jumps to `skip`.
    fn require(&mut self, cond: Value, skip: Block) {
        let cont = self.b.create_block();
        self.b.ins().brif(cond, cont, &[], skip, &[]);
        self.b.switch_to_block(cont);
    }

    /// `base[index]` (elements of `size` bytes, `index` an i32).
    fn addr(&mut self, base: Value, index: Value, size: i64) -> Value {
        if let Some(k) = self.const_of(index) {
            return self.b.ins().iadd_imm(base, (k as u32 as i64) * size);
        }
        let i = self.b.ins().uextend(I64, index);
        let off = self.scale(i, size);
        self.b.ins().iadd(base, off)
    }

    fn table<T>(&mut self, t: &[T]) -> Value {
        self.b.ins().iconst(I64, t.as_ptr() as i64)
    }

    /// The neighbour of `v` along `d` (or `NONE`).
    fn neighbor(&mut self, v: Value, d: u32) -> Value {
        let tab = self.table(&self.c.neighbors);
        let stride = self.c.num_dirs as i64 * 4;
        let i = self.b.ins().uextend(I64, v);
        let off = self.scale(i, stride);
        let a = self.b.ins().iadd(tab, off);
        self.b.ins().load(I32, FLAGS, a, d as i32 * 4)
    }

    fn piece(&mut self, v: Value) -> Value {
        let a = self.addr_in(Off::BOARD, v, 4);
        self.b.ins().load(I32, FLAGS, a, 0)
    }

    /// Whether piece `p` is in the set of `pieces`, a boolean row of the
    /// game's tables (which live as long as the code).
    fn in_set(&mut self, p: Value, pieces: &'a [bool]) -> Value {
        if pieces.len() <= 64 {
            self.mask_test(p, pieces)
        } else {
            let tab = self.table(pieces);
            let a = self.addr(tab, p, 1);
            self.b.ins().uload8(I32, FLAGS, a, 0)
        }
    }

    /// Whether piece `p` (`< 64`) is in `set`: a bit of an immediate mask.
    fn mask_test(&mut self, p: Value, set: &[bool]) -> Value {
        let mask = set
            .iter()
            .enumerate()
            .fold(0u64, |m, (i, &x)| m | (x as u64) << i);
        let m = self.b.ins().iconst(I64, mask as i64);
        let p64 = self.b.ins().uextend(I64, p);
        let sh = self.b.ins().ushr(m, p64);
        self.b.ins().band_imm(sh, 1)
    }

    /// Whether the `Op::ShiftSwitch` row starting at `row` sends piece `p`
    /// to state `to` (the pieces `set`).
    fn switches_to(&mut self, p: Value, set: &[bool], row: u32, to: u32) -> Value {
        if set.len() <= 64 {
            return self.mask_test(p, set);
        }
        let cells = &self.c.switch_rows[row as usize..];
        let stride = std::mem::size_of::<(u32, u32)>() as i64;
        let field = (&cells[0].0 as *const u32 as i64) - (cells.as_ptr() as i64);
        let tab = self.b.ins().iconst(I64, cells.as_ptr() as i64 + field);
        let a = self.addr(tab, p, stride);
        let cell = self.b.ins().load(I32, FLAGS, a, 0);
        self.b.ins().icmp_imm(IntCC::Equal, cell, to as i64)
    }

    fn on_row(&self, row: u32) -> &'a [bool] {
        let np = self.c.num_pieces as usize;
        &self.c.on_sets[row as usize..row as usize + np]
    }

    /// Marks node (slot, t) or jumps to `skip` when already marked.
    fn mark(&mut self, slot: u32, t: Value, skip: Block) {
        if slot == NONE {
            return;
        }
        let (stamps, gen) = self.stamps();
        // Stamp `slot * nv + t`: the slot's part as the access's offset.
        let row = slot as i64 * self.c.num_vertices as i64 * 4;
        let (a, at) = match i32::try_from(row) {
            Ok(row) => (self.addr(stamps, t, 4), row),
            Err(_) => {
                let base = self.b.ins().iadd_imm(stamps, row);
                (self.addr(base, t, 4), 0)
            }
        };
        let old = self.b.ins().load(I32, FLAGS, a, at);
        let fresh = self.b.ins().icmp(IntCC::NotEqual, old, gen);
        self.require(fresh, skip);
        self.b.ins().store(FLAGS, gen, a, at);
    }

    /// The length of the workspace buffer whose length and capacity are at
    /// `len_off` and `cap_off`, after calling `grow` (cold) when it is full:
    /// there is room for one more entry.
    fn grow_if_full(
        &mut self,
        len_off: i32,
        cap_off: i32,
        grow: extern "C" fn(*mut rt::Ws),
    ) -> Value {
        let len = self.wload(I64, len_off);
        let cap = self.wload(I64, cap_off);
        let full = self.b.ins().icmp(IntCC::Equal, len, cap);
        self.grow_if(full, grow);
        len
    }

    /// Calls `grow` (cold) when `cond` holds, and continues in a new block.
    fn grow_if(&mut self, cond: Value, grow: extern "C" fn(*mut rt::Ws)) {
        let (grow_block, cont) = (self.b.create_block(), self.b.create_block());
        self.b.set_cold_block(grow_block);
        self.b.ins().brif(cond, grow_block, &[], cont, &[]);
        self.b.switch_to_block(grow_block);
        let ws = self.ws();
        let f = self.b.ins().iconst(I64, grow as *const () as i64);
        self.b.ins().call_indirect(self.f.sig_ws, f, &[ws]);
        self.called();
        self.b.ins().jump(cont, &[]);
        self.b.switch_to_block(cont);
    }

    /// Makes room on the stack for the pushes of state `q`'s block outside
    /// loops (one check per state instead of one per push), at most
    /// `STACK_SLACK` of them: `rt::grow_stack` leaves that many free. A
    /// loop takes the room away (its pushes check the capacity each); a
    /// level walked inside the block (a modifier's, a pattern's) leaves
    /// the stack as long as it found it.
    fn reserve(&mut self, q: u32) {
        let c = self.c;
        let found: usize = c
            .transitions(q)
            .iter()
            .map(|tr| match tr.op {
                Op::ShiftSwitch => switch_groups(c, tr).len(),
                Op::Multi | Op::MultiOn | Op::ScanOn => 0,
                Op::Off | Op::Assign | Op::Switch => 0,
                _ => !tr.ends as usize,
            })
            .sum();
        // The first node found is kept in `next`, not pushed. One push is
        // checked where it happens (the state's check would run at every
        // visit, the push's only when it pushes).
        let room = found.saturating_sub(1).min(rt::STACK_SLACK) as i64;
        if room < 2 {
            self.fr.room = 0;
            return;
        }
        self.fr.room = room as u32;
        let len = self.wload(I64, Off::STACK_LEN);
        let cap = self.wload(I64, Off::STACK_CAP);
        let free = self.b.ins().isub(cap, len);
        let short = self.b.ins().icmp_imm(IntCC::UnsignedLessThan, free, room);
        self.grow_if(short, rt::grow_stack);
    }

    /// Pushes node (q, v) on the stack: without a capacity check while the
    /// state's block has room (`reserve`).
    fn push(&mut self, q: Value, v: Value) {
        let len = if self.fr.room > 0 {
            self.fr.room -= 1;
            self.wload(I64, Off::STACK_LEN)
        } else {
            self.grow_if_full(Off::STACK_LEN, Off::STACK_CAP, rt::grow_stack)
        };
        // An entry is `q` then `v`, 4 bytes each.
        self.append_pair(Off::STACK, Off::STACK_LEN, len, q, v);
    }

    /// Writes `x` and `y` (4 bytes each) as entry `len` of the buffer of
    /// 8-byte entries at workspace field `buf`, and stores `len + 1` into
    /// its length field `len_off` (capacity tested by the caller).
    fn append_pair(&mut self, buf: i32, len_off: i32, len: Value, x: Value, y: Value) {
        let base = self.wload(I64, buf);
        let off = self.b.ins().ishl_imm(len, 3);
        let a = self.b.ins().iadd(base, off);
        self.b.ins().store(FLAGS, x, a, 0);
        self.b.ins().store(FLAGS, y, a, 4);
        let len1 = self.b.ins().iadd_imm(len, 1);
        self.wstore(len1, len_off);
    }

    /// Records discovered node (to, t) as `next` (pushing the previous
    /// one). Returns false when it ended the block (a pattern accepted).
    fn found_state(&mut self, to: u32, t: Value) -> bool {
        if self.fr.next_set {
            for &c in &self.fr.cands {
                self.fr.pushed[c as usize] = true;
            }
            // In a loop the node pushed may be this one.
            self.fr.pushed[to as usize] = true;
            let nq = self.b.use_var(self.fr.nq);
            let set = self.b.ins().icmp_imm(IntCC::NotEqual, nq, NONE as i64);
            let (push, cont) = (self.b.create_block(), self.b.create_block());
            self.b.ins().brif(set, push, &[], cont, &[]);
            self.b.switch_to_block(push);
            let nv = self.b.use_var(self.fr.nv);
            self.push(nq, nv);
            self.b.ins().jump(cont, &[]);
            self.b.switch_to_block(cont);
        }
        self.fr.next_set = true;
        let toq = self.b.ins().iconst(I32, to as i64);
        self.b.def_var(self.fr.nq, toq);
        self.b.def_var(self.fr.nv, t);
        if !self.fr.cands.contains(&to) {
            self.fr.cands.push(to);
        }
        if matches!(self.mode, Mode::Pattern(_)) && self.c.accepting[to as usize] {
            self.b.ins().jump(self.fr.stop, &[]);
            return false;
        }
        true
    }

    /// Discovering node (tr.to, t) through `tr`. Returns false when it
    /// ended the block.
    fn found(&mut self, tr: &Tr, t: Value) -> bool {
        if tr.ends {
            let sw = self.c.transitions(tr.to)[0];
            return self.switch(&sw, t);
        }
        self.found_state(tr.to, t)
    }

    /// Takes switch `sw` at `v`: records the move, or stops (keeping the
    /// switch for the keeper). Returns false when it ended the block.
    fn switch(&mut self, sw: &Tr, v: Value) -> bool {
        if matches!(self.mode, Mode::Pattern(_)) {
            // Patterns contain no switches.
            return true;
        }
        let (collect, other, keep, cont) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        let run = self.wload(I32, Off::RUN);
        let is_collect = self
            .b
            .ins()
            .icmp_imm(IntCC::Equal, run, RunMode::Collect as i64);
        self.b.ins().brif(is_collect, collect, &[], other, &[]);
        self.b.switch_to_block(collect);
        let a = self.b.ins().iconst(I32, sw.to as i64);
        let i = self.new_var(I64);
        crate::record::emit(&mut self.b, self.f.sig_grow, i, a, v);
        self.b.ins().jump(cont, &[]);
        self.b.switch_to_block(other);
        let keeper = self.keeper();
        self.b.ins().brif(keeper, keep, &[], self.fr.stop, &[]);
        self.b.switch_to_block(keep);
        let p = self.b.ins().iconst(I32, sw.arg as i64);
        let r = self.b.ins().iconst(I32, sw.to as i64);
        self.wstore(p, Off::SWITCHED);
        self.wstore(r, Off::SWITCHED + 4);
        self.wstore(v, Off::SWITCHED + 8);
        self.b.ins().jump(self.fr.stop, &[]);
        self.b.switch_to_block(cont);
        true
    }

    /// The block of state `q`.
    fn state(&mut self, q: u32) {
        let blk = self.fr.blocks[q as usize].expect("member state");
        self.b.switch_to_block(blk);
        self.fr.next_set = false;
        self.fr.cands.clear();
        let none = self.b.ins().iconst(I32, NONE as i64);
        self.b.def_var(self.fr.nq, none);
        self.reserve(q);
        let v = self.b.use_var(self.fr.v);
        for tr in self.c.transitions(q) {
            let skip = self.b.create_block();
            if self.transition(tr, v, skip) {
                self.b.ins().jump(skip, &[]);
            }
            self.b.switch_to_block(skip);
        }
        // Go on with the node found last, or pop.
        if self.fr.cands.is_empty() {
            self.b.ins().jump(self.fr.pop, &[]);
            return;
        }
        let nq = self.b.use_var(self.fr.nq);
        let nv = self.b.use_var(self.fr.nv);
        self.b.def_var(self.fr.v, nv);
        if self.fr.cands.len() > 4 {
            for &c in &self.fr.cands {
                self.fr.pushed[c as usize] = true;
            }
            self.b.def_var(self.fr.q, nq);
            let set = self.b.ins().icmp_imm(IntCC::NotEqual, nq, NONE as i64);
            self.b
                .ins()
                .brif(set, self.fr.dispatch, &[], self.fr.pop, &[]);
            return;
        }
        let cands = self.fr.cands.clone();
        for c in cands {
            let is = self.b.ins().icmp_imm(IntCC::Equal, nq, c as i64);
            let other = self.b.create_block();
            let target = self.fr.blocks[c as usize].expect("member state");
            self.b.ins().brif(is, target, &[], other, &[]);
            self.b.switch_to_block(other);
        }
        self.b.ins().jump(self.fr.pop, &[]);
    }

    /// Emits transition `tr` from vertex `v`; failing tests jump to `skip`.
    /// Returns false when the code ended the block (a stop).
    fn transition(&mut self, tr: &Tr, v: Value, skip: Block) -> bool {
        let c = self.c;
        match tr.op {
            Op::Shift | Op::ShiftOn => {
                let t = self.neighbor(v, tr.arg);
                let ok = self.b.ins().icmp_imm(IntCC::NotEqual, t, NONE as i64);
                self.require(ok, skip);
                if tr.op == Op::ShiftOn {
                    let p = self.piece(t);
                    let ok = self.in_set(p, self.on_row(tr.set));
                    self.require(ok, skip);
                }
                self.mark(tr.slot, t, skip);
                self.found(tr, t)
            }
            Op::ShiftSwitch => {
                let t = self.neighbor(v, tr.arg);
                let ok = self.b.ins().icmp_imm(IntCC::NotEqual, t, NONE as i64);
                self.require(ok, skip);
                let p = self.piece(t);
                let groups = switch_groups(c, tr);
                // With several groups and a mark for the transition: one
                // test of their union, the mark, and the last group
                // untested (instead of the mark in every group).
                let hoist = tr.slot != NONE && groups.len() > 1 && c.num_pieces <= 64;
                if hoist {
                    let np = c.num_pieces as usize;
                    let union: Vec<bool> = (0..np).map(|i| groups.iter().any(|g| g.1[i])).collect();
                    let any = self.mask_test(p, &union);
                    self.require(any, skip);
                    self.mark(tr.slot, t, skip);
                }
                let last = groups.len().saturating_sub(1);
                for (i, ((to, slot), set)) in groups.into_iter().enumerate() {
                    let (this, other) = (self.b.create_block(), self.b.create_block());
                    if hoist && i == last {
                        self.b.ins().jump(this, &[]);
                    } else {
                        let is = self.switches_to(p, &set, tr.set, to);
                        self.b.ins().brif(is, this, &[], other, &[]);
                    }
                    self.b.switch_to_block(this);
                    if !hoist {
                        self.mark(tr.slot, t, skip);
                    }
                    self.mark(slot, t, skip);
                    if self.found_state(to, t) {
                        self.b.ins().jump(skip, &[]);
                    }
                    self.b.switch_to_block(other);
                }
                true
            }
            Op::Multi | Op::MultiOn => {
                self.fr.room = 0;
                let off_tab = self.table(&c.multi_off);
                let i0 = tr.arg as i64 * (c.num_vertices as i64 + 1);
                let vi = self.b.ins().uextend(I64, v);
                let vi = self.b.ins().iadd_imm(vi, i0);
                let o = self.b.ins().ishl_imm(vi, 2);
                let a = self.b.ins().iadd(off_tab, o);
                let start = self.b.ins().load(I32, FLAGS, a, 0);
                let end = self.b.ins().load(I32, FLAGS, a, 4);
                let j = self.new_var(I32);
                self.b.def_var(j, start);
                let (head, body, next) = (
                    self.b.create_block(),
                    self.b.create_block(),
                    self.b.create_block(),
                );
                self.b.ins().jump(head, &[]);
                self.b.switch_to_block(head);
                let jv = self.b.use_var(j);
                let more = self.b.ins().icmp(IntCC::UnsignedLessThan, jv, end);
                self.b.ins().brif(more, body, &[], skip, &[]);
                self.b.switch_to_block(body);
                let tt = self.table(&c.multi_targets);
                let a = self.addr(tt, jv, 4);
                let t = self.b.ins().load(I32, FLAGS, a, 0);
                if tr.op == Op::MultiOn {
                    let p = self.piece(t);
                    let ok = self.in_set(p, self.on_row(tr.set));
                    self.require(ok, next);
                }
                self.mark(tr.slot, t, next);
                self.fr.next_set = true;
                if self.found(tr, t) {
                    self.b.ins().jump(next, &[]);
                }
                self.b.switch_to_block(next);
                let j1 = self.b.ins().iadd_imm(jv, 1);
                self.b.def_var(j, j1);
                self.b.ins().jump(head, &[]);
                false
            }
            Op::ScanOn => {
                self.fr.room = 0;
                let mut i = tr.arg as usize;
                let words = c.words as i64;
                while c.set_pieces[i] != NONE {
                    let k = c.piece_list[c.set_pieces[i] as usize] as i64;
                    i += 1;
                    // for wi in 0..words { for each bit of the word }
                    let wi = self.new_var(I32);
                    let word = self.new_var(I64);
                    let zero = self.b.ins().iconst(I32, 0);
                    self.b.def_var(wi, zero);
                    let (whead, wbody, bhead, bbody, piece_done) = (
                        self.b.create_block(),
                        self.b.create_block(),
                        self.b.create_block(),
                        self.b.create_block(),
                        self.b.create_block(),
                    );
                    self.b.ins().jump(whead, &[]);
                    self.b.switch_to_block(whead);
                    let w = self.b.use_var(wi);
                    let more = self.b.ins().icmp_imm(IntCC::UnsignedLessThan, w, words);
                    self.b.ins().brif(more, wbody, &[], piece_done, &[]);
                    self.b.switch_to_block(wbody);
                    let w64 = self.b.ins().uextend(I64, w);
                    let idx = self.b.ins().iadd_imm(w64, k * words);
                    let off = self.b.ins().ishl_imm(idx, 3);
                    let bits = self.wload(I64, Off::BITS);
                    let a = self.b.ins().iadd(bits, off);
                    let x = self.b.ins().load(I64, FLAGS, a, 0);
                    self.b.def_var(word, x);
                    self.b.ins().jump(bhead, &[]);
                    self.b.switch_to_block(bhead);
                    let x = self.b.use_var(word);
                    let any = self.b.ins().icmp_imm(IntCC::NotEqual, x, 0);
                    let wnext = self.b.create_block();
                    self.b.ins().brif(any, bbody, &[], wnext, &[]);
                    self.b.switch_to_block(bbody);
                    let tz = self.b.ins().ctz(x);
                    let x1 = self.b.ins().iadd_imm(x, -1);
                    let rest = self.b.ins().band(x, x1);
                    self.b.def_var(word, rest);
                    let tz32 = self.b.ins().ireduce(I32, tz);
                    let w = self.b.use_var(wi);
                    let wbase = self.b.ins().ishl_imm(w, 6);
                    let t = self.b.ins().iadd(wbase, tz32);
                    self.mark(tr.slot, t, bhead);
                    self.fr.next_set = true;
                    if self.found(tr, t) {
                        self.b.ins().jump(bhead, &[]);
                    }
                    self.b.switch_to_block(wnext);
                    let w = self.b.use_var(wi);
                    let w1 = self.b.ins().iadd_imm(w, 1);
                    self.b.def_var(wi, w1);
                    self.b.ins().jump(whead, &[]);
                    self.b.switch_to_block(piece_done);
                }
                true
            }
            Op::On | Op::Filter | Op::Compare => {
                let ok = self.test(tr, v, skip);
                self.require(ok, skip);
                self.mark(tr.slot, v, skip);
                self.found(tr, v)
            }
            Op::Noop => {
                self.mark(tr.slot, v, skip);
                self.found(tr, v)
            }
            Op::Pattern => {
                self.mark(tr.slot, v, skip);
                let ok = self.test(tr, v, skip);
                self.require(ok, skip);
                self.found(tr, v)
            }
            Op::Off => {
                self.mark(tr.slot, v, skip);
                let keeps = self.keeps(tr.to);
                let old = self.set_piece_const(v, tr.arg, keeps);
                let p = tr.arg;
                // What the modifier leaves stale, for `rt::kept` to settle.
                let stale = !keeps.0 as i64 | (!keeps.1 as i64) << 1;
                self.descend(
                    tr.to,
                    v,
                    skip,
                    (v, old),
                    |w| w.unset_piece(v, p, old, keeps),
                    (p, stale),
                )
            }
            Op::Assign => {
                let Act::Assign(var, e) = &c.acts[tr.to as usize] else {
                    unreachable!("decoded from an assignment")
                };
                let val = self.assigned(*var, e, skip);
                self.mark(tr.slot, v, skip);
                let vars = self.wload(I64, Off::VARS);
                let old = self.b.ins().load(I32, FLAGS, vars, *var as i32 * 4);
                self.b.ins().store(FLAGS, val, vars, *var as i32 * 4);
                let cell = self.b.ins().iconst(I32, (c.num_vertices + *var) as i64);
                let var = *var as i32;
                self.descend(
                    tr.to,
                    v,
                    skip,
                    (cell, old),
                    |w| {
                        let vars = w.wload(I64, Off::VARS);
                        w.b.ins().store(FLAGS, old, vars, var * 4);
                    },
                    (NONE, 0),
                )
            }
            Op::Switch => {
                self.mark(tr.slot, v, skip);
                self.switch(tr, v)
            }
        }
    }

    /// An arithmetic expression as an i64; jumps to `fail` where the
    /// interpreter's evaluation is undefined (overflow, division by zero).
    fn expr(&mut self, e: &Expr, fail: Block) -> Value {
        match e {
            Expr::Const(k) => self.b.ins().iconst(I64, *k),
            Expr::Var(x) => {
                let vars = self.wload(I64, Off::VARS);
                let val = self.b.ins().load(I32, FLAGS, vars, *x as i32 * 4);
                self.b.ins().sextend(I64, val)
            }
            Expr::Count(p) => {
                let counts = self.wload(I64, Off::COUNTS);
                let val = self.b.ins().load(I32, FLAGS, counts, *p as i32 * 4);
                self.b.ins().sextend(I64, val)
            }
            Expr::Bin(l, op, r) => {
                if let (Expr::Const(x), Expr::Const(y)) = (&**l, &**r) {
                    match apply_op(*x, *op, *y) {
                        Some(k) => return self.b.ins().iconst(I64, k),
                        None => {
                            self.b.ins().jump(fail, &[]);
                            let dead = self.b.create_block();
                            self.b.switch_to_block(dead);
                            return self.b.ins().iconst(I64, 0);
                        }
                    }
                }
                let x = self.expr(l, fail);
                let y = self.expr(r, fail);
                let (val, overflow) = match op {
                    ArithOp::Add => self.b.ins().sadd_overflow(x, y),
                    ArithOp::Sub => self.b.ins().ssub_overflow(x, y),
                    ArithOp::Mul => self.b.ins().smul_overflow(x, y),
                    ArithOp::Div => {
                        let zero = self.b.ins().icmp_imm(IntCC::Equal, y, 0);
                        let minus1 = self.b.ins().icmp_imm(IntCC::Equal, y, -1);
                        let min = self.b.ins().icmp_imm(IntCC::Equal, x, i64::MIN);
                        let ovf = self.b.ins().band(minus1, min);
                        let bad = self.b.ins().bor(zero, ovf);
                        let ok = self.b.ins().bxor_imm(bad, 1);
                        self.require(ok, fail);
                        let q = self.b.ins().sdiv(x, y);
                        let no = self.b.ins().iconst(I8, 0);
                        (q, no)
                    }
                };
                let ok = self.b.ins().bxor_imm(overflow, 1);
                self.require(ok, fail);
                val
            }
        }
    }

    /// Decides pattern automaton `k` at `v` (i32 0 or 1), with the memo.
    fn pattern(&mut self, k: u32, v: Value) -> Value {
        let c = self.c;
        let m = c.memo_index[k as usize];
        if m == NONE {
            return self.pattern_search(k, v);
        }
        let memo = self.wload(I64, Off::MEMO);
        let i = self.b.ins().uextend(I64, v);
        let i = self.b.ins().iadd_imm(i, m as i64 * c.num_vertices as i64);
        let off = self.b.ins().ishl_imm(i, 3);
        let a = self.b.ins().iadd(memo, off);
        let e = self.b.ins().load(I64, FLAGS, a, 0);
        let version = self.wload(I64, Off::VERSION);
        let ev = self.b.ins().ushr_imm(e, 1);
        let hit = self.b.ins().icmp(IntCC::Equal, ev, version);
        let (hitb, miss, join) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.append_block_param(join, I32);
        self.b.ins().brif(hit, hitb, &[], miss, &[]);
        self.b.switch_to_block(hitb);
        let r = self.b.ins().band_imm(e, 1);
        let r = self.b.ins().ireduce(I32, r);
        self.b.ins().jump(join, &[BlockArg::Value(r)]);
        self.b.switch_to_block(miss);
        let r = self.pattern_search(k, v);
        let memo = self.wload(I64, Off::MEMO);
        let a = self.b.ins().iadd(memo, off);
        let vs = self.b.ins().ishl_imm(version, 1);
        let r64 = self.b.ins().uextend(I64, r);
        let e = self.b.ins().bor(vs, r64);
        self.b.ins().store(FLAGS, e, a, 0);
        self.b.ins().jump(join, &[BlockArg::Value(r)]);
        self.b.switch_to_block(join);
        self.b.block_params(join)[0]
    }

    fn pattern_search(&mut self, k: u32, v: Value) -> Value {
        if let Some(probe) = self.f.probes[k as usize] {
            let board = self.wload(I64, Off::BOARD);
            let call = self.b.ins().call(probe, &[board, v]);
            self.called();
            return self.b.inst_results(call)[0];
        }
        let start = self.b.ins().iconst(I32, self.c.starts[k as usize] as i64);
        let level = self.level();
        let lvl = self.b.ins().iadd_imm(level, 1);
        let walk = self.f.patterns[k as usize].expect("a walked pattern");
        let none = self.b.ins().iconst(I32, NONE as i64);
        let zero = self.b.ins().iconst(I32, 0);
        let call = self.b.ins().call(walk, &[start, v, lvl, none, zero]);
        self.called();
        self.b.inst_results(call)[0]
    }

    /// Whether test `tr` (a piece test, filter, no-op, comparison or
    /// pattern) passes at `v` (an i8); jumps to `fail` where a comparison
    /// is undefined.
    fn test(&mut self, tr: &Tr, v: Value, fail: Block) -> Value {
        let c = self.c;
        match tr.op {
            Op::On => {
                let p = self.piece(v);
                self.in_set(p, self.on_row(tr.arg))
            }
            Op::Filter => {
                let tab = self.table(&c.filter_ok);
                let tab = self.b.ins().iadd_imm(tab, tr.arg as i64);
                let a = self.addr(tab, v, 1);
                self.b.ins().uload8(I32, FLAGS, a, 0)
            }
            Op::Compare => {
                let Act::Compare(l, op, r) = &c.acts[tr.to as usize] else {
                    unreachable!("decoded from a comparison")
                };
                let x = self.expr(l, fail);
                let y = self.expr(r, fail);
                let cc = match op {
                    CmpOp::Lt => IntCC::SignedLessThan,
                    CmpOp::Le => IntCC::SignedLessThanOrEqual,
                    CmpOp::Eq => IntCC::Equal,
                    CmpOp::Ne => IntCC::NotEqual,
                    CmpOp::Gt => IntCC::SignedGreaterThan,
                    CmpOp::Ge => IntCC::SignedGreaterThanOrEqual,
                };
                self.b.ins().icmp(cc, x, y)
            }
            Op::Pattern => {
                let holds = self.pattern(tr.arg >> 1, v);
                let negated = tr.arg & 1 != 0;
                self.b
                    .ins()
                    .icmp_imm(IntCC::NotEqual, holds, negated as i64)
            }
            Op::Noop => self.b.ins().iconst(I32, 1),
            op => unreachable!("not a test: {op:?}"),
        }
    }

    /// The value assignment `[$ var = e]` stores (an i32); jumps to `fail`
    /// where it is undefined or out of the variable's bounds.
    fn assigned(&mut self, var: u32, e: &Expr, fail: Block) -> Value {
        let val = self.expr(e, fail);
        let lo = self
            .b
            .ins()
            .icmp_imm(IntCC::SignedGreaterThanOrEqual, val, 0);
        self.require(lo, fail);
        let hi = self.b.ins().icmp_imm(
            IntCC::SignedLessThanOrEqual,
            val,
            self.c.var_bounds[var as usize],
        );
        self.require(hi, fail);
        self.b.ins().ireduce(I32, val)
    }

    /// Puts piece `p` (a value) on `v`.
    fn set_piece_dyn(&mut self, v: Value, p: Value) {
        let a = self.addr_in(Off::BOARD, v, 4);
        let old = self.b.ins().load(I32, FLAGS, a, 0);
        self.b.ins().store(FLAGS, p, a, 0);
        self.count(old, -1);
        self.count(p, 1);
        self.list_bit(old, None, v, false);
        self.list_bit(p, None, v, true);
    }

    /// Puts constant piece `p` on `v`, keeping the counts and the lists
    /// in step as `keeps` says (`lazy.rs`); returns the old piece.
    fn set_piece_const(&mut self, v: Value, p: u32, (counts, lists): (bool, bool)) -> Value {
        let a = self.addr_in(Off::BOARD, v, 4);
        let old = self.b.ins().load(I32, FLAGS, a, 0);
        let pv = self.b.ins().iconst(I32, p as i64);
        self.b.ins().store(FLAGS, pv, a, 0);
        if counts {
            self.count(old, -1);
            self.count(pv, 1);
        }
        if lists {
            self.list_bit(old, None, v, false);
            self.list_bit(pv, Some(p), v, true);
        }
        old
    }

    /// Puts `old` back on `v`, where constant piece `p` is (the counts and
    /// lists as `set_piece_const` kept them).
    fn unset_piece(&mut self, v: Value, p: u32, old: Value, (counts, lists): (bool, bool)) {
        let a = self.addr_in(Off::BOARD, v, 4);
        self.b.ins().store(FLAGS, old, a, 0);
        let pv = self.b.ins().iconst(I32, p as i64);
        if counts {
            self.count(pv, -1);
            self.count(old, 1);
        }
        if lists {
            self.list_bit(pv, Some(p), v, false);
            self.list_bit(old, None, v, true);
        }
    }

    fn count(&mut self, p: Value, delta: i64) {
        let a = self.addr_in(Off::COUNTS, p, 4);
        let x = self.b.ins().load(I32, FLAGS, a, 0);
        let x = self.b.ins().iadd_imm(x, delta);
        self.b.ins().store(FLAGS, x, a, 0);
    }

    /// Sets (or clears) `v`'s bit in the piece list of piece `p` (given as
    /// a value, and as a constant when known), if that piece is tracked.
    fn list_bit(&mut self, p: Value, known: Option<u32>, v: Value, set: bool) {
        let c = self.c;
        if c.num_lists == 0 {
            return;
        }
        let k = match known {
            Some(p) if c.piece_list[p as usize] == NONE => return,
            Some(p) => self.b.ins().iconst(I32, c.piece_list[p as usize] as i64),
            None => {
                let tab = self.table(&c.piece_list);
                let a = self.addr(tab, p, 4);
                self.b.ins().load(I32, FLAGS, a, 0)
            }
        };
        let done = self.b.create_block();
        if known.is_none() {
            let tracked = self.b.ins().icmp_imm(IntCC::NotEqual, k, NONE as i64);
            self.require(tracked, done);
        }
        // Word `k * words + v / 64` of the lists (`v / 64` is 0 with one
        // word a list); bit `v % 64` (shift amounts are taken modulo 64).
        let bits = self.wload(I64, Off::BITS);
        let v64 = self.b.ins().uextend(I64, v);
        let list = self.addr(bits, k, c.words as i64 * 8);
        let a = match c.words {
            1 => list,
            _ => {
                let word = self.b.ins().ushr_imm(v64, 6);
                let off = self.b.ins().ishl_imm(word, 3);
                self.b.ins().iadd(list, off)
            }
        };
        let x = self.b.ins().load(I64, FLAGS, a, 0);
        let one = self.b.ins().iconst(I64, 1);
        let bit = self.b.ins().ishl(one, v64);
        let x = if set {
            self.b.ins().bor(x, bit)
        } else {
            let nb = self.b.ins().bnot(bit);
            self.b.ins().band(x, nb)
        };
        self.b.ins().store(FLAGS, x, a, 0);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
    }

    /// Appends modifier `a` applied at `v` (i32 values) to the move
    /// prefix, in a rules walk: returns the prefix's length before it.
    fn record_modifier(&mut self, a: Value, v: Value) -> Option<Value> {
        if self.mode != Mode::Rules {
            return None;
        }
        let len = self.grow_if_full(Off::CUR_LEN, Off::CUR_CAP, rt::grow_cur);
        self.append_pair(Off::CUR, Off::CUR_LEN, len, a, v);
        Some(len)
    }

    /// After modifier `a` was applied at `v`, replacing `change` (a cell
    /// and its old value, see `rt::watch`): walks the next level within the
    /// bounds (`bound.rs`) and undoes the modifier with `undo`, unless the
    /// keeper stopped there: then `rt::kept` settles it (`lazy.rs`; `kept`:
    /// the piece put, or `NONE` for a variable, and what it left stale).
    /// Returns false when the code ended the block.
    fn descend(
        &mut self,
        a: u32,
        v: Value,
        skip: Block,
        change: (Value, Value),
        undo: impl FnOnce(&mut Self),
        kept: (u32, i64),
    ) -> bool {
        let (go, undone) = (self.b.create_block(), self.b.create_block());
        self.b.append_block_param(undone, I32);
        let inline = self.inline_members(a);
        let av = self.b.ins().iconst(I32, a as i64);
        let level = self.level();
        let lvl = self.b.ins().iadd_imm(level, 1);
        // A called level checks the bounds and records the modifier itself
        // (one copy per function instead of one per modifier).
        let mut cur_len = None;
        if inline.is_some() {
            self.bound((av, v, lvl), change, go, undone);
            self.b.switch_to_block(go);
            cur_len = self.record_modifier(av, v);
        } else {
            self.b.ins().jump(go, &[]);
            self.b.switch_to_block(go);
            if self.mode == Mode::Rules {
                cur_len = Some(self.wload(I64, Off::CUR_LEN));
            }
        }
        // A new version for the memo, where a pattern can be decided
        // before the modifier is undone.
        let memo = self.c.num_memos > 0 && self.reads.patterns[a as usize];
        let mut saved = None;
        if memo {
            let ver = self.wload(I64, Off::VERSION);
            let last = self.wload(I64, Off::LAST_VERSION);
            let last = self.b.ins().iadd_imm(last, 1);
            self.wstore(last, Off::LAST_VERSION);
            self.wstore(last, Off::VERSION);
            saved = Some(ver);
        }
        let stopped = match inline {
            Some(members) => self.inline_level(a, v, &members),
            None => {
                let call = self
                    .b
                    .ins()
                    .call(self.f.this, &[av, v, lvl, change.0, change.1]);
                self.called();
                self.b.inst_results(call)[0]
            }
        };
        if self.mode == Mode::Rules {
            // The keeper keeps its move (a collecting walk never stops),
            // unless the walk stopped on a fault: decided, and the
            // modifier settled, out of line (a walk stops once per run).
            let (cont, check) = (self.b.create_block(), self.b.create_block());
            self.b.set_cold_block(check);
            self.b.ins().brif(stopped, check, &[], cont, &[]);
            self.b.switch_to_block(check);
            let ws = self.ws();
            let p = self.b.ins().iconst(I32, kept.0 as i64);
            let old = change.1;
            let stale = self.b.ins().iconst(I32, kept.1);
            let f = self.b.ins().iconst(I64, rt::kept as *const () as i64);
            let call = self
                .b
                .ins()
                .call_indirect(self.f.sig_kept, f, &[ws, v, p, old, stale]);
            self.called();
            let keep = self.b.inst_results(call)[0];
            self.b.ins().brif(keep, self.fr.stop, &[], cont, &[]);
            self.b.switch_to_block(cont);
        }
        if let Some(ver) = saved {
            self.wstore(ver, Off::VERSION);
        }
        if let Some(len) = cur_len {
            self.wstore(len, Off::CUR_LEN);
        }
        self.b.ins().jump(undone, &[BlockArg::Value(stopped)]);
        self.b.switch_to_block(undone);
        let stopped = self.b.block_params(undone)[0];
        undo(self);
        self.b.ins().brif(stopped, self.fr.stop, &[], skip, &[]);
        false
    }
}
