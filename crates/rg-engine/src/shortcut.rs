//! Shortcuts the walk takes where the general enumeration would do the same
//! work with more bookkeeping (decided at lowering; `GameModel::with_every_check`
//! takes none of them, so the differential tests compare both).
//!
//! - **Pure checks.** A reachability check none of whose reachable edges
//!   assigns (comparisons, tags, no-ops and nested checks only) never changes
//!   the semistate, so every visit of a node has the same key: the check is a
//!   graph search over the edges whose conditions hold, each node visited
//!   once, without frames, undo log or visited keys (chess's "is the king
//!   attacked", RBG-style patterns).
//! - **One-slot checks.** A check whose reachable edges assign only one user
//!   slot (`coord = go[coord]`, `coord = Coord(*)`; no nested checks, no
//!   `@disjoint` nodes, `@repeat` keys that keep the slot) changes the
//!   semistate only there, so a visit's key is its node and that slot's
//!   value: the check is a graph search over (node, symbol) pairs, with a
//!   stamp per pair (reversi's rays, chess's attacks).
//! - **Filtered any-assignments.** For `x = T(*)` into a node whose only edge
//!   is a comparison (`board[x] == e`), each symbol is tried against the
//!   comparison before the walk takes it: failing symbols cost a write and a
//!   comparison instead of a step of the enumeration. Only when that node has
//!   no visited check: then a failing symbol's walk ends at the comparison
//!   and leaves no trace. The comparisons `board[x] == c`, `f[board[x]] ==
//!   c` (chess's "a piece of these kinds here") have their own loop
//!   (`Sealed::first_holding`). Tried and dropped (callgrind instructions
//!   per playout): the walk's own filter loop through a general symbol
//!   test (+6.6% on translated breakthrough: the generic read's match is hoisted there
//!   already), the one-slot search's edges through `Tables::acts` (+2-8%
//!   on translated reversi: one more table load per edge; through
//!   `Tables::code` instead of the edges, which replaces that load:
//!   reversi and hex -5%). Specialising the walk's filter loop by the
//!   comparison's `code::Kind` (one loop per shape) gave hex +0.1%,
//!   breakthrough -1.4%: not kept.
//!   In move walks the same holds for a node whose edges are all
//!   comparisons (`Act::AnyTests`: draughts' and chess's "a piece of mine
//!   here" as one branch per kind of piece): a symbol none of them passes
//!   is skipped (translated englishDraughts -35% instructions, chess -8%);
//!   through the one filter loop with the single comparison's case it
//!   cost translated breakthrough and hex +3% (its operands no longer
//!   hoisted), so that case keeps its own loop.

use crate::code::{Code, Kind};
use crate::sealed::{NO_RUN, NO_STEP};
use crate::tables::{
    Act, Check, Edge, Guard, Next, NodeInfo, Op, Operand, Place, Tables, NO_EDGE, NO_SLOT,
    NO_SWITCH,
};
use crate::walk::{compares, read, read_computed, switch_range};

/// Edge visits the purity analysis may make in all; checks beyond it are
/// treated as impure (the general walk is always right).
const PURITY_BUDGET: usize = 1 << 24;

/// Per check, whether every edge reachable from its start (not going on
/// from its target) leaves the semistate unchanged.
pub fn pure_checks(nodes: &[NodeInfo], edges: &[Edge], checks: &[Check]) -> Vec<bool> {
    let mut budget = PURITY_BUDGET;
    let mut mark = vec![u32::MAX; nodes.len()];
    let mut stack = Vec::new();
    checks
        .iter()
        .enumerate()
        .map(|(i, c)| {
            stack.clear();
            stack.push(c.start);
            mark[c.start as usize] = i as u32;
            while let Some(n) = stack.pop() {
                if n == c.target {
                    continue;
                }
                let info = &nodes[n as usize];
                for e in &edges[info.first as usize..info.end as usize] {
                    if budget == 0 {
                        return false;
                    }
                    budget -= 1;
                    match e.op {
                        Op::Assign(..)
                        | Op::AssignAny(..)
                        | Op::AssignMap(_)
                        | Op::SetPlayer(_) => return false,
                        Op::Skip | Op::Tag(_) | Op::TagVar(_) | Op::Cmp(..) | Op::CmpMap(..) => {}
                        Op::Reach(..) => {}
                    }
                    if mark[e.to as usize] != i as u32 {
                        mark[e.to as usize] = i as u32;
                        stack.push(e.to);
                    }
                }
            }
            true
        })
        .collect()
}

