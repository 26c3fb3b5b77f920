//! Move walks and reachability checks: one depth-first walk over (node,
//! semistate) with the actions applied in place and undone from a log.
//!
//! The walk follows `rg-language.md` §5.4 so that counts match the reference:
//! a node's edges are tried last to first (the reference pushes them in file
//! order and pops them), the symbols of `T(*)` likewise; a state is dropped
//! when its key (node, tags, user variables) was seen before in the same
//! enumeration — checked only at the nodes `analysis.rs` says can repeat a
//! key; a `player` assignment ends a move walk and yields a move. `@disjoint`
//! nodes take only their first legal edge in file order.
//!
//! Frames are pushed only at nodes with a choice (several edges or a
//! `T(*)`); chains of single edges are followed inline. A frame remembers the
//! undo-log length, tag count, key hash and semistate *version* at its node;
//! every assignment gives the semistate a fresh version, so a reachability
//! check's result is reused while the version is unchanged. A check runs the
//! same walk (tags ignored, `player` assignments ordinary) with its own
//! visited set, nested at most [`MAX_CHECK_DEPTH`] deep.

use crate::code::{self, Kind};
use crate::moves::{Kept, MoveList, Sink};
use crate::prefixes::{Prefixes, EMPTY};
use crate::program::{Program, Step};
use crate::sealed::Filter;
use crate::seen::{Seen, MAX_KEYS, MAX_MOVE_KEYS};
use crate::shortcut::{some_holds, SlotSearch};
use crate::tables::{
    Access, Act, Fast, Guard, Mem, Op, Operand, Place, Probe, Tables, NO_DENSE, NO_EDGE, NO_NODE,
    NO_SLOT, NO_SWITCH,
};
use crate::RunError;

/// Checks nested deeper than this are an error.
pub const MAX_CHECK_DEPTH: usize = 64;
/// Moves longer than this many tags are an error (a tag on a cycle).
pub const MAX_TAGS: usize = 1 << 11;
/// Walks with more nested choices than this are an error.
pub const MAX_FRAMES: usize = 1 << 20;
/// Edges followed without a frame in one enumeration beyond this are an error
/// (only games with `@unique` nodes can loop there; 2^25 bounds such a walk
/// to well under a second). Counted only where single edges form a cycle
/// ([`Tables::has_unique`]).
pub const MAX_STEPS: usize = 1 << 25;
/// Assignments on the current walk beyond this are an error.
pub const MAX_LOG: usize = 1 << 22;
/// The moves of one state holding more tags and slot changes than this
/// together are an error (so an improper game cannot exhaust the memory:
/// at most a few hundred MB per list).
pub const MAX_RECORDED: usize = 1 << 23;

#[derive(Clone, Copy)]
struct Frame {
    /// Edges `first .. next` are still to be tried, last first.
    next: u32,
    first: u32,
    /// Symbols of the any-assignment at edge `next` still to be tried.
    sub: u32,
    log: u32,
    tags: u32,
    hash: u64,
    tag_hash: u64,
    version: u64,
    /// A number no other frame had (the local visited checks' stamps),
    /// but a relay's frame has the number of the frame below.
    number: u64,
    /// Length of [`Walker::stamp_log`] when the frame was pushed
    /// ([`RELAY`]: a relay's frame, which restores none).
    stamp_log: u32,
}

/// [`Frame::stamp_log`] of a relay's frame.
const RELAY: u32 = u32::MAX;

/// A check's result in a semistate (its key hash and every slot): the same
/// check asked again in an equal semistate under another version (a
/// translation's end-of-turn check copy, then the move walk, assign the
/// same values) takes it without a walk. A check whose semistates rarely
/// repeat stops keeping them (the copy costs more than the hits save: HRG
/// reversi's checks, +5% instructions when always kept).
#[derive(Clone, Default)]
struct Held {
    hash: u64,
    result: bool,
    slots: Vec<u16>,
    hits: u32,
    kept: u32,
}

/// The nodes one pure check has reached (stamped with its generation).
#[derive(Clone, Default)]
struct Marks {
    gen: u32,
    at: Vec<u32>,
}

/// The moves of a node generated ahead by a speculated check (`mirror.rs`)
/// for the state its `player` assignment leads to: taken by the next move
/// enumeration if it is of that state (same slots, node and sink kind).
#[derive(Clone, Default)]
struct Ahead {
    /// A walker that does not speculate.
    walker: Walker,
    kept: Kept,
    slots: Vec<u16>,
    node: u32,
    /// Whether the kept moves are of (`slots`, `node`) for sinks with
    /// visibility (`kind`).
    valid: bool,
    kind: bool,
    /// Generations taken, and made: a game whose generated moves are rarely
    /// taken stops generating (the check's own walk stops at the first
    /// move).
    hits: u32,
    made: u32,
}

/// The target of a move enumeration (none).
const NO_TARGET: u32 = u32::MAX;

/// A reusable walk workspace (one per thread).
#[derive(Clone, Default)]
pub struct Walker {
    frames: Vec<Frame>,
    log: Vec<(u32, u16)>,
    tags: Vec<u16>,
    /// Numbers of the sequences `tags[..=i]`, for a prefix of `tags` (made
    /// when a visited check needs them).
    tag_ids: Vec<u32>,
    prefixes: Prefixes,
    vis: Vec<u64>,
    seen: Vec<Seen>,
    memo: Vec<(u64, bool)>,
    /// Per check: the last semistate a walk or program decided it in.
    held: Vec<Held>,
    /// Check starts being evaluated (for recursion).
    active: Vec<u32>,
    scratch: Vec<u16>,
    map_writes: Vec<(u32, u16)>,
    /// Pure checks' node marks, per nesting depth.
    marks: Vec<Marks>,
    /// One-slot checks' search (`shortcut.rs`).
    slot_search: SlotSearch,
    /// Pure checks' nodes to expand (nested searches above their callers').
    pending: Vec<u32>,
    /// Local visited checks' stamps (`local.rs`): the number of the frame
    /// a (node, key) was last seen under.
    stamps: Vec<u64>,
    /// Stamps overwritten, with their old values: restored when the frame
    /// that wrote them is popped, so a visit of the choice node nested in
    /// another (a cycle back to it) leaves the outer visit's stamps intact.
    stamp_log: Vec<(u32, u64)>,
    /// Per check: the slot of a one-slot check that goes straight to its
    /// search (no probe, no program, never speculated), else [`NO_SLOT`].
    direct: Vec<u32>,
    /// Programs' any-assignments being enumerated: instruction, symbols
    /// left, slot (nested programs above their callers').
    choices: Vec<(u32, u32, u32)>,
    /// Moves generated ahead (speculated checks).
    ahead: Option<Box<Ahead>>,
    /// Whether this walker may speculate (the one inside [`Ahead`] does not).
    speculates: bool,
    /// While a move enumeration of [`Walker::moves`] runs (and this walker
    /// speculates): whether its sink keeps visibility.
    sink_kind: Option<bool>,
    /// The key hash's change since the enumeration started (or since
    /// [`Walker::check_from`]'s hash): the key hash is `hash_base + hash`.
    hash: u64,
    /// The key hash where the enumeration started, computed when a
    /// visited check or a kept check result first needs it
    /// ([`Walker::key_hash`]; a walk without either never sums the slots).
    hash_base: Option<u64>,
    tag_hash: u64,
    version: u64,
    next_version: u64,
    steps: usize,
    /// Tags of the current walk when they are only counted (a lean walk:
    /// see [`Tables::tags_read`]); `tags` is empty then.
    counted_tags: u32,
}

