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
//! Only those states get a visited-set slot (`Compiled::slot`).

use rbg_lang::ast::{self, Action, Arith, ArithOp, CmpOp, Rule};

use crate::probe::Probes;
use crate::state::State;

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
    Const(i64),
    Var(u32),
    Count(u32),
    Bin(Box<Expr>, ArithOp, Box<Expr>),
}

/// One action, in executable form.
#[derive(Clone, Debug)]
pub enum Act {
    Shift(u32),
    /// Index into `Compiled::on_sets` (a row of `num_pieces` booleans).
    On(u32),
    Off(u32),
    Assign(u32, Expr),
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
    Noop,
}

impl Act {
    pub fn is_modifier(&self) -> bool {
        matches!(self, Act::Off(_) | Act::Assign(..) | Act::Switch(_))
    }
}

/// Kind of a transition, decoded from its action for the hot loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Op {
    Shift,
    Multi,
    /// A precomputed vertex test (`arg` is the filter's first cell).
    Filter,
    On,
    Noop,
    Compare,
    Pattern,
    Off,
    Assign,
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
    pub op: Op,
    pub slot: u32,
    pub to: u32,
    pub arg: u32,
    /// For the fused kinds, the first cell of the tested piece set's row.
    pub set: u32,
    /// Whether state `to` is accepting (set once `to` is final).
    pub accepting: bool,
    /// Whether state `to`'s only transition is a switch without a visited
    /// slot: the walk ends the move as soon as it discovers the node.
    pub ends: bool,
}

