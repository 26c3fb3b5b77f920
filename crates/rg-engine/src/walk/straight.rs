//! Keeper walks with no choice, applied straight to the state
//! ([`Walker::straight`], decided per node at load by [`straight_roots`]).
//!
//! A translation's keeper walk is often a chain: ticTacToe's after a
//! mark, `board[coord] = x`, then `? win` or `! win` (one
//! [`Kind::Branch`]), then `? empty` or `! empty`, then `player = o`.
//! Its one walk is the keeper's move, applied at once by
//! [`crate::Reasoner::complete_keeper`]. Walked by [`Walker::run`], it
//! clears a visited set, sets up its frames' bookkeeping, records the
//! walk into a list (every written slot), undoes the writes, and the
//! keeper's completion writes them again from the list. Here the chain's
//! writes stay where they are made: no frame, no record, no undo but on
//! the way out of a walk that fails (a comparison, a dead end, an error:
//! the state is put back and the keeper's move is taken by the walk as
//! written, which meets the same end).
//!
//! A root qualifies when a walk from it follows instructions with no
//! choice: its only edge taken without a frame ([`Tables::root_starts`])
//! or a fan's landing (connect4's drop: the one whose comparisons hold;
//! none or several, the walk as written),
//! no visited check at the root or on the way, no lazy root, and every
//! instruction a no-op, a tag (nothing keeps a keeper's tags), a
//! specialised comparison or write, a [`Kind::Branch`] whose two ways
//! both qualify, or `player = v`, which ends the walk; every continuation
//! inline, a dead end, or a choice node (not `@disjoint`) whose edges
//! all have a comparison as their test ([`crate::code::Pre`]) and whose
//! ways all qualify: the walk takes the one edge whose test passes (none
//! or several: the walk as written), as a translation's
//! `at[coord] == 1` / `at1[coord] == 1` ("the piece reached the last
//! row" or not). Such a walk passes no node twice (a cycle runs
//! out of the bound [`MAX_STRAIGHT`] on instructions looked at, so its
//! root does not qualify), so it meets none of the walk's bounds either.
//! Not in [`crate::GameModel::with_every_check`]'s tables, which the
//! keeper's moves are tested against.
//!
//! Callgrind instructions per playout (interp, seed 1) on the suite's
//! translations, against 5456932: ticTacToe 12,231 -> 9,555 (-21.9%),
//! connect4 45,999 -> 37,186 (-19.2%, its drop a fan), amazons -0.3%,
//! hex +0.1%, englishDraughts +0.1%, reversi and chess within 0.05%,
//! breakthrough -0.1%. Only for the interpreter: beside
//! native code (`rg-jit`), whose checks are native, the keeper's checks
//! here are interpreted: native ticTacToe -7.2%, but connect4 +1.3%,
//! amazons +0.9%.
//!
//! Such a walk's speculated checks (`mirror.rs`) generate the next
//! player's moves ahead as the keeper's enumeration would (issue 13: a
//! translation's "the next player has a move" before `player = p`).
//! With the choices of comparisons, and copies `x = y` specialised
//! ([`crate::code::lower`]), callgrind instructions per playout (interp,
//! seed 1, in `play_random`) against 0f512d9: foxAndHounds 194,167 ->
//! 168,893 (-13.0%), foxAndHounds-10x10 -11.8%, foxAndHounds-12x12
//! -9.6%, knightthrough_split -7.8%, breakthrough -3.5%, knightthrough
//! -3.1%, chess -0.73%, connect4 -0.65%, ticTacToe -0.08%, amazons
//! -0.02%, reversi, englishDraughts and hex within 0.001%.

use super::root::{Landing, FAN_ROOT};
use super::*;
use crate::code::{is_cmp, Code, Kind, DEAD, FLOW, FRAME, GUARD, RAY};
use crate::sealed::Sealed;
use crate::tables::{Guard, NodeInfo, NO_NODE};

/// Instructions a root's walks may pass, over all ways, for the root to
/// qualify (see the module's doc).
pub const MAX_STRAIGHT: u32 = 256;