/// The error of a walk past [`MAX_FRAMES`] nested choices (at `node`).
#[cold]
#[inline(never)]
fn too_many_frames(node: u32) -> RunError {
    RunError::TooManyStates {
        limit: MAX_FRAMES,
        node,
    }
}

/// Finishes a visited key's hash.
#[inline(always)]
pub fn mix(h: u64) -> u64 {
    let h = (h ^ (h >> 32)).wrapping_mul(0xd6e8_feb8_6659_fd93);
    h ^ (h >> 32)
}

/// Extends a tag sequence's hash by `tag`.
#[inline(always)]
pub fn tag_step(h: u64, tag: u16) -> u64 {
    (h ^ (tag as u64 + 1))
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .rotate_left(17)
}

/// The value of an operand.
#[inline(always)]
pub fn read(t: &Tables, st: &[u16], o: Operand) -> u16 {
    match o {
        Operand::Imm(v) => v,
        Operand::Slot(s) => st[s as usize],
        Operand::Tab(s, table) => t.fun[(table + st[s as usize] as u32) as usize] as u16,
        Operand::Ind(s, table) => st[t.fun[(table + st[s as usize] as u32) as usize] as usize],
        Operand::Read(i) => read_general(t, st, i),
    }
}

/// A computed read ([`Operand::Read`]) with the folded `f[board[x]]`
/// ([`Fast::TabInd`]) inline: the one-slot checks' rays and attack tests
/// read it at each step.
#[inline(always)]
pub(crate) fn read_computed(t: &Tables, st: &[u16], i: u32) -> u16 {
    match t.fast[i as usize] {
        Fast::TabInd(s, inner, outer) => tab_ind(t, st, s, inner, outer),
        _ => read_general(t, st, i),
    }
}

/// A folded `f[board[x]]` ([`Fast::TabInd`]): constant table `outer` at
/// the value [`inner_key`] reads.
#[inline(always)]
pub(crate) fn tab_ind(t: &Tables, st: &[u16], s: u32, inner: u32, outer: u32) -> u16 {
    t.fun[(outer + inner_key(t, st, s, inner) as u32) as usize] as u16
}

/// The inner read of a folded two-level read (`Fast::TabInd`,
/// `Fast::IndInd`): the slot that table `inner` gives for slot `s`'s value,
/// read.
#[inline]
fn inner_key(t: &Tables, st: &[u16], s: u32, inner: u32) -> u16 {
    st[t.fun[(inner + st[s as usize] as u32) as usize] as usize]
}

#[inline(never)]
fn read_general(t: &Tables, st: &[u16], i: u32) -> u16 {
    match t.fast[i as usize] {
        Fast::General => {}
        Fast::TabInd(s, inner, outer) => return tab_ind(t, st, s, inner, outer),
        Fast::IndInd(s, inner, outer) => {
            let k = inner_key(t, st, s, inner);
            return st[t.fun[(outer + k as u32) as usize] as usize];
        }
        Fast::Pair {
            first,
            second,
            first_table,
            second_table,
        } => {
            let a = t.fun[(first_table + read(t, st, first) as u32) as usize];
            let b = t.fun[(second_table + read(t, st, second) as u32) as usize];
            return t.consts[(a + b) as usize];
        }
    }
    let a = &t.reads[i as usize];
    let off = offset(t, st, a);
    match a.mem {
        Mem::State => st[off as usize],
        Mem::Const => t.consts[off as usize],
    }
}

/// The slot an access reads (a key outside a map's keys reads its default).
pub(crate) fn offset(t: &Tables, st: &[u16], a: &Access) -> u32 {
    let mut off = a.base;
    for s in &t.steps[a.steps.0 as usize..(a.steps.0 + a.steps.1) as usize] {
        let k = read(t, st, s.key);
        off += t.keys.table[(s.table + k as u32) as usize] as u32 * s.stride;
    }
    off
}

/// The slot an assignment writes; a key outside a map's keys is an error.
#[inline(always)]
pub fn place(t: &Tables, st: &[u16], p: Place) -> Result<u32, RunError> {
    match p {
        Place::Slot(s) => Ok(s),
        Place::Ind(s, table) => {
            let k = st[s as usize];
            match t.fun[(table + k as u32) as usize] {
                NO_SLOT => Err(RunError::ForeignKey(k)),
                slot => Ok(slot),
            }
        }
        Place::Gen(i) => match t.fast[i as usize] {
            Fast::IndInd(s, inner, outer) => {
                let k = inner_key(t, st, s, inner);
                match t.fun[(outer + k as u32) as usize] {
                    NO_SLOT => Err(RunError::ForeignKey(k)),
                    slot => Ok(slot),
                }
            }
            _ => place_access(t, st, &t.reads[i as usize]),
        },
    }
}

/// The slot a computed place writes.
#[inline(never)]
pub(crate) fn place_access(t: &Tables, st: &[u16], a: &Access) -> Result<u32, RunError> {
    let mut off = a.base;
    for s in &t.steps[a.steps.0 as usize..(a.steps.0 + a.steps.1) as usize] {
        let k = read(t, st, s.key);
        let i = t.keys.table[(s.table + k as u32) as usize];
        if i == s.limit {
            return Err(RunError::ForeignKey(k));
        }
        off += i as u32 * s.stride;
    }
    Ok(off)
}

/// Whether a comparison `a == b` (`eq`) or `a != b` holds, through its
/// matched shape `act` ([`Tables::acts`]) where it has one.
#[inline(always)]
pub(crate) fn compares(
    t: &Tables,
    st: &[u16],
    act: &Act,
    a: Operand,
    b: Operand,
    eq: bool,
) -> bool {
    match *act {
        Act::CmpInd {
            slot,
            table,
            value,
            eq,
        } => (read(t, st, Operand::Ind(slot, table)) == value) == eq,
        Act::CmpTab {
            slot,
            table,
            value,
            eq,
        } => (read(t, st, Operand::Tab(slot, table)) == value) == eq,
        Act::CmpTabInd {
            slot,
            inner,
            outer,
            value,
            eq,
        } => (tab_ind(t, st, slot, inner, outer) == value) == eq,
        _ => (read(t, st, a) == read(t, st, b)) == eq,
    }
}