/// The whole game in dense form.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// Unique id of this lowering, stamped on its states.
    pub id: u64,
    pub num_players: u32,
    pub num_pieces: u32,
    pub num_vars: u32,
    pub num_vertices: u32,
    pub num_dirs: u32,
    /// `neighbors[v * num_dirs + d]`, or `NONE`.
    pub neighbors: Vec<u32>,
    pub initial_board: Vec<u32>,
    pub var_bounds: Vec<i64>,
    pub acts: Vec<Act>,
    /// `on_sets[set * num_pieces + piece]`.
    pub on_sets: Vec<bool>,
    /// Start state of each automaton; automaton 0 is the rules, the others
    /// are pattern bodies.
    pub starts: Vec<u32>,
    /// Transitions of state `q`: `trans[trans_off[q]..trans_off[q + 1]]`,
    /// each the index of the action performed (= the target state).
    pub trans_off: Vec<u32>,
    pub trans: Vec<Tr>,
    /// Whether a state is final in its automaton.
    pub accepting: Vec<bool>,
    /// Rows of `num_pieces` cells for `Op::ShiftSwitch`: the state of the
    /// test the piece passes and that state's visited slot, or `NONE`s.
    pub switch_rows: Vec<(u32, u32)>,
    pub num_slots: u32,
    /// Shift tables: targets of table `t` from vertex `v` are
    /// `multi_targets[multi_off[t * (nv + 1) + v] .. multi_off[t * (nv + 1) + v + 1]]`.
    pub multi_off: Vec<u32>,
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
    /// too costly (see [`MAX_TABLE_WORK`]); 0 for every suite game.
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

        let mut b = Builder {
            neighbors: neighbors.clone(),
            num_vertices: nv,
            num_dirs: nd,
            multi_off: Vec::new(),
            multi_targets: Vec::new(),
            multi_ids: std::collections::HashMap::new(),
            table_work: MAX_TABLES_WORK,
            untabulated: 0,
            filter_ok: Vec::new(),
            pattern_ids: std::collections::HashMap::new(),
            shared_patterns: std::collections::BTreeSet::new(),
            num_pieces: game.pieces.len() as u32,
            num_players: game.players.len() as u32,
            acts: Vec::new(),
            on_sets: Vec::new(),
            follow: Follow::new(MAX_TRANSITIONS),
            too_large_at: None,
            in_pattern: Vec::new(),
            owner: Vec::new(),
            building: 0,
            automata: Vec::new(),
            source: Vec::new(),
            next_source: 0,
        };
        b.automaton(&game.rules, false);
        if b.follow.full {
            return Err(TooLarge {
                at: b.too_large_at.map(|i| i as usize),
            });
        }
        let (neighbors, nd) = deterministic_tables_as_directions(&mut b);
        let injective: Vec<bool> = (0..nd)
            .map(|d| {
                let mut seen = vec![false; nv as usize];
                (0..nv).all(|v| {
                    let t = neighbors[(v * nd + d) as usize];
                    t == NONE || !std::mem::replace(&mut seen[t as usize], true)
                })
            })
            .collect();

        let n_acts = b.acts.len();
        let n_states = n_acts + b.automata.len();
        let mut follow: Vec<Vec<u32>> = b.follow.lists;
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
        let (slot, num_slots) = visited_slots(&follow, &b.acts, &b.owner, &injective, n_acts);
        let mut indegree = vec![0u32; n_states];
        for &t in follow.iter().flatten() {
            indegree[t as usize] += 1;
        }
        let np = game.pieces.len() as u32;
        let decode = |t: u32| -> (Op, u32) {
            match b.acts[t as usize] {
                Act::Shift(d) => (Op::Shift, d),
                Act::Multi(tab) => (Op::Multi, tab),
                Act::Filter(row) => (Op::Filter, row),
                Act::On(set) => (Op::On, set * np),
                Act::Noop => (Op::Noop, 0),
                Act::Compare(..) => (Op::Compare, 0),
                Act::Pattern(k, negated) => (Op::Pattern, k << 1 | negated as u32),
                Act::Off(p) => (Op::Off, p),
                Act::Assign(var, _) => (Op::Assign, var),
                Act::Switch(p) => (Op::Switch, p),
            }
        };
        let mut switch_rows = Vec::new();
        let mut trans_off = Vec::with_capacity(n_states + 1);
        let mut trans = Vec::new();
        for f in &follow {
            trans_off.push(trans.len() as u32);
            for &t in f {
                let (op, arg) = decode(t);
                let mut tr = Tr {
                    op,
                    slot: slot[t as usize],
                    to: t,
                    arg,
                    set: 0,
                    accepting: false,
                    ends: false,
                };
                // Test pieces before entering the node of a shift into a
                // non-accepting state whose continuations are all piece
                // tests. With a single test reached from nowhere else the
                // shift state's node is skipped altogether (its slot dedups
                // the test's node equally well: the test keeps the vertex
                // and has no other predecessor); otherwise the node is
                // entered only where some test can pass (the union of the
                // sets).
                let nexts = &follow[t as usize];
                let all_tests = !nexts.is_empty() && nexts.iter().all(|&x| decode(x).0 == Op::On);
                if matches!(op, Op::Shift | Op::Multi) && all_tests && !accepting[t as usize] {
                    tr.op = if op == Op::Shift {
                        Op::ShiftOn
                    } else {
                        Op::MultiOn
                    };
                    match nexts[..] {
                        [only] if indegree[only as usize] == 1 => {
                            tr.to = only;
                            tr.set = decode(only).1;
                        }
                        _ if op == Op::Shift
                            && disjoint_sets(
                                &b.on_sets,
                                nexts.iter().map(|&x| decode(x).1),
                                np,
                            ) =>
                        {
                            // The piece at the target picks the one test
                            // that can pass: go straight to its node.
                            tr.op = Op::ShiftSwitch;
                            tr.set = switch_rows.len() as u32;
                            let mut row = vec![(NONE, NONE); np as usize];
                            for &x in nexts {
                                let set = decode(x).1;
                                for (p, cell) in row.iter_mut().enumerate() {
                                    if b.on_sets[(set + p as u32) as usize] {
                                        *cell = (x, slot[x as usize]);
                                    }
                                }
                            }
                            switch_rows.extend(row);
                        }
                        _ => {
                            tr.set = b.on_sets.len() as u32;
                            let mut row = vec![false; np as usize];
                            for &x in nexts {
                                let set = decode(x).1 as usize;
                                for (p, cell) in row.iter_mut().enumerate() {
                                    *cell |= b.on_sets[set + p];
                                }
                            }
                            b.on_sets.extend(row);
                        }
                    }
                }
                trans.push(tr);
            }
        }
        trans_off.push(trans.len() as u32);
        let ends: Vec<bool> = (0..n_states)
            .map(
                |q| match &trans[trans_off[q] as usize..trans_off[q + 1] as usize] {
                    [only] => only.op == Op::Switch && only.slot == NONE,
                    _ => false,
                },
            )
            .collect();
        for tr in trans.iter_mut() {
            tr.accepting = accepting[tr.to as usize];
            tr.ends = tr.op != Op::ShiftSwitch && ends[tr.to as usize];
        }
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

