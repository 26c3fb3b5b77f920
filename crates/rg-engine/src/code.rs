//! The interpreter's edges as compact instructions (`walk.rs` runs them).
//!
//! Each edge of [`crate::tables::Tables::edges`] is lowered once, at load
//! time, into a [`Code`]: its action as one specialised operation with its operands
//! inline (`board[x] == c`, `x = f[y]`, `board[x] = c`, ...), its target
//! and its continuation packed into one word. The walk's loop then runs one
//! match on a small operation and one test of the continuation per edge,
//! reading 24 bytes, where it read the edge (its [`Op`] of two operands, and
//! the target's facts) and its operands' matched shape and tested the
//! target's visited check, the step count and the kind of continuation one
//! after another. Actions of rarer shapes ([`Kind::Other`]) are run from
//! [`crate::tables::Tables::edges`] as written. One-slot checks' searches
//! (`shortcut.rs`) read the same instructions, and their comparisons per
//! symbol (`Sealed::first_holding`, `walk/read.rs`) the same shapes.
//!
//! Callgrind instructions per playout (`rbg --engine interp bench`, seed 1)
//! on translations, against the walk over edges and matched actions: hex
//! -13.8%, chess -7.1%, breakthrough -6.2%, ticTacToe -6.2%, reversi
//! -5.9%, connect4 -4.1%, amazons -2.8%, englishDraughts -1.9%. Reading
//! the instruction by value (a 24-byte copy per edge) instead of by
//! reference gave back a third of it. Tried and dropped: the frame's
//! any-assignment reading its symbols and tests from here (a kind for
//! tested ones) cost hex +2.7%, breakthrough +3.4%; the one-slot chain
//! (`SlotSearch::reach`) through these instructions did nothing.
//!
//! The walk's loop (`walk/run.rs`, `Walker::run`) is sensitive to its
//! machine code's layout: a change to one path moves the others'
//! register allocation, so measure all eight translations. Tried and
//! dropped (callgrind instructions per playout, `rbg --engine interp
//! bench`, seed 1):
//!
//! - the moves' record (`Effects::push`) inlined into the loop: amazons
//!   +4.7%, hex +4.6%, breakthrough +3.9%, ticTacToe +2.6%, reversi
//!   unchanged;
//! - the record keeping a slot written again at once (a ray's
//!   `coord = go[coord]`) once, in a loop that looks ahead instead of
//!   one `extend`: amazons +13.9%, breakthrough +8.5%, hex +6.3%;
//! - the moves' record sharing a prefix with the walk recorded before
//!   (the log holding each write's new value, the walk the lowest log
//!   length since its last record, `Effects` per walk only the writes
//!   past it and their number, applied from the walks before): amazons
//!   -3.9%, but hex +8.5%, ticTacToe +5.8%, connect4 +4.9%,
//!   breakthrough +4.8% (a record's fixed cost grew, 46 -> 73
//!   instructions in hex, and the walk's by the low mark);
//! - the moves' record (`Effects::push`) checking its room first and
//!   growing out of line (a cold tail call), the changes written into the
//!   spare capacity: hex +0.26%, ticTacToe +0.2% (its registers are still
//!   all saved: the copy loop keeps 14 values live); with the changes
//!   still one `extend`, its generic loop was not inlined: hex +13%;
//! - a frame with no edge left popped before the walk's state is
//!   restored (the frame below restores as much): amazons -3.3%,
//!   breakthrough -2.2%, englishDraughts -1.6%, hex -1.0%, chess -0.6%,
//!   yet chess 0.97 in time (alternated 8 rounds against the walk
//!   without it, 0.94-0.99; amazons 1.06, englishDraughts 1.03,
//!   breakthrough 1.02).
//!
//! Where translated ticTacToe's and connect4's time goes after the
//! any-assignments' tails (`sealed::Tail`; callgrind, seed 1, 5,000
//! playouts): a keeper enumeration costs ~1,740 instructions, a player's
//! ~1,200 (its tail ~590 for at most 9 symbols); ~445 instructions run
//! exactly once per enumeration (`moves`, `begin`, `run`'s entry and
//! exit, the root's frame). A tail's record is now written from a
//! template of the log (`Effects::push_syms`). Of `run`'s entry, the
//! visited set's clear (`Seen::clear`) is ~16 instructions: skipped in
//! games with no visited check (a `Tables` flag; ticTacToe and
//! breakthrough have none), ticTacToe -1.0%, but connect4 +0.3%, reversi
//! +0.75%, amazons +0.3%, englishDraughts +0.2%, hex +0.16%; the clear
//! out of line behind the flag, ticTacToe -1.0%, connect4 +1.1%,
//! englishDraughts +0.45%, hex +0.4% (callgrind per playout, seed 1;
//! dropped). The enumeration's entry runs ~100 instructions before the
//! root's `visit` (the `begin` resets, the set's clear, the hoisted
//! fields, read in its machine code); the rest of the ~445 is spread
//! over `moves`, the root's frame, its pop and the exit.
//!
//! Tried and dropped: a choice between `? c` and `! c` of a check that
//! meets no error in a move walk (leaf, probe, one-slot search) decided
//! where the walk enters the node (`Walker::enter`; each such edge's
//! [`Pre`] naming the check, its answer memoised, the edges that fail
//! pushing no frame). Evaluated inline for every edge's test: ticTacToe
//! -6.6%, connect4 -4.1%, hex -1.9%, but amazons +4.5%, breakthrough
//! +4.2%, englishDraughts +3.1%, reversi +2.0%, chess +0.7% (the test
//! of the check's kind in `enter`'s loops); out of line for the nodes
//! flagged as having such edges: ticTacToe -1.6%, connect4 -0.9%, hex
//! -0.5%, reversi +2.9%, breakthrough +2.0%, englishDraughts +1.3%,
//! amazons +0.9% (the call and the flag's test in the loop).
//!
//! A node whose only edges are `? c` and `! c` is entered inline as one
//! [`Kind::Branch`] ([`branches`], numbers there): no frame, the check
//! evaluated once. Unlike the choice decided in `enter` above, it adds no
//! test to the walk's other paths (one more arm in the loop's match).
//!
//! The instructions are sealed with the tables they index (`sealed.rs`,
//! [`crate::raw::Sealed`]): verified once at load, then read without
//! bounds checks.

