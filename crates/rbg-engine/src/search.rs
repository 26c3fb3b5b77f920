//! Move generation: the paper's Algorithm 1, a depth-first walk over
//! (automaton state, vertex) nodes.
//!
//! Modifiers are applied to the state in place and undone on the way back;
//! each modifier application starts a new *level* (a new sequence of applied
//! modifiers) whose visited set is cleared in O(1) by bumping a generation
//! stamp. Patterns are searched by the same walk in a fresh level.
//!
//! The same walk has four modes: collecting every legal move, telling
//! whether a move exists, deciding a pattern (stop at the first accepting
//! state), and completing the keeper (stop at the first switch and keep its
//! modifications).
//!
//! Every walk is bounded (see `crate::error`): a modifier application at a
//! deep level is logged (`watch::PathLog`) to detect a move that comes back
//! to an earlier state, the depth and the number of modifier applications
//! of a search are limited, and so is the keeper's completion
//! (`watch::KeeperWatch`). A fault stops the walk at once: every level
//! unwinds, undoing its modifier.
//!
//! # Performance notes
//!
//! Measure with instructions per state (`valgrind --tool=callgrind`) *and*
//! alternated `rbg bench` runs: fewer instructions are not always faster
//! (see `probe.rs`).
//!
//! - Where the time goes (mill, international draughts, chess): per applied
//!   modifier about 200 instructions of level overhead (`descend`: the move
//!   prefix, the level's generation, the version, the undo with its
//!   piece-list update; `node`'s prologue), besides about 25 instructions
//!   per node visit and 15 per transition.
//! - Tried and rejected: walking modifier levels inside the same loop with
//!   undo markers instead of recursing (7-25% more instructions: every node
//!   pays a tag check); modifier arms out of line (up to 20% more); a
//!   separate smaller walk for patterns without modifiers (1% fewer, no time
//!   difference); several piece tests at a shift's target without entering
//!   its node (no gain); single-chain patterns (`{! left {w}}`) without a
//!   search (no gain: the probes cover trees and loops); the test arms
//!   through the keeper's `step` (14-20% more: its match is not folded into
//!   the caller's).

mod keeper;
mod pattern;
pub(crate) mod watch;

use crate::compile::{apply_op, Act, Compiled, Expr, Op, Tr, NONE};
use crate::error::{limits, Fault, FaultKind};
use crate::moves::{ModApp, MoveList};
use crate::state::State;
use rbg_lang::ast::CmpOp;
use watch::{KeeperWatch, PathLog};

/// What a walk is for: the type parameter of `Searcher::node`, one unit
/// type per mode, so each mode is compiled on its own and the matches on
/// [`Mode::KIND`] are folded and exhaustive.
trait Mode {
    const KIND: Kind;
}

/// The modes of the walk.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Report every move (stop never).
    Collect,
    /// Report whether any move exists (stop at the first).
    Exists,
    /// Decide a pattern: stop at the first accepting state.
    Pattern,
    /// Keeper: apply the first move found and stop.
    Keeper,
}

/// [`Kind::Collect`].
struct Collect;
/// [`Kind::Exists`].
struct Exists;
/// [`Kind::Pattern`].
struct Pattern;
/// [`Kind::Keeper`].
struct Keeper;

impl Mode for Collect {
    const KIND: Kind = Kind::Collect;
}
impl Mode for Exists {
    const KIND: Kind = Kind::Exists;
}
impl Mode for Pattern {
    const KIND: Kind = Kind::Pattern;
}
impl Mode for Keeper {
    const KIND: Kind = Kind::Keeper;
}

/// An applied modifier, for undoing it: the vertex and its previous piece,
/// or the variable and its previous value.
#[derive(Clone, Copy, Debug)]
pub enum Change {
    /// A vertex and the piece it held.
    Piece(u32, u32),
    /// A variable and the value it held.
    Var(u32, i32),
}

impl Change {
    /// Puts back what the modifier replaced.
    #[inline(always)]
    fn revert(self, g: &Compiled, s: &mut State) {
        match self {
            Change::Piece(v, old) => {
                s.set_piece(g, v, old);
            }
            Change::Var(var, old) => s.vars[var as usize] = old,
        }
    }
}