/// Turns every shift table that is a partial function (at most one target
/// per vertex, e.g. `up left` or `{? up} down^2`) into an extra direction, so
/// the walk follows it with one lookup. Returns the extended neighbour table
/// and its number of directions.
fn deterministic_tables_as_directions(b: &mut Builder) -> (Vec<u32>, u32) {
    let nv = b.num_vertices as usize;
    let nd = b.num_dirs as usize;
    let mut columns: Vec<Vec<u32>> = (0..nd)
        .map(|d| (0..nv).map(|v| b.neighbors[v * nd + d]).collect())
        .collect();
    let mut dir_of_table = std::collections::HashMap::new();
    for act in &b.acts {
        let Act::Multi(t) = *act else { continue };
        dir_of_table.entry(t).or_insert_with(|| {
            let vertices = 0..b.num_vertices;
            if vertices.clone().any(|v| b.table_targets(t, v).len() > 1) {
                return NONE;
            }
            let column = vertices
                .map(|v| b.table_targets(t, v).first().copied().unwrap_or(NONE))
                .collect();
            columns.push(column);
            columns.len() as u32 - 1
        });
    }
    for act in b.acts.iter_mut() {
        if let Act::Multi(t) = *act {
            if dir_of_table[&t] != NONE {
                *act = Act::Shift(dir_of_table[&t]);
            }
        }
    }
    let nd = columns.len();
    let mut neighbors = vec![NONE; nv * nd];
    for (d, column) in columns.iter().enumerate() {
        for (v, &t) in column.iter().enumerate() {
            neighbors[v * nd + d] = t;
        }
    }
    (neighbors, nd as u32)
}

/// Whether no piece is in two of the piece sets starting at `rows`.
fn disjoint_sets(on_sets: &[bool], rows: impl Iterator<Item = u32> + Clone, np: u32) -> bool {
    (0..np).all(|p| rows.clone().filter(|&r| on_sets[(r + p) as usize]).count() <= 1)
}

/// Assigns visited-set slots to the states that need one.
///
/// Within one level (fixed applied modifiers) a state is *visited once*
/// (at one vertex at most) if it is a root of the level (a start state, or a
/// modifier, whose entering begins a new level) or if its single predecessor
/// is visited once and its action is not a shift table. A state whose
/// single predecessor is visited once needs no slot: one node leads to
/// distinct nodes (a shift table lists distinct targets). Neither does a
/// state whose single incoming action maps distinct vertices to distinct
/// vertices (a vertex-keeping test or an injective shift). The others get a
/// slot, checked when the node is discovered.
fn visited_slots(
    follow: &[Vec<u32>],
    acts: &[Act],
    owner: &[u32],
    injective: &[bool],
    n_acts: usize,
) -> (Vec<u32>, u32) {
    let n = follow.len();
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (q, f) in follow.iter().enumerate() {
        for &t in f {
            preds[t as usize].push(q as u32);
        }
    }
    let root = |q: usize| q >= n_acts || acts[q].is_modifier();
    let mut once: Vec<bool> = (0..n).map(root).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for q in 0..n {
            if !once[q]
                && preds[q].len() == 1
                && once[preds[q][0] as usize]
                && !matches!(acts[q], Act::Multi(_))
            {
                once[q] = true;
                changed = true;
            }
        }
    }
    let mut slot = vec![NONE; n];
    let mut next = vec![0; n - n_acts];
    for q in 0..n_acts {
        let single_from_once = preds[q].len() == 1 && once[preds[q][0] as usize];
        let spreading = match acts[q] {
            Act::Shift(d) => !injective[d as usize],
            Act::Multi(_) => true,
            _ => false,
        };
        if !single_from_once && (preds[q].len() >= 2 || spreading) {
            let k = owner[q] as usize;
            slot[q] = next[k];
            next[k] += 1;
        }
    }
    (slot, next.into_iter().max().unwrap_or(0))
}