use crate::tables::{Edge, Fast, Next, NodeInfo, Op, Operand, Place, NO_SWITCH};
use crate::LoadError;

/// An edge's action, specialised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// No action.
    Skip,
    /// `$ s`.
    Tag(u16),
    /// `$$ v`: the slot of `v`.
    TagVar(u32),
    /// `st[slot] == value` (`eq`) or `!=`.
    CmpSlot {
        /// The slot read.
        slot: u32,
        /// The symbol compared with.
        value: u16,
        /// `==` (else `!=`).
        eq: bool,
    },
    /// `st[fun[table + st[slot]]] == value` (`eq`) or `!=`: `board[x] == c`.
    CmpInd {
        /// The key's slot.
        slot: u32,
        /// The slot table.
        table: u32,
        /// The symbol compared with.
        value: u16,
        /// `==` (else `!=`).
        eq: bool,
    },
    /// `fun[table + st[slot]] == value` (`eq`) or `!=`: `f[x] == c`.
    CmpTab {
        /// The key's slot.
        slot: u32,
        /// The constant map's table.
        table: u32,
        /// The symbol compared with.
        value: u16,
        /// `==` (else `!=`).
        eq: bool,
    },
    /// `fun[outer + st[fun[inner + st[slot]]]] == value` (`eq`) or `!=`:
    /// `f[board[x]] == c`.
    CmpTabInd {
        /// The key's slot.
        slot: u32,
        /// The slot table of the inner read.
        inner: u32,
        /// The constant map's table.
        outer: u32,
        /// The symbol compared with.
        value: u16,
        /// `==` (else `!=`).
        eq: bool,
    },
    /// `st[to] = value`.
    SetImm {
        /// The slot written.
        to: u32,
        /// The symbol written.
        value: u16,
    },
    /// `st[to] = fun[table + st[slot]]`: `x = f[y]`.
    SetTab {
        /// The slot written.
        to: u32,
        /// The key's slot.
        slot: u32,
        /// The constant map's table.
        table: u32,
    },
    /// `st[fun[table + st[slot]]] = value` (`NO_SLOT` in the table: an
    /// error): `board[x] = c`.
    SetIndImm {
        /// The key's slot.
        slot: u32,
        /// The slot table.
        table: u32,
        /// The symbol written.
        value: u16,
    },
    /// `st[slot] = T(*)`: the frame's symbol written.
    AnySlot(u32),
    /// `player = v`: a move walk's end.
    Player(u16),
    /// Any other action: the edge's [`Op`] as written.
    Other,
    /// A node's choice between `? c` (edge `yes`) and `! c` (edge `no`)
    /// taken inline ([`branches`]): the edge whose test holds, its action
    /// done. Only an instruction past the edges' own.
    Branch {
        /// The check.
        check: u32,
        /// The `? c` edge.
        yes: u32,
        /// The `! c` edge.
        no: u32,
    },
}

