//! Move generation: the paper's Algorithm 1, a depth-first walk over
//! (automaton state, vertex) nodes.
//!
//! Modifiers are applied to the state in place and undone on the way back;
//! each modifier application starts a new *level* (a new sequence of applied
//! modifiers) whose visited set is cleared in O(1) by bumping a generation
//! stamp. Patterns are searched by the same walk in a fresh level.
//!
//! The same walk has three modes: collecting every legal move, deciding a
//! pattern (stop at the first accepting state), and completing the keeper
//! (stop at the first switch and keep its modifications).

use crate::compile::{apply_op, Act, Compiled, Expr, Op, NONE};
use crate::moves::{ModApp, MoveList};
use crate::state::State;
use rbg_lang::ast::CmpOp;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    /// Report every move (stop never).
    Collect,
    /// Report whether any move exists (stop at the first).
    Exists,
    /// Decide a pattern: stop at the first accepting state.
    Pattern,
    /// Keeper: apply the first move found and stop.
    Keeper,
}

/// How to undo a modifier: the previous piece, or variable and value.
enum Undo {
    Piece(u32),
    Var(u32, i32),
}

#[derive(Clone, Default)]
struct Level {
    gen: u32,
    stamps: Vec<u32>,
}

/// Reusable search workspace for one game. Not shared between threads; make
/// one per thread.
#[derive(Clone)]
pub struct Searcher {
    levels: Vec<Level>,
    cur: Vec<ModApp>,
    /// Pending nodes (state, vertex) of the levels being walked.
    stack: Vec<(u32, u32)>,
    out: MoveList,
    mode: Mode,
    /// Number of slot entries per level (`num_slots * num_vertices`).
    level_size: usize,
}

impl Searcher {
    pub fn new(g: &Compiled) -> Searcher {
        Searcher {
            levels: Vec::new(),
            cur: Vec::new(),
            stack: Vec::new(),
            out: MoveList::default(),
            mode: Mode::Collect,
            level_size: g.num_slots as usize * g.num_vertices as usize,
        }
    }

    /// All legal moves of the player on move (empty for the keeper's turn is
    /// not special-cased: the keeper's moves are listed the same way).
    pub fn legal_moves(&mut self, g: &Compiled, s: &mut State, out: &mut MoveList) {
        out.clear();
        std::mem::swap(&mut self.out, out);
        self.mode = Mode::Collect;
        self.cur.clear();
        self.root(g, s);
        std::mem::swap(&mut self.out, out);
    }

    /// Whether the player on move has a legal move.
    pub fn has_move(&mut self, g: &Compiled, s: &mut State) -> bool {
        self.mode = Mode::Exists;
        self.cur.clear();
        self.root(g, s)
    }

    /// While the keeper is on move, applies its first legal move. Returns
    /// `false` if the keeper got stuck (the game is over).
    pub fn complete_keeper(&mut self, g: &Compiled, s: &mut State) -> bool {
        while s.player == g.num_players {
            self.mode = Mode::Keeper;
            self.cur.clear();
            if !self.root(g, s) {
                return false;
            }
        }
        true
    }

    fn root(&mut self, g: &Compiled, s: &mut State) -> bool {
        let (q, v) = (s.rule_state, s.pos);
        self.begin_level(0);
        self.node(g, s, q, v, 0)
    }

    #[inline]
    fn begin_level(&mut self, level: usize) {
        if level >= self.levels.len() {
            self.levels.resize_with(level + 1, || Level {
                gen: 0,
                stamps: vec![0; self.level_size],
            });
        }
        let l = &mut self.levels[level];
        l.gen = l.gen.wrapping_add(1);
        if l.gen == 0 {
            l.stamps.iter_mut().for_each(|x| *x = 0);
            l.gen = 1;
        }
    }

    /// Marks a node whose state has visited slot `slot` (or `NONE`) at
    /// vertex `v` in `level`; false if it already was marked.
    #[inline(always)]
    fn mark_slot(&mut self, g: &Compiled, slot: u32, v: u32, level: usize) -> bool {
        if slot == NONE {
            return true;
        }
        let l = &mut self.levels[level];
        let i = slot as usize * g.num_vertices as usize + v as usize;
        // `slot < num_slots` and `v < num_vertices`, and every level holds
        // `num_slots * num_vertices` stamps.
        debug_assert!(i < l.stamps.len());
        let stamp = unsafe { l.stamps.get_unchecked_mut(i) };
        if *stamp == l.gen {
            false
        } else {
            *stamp = l.gen;
            true
        }
    }

    /// Marks the targets of a shift table and pushes the new ones.
    #[inline(always)]
    fn push_targets(&mut self, g: &Compiled, a: u32, slot: u32, targets: &[u32], level: usize) {
        debug_assert!(slot != NONE, "shift-table states always have a slot");
        let l = &mut self.levels[level];
        let base = slot as usize * g.num_vertices as usize;
        let stamps = &mut l.stamps[base..base + g.num_vertices as usize];
        for &t in targets {
            let stamp = &mut stamps[t as usize];
            if *stamp != l.gen {
                *stamp = l.gen;
                self.stack.push((a, t));
            }
        }
    }