struct AutInfo {
    nullable: bool,
    first: Vec<u32>,
    last: Vec<u32>,
}

struct Builder {
    neighbors: Vec<u32>,
    num_vertices: u32,
    num_dirs: u32,
    multi_off: Vec<u32>,
    multi_targets: Vec<u32>,
    /// Shift table of each vertex-only expression (by its text); `None`
    /// when it would cost too much (see [`MAX_TABLE_WORK`]).
    multi_ids: std::collections::HashMap<String, Option<u32>>,
    /// Work left for building tables (see [`MAX_TABLES_WORK`]).
    table_work: u64,
    /// Vertex-only expressions left to the walk because their table would
    /// cost too much.
    untabulated: u32,
    /// Filter rows (`num_vertices` cells each), see `Compiled::filter_ok`.
    filter_ok: Vec<bool>,
    /// Pattern automaton of each pattern body (by its text).
    pattern_ids: std::collections::HashMap<String, u32>,
    /// Pattern automata used by more than one pattern action.
    shared_patterns: std::collections::BTreeSet<u32>,
    num_pieces: u32,
    num_players: u32,
    acts: Vec<Act>,
    on_sets: Vec<bool>,
    follow: Follow,
    /// Where the automata first went past [`MAX_TRANSITIONS`] (see
    /// [`TooLarge`]).
    too_large_at: Option<u32>,
    in_pattern: Vec<bool>,
    /// Automaton of every action (a pattern's actions belong to the
    /// pattern's automaton, not to the enclosing one).
    owner: Vec<u32>,
    /// Automaton being built.
    building: u32,
    automata: Vec<AutInfo>,
    /// See `Compiled::source`.
    source: Vec<u32>,
    /// Index of the next description action to be lowered.
    next_source: u32,
}

/// The follow sets of a position automaton being built, with a bound on
/// their total size (see [`MAX_TRANSITIONS`]).
struct Follow {
    /// `lists[i]`: the positions that can follow position `i`.
    lists: Vec<Vec<u32>>,
    edges: u64,
    limit: u64,
    /// Set once an addition went past the limit: the automaton is
    /// incomplete and must not be used.
    full: bool,
}

impl Follow {
    fn new(limit: u64) -> Follow {
        Follow {
            lists: Vec::new(),
            edges: 0,
            limit,
            full: false,
        }
    }

    /// A new position with no successors yet.
    fn push(&mut self) {
        self.lists.push(Vec::new());
    }

    /// `to` may follow position `from`.
    fn add(&mut self, from: u32, to: &[u32]) {
        self.edges += to.len() as u64;
        if self.edges > self.limit {
            self.full = true;
        } else {
            self.lists[from as usize].extend_from_slice(to);
        }
    }
}

/// Glushkov data of a subexpression.
struct Pos {
    nullable: bool,
    first: Vec<u32>,
    last: Vec<u32>,
}

impl Pos {
    /// A single position `i`.
    fn leaf(i: u32) -> Pos {
        Pos {
            nullable: false,
            first: vec![i],
            last: vec![i],
        }
    }

    /// The empty concatenation (start of a fold with [`Pos::then`]).
    fn epsilon() -> Pos {
        Pos {
            nullable: true,
            first: vec![],
            last: vec![],
        }
    }

    /// The empty sum (start of a fold with [`Pos::or`]).
    fn nothing() -> Pos {
        Pos {
            nullable: false,
            first: vec![],
            last: vec![],
        }
    }