/// Where a keeper's move ends: the player it hands the turn to, and the
/// rules index and vertex that player's moves start from.
#[derive(Clone, Copy, Debug, Default)]
struct Switched {
    player: u32,
    rule_state: u32,
    pos: u32,
}

/// The visited set of the level being walked, borrowed for the walk.
///
/// Holds a raw pointer into the level's stamp buffer: while `node` walks
/// level `l`, only that walk touches level `l`'s stamps (patterns and
/// modifiers begin deeper levels; growing `levels` moves the `Level` values
/// but not their heap buffers).
struct Marks {
    stamps: *mut u32,
    gen: u32,
    num_vertices: usize,
    #[cfg(debug_assertions)]
    len: usize,
}

impl Marks {
    /// Marks the node of a state with visited slot `slot` (or `NONE`) at
    /// vertex `v`; false if it already was marked in this level.
    #[inline(always)]
    fn mark(&self, slot: u32, v: u32) -> bool {
        if slot == NONE {
            return true;
        }
        let i = slot as usize * self.num_vertices + v as usize;
        // `slot < num_slots` and `v < num_vertices`, and every level holds
        // `num_slots * num_vertices` stamps.
        #[cfg(debug_assertions)]
        debug_assert!(i < self.len);
        // SAFETY: in bounds (above); the buffer outlives the walk of the
        // level and nothing else accesses it meanwhile (see the type's doc).
        unsafe {
            let stamp = self.stamps.add(i);
            if *stamp == self.gen {
                false
            } else {
                *stamp = self.gen;
                true
            }
        }
    }
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
    /// Number of slot entries per level (`num_slots * num_vertices`).
    level_size: usize,
    /// Results of memoised patterns (`Compiled::memo_index`) at each
    /// vertex: `version << 1 | result`, valid while `version` is current.
    memo: Vec<u64>,
    /// Identifies the walked state: a fresh number (from `last_version`)
    /// for every root and every applied modifier, restored when the
    /// modifier is undone. Equal versions mean equal states.
    version: u64,
    last_version: u64,
    /// Modifiers applied by the keeper's current move, for undoing it.
    changes: Vec<Change>,
    /// The switch that ended the keeper's search.
    switched: Switched,
    /// Level from which modifier applications take the watched path
    /// (`descend_watched`): `limits::WATCH_FROM_LEVEL`, or 0 after a fault,
    /// so that every further modifier application stops the walk.
    watch_from: usize,
    /// Modifier applications left to the current search.
    budget: u64,
    /// Deepest level a modifier application may start (see
    /// `limits::MAX_LEVELS`).
    max_levels: usize,
    /// The watched part of the current path.
    path: PathLog,
    keeper_watch: KeeperWatch,
    /// Why the current search stopped early, if it did.
    fault: Option<Fault>,
}

impl Searcher {
    pub fn new(g: &Compiled) -> Searcher {
        Searcher {
            levels: Vec::new(),
            cur: Vec::new(),
            stack: Vec::new(),
            out: MoveList::default(),
            level_size: g.num_slots as usize * g.num_vertices as usize,
            memo: vec![0; g.num_memos as usize * g.num_vertices as usize],
            version: 0,
            last_version: 0,
            changes: Vec::new(),
            switched: Switched::default(),
            watch_from: limits::WATCH_FROM_LEVEL,
            budget: limits::MAX_SEARCH_MODIFIERS,
            max_levels: max_levels(g),
            path: PathLog::default(),
            keeper_watch: KeeperWatch::default(),
            fault: None,
        }
    }

    /// The deepest level of a search (see `limits::MAX_LEVELS`).
    pub fn max_levels(&self) -> usize {
        self.max_levels
    }

    /// Prepares the bounds of a new search.
    fn begin_search(&mut self) {
        self.watch_from = limits::WATCH_FROM_LEVEL;
        self.budget = limits::MAX_SEARCH_MODIFIERS;
        self.path.clear();
        self.fault = None;
    }