/// The one-slot checks (those not `pure`): per check the slot it writes
/// ([`NO_SLOT`]: not one), and per node its index among the nodes of
/// one-slot checks ([`NO_SLOT`]: in none) with their number.
pub fn one_slot_checks(
    nodes: &[NodeInfo],
    edges: &[Edge],
    checks: &[Check],
    pure: &[bool],
    repeat_slots: &[Vec<u32>],
    user_slots: usize,
) -> (Vec<u32>, Vec<u32>, u32) {
    let mut budget = PURITY_BUDGET;
    let mut mark = vec![u32::MAX; nodes.len()];
    let mut index = vec![NO_SLOT; nodes.len()];
    let mut count = 0;
    let mut stack = Vec::new();
    let mut region = Vec::new();
    let slots = checks
        .iter()
        .enumerate()
        .map(|(i, c)| {
            if pure[i] || c.start == c.target {
                return NO_SLOT;
            }
            stack.clear();
            region.clear();
            stack.push(c.start);
            mark[c.start as usize] = i as u32;
            let mut slot = NO_SLOT;
            while let Some(n) = stack.pop() {
                if n == c.target {
                    continue;
                }
                region.push(n);
                let info = &nodes[n as usize];
                if info.disjoint {
                    return NO_SLOT;
                }
                for e in &edges[info.first as usize..info.end as usize] {
                    if budget == 0 {
                        return NO_SLOT;
                    }
                    budget -= 1;
                    match e.op {
                        Op::Assign(Place::Slot(w), _) | Op::AssignAny(Place::Slot(w), _)
                            if (w as usize) < user_slots && (slot == NO_SLOT || slot == w) =>
                        {
                            slot = w
                        }
                        Op::Skip | Op::Tag(_) | Op::TagVar(_) | Op::Cmp(..) | Op::CmpMap(..) => {}
                        _ => return NO_SLOT,
                    }
                    if mark[e.to as usize] != i as u32 {
                        mark[e.to as usize] = i as u32;
                        stack.push(e.to);
                    }
                }
            }
            let keeps = |n: &u32| match nodes[*n as usize].guard {
                Guard::Repeat(r) => repeat_slots[r as usize].contains(&slot),
                Guard::None | Guard::Full(..) => true,
            };
            if slot == NO_SLOT || !region.iter().all(keeps) {
                return NO_SLOT;
            }
            for &n in &region {
                if index[n as usize] == NO_SLOT {
                    index[n as usize] = count;
                    count += 1;
                }
            }
            slot
        })
        .collect();
    (slots, index, count)
}

/// Single edges a one-slot check follows from its root before it searches.
const CHAIN_STEPS: u32 = 64;

/// The search of one-slot checks: a stamp per (node, symbol).
#[derive(Clone, Default)]
pub struct SlotSearch {
    gen: u32,
    at: Vec<u32>,
    pending: Vec<(u32, u16)>,
}