/// [`Code::next`] flag: the target has a visited check.
pub const GUARD: u32 = 1 << 31;
/// [`Code::next`] flag: an edge followed inline counts a step
/// ([`crate::tables::Tables::has_unique`]).
pub const COUNT: u32 = 1 << 30;
/// [`Code::next`] without flags: the target offers a choice (push a frame).
pub const FRAME: u32 = COUNT - 1;
/// [`Code::next`] without flags: the target has no edges.
pub const DEAD: u32 = COUNT - 2;
/// [`Code::next`] without flags, only in the table of walks whose tags
/// are no-ops (`Sealed::table`): the target starts a ray recorded at once
/// (`rays.rs`). Continuations below it are followed inline.
pub const RAY: u32 = COUNT - 3;
/// [`Code::next`]'s bits below the flags.
pub const FLOW: u32 = COUNT - 1;

/// An edge as the walk runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Code {
    /// The action.
    pub kind: Kind,
    /// The target node.
    pub to: u32,
    /// How the walk goes on: the next edge (followed inline), `FRAME`,
    /// `DEAD` or `RAY`, with the flags `GUARD` and `COUNT` (this module's
    /// constants). A value below `RAY` is an edge followed at once, with
    /// no visited check or step count.
    pub next: u32,
}

const _: () = assert!(std::mem::size_of::<Code>() == 24);

/// What an edge taken from a frame must pass at once, tested in the
/// semistate the frame holds before the edge's chain runs (`walk/run.rs`):
/// its own comparison, or the comparison right after its first write
/// `x = f[y]` read through `f` (`board[x] == c` as `board[f[y]] == c`, the
/// two tables composed at load; `lower/pre.rs`). An edge that fails it
/// would fail in its chain with no effect, so the walk skips it, and a
/// choice node left with one edge pushes no frame.
///
/// Callgrind instructions per playout (`rbg --engine interp bench`,
/// seed 1) on translations, against frames that try every edge: amazons
/// 11.8% fewer, breakthrough 9.6%, englishDraughts 8.9%, chess 3.2%,
/// reversi 1.1%; hex and connect4 0.4% more, ticTacToe 1.3%. Tried and
/// dropped: the test kept in the edge's [`crate::sealed::Pick`] (a
/// variant of its filter, one load instead of two): amazons 15.5% fewer,
/// but hex 2.8% more, ticTacToe 2.5%, connect4 1.3%.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pre {
    /// The comparison ([`Kind::Skip`]: none, the edge is taken).
    pub kind: Kind,
    /// The edge whose comparison it decides (not tested again).
    pub passed: u32,
}

impl Pre {
    /// No test: the edge is taken.
    pub const NONE: Pre = Pre {
        kind: Kind::Skip,
        passed: crate::tables::NO_EDGE,
    };
}

