//! The keeper's deterministic prefix as straight code (the interpreter's
//! `Searcher::keeper_prefix`): from the keeper's node, while the search has
//! no choice to make (a state with a single transition, or whose
//! transitions are all steps of which exactly one passes), tests and
//! shifts are taken directly and modifiers applied in place, logged for
//! undo, with no level, visited set or recursion. At a switch the move is
//! complete; where the rules branch (or after `MAX_STEPS` states: the rules
//! may loop) the rules walk goes on from that node in keeper mode; where
//! nothing passes, or the walk finds no move, the log is undone.
//! Breakthrough's keeper (`[$ me=100] [$ opp=0] ({? forward} [pawn] + ...)`)
//! went from ~440 to ~116 instructions; breakthrough's perft 4 -25%.
//!
//! Function `(ws, q, v) -> moved`.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{Block, BlockArg, InstBuilder, Value};
use cranelift_frontend::FunctionBuilder;
use rbg_engine::raw::{is_step, Act, Compiled, Op, Tr, NONE};

use super::{Callees, Mode, Walk, FLAGS};
use crate::rt::{Off, LOG_VAR};

/// States the prefix passes through before stopping (the interpreter's
/// bound).
pub(crate) const MAX_STEPS: usize = 256;

/// How the prefix treats a state.
enum Kind<'a> {
    /// One transition: a step, a modifier or a switch.
    Single(&'a Tr),
    /// Steps of which exactly one must pass.
    Steps(&'a [Tr]),
    /// The rules branch here: the walk goes on.
    Branch,
}

fn kind(c: &Compiled, q: u32) -> Kind<'_> {
    match c.transitions(q) {
        [tr] if is_step(tr.op) || matches!(tr.op, Op::Off | Op::Assign | Op::Switch) => {
            Kind::Single(tr)
        }
        trs if trs.len() != 1 && trs.iter().all(|tr| is_step(tr.op)) => Kind::Steps(trs),
        _ => Kind::Branch,
    }
}

/// The states transition `tr` can lead to.
fn targets(c: &Compiled, tr: &Tr) -> Vec<u32> {
    match tr.op {
        Op::ShiftSwitch => super::switch_groups(c, tr)
            .into_iter()
            .map(|((to, _), _)| to)
            .collect(),
        _ => vec![tr.to],
    }
}

/// The states a keeper's move can start at (the rules' start and the
/// targets of keeper switches).
fn keeper_roots(c: &Compiled, members: &[bool]) -> Vec<u32> {
    let mut roots = vec![c.starts[0]];
    for q in (0..members.len()).filter(|&q| members[q]) {
        for tr in c.transitions(q as u32) {
            if tr.op == Op::Switch && tr.arg == c.num_players && !roots.contains(&tr.to) {
                roots.push(tr.to);
            }
        }
    }
    roots
}

/// The states of the prefix (reachable from the keeper's roots through
/// the prefix's own transitions): each may be where the walk takes over,
/// so each is a root of the rules walk.
pub(crate) fn prefix_states(c: &Compiled, members: &[bool]) -> Vec<bool> {
    let mut seen = vec![false; members.len()];
    let mut todo = keeper_roots(c, members);
    for &q in &todo {
        seen[q as usize] = true;
    }
    while let Some(q) = todo.pop() {
        let next: Vec<u32> = match kind(c, q) {
            Kind::Single(tr) if tr.op != Op::Switch => targets(c, tr),
            Kind::Steps(trs) => trs.iter().flat_map(|tr| targets(c, tr)).collect(),
            _ => Vec::new(),
        };
        for t in next {
            if !seen[t as usize] {
                seen[t as usize] = true;
                todo.push(t);
            }
        }
    }
    seen
}