impl SlotSearch {
    /// Whether the walk from `root` reaches `target` (a one-slot check
    /// writing `slot`); leaves the semistate as it found it.
    ///
    /// The chain of single edges from the root is followed first, without
    /// stamps or a stack: every walk passes there, and most end there
    /// (a reversi ray's first square holds no opponent's disc). The search
    /// starts where the chain branches (or after [`CHAIN_STEPS`] steps: a
    /// chain can be a cycle).
    ///
    /// Before either, when `root_first` ([`root_first`]), the root's edges
    /// straight to the target are tried for one whose comparison holds
    /// ([`root_reaches`]): the search finds the same, later (its result
    /// does not depend on the order its pairs are expanded in, and it
    /// meets no error).
    #[inline(always)]
    pub fn reach(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        (root, target): (u32, u32),
        slot: u32,
        root_first: bool,
    ) -> bool {
        // The sealed instructions' reads need no more (`sealed.rs`).
        assert!(st.len() >= t.code.slots(), "a semistate of the game");
        (root_first && root_reaches(t, st, root, target)) || self.walk(t, st, root, target, slot)
    }

    /// [`SlotSearch::reach`] past the root's edges to the target: the
    /// chain, then the search.
    #[inline(never)]
    fn walk(&mut self, t: &Tables, st: &mut [u16], root: u32, target: u32, slot: u32) -> bool {
        let old = st[slot as usize];
        let mut node = root;
        let mut steps = 0;
        let found = loop {
            if node == target {
                break true;
            }
            let info = t.nodes[node as usize];
            if info.end != info.first + 1 || steps == CHAIN_STEPS {
                break self.search(t, st, node, target, slot);
            }
            steps += 1;
            let e = &t.edges[info.first as usize];
            match e.op {
                Op::Cmp(a, b, eq) if !cmp_holds(t, st, a, b, eq) => break false,
                Op::CmpMap(i, eq) if crate::maps::equal(t, st, i) != eq => break false,
                Op::Assign(_, value) => st[slot as usize] = read(t, st, value),
                Op::AssignAny(..) => break self.search(t, st, node, target, slot),
                _ => {}
            }
            node = e.to;
        };
        st[slot as usize] = old;
        found
    }