    /// Explores every node of one level reachable from (q0, v0) without
    /// applying a modifier, using the shared explicit stack; each modifier
    /// application recurses into the next level. Returns true to stop.
    fn node(&mut self, g: &Compiled, s: &mut State, q0: u32, v0: u32, level: usize) -> bool {
        let base = self.stack.len();
        self.stack.push((q0, v0));
        while self.stack.len() > base {
            let (q, v) = self.stack.pop().expect("stack above base");
            if self.mode == Mode::Pattern && g.accepting[q as usize] {
                self.stack.truncate(base);
                return true;
            }
            for tr in g.transitions(q) {
                let a = tr.to;
                let stop = match tr.op {
                    Op::Shift => {
                        let t = g.neighbors[(v * g.num_dirs + tr.arg) as usize];
                        if t != NONE && self.mark_slot(g, tr.slot, t, level) {
                            self.stack.push((a, t));
                        }
                        false
                    }
                    Op::Multi => {
                        self.push_targets(g, a, tr.slot, g.multi(tr.arg, v), level);
                        false
                    }
                    Op::On => {
                        let piece = s.board[v as usize];
                        if g.on_sets[(tr.arg + piece) as usize]
                            && self.mark_slot(g, tr.slot, v, level)
                        {
                            self.stack.push((a, v));
                        }
                        false
                    }
                    Op::Noop => {
                        if self.mark_slot(g, tr.slot, v, level) {
                            self.stack.push((a, v));
                        }
                        false
                    }
                    Op::Compare => {
                        let Act::Compare(l, op, r) = &g.acts[a as usize] else {
                            unreachable!("decoded from a comparison")
                        };
                        if compare(s, l, *op, r) && self.mark_slot(g, tr.slot, v, level) {
                            self.stack.push((a, v));
                        }
                        false
                    }
                    Op::Pattern => {
                        // Marking first evaluates a pattern at most once per
                        // (action, vertex, level).
                        let negated = tr.arg & 1 != 0;
                        if self.mark_slot(g, tr.slot, v, level)
                            && self.pattern(g, s, tr.arg >> 1, v, level) != negated
                        {
                            self.stack.push((a, v));
                        }
                        false
                    }
                    Op::Off => {
                        if !self.mark_slot(g, tr.slot, v, level) {
                            continue;
                        }
                        let old = s.set_piece(v, tr.arg);
                        self.descend(g, s, a, v, level, Undo::Piece(old))
                    }
                    Op::Assign => {
                        let Act::Assign(var, e) = &g.acts[a as usize] else {
                            unreachable!("decoded from an assignment")
                        };
                        let Some(val) = eval(s, e) else { continue };
                        if val < 0
                            || val > g.var_bounds[*var as usize]
                            || !self.mark_slot(g, tr.slot, v, level)
                        {
                            continue;
                        }
                        let old = std::mem::replace(&mut s.vars[*var as usize], val as i32);
                        self.descend(g, s, a, v, level, Undo::Var(*var, old))
                    }
                    Op::Switch => {
                        if !self.mark_slot(g, tr.slot, v, level) {
                            continue;
                        }
                        match self.mode {
                            Mode::Collect => {
                                self.out.push_with(
                                    &self.cur,
                                    ModApp {
                                        action: a,
                                        vertex: v,
                                    },
                                );
                                false
                            }
                            Mode::Exists => true,
                            Mode::Keeper => {
                                s.player = tr.arg;
                                s.rule_state = a;
                                s.pos = v;
                                true
                            }
                            // Patterns contain no switches (checked by the front end).
                            Mode::Pattern => false,
                        }
                    }
                };
                if stop {
                    self.stack.truncate(base);
                    return true;
                }
            }
        }
        false
    }

    /// After modifier `a` was applied at `v`: records it, walks the next
    /// level, and undoes it with `undo` unless the keeper stopped there (the
    /// keeper keeps its move). Returns true to stop.
    fn descend(
        &mut self,
        g: &Compiled,
        s: &mut State,
        a: u32,
        v: u32,
        level: usize,
        undo: Undo,
    ) -> bool {
        self.cur.push(ModApp {
            action: a,
            vertex: v,
        });
        self.begin_level(level + 1);
        let stop = self.node(g, s, a, v, level + 1);
        if stop && self.mode == Mode::Keeper {
            return true;
        }
        self.cur.pop();
        match undo {
            Undo::Piece(old) => {
                s.set_piece(v, old);
            }
            Undo::Var(var, old) => s.vars[var as usize] = old,
        }
        stop
    }

    /// Evaluates pattern automaton `k` at vertex `v`: true iff some path
    /// reaches an accepting state. The state is left unchanged.
    fn pattern(&mut self, g: &Compiled, s: &mut State, k: u32, v: u32, level: usize) -> bool {
        let saved_mode = self.mode;
        let saved_len = self.cur.len();
        self.mode = Mode::Pattern;
        let lvl = level + 1;
        self.begin_level(lvl);
        let start = g.starts[k as usize];
        let found = self.node(g, s, start, v, lvl);
        self.mode = saved_mode;
        self.cur.truncate(saved_len);
        found
    }
}

/// Evaluates an expression; `None` on overflow or division by zero.
#[inline]
pub fn eval(s: &State, e: &Expr) -> Option<i64> {
    match e {
        Expr::Const(c) => Some(*c),
        Expr::Var(v) => Some(s.vars[*v as usize] as i64),
        Expr::Count(p) => Some(s.counts[*p as usize] as i64),
        Expr::Bin(l, op, r) => apply_op(eval(s, l)?, *op, eval(s, r)?),
    }
}

#[inline]
fn compare(s: &State, l: &Expr, op: CmpOp, r: &Expr) -> bool {
    let (Some(x), Some(y)) = (eval(s, l), eval(s, r)) else {
        return false;
    };
    match op {
        CmpOp::Lt => x < y,
        CmpOp::Le => x <= y,
        CmpOp::Eq => x == y,
        CmpOp::Ne => x != y,
        CmpOp::Gt => x > y,
        CmpOp::Ge => x >= y,
    }
}