/// A comparison tried for each symbol of an any-assignment to `slot` (a
/// one-slot check's filtered any-assignment, `shortcut.rs`), its operands
/// matched once: `board[x] == c` reads one table and one slot per symbol,
/// `f[board[x]] == c` one more table.
#[derive(Clone, Copy)]
pub(crate) enum SymTest {
    /// `st[fun[table + x]] == value` (`eq`) or `!=`.
    Ind {
        slot: u32,
        table: u32,
        value: u16,
        eq: bool,
    },
    /// `fun[outer + st[fun[inner + x]]] == value` (`eq`) or `!=`.
    TabInd {
        slot: u32,
        inner: u32,
        outer: u32,
        value: u16,
        eq: bool,
    },
    /// Any other comparison (its matched shape, operands, `==`).
    Other(u32, Act, Operand, Operand, bool),
}

impl SymTest {
    /// The test of `a == b` (`eq`) or `a != b` (matched as `act`) with
    /// symbols in `slot`.
    pub(crate) fn new(slot: u32, act: Act, a: Operand, b: Operand, eq: bool) -> SymTest {
        match act {
            Act::CmpInd {
                slot: s,
                table,
                value,
                eq,
            } if s == slot => SymTest::Ind {
                slot,
                table,
                value,
                eq,
            },
            Act::CmpTabInd {
                slot: s,
                inner,
                outer,
                value,
                eq,
            } if s == slot => SymTest::TabInd {
                slot,
                inner,
                outer,
                value,
                eq,
            },
            _ => SymTest::Other(slot, act, a, b, eq),
        }
    }

    /// Writes `x` to the slot; whether the comparison holds.
    #[inline(always)]
    pub(crate) fn holds(self, t: &Tables, st: &mut [u16], x: u16) -> bool {
        match self {
            SymTest::Ind {
                slot,
                table,
                value,
                eq,
            } => {
                st[slot as usize] = x;
                (st[t.fun[(table + x as u32) as usize] as usize] == value) == eq
            }
            SymTest::TabInd {
                slot,
                inner,
                outer,
                value,
                eq,
            } => {
                st[slot as usize] = x;
                let k = st[t.fun[(inner + x as u32) as usize] as usize];
                (t.fun[(outer + k as u32) as usize] as u16 == value) == eq
            }
            SymTest::Other(slot, act, a, b, eq) => {
                st[slot as usize] = x;
                compares(t, st, &act, a, b, eq)
            }
        }
    }
}

/// Takes frame `f`'s any-assignment (to `slot`, symbols from `start`) on
/// from symbol `sym` to the first symbol that `pass` accepts, last to
/// first (a filtered any-assignment, `shortcut.rs`); whether there is one.
/// The slot is left as it was.
#[inline(always)]
fn first_passing(
    t: &Tables,
    st: &mut [u16],
    f: &mut Frame,
    slot: u32,
    start: u32,
    sym: &mut u16,
    pass: impl Fn(&[u16]) -> bool,
) -> bool {
    let old = st[slot as usize];
    let found = loop {
        st[slot as usize] = *sym;
        if pass(st) {
            break true;
        }
        if f.sub == 0 {
            break false;
        }
        f.sub -= 1;
        *sym = t.any_syms[(start + f.sub) as usize];
    };
    st[slot as usize] = old;
    found
}

/// The filter of any-assignment `edge` ([`Filter::Other`]: a comparison
/// not specialised) taken on from symbol `sym` to the first symbol that
/// passes: the filter's edge ([`NO_EDGE`]: none tested, into the check's
/// `target`), or `None` when no symbol is left. Out of line: the walk's
/// loop stays as small.
#[inline(never)]
fn other_filter(
    t: &Tables,
    st: &mut [u16],
    f: &mut Frame,
    edge: u32,
    target: u32,
    sym: &mut u16,
) -> Option<u32> {
    let e = &t.edges[edge as usize];
    if e.to == target {
        return Some(NO_EDGE);
    }
    let Op::AssignAny(Place::Slot(slot), (start, _)) = e.op else {
        return Some(NO_EDGE);
    };
    let Op::Cmp(a, b, eq) = t.edges[e.filter as usize].op else {
        return Some(NO_EDGE);
    };
    // Against a symbol: one read per symbol.
    let found = match (a, b) {
        (a, Operand::Imm(v)) | (Operand::Imm(v), a) => {
            first_passing(t, st, f, slot, start, sym, |st| (read(t, st, a) == v) == eq)
        }
        (a, b) => first_passing(t, st, f, slot, start, sym, |st| {
            (read(t, st, a) == read(t, st, b)) == eq
        }),
    };
    found.then_some(e.filter)
}

/// [`first_passing`] for an any-assignment (`slot`, symbols from `start`)
/// into node `to` with comparisons `cmps` ([`Act::AnyTests`]): through
/// its switch when it is one. Out of line: the walk's loop stays as small.
#[inline(never)]
fn any_tests(
    t: &Tables,
    st: &mut [u16],
    f: &mut Frame,
    (slot, start): (u32, u32),
    to: u32,
    (first, count): (u32, u32),
    sym: &mut u16,
) -> bool {
    match t.nodes[to as usize].switch {
        NO_SWITCH => {
            let cmps = &t.edges[first as usize..(first + count) as usize];
            first_passing(t, st, f, slot, start, sym, |st| some_holds(t, st, cmps))
        }
        i => first_passing(t, st, f, slot, start, sym, |st| {
            let (a, b) = switch_range(t, st, i);
            a != b
        }),
    }
}

/// The edges of switch `i` (`switch.rs`) that can pass now: from the
/// first to the last that do.
#[inline(always)]
fn switch_range(t: &Tables, st: &[u16], i: u32) -> (u32, u32) {
    let s = t.switches[i as usize];
    let v = read(t, st, Operand::Ind(s.slot, s.table));
    t.switch_ranges[(s.ranges + v as u32) as usize]
}

/// Whether the value of a ray's slot lies on a cycle of its map
/// (`cycles.rs`): only then is the visit checked.
#[inline(always)]
fn cyclic_value(t: &Tables, st: &[u16], i: u32) -> bool {
    let (slot, table) = t.cyclic[i as usize];
    t.fun[(table + st[slot as usize] as u32) as usize] != 0
}

/// Whether a comparison step of a program holds.
#[inline(always)]
fn compare(t: &Tables, st: &[u16], step: &Step) -> bool {
    match *step {
        Step::IndImm(s, table, v, eq) => (read(t, st, Operand::Ind(s, table)) == v) == eq,
        Step::IndTab(s, table, s2, table2, eq) => {
            (read(t, st, Operand::Ind(s, table)) == read(t, st, Operand::Tab(s2, table2))) == eq
        }
        Step::Cmp(a, b, eq) => (read(t, st, a) == read(t, st, b)) == eq,
        _ => unreachable!("not a comparison"),
    }
}

/// Decides a check that has a probe: some symbol of its any-assignment
/// (written in place, then restored) makes every comparison hold.
#[inline]
fn probe(t: &Tables, st: &mut [u16], p: &Probe) -> bool {
    let conds = &t.probe_conds[p.conds.0 as usize..(p.conds.0 + p.conds.1) as usize];
    #[inline(always)]
    fn holds(t: &Tables, st: &[u16], conds: &[(Operand, Operand, bool)]) -> bool {
        for &(a, b, eq) in conds {
            if (read(t, st, a) == read(t, st, b)) != eq {
                return false;
            }
        }
        true
    }
    let Some((slot, (start, len))) = p.any else {
        return holds(t, st, conds);
    };
    let old = st[slot as usize];
    let mut found = false;
    for &sym in &t.any_syms[start as usize..(start + len) as usize] {
        st[slot as usize] = sym;
        if holds(t, st, conds) {
            found = true;
            break;
        }
    }
    st[slot as usize] = old;
    found
}

