//! The walk's instructions with the tables they index, verified once at
//! load so that the walk's hot loop reads them without bounds checks.
//!
//! [`Sealed`] is built only by [`Sealed::new`], which proves, for every
//! instruction it keeps (its fields are private, so no other value of the
//! type exists):
//!
//! - every slot operand (`slot`, `to`, `AnySlot`, `TagVar`) is below
//!   [`Sealed::slots`], the semistate's length;
//! - every table offset is at most the length of [`Tables::fun`](crate::tables::Tables::fun), and the
//!   copies of `fun` it indexes ([`Sealed`]'s `vals`, `reads`, `places`)
//!   are [`PAD`] entries longer, so `table + v` is in range for any `u16`
//!   value `v` of a slot, whatever the semistate holds;
//! - every entry of `reads` is a slot (below `slots`), every entry of
//!   `places` a slot or [`NO_SLOT`] (entries of `fun` that are neither,
//!   which a valid semistate never selects, are 0 there; an instruction
//!   whose table selects such an entry for a symbol is not specialised:
//!   [`Kind::Other`], run as written);
//! - the continuation of every instruction followed inline (below
//!   [`RAY`], which only [`Sealed::mark_rays`] writes) is an instruction
//!   of the table;
//! - the key hash's multipliers cover every slot.
//!
//! - every filter of an any-assignment read through a sealed table
//!   ([`Filter::Ind`]) is the comparison of a kept instruction;
//! - every [`Run`] lies within the semistate, and its symbols' reads are
//!   its slots in order (verified against the sealed tables);
//! - every edge's test ([`Sealed::pre`]) is a comparison whose operands
//!   pass the same checks as an instruction's;
//! - every leaf check's instruction ([`Sealed::leaf`]) is such a
//!   comparison (or a no-op), and goes on forward inside its check's range;
//! - every comparison of an any-assignment's tail ([`Sealed::tail`]) is
//!   such a comparison, every leaf check on it verified as above, and its
//!   slot the verified slot of the assignment.
//!
//! The walk checks once, where it starts, that the semistate has at least
//! [`Sealed::slots`] slots; the `unsafe` methods below then need only
//! that, and that the instruction they are given is one of this table's.
//!
//! Callgrind instructions per playout on translations (`rbg --engine
//! interp bench`, seed 1), against the bounds-checked reads: breakthrough
//! 8.7% fewer, hex 7.6%, chess 6.5%, reversi 5.9%, amazons 3.1%,
//! ticTacToe and connect4 2.3%, englishDraughts 1.4%.
//!
//! A second table serves walks whose tags do nothing (lean walks that need
//! not count them): its inline continuations go past tag instructions
//! ([`Sealed::table`]). Instructions per playout against the one table:
//! hex 7.2% fewer, breakthrough 6.4%, ticTacToe 3.1%, connect4 2.3%,
//! amazons 2.2%, chess 0.8%, reversi 0.1%, englishDraughts 0.2% more
//! (its tags are counted). Tried and dropped: numbering the semistate's
//! version only when a check or a frame needs it (a write marks it
//! stale): 0.3% to 1.3% more on all eight (the test at each frame push
//! costs more than the counter's update at each write).
//!
//! A frame takes its next edge through the edge's [`Pick`], decoded at
//! load: the any-assignment's symbols and their filter, instead of the
//! edge's action, its filter edge's comparison and that edge's
//! instruction decoded at every symbol. Instructions per playout: hex
//! 10.6% fewer, ticTacToe 4.9%, connect4 3.6%, breakthrough 3.4%,
//! reversi 1.3%, englishDraughts 0.2%, chess unchanged, amazons 0.2%
//! more. The `Pick` returned by value (a 24-byte copy per frame step)
//! cost amazons 2.9% and chess 0.6% more instructions than before it.
//! Tried and dropped: a move walk taking a [`Filter::Ind`]'s
//! any-assignment and its passed filter at once (the write done where the
//! symbol is picked, the walk going on from the filter's continuation:
//! two dispatches fewer per such move) gave hex -2.1%, but amazons
//! +3.5%, breakthrough +1.5%, englishDraughts +1.3% (see `code.rs` on
//! the loop's layout).

use crate::code::{is_cmp, Code, Kind, Pre, DEAD, FLOW, FRAME, RAY};
use crate::program::{Leaf, Leaves};
use crate::tables::{Act, Edge, NodeInfo, Op, Operand, Place, NO_EDGE, NO_SLOT};
use crate::{LoadError, RunError};

mod fixed;
mod leaf;
pub(crate) mod mask;
mod runs;
mod scan;

pub(crate) use fixed::fixed_slots;
pub use leaf::LeafCheck;
use leaf::{keyed_programs, Keyed};
use runs::{run_of, PassTable, Runs};
pub(crate) use runs::{Run, NO_RUN};

/// The index in `syms` of the first symbol `x` for which `read(st, x)`,
/// with `x` in `slot`, is `value` (`eq`) or is not (`syms.len()`: none).
/// One loop per sign, the sign's test not in the loop.
///
/// # Safety
/// `slot < st.len()`.
#[inline(always)]
unsafe fn first_equal(
    st: &mut [u16],
    slot: u32,
    syms: &[u16],
    (value, eq): (u16, bool),
    read: impl Fn(&[u16], u16) -> u16,
) -> usize {
    let mut first = |want: bool| {
        syms.iter()
            .position(|&x| {
                // SAFETY: `slot < st.len()` (caller).
                unsafe { *st.get_unchecked_mut(slot as usize) = x };
                (read(st, x) == value) == want
            })
            .unwrap_or(syms.len())
    };
    match eq {
        true => first(true),
        false => first(false),
    }
}