    /// Concatenates `p` after `self`, adding the follow edges between them.
    fn then(&mut self, p: Pos, follow: &mut Follow) {
        for &l in &self.last {
            follow.add(l, &p.first);
        }
        if self.nullable {
            self.first.extend_from_slice(&p.first);
        }
        if p.nullable {
            self.last.extend_from_slice(&p.last);
        } else {
            self.last = p.last;
        }
        self.nullable &= p.nullable;
    }

    /// Adds `p` as an alternative.
    fn or(&mut self, p: Pos) {
        self.nullable |= p.nullable;
        self.first.extend(p.first);
        self.last.extend(p.last);
    }

    /// The Kleene star of `self`, adding the loop edges.
    fn star(self, follow: &mut Follow) -> Pos {
        for &l in &self.last {
            follow.add(l, &self.first);
        }
        Pos {
            nullable: true,
            ..self
        }
    }
}

impl Builder {
    /// Builds the automaton of `rule`, returning its index.
    fn automaton(&mut self, rule: &Rule, in_pattern: bool) -> u32 {
        let k = self.automata.len();
        self.automata.push(AutInfo {
            nullable: false,
            first: vec![],
            last: vec![],
        });
        let outer = std::mem::replace(&mut self.building, k as u32);
        let p = self.build(rule, in_pattern);
        self.building = outer;
        self.automata[k] = AutInfo {
            nullable: p.nullable,
            first: p.first,
            last: p.last,
        };
        k as u32
    }

    /// Adds a new action, made from the next `described` actions of the
    /// description, and returns its Glushkov data.
    fn leaf(&mut self, act: Act, in_pattern: bool, described: u32) -> Pos {
        let i = self.acts.len() as u32;
        self.acts.push(act);
        self.follow.push();
        self.in_pattern.push(in_pattern);
        self.owner.push(self.building);
        self.source.push(self.next_source);
        self.next_source += described;
        Pos::leaf(i)
    }

    fn build(&mut self, rule: &Rule, in_pattern: bool) -> Pos {
        if self.follow.full {
            // The rules are too large: the automaton will not be used.
            return Pos::nothing();
        }
        if !matches!(rule, Rule::Action(Action::Shift(_) | Action::Noop)) && vertex_only(rule) {
            if let Some(act) = self.vertex_only_act(rule) {
                return self.leaf(act, in_pattern, count_actions(rule));
            }
            // Too big to tabulate: the walk follows it step by step.
            self.untabulated += 1;
        }
        match rule {
            Rule::Action(a) => {
                let i = self.acts.len();
                let p = self.leaf(Act::Noop, in_pattern, 1);
                let act = self.action(a);
                self.acts[i] = act;
                p
            }
            Rule::Concat(parts) => {
                let first = self.next_source;
                let mut acc = Pos::epsilon();
                let mut k = 0;
                while k < parts.len() {
                    // Fuse a run of vertex-only parts into one shift table.
                    let run = parts[k..].iter().take_while(|r| vertex_only(r)).count();
                    let fused = match run >= 2 {
                        true => {
                            let group = Rule::Concat(parts[k..k + run].to_vec());
                            self.vertex_only_act(&group).map(|act| (act, group))
                        }
                        false => None,
                    };
                    let p = match fused {
                        Some((act, group)) => {
                            k += run;
                            self.leaf(act, in_pattern, count_actions(&group))
                        }
                        // A single part, or a run too big to tabulate: its
                        // parts one by one.
                        None => {
                            k += 1;
                            self.build(&parts[k - 1], in_pattern)
                        }
                    };
                    acc.then(p, &mut self.follow);
                    self.note_too_large(first);
                }
                acc
            }
            Rule::Alt(parts) => {
                let mut acc = Pos::nothing();
                for part in parts {
                    let p = self.build(part, in_pattern);
                    acc.or(p);
                }
                acc
            }
            Rule::Star(inner) => {
                let first = self.next_source;
                let p = self.build(inner, in_pattern).star(&mut self.follow);
                self.note_too_large(first);
                p
            }
        }
    }