impl Walk<'_, '_> {
    /// Emits the keeper function into `b` (signature `(q, v) -> i32`, the
    /// workspace in the pinned register); `f.this` is the rules walk.
    pub(crate) fn emit_keeper(c: &Compiled, mut b: FunctionBuilder, f: &Callees) {
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let p = b.block_params(entry).to_vec();
        let (q0, v0) = (p[0], p[1]);
        let level = b.ins().iconst(I32, 0);
        let members = super::states_of(c, Mode::Rules);
        let prefix = prefix_states(c, &members);
        if std::env::var_os("RBG_JIT_TRACE").is_some() {
            let n = |f: &dyn Fn(&Kind) -> bool| {
                (0..prefix.len())
                    .filter(|&q| prefix[q] && f(&kind(c, q as u32)))
                    .count()
            };
            eprintln!(
                "keeper prefix: {} single {} steps {} branch",
                n(&|k| matches!(k, Kind::Single(_))),
                n(&|k| matches!(k, Kind::Steps(_))),
                n(&|k| matches!(k, Kind::Branch))
            );
        }
        let mut w = Walk::new(c, Mode::Rules, b, f, level, &[]);
        // The walk's own blocks are not used here; `dispatch` hands node
        // (q, v) over to the rules walk.
        let body = w.b.create_block();
        w.b.ins().jump(body, &[]);
        for blk in [w.fr.stop, w.fr.pop] {
            w.b.switch_to_block(blk);
            let zero = w.b.ins().iconst(I32, 0);
            w.b.ins().return_(&[zero]);
        }
        w.b.switch_to_block(body);
        let steps = w.new_var(I64);
        let left = w.b.ins().iconst(I64, MAX_STEPS as i64);
        w.b.def_var(steps, left);
        let zero = w.b.ins().iconst(I64, 0);
        w.wstore(zero, Off::LOG_LEN);
        w.b.def_var(w.fr.v, v0);
        let blocks: Vec<Option<Block>> = prefix
            .iter()
            .map(|&m| m.then(|| w.b.create_block()))
            .collect();
        // Failing: undo the log and return 0.
        let stuck = w.b.create_block();
        let targets = blocks.clone();
        // States outside the prefix (not a keeper's node) return 0.
        w.jump_table(q0, targets);
        for (q, blk) in blocks.iter().enumerate() {
            let Some(blk) = *blk else { continue };
            w.b.switch_to_block(blk);
            let v = w.b.use_var(w.fr.v);
            // After MAX_STEPS states the walk goes on from here.
            let n = w.b.use_var(steps);
            let (go, walk) = (w.b.create_block(), w.b.create_block());
            let more = w.b.ins().icmp_imm(IntCC::NotEqual, n, 0);
            w.b.ins().brif(more, go, &[], walk, &[]);
            w.b.switch_to_block(walk);
            w.walk_from(q as u32, v);
            w.b.switch_to_block(go);
            let n1 = w.b.ins().iadd_imm(n, -1);
            w.b.def_var(steps, n1);
            match kind(c, q as u32) {
                Kind::Single(tr) => w.prefix_single(tr, v, &blocks, stuck),
                Kind::Steps(trs) => w.prefix_steps(q as u32, trs, v, &blocks, stuck),
                Kind::Branch => w.walk_from(q as u32, v),
            }
        }
        w.b.switch_to_block(w.fr.dispatch);
        let (q, v) = (w.b.use_var(w.fr.q), w.b.use_var(w.fr.v));
        let (none, zero) = (w.b.ins().iconst(I32, NONE as i64), w.b.ins().iconst(I32, 0));
        let call = w.b.ins().call(f.this, &[q, v, level, none, zero]);
        let moved = w.b.inst_results(call)[0];
        let done = w.b.create_block();
        w.b.ins().brif(moved, done, &[], stuck, &[]);
        w.b.switch_to_block(done);
        let one = w.b.ins().iconst(I32, 1);
        w.b.ins().return_(&[one]);
        w.b.switch_to_block(stuck);
        w.undo_log();
        let zero = w.b.ins().iconst(I32, 0);
        w.b.ins().return_(&[zero]);
        w.b.seal_all_blocks();
        w.b.finalize();
    }