/// A probe's comparison: operands and `==` (true) or `!=`.
type Cond = (Operand, Operand, bool);

/// Entries past the end of `fun` in the sealed copies: a slot's value
/// (a `u16`) added to a table offset stays in range.
pub const PAD: usize = 1 << 16;

/// The walk's instructions and the tables they index, verified (see the
/// module's doc).
#[derive(Clone, Debug)]
pub struct Sealed {
    code: Box<[Code]>,
    /// `code` for walks whose tags are no-ops ([`Sealed::table`]).
    untagged: Box<[Code]>,
    /// `fun` as values, padded.
    vals: Box<[u32]>,
    /// `fun` as slots read (entries below `slots`), padded.
    reads: Box<[u32]>,
    /// `fun` as slots written (below `slots` or [`NO_SLOT`]), padded.
    places: Box<[u32]>,
    hash_mul: Box<[u64]>,
    slots: usize,
    /// Per edge, how a frame takes it ([`Sealed::pick`]).
    picks: Box<[Pick]>,
    /// Per edge, the test it must pass when taken from a frame
    /// ([`Sealed::pre`]; a comparison of kept operands, or none).
    pres: Box<[Pre]>,
    /// The tails of any-assignments ([`Sealed::tail`]) ...
    tails: Box<[Tail]>,
    /// ... and their tests (verified).
    tail_tests: Box<[TailTest]>,
    /// The leaf checks' instructions ([`Sealed::leaf`]) ...
    leaves: Box<[Leaf]>,
    /// ... and per check its range of them (verified), if it is one ...
    leaf_ranges: Box<[Option<LeafCheck>]>,
    /// ... per instruction of the checks' programs, its any-assignment's
    /// subtree as a leaf check ([`Sealed::subtree`]) ...
    subtrees: Box<[Option<LeafCheck>]>,
    /// ... per keyed leaf check ([`LeafCheck::key`]) and symbol of its key,
    /// the range of `keyed` that is its program for that symbol ...
    keyed_index: Box<[(u32, u32)]>,
    /// ... and those programs (verified).
    keyed: Keyed,
    /// The number of symbols (a keyed check's programs per key).
    symbols: u32,
    /// Per edge, its any-assignment's [`Run`] ([`NO_RUN`]: none) ...
    any_runs: Box<[u32]>,
    /// ... per node, the run of an any-assignment into it (the first
    /// one's) ...
    node_runs: Box<[u32]>,
    /// ... the runs (each within the semistate) ...
    runs: Box<[Run]>,
    /// ... and their tables of passing values.
    passes: Box<[PassTable]>,
    /// Per instruction of the checks' programs, the run of its
    /// any-assignment's filter ([`Sealed::filter_run`]).
    filter_runs: Box<[u32]>,
    /// Per check, the run of its probe's any-assignment
    /// ([`Sealed::probe_run`]).
    probe_runs: Box<[u32]>,
    /// Per node, its one edge `x = f[x]` as (the table of `f`, the
    /// target) ([`Sealed::step_through`]; [`NO_STEP`]: not such a node).
    steps: Box<[(u32, u32)]>,
    /// Per node, its range of `scans` ([`Sealed::scan`]) ...
    scan_ranges: Box<[(u32, u32, Option<scan::GuardRun>)]>,
    /// ... and those (verified).
    scans: Box<[scan::Scan]>,
}

/// [`Sealed::step_through`] of a node that is not one edge `x = f[x]`.
pub(crate) const NO_STEP: (u32, u32) = (u32::MAX, u32::MAX);

/// How the walk takes an edge from a frame: an any-assignment's symbols
/// and the test that filters them (`shortcut.rs`), decoded once at load
/// instead of from the edge, its filter's comparison and its instruction
/// at every symbol taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pick {
    /// The any-assignment's symbols, `any_syms[start .. start + len]`
    /// (`len` 0: not an any-assignment; a type has symbols).
    pub start: u32,
    /// See `start`.
    pub len: u32,
    /// The symbols' test.
    pub test: Filter,
    /// The any-assignment's [`Tail`] in [`Sealed::tail`] ([`NO_TAIL`]:
    /// none).
    pub tail: u32,
}

/// [`Pick::tail`] of an edge without a tail.
pub(crate) const NO_TAIL: u32 = u32::MAX;