impl Kind {
    /// A specialised comparison's symbol and sign (`==`: `true`).
    pub fn compared(self) -> Option<(u16, bool)> {
        match self {
            Kind::CmpSlot { value, eq, .. }
            | Kind::CmpInd { value, eq, .. }
            | Kind::CmpTab { value, eq, .. }
            | Kind::CmpTabInd { value, eq, .. } => Some((value, eq)),
            _ => None,
        }
    }
}

/// Whether `kind` is one of the specialised comparisons.
pub fn is_cmp(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::CmpSlot { .. } | Kind::CmpInd { .. } | Kind::CmpTab { .. } | Kind::CmpTabInd { .. }
    )
}

/// The instructions of `edges` (`fast`: how computed reads are evaluated;
/// `counted`: whether inline edges count steps; `identity`: the offset in
/// `fun` of the identity table over the symbols, if made, which turns a
/// copy `x = y` into [`Kind::SetTab`] `x = id[y]` instead of
/// [`Kind::Other`]: `fAt = coord` in a translation's keeper, which a
/// keeper walk applied in place (`walk/straight.rs`) then takes).
pub fn lower(
    edges: &[Edge],
    fast: &[Fast],
    counted: bool,
    identity: Option<u32>,
) -> Result<Vec<Code>, LoadError> {
    if edges.len() >= RAY as usize {
        return Err(LoadError(format!(
            "{} edges; at most {} are supported",
            edges.len(),
            RAY - 1
        )));
    }
    Ok(edges
        .iter()
        .map(|e| {
            let flow = match e.next {
                Next::Inline(n) if counted => n | COUNT,
                Next::Inline(n) => n,
                Next::Frame => FRAME,
                Next::Dead => DEAD,
            };
            let kind = match (e.op, identity) {
                (Op::Assign(Place::Slot(to), Operand::Slot(slot)), Some(table)) => {
                    Kind::SetTab { to, slot, table }
                }
                (op, _) => kind(&op, fast),
            };
            Code {
                kind,
                to: e.to,
                next: flow | if e.guard { GUARD } else { 0 },
            }
        })
        .collect())
}

/// The specialised form of `op`.
pub(crate) fn kind(op: &Op, fast: &[Fast]) -> Kind {
    match *op {
        Op::Skip => Kind::Skip,
        Op::Tag(s) => Kind::Tag(s),
        Op::TagVar(v) => Kind::TagVar(v),
        Op::Cmp(a, b, eq) => {
            let (read, value) = match (a, b) {
                (Operand::Imm(v), r) | (r, Operand::Imm(v)) => (r, v),
                _ => return Kind::Other,
            };
            match read {
                Operand::Slot(slot) => Kind::CmpSlot { slot, value, eq },
                Operand::Ind(slot, table) => Kind::CmpInd {
                    slot,
                    table,
                    value,
                    eq,
                },
                Operand::Tab(slot, table) => Kind::CmpTab {
                    slot,
                    table,
                    value,
                    eq,
                },
                Operand::Read(i) => match fast[i as usize] {
                    Fast::TabInd(slot, inner, outer) => Kind::CmpTabInd {
                        slot,
                        inner,
                        outer,
                        value,
                        eq,
                    },
                    _ => Kind::Other,
                },
                Operand::Imm(_) => Kind::Other,
            }
        }
        Op::Assign(Place::Slot(to), Operand::Imm(value)) => Kind::SetImm { to, value },
        Op::Assign(Place::Slot(to), Operand::Tab(slot, table)) => Kind::SetTab { to, slot, table },
        Op::Assign(Place::Ind(slot, table), Operand::Imm(value)) => {
            Kind::SetIndImm { slot, table, value }
        }
        Op::AssignAny(Place::Slot(slot), _) => Kind::AnySlot(slot),
        Op::SetPlayer(Operand::Imm(v)) => Kind::Player(v),
        _ => Kind::Other,
    }
}