    /// [`SlotSearch::reach`] by a search over (node, symbol) pairs.
    ///
    /// A pair whose node has one entering edge and only comparisons
    /// ([`Tables::cmp_only`]: a ray's "empty square, or a piece of these
    /// kinds") is expanded where it is found, with its own symbol, without
    /// a stamp or a push: its comparisons' targets are entered instead.
    /// The reachable set is the same, and as its one predecessor pair is
    /// expanded once, so is it. Callgrind instructions per playout
    /// (`rbg bench --engine interp`, seed 1) on translations: chess -6.6%,
    /// reversi -3.6%, hex +1.5% (the flag's test; without the
    /// one-entering-edge condition +3.3%: a cell's test repeated from each
    /// neighbour), the others unchanged. Keeping the pair
    /// entered last out of the stack (popped at once) cost reversi +7%
    /// and chess +5.6%; the square of such a node's `board[x] == c`
    /// comparisons read once for all of them (the last slot and table
    /// read kept) cost chess +2.1%.
    ///
    /// Such a node that is a switch (`switch.rs`: chess's ray square,
    /// "empty, or an attacker of these kinds") tries only the edges its
    /// read's symbol selects, the first and last of them untested: chess
    /// -12.9%, the repo's chess -7.3%, hex -0.1%, the others within 0.01%.
    /// The same for the popped pairs' nodes cost chess +6.0% and hex +5.1%
    /// more (their edges seldom form a switch; the test at each): dropped.
    ///
    /// Runs of comparisons of one read within a node (a group per run, each
    /// a switch, the other edges a group; every node's groups in a table)
    /// tried with the pending rbg-to-rg patch that tests a ray's first
    /// square from the king's square (`board[g[coord]]`, three comparisons
    /// per direction in one node of 32; callgrind instructions per playout,
    /// seed 1, against f9351e4): groups where a node is expanded where
    /// found, suite chess 58,363,050 -> 62,789,434 (+7.6%) and with the
    /// patch 61,055,409 -> 63,906,207 (+4.7%; the king's square is entered
    /// by the any-assignment, so popped, not expanded), hex +0.3%; groups
    /// in the popped pairs' loop, chess +12.4%, hex +10.1%, with the patch
    /// chess +3.3%: both dropped. The patch alone on f9351e4: chess
    /// interp +4.6% (61,055,409), native -3.1%; hex interp -3.8%, native
    /// 0.0%.
    ///
    /// Searches are short (go's "this block has a liberty", 2.6 million a
    /// 20-playout bench: 1.65 pairs and 7.4 edges each, 96% found), so
    /// each comparison kind is tested in its own arm (one dispatch an edge,
    /// where the kinds' match was followed by
    /// [`Sealed::holds`](crate::sealed::Sealed::holds)'s:
    /// 37 -> 24 instructions an edge), the root's pair is expanded
    /// without a push and a pop, and the actions without a specialised
    /// form are decided out of line ([`other`]). Callgrind instructions
    /// per playout (`rbg bench --engine interp`, seed 1, 20 playouts, in
    /// `play_random`): go 189,019,040 -> 177,808,688 (-5.9%),
    /// go_constsum -5.9%, hex 682,163 -> 629,654 (-7.7%), the other bar
    /// games and pentago within 0.01%; native (rg-jit's own searches)
    /// within 0.12%.
    /// Tried and dropped: each edge's move past a passing comparison
    /// decided at load (the target's comparisons-only flag, step and stamp
    /// row in one table): go -3.4% where this gives -5.0% (the edges'
    /// loop laid out worse, its registers spilled); the nested one-slot
    /// check's error tests and search out of `Walker::decide` (a smaller
    /// entry): go +0.3% against this, reversi +0.3%.
    fn search(&mut self, t: &Tables, st: &mut [u16], root: u32, target: u32, slot: u32) -> bool {
        let symbols = t.symbols as usize;
        if self.at.len() != t.slot_nodes as usize * symbols {
            self.at = vec![0; t.slot_nodes as usize * symbols];
            self.gen = 0;
        }
        crate::seen::next_generation(&mut self.gen, &mut self.at);
        let gen = self.gen;
        let old = st[slot as usize];
        self.pending.clear();
        self.at[t.slot_index[root as usize] as usize * symbols + old as usize] = gen;
        let mut found = false;
        // The root's pair is expanded first, never pushed.
        let mut pair = Some((root, old));
        'nodes: while let Some((node, v)) = pair {
            st[slot as usize] = v;
            let info = t.nodes[node as usize];
            let mut rest = &t.code.code()[info.first as usize..info.end as usize];
            loop {
                // SAFETY: `st` checked in `reach`.
                rest = unsafe { past_failing_ind(t, st, rest) };
                let Some((c, before)) = rest.split_last() else {
                    break;
                };
                rest = before;
                let i = info.first + before.len() as u32;
                // The specialised forms (`code.rs`) of the common shapes,
                // each comparison tested in its own arm (one dispatch).
                let x = match c.kind {
                    // Passed: `past_failing_ind` stops at no other.
                    Kind::CmpInd { .. } => v,
                    Kind::CmpSlot { slot, value, eq } => {
                        // SAFETY: `c`'s operands; `st` checked in `reach`.
                        if (unsafe { t.code.get(st, slot) } == value) != eq {
                            continue;
                        }
                        v
                    }
                    Kind::CmpTab {
                        slot,
                        table,
                        value,
                        eq,
                    } => {
                        // SAFETY: `c`'s operands; `st` checked in `reach`.
                        if (unsafe { t.code.tab(st, slot, table) } == value) != eq {
                            continue;
                        }
                        v
                    }
                    Kind::CmpTabInd {
                        slot,
                        inner,
                        outer,
                        value,
                        eq,
                    } => {
                        // SAFETY: `c`'s operands; `st` checked in `reach`.
                        let x = unsafe { t.code.tab_at(t.code.ind(st, slot, inner), outer) };
                        if (x == value) != eq {
                            continue;
                        }
                        v
                    }
                    // SAFETY: as above.
                    Kind::SetTab { slot, table, .. } => unsafe { t.code.tab(st, slot, table) },
                    Kind::SetImm { value, .. } => value,
                    Kind::Skip | Kind::Tag(_) | Kind::TagVar(_) => v,
                    _ => match other(t, st, i, v) {
                        Other::Fails => continue,
                        Other::Value(x) => x,
                        Other::Any(syms) => {
                            if c.to == target || self.any(t, st, slot, (c.to, syms), target, gen) {
                                found = true;
                                break 'nodes;
                            }
                            st[slot as usize] = v;
                            continue;
                        }
                    },
                };
                let to = c.to;
                if to == target {
                    found = true;
                    break 'nodes;
                }
                if !t.cmp_only[to as usize] {
                    if self.enter_step(t, to, x, target, gen) {
                        found = true;
                        break 'nodes;
                    }
                    continue;
                }
                st[slot as usize] = x;
                let n = t.nodes[to as usize];
                let (first, end) = edges_to_try(t, st, &n);
                let known = |j| n.switch != NO_SWITCH && (j == first || j + 1 == end);
                for j in (first..end).rev() {
                    let c = &t.code.code()[j as usize];
                    let passes = known(j)
                        || match c.kind {
                            Kind::Other => other(t, st, j, x) != Other::Fails,
                            // SAFETY: `c`'s kind; `st` checked in `reach`.
                            k => unsafe { t.code.holds(st, k) },
                        };
                    if !passes {
                        continue;
                    }
                    if c.to == target || self.enter_step(t, c.to, x, target, gen) {
                        found = true;
                        break 'nodes;
                    }
                }
                st[slot as usize] = v;
            }
            pair = self.pending.pop();
        }
        st[slot as usize] = old;
        found
    }

    /// Enters `to` with each symbol of `syms` (assigned to `slot`); a
    /// symbol into a lone comparison is tested first. Whether that reached
    /// `target`. (Out of line: the rays' loop stays small.) A comparison
    /// `board[x] == c` or `f[board[x]] == c` of the assigned slot (chess's
    /// king, found by its piece or by its kinds, `isOneOf[board[coord]] ==
    /// 1`) is tested by [`Sealed::first_holding`](crate::sealed::Sealed::first_holding)'s
    /// loop, out of line (9 instructions a symbol). Callgrind instructions per
    /// playout (`rbg --engine interp bench`, seed 1), translations: the
    /// sealed read of `board[x] == c` in a loop here, against the general
    /// test, chess -17.4%; then of `f[board[x]] == c` as a second loop
    /// here: the repo's `games/chess.rbg` -12.4%, but the suite's chess
    /// +3.5% (which never takes it: its `board[x] == c` loop read its
    /// operands from the stack, 15 instructions a symbol); both out of
    /// line: suite chess 70,016,680 -> 67,058,516 (-4.2%; -0.9% against
    /// the first loop alone), repo chess 50,047,379 -> 47,880,592 (-4.3%),
    /// the others within 0.01%. Symbols whose reads are consecutive slots
    /// (a [`Run`](crate::sealed::Run): the board's squares in order) are
    /// scanned there instead, nothing written, eight values a branch:
    /// suite chess -8.6% (`sealed.rs`).
    #[inline(never)]
    fn any(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        slot: u32,
        (to, (first, len)): (u32, (u32, u32)),
        target: u32,
        gen: u32,
    ) -> bool {
        let next = t.nodes[to as usize];
        let syms = &t.any_syms[first as usize..(first + len) as usize];
        let run = t.code.node_run(to, slot, (first, len));
        if run != NO_RUN {
            // The symbols that pass some comparison of `to`, read in the
            // semistate (`sealed::Run`): into the comparison's target when
            // it is the only one, else into `to`.
            let into = match next.end - next.first {
                1 => t.edges[next.first as usize].to,
                _ => to,
            };
            let mut lo = 0;
            while let Some(i) = t.code.first_in_run(st, run, lo) {
                if self.enter_passing(t, &syms[i as usize..=i as usize], into, target, gen, |_| {
                    true
                }) {
                    return true;
                }
                lo = i + 1;
            }
            return false;
        }
        let cmp = match t.edges[next.first as usize..next.end as usize] {
            [c] => match c.op {
                Op::Cmp(a, b, eq) => {
                    Some((t.code.code()[next.first as usize].kind, a, b, eq, c.to))
                }
                _ => None,
            },
            _ => None,
        };
        match cmp {
            // `board[x] == c` of the assigned slot (chess's king search),
            // `f[board[x]] == c` (the king found by its kinds,
            // `isOneOf[board[coord]] == 1`): the sealed read in its own loop.
            Some((
                kind @ (Kind::CmpInd { slot: s, .. } | Kind::CmpTabInd { slot: s, .. }),
                ..,
                after,
            )) if s == slot => {
                let mut i = 0;
                loop {
                    // SAFETY: the comparison of an instruction of `t.code`,
                    // its slot `slot`; `st` checked in `reach`.
                    i += unsafe { t.code.first_holding(st, slot, &syms[i..], kind) };
                    let Some(&x) = syms.get(i) else {
                        return false;
                    };
                    if self.enter_passing(t, &[x], after, target, gen, |_| true) {
                        return true;
                    }
                    i += 1;
                }
            }
            Some((kind, a, b, eq, after)) => self.enter_passing(t, syms, after, target, gen, |x| {
                st[slot as usize] = x;
                compares(t, st, &kind, a, b, eq)
            }),
            None => self.enter_passing(t, syms, to, target, gen, |_| true),
        }
    }

    /// Enters `node` with each symbol of `syms` that passes; whether
    /// `node` is `target` and one passes.
    #[inline(always)]
    fn enter_passing(
        &mut self,
        t: &Tables,
        syms: &[u16],
        node: u32,
        target: u32,
        gen: u32,
        mut passes: impl FnMut(u16) -> bool,
    ) -> bool {
        let base = t.slot_index[node as usize] as usize * t.symbols as usize;
        for &x in syms {
            if !passes(x) {
                continue;
            }
            if node == target {
                return true;
            }
            let at = &mut self.at[base + x as usize];
            if *at != gen {
                *at = gen;
                self.pending.push((node, x));
            }
        }
        false
    }

    /// Enters `node` (not `target`) with `x`, or, when its one edge is
    /// `x = f[x]` ([`Sealed::step_through`](crate::sealed::Sealed::step_through)),
    /// that edge's target with `f[x]`: whether that is `target`. The pair
    /// of `node` gets no stamp, so one entered from several pairs (a hex
    /// cell's "step to this neighbour" from each of its stones) computes
    /// `f[x]` each time; the pair it leads to is stamped and expanded once,
    /// so the reachable pairs are the same. Callgrind instructions per
    /// playout (`rbg bench --engine interp`, seed 1): hex 868,132 ->
    /// 786,055 (-9.5%: two stamps and pushes a neighbour stone became
    /// one), the others within 0.01%.
    #[inline(always)]
    fn enter_step(&mut self, t: &Tables, node: u32, x: u16, target: u32, gen: u32) -> bool {
        let (table, to) = t.code.step_through(node);
        if (table, to) == NO_STEP {
            self.enter(t, node, x, gen);
            return false;
        }
        if to == target {
            return true;
        }
        // SAFETY: a step's table, verified (`Sealed::new`).
        let y = unsafe { t.code.tab_at(x, table) };
        self.enter(t, to, y, gen);
        false
    }

    fn enter(&mut self, t: &Tables, node: u32, x: u16, gen: u32) {
        let at =
            &mut self.at[t.slot_index[node as usize] as usize * t.symbols as usize + x as usize];
        if *at != gen {
            *at = gen;
            self.pending.push((node, x));
        }
    }
}

