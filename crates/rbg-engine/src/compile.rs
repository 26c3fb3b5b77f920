//! Lowering a checked [`rbg_lang::Game`] into dense tables.
//!
//! Every action of the rules (including those inside patterns) gets a global
//! index in textual pre-order. Each regular expression (the rules, and the
//! body of every pattern) becomes a Glushkov (position) automaton: its states
//! are "before anything" (one start state per automaton) and "just after
//! action `i`" (state id `i`), so a state id is exactly the paper's rules
//! index and no epsilon transitions exist. A transition into state `i` means
//! performing action `i`.
//!
//! Invariant used by the search (see `search.rs`): within one level (a fixed
//! sequence of modifier applications) a node (state, vertex) can be entered
//! more than once only if its state has several predecessor states or is
//! entered by a shift along a direction that is not injective on the board.
//! Only those states get a visited-set slot (`Tr::slot`).
//!
//! Unchecked indexing: the walk reads these tables without bounds checks.
//! That is sound because a `State` can only be made by its game
//! (`State::initial`) and changed by that game's actions; every entry point
//! checks the state's game id ([`Compiled::check_state`]) and `apply_raw`
//! checks a move's ranges.
//!
//! The parts: `glushkov.rs` builds the position automata of the rules and
//! the patterns, `tables.rs` the shift tables and filters of vertex-only
//! subexpressions, `transitions.rs` the transitions the walk follows (fused
//! kinds, visited slots); this file holds the tables' types and puts the
//! parts together.

mod glushkov;
mod tables;
mod transitions;

use rbg_lang::ast::{self, Arith, ArithOp, CmpOp};

use crate::probe::Probes;
use crate::state::State;
use glushkov::Builder;

/// Marker for "no vertex" / "no slot".
pub const NONE: u32 = u32::MAX;

/// Most work (nodes visited plus transitions followed) spent on one shift
/// table: above it the expression is left to the walk. The suite's largest
/// table takes 2.7 million (paperSoccer's; go's `anySquare`, 361² targets,
/// 0.27 million).
pub const MAX_TABLE_WORK: u64 = 1 << 22;
/// Most work spent on all the shift tables of a game, those given up
/// included.
pub const MAX_TABLES_WORK: u64 = 1 << 26;
/// Most transitions of the automata (before removing duplicates): the
/// position automaton of `(a1 + ... + an)*` has n² of them. The suite's
/// largest games have tens of thousands.
pub const MAX_TRANSITIONS: u64 = 1 << 23;

/// The rules' automata would have more than [`MAX_TRANSITIONS`]
/// transitions; `at` is the description action (in `Rule::for_each_action`
/// order) that starts the `*` or concatenation where they went past it.
#[derive(Clone, Copy, Debug)]
pub struct TooLarge {
    pub at: Option<usize>,
}

/// Arithmetic expression over the state.
#[derive(Clone, Debug)]
pub enum Expr {
    /// A number.
    Const(i64),
    /// A variable's value (players' scores first).
    Var(u32),
    /// The number of a piece on the board.
    Count(u32),
    /// A binary operation.
    Bin(Box<Expr>, ArithOp, Box<Expr>),
}

/// One action, in executable form.
#[derive(Clone, Debug)]
pub enum Act {
    /// Shift along a direction (the board's, or a deterministic shift
    /// table's extra one).
    Shift(u32),
    /// Index into `Compiled::on_sets` (a row of `num_pieces` booleans).
    On(u32),
    /// Put a piece on the current vertex.
    Off(u32),
    /// Assign an expression to a variable.
    Assign(u32, Expr),
    /// Compare two expressions.
    Compare(Expr, CmpOp, Expr),
    /// Target player; `num_players` means the keeper.
    Switch(u32),
    /// Pattern automaton index and whether it is negated (`{! }`).
    Pattern(u32, bool),
    /// A fused vertex-only subexpression (shifts, no-ops and patterns made
    /// of those): index of its shift table, which lists for every vertex the
    /// vertices the subexpression can end at.
    Multi(u32),
    /// A vertex-only subexpression that never moves (e.g. `{! left}`): the
    /// first cell of its row in `Compiled::filter_ok`.
    Filter(u32),
    /// Does nothing (an empty expression's action).
    Noop,
}