/// The node's two edges `? c` and `! c` of one check (in either order),
/// as (check, `? c` edge, `! c` edge), when the walk may take them as one
/// [`Kind::Branch`]: a node whose frame nobody else needs (not
/// `@disjoint`, no switch, neither a local check's frame node nor a relay,
/// `local.rs`).
fn branch(edges: &[Edge], info: &NodeInfo) -> Option<(u32, u32, u32)> {
    if info.end.checked_sub(info.first) != Some(2)
        || info.disjoint
        || info.switch != NO_SWITCH
        || info.owner
        || info.relay
    {
        return None;
    }
    let (a, b) = (info.first, info.first + 1);
    match (edges.get(a as usize)?.op, edges.get(b as usize)?.op) {
        (Op::Reach(c, true), Op::Reach(d, false)) if c == d => Some((c, a, b)),
        (Op::Reach(c, false), Op::Reach(d, true)) if c == d => Some((c, b, a)),
        _ => None,
    }
}

/// Appends a [`Kind::Branch`] for every node whose only edges are `? c`
/// and `! c` ([`branch`]), and sends the instructions that pushed its frame
/// (`FRAME`) to it inline: one check's evaluation instead of a frame
/// pushed, two edges tried (one failing) and the frame popped. A walk that
/// starts at such a node still takes its edges from a frame. `counted`
/// as for [`lower`]; inline steps are counted too when the branches close
/// a cycle of inline instructions (a walk that pushed frames around it,
/// up to [`crate::walk::MAX_FRAMES`], now counts its steps). Gives the
/// number of branches.
///
/// Callgrind instructions per playout (`rbg --engine interp bench`,
/// seed 1) on translations, against frames at such nodes: reversi -9.7% (its
/// flips' `? flanked` / `! flanked` per direction), ticTacToe -3.2%,
/// connect4 -2.5%, breakthrough -2.0%, hex -1.4%, englishDraughts -1.2%,
/// amazons -0.4%, chess 0.0% (every turn's end `? c` / `! c`).
pub fn branches(
    code: &mut Vec<Code>,
    edges: &[Edge],
    nodes: &[NodeInfo],
    counted: bool,
) -> Result<usize, LoadError> {
    let mut at = vec![u32::MAX; nodes.len()];
    for (n, info) in nodes.iter().enumerate() {
        if let Some((check, yes, no)) = branch(edges, info) {
            if code.len() + 1 >= RAY as usize {
                return Err(LoadError(format!(
                    "{} instructions; at most {} are supported",
                    code.len() + 1,
                    RAY - 1
                )));
            }
            at[n] = code.len() as u32;
            code.push(Code {
                kind: Kind::Branch { check, yes, no },
                to: n as u32,
                next: DEAD,
            });
        }
    }
    let made = code.len() - edges.len();
    if made == 0 {
        return Ok(0);
    }
    for c in code.iter_mut() {
        let b = at.get(c.to as usize).copied().unwrap_or(u32::MAX);
        if c.next & FLOW == FRAME && b != u32::MAX && !matches!(c.kind, Kind::Branch { .. }) {
            c.next = (c.next & GUARD) | b | if counted { COUNT } else { 0 };
        }
    }
    if !counted && inline_cycle(code) {
        for c in code.iter_mut() {
            if c.next & FLOW < DEAD {
                c.next |= COUNT;
            }
        }
    }
    Ok(made)
}