/// What an edge of a one-slot check's search whose action has no
/// specialised form ([`Kind::Other`]) does.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Other {
    /// A comparison that fails.
    Fails,
    /// The slot's value past the edge.
    Value(u16),
    /// An any-assignment of these symbols.
    Any((u32, u32)),
}

/// Whether edge code `kind` leads straight on when it holds: `Some(true)`
/// for a specialised comparison (tested), `Some(false)` for a no-op or a
/// tag (untested), `None` for the others.
#[inline(always)]
fn direct_kind(kind: &Kind) -> Option<bool> {
    match kind {
        Kind::CmpInd { .. }
        | Kind::CmpSlot { .. }
        | Kind::CmpTab { .. }
        | Kind::CmpTabInd { .. } => Some(true),
        Kind::Skip | Kind::Tag(_) | Kind::TagVar(_) => Some(false),
        _ => None,
    }
}

/// Whether one-slot check `c`'s search first tries its root's edges
/// straight to its target ([`root_reaches`]): when at least two of them
/// are [`direct_kind`]s. Go's "this block has a liberty" (an empty
/// neighbour, four edges) often ends there, from the stone just placed:
/// 80% of its 2.6 million searches a 20-playout bench, which then skip
/// the search's entry (its stamps' generation and the tables its loop
/// hoists). Hex's "this chain touches my side" has one such edge
/// (`at[coord] == 1`), seldom holding: tried first there too, it cost
/// hex +1.4% interpreted instructions.
pub fn root_first(t: &Tables, c: Check) -> bool {
    let info = &t.nodes[c.start as usize];
    t.code.code()[info.first as usize..info.end as usize]
        .iter()
        .filter(|e| e.to == c.target && direct_kind(&e.kind).is_some())
        .count()
        >= 2
}