impl Walker {
    /// A workspace for `t`.
    pub fn new(t: &Tables) -> Walker {
        Walker {
            memo: vec![(0, false); t.checks.len()],
            held: vec![Held::default(); t.checks.len()],
            stamps: vec![0; t.local_size as usize],
            direct: (0..t.checks.len())
                .map(|c| match t.one_slot[c] {
                    s if t.probes[c].is_none()
                        && t.programs[c].is_none()
                        && t.speculated[c] == NO_NODE =>
                    {
                        s
                    }
                    _ => NO_SLOT,
                })
                .collect(),
            next_version: 1,
            speculates: true,
            ..Walker::default()
        }
    }

    /// Every move walk from the state (`st`, `node`) into `out` (cleared
    /// first). `st` is unchanged afterwards, also on error.
    pub fn moves<S: Sink>(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        node: u32,
        out: &mut S,
    ) -> Result<(), RunError> {
        if let Some(a) = self.ahead.as_deref_mut() {
            if std::mem::take(&mut a.valid)
                && a.kind == S::VISIBILITY
                && a.node == node
                && a.slots[..] == st[..]
            {
                std::mem::swap(out, S::kept(&mut a.kept));
                a.hits = a.hits.saturating_add(1);
                return Ok(());
            }
        }
        self.sink_kind = self.speculates.then_some(S::VISIBILITY);
        // A lazy root's moves are its mirror's when there are any.
        let lazy = t.lazy[node as usize];
        let r = match lazy {
            NO_NODE => self.enumerate(t, st, node, out),
            b => match self.enumerate(t, st, b, out) {
                Ok(()) if out.count() > 0 => Ok(()),
                _ => self.enumerate(t, st, node, out),
            },
        };
        self.sink_kind = None;
        r
    }

    /// [`Walker::moves`] as written: every walk from `node`.
    fn enumerate<S: Sink>(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        node: u32,
        out: &mut S,
    ) -> Result<(), RunError> {
        out.clear();
        self.begin();
        let r = self.run::<true, S>(t, st, node, NO_TARGET, Some(out));
        if r.is_err() {
            self.rollback(st, 0);
            self.frames.clear();
            self.stamp_log.clear();
            self.active.clear();
            self.pending.clear();
            self.choices.clear();
        }
        r.map(|_| ())
    }

    /// Evaluates check `c` for a native move walk (`rg-jit`) whose key hash
    /// is `hash` and whose bounded step count is `steps` (updated): as
    /// [`Walker::check`] at the top level, with a fresh version. On error the
    /// semistate is restored to what it was at the call.
    pub fn check_from(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        c: u32,
        hash: u64,
        steps: &mut usize,
    ) -> Result<bool, RunError> {
        self.hash = 0;
        self.hash_base = Some(hash);
        self.steps = *steps;
        self.version = self.fresh_version();
        let log = self.log.len();
        let r = self.check(t, st, c);
        *steps = self.steps;
        if r.is_err() {
            self.rollback(st, log);
            self.frames.clear();
            self.stamp_log.clear();
            self.active.clear();
            self.pending.clear();
        }
        r
    }

    /// Whether a walk from (`st`, `start`) reaches `target` (a check outside
    /// any move walk).
    pub fn reaches(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        start: u32,
        target: u32,
    ) -> Result<bool, RunError> {
        self.begin();
        let r = self.run::<false, MoveList>(t, st, start, target, None);
        if r.is_err() {
            self.rollback(st, 0);
            self.frames.clear();
            self.stamp_log.clear();
            self.active.clear();
            self.pending.clear();
            self.choices.clear();
        }
        r
    }

    fn begin(&mut self) {
        self.steps = 0;
        self.counted_tags = 0;
        self.log.clear();
        self.tags.clear();
        self.tag_ids.clear();
        self.prefixes.clear();
        self.vis.clear();
        self.tag_hash = 0;
        self.hash = 0;
        self.hash_base = None;
        self.version = self.fresh_version();
    }

    /// The key hash of the semistate (the user slots' values times their
    /// multipliers, summed).
    #[inline]
    fn key_hash(&mut self, t: &Tables, st: &[u16]) -> u64 {
        let base = match self.hash_base {
            Some(b) => b,
            None => {
                // The sum now, less the changes made since the start.
                let now = st[..t.user_slots]
                    .iter()
                    .zip(&t.hash_mul)
                    .fold(0u64, |h, (&v, &m)| h.wrapping_add(m.wrapping_mul(v as u64)));
                *self.hash_base.insert(now.wrapping_sub(self.hash))
            }
        };
        base.wrapping_add(self.hash)
    }

    fn fresh_version(&mut self) -> u64 {
        let v = self.next_version;
        self.next_version += 1;
        v
    }

    #[inline]
    fn rollback(&mut self, st: &mut [u16], to: usize) {
        while self.log.len() > to {
            let (slot, old) = self.log.pop().expect("longer than `to`");
            st[slot as usize] = old;
        }
    }

    #[inline(always)]
    fn write(&mut self, t: &Tables, st: &mut [u16], slot: u32, v: u16) {
        let old = st[slot as usize];
        self.log.push((slot, old));
        st[slot as usize] = v;
        let m = t.hash_mul[slot as usize];
        self.hash = self
            .hash
            .wrapping_add(m.wrapping_mul((v as u64).wrapping_sub(old as u64)));
        self.version = self.next_version;
        self.next_version += 1;
    }

    /// [`Walker::write`] of a slot the sealed instructions vouch for.
    ///
    /// # Safety
    /// As [`crate::sealed::Sealed::set`] of `t.code`.
    #[inline(always)]
    unsafe fn write_sealed(&mut self, t: &Tables, st: &mut [u16], slot: u32, v: u16) {
        // SAFETY: the caller's.
        let (old, m) = unsafe { t.code.set(st, slot, v) };
        self.log.push((slot, old));
        self.hash = self
            .hash
            .wrapping_add(m.wrapping_mul((v as u64).wrapping_sub(old as u64)));
        self.version = self.next_version;
        self.next_version += 1;
    }

    #[inline]
    fn push_tag(
        &mut self,
        t: &Tables,
        st: &[u16],
        tag: u16,
        vis: bool,
        node: u32,
    ) -> Result<(), RunError> {
        if self.tags.len() >= MAX_TAGS {
            return Err(RunError::EndlessWalk {
                limit: MAX_TAGS,
                node,
            });
        }
        self.tags.push(tag);
        self.tag_hash = tag_step(self.tag_hash, tag);
        if !vis {
            return Ok(());
        }
        if let Some(vis) = &t.visible_slots {
            let mut mask = 0u64;
            for (p, &s) in vis.iter().enumerate() {
                mask |= ((st[s as usize] == t.visible_one) as u64) << p;
            }
            self.vis.push(mask);
        }
        Ok(())
    }