    /// Remembers the description action `first` (starting a `*` or a
    /// concatenation) if its transitions made the automata too large.
    fn note_too_large(&mut self, first: u32) {
        if self.follow.full && self.too_large_at.is_none() {
            self.too_large_at = Some(first);
        }
    }

    fn action(&mut self, a: &Action) -> Act {
        match a {
            Action::Shift(d) => Act::Shift(*d),
            Action::On(set) => {
                let id = (self.on_sets.len() / self.num_pieces.max(1) as usize) as u32;
                let base = self.on_sets.len();
                self.on_sets.resize(base + self.num_pieces as usize, false);
                for &p in set {
                    self.on_sets[base + p as usize] = true;
                }
                Act::On(id)
            }
            Action::Off(p) => Act::Off(*p),
            Action::Assign(v, e) => Act::Assign(*v, expr(e)),
            Action::Compare(l, op, r) => Act::Compare(expr(l), *op, expr(r)),
            Action::Switch(p) => Act::Switch(p.unwrap_or(self.num_players)),
            Action::Pattern { negated, rule } => {
                // Equal bodies share one automaton (and so one memo entry,
                // see `Compiled::memo_index`), as in `{! p} x + {? p} y`.
                let key = format!("{rule:?}");
                let k = match self.pattern_ids.get(&key) {
                    Some(&k) => {
                        self.shared_patterns.insert(k);
                        self.next_source += count_actions(rule);
                        k
                    }
                    None => {
                        let k = self.automaton(rule, true);
                        self.pattern_ids.insert(key, k);
                        k
                    }
                };
                Act::Pattern(k, *negated)
            }
            Action::Noop => Act::Noop,
        }
    }
}

/// A step of a vertex-only expression's local automaton.
#[derive(Clone, Copy)]
enum Step {
    /// Shift along a direction.
    Dir(u32),
    /// Stay, if the filter (row start in `filter_ok`) passes; `NONE`: always.
    Keep(u32),
}

impl Builder {
    /// The action of a vertex-only expression: a filter when it never
    /// leaves its start vertex, a shift table otherwise; `None` when the
    /// table would cost too much.
    fn vertex_only_act(&mut self, rule: &Rule) -> Option<Act> {
        let t = self.shift_table(rule)?;
        let stays =
            (0..self.num_vertices).all(|v| self.table_targets(t, v).iter().all(|&w| w == v));
        if !stays {
            return Some(Act::Multi(t));
        }
        let ok = self.reaches_any(t, false);
        Some(Act::Filter(self.filter_row(ok)))
    }

    /// Targets of shift table `t` from vertex `v`.
    fn table_targets(&self, t: u32, v: u32) -> &[u32] {
        let i = t as usize * (self.num_vertices as usize + 1) + v as usize;
        &self.multi_targets[self.multi_off[i] as usize..self.multi_off[i + 1] as usize]
    }

    /// For every vertex, whether shift table `t` reaches any vertex from it
    /// (the opposite when `negated`): the truth of a pattern over `t`.
    fn reaches_any(&self, t: u32, negated: bool) -> Vec<bool> {
        (0..self.num_vertices)
            .map(|v| self.table_targets(t, v).is_empty() == negated)
            .collect()
    }

    /// Stores a filter row (reusing an equal one); returns its first cell.
    fn filter_row(&mut self, ok: Vec<bool>) -> u32 {
        let nv = self.num_vertices as usize;
        if let Some(f) = self.filter_ok.chunks(nv.max(1)).position(|r| r == &ok[..]) {
            return (f * nv) as u32;
        }
        let start = self.filter_ok.len() as u32;
        self.filter_ok.extend(ok);
        start
    }

    /// Builds (or reuses) the shift table of a vertex-only expression: for
    /// every start vertex, the vertices where some word of the expression
    /// can end, found by a search over (position automaton state, vertex).
    ///
    /// `None` when that search would take more than [`MAX_TABLE_WORK`]
    /// steps, or more than the work left of [`MAX_TABLES_WORK`]: a table
    /// can hold vertices² targets (`anySquare` on a 200x200 board: 1.6
    /// billion), and the walk follows such an expression step by step
    /// instead.
    fn shift_table(&mut self, rule: &Rule) -> Option<u32> {
        let key = format!("{rule:?}");
        if let Some(&t) = self.multi_ids.get(&key) {
            return t;
        }
        let t = self.new_shift_table(rule);
        self.multi_ids.insert(key, t);
        t
    }