/// Whether an edge of `root` straight to `target` ([`direct_kind`])
/// holds, tried last to first as the search does.
///
/// `st.len() >= t.code.slots()` (checked by [`SlotSearch::reach`]).
#[inline(always)]
fn root_reaches(t: &Tables, st: &[u16], root: u32, target: u32) -> bool {
    let info = &t.nodes[root as usize];
    let codes = &t.code.code()[info.first as usize..info.end as usize];
    codes.iter().rev().any(|c| {
        c.to == target
            && match direct_kind(&c.kind) {
                // SAFETY: an instruction's comparison; `st` checked in
                // `reach`.
                Some(true) => unsafe { t.code.holds(st, c.kind) },
                Some(false) => true,
                None => false,
            }
    })
}

/// `rest` without its last edges that are comparisons `board[f[x]] == c`
/// ([`Kind::CmpInd`]) that fail: the search's edges are tried last to
/// first, and most of go's (a stone's four neighbours, each tested for
/// empty and for a stone of the block) fail. Their test in this loop of
/// its own, not through the search loop's dispatch on every edge kind:
/// 24 -> 19 instructions an edge (go: 15.4 million edges a 20-playout
/// bench).
///
/// # Safety
/// `st.len() >= t.code.slots()` (as [`Sealed::ind`](crate::sealed::Sealed::ind)).
#[inline(always)]
unsafe fn past_failing_ind<'a>(t: &Tables, st: &[u16], mut rest: &'a [Code]) -> &'a [Code] {
    while let Some((c, before)) = rest.split_last() {
        let Kind::CmpInd {
            slot,
            table,
            value,
            eq,
        } = c.kind
        else {
            break;
        };
        // SAFETY: `c`'s operands; `st` as the caller's.
        if (unsafe { t.code.ind(st, slot, table) } == value) == eq {
            break;
        }
        rest = before;
    }
    rest
}