/// Per node, whether a keeper's walk from it is taken by
/// [`Walker::straight`] (see the module's doc): only the targets of
/// `player = v` and `begin`, the nodes a keeper's turn starts at.
pub(crate) fn straight_roots(
    nodes: &[NodeInfo],
    code: &Sealed,
    (root_starts, fans): (&[u32], &[Landing]),
    lazy: &[u32],
) -> Vec<bool> {
    let table = code.table(true);
    let mut turns = vec![false; nodes.len()];
    if let Some(begin) = turns.first_mut() {
        *begin = true;
    }
    for c in code.code() {
        if let (Kind::Player(_), Some(t)) = (c.kind, turns.get_mut(c.to as usize)) {
            *t = true;
        }
    }
    (0..nodes.len())
        .map(|n| {
            let info = &nodes[n];
            let mut budget = MAX_STRAIGHT;
            let mut from = |e: u32| straight_from(nodes, code, *table.at(e), &mut budget);
            match root_starts[n] {
                _ if !turns[n] || lazy[n] != NO_NODE || info.guard != Guard::None => false,
                NO_EDGE => false,
                s if s & FAN_ROOT != 0 => {
                    let at = (s & !FAN_ROOT) as usize;
                    let fan = &fans[at..][..(info.end - info.first) as usize];
                    fan.iter().all(|l| from(l.start))
                }
                e => from(e),
            }
        })
        .collect()
}

/// Whether every way from instruction `c` qualifies (see the module's
/// doc), within `budget` instructions over all of them.
fn straight_from(nodes: &[NodeInfo], code: &Sealed, mut c: Code, budget: &mut u32) -> bool {
    let table = code.table(true);
    loop {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        match c.kind {
            Kind::Skip
            | Kind::Tag(_)
            | Kind::TagVar(_)
            | Kind::CmpSlot { .. }
            | Kind::CmpInd { .. }
            | Kind::CmpTab { .. }
            | Kind::CmpTabInd { .. }
            | Kind::SetImm { .. }
            | Kind::SetTab { .. }
            | Kind::SetIndImm { .. } => {}
            Kind::Player(_) => return true,
            Kind::Branch { yes, no, .. } => {
                // Each way goes on from its edge's continuation.
                let no = *table.at(no);
                if !straight_from(
                    nodes,
                    code,
                    Code {
                        kind: Kind::Skip,
                        ..no
                    },
                    budget,
                ) {
                    return false;
                }
                c = Code {
                    kind: Kind::Skip,
                    ..*table.at(yes)
                };
                continue;
            }
            Kind::AnySlot(_) | Kind::Other => return false,
        }
        if c.next < RAY {
            c = *table.at(c.next);
            continue;
        }
        match c.next & FLOW {
            _ if c.next & GUARD != 0 => return false,
            DEAD => return true,
            // A choice of tested edges: each way qualifies.
            FRAME => {
                let Some(info) = nodes.get(c.to as usize) else {
                    return false;
                };
                return tested_choice(info, code)
                    && (info.first..info.end)
                        .all(|e| straight_from(nodes, code, *table.at(e), budget));
            }
            RAY => return false,
            next => c = *table.at(next),
        }
    }
}

/// Whether a choice node (`info`) is one [`Walker::straight`] resolves:
/// not `@disjoint` (a switch's or a local check's frame node is: its
/// edges' tests decide as well), every edge with a comparison as its
/// test ([`crate::code::Pre`]) and no any-assignment.
fn tested_choice(info: &NodeInfo, code: &Sealed) -> bool {
    !info.disjoint
        && (info.first..info.end).all(|e| code.pick(e).len == 0 && is_cmp(code.pre(e).kind))
}

/// The one edge of choice node `node` whose test passes, if exactly one
/// does (the others would fail at once: the walk's only way goes on
/// through it); `None` otherwise. `node` is a [`tested_choice`]:
/// [`straight_roots`] admits no root whose walk meets another.
/// Out of line: the chain's loop keeps its registers (inline, ticTacToe's
/// keeper walks, which pass no choice, cost 1.9% more instructions).
#[inline(never)]
fn straight_choice(t: &Tables, st: &[u16], node: u32) -> Option<u32> {
    let info = &t.nodes[node as usize];
    debug_assert!(tested_choice(info, &t.code));
    let mut found = None;
    for e in info.first..info.end {
        // SAFETY: a test of `t.code` (`Sealed::pre`); `st` checked where
        // the walk starts.
        if unsafe { t.code.holds(st, t.code.pre(e).kind) } && found.replace(e).is_some() {
            return None;
        }
    }
    found
}