    /// See [`Builder::shift_table`].
    fn new_shift_table(&mut self, rule: &Rule) -> Option<u32> {
        // Local position automaton over the steps of `rule`.
        let mut dirs = Vec::new();
        let mut follow = Follow::new(MAX_TABLE_WORK);
        let p = self.local_positions(rule, &mut dirs, &mut follow)?;
        if follow.full {
            return None;
        }
        let follow = {
            let mut lists = follow.lists;
            lists.push(p.first);
            lists
        };
        let n = dirs.len();
        let mut accepting = vec![false; n + 1];
        accepting[n] = p.nullable;
        for &l in &p.last {
            accepting[l as usize] = true;
        }
        let nv = self.num_vertices as usize;
        // The work is the number of (state, vertex) nodes the search visits
        // plus the transitions it follows, over all start vertices.
        let budget = MAX_TABLE_WORK.min(self.table_work);
        if ((n + 1) as u64).saturating_mul(nv as u64) > 4 * MAX_TABLE_WORK {
            // Not even the search's marks fit.
            return None;
        }
        let mut work = 0u64;
        let (old_off, old_targets) = (self.multi_off.len(), self.multi_targets.len());
        let mut seen = vec![u32::MAX; (n + 1) * nv];
        let mut hit = vec![u32::MAX; nv];
        let mut stack = Vec::new();
        let t = (self.multi_off.len() / (nv + 1)) as u32;
        for v0 in 0..nv {
            self.multi_off.push(self.multi_targets.len() as u32);
            stack.clear();
            stack.push((n, v0));
            seen[n * nv + v0] = v0 as u32;
            while let Some((q, v)) = stack.pop() {
                work += 1 + follow[q].len() as u64;
                if work > budget {
                    self.multi_off.truncate(old_off);
                    self.multi_targets.truncate(old_targets);
                    self.table_work -= work.min(self.table_work);
                    return None;
                }
                if accepting[q] && hit[v] != v0 as u32 {
                    hit[v] = v0 as u32;
                    self.multi_targets.push(v as u32);
                }
                for &a in &follow[q] {
                    let w = match dirs[a as usize] {
                        Step::Dir(d) => self.neighbors[v * self.num_dirs as usize + d as usize],
                        Step::Keep(f) if f == NONE || self.filter_ok[f as usize + v] => v as u32,
                        Step::Keep(_) => NONE,
                    };
                    if w != NONE {
                        let i = a as usize * nv + w as usize;
                        if seen[i] != v0 as u32 {
                            seen[i] = v0 as u32;
                            stack.push((a as usize, w as usize));
                        }
                    }
                }
            }
        }
        self.multi_off.push(self.multi_targets.len() as u32);
        self.table_work -= work;
        Some(t)
    }
}

/// Number of actions in an expression, those inside patterns included.
fn count_actions(r: &Rule) -> u32 {
    let mut n = 0;
    r.for_each_action(&mut |_, _| n += 1);
    n
}

/// Whether an expression's outcome depends on the start vertex only: it
/// consists of shifts, no-ops and patterns of such expressions.
fn vertex_only(r: &Rule) -> bool {
    match r {
        Rule::Action(Action::Shift(_) | Action::Noop) => true,
        Rule::Action(Action::Pattern { rule, .. }) => vertex_only(rule),
        Rule::Action(_) => false,
        Rule::Concat(v) | Rule::Alt(v) => v.iter().all(vertex_only),
        Rule::Star(c) => vertex_only(c),
    }
}