    /// Ends a search: its fault, if any.
    fn end_search(&mut self) -> Result<(), Fault> {
        match self.fault.take() {
            None => Ok(()),
            Some(f) => {
                self.watch_from = limits::WATCH_FROM_LEVEL;
                self.path.clear();
                Err(f)
            }
        }
    }

    /// Records a fault at action `a`; every walk stops from here on.
    #[cold]
    fn fail(&mut self, kind: FaultKind, a: u32) {
        if self.fault.is_none() {
            self.fault = Some(Fault { kind, action: a });
        }
        self.watch_from = 0;
    }

    /// All legal moves of the player on move (empty for the keeper's turn is
    /// not special-cased: the keeper's moves are listed the same way). On a
    /// fault `out` holds the moves found until then.
    pub fn legal_moves(
        &mut self,
        g: &Compiled,
        s: &mut State,
        out: &mut MoveList,
    ) -> Result<(), Fault> {
        out.clear();
        std::mem::swap(&mut self.out, out);
        self.cur.clear();
        self.begin_search();
        self.root::<Collect>(g, s);
        std::mem::swap(&mut self.out, out);
        self.end_search()
    }

    /// Whether the player on move has a legal move.
    pub fn has_move(&mut self, g: &Compiled, s: &mut State) -> Result<bool, Fault> {
        self.cur.clear();
        self.begin_search();
        let found = self.root::<Exists>(g, s);
        self.end_search().map(|()| found)
    }

    /// Takes a step (see [`is_step`]) from `v` at level 0: moves `v` along a
    /// shift and returns the state reached, or `NONE` if the step fails.
    /// `node` repeats these tests inline in its own arms: calling this from
    /// there costs 14-20% more instructions (the inner match is not folded
    /// into the caller's).
    #[inline(always)]
    fn step(&mut self, g: &Compiled, s: &mut State, tr: &Tr, v: &mut u32) -> u32 {
        if tr.op == Op::ShiftSwitch {
            let t = g.neighbor(*v, tr.arg);
            *v = t;
            return if t == NONE {
                NONE
            } else {
                g.switch_to(tr.set, s.piece(t)).0
            };
        }
        let passed = match tr.op {
            Op::Shift | Op::ShiftOn => {
                let t = g.neighbor(*v, tr.arg);
                *v = t;
                t != NONE && (tr.op == Op::Shift || g.on_set(tr.set, s.piece(t)))
            }
            Op::On => g.on_set(tr.arg, s.piece(*v)),
            Op::Filter => g.filter(tr.arg, *v),
            Op::Noop => true,
            Op::Compare => {
                let Act::Compare(l, op, r) = &g.acts[tr.to as usize] else {
                    unreachable!("decoded from a comparison")
                };
                compare(s, l, *op, r)
            }
            Op::Pattern => {
                let (k, negated) = tr.pattern();
                self.pattern(g, s, k, *v, 0) != negated
            }
            _ => unreachable!("not a step: {:?}", tr.op),
        };
        if passed {
            tr.to
        } else {
            NONE
        }
    }

    /// Gives the walked state a fresh version (it may have changed).
    #[inline(always)]
    fn new_version(&mut self) {
        self.last_version += 1;
        self.version = self.last_version;
    }

    fn root<M: Mode>(&mut self, g: &Compiled, s: &mut State) -> bool {
        g.check_state(s);
        self.new_version();
        let (q, v) = (s.rule_state, s.pos);
        self.node::<M>(g, s, q, v, 0)
    }

    /// Starts a fresh visited set for `level` (O(1): a new generation) and
    /// returns it for the walk of that level.
    #[inline(always)]
    fn begin_level(&mut self, g: &Compiled, level: usize) -> Marks {
        let l = match self.levels.get_mut(level) {
            Some(l) if l.gen != u32::MAX => {
                l.gen += 1;
                l
            }
            _ => self.begin_level_slow(level),
        };
        Marks {
            stamps: l.stamps.as_mut_ptr(),
            gen: l.gen,
            num_vertices: g.num_vertices as usize,
            #[cfg(debug_assertions)]
            len: l.stamps.len(),
        }
    }

    #[cold]
    #[inline(never)]
    fn begin_level_slow(&mut self, level: usize) -> &mut Level {
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
        l
    }