/// What follows an any-assignment `slot = T(*)` in a walk whose tags are
/// no-ops ([`Sealed::table`] without tags), when that is a move's end:
/// comparisons, leaf checks ([`TailTest`]) and no-ops (tags too) followed
/// inline (no visited check, no step count), then `player = v`. Each symbol that passes the comparisons is
/// then a move whose changes are the walk's log, the symbol and `player`:
/// recorded at once, without a frame step per symbol (`walk/run.rs`,
/// `Walker::tail_moves`): a symbol costs its comparisons and its record,
/// not the frame's restore, three dispatches and a logged write.
///
/// Callgrind instructions per playout (`rbg --engine interp bench`, seed 1)
/// on translations, whose moves that place a piece end so (`coord =
/// Coord(*)`, `board[coord] == e`, tags, `player = keeper`): hex -29.8%,
/// ticTacToe -12.5%, connect4 -11.1%; the others, which have no tail,
/// within +1.3% (amazons; the walk's loop changed, `code.rs`). The record
/// (`Effects::push`) had to stop calling the generic `extend` it shares
/// with the tail: with it, the record left the walk's loop
/// (breakthrough +5.4%, amazons +5.5%). Then leaf checks on the way
/// (reversi's "this square flips something"), the passing symbols
/// gathered first (a first `board[x] == c` of the slot hoisted) and
/// recorded after: reversi -11.7%, hex -14.3%, ticTacToe -3.2%, connect4
/// -1.2%, the others within 0.1%. Tried and dropped: `Effects` making
/// room once for all of them, then `Vec::push`es (hex +1.9%, ticTacToe
/// +1.2%: a capacity test per change).
///
/// A tail whose only test is the comparison of a [`Run`] (`board[x] ==
/// e`) reads the passing symbols in the semistate, nothing written
/// ([`Sealed::passing_in_run`]). Callgrind instructions per playout
/// against 585fa43: hex 981,656 -> 867,770 (-11.6%), ticTacToe 15,461 ->
/// 15,262 (-1.3%), connect4 62,592 -> 62,414 (-0.3%), reversi 2,051,974
/// -> 2,060,306 (+0.4%: no such tail, `tail_moves` laid out anew), the
/// others within 0.06%. Tried and dropped: the scan inline in
/// `tail_moves` (hex -9.8%, ticTacToe -2.1%, connect4 -0.7%, reversi
/// +0.6%); the run for a first test of several, the others tested on the
/// symbols gathered (`Vec::retain`: reversi +2.4%) or in the same loop,
/// the semistate indexed per symbol (hex -0.8% only, ticTacToe +1.0%).
///
/// A tail whose first test is the run's comparison and that has others
/// (translated amazons_split's "a queen of mine here" on 100 squares,
/// then "it can move") scans the run as well, each passing symbol taken
/// through the other tests as the scan finds it, the scan resumed below
/// it (`Walker::tail_moves`; issue 13). Callgrind instructions per 20
/// playouts (interp, seed 1, in `play_random`) against 7b4bc70:
/// amazons_split5 11,262,692 -> 10,292,753 (-8.6%), amazons_split3
/// 10,463,595 -> 9,488,773 (-9.3%), reversi -0.69%, reversi_4x4 -0.28%,
/// ticTacToe +0.72% and connect4 +0.58% (~9 instructions more per
/// `tail_moves`, its registers), hex +0.19%, the others within 0.03%
/// (native unchanged). Tried and dropped: gathered first, then
/// `Vec::retain`: amazons_split5 -10.3%, amazons_split3 -11.2%, but
/// reversi +4.1%; in one loop indexing the run per symbol,
/// amazons_split5 -4.8%, amazons_split3 -5.2%; the scan out of line
/// (as `passing_in_run`): ticTacToe +0.08%, but reversi +1.18%.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tail {
    /// The assigned slot.
    pub slot: u32,
    /// The tests, [`Sealed::tail_tests`] `first .. end`.
    pub first: u32,
    /// See `first`.
    pub end: u32,
    /// The `player` value.
    pub player: u16,
    /// The node the move ends at.
    pub node: u32,
    /// The [`Run`] of the symbols when the first test is its comparison
    /// ([`NO_RUN`]: none): the symbols that pass it are read in the
    /// semistate ([`Sealed::run_values`]), nothing written, and only those
    /// take the other tests.
    pub run: u32,
}

/// A test on a [`Tail`]'s way: a comparison, or a leaf check
/// (`program::leaves`, its range verified) that holds (`positive`) or not
/// (`? c`, `! c`). A leaf check meets no error outside other checks (a
/// move walk's), and its memo would not serve: every symbol's semistate
/// is new.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TailTest {
    /// A comparison [`Sealed::holds`] takes.
    Cmp(Kind),
    /// A leaf check's instructions ([`Sealed::leaf`]) and its sign.
    Leaf {
        /// The check's leaf instructions.
        range: LeafCheck,
        /// `? c` (else `! c`).
        positive: bool,
    },
}

/// The test an any-assignment's symbols pass before the walk takes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Filter {
    /// None: every symbol is taken.
    None,
    /// `st[fun[table + x]] == value` (`eq`) or `!=` with the symbol `x`
    /// in the assigned slot: the instruction of edge `edge`, the
    /// any-assignment's filter (its operands verified).
    Ind {
        /// The filter's edge.
        edge: u32,
        /// The assigned slot.
        slot: u32,
        /// The slot table.
        table: u32,
        /// The symbol compared with.
        value: u16,
        /// `==` (else `!=`).
        eq: bool,
    },
    /// The target's comparisons ([`Act::AnyTests`]) with the symbol in
    /// `slot`: edges `first .. first + count`.
    Tests {
        /// The assigned slot.
        slot: u32,
        /// The first comparison's edge.
        first: u32,
        /// The number of comparisons.
        count: u32,
    },
    /// Another filter ([`Edge::filter`] of another comparison): decided
    /// from the edges.
    Other,
    /// [`Filter::Tests`] whose reads form [`Run`] `run`
    /// ([`Sealed::last_in_run`]): the symbols scanned in the semistate,
    /// none written. Also a [`Filter::Ind`] whose reads form a run of
    /// more than 64 symbols whose passing values are one range (its
    /// comparison then tested as written).
    Run {
        /// The run.
        run: u32,
    },
    /// [`Filter::Run`] of a run whose passing values are one
    /// [`Range`](mask::Range): its frame keeps the run's mask from the
    /// scan's start (`Walker::mask_filter`). Also a [`Filter::Ind`] whose
    /// symbols' reads form such a run (its one comparison the run's).
    Mask {
        /// The run.
        run: u32,
        /// The comparison's edge that a symbol taken passes: the
        /// [`Filter::Ind`]'s edge, or [`NO_EDGE`] (a [`Filter::Tests`]'s
        /// comparisons are tested as written).
        passed: u32,
    },
}