impl Builder {
    /// Glushkov construction over a vertex-only expression (positions
    /// numbered locally; `steps[i]` is the step of position `i`). Patterns
    /// become filters, computed from their bodies' shift tables.
    /// `None` when a pattern's table would cost too much.
    fn local_positions(
        &mut self,
        r: &Rule,
        steps: &mut Vec<Step>,
        follow: &mut Follow,
    ) -> Option<Pos> {
        let mut leaf = |step: Step| {
            let i = steps.len() as u32;
            steps.push(step);
            follow.push();
            Some(Pos::leaf(i))
        };
        match r {
            Rule::Action(Action::Shift(d)) => leaf(Step::Dir(*d)),
            Rule::Action(Action::Noop) => leaf(Step::Keep(NONE)),
            Rule::Action(Action::Pattern { negated, rule }) => {
                let t = self.shift_table(rule)?;
                let ok = self.reaches_any(t, *negated);
                leaf(Step::Keep(self.filter_row(ok)))
            }
            Rule::Concat(parts) => {
                let mut acc = Pos::epsilon();
                for part in parts {
                    let p = self.local_positions(part, steps, follow)?;
                    acc.then(p, follow);
                }
                Some(acc)
            }
            Rule::Alt(parts) => {
                let mut acc = Pos::nothing();
                for part in parts {
                    let p = self.local_positions(part, steps, follow)?;
                    acc.or(p);
                }
                Some(acc)
            }
            Rule::Star(inner) => Some(self.local_positions(inner, steps, follow)?.star(follow)),
            Rule::Action(_) => unreachable!("only called on vertex-only expressions"),
        }
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

#[cfg(test)]
mod tests {
    use crate::{GameModel, MoveList};

    /// A one-player game on an `n`x`n` board: put a `w` on any empty square.
    fn big(n: usize, any_square: &str) -> String {
        let row = format!("[{}]", vec!["e"; n].join(","));
        format!(
            "#players = a(1)\n#pieces = e, w\n#variables =\n\
             #board = rectangle(up, down, left, right, {})\n\
             #rules = ->a {any_square} {{e}} [w] ->a\n",
            vec![row; n].join(" ")
        )
    }

    /// On a 200x200 board `anySquare` would be a table of 1.6 billion
    /// targets: it is walked instead, and the game loads at once.
    #[test]
    fn big_boards_walk_what_would_be_huge_tables() {
        for any in [
            "(up + down + left + right)*",
            "(up* + down*)(left* + right*)",
        ] {
            let t = std::time::Instant::now();
            let game = GameModel::from_text(&big(200, any)).unwrap();
            assert!(t.elapsed() < std::time::Duration::from_secs(10), "{any}");
            assert!(game.inner.c.untabulated >= 1, "{any}");
            let mut moves = MoveList::default();
            game.reasoner()
                .legal_moves(&game.initial_state(), &mut moves)
                .unwrap();
            assert_eq!(moves.len(), 200 * 200, "{any}");
        }
        // On a small board the same expressions are tables.
        for any in [
            "(up + down + left + right)*",
            "(up* + down*)(left* + right*)",
        ] {
            let game = GameModel::from_text(&big(8, any)).unwrap();
            assert_eq!(game.inner.c.untabulated, 0, "{any}");
        }
    }

    /// Every vertex-only expression of the suite's games is a table, as
    /// before tables had a budget: their speed is unchanged.
    #[test]
    fn suite_games_keep_all_their_tables() {
        let dir = match std::env::var_os("RBG_SUITE") {
            Some(d) => std::path::PathBuf::from(d),
            None => std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../../shared/rbg-suite"),
        }
        .join("games");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            assert_ne!(std::env::var("CI").as_deref(), Ok("true"), "suite missing");
            return;
        };
        let mut files: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
        files.extend(
            std::fs::read_dir(dir.join("nsplit"))
                .into_iter()
                .flatten()
                .map(|e| e.unwrap().path()),
        );
        let mut seen = 0;
        for path in files
            .iter()
            .filter(|p| p.extension().is_some_and(|e| e == "rbg"))
        {
            let text = std::fs::read_to_string(path).unwrap();
            let game = GameModel::from_text(&text).unwrap();
            assert_eq!(game.inner.c.untabulated, 0, "{}", path.display());
            seen += 1;
        }
        assert!(seen >= 60, "{seen} games");
    }
}