/// Whether the instructions followed inline (continuations below `DEAD`,
/// both edges of a [`Kind::Branch`]) can lead back to one.
fn inline_cycle(code: &[Code]) -> bool {
    let succ = |i: usize, out: &mut Vec<u32>| {
        out.clear();
        match code[i].kind {
            Kind::Branch { yes, no, .. } => out.extend([yes, no]),
            _ if code[i].next & FLOW < DEAD => out.push(code[i].next & FLOW),
            _ => {}
        }
        out.retain(|&j| (j as usize) < code.len());
    };
    // 0: not reached yet, 1: on the path being followed, 2: done.
    let mut state = vec![0u8; code.len()];
    let mut stack: Vec<(u32, Vec<u32>)> = Vec::new();
    for start in 0..code.len() {
        if state[start] != 0 {
            continue;
        }
        state[start] = 1;
        let mut s = Vec::new();
        succ(start, &mut s);
        stack.push((start as u32, s));
        while let Some((i, rest)) = stack.last_mut() {
            match rest.pop() {
                Some(j) => match state[j as usize] {
                    1 => return true,
                    0 => {
                        state[j as usize] = 1;
                        let mut s = Vec::new();
                        succ(j as usize, &mut s);
                        stack.push((j, s));
                    }
                    _ => {}
                },
                None => {
                    state[*i as usize] = 2;
                    stack.pop();
                }
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::Kind;
    use crate::tables::Op;
    use crate::{GameModel, MoveList};

    /// `a` any value, then node `s2`'s choice `? c` (tag 1) or `! c` (`a`
    /// advanced, tag 0); `c` holds for `a == 2` only.
    const BRANCH: &str = "type Player = {x};\ntype Score = {0};\ntype V = {0, 1, 2, 3};\n\
        var a: V = 0;\nconst next: V -> V = { 0: 1, 1: 2, 2: 3, :0 };\n\
        begin, s0: player = x;\ns0, s1: a = V(*);\ns1, s2: $$ a;\n\
        s2, yes: ? c -> cacc;\ns2, no: ! c -> cacc;\nyes, y1: $ 1;\ny1, k: player = keeper;\n\
        no, n1: a = next[a];\nn1, n2: $ 0;\nn2, k: player = keeper;\nk, s0: player = x;\nk, end: a == 0;\n\
        c, c1: a == 2;\nc1, cacc: ;\n";

    /// The moves after the first (`begin`'s `player = x`).
    fn moves(g: &GameModel) -> Result<Vec<String>, crate::RunError> {
        let mut r = g.reasoner();
        let mut s = g.initial_state();
        let mut list = MoveList::default();
        r.moves(&mut s, &mut list)?;
        assert_eq!(list.len(), 1);
        r.apply(&mut s, &list, 0);
        r.moves(&mut s, &mut list)?;
        Ok((0..list.len()).map(|i| g.move_text(&list, i)).collect())
    }

    #[test]
    fn a_choice_of_a_check_and_its_negation_is_one_branch() {
        let g = GameModel::from_text(BRANCH).unwrap();
        let t = g.tables();
        let code = t.code.code();
        let branches: Vec<_> = code[t.edges.len()..].iter().map(|c| c.kind).collect();
        let [Kind::Branch { check, yes, no }] = branches[..] else {
            panic!("one branch: {branches:?}");
        };
        assert!(matches!(t.edges[yes as usize].op, Op::Reach(c, true) if c == check));
        assert!(matches!(t.edges[no as usize].op, Op::Reach(c, false) if c == check));
        // The edge into it goes there inline: no frame.
        let into = code
            .iter()
            .filter(|c| c.next & super::FLOW == t.edges.len() as u32);
        assert_eq!(into.count(), 1);
        let every = rg_lang::parse_str(BRANCH).unwrap().1;
        let every = GameModel::with_every_check(every).unwrap();
        assert!(every.tables().code.code().len() == every.tables().edges.len());
        let want = ["3 0", "2 1", "1 0", "0 0"];
        assert_eq!(moves(&g).unwrap(), want);
        assert_eq!(moves(&every).unwrap(), want);
    }

    #[test]
    fn an_endless_cycle_through_a_branch_is_an_error() {
        // `s2`'s check always holds: `s2 -> m -> s2` forever, without a
        // frame (the edges' own continuations have no inline cycle). (With
        // `end` checked, it would be a local check whose relay `s2` pushes
        // frames: `local.rs`.)
        let text = "type Player = {x};\ntype Score = {0};\ntype V = {0, 1};\nvar a: V = 0;\n\
            begin, s0: player = x;\ns0, s2: ;\ns2, m: ? c -> cacc;\ns2, end: ! c -> cacc;\nm, s2: ;\n\
            c, cacc: a == 0;\n@unique s2 m end;\n";
        let g = GameModel::from_text(text).unwrap();
        assert!(!g.tables().has_unique, "the edges' continuations: no cycle");
        let err = moves(&g).unwrap_err();
        assert!(
            matches!(
                err,
                crate::RunError::TooManyStates {
                    bound: crate::error::Bound::Steps,
                    ..
                }
            ),
            "{err}"
        );
    }
}