    /// Ends the block: the rules walk goes on from node (q, v) in keeper
    /// mode (one call site for all: `dispatch`).
    fn walk_from(&mut self, q: u32, v: Value) {
        let qv = self.b.ins().iconst(I32, q as i64);
        self.b.def_var(self.fr.q, qv);
        self.b.def_var(self.fr.v, v);
        self.b.ins().jump(self.fr.dispatch, &[]);
    }

    /// Takes step `tr` from `v`: the vertex and the state reached (an i32
    /// value), or a jump to `fail`.
    fn prefix_step(&mut self, tr: &Tr, v: Value, fail: Block) -> (Value, Value) {
        match tr.op {
            Op::Shift | Op::ShiftOn | Op::ShiftSwitch => {
                let t = self.neighbor(v, tr.arg);
                let ok = self.b.ins().icmp_imm(IntCC::NotEqual, t, NONE as i64);
                self.require(ok, fail);
                if tr.op == Op::ShiftOn {
                    let p = self.piece(t);
                    let ok = self.in_set(p, self.on_row(tr.set));
                    self.require(ok, fail);
                }
                if tr.op != Op::ShiftSwitch {
                    let to = self.b.ins().iconst(I32, tr.to as i64);
                    return (t, to);
                }
                // The piece at `t` picks the state.
                let p = self.piece(t);
                let join = self.b.create_block();
                self.b.append_block_param(join, I32);
                for ((to, _), set) in super::switch_groups(self.c, tr) {
                    let (this, other) = (self.b.create_block(), self.b.create_block());
                    let is = self.switches_to(p, &set, tr.set, to);
                    self.b.ins().brif(is, this, &[], other, &[]);
                    self.b.switch_to_block(this);
                    let tov = self.b.ins().iconst(I32, to as i64);
                    self.b.ins().jump(join, &[BlockArg::Value(tov)]);
                    self.b.switch_to_block(other);
                }
                self.b.ins().jump(fail, &[]);
                self.b.switch_to_block(join);
                (t, self.b.block_params(join)[0])
            }
            _ => {
                let ok = self.test(tr, v, fail);
                self.require(ok, fail);
                (v, self.b.ins().iconst(I32, tr.to as i64))
            }
        }
    }

    /// Ends the block: goes to the block of state `to` (one of `targets`)
    /// at vertex `t`, or to `fail` when it is none of them.
    fn goto_state(
        &mut self,
        to: Value,
        t: Value,
        targets: &[u32],
        blocks: &[Option<Block>],
        fail: Block,
    ) {
        self.b.def_var(self.fr.v, t);
        let mut seen = Vec::new();
        for &q in targets {
            if seen.contains(&q) {
                continue;
            }
            seen.push(q);
            let other = self.b.create_block();
            let is = self.b.ins().icmp_imm(IntCC::Equal, to, q as i64);
            let target = blocks[q as usize].expect("prefix state");
            self.b.ins().brif(is, target, &[], other, &[]);
            self.b.switch_to_block(other);
        }
        self.b.ins().jump(fail, &[]);
    }

    /// One transition; ends the block.
    fn prefix_single(&mut self, tr: &Tr, v: Value, blocks: &[Option<Block>], stuck: Block) {
        let to = |t: u32| blocks[t as usize].expect("prefix state");
        match tr.op {
            Op::Off => {
                let old = self.set_piece_const(v, tr.arg, (true, true));
                self.log(v, old);
                self.bump_version();
            }
            Op::Assign => {
                let Act::Assign(var, e) = &self.c.acts[tr.to as usize] else {
                    unreachable!("decoded from an assignment")
                };
                let val = self.assigned(*var, e, stuck);
                let vars = self.wload(I64, Off::VARS);
                let old = self.b.ins().load(I32, FLAGS, vars, *var as i32 * 4);
                self.b.ins().store(FLAGS, val, vars, *var as i32 * 4);
                let tag = self.b.ins().iconst(I32, (*var | LOG_VAR) as i64);
                self.log(tag, old);
                self.bump_version();
            }
            Op::Switch => {
                let p = self.b.ins().iconst(I32, tr.arg as i64);
                let r = self.b.ins().iconst(I32, tr.to as i64);
                self.wstore(p, Off::SWITCHED);
                self.wstore(r, Off::SWITCHED + 4);
                self.wstore(v, Off::SWITCHED + 8);
                let one = self.b.ins().iconst(I32, 1);
                self.b.ins().return_(&[one]);
                return;
            }
            _ => {
                let (t, tov) = self.prefix_step(tr, v, stuck);
                self.goto_state(tov, t, &targets(self.c, tr), blocks, stuck);
                return;
            }
        }
        self.b.def_var(self.fr.v, v);
        self.b.ins().jump(to(tr.to), &[]);
    }