    /// Discovers the targets of a shift table (those holding a piece of the
    /// transition's set when `TEST`), marking them when the target state has
    /// a slot. Returns true to stop.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn push_targets<M: Mode, const TEST: bool>(
        &mut self,
        g: &Compiled,
        s: &State,
        tr: &Tr,
        targets: &[u32],
        marks: &Marks,
        next: &mut (u32, u32),
    ) -> bool {
        for &t in targets {
            if (!TEST || g.on_set(tr.set, s.piece(t)))
                && marks.mark(tr.slot, t)
                && self.found::<M>(g, next, tr, t)
            {
                return true;
            }
        }
        false
    }

    /// Explores every node of one level reachable from (q0, v0) without
    /// applying a modifier, using the shared explicit stack; each modifier
    /// application recurses into the next level. Returns true to stop.
    ///
    /// The walk keeps the last discovered successor of a node in `next`
    /// instead of pushing it, so chains of single successors never touch the
    /// stack.
    fn node<M: Mode>(
        &mut self,
        g: &Compiled,
        s: &mut State,
        q0: u32,
        v0: u32,
        level: usize,
    ) -> bool {
        let base = self.stack.len();
        let (mut q, mut v) = (q0, v0);
        let marks = self.begin_level(g, level);
        // Only the level's root needs this check: every other node is
        // discovered by a transition, and `found` ends a pattern walk when it
        // discovers an accepting node.
        if M::KIND == Kind::Pattern && g.accepting[q as usize] {
            return true;
        }
        loop {
            // Most calls visit few nodes: keep LLVM from hoisting a score of
            // table pointers out of the loop (and spilling them) on every
            // call. Measured: 5-7% fewer instructions per playout.
            let g = std::hint::black_box(g);
            let mut next = (NONE, 0);
            for tr in g.transitions(q) {
                let a = tr.to;
                let stop = match tr.op {
                    Op::Shift => {
                        let t = g.neighbor(v, tr.arg);
                        t != NONE && marks.mark(tr.slot, t) && self.found::<M>(g, &mut next, tr, t)
                    }
                    Op::ShiftOn => {
                        let t = g.neighbor(v, tr.arg);
                        t != NONE
                            && g.on_set(tr.set, s.piece(t))
                            && marks.mark(tr.slot, t)
                            && self.found::<M>(g, &mut next, tr, t)
                    }
                    Op::ShiftSwitch => {
                        let t = g.neighbor(v, tr.arg);
                        if t == NONE {
                            continue;
                        }
                        let (to, slot) = g.switch_to(tr.set, s.piece(t));
                        to != NONE
                            && marks.mark(tr.slot, t)
                            && marks.mark(slot, t)
                            && self.found_state::<M>(g, &mut next, to, t)
                    }
                    Op::Multi => {
                        let targets = g.multi(tr.arg, v);
                        self.push_targets::<M, false>(g, s, tr, targets, &marks, &mut next)
                    }
                    Op::MultiOn => {
                        let targets = g.multi(tr.arg, v);
                        self.push_targets::<M, true>(g, s, tr, targets, &marks, &mut next)
                    }
                    Op::ScanOn => 'scan: {
                        let mut i = tr.arg as usize;
                        while g.set_pieces[i] != NONE {
                            let words = s.piece_bits(g, g.set_pieces[i]);
                            for (w, &word) in words.iter().enumerate() {
                                let mut bits = word;
                                while bits != 0 {
                                    let t = (w * 64) as u32 + bits.trailing_zeros();
                                    bits &= bits - 1;
                                    if marks.mark(tr.slot, t)
                                        && self.found::<M>(g, &mut next, tr, t)
                                    {
                                        break 'scan true;
                                    }
                                }
                            }
                            i += 1;
                        }
                        false
                    }
                    Op::On => {
                        g.on_set(tr.arg, s.piece(v))
                            && marks.mark(tr.slot, v)
                            && self.found::<M>(g, &mut next, tr, v)
                    }
                    Op::Filter => {
                        g.filter(tr.arg, v)
                            && marks.mark(tr.slot, v)
                            && self.found::<M>(g, &mut next, tr, v)
                    }
                    Op::Noop => marks.mark(tr.slot, v) && self.found::<M>(g, &mut next, tr, v),
                    Op::Compare => {
                        let Act::Compare(l, op, r) = &g.acts[a as usize] else {
                            unreachable!("decoded from a comparison")
                        };
                        compare(s, l, *op, r)
                            && marks.mark(tr.slot, v)
                            && self.found::<M>(g, &mut next, tr, v)
                    }
                    Op::Pattern => {
                        // Marking first evaluates a pattern at most once per
                        // (action, vertex, level).
                        let (k, negated) = tr.pattern();
                        marks.mark(tr.slot, v)
                            && self.pattern(g, s, k, v, level) != negated
                            && self.found::<M>(g, &mut next, tr, v)
                    }
                    Op::Off => {
                        if !marks.mark(tr.slot, v) {
                            continue;
                        }
                        let old = s.set_piece(g, v, tr.arg);
                        self.descend::<M>(g, s, a, v, level, Change::Piece(v, old))
                    }
                    Op::Assign => {
                        let Some((var, val)) = assigned(g, s, a) else {
                            continue;
                        };
                        if !marks.mark(tr.slot, v) {
                            continue;
                        }
                        let old = std::mem::replace(&mut s.vars[var as usize], val);
                        self.descend::<M>(g, s, a, v, level, Change::Var(var, old))
                    }
                    Op::Switch => marks.mark(tr.slot, v) && self.switch::<M>(tr, v),
                };
                if stop {
                    self.stack.truncate(base);
                    return true;
                }
            }
            if next.0 != NONE {
                (q, v) = next;
            } else if self.stack.len() > base {
                (q, v) = self.stack.pop().expect("stack above base");
            } else {
                return false;
            }
        }
    }

    /// Records a discovered node (state `tr.to`, vertex `t`): it becomes the
    /// next one to explore and the previously kept one goes on the stack.
    /// Returns true when that ends the walk: a pattern holds as soon as an
    /// accepting node is found. A node whose only transition is a switch
    /// (`Tr::ends`) is not kept: the switch is taken at once.
    #[inline(always)]
    fn found<M: Mode>(&mut self, g: &Compiled, next: &mut (u32, u32), tr: &Tr, t: u32) -> bool {
        if tr.ends {
            return self.switch::<M>(&g.transitions(tr.to)[0], t);
        }
        if next.0 != NONE {
            self.stack.push(*next);
        }
        *next = (tr.to, t);
        accepts::<M>(tr)
    }

    /// Takes switch `sw` at `v`: the move ends. Returns true to stop. (The
    /// keeper's switch is applied to the state by `complete_keeper`.)
    #[inline(always)]
    fn switch<M: Mode>(&mut self, sw: &Tr, v: u32) -> bool {
        match M::KIND {
            Kind::Collect => {
                self.out.push_with(
                    &self.cur,
                    ModApp {
                        action: sw.to,
                        vertex: v,
                    },
                );
                if self.out.num_atoms() > limits::MAX_LISTED_MODIFIERS {
                    self.fail(FaultKind::ManyMoves, sw.to);
                    return true;
                }
                false
            }
            Kind::Exists => true,
            Kind::Keeper => {
                self.switched = Switched {
                    player: sw.arg,
                    rule_state: sw.to,
                    pos: v,
                };
                true
            }
            // Patterns contain no switches (checked by the front end).
            Kind::Pattern => false,
        }
    }

    /// Like [`Searcher::found`], for a node whose state `to` is not the
    /// transition's.
    #[inline(always)]
    fn found_state<M: Mode>(
        &mut self,
        g: &Compiled,
        next: &mut (u32, u32),
        to: u32,
        t: u32,
    ) -> bool {
        if next.0 != NONE {
            self.stack.push(*next);
        }
        *next = (to, t);
        M::KIND == Kind::Pattern && g.accepting[to as usize]
    }

    /// After modifier `a` was applied at `v`: records it, walks the next
    /// level, and undoes it with `undo` unless the keeper stopped there (the
    /// keeper keeps its move). Returns true to stop.
    ///
    /// Deep levels, an exhausted budget and faults take the watched path
    /// (`descend_watched`); the common case pays two comparisons.
    #[inline(always)]
    fn descend<M: Mode>(
        &mut self,
        g: &Compiled,
        s: &mut State,
        a: u32,
        v: u32,
        level: usize,
        undo: Change,
    ) -> bool {
        if level + 1 >= self.watch_from || self.budget == 0 {
            return self.descend_watched::<M>(g, s, a, v, level, undo);
        }
        self.budget -= 1;
        self.next_level::<M>(g, s, a, v, level, undo)
    }

    /// [`Searcher::descend`] at a deep level or after a fault: stops on a
    /// fault, on the limits, or when the state repeats an earlier level's.
    #[cold]
    #[inline(never)]
    fn descend_watched<M: Mode>(
        &mut self,
        g: &Compiled,
        s: &mut State,
        a: u32,
        v: u32,
        level: usize,
        undo: Change,
    ) -> bool {
        let fault = if self.fault.is_some() {
            None
        } else if self.budget == 0 {
            Some(FaultKind::LongSearch)
        } else if level + 1 >= self.max_levels {
            Some(FaultKind::LongMove)
        } else if self.path.enter(g, s, level + 1, a, v, undo) {
            self.path.leave();
            Some(FaultKind::EndlessMove)
        } else {
            self.budget -= 1;
            let stop = self.next_level::<M>(g, s, a, v, level, undo);
            self.path.leave();
            return stop;
        };
        if let Some(kind) = fault {
            self.fail(kind, a);
        }
        undo.revert(g, s);
        true
    }

    /// The body of [`Searcher::descend`].
    #[inline(always)]
    fn next_level<M: Mode>(
        &mut self,
        g: &Compiled,
        s: &mut State,
        a: u32,
        v: u32,
        level: usize,
        undo: Change,
    ) -> bool {
        self.cur.push(ModApp {
            action: a,
            vertex: v,
        });
        let saved_version = self.version;
        self.new_version();
        let stop = self.node::<M>(g, s, a, v, level + 1);
        if stop && M::KIND == Kind::Keeper && self.fault.is_none() {
            return true;
        }
        self.version = saved_version;
        self.cur.pop();
        undo.revert(g, s);
        stop
    }
}