/// The [`Pick`] of `e` (its [`Act`] `act`), `code` verified.
fn pick(e: &Edge, act: &Act, code: &[Code]) -> Pick {
    let Op::AssignAny(place, (start, len)) = e.op else {
        return Pick {
            start: 0,
            len: 0,
            test: Filter::None,
            tail: NO_TAIL,
        };
    };
    let test = match (place, e.filter) {
        (Place::Slot(slot), NO_EDGE) => match *act {
            Act::AnyTests { first, count } => Filter::Tests { slot, first, count },
            _ => Filter::None,
        },
        (Place::Slot(slot), f) => match code[f as usize].kind {
            Kind::CmpInd {
                slot: s,
                table,
                value,
                eq,
            } if s == slot => Filter::Ind {
                edge: f,
                slot,
                table,
                value,
                eq,
            },
            _ => Filter::Other,
        },
        _ => Filter::None,
    };
    Pick {
        start,
        len,
        test,
        tail: NO_TAIL,
    }
}

/// The [`Tail`] of instruction `e` of `code` (a table whose inline
/// continuations are verified), its tests appended to `tests`; only
/// comparisons `sealed` vouches for. Of an any-assignment, or of a ray's
/// write `x = f[y]` (`rays.rs`).
fn tail(
    code: &[Code],
    e: usize,
    edges: &[Edge],
    leaves: &[Option<LeafCheck>],
    sealed: &dyn Fn(Kind) -> bool,
    tests: &mut Vec<TailTest>,
) -> Option<Tail> {
    let (Kind::AnySlot(slot) | Kind::SetTab { to: slot, .. }) = code[e].kind else {
        return None;
    };
    let first = tests.len();
    let mut c = &code[e];
    // Inline continuations are in range (verified); a chain of them
    // visits each instruction once at most before it ends or repeats.
    for _ in 0..code.len() {
        if c.next >= DEAD {
            break;
        }
        let i = c.next as usize;
        c = &code[i];
        // (A branch, past the edges, ends the tail.)
        let Some(e) = edges.get(i) else { break };
        match (c.kind, e.op) {
            // (Tags are no-ops in a walk with this table, `Kind::Skip`;
            // the tags it keeps are counted: they end the tail.)
            (Kind::Skip, _) => {}
            (k, _) if is_cmp(k) && sealed(k) => tests.push(TailTest::Cmp(k)),
            (Kind::Other, Op::Reach(check, positive)) => match leaves.get(check as usize) {
                Some(&Some(range)) => tests.push(TailTest::Leaf { range, positive }),
                _ => break,
            },
            (Kind::Player(player), _) => {
                return Some(Tail {
                    slot,
                    first: first as u32,
                    end: tests.len() as u32,
                    player,
                    node: c.to,
                    run: NO_RUN,
                })
            }
            _ => break,
        }
    }
    tests.truncate(first);
    None
}

