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
//!
//! This file holds the walk's frame of functions and levels; a state's
//! block and its transitions are in `state.rs`, modifiers and the descent
//! in `modifier.rs`, expressions and patterns in `expr.rs`, a level's
//! stack slot, visited set and node stack in `level.rs`, and reads and
//! writes of the workspace and the game's tables in `access.rs`.

mod access;
mod bound;
mod expr;
mod inline;
mod lazy;
mod level;
mod modifier;
mod state;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{
    Block, BlockArg, FuncRef, InstBuilder, JumpTableData, MemFlags, SigRef, StackSlot,
    StackSlotData, StackSlotKind, Value,
};
use cranelift_frontend::{FunctionBuilder, Variable};
use rbg_engine::raw::{Compiled, Op, Tr, NONE};

use crate::rt::Off;

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
    /// In the keyed copy of the rules' walk (`crate::compile_keyed`): the
    /// key table (also read at its address by the code).
    pub keys: Option<std::sync::Arc<[[u32; 2]]>>,
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

    fn new_var(&mut self, ty: cranelift_codegen::ir::Type) -> Variable {
        let v = Variable::from_u32(self.next_var);
        self.next_var += 1;
        self.b.declare_var(v, ty);
        v
    }

    /// Continues in a new block when `cond` holds, else jumps to `skip`.
    fn require(&mut self, cond: Value, skip: Block) {
        let cont = self.b.create_block();
        self.b.ins().brif(cond, cont, &[], skip, &[]);
        self.b.switch_to_block(cont);
    }
}