    /// Steps of which exactly one must pass; ends the block.
    fn prefix_steps(
        &mut self,
        q: u32,
        trs: &[Tr],
        v: Value,
        blocks: &[Option<Block>],
        stuck: Block,
    ) {
        let (sel, selv) = (self.new_var(I32), self.new_var(I32));
        let none = self.b.ins().iconst(I32, NONE as i64);
        self.b.def_var(sel, none);
        self.b.def_var(selv, v);
        let branch = self.b.create_block();
        for tr in trs {
            let next = self.b.create_block();
            let (t, tov) = self.prefix_step(tr, v, next);
            // A second passing step: the rules branch.
            let s = self.b.use_var(sel);
            let first = self.b.ins().icmp_imm(IntCC::Equal, s, NONE as i64);
            self.require(first, branch);
            self.b.def_var(sel, tov);
            self.b.def_var(selv, t);
            self.b.ins().jump(next, &[]);
            self.b.switch_to_block(next);
        }
        let s = self.b.use_var(sel);
        let t = self.b.use_var(selv);
        let all: Vec<u32> = trs.iter().flat_map(|tr| targets(self.c, tr)).collect();
        self.goto_state(s, t, &all, blocks, stuck);
        self.b.switch_to_block(branch);
        self.walk_from(q, v);
    }

    /// Appends (tag, old) to the undo log (at most `MAX_STEPS` entries:
    /// one per state of the prefix).
    fn log(&mut self, tag: Value, old: Value) {
        let len = self.wload(I64, Off::LOG_LEN);
        self.append_pair(Off::LOG, Off::LOG_LEN, len, tag, old);
    }

    /// A fresh version of the walked state (it changed).
    fn bump_version(&mut self) {
        if self.c.num_memos == 0 {
            return;
        }
        let last = self.wload(I64, Off::LAST_VERSION);
        let last = self.b.ins().iadd_imm(last, 1);
        self.wstore(last, Off::LAST_VERSION);
        self.wstore(last, Off::VERSION);
    }

    /// Undoes the log, last entry first.
    fn undo_log(&mut self) {
        let (head, body, done) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(head);
        let len = self.wload(I64, Off::LOG_LEN);
        let any = self.b.ins().icmp_imm(IntCC::NotEqual, len, 0);
        self.b.ins().brif(any, body, &[], done, &[]);
        self.b.switch_to_block(body);
        let len1 = self.b.ins().iadd_imm(len, -1);
        self.wstore(len1, Off::LOG_LEN);
        let log = self.wload(I64, Off::LOG);
        let off = self.b.ins().ishl_imm(len1, 3);
        let a = self.b.ins().iadd(log, off);
        let tag = self.b.ins().load(I32, FLAGS, a, 0);
        let old = self.b.ins().load(I32, FLAGS, a, 4);
        let (var, piece) = (self.b.create_block(), self.b.create_block());
        let is_var = self.b.ins().band_imm(tag, LOG_VAR as i64);
        self.b.ins().brif(is_var, var, &[], piece, &[]);
        self.b.switch_to_block(var);
        let x = self.b.ins().band_imm(tag, !LOG_VAR as i64);
        let vaddr = self.addr_in(Off::VARS, x, 4);
        self.b.ins().store(FLAGS, old, vaddr, 0);
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(piece);
        self.set_piece_dyn(tag, old);
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(done);
    }
}
