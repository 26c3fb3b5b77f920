//! Levels inlined at their modifier: instead of calling the walk for the
//! level a modifier starts (a native frame, its prologue, the workspace
//! reloaded, the entry jump table), the level's states are emitted again
//! inside the current function, with their own variables, stack base,
//! visited stamps, pop loop and dispatch, exactly as the called walk would
//! run them. Its end (no node left, or a stop) jumps back to the
//! modifier, which undoes itself as after a call. Levels whose states are
//! few transitions and decide no pattern are inlined, a few deep, within a
//! budget of transitions per function (half the function's transitions:
//! code generation time grows with the code).
//!
//! Breakthrough -8% instructions per state, chess -2%, reversi +1%
//! (callgrind). Inlining every small level three deep (twice the
//! transitions) saved no more (chess -2%, reversi +4%) and tripled chess's
//! code and its generation time: the level call (~150 of ~390 instructions
//! per level) is not where most of the time goes; applying and undoing,
//! recording and the walk's own bookkeeping are.

use cranelift_codegen::ir::types::I32;
use cranelift_codegen::ir::{Block, InstBuilder, StackSlot, Value};
use cranelift_codegen::packed_option::ReservedValue;
use cranelift_frontend::Variable;
use rbg_engine::raw::{Compiled, Op, NONE};

use super::{Frame, Mode, Walk};

/// Levels are inlined at most this deep (inside each other).
const MAX_DEPTH: u32 = 3;

/// A level whose states have more transitions than this is called, never
/// inlined.
const MAX_SIZE: usize = 16;

/// How many transitions a function may inline: proportional to its own.
pub(super) fn budget(c: &Compiled, members: &[bool]) -> usize {
    size(c, members) / 2 + 64
}

/// The transitions of `members`.
fn size(c: &Compiled, members: &[bool]) -> usize {
    (0..members.len())
        .filter(|&q| members[q])
        .map(|q| c.transitions(q as u32).len())
        .sum()
}

/// The states of the level that starts at state `q`: those reachable
/// from it without a modifier or a switch, and their number of
/// transitions (`None` past `MAX_SIZE`).
fn level_states(c: &Compiled, q: u32) -> Option<(Vec<bool>, usize)> {
    let n = c.trans_off.len() - 1;
    let mut seen = vec![false; n];
    seen[q as usize] = true;
    let mut todo = vec![q];
    let mut count = 0;
    while let Some(q) = todo.pop() {
        count += c.transitions(q).len();
        if count > MAX_SIZE {
            return None;
        }
        for tr in c.transitions(q) {
            let mut next = Vec::new();
            match tr.op {
                // Only levels that end in switches: a level with modifiers
                // grew the code more than it saved (reversi, chess).
                Op::Off | Op::Assign => return None,
                // Nor levels that decide a pattern: the test is most of
                // such a level's code (chess: 14% of its IR in copies of
                // `{! check} ->opp`), the call saved a small part of it.
                Op::Pattern => return None,
                Op::Switch => {}
                Op::ShiftSwitch => {
                    for p in 0..c.num_pieces {
                        let (to, _) = c.switch_to(tr.set, p);
                        if to != NONE {
                            next.push(to);
                        }
                    }
                }
                _ if tr.ends => {}
                _ => next.push(tr.to),
            }
            for t in next {
                if !seen[t as usize] {
                    seen[t as usize] = true;
                    todo.push(t);
                }
            }
        }
    }
    Some((seen, count))
}

/// Whether a node of one of `members` can be marked visited.
fn has_slots(c: &Compiled, members: &[bool]) -> bool {
    (0..members.len()).filter(|&q| members[q]).any(|q| {
        c.transitions(q as u32).iter().any(|tr| {
            tr.slot != NONE
                || (tr.op == Op::ShiftSwitch
                    && (0..c.num_pieces).any(|p| {
                        let (to, slot) = c.switch_to(tr.set, p);
                        to != NONE && slot != NONE
                    }))
        })
    })
}

impl Frame {
    /// A frame that is replaced before use.
    pub(super) fn placeholder() -> Frame {
        let (no_block, no_var) = (Block::reserved_value(), Variable::from_u32(u32::MAX - 1));
        Frame {
            slot: StackSlot::reserved_value(),
            stamps: false,
            v: no_var,
            q: no_var,
            nq: no_var,
            nv: no_var,
            blocks: Vec::new(),
            stop: no_block,
            pop: no_block,
            dispatch: no_block,
            next_set: false,
            room: 0,
            cands: Vec::new(),
            pushed: Vec::new(),
            exit: None,
            depth: 0,
        }
    }
}

impl Walk<'_, '_> {
    /// The states of the level that modifier `a` starts, when it is small
    /// enough to be inlined here (its transitions are taken from the
    /// budget); `None`: the caller calls the level's walk.
    pub(super) fn inline_members(&mut self, a: u32) -> Option<Vec<bool>> {
        if self.fr.depth >= MAX_DEPTH {
            return None;
        }
        let (members, count) = level_states(self.c, a)?;
        if count > self.inline_budget {
            return None;
        }
        self.inline_budget -= count;
        Some(members)
    }

    /// Walks the level of `members` that modifier `a` (applied at `v`)
    /// starts, inline: returns whether it stopped (an i32), with the block
    /// after the level current.
    pub(super) fn inline_level(&mut self, a: u32, v: Value, members: &[bool]) -> Value {
        // The level's node found last is read after the inlined level:
        // defined again at its exit, so that the SSA construction does not
        // look it up through every block of the inlined level.
        let saved = [self.fr.nq, self.fr.nv].map(|x| (x, self.b.use_var(x)));
        let exit = self.b.create_block();
        self.b.append_block_param(exit, I32);
        let level = self.level();
        let level = self.b.ins().iadd_imm(level, 1);
        let fr = self.frame(level, members, Some(exit), self.fr.depth + 1);
        let parent = std::mem::replace(&mut self.fr, fr);
        if has_slots(self.c, members) {
            self.begin_level();
        }
        self.b.def_var(self.fr.v, v);
        if matches!(self.mode, Mode::Pattern(_)) && self.c.accepting[a as usize] {
            // A pattern's level that starts accepting.
            self.leave(1);
        } else {
            let entry = self.fr.blocks[a as usize].expect("the level's root");
            self.b.ins().jump(entry, &[]);
        }
        self.level_body(members);
        self.fr = parent;
        self.b.switch_to_block(exit);
        for (x, val) in saved {
            self.b.def_var(x, val);
        }
        self.b.block_params(exit)[0]
    }
}