impl Act {
    /// Whether the action changes the state (a modifier: off, assignment,
    /// switch).
    pub fn is_modifier(&self) -> bool {
        matches!(self, Act::Off(_) | Act::Assign(..) | Act::Switch(_))
    }
}

/// Kind of a transition, decoded from its action for the hot loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Op {
    /// [`Act::Shift`] (`arg`: the direction).
    Shift,
    /// [`Act::Multi`] (`arg`: the shift table).
    Multi,
    /// A precomputed vertex test (`arg` is the filter's first cell).
    Filter,
    /// [`Act::On`] (`arg`: the piece set's first cell).
    On,
    /// [`Act::Noop`].
    Noop,
    /// [`Act::Compare`] (looked up in `Compiled::acts`).
    Compare,
    /// A pattern test (`arg`: see [`Tr::pattern`]).
    Pattern,
    /// [`Act::Off`] (`arg`: the piece).
    Off,
    /// [`Act::Assign`] (`arg`: the variable).
    Assign,
    /// [`Act::Switch`] (`arg`: the player).
    Switch,
    /// A shift followed by a piece test (`to` is the test's state).
    ShiftOn,
    /// A shift table followed by a piece test (`to` is the test's state).
    MultiOn,
    /// A shift into a state whose continuations are piece tests of which at
    /// most one can pass: the piece at the target picks the test's state
    /// from the row of `Compiled::switch_rows` starting at `set`; the node
    /// of the shift's state (`to`) is not entered.
    ShiftSwitch,
    /// A shift table reaching every vertex followed by a piece test: scans
    /// the piece lists of the set's pieces (`arg` indexes `set_pieces`).
    ScanOn,
}

/// A transition with everything the walk needs inline: performing action
/// `to` (which is also the target state), its visited slot and its operand
/// (direction, shift table, first cell of the piece set row, piece, player;
/// unused for the kinds that look their action up).
#[derive(Clone, Copy, Debug)]
pub struct Tr {
    /// The kind.
    pub op: Op,
    /// The visited slot of the node entered, or `NONE`.
    pub slot: u32,
    /// The action performed, which is the state entered.
    pub to: u32,
    /// The operand (see [`Op`]).
    pub arg: u32,
    /// For the fused kinds, the first cell of the tested piece set's row.
    pub set: u32,
    /// Whether state `to` is accepting (set once `to` is final).
    pub accepting: bool,
    /// Whether state `to`'s only transition is a switch without a visited
    /// slot: the walk ends the move as soon as it discovers the node.
    pub ends: bool,
}

impl Tr {
    /// The `arg` of an [`Op::Pattern`]: automaton `k`, negated or not.
    pub fn pattern_arg(k: u32, negated: bool) -> u32 {
        k << 1 | negated as u32
    }

    /// An [`Op::Pattern`]'s automaton and whether it is negated (`{! }`).
    #[inline(always)]
    pub fn pattern(&self) -> (u32, bool) {
        (self.arg >> 1, self.arg & 1 != 0)
    }
}