    /// A tag of a lean walk: counted, not kept.
    #[inline]
    fn count_tag(&mut self, node: u32) -> Result<(), RunError> {
        if self.counted_tags as usize >= MAX_TAGS {
            return Err(RunError::EndlessWalk {
                limit: MAX_TAGS,
                node,
            });
        }
        self.counted_tags += 1;
        Ok(())
    }

    /// Whether (node, key) is new in the current enumeration (and records it).
    #[inline]
    fn visit<const MOVES: bool>(
        &mut self,
        t: &Tables,
        st: &[u16],
        node: u32,
        depth: usize,
    ) -> Result<bool, RunError> {
        let info = &t.nodes[node as usize];
        let guard = info.guard;
        if guard == Guard::None {
            return Ok(true);
        }
        if (!MOVES || info.untagged) && info.dense != NO_DENSE {
            // A key with one slot and no tags (a check's, or a move's at
            // a node reached without tags): a stamp.
            let slot = match guard {
                Guard::Full(lo, _) => lo,
                Guard::Repeat(i) => t.repeat_slots[i as usize][0],
                Guard::None => unreachable!("checked"),
            };
            let i = info.dense + st[slot as usize] as u32;
            return Ok(self.seen[depth].insert_dense(i, t.dense_size));
        }
        let tags = match MOVES {
            true => self.tag_id(node)?,
            false => EMPTY,
        };
        let tag_hash = if MOVES { self.tag_hash } else { 0 };
        match guard {
            Guard::Full(lo, hi) => {
                // The hash covers every user slot; the others are equal.
                let h = mix(self.key_hash(t, st)
                    ^ tag_hash.rotate_left(29)
                    ^ (node as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
                self.seen[depth].insert(h, node, &st[lo as usize..hi as usize], tags)
            }
            Guard::Repeat(i) => {
                self.scratch.clear();
                let mut h =
                    tag_hash.rotate_left(29) ^ (node as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                for &s in &t.repeat_slots[i as usize] {
                    self.scratch.push(st[s as usize]);
                    h = h.wrapping_add(t.hash_mul[s as usize].wrapping_mul(st[s as usize] as u64));
                }
                self.seen[depth].insert(mix(h), node, &self.scratch, tags)
            }
            Guard::None => Ok(true),
        }
    }

    /// A local visited check (`local.rs`): whether the key is new under
    /// the frame numbered `number` (and records it).
    #[inline]
    fn stamp(&mut self, st: &[u16], base: u32, slot: u32, number: u64) -> bool {
        let key = match slot {
            NO_SLOT => 0,
            s => st[s as usize] as u32,
        };
        let at = &mut self.stamps[(base + key) as usize];
        let old = *at;
        if old == number {
            return false;
        }
        *at = number;
        self.stamp_log.push((base + key, old));
        true
    }

    /// Restores the stamps overwritten since the log had `len` entries.
    fn restore_stamps(&mut self, len: u32) {
        for (i, old) in self.stamp_log.drain(len as usize..).rev() {
            self.stamps[i as usize] = old;
        }
    }

    /// The number of the current tag sequence.
    #[inline]
    fn tag_id(&mut self, node: u32) -> Result<u32, RunError> {
        let mut id = self.tag_ids.last().copied().unwrap_or(EMPTY);
        for i in self.tag_ids.len()..self.tags.len() {
            id = self.prefixes.child(id, self.tags[i], node)?;
            self.tag_ids.push(id);
        }
        Ok(id)
    }

    /// Pushes the frame of choice node `node`. Inline, with `@disjoint`
    /// nodes and the limit's error out of line: the walk pushes one at
    /// every choice, and a call returned its `Result` through memory
    /// (callgrind instructions per playout on translations: amazons
    /// -6.7%, breakthrough -4.6%, englishDraughts -3.1%, the others
    /// -0.1% to -1.9%).
    #[inline(always)]
    fn push_frame(&mut self, t: &Tables, st: &mut [u16], node: u32) -> Result<(), RunError> {
        if self.frames.len() >= MAX_FRAMES {
            return Err(too_many_frames(node));
        }
        let info = &t.nodes[node as usize];
        let (first, next) = if info.disjoint {
            self.disjoint_range(t, st, node)?
        } else if info.switch != NO_SWITCH {
            // Only the edges that can pass (`switch.rs`).
            switch_range(t, st, info.switch)
        } else {
            (info.first, info.end)
        };
        // A relay's frame stands for the frame below (`local.rs`): its
        // number, and the stamps left to that frame to restore.
        let (number, stamp_log) = match (info.relay, self.frames.last()) {
            (true, Some(below)) => (below.number, RELAY),
            _ => (self.fresh_version(), self.stamp_log.len() as u32),
        };
        self.frames.push(Frame {
            next,
            first,
            sub: 0,
            log: self.log.len() as u32,
            // One of the two is 0 (`counted_tags` outside lean walks).
            tags: self.tags.len() as u32 + self.counted_tags,
            hash: self.hash,
            tag_hash: self.tag_hash,
            version: self.version,
            number,
            stamp_log,
        });
        Ok(())
    }

    /// The edges a frame of `@disjoint` node `node` tries: its first legal
    /// edge, or none.
    #[inline(never)]
    fn disjoint_range(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        node: u32,
    ) -> Result<(u32, u32), RunError> {
        Ok(match self.first_legal(t, st, node)? {
            Some(e) => (e, e + 1),
            None => {
                let first = t.nodes[node as usize].first;
                (first, first)
            }
        })
    }

    /// The first edge of `node` (file order) whose action is legal now.
    fn first_legal(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        node: u32,
    ) -> Result<Option<u32>, RunError> {
        let info = t.nodes[node as usize];
        for i in info.first..info.end {
            let legal = match t.edges[i as usize].op {
                Op::Cmp(a, b, eq) => (read(t, st, a) == read(t, st, b)) == eq,
                Op::CmpMap(i, eq) => crate::maps::equal(t, st, i) == eq,
                Op::Reach(c, positive) => self.check(t, st, c)? == positive,
                _ => true,
            };
            if legal {
                return Ok(Some(i));
            }
        }
        Ok(None)
    }

    /// Evaluates check `c` in the current semistate (memoised per version).
    fn check(&mut self, t: &Tables, st: &mut [u16], c: u32) -> Result<bool, RunError> {
        let (version, result) = self.memo[c as usize];
        if version == self.version {
            return Ok(result);
        }
        let slot = self.direct[c as usize];
        if slot != NO_SLOT {
            // A one-slot check: the same errors as below, then its search
            // (which nests no check: no `active` entry), without the kept
            // semistate (a cache of the same result).
            let check = t.checks[c as usize];
            if self.active.contains(&check.start) {
                return Err(RunError::RecursiveCheck(check.start));
            }
            if self.active.len() >= MAX_CHECK_DEPTH {
                return Err(RunError::ChecksTooDeep(MAX_CHECK_DEPTH));
            }
            let r = self
                .slot_search
                .reach(t, st, check.start, check.target, slot);
            self.memo[c as usize] = (self.version, r);
            return Ok(r);
        }
        if let Some(p) = t.probes[c as usize] {
            let r = probe(t, st, &p);
            self.memo[c as usize] = (self.version, r);
            return Ok(r);
        }
        let check = t.checks[c as usize];
        if self.active.contains(&check.start) {
            return Err(RunError::RecursiveCheck(check.start));
        }
        if self.active.len() >= MAX_CHECK_DEPTH {
            return Err(RunError::ChecksTooDeep(MAX_CHECK_DEPTH));
        }
        let hash = self.key_hash(t, st);
        let held = &self.held[c as usize];
        if held.hash == hash && !held.slots.is_empty() && held.slots[..] == st[..] {
            let r = held.result;
            let h = &mut self.held[c as usize].hits;
            *h = h.saturating_add(1);
            self.memo[c as usize] = (self.version, r);
            return Ok(r);
        }
        if self.active.is_empty() && t.speculated[c as usize] != NO_NODE {
            if let Some(r) = self.speculate(t, st, c) {
                self.memo[c as usize] = (self.version, r);
                return Ok(r);
            }
        }
        self.active.push(check.start);
        let r = if let Some(p) = t.programs[c as usize] {
            match p.writes {
                true => self.program::<true>(t, st, p)?,
                false => self.program::<false>(t, st, p)?,
            }
        } else if t.pure[c as usize] {
            self.pure_reach(t, st, check.start, check.target)?
        } else if t.one_slot[c as usize] != NO_SLOT {
            let slot = t.one_slot[c as usize];
            self.slot_search
                .reach(t, st, check.start, check.target, slot)
        } else {
            self.run::<false, MoveList>(t, st, check.start, check.target, None)?
        };
        self.active.pop();
        self.memo[c as usize] = (self.version, r);
        let held = &mut self.held[c as usize];
        if held.kept <= held.hits.saturating_mul(4).saturating_add(16) {
            held.kept = held.kept.saturating_add(1);
            held.hash = hash;
            held.result = r;
            held.slots.clear();
            held.slots.extend_from_slice(st);
        }
        Ok(r)
    }

    /// Decides speculated check `c` of a move enumeration by generating the
    /// moves it mirrors, kept for the state its `player` assignment leads
    /// to (`mirror.rs`): it holds iff there are some. `None`: not done here
    /// (not in a move enumeration, generation stopped, or an error, which
    /// the check's own walk then meets or not as written).
    fn speculate(&mut self, t: &Tables, st: &mut [u16], c: u32) -> Option<bool> {
        let kind = self.sink_kind?;
        let y = t.speculated[c as usize];
        let e = t.edges[t.nodes[y as usize].first as usize];
        let Op::SetPlayer(p) = e.op else {
            unreachable!("a speculated check's node assigns `player`")
        };
        let a = self.ahead.get_or_insert_with(|| {
            Box::new(Ahead {
                walker: Walker {
                    speculates: false,
                    ..Walker::new(t)
                },
                ..Ahead::default()
            })
        });
        if a.made > a.hits.saturating_mul(4).saturating_add(16) {
            return None;
        }
        a.made = a.made.saturating_add(1);
        let slot = t.player_slot as usize;
        let old = st[slot];
        st[slot] = read(t, st, p);
        let r = match kind {
            true => a
                .walker
                .moves(t, st, e.to, &mut a.kept.list)
                .map(|_| a.kept.list.len()),
            false => a
                .walker
                .moves(t, st, e.to, &mut a.kept.effects)
                .map(|_| a.kept.effects.len()),
        };
        a.valid = r.is_ok();
        if a.valid {
            a.slots.clear();
            a.slots.extend_from_slice(st);
            a.node = e.to;
            a.kind = kind;
        }
        st[slot] = old;
        r.ok().map(|n| n > 0)
    }

    /// Decides a check by its program (`program.rs`).
    fn program<const WRITES: bool>(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        p: Program,
    ) -> Result<bool, RunError> {
        let depth = self.active.len();
        if p.visits {
            if self.seen.len() <= depth {
                self.seen.resize_with(depth + 1, Seen::default);
            }
            self.seen[depth].clear(MAX_KEYS);
        }
        let prog = &t.program;
        let base = self.log.len();
        let choices = self.choices.len();
        let (hash, version) = (self.hash, self.version);
        let mut pc = p.start as usize;
        let found = loop {
            let ins = &prog[pc];
            if WRITES && self.log.len() > base + ins.depth as usize {
                self.unwind(t, st, base + ins.depth as usize);
            }
            let holds = match ins.step {
                Step::IndImm(s, table, v, eq) => (read(t, st, Operand::Ind(s, table)) == v) == eq,
                Step::IndTab(s, table, s2, table2, eq) => {
                    (read(t, st, Operand::Ind(s, table)) == read(t, st, Operand::Tab(s2, table2)))
                        == eq
                }
                Step::Cmp(a, b, eq) => (read(t, st, a) == read(t, st, b)) == eq,
                Step::CmpMap(i, eq) => crate::maps::equal(t, st, i) == eq,
                Step::Reach(c, positive) => self.check(t, st, c)? == positive,
                Step::Assign(p, v) => {
                    let v = read(t, st, v);
                    let slot = place(t, st, p)?;
                    self.write(t, st, slot, v);
                    true
                }
                Step::Any(p, ..) => {
                    let slot = place(t, st, p)?;
                    if ins.accept {
                        // Every symbol reaches the target.
                        break true;
                    }
                    self.choices.push((pc as u32, u32::MAX, slot));
                    pc = self.advance(t, st, pc);
                    continue;
                }
                Step::Retry => {
                    let at = self.choices.last().expect("an open any-assignment").0;
                    pc = self.advance(t, st, at as usize);
                    continue;
                }
                Step::Visit(node) => self.visit::<false>(t, st, node, depth)?,
                Step::Pass => true,
                Step::End => break false,
            };
            if !holds {
                pc = ins.skip as usize;
            } else if ins.accept {
                break true;
            } else {
                pc += 1;
            }
        };
        self.unwind(t, st, base);
        self.choices.truncate(choices);
        self.hash = hash;
        self.version = version;
        Ok(found)
    }

    /// Takes the next symbol of the any-assignment at instruction `at`
    /// (the top choice; `u32::MAX` symbols left: all), last to first, and
    /// gives where the program goes on: into its subtree, or past it when
    /// no symbol is left.
    #[inline]
    fn advance(&mut self, t: &Tables, st: &mut [u16], at: usize) -> usize {
        let ins = &t.program[at];
        let Step::Any(_, (start, len), filter) = ins.step else {
            unreachable!("choices are any-assignments")
        };
        let syms = &t.any_syms[start as usize..(start + len) as usize];
        let (_, left, slot) = *self.choices.last().expect("an open choice");
        let mut left = left.min(len);
        let found = if filter {
            let cmp = &t.program[at + 1].step;
            let old = st[slot as usize];
            let found = loop {
                if left == 0 {
                    break false;
                }
                left -= 1;
                st[slot as usize] = syms[left as usize];
                if compare(t, st, cmp) {
                    break true;
                }
            };
            st[slot as usize] = old;
            found
        } else {
            left = left.wrapping_sub(1);
            left != u32::MAX
        };
        if !found {
            self.choices.pop();
            return ins.skip as usize;
        }
        self.choices.last_mut().expect("an open choice").1 = left;
        self.write(t, st, slot, syms[left as usize]);
        at + 1
    }

    /// Undoes the writes past `to`, the key hash with them; the semistate
    /// gets a fresh version.
    fn unwind(&mut self, t: &Tables, st: &mut [u16], to: usize) {
        while self.log.len() > to {
            let (slot, old) = self.log.pop().expect("longer than `to`");
            let m = t.hash_mul[slot as usize];
            let cur = st[slot as usize];
            self.hash = self
                .hash
                .wrapping_sub(m.wrapping_mul((cur as u64).wrapping_sub(old as u64)));
            st[slot as usize] = old;
        }
        self.version = self.fresh_version();
    }

    /// Decides a pure check (`shortcut.rs`): a search over the nodes, each
    /// expanded once (the semistate never changes, so neither does a node's
    /// key), edges tried last to first as in [`Walker::run`].
    fn pure_reach(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        root: u32,
        target: u32,
    ) -> Result<bool, RunError> {
        if root == target {
            return Ok(true);
        }
        let depth = self.active.len();
        if self.marks.len() <= depth {
            self.marks.resize_with(depth + 1, Marks::default);
        }
        let m = &mut self.marks[depth];
        if m.at.len() != t.nodes.len() {
            m.at = vec![0; t.nodes.len()];
            m.gen = 0;
        }
        crate::seen::next_generation(&mut m.gen, &mut m.at);
        let gen = m.gen;
        m.at[root as usize] = gen;
        let base = self.pending.len();
        self.pending.push(root);
        let mut found = false;
        'nodes: while self.pending.len() > base {
            let node = self.pending.pop().expect("above base");
            let info = t.nodes[node as usize];
            let (first, end) = if info.disjoint {
                match self.first_legal(t, st, node)? {
                    Some(e) => (e, e + 1),
                    None => continue,
                }
            } else {
                (info.first, info.end)
            };
            for i in (first..end).rev() {
                let e = &t.edges[i as usize];
                let legal = match e.op {
                    Op::Cmp(a, b, eq) => (read(t, st, a) == read(t, st, b)) == eq,
                    Op::CmpMap(i, eq) => crate::maps::equal(t, st, i) == eq,
                    Op::Reach(c, positive) => self.check(t, st, c)? == positive,
                    _ => true,
                };
                if !legal {
                    continue;
                }
                if e.to == target {
                    found = true;
                    break 'nodes;
                }
                let at = &mut self.marks[depth].at[e.to as usize];
                if *at != gen {
                    *at = gen;
                    self.pending.push(e.to);
                }
            }
        }
        self.pending.truncate(base);
        Ok(found)
    }

    /// One enumeration from `root`: collecting move walks into `out`
    /// (`MOVES`), or deciding whether `target` is reached (tags ignored,
    /// `player` assignments ordinary). Leaves the semistate, tags and frames
    /// as it found them.
    fn run<const MOVES: bool, S: Sink>(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        root: u32,
        target: u32,
        mut out: Option<&mut S>,
    ) -> Result<bool, RunError> {
        // The sealed instructions' reads need no more (`sealed.rs`).
        assert!(st.len() >= t.code.slots(), "a semistate of the game");
        let depth = self.active.len();
        if self.seen.len() <= depth {
            self.seen.resize_with(depth + 1, Seen::default);
        }
        self.seen[depth].clear(match MOVES {
            true => MAX_MOVE_KEYS,
            false => MAX_KEYS,
        });
        if root == target {
            return Ok(true);
        }
        // A lean walk: tags only counted (a sink that keeps none, and no
        // visited check keys on them).
        let lean = MOVES && !S::VISIBILITY && !t.tags_read;
        // Tags are no-ops when they need no count either: their
        // instructions are skipped (`sealed.rs`).
        let code = t.code.table(!(lean && t.few_tags));
        let base = self.frames.len();
        let entry = (
            self.log.len(),
            self.tags.len() + self.counted_tags as usize,
            self.hash,
            self.tag_hash,
            self.version,
        );
        self.visit::<MOVES>(t, st, root, depth)?;
        self.push_frame(t, st, root)?;
        let mut found = false;
        'frames: while self.frames.len() > base {
            let top = self.frames.len() - 1;
            let f = self.frames[top];
            self.rollback(st, f.log as usize);
            if lean {
                self.counted_tags = f.tags;
            } else {
                self.tags.truncate(f.tags as usize);
                self.tag_ids.truncate(f.tags as usize);
                self.vis.truncate(f.tags as usize);
            }
            self.hash = f.hash;
            self.tag_hash = f.tag_hash;
            self.version = f.version;
            // The next (edge, symbol) of the frame.
            let mut sym = 0u16;
            let (mut edge, pick) = {
                let f = &mut self.frames[top];
                if f.sub > 0 {
                    f.sub -= 1;
                    let p = t.code.pick(f.next);
                    sym = t.any_syms[(p.start + f.sub) as usize];
                    (f.next, p)
                } else if f.next > f.first {
                    f.next -= 1;
                    let p = t.code.pick(f.next);
                    if p.len > 0 {
                        f.sub = p.len - 1;
                        sym = t.any_syms[(p.start + p.len - 1) as usize];
                    }
                    (f.next, p)
                } else {
                    let len = f.stamp_log;
                    if len != RELAY {
                        self.restore_stamps(len);
                    }
                    self.frames.pop();
                    continue;
                }
            };
            // A filtered any-assignment skips the symbols its comparison
            // rejects (`shortcut.rs`); the comparison's edge, next in the
            // chain, then holds without being tested again (`passed`).
            // Not into a check's target, which the walk reaches at once.
            let mut passed = NO_EDGE;
            match pick.test {
                Filter::None => {}
                Filter::Ind {
                    edge: filter,
                    slot,
                    table,
                    value,
                    eq,
                } if MOVES || t.edges[edge as usize].to != target => {
                    let f = &mut self.frames[top];
                    let found = first_passing(t, st, f, slot, pick.start, &mut sym, |st| {
                        // SAFETY: operands of an instruction of `t.code`
                        // (`Filter::Ind`); `st` checked where the walk
                        // starts.
                        (unsafe { t.code.ind(st, slot, table) } == value) == eq
                    });
                    if !found {
                        continue 'frames;
                    }
                    passed = filter;
                }
                Filter::Tests { slot, first, count } => {
                    let to = t.edges[edge as usize].to;
                    if MOVES || to != target {
                        let f = &mut self.frames[top];
                        let cmps = (first, count);
                        if !any_tests(t, st, f, (slot, pick.start), to, cmps, &mut sym) {
                            continue 'frames;
                        }
                    }
                }
                Filter::Ind { .. } => {}
                Filter::Other => {
                    let f = &mut self.frames[top];
                    match other_filter(t, st, f, edge, target, &mut sym) {
                        Some(p) => passed = p,
                        None => continue 'frames,
                    }
                }
            }
            // Follow the chain from this edge: each edge's specialised
            // action (`code.rs`), the rarer ones as written. The operands
            // and continuations of `t.code`'s instructions are read
            // unchecked: `sealed.rs` verified them, and `st` is long
            // enough (checked where the walk starts).
            let mut c = code.at(edge);
            loop {
                // A comparison's test, unless the filter passed it.
                macro_rules! test {
                    ($holds:expr) => {
                        if edge == passed {
                            passed = NO_EDGE;
                        } else if !$holds {
                            continue 'frames;
                        }
                    };
                }
                // `player = v`: a move walk's end (a check's write).
                macro_rules! set_player {
                    ($v:expr) => {{
                        let v = $v;
                        if MOVES {
                            if let Some(out) = out.as_deref_mut() {
                                out.push(
                                    &self.tags,
                                    &self.vis,
                                    self.log.iter().map(|&(slot, _)| slot),
                                    st,
                                    t.player_slot,
                                    v,
                                    c.to,
                                    self.tag_hash,
                                );
                                if out.recorded() > MAX_RECORDED {
                                    return Err(RunError::MovesTooLarge(MAX_RECORDED));
                                }
                            }
                            continue 'frames;
                        }
                        self.write(t, st, t.player_slot, v);
                    }};
                }
                match c.kind {
                    Kind::Skip => {}
                    Kind::Player(v) => set_player!(v),
                    Kind::Tag(s) => {
                        if lean {
                            if !t.few_tags {
                                self.count_tag(c.to)?;
                            }
                        } else if MOVES {
                            self.push_tag(t, st, s, S::VISIBILITY, c.to)?;
                        }
                    }
                    Kind::TagVar(slot) => {
                        if lean {
                            if !t.few_tags {
                                self.count_tag(c.to)?;
                            }
                        } else if MOVES {
                            // SAFETY: an operand of `c` (see above).
                            let v = unsafe { t.code.get(st, slot) };
                            self.push_tag(t, st, v, S::VISIBILITY, c.to)?;
                        }
                    }
                    k @ (Kind::CmpSlot { .. }
                    | Kind::CmpInd { .. }
                    | Kind::CmpTab { .. }
                    | Kind::CmpTabInd { .. }) => {
                        // SAFETY: `c`'s kind (see above).
                        test!(unsafe { t.code.holds(st, k) })
                    }
                    Kind::SetImm { to, value } => {
                        // SAFETY: an operand of `c` (see above).
                        unsafe { self.write_sealed(t, st, to, value) }
                    }
                    Kind::SetTab { to, slot, table } => {
                        // SAFETY: operands of `c` (see above).
                        let v = unsafe { t.code.tab(st, slot, table) };
                        // SAFETY: as above.
                        unsafe { self.write_sealed(t, st, to, v) };
                    }
                    Kind::SetIndImm { slot, table, value } => {
                        // SAFETY: operands of `c` (see above).
                        let at = unsafe { t.code.place(st, slot, table)? };
                        // SAFETY: a slot `place` gave.
                        unsafe { self.write_sealed(t, st, at, value) };
                    }
                    Kind::AnySlot(slot) => {
                        // SAFETY: an operand of `c` (see above).
                        unsafe { self.write_sealed(t, st, slot, sym) }
                    }
                    Kind::Other => match t.edges[edge as usize].op {
                        Op::Cmp(a, b, eq) => test!((read(t, st, a) == read(t, st, b)) == eq),
                        Op::CmpMap(i, eq) => {
                            if crate::maps::equal(t, st, i) != eq {
                                continue 'frames;
                            }
                        }
                        Op::Reach(c, positive) => {
                            if self.check(t, st, c)? != positive {
                                continue 'frames;
                            }
                        }
                        Op::Assign(p, v) => {
                            let v = read(t, st, v);
                            let slot = place(t, st, p)?;
                            self.write(t, st, slot, v);
                        }
                        Op::AssignAny(p, _) => {
                            let slot = place(t, st, p)?;
                            self.write(t, st, slot, sym);
                        }
                        Op::AssignMap(i) => {
                            let mut writes = std::mem::take(&mut self.map_writes);
                            writes.clear();
                            let r = crate::maps::assign(t, st, i, &mut writes);
                            for &(slot, v) in &writes {
                                self.write(t, st, slot, v);
                            }
                            self.map_writes = writes;
                            r?;
                        }
                        Op::SetPlayer(v) => set_player!(read(t, st, v)),
                        Op::Skip | Op::Tag(_) | Op::TagVar(_) => {
                            unreachable!("specialised (`code.rs`)")
                        }
                    },
                }
                if !MOVES && c.to == target {
                    found = true;
                    break 'frames;
                }
                if c.next < code::DEAD {
                    // Inline, no visited check, no step count.
                    edge = c.next;
                    // SAFETY: an inline continuation of `c`.
                    c = unsafe { code.inline(edge) };
                    continue;
                }
                if c.next & code::GUARD != 0 {
                    let cyclic = t.edges[edge as usize].cyclic;
                    if cyclic == NO_EDGE || cyclic_value(t, st, cyclic) {
                        let info = &t.nodes[c.to as usize];
                        let new = if info.local != NO_DENSE {
                            // Frame `top` is the choice node before `c.to`.
                            let number = self.frames[top].number;
                            self.stamp(st, info.local, info.local_slot, number)
                        } else {
                            self.visit::<MOVES>(t, st, c.to, depth)?
                        };
                        if !new {
                            continue 'frames;
                        }
                    }
                }
                match c.next & code::FLOW {
                    code::FRAME => {
                        self.push_frame(t, st, c.to)?;
                        continue 'frames;
                    }
                    code::DEAD => continue 'frames,
                    next => {
                        // Only `@unique` nodes can close a cycle of single
                        // edges without a visited check: bound such walks
                        // (`code::COUNT`).
                        if c.next & code::COUNT != 0 {
                            self.steps += 1;
                            if self.steps > MAX_STEPS || self.log.len() > MAX_LOG {
                                return Err(RunError::TooManyStates {
                                    limit: MAX_STEPS,
                                    node: c.to,
                                });
                            }
                        }
                        edge = next;
                        // SAFETY: an inline continuation of `c`.
                        c = unsafe { code.inline(edge) };
                    }
                }
            }
        }
        if let Some(f) = self.frames.get(base).filter(|f| f.stamp_log != RELAY) {
            self.restore_stamps(f.stamp_log);
        }
        self.frames.truncate(base);
        let (log, tags, hash, tag_hash, version) = entry;
        self.rollback(st, log);
        if lean {
            self.counted_tags = tags as u32;
        } else {
            self.tags.truncate(tags);
            self.tag_ids.truncate(tags);
            self.vis.truncate(tags);
        }
        self.hash = hash;
        self.tag_hash = tag_hash;
        self.version = version;
        Ok(found)
    }
}