/// Edge `i`'s [`Other`] (`v` in the slot). Out of line: the search's loop
/// then reads the tables it needs at the edges it runs, not all of them
/// hoisted to its entry (one-slot searches are short: go's "this block
/// has a liberty" expands 1.6 pairs a search).
#[inline(never)]
fn other(t: &Tables, st: &[u16], i: u32, v: u16) -> Other {
    match t.edges[i as usize].op {
        Op::Cmp(a, b, eq) if !cmp_holds(t, st, a, b, eq) => Other::Fails,
        Op::CmpMap(m, eq) if crate::maps::equal(t, st, m) != eq => Other::Fails,
        Op::Assign(_, value) => Other::Value(read(t, st, value)),
        Op::AssignAny(_, syms) => Other::Any(syms),
        _ => Other::Value(v),
    }
}

/// The edges of node `n` that can pass: at a switch (`switch.rs`) one
/// read gives those from the first to the last that pass, which then pass
/// untested.
#[inline(always)]
fn edges_to_try(t: &Tables, st: &[u16], n: &NodeInfo) -> (u32, u32) {
    match n.switch {
        NO_SWITCH => (n.first, n.end),
        i => switch_range(t, st, i),
    }
}

/// Whether `a == b` (`eq`) or `a != b` holds (a computed read's folded
/// form inline).
#[inline(always)]
fn cmp_holds(t: &Tables, st: &[u16], a: Operand, b: Operand, eq: bool) -> bool {
    let x = match a {
        Operand::Read(i) => read_computed(t, st, i),
        a => read(t, st, a),
    };
    (x == read(t, st, b)) == eq
}

