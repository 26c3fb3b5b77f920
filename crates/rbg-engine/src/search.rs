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

mod expr;
mod keeper;
mod level;
mod mode;
mod pattern;
pub(crate) mod watch;

pub use expr::{compare, eval};
pub use level::{max_levels, Change};

use crate::compile::{Act, Compiled, Op, Tr, NONE};
use crate::error::{limits, Fault, FaultKind};
use crate::moves::{ModApp, MoveList};
use crate::state::State;
use expr::assigned;
use level::{Level, Marks};
use mode::{accepts, Collect, Exists, Keeper, Kind, Mode, Pattern};
use watch::{KeeperWatch, PathLog};

/// Where a keeper's move ends: the player it hands the turn to, and the
/// rules index and vertex that player's moves start from.
#[derive(Clone, Copy, Debug, Default)]
struct Switched {
    player: u32,
    rule_state: u32,
    pos: u32,
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