/// The deepest level of a search of `g`: `limits::MAX_LEVELS`, fewer when
/// the levels' visited sets would take more than `limits::LEVEL_MEMORY`.
pub fn max_levels(g: &Compiled) -> usize {
    let level_bytes = (g.num_slots as usize * g.num_vertices as usize * 4).max(1);
    (limits::LEVEL_MEMORY / level_bytes).clamp(limits::MIN_LEVELS, limits::MAX_LEVELS)
}

/// Whether a transition is a test or a single shift: it leads to at most one
/// node and changes nothing.
pub fn is_step(op: Op) -> bool {
    matches!(
        op,
        Op::Shift
            | Op::ShiftOn
            | Op::ShiftSwitch
            | Op::On
            | Op::Filter
            | Op::Noop
            | Op::Compare
            | Op::Pattern
    )
}

/// Whether discovering a node through `tr` decides the walk: in `Pattern` mode
/// mode, when the node's state is accepting.
#[inline(always)]
fn accepts<M: Mode>(tr: &Tr) -> bool {
    M::KIND == Kind::Pattern && tr.accepting
}

/// The variable and value assignment action `a` sets in `s`, or `None` when
/// the value is undefined or out of the variable's bounds (the action then
/// fails).
#[inline(always)]
fn assigned(g: &Compiled, s: &State, a: u32) -> Option<(u32, i32)> {
    let Act::Assign(var, e) = &g.acts[a as usize] else {
        unreachable!("decoded from an assignment")
    };
    let val = eval(s, e)?;
    (0..=g.var_bounds[*var as usize])
        .contains(&val)
        .then_some((*var, val as i32))
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

/// Evaluates a comparison; false when a side is undefined.
#[inline]
pub fn compare(s: &State, l: &Expr, op: CmpOp, r: &Expr) -> bool {
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