/// The whole game in dense form.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// Unique id of this lowering, stamped on its states.
    pub id: u64,
    /// Players, not counting the keeper (whose number is `num_players`).
    pub num_players: u32,
    /// Pieces.
    pub num_pieces: u32,
    /// Variables, the players' scores first.
    pub num_vars: u32,
    /// Board vertices.
    pub num_vertices: u32,
    /// Directions: the board's, then one per deterministic shift table.
    pub num_dirs: u32,
    /// `neighbors[v * num_dirs + d]`, or `NONE`.
    pub neighbors: Vec<u32>,
    /// The piece on every vertex at the start.
    pub initial_board: Vec<u32>,
    /// Every variable's bound (its values are `0..=bound`).
    pub var_bounds: Vec<i64>,
    /// Every action, by its global index (= the state after it).
    pub acts: Vec<Act>,
    /// `on_sets[set * num_pieces + piece]`.
    pub on_sets: Vec<bool>,
    /// Start state of each automaton; automaton 0 is the rules, the others
    /// are pattern bodies.
    pub starts: Vec<u32>,
    /// Transitions of state `q`: `trans[trans_off[q]..trans_off[q + 1]]`,
    /// each the index of the action performed (= the target state).
    pub trans_off: Vec<u32>,
    /// All transitions, state by state (see `trans_off`).
    pub trans: Vec<Tr>,
    /// Whether a state is final in its automaton.
    pub accepting: Vec<bool>,
    /// Rows of `num_pieces` cells for `Op::ShiftSwitch`: the state of the
    /// test the piece passes and that state's visited slot, or `NONE`s.
    pub switch_rows: Vec<(u32, u32)>,
    /// Visited slots per automaton (the most any automaton needs).
    pub num_slots: u32,
    /// Shift tables: targets of table `t` from vertex `v` are
    /// `multi_targets[multi_off[t * (nv + 1) + v] .. multi_off[t * (nv + 1) + v + 1]]`.
    pub multi_off: Vec<u32>,
    /// The shift tables' targets (see `multi_off`).
    pub multi_targets: Vec<u32>,
    /// For every action: its 1-based modifier number in move text, or 0.
    pub modifier_number: Vec<u32>,
    /// Action index of each modifier number (index 0 unused).
    pub modifier_action: Vec<u32>,
    /// For every piece, the index of the vertex list states keep for it, or
    /// `NONE` when untracked.
    pub piece_list: Vec<u32>,
    /// Number of tracked pieces.
    pub num_lists: u32,
    /// Words of a piece list's bit set (`ceil(num_vertices / 64)`).
    pub words: u32,
    /// Pieces of the sets scanned by `Op::ScanOn`, each set ended by `NONE`.
    pub set_pieces: Vec<u32>,
    /// Filters: `filter_ok[f * num_vertices + v]` tells whether filter `f`
    /// passes at `v`.
    pub filter_ok: Vec<bool>,
    /// For every automaton used by several pattern actions, its index among
    /// those (`NONE` otherwise): the walk remembers their results per level
    /// and vertex, so `{! p} x + {? p} y` evaluates `p` once.
    pub memo_index: Vec<u32>,
    /// Number of memoised automata.
    pub num_memos: u32,
    /// Programs deciding patterns without a search.
    pub probes: Probes,
    /// Vertex-only expressions left to the walk, their shift table being
    /// too costly (see `MAX_TABLE_WORK`); 0 for every suite game.
    pub untabulated: u32,
    /// For every action, the index of the description's action it comes
    /// from (the first of a fused vertex-only group) in the order of
    /// `Rule::for_each_action`.
    pub source: Vec<u32>,
}

impl Compiled {
    /// Targets of shift table `t` from vertex `v`.
    #[inline(always)]
    pub fn multi(&self, t: u32, v: u32) -> &[u32] {
        let i = t as usize * (self.num_vertices as usize + 1) + v as usize;
        debug_assert!(i + 1 < self.multi_off.len());
        // SAFETY: `t` is a table of this game and `v < num_vertices`; every
        // table has `num_vertices + 1` ascending offsets into
        // `multi_targets`.
        unsafe {
            let a = *self.multi_off.get_unchecked(i) as usize;
            let b = *self.multi_off.get_unchecked(i + 1) as usize;
            debug_assert!(a <= b && b <= self.multi_targets.len());
            self.multi_targets.get_unchecked(a..b)
        }
    }

    /// The transitions of state `q`.
    #[inline(always)]
    pub fn transitions(&self, q: u32) -> &[Tr] {
        debug_assert!((q as usize) + 1 < self.trans_off.len());
        // SAFETY: states come from the tables (`check_state` checks the
        // state's rules index), `trans_off` has `n_states + 1` entries and
        // its values are ascending offsets into `trans`.
        unsafe {
            let a = *self.trans_off.get_unchecked(q as usize) as usize;
            let b = *self.trans_off.get_unchecked(q as usize + 1) as usize;
            debug_assert!(a <= b && b <= self.trans.len());
            self.trans.get_unchecked(a..b)
        }
    }