impl Walker {
    /// The keeper's move from `root` (a [`Tables::straight`] node) applied
    /// to `st`: its target node, or `None` with `st` as it was (the walk
    /// failed or met an error; the walk as written then meets the same).
    /// Its speculated checks (`mirror.rs`) keep the moves they generate
    /// for a sink with visibility `visibility` ([`Sink::VISIBILITY`]), as
    /// the keeper's enumeration into such a sink would.
    pub(crate) fn straight(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        root: u32,
        visibility: bool,
    ) -> Option<u32> {
        self.sink_kind = self.speculates.then_some(visibility);
        let r = self.straight_walk(t, st, root);
        self.sink_kind = None;
        r
    }

    /// [`Walker::straight`]'s walk.
    #[inline(always)]
    fn straight_walk(&mut self, t: &Tables, st: &mut [u16], root: u32) -> Option<u32> {
        // The sealed instructions' reads need no more (`sealed.rs`).
        assert!(st.len() >= t.code.slots(), "a semistate of the game");
        self.begin();
        let code = t.code.table(true);
        let mut c = match t.root_starts[root as usize] {
            s if s & FAN_ROOT != 0 => {
                // A fan: its one landing that passes, or none taken here.
                let info = &t.nodes[root as usize];
                let at = (s & !FAN_ROOT) as usize;
                let fan = &t.fans[at..][..(info.end - info.first) as usize];
                // SAFETY: `Pre`s of `t.code` (`root.rs`); `st` checked above.
                let holds = |k| unsafe { t.code.holds(st, k) };
                let mut passing = fan.iter().filter(|l| holds(l.test) && holds(l.then));
                match (passing.next(), passing.next()) {
                    (Some(l), None) => code.at(l.start),
                    _ => return None,
                }
            }
            e => code.at(e),
        };
        // The operands and continuations of `t.code`'s instructions are
        // read unchecked, as `Walker::run` reads them.
        loop {
            match c.kind {
                Kind::Skip | Kind::Tag(_) | Kind::TagVar(_) => {}
                k @ (Kind::CmpSlot { .. }
                | Kind::CmpInd { .. }
                | Kind::CmpTab { .. }
                | Kind::CmpTabInd { .. }) => {
                    // SAFETY: `c`'s kind; `st` checked above.
                    if !unsafe { t.code.holds(st, k) } {
                        break;
                    }
                }
                Kind::SetImm { to, value } => {
                    // SAFETY: an operand of `c`.
                    unsafe { self.write_sealed(t, st, to, value) }
                }
                Kind::SetTab { to, slot, table } => {
                    // SAFETY: operands of `c`.
                    let v = unsafe { t.code.tab(st, slot, table) };
                    // SAFETY: as above.
                    unsafe { self.write_sealed(t, st, to, v) };
                }
                Kind::SetIndImm { slot, table, value } => {
                    // SAFETY: operands of `c`.
                    let Ok(at) = (unsafe { t.code.place(st, slot, table) }) else {
                        break;
                    };
                    // SAFETY: a slot `place` gave.
                    unsafe { self.write_sealed(t, st, at, value) };
                }
                Kind::Branch { check, yes, no } => {
                    let Ok(holds) = self.check(t, st, check) else {
                        break;
                    };
                    // SAFETY: an edge of a `Kind::Branch` (`Sealed::new`).
                    c = unsafe { code.inline(if holds { yes } else { no }) };
                }
                Kind::Player(v) => {
                    st[t.player_slot as usize] = v;
                    self.log.clear();
                    return Some(c.to);
                }
                Kind::AnySlot(_) | Kind::Other => break,
            }
            if c.next < RAY {
                // SAFETY: an inline continuation of `c`.
                c = unsafe { code.inline(c.next) };
                continue;
            }
            match c.next & FLOW {
                _ if c.next & GUARD != 0 => break,
                FRAME => match straight_choice(t, st, c.to) {
                    // SAFETY: an edge's instruction.
                    Some(e) => c = unsafe { code.inline(e) },
                    None => break,
                },
                DEAD | RAY => break,
                // SAFETY: an inline continuation of `c`.
                next => c = unsafe { code.inline(next) },
            }
        }
        self.rollback(st, 0);
        None
    }
}