impl Sealed {
    /// Seals `code` over `fun` for a semistate of `slots` slots holding
    /// symbols below `symbols`; `hash_mul` has a multiplier per slot. With
    /// `with_runs`, any-assignments' symbols are scanned as [`Run`]s where
    /// they form one (`nodes` and `any_syms` say where).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        (mut code, mut pres): (Vec<Code>, Vec<Pre>),
        (edges, acts, counted): (&[Edge], &[Act], &[bool]),
        (nodes, any_syms, with_runs): (&[NodeInfo], &[u16], bool),
        (leaves, leaf_ranges, subtrees): Leaves,
        fun: &[u32],
        hash_mul: &[u64],
        (slots, fixed): (usize, &[Option<u16>]),
        symbols: u32,
    ) -> Result<Sealed, LoadError> {
        if hash_mul.len() < slots || slots == 0 || slots > NO_SLOT as usize {
            return Err(LoadError(format!("{slots} slots: the layout is broken")));
        }
        let padded = |f: &dyn Fn(u32) -> u32| -> Box<[u32]> {
            fun.iter()
                .map(|&x| f(x))
                .chain(std::iter::repeat_n(0, PAD))
                .collect()
        };
        let is_slot = |x: u32| (x as usize) < slots;
        let vals = padded(&|x| x);
        let reads = padded(&|x| if is_slot(x) { x } else { 0 });
        let places = padded(&|x| if is_slot(x) || x == NO_SLOT { x } else { 0 });
        // A table of `symbols` entries at `table`, each passing `ok`.
        let region = |table: u32, ok: &dyn Fn(u32) -> bool| {
            let (a, b) = (table as usize, table as usize + symbols as usize);
            b <= fun.len() && fun[a..b].iter().all(|&x| ok(x))
        };
        // Instructions past the edges' are branches (`code::branches`).
        let n = code.len();
        let n_edges = edges.len();
        let s = |x: u32| is_slot(x);
        // Whether the operands of `kind` are verified.
        let sealed = |kind: Kind| match kind {
            Kind::Skip | Kind::Tag(_) | Kind::Player(_) | Kind::Other => true,
            Kind::Branch { yes, no, .. } => yes < n_edges as u32 && no < n_edges as u32,
            Kind::TagVar(slot) | Kind::AnySlot(slot) | Kind::CmpSlot { slot, .. } => s(slot),
            Kind::SetImm { to, .. } => s(to),
            Kind::CmpTab { slot, table, .. } => s(slot) && region(table, &|_| true),
            Kind::SetTab { to, slot, table } => s(to) && s(slot) && region(table, &|_| true),
            Kind::CmpInd { slot, table, .. } => s(slot) && region(table, &is_slot),
            Kind::CmpTabInd {
                slot, inner, outer, ..
            } => s(slot) && region(inner, &is_slot) && region(outer, &|_| true),
            Kind::SetIndImm { slot, table, .. } => {
                s(slot) && region(table, &|x| is_slot(x) || x == NO_SLOT)
            }
        };
        for (i, c) in code.iter_mut().enumerate() {
            // Branches past the edges' instructions, and only there.
            let branch = matches!(c.kind, Kind::Branch { .. });
            if branch != (i >= n_edges) || branch && !sealed(c.kind) {
                return Err(LoadError(format!("instruction {i}: not an edge's")));
            }
            if !sealed(c.kind) {
                // Run as written (bounds-checked): never for a lowered game.
                c.kind = Kind::Other;
            }
            let flow = c.next & FLOW;
            if flow < DEAD && flow as usize >= n {
                return Err(LoadError(format!("edge {flow} follows past the edges")));
            }
        }
        if pres.len() != n_edges {
            return Err(LoadError("edges and their tests differ".into()));
        }
        for p in &mut pres {
            if !is_cmp(p.kind) || !sealed(p.kind) {
                // No test: the edge is taken (and tests as written).
                *p = Pre::NONE;
            }
        }
        if acts.len() != n_edges {
            return Err(LoadError("edges and instructions differ".into()));
        }
        let mut picks: Box<[Pick]> = edges
            .iter()
            .zip(acts)
            .map(|(e, act)| match e.filter {
                f if f != NO_EDGE && f as usize >= n => {
                    Err(LoadError(format!("edge {f} filters past the edges")))
                }
                _ => Ok(pick(e, act, &code)),
            })
            .collect::<Result<_, _>>()?;
        let checks = |ranges: Vec<Option<(u32, u32)>>| -> Vec<Option<LeafCheck>> {
            ranges
                .into_iter()
                .map(|r| {
                    r.map(|(start, end)| LeafCheck {
                        start,
                        end,
                        key: NO_SLOT,
                        keyed: 0,
                        tables: false,
                    })
                })
                .collect()
        };
        // The subtrees after the checks, verified and keyed alike.
        let n_subtrees = subtrees.len();
        let mut leaf_ranges = checks(leaf_ranges);
        leaf_ranges.extend(checks(subtrees));
        for r in &mut leaf_ranges {
            // Each instruction a verified comparison or a no-op, each jump
            // forward and inside the range (so the run ends).
            let ok = |&LeafCheck { start, end, .. }: &LeafCheck| {
                end as usize <= leaves.len()
                    && (start..end).all(|i| {
                        let l = &leaves[i as usize];
                        (l.kind == Kind::Skip || is_cmp(l.kind) && sealed(l.kind))
                            && l.skip > i
                            && l.skip <= end
                    })
            };
            *r = r.filter(ok);
        }
        // (Without runs, as the reference: none keyed, no subtree.)
        let (keyed_index, keyed) = match with_runs {
            true => keyed_programs(
                &leaves,
                &mut leaf_ranges,
                (&vals[..], &reads[..]),
                (symbols, slots),
                fixed,
            ),
            false => Default::default(),
        };
        let mut subtrees = leaf_ranges.split_off(leaf_ranges.len() - n_subtrees);
        if !with_runs {
            subtrees.iter_mut().for_each(|r| *r = None);
        }
        // Runs: each within the semistate, its symbols the edge's.
        let mut runs = Runs::default();
        let mut any_runs = vec![NO_RUN; n_edges].into_boxed_slice();
        let mut node_runs = vec![NO_RUN; nodes.len()].into_boxed_slice();
        // (Without runs: none, every any-assignment's symbols written.)
        let run_edges = if with_runs { edges } else { &[] };
        for (e, r) in run_edges.iter().zip(any_runs.iter_mut()) {
            let Op::AssignAny(Place::Slot(slot), (start, len)) = e.op else {
                continue;
            };
            let (Some(info), Some(syms)) = (
                nodes.get(e.to as usize),
                any_syms.get(start as usize..(start as usize).saturating_add(len as usize)),
            ) else {
                continue;
            };
            let Some(cmps) = code.get(info.first as usize..info.end as usize) else {
                continue;
            };
            let read = (slot, syms, slots);
            let Some((base, pass)) = run_of(cmps, read, (&vals[..], &reads[..]), &sealed) else {
                continue;
            };
            let Some(i) = runs.add((base, len), (start, slot), pass) else {
                continue;
            };
            *r = i;
            if let Some(n) = node_runs.get_mut(e.to as usize).filter(|n| **n == NO_RUN) {
                *n = i;
            }
        }
        for (p, &run) in picks.iter_mut().zip(any_runs.iter()) {
            p.test = match p.test {
                Filter::Tests { .. } if run != NO_RUN && runs.has_mask(run) => Filter::Mask {
                    run,
                    passed: NO_EDGE,
                },
                // The filter is the target's only edge (`set_filters`):
                // the run's table is its comparison's.
                Filter::Ind { edge, .. } if run != NO_RUN && runs.has_mask(run) => {
                    Filter::Mask { run, passed: edge }
                }
                // Past 64 symbols, a scan eight values a step
                // (`Sealed::last_in_run`), its comparison tested again.
                // Callgrind instructions per playout (interp, seed 7, in
                // `play_random`) against cf23477: foxAndHounds-12x12
                // 538,072 -> 495,823 (-7.9%), amazons -1.5%, the others
                // within 0.03%; as a frame's kept masks instead (one per
                // 64 squares, -9.5%), chess +0.6% and breakthrough +0.9%
                // (the walk's loop laid out anew).
                Filter::Ind { .. } if run != NO_RUN && runs.has_range(run) => Filter::Run { run },
                Filter::Tests { .. } if run != NO_RUN => Filter::Run { run },
                test => test,
            };
        }
        // Nodes of one edge `x = f[x]` (verified), not `@disjoint`.
        let steps = nodes
            .iter()
            .map(|n| match code.get(n.first as usize..n.end as usize) {
                Some([c]) if with_runs && !n.disjoint => match c.kind {
                    Kind::SetTab { to, slot, table } if to == slot => (table, c.to),
                    _ => NO_STEP,
                },
                _ => NO_STEP,
            })
            .collect();
        // (`skip_tags` takes continuations from `code`: in range too.)
        let untagged = skip_tags(&code, counted);
        let mut tails = Vec::new();
        let mut tail_tests = Vec::new();
        for (e, p) in picks.iter_mut().enumerate() {
            let checks = &leaf_ranges[..];
            if let Some(mut tail) = tail(&untagged, e, edges, checks, &sealed, &mut tail_tests) {
                // The run's comparison is the target's only edge, the
                // tail's first test.
                let only = nodes
                    .get(edges[e].to as usize)
                    .filter(|n| n.end.checked_sub(n.first) == Some(1))
                    .map(|n| TailTest::Cmp(code[n.first as usize].kind));
                let tests = tail_tests.get(tail.first as usize..tail.end as usize);
                if let (Some(&[test, ..]), Some(only)) = (tests, only) {
                    if test == only {
                        tail.run = any_runs[e];
                    }
                }
                p.tail = tails.len() as u32;
                tails.push(tail);
            }
        }
        Ok(Sealed {
            code: code.into_boxed_slice(),
            untagged,
            vals,
            reads,
            places,
            hash_mul: hash_mul[..slots].into(),
            slots,
            picks,
            pres: pres.into_boxed_slice(),
            tails: tails.into_boxed_slice(),
            tail_tests: tail_tests.into_boxed_slice(),
            leaves: leaves.into_boxed_slice(),
            leaf_ranges: leaf_ranges.into_boxed_slice(),
            subtrees: subtrees.into_boxed_slice(),
            keyed_index: keyed_index.into_boxed_slice(),
            keyed,
            symbols,
            any_runs,
            node_runs,
            runs: runs.runs.into_boxed_slice(),
            passes: runs.passes.into_boxed_slice(),
            filter_runs: Box::default(),
            probe_runs: Box::default(),
            steps,
            scan_ranges: Box::default(),
            scans: Box::default(),
        })
    }

    /// Node `n`'s one edge `x = f[x]` as the table of `f` and the edge's
    /// target, when that is all the node does ([`NO_STEP`]: not such a
    /// node; checked): a one-slot check's search takes it where it enters
    /// the node (`shortcut.rs`). The table reads with [`Sealed::tab_at`].
    #[inline(always)]
    pub(crate) fn step_through(&self, n: u32) -> (u32, u32) {
        self.steps[n as usize]
    }

    /// The number of nodes a one-slot check's search steps through
    /// ([`Sealed::step_through`]).
    pub fn step_nodes(&self) -> usize {
        self.steps.iter().filter(|&&s| s != NO_STEP).count()
    }

    /// The instructions, one per edge of [`Tables::edges`](crate::tables::Tables::edges).
    pub fn code(&self) -> &[Code] {
        &self.code
    }

    /// Sends the continuations into a frame (`FRAME`, no flags) of the
    /// table of walks whose tags are no-ops to [`RAY`] where their target
    /// node starts a ray (`starts`, `rays.rs`).
    pub(crate) fn mark_rays(&mut self, starts: &[bool]) {
        for c in self.untagged.iter_mut() {
            if c.next == FRAME && starts.get(c.to as usize) == Some(&true) {
                c.next = RAY;
            }
        }
    }

    /// The instructions a walk runs: with `tags` false, for a lean walk
    /// that counts only the tags on cycles
    /// ([`crate::tables::Tables::tag_limit`]), the other tags are no-ops
    /// ([`Kind::Skip`]) which the inline continuations skip.
    #[inline(always)]
    pub(crate) fn table(&self, tags: bool) -> Table<'_> {
        Table(if tags { &self.code } else { &self.untagged })
    }

    /// How a frame takes edge `edge` (checked).
    #[inline(always)]
    pub(crate) fn pick(&self, edge: u32) -> &Pick {
        &self.picks[edge as usize]
    }

    /// The number of any-assignments whose filter keeps its run's mask
    /// ([`Filter::Mask`]).
    pub fn mask_filters(&self) -> usize {
        self.picks
            .iter()
            .filter(|p| matches!(p.test, Filter::Mask { .. }))
            .count()
    }

    /// The number of any-assignments whose filter scans its run
    /// ([`Filter::Run`]).
    pub fn run_filters(&self) -> usize {
        self.picks
            .iter()
            .filter(|p| matches!(p.test, Filter::Run { .. }))
            .count()
    }

    /// Tail `i` (a [`Pick::tail`]) and its tests, which
    /// [`Sealed::passes`] takes.
    #[inline(always)]
    pub(crate) fn tail(&self, i: u32) -> (&Tail, &[TailTest]) {
        let tail = &self.tails[i as usize];
        let tests = &self.tail_tests[tail.first as usize..tail.end as usize];
        (tail, tests)
    }

    /// Whether a tail's test holds in `st`.
    ///
    /// # Safety
    /// `test` is one of [`Sealed::tail`]'s and `st.len() >= self.slots()`.
    #[inline(always)]
    pub(crate) unsafe fn passes(&self, st: &[u16], test: TailTest) -> bool {
        match test {
            // SAFETY: a comparison `new` verified (caller).
            TailTest::Cmp(k) => unsafe { self.holds(st, k) },
            TailTest::Leaf { range, positive } => self.leaf(st, range) == positive,
        }
    }

    /// The test edge `edge` must pass when taken from a frame (checked):
    /// [`Kind::Skip`] or a comparison [`Sealed::holds`] takes.
    #[inline(always)]
    pub(crate) fn pre(&self, edge: u32) -> &Pre {
        &self.pres[edge as usize]
    }

    /// The semistate's length: the walk's slices have at least as many.
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// `st[slot]`.
    ///
    /// # Safety
    /// `slot` is a slot operand of an instruction of this table and
    /// `st.len() >= self.slots()`.
    #[inline(always)]
    pub(crate) unsafe fn get(&self, st: &[u16], slot: u32) -> u16 {
        debug_assert!((slot as usize) < self.slots && st.len() >= self.slots);
        // SAFETY: `new` checked slot operands below `slots`; the caller
        // that `st` is at least as long.
        unsafe { *st.get_unchecked(slot as usize) }
    }

    /// `fun[table + st[slot]]`.
    ///
    /// # Safety
    /// As [`Sealed::get`], `table` a table operand of the same instruction.
    #[inline(always)]
    pub(crate) unsafe fn tab(&self, st: &[u16], slot: u32, table: u32) -> u16 {
        // SAFETY: as `get` and `tab_at`.
        unsafe { self.tab_at(self.get(st, slot), table) }
    }

    /// `fun[table + k]`.
    ///
    /// # Safety
    /// `table` a table operand of an instruction of this table (or of a
    /// [`Sealed::step_through`]).
    #[inline(always)]
    pub(crate) unsafe fn tab_at(&self, k: u16, table: u32) -> u16 {
        // SAFETY: `table` is at most `fun`'s length and `vals` has `PAD`
        // (> any u16) more entries.
        unsafe { *self.vals.get_unchecked((table + k as u32) as usize) as u16 }
    }

    /// `st[fun[table + st[slot]]]`.
    ///
    /// # Safety
    /// As [`Sealed::tab`].
    #[inline(always)]
    pub(crate) unsafe fn ind(&self, st: &[u16], slot: u32, table: u32) -> u16 {
        // SAFETY: as `get` and `ind_at`.
        unsafe { self.ind_at(st, self.get(st, slot), table) }
    }

    /// `st[fun[table + k]]`.
    ///
    /// # Safety
    /// As [`Sealed::tab_at`], and `st.len() >= self.slots()`.
    #[inline(always)]
    unsafe fn ind_at(&self, st: &[u16], k: u16, table: u32) -> u16 {
        // SAFETY: as `tab_at`; every entry of `reads` is below `slots`.
        unsafe {
            let at = *self.reads.get_unchecked((table + k as u32) as usize);
            *st.get_unchecked(at as usize)
        }
    }

    /// The slot `fun[table + st[slot]]` ([`NO_SLOT`]: an error).
    ///
    /// # Safety
    /// As [`Sealed::tab`].
    #[inline(always)]
    pub(crate) unsafe fn place(&self, st: &[u16], slot: u32, table: u32) -> Result<u32, RunError> {
        // SAFETY: as `tab`.
        let k = unsafe { self.get(st, slot) };
        // SAFETY: as `tab`; `places` holds slots below `slots` or `NO_SLOT`.
        match unsafe { *self.places.get_unchecked((table + k as u32) as usize) } {
            NO_SLOT => Err(RunError::ForeignKey(k)),
            at => Ok(at),
        }
    }

    /// Whether comparison `kind` (of an instruction of this table, or a
    /// [`Sealed::pre`] test, with one of the `Cmp` kinds) holds.
    ///
    /// # Safety
    /// `kind` is an instruction's or a test's of this table and
    /// `st.len() >= self.slots()`.
    #[inline(always)]
    pub(crate) unsafe fn holds(&self, st: &[u16], kind: Kind) -> bool {
        // SAFETY: the operands are an instruction's of this table (caller).
        unsafe {
            match kind {
                Kind::CmpSlot { slot, value, eq } => (self.get(st, slot) == value) == eq,
                Kind::CmpInd {
                    slot,
                    table,
                    value,
                    eq,
                } => (self.ind(st, slot, table) == value) == eq,
                Kind::CmpTab {
                    slot,
                    table,
                    value,
                    eq,
                } => (self.tab(st, slot, table) == value) == eq,
                Kind::CmpTabInd {
                    slot,
                    inner,
                    outer,
                    value,
                    eq,
                } => (self.tab_at(self.ind(st, slot, inner), outer) == value) == eq,
                _ => unreachable!("not a specialised comparison"),
            }
        }
    }

    /// The index in `syms` of the first symbol for which comparison
    /// `kind` holds with it in `slot` (`syms.len()`: none); `slot` is
    /// left holding the last symbol tried. `board[x] == c` and
    /// `f[board[x]] == c` of `slot` read the symbol, not the slot, in a
    /// loop per sign. Out of line: inlined into the one-slot search, whose
    /// own values fill the registers, the loop kept its operands on the
    /// stack (15 instructions a symbol, 9 here).
    ///
    /// # Safety
    /// As [`Sealed::holds`]; `slot` is a slot operand of an instruction of
    /// this table.
    #[inline(never)]
    pub(crate) unsafe fn first_holding(
        &self,
        st: &mut [u16],
        slot: u32,
        syms: &[u16],
        kind: Kind,
    ) -> usize {
        debug_assert!((slot as usize) < self.slots && st.len() >= self.slots);
        match (kind, kind.compared()) {
            (Kind::CmpInd { slot: s, table, .. }, Some(cmp)) if s == slot => {
                // SAFETY: `table` is `kind`'s, `st` long enough (caller).
                let read = |st: &[u16], x| unsafe { self.ind_at(st, x, table) };
                // SAFETY: `slot < slots <= st.len()` (caller).
                unsafe { first_equal(st, slot, syms, cmp, read) }
            }
            (
                Kind::CmpTabInd {
                    slot: s,
                    inner,
                    outer,
                    ..
                },
                Some(cmp),
            ) if s == slot => {
                // SAFETY: as above, `inner` and `outer` `kind`'s.
                let read = |st: &[u16], x| unsafe { self.tab_at(self.ind_at(st, x, inner), outer) };
                // SAFETY: as above.
                unsafe { first_equal(st, slot, syms, cmp, read) }
            }
            _ => syms
                .iter()
                .position(|&x| {
                    // SAFETY: `slot < slots <= st.len()`; `kind` as
                    // `holds` (caller).
                    unsafe {
                        *st.get_unchecked_mut(slot as usize) = x;
                        self.holds(st, kind)
                    }
                })
                .unwrap_or(syms.len()),
        }
    }

    /// Writes `v` to `st[slot]`; the old value and the slot's key-hash
    /// multiplier.
    ///
    /// # Safety
    /// `slot` is below `self.slots()` (a slot operand of an instruction of
    /// this table, or a slot [`Sealed::place`] gave) and
    /// `st.len() >= self.slots()`.
    #[inline(always)]
    pub(crate) unsafe fn set(&self, st: &mut [u16], slot: u32, v: u16) -> (u16, u64) {
        debug_assert!((slot as usize) < self.slots && st.len() >= self.slots);
        // SAFETY: `slot < slots <= st.len()` (caller); `hash_mul` has
        // `slots` entries (`new`).
        unsafe {
            let at = st.get_unchecked_mut(slot as usize);
            let old = *at;
            *at = v;
            (old, *self.hash_mul.get_unchecked(slot as usize))
        }
    }
}