    /// The neighbour of `v` along direction `d`, or `NONE`.
    #[inline(always)]
    pub fn neighbor(&self, v: u32, d: u32) -> u32 {
        let i = (v * self.num_dirs + d) as usize;
        debug_assert!(i < self.neighbors.len());
        // SAFETY: `v < num_vertices` (vertices come from `State::pos`,
        // checked by `check_state`, or from these tables) and
        // `d < num_dirs` (directions come from the description).
        unsafe { *self.neighbors.get_unchecked(i) }
    }

    /// Whether the filter whose row starts at `row` passes at `v`.
    #[inline(always)]
    pub fn filter(&self, row: u32, v: u32) -> bool {
        let i = (row + v) as usize;
        debug_assert!(i < self.filter_ok.len());
        // SAFETY: rows are `num_vertices` long and `v < num_vertices`.
        unsafe { *self.filter_ok.get_unchecked(i) }
    }

    /// The cell of `Op::ShiftSwitch` row `row` for piece `p`.
    #[inline(always)]
    pub fn switch_to(&self, row: u32, p: u32) -> (u32, u32) {
        let i = (row + p) as usize;
        debug_assert!(i < self.switch_rows.len());
        // SAFETY: rows are `num_pieces` long and pieces on the board are
        // `< num_pieces` (checked by `check_state`, kept by offs).
        unsafe { *self.switch_rows.get_unchecked(i) }
    }

    /// Whether piece `p` is in the piece set whose row starts at `row`.
    #[inline(always)]
    pub fn on_set(&self, row: u32, p: u32) -> bool {
        let i = (row + p) as usize;
        debug_assert!(i < self.on_sets.len());
        // SAFETY: rows are `num_pieces` long and pieces on the board are
        // `< num_pieces` (checked by `check_state`, kept by offs).
        unsafe { *self.on_sets.get_unchecked(i) }
    }

    /// Panics unless `s` is a state of this game: the walk indexes its
    /// tables with the state's vertices and pieces without further checks.
    /// States are only made by `State::initial` (with the game's shape and
    /// id) and changed by this game's actions, so the id suffices.
    #[inline]
    pub fn check_state(&self, s: &State) {
        assert!(s.game == self.id, "state does not belong to this game");
    }