/// Per node: whether one edge at most leads to it and it has edges, all
/// comparisons, and is not `@disjoint` ([`Tables::cmp_only`]).
pub fn cmp_only(nodes: &[NodeInfo], edges: &[Edge]) -> Vec<bool> {
    let mut entered = vec![0u8; nodes.len()];
    for e in edges {
        let n = &mut entered[e.to as usize];
        *n = n.saturating_add(1);
    }
    nodes
        .iter()
        .zip(&entered)
        .map(|(n, &k)| {
            k <= 1
                && n.end > n.first
                && !n.disjoint
                && edges[n.first as usize..n.end as usize]
                    .iter()
                    .all(|e| matches!(e.op, Op::Cmp(..)))
        })
        .collect()
}

/// Sets [`Act::AnyTests`] of any-assignments to a fixed slot: the
/// comparisons of a target node with a choice between comparisons only
/// (not `@disjoint`, no visited check: a symbol none of them passes ends
/// its walk there and leaves no trace), such as draughts' "a man or a king
/// of mine here".
pub fn set_any_tests(nodes: &[NodeInfo], edges: &[Edge], acts: &mut [Act]) {
    for (e, act) in edges.iter().zip(acts.iter_mut()) {
        let Op::AssignAny(Place::Slot(_), _) = e.op else {
            continue;
        };
        let n = &nodes[e.to as usize];
        let cmps = &edges[n.first as usize..n.end as usize];
        if !e.guard
            && e.filter == NO_EDGE
            && e.next == Next::Frame
            && !n.disjoint
            && cmps.iter().all(|c| matches!(c.op, Op::Cmp(..)))
        {
            *act = Act::AnyTests {
                first: n.first,
                count: n.end - n.first,
            };
        }
    }
}

/// Whether some comparison of `cmps` holds.
#[inline(always)]
pub(crate) fn some_holds(t: &Tables, st: &[u16], cmps: &[Edge]) -> bool {
    cmps.iter().any(|c| match c.op {
        Op::Cmp(a, b, eq) => (read(t, st, a) == read(t, st, b)) == eq,
        _ => unreachable!("comparisons (`set_any_tests`)"),
    })
}

/// Sets [`Edge::filter`] of any-assignments to a fixed slot whose target's
/// only edge (followed inline) is a comparison and that has no visited check.
pub fn set_filters(edges: &mut [Edge]) {
    for i in 0..edges.len() {
        let e = edges[i];
        edges[i].filter = match (e.op, e.next) {
            (Op::AssignAny(Place::Slot(_), _), Next::Inline(c))
                if !e.guard && matches!(edges[c as usize].op, Op::Cmp(..)) =>
            {
                c
            }
            _ => NO_EDGE,
        };
    }
}