/// One of [`Sealed`]'s instruction tables (both of the same length, every
/// inline continuation checked against it).
#[derive(Clone, Copy)]
pub(crate) struct Table<'a>(&'a [Code]);

impl<'a> Table<'a> {
    /// Instruction `i` (from a frame: checked).
    #[inline(always)]
    pub(crate) fn at(self, i: u32) -> &'a Code {
        &self.0[i as usize]
    }

    /// The instruction an inline continuation names.
    ///
    /// # Safety
    /// `next` is the [`Code::next`] of an instruction of this table, below
    /// [`RAY`] (flags cleared), or an edge of a [`Kind::Branch`].
    #[inline(always)]
    pub(crate) unsafe fn inline(self, next: u32) -> &'a Code {
        debug_assert!((next as usize) < self.0.len());
        // SAFETY: `Sealed::new` checked every inline continuation of both
        // tables against their (equal) length.
        unsafe { self.0.get_unchecked(next as usize) }
    }
}

/// `code` with the tags not `counted` (a lean walk counts only the tags
/// on cycles, [`crate::cycles::cyclic_tags`]) as [`Kind::Skip`], and each
/// inline continuation (no visited check, no step count) into one of them
/// taken past it: the instruction then goes where the tag's goes (its
/// target and continuation, flags included). For walks whose other tags
/// do nothing, so the same walk with fewer instructions.
fn skip_tags(code: &[Code], counted: &[bool]) -> Box<[Code]> {
    let skipped = |i: u32, c: &Code| {
        matches!(c.kind, Kind::Tag(_) | Kind::TagVar(_))
            && !counted.get(i as usize).unwrap_or(&false)
    };
    code.iter()
        .enumerate()
        .map(|(i, c)| {
            let mut c = *c;
            if skipped(i as u32, &c) {
                c.kind = Kind::Skip;
            }
            if matches!(c.kind, Kind::Other | Kind::Player(_) | Kind::Branch { .. }) {
                // `player = v` records its target: left as it is.
                return c;
            }
            // A chain of tags ends (edges are finite, and a cycle of inline
            // tags without a step count would be endless anyway): bounded.
            for _ in 0..code.len() {
                match code.get(c.next as usize) {
                    Some(t) if c.next < DEAD && skipped(c.next, t) => {
                        c.to = t.to;
                        c.next = t.next;
                    }
                    _ => break,
                }
            }
            c
        })
        .collect()
}