    /// Builds the tables.
    pub fn new(game: &ast::Game) -> Result<Compiled, TooLarge> {
        let nv = game.board.vertices.len() as u32;
        let nd = game.board.dirs.len() as u32;
        let mut neighbors = vec![NONE; (nv * nd) as usize];
        for (v, vert) in game.board.vertices.iter().enumerate() {
            for &(d, t) in &vert.edges {
                neighbors[v * nd as usize + d as usize] = t;
            }
        }
        let mut var_bounds: Vec<i64> = game.players.iter().map(|p| p.bound as i64).collect();
        var_bounds.extend(game.variables.iter().map(|p| p.bound as i64));

        let mut b = Builder::new(game, neighbors);
        b.automaton(&game.rules, false);
        if b.follow.full {
            return Err(TooLarge {
                at: b.too_large_at.map(|i| i as usize),
            });
        }
        let (neighbors, nd) = tables::deterministic_tables_as_directions(&mut b);
        let n_acts = b.acts.len();
        let n_states = n_acts + b.automata.len();
        let mut follow: Vec<Vec<u32>> = std::mem::take(&mut b.follow.lists);
        let mut accepting = vec![false; n_states];
        let mut starts = Vec::new();
        for (k, aut) in b.automata.iter().enumerate() {
            let s = n_acts + k;
            starts.push(s as u32);
            follow.push(aut.first.clone());
            accepting[s] = aut.nullable;
            for &l in &aut.last {
                accepting[l as usize] = true;
            }
        }
        for f in follow.iter_mut() {
            f.sort_unstable();
            f.dedup();
        }
        let np = game.pieces.len() as u32;
        let transitions::Transitions {
            trans_off,
            mut trans,
            switch_rows,
            num_slots,
        } = transitions::build(&follow, &accepting, &mut b, &neighbors, nd, np);
        let (multi_off, multi_targets, filter_ok) = (b.multi_off, b.multi_targets, b.filter_ok);
        let mut memo_index = vec![NONE; b.automata.len()];
        for (i, &k) in b.shared_patterns.iter().enumerate() {
            memo_index[k as usize] = i as u32;
        }
        let num_memos = b.shared_patterns.len() as u32;

        // A shift table reaching every vertex from every vertex followed by
        // a piece test (`anySquare {p}`) visits just the vertices holding the
        // tested pieces, read from piece lists the state keeps for them.
        let full = |t: u32| {
            let row = &multi_off[(t * (nv + 1)) as usize..((t + 1) * (nv + 1)) as usize];
            row.windows(2).all(|w| w[1] - w[0] == nv)
        };
        let mut piece_list = vec![NONE; np as usize];
        let mut num_lists = 0;
        let mut set_pieces = Vec::new();
        for tr in trans.iter_mut() {
            if tr.op == Op::MultiOn && full(tr.arg) {
                tr.op = Op::ScanOn;
                tr.arg = set_pieces.len() as u32;
                for p in 0..np {
                    if b.on_sets[(tr.set + p) as usize] {
                        set_pieces.push(p);
                        if piece_list[p as usize] == NONE {
                            piece_list[p as usize] = num_lists;
                            num_lists += 1;
                        }
                    }
                }
                set_pieces.push(NONE);
            }
        }
        let mut modifier_number = vec![0; n_acts];
        let mut modifier_action = vec![NONE];
        for (i, a) in b.acts.iter().enumerate() {
            if a.is_modifier() && !b.in_pattern[i] {
                modifier_number[i] = modifier_action.len() as u32;
                modifier_action.push(i as u32);
            }
        }
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let mut c = Compiled {
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            num_players: game.players.len() as u32,
            num_pieces: game.pieces.len() as u32,
            num_vars: var_bounds.len() as u32,
            num_vertices: nv,
            num_dirs: nd,
            neighbors,
            initial_board: game.board.vertices.iter().map(|v| v.piece).collect(),
            var_bounds,
            acts: b.acts,
            on_sets: b.on_sets,
            starts,
            trans_off,
            trans,
            accepting,
            switch_rows,
            num_slots,
            multi_off,
            multi_targets,
            modifier_number,
            modifier_action,
            piece_list,
            num_lists,
            words: nv.div_ceil(64),
            set_pieces,
            filter_ok,
            memo_index,
            num_memos,
            probes: Probes::default(),
            source: b.source,
            untabulated: b.untabulated,
        };
        c.probes = Probes::build(&c);
        Ok(c)
    }
}

fn expr(a: &Arith) -> Expr {
    match a {
        Arith::Num(n) => Expr::Const(*n),
        Arith::Var(v) => Expr::Var(*v),
        Arith::PieceCount(p) => Expr::Count(*p),
        Arith::Bin(l, op, r) => {
            let (l, r) = (expr(l), expr(r));
            if let (Expr::Const(x), Expr::Const(y)) = (&l, &r) {
                if let Some(v) = apply_op(*x, *op, *y) {
                    return Expr::Const(v);
                }
            }
            Expr::Bin(Box::new(l), *op, Box::new(r))
        }
    }
}

/// Applies an arithmetic operator; `None` on overflow or division by zero.
#[inline]
pub fn apply_op(x: i64, op: ArithOp, y: i64) -> Option<i64> {
    match op {
        ArithOp::Add => x.checked_add(y),
        ArithOp::Sub => x.checked_sub(y),
        ArithOp::Mul => x.checked_mul(y),
        ArithOp::Div => x.checked_div(y),
    }
}
