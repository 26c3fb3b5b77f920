//! How a walk starts at its root, decided per node at load
//! ([`root_starts`], [`root_tails`]), and the fans of guarded landings a
//! move walk's root resolves without a frame ([`Walker::enter_fan`]).

use super::*;
use crate::code::{is_cmp, Kind, RAY};
use crate::sealed::{Filter, Sealed, NO_TAIL};
use crate::tables::{NodeInfo, NO_SWITCH};

/// The flag of a [`Tables::root_starts`] entry of a fan, whose move walks
/// resolve it ([`Walker::enter_fan`]; its other walks push its frame):
/// the bits below it are where its edges' [`Landing`]s start in
/// [`Tables::fans`].
pub const FAN_ROOT: u32 = 1 << 31;

/// A fan's edge (see [`root_starts`]): its comparison, its landing's
/// ([`crate::code::Pre`] of its `x = f[y]`), where the walk goes on (the
/// landing's edge) and the edge of the comparison the landing's test
/// decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Landing {
    /// The edge's comparison.
    pub test: Kind,
    /// The comparison after its `x = f[y]`, read through `f`.
    pub then: Kind,
    /// The `x = f[y]` edge.
    pub start: u32,
    /// The edge of the comparison `then` decides.
    pub passed: u32,
}

/// Whether a frame at `info` is an ordinary one: not `@disjoint`, no
/// switch, neither a local check's frame node nor a relay (`local.rs`
/// numbers stamps by such nodes' frames).
fn plain(info: &NodeInfo) -> bool {
    !info.disjoint && info.switch == NO_SWITCH && !info.owner && !info.relay
}

/// Per node, how a walk rooted there starts ([`Tables::root_starts`]): the
/// edge it follows without a frame, [`FAN_ROOT`], or [`NO_EDGE`] (the root's
/// frame is pushed).
///
/// The edge is the root's only edge, not an any-assignment, at a
/// [`plain`] node. A keeper's walk and most checks' start so. Callgrind
/// instructions per playout (`rbg --engine interp bench`, seed 1) on
/// translations, against the root's frame pushed and popped: ticTacToe
/// -6.7%, hex -2.1%, englishDraughts -1.4%, chess -1.0%, breakthrough
/// -1.0%, reversi -1.0%, amazons -0.6%, connect4 +0.06% (decided per
/// walk from the node's fields then).
///
/// A fan ([`FAN_ROOT`]) is a [`plain`] node of several edges, each a
/// comparison followed inline by `x = f[y]` whose own [`crate::code::Pre`]
/// is the comparison after it read through `f` (`lower/pre.rs`):
/// connect4's drop, `board[down^k[c]] == e` then `c = down^k[c]` then
/// `board[down[c]] != e`, of which one passes. Callgrind instructions
/// per playout (`rbg --engine interp bench`, seed 1) on translations,
/// against the fan's frame pushed and its edges taken one by one (and
/// the frameless root decided per walk): connect4 -15.1% (58,741 ->
/// 49,877), ticTacToe -0.8%, hex -0.4%, breakthrough, englishDraughts and
/// chess +0.3%, amazons +0.15%, reversi +0.13%. Each edge's two tests
/// then copied at load into [`Landing`]s ([`Tables::fans`]), instead of
/// read per walk from its instruction and the two `Pre`s through a call
/// per edge: connect4 a further -7.4% (49,877 -> 46,210), the others
/// within 0.5% (breakthrough -0.5%, englishDraughts -0.45%, hex +0.17%).
pub(crate) fn root_starts(nodes: &[NodeInfo], code: &Sealed) -> (Vec<u32>, Vec<Landing>) {
    let edges = nodes.iter().map(|n| n.end).max().unwrap_or(0);
    let mut fans = Vec::new();
    let mut start = |info: &NodeInfo| {
        if !plain(info) {
            return NO_EDGE;
        }
        if info.end == info.first + 1 && code.pick(info.first).len == 0 {
            return info.first;
        }
        let found: Option<Vec<Landing>> = match info.end > info.first + 1 {
            true => (info.first..info.end)
                .map(|e| landing(code, e, edges))
                .collect(),
            false => None,
        };
        match found {
            Some(l) if fans.len() < (NO_EDGE & !FAN_ROOT) as usize => {
                let at = FAN_ROOT | fans.len() as u32;
                fans.extend(l);
                at
            }
            _ => NO_EDGE,
        }
    };
    let starts = nodes.iter().map(&mut start).collect();
    (starts, fans)
}

/// Edge `e` as a fan's guarded landing (see [`root_starts`]), the same in
/// both instruction tables, into an edge (`edges` of them, not a
/// [`Kind::Branch`]'s instruction); `None` if it is not one.
fn landing(code: &Sealed, e: u32, edges: u32) -> Option<Landing> {
    let (tagged, untagged) = (code.table(true), code.table(false));
    let p = *code.pick(e);
    let c = *tagged.at(e);
    if p.len != 0 || *untagged.at(e) != c || !is_cmp(c.kind) || c.next >= RAY {
        return None;
    }
    if code.pre(e).kind != c.kind || code.pre(e).passed != e || c.next >= edges {
        return None;
    }
    let a = c.next;
    let (ca, pa) = (*tagged.at(a), *code.pick(a));
    let set = matches!(ca.kind, Kind::SetTab { .. });
    let q = *code.pre(a);
    let ok = set
        && *untagged.at(a) == ca
        && pa.len == 0
        && pa.test == Filter::None
        && ca.next < RAY
        && is_cmp(q.kind)
        && q.passed == ca.next;
    ok.then_some(Landing {
        test: c.kind,
        then: q.kind,
        start: a,
        passed: q.passed,
    })
}

/// Per node, the edge of a move walk rooted there that records its moves
/// at once ([`Tables::root_tails`], [`NO_EDGE`]: none): the node's only
/// edge when that is an any-assignment into a move's end
/// ([`crate::sealed::Tail`]), the node an ordinary one (not `@disjoint`,
/// no switch, not a local check's frame node) and the walks of moves lean
/// and untagged (no visited check keys on tags, the tags off cycles
/// bounded: `lean_untagged`; a tail passes no tag that is counted): such a walk
/// pushes no frame and clears no visited set ([`Walker::root_moves`]).
///
/// Callgrind instructions per playout (`rbg --engine interp bench`, seed 1)
/// on translations, against its frame pushed and taken, when it was decided
/// per enumeration: ticTacToe -12.3%, connect4 -8.6%, hex -2.8%, but
/// breakthrough +1.2%, amazons +1.3%, englishDraughts +0.3%, reversi +0.3%,
/// chess +0.1% (no such root: the walk's loop laid out anew). The frame
/// skipped inside `Walker::run` instead (the visited set still cleared):
/// ticTacToe -4.5%, connect4 -3.5%, hex -1.0%, breakthrough +1.3%,
/// englishDraughts +0.8%. Decided here at load, with the walk's enumeration
/// and this one each out of line (`Walker::enumerate_walk`,
/// `Walker::enumerate_tail`), against the test per enumeration:
/// breakthrough -1.03%, amazons -1.33%, ticTacToe -2.36%, connect4 -1.68%,
/// hex -0.55%, reversi -0.21%, englishDraughts -0.15%, chess -0.08%;
/// decided here but still inside the walk's function: breakthrough +1.46%,
/// amazons +0.88%, englishDraughts +0.81%, ticTacToe -1.14%.
pub(crate) fn root_tails(
    nodes: &[NodeInfo],
    code: &Sealed,
    tags_read: bool,
    lean_untagged: bool,
) -> Vec<u32> {
    let tail = |info: &NodeInfo| {
        if tags_read || !lean_untagged {
            return NO_EDGE;
        }
        if info.end != info.first + 1 || info.disjoint || info.switch != NO_SWITCH || info.owner {
            return NO_EDGE;
        }
        let p = code.pick(info.first);
        match p.len > 0 && p.tail != NO_TAIL {
            true => info.first,
            false => NO_EDGE,
        }
    };
    nodes.iter().map(tail).collect()
}

impl Walker {
    /// Enters fan `node` ([`FAN_ROOT`]) at a move walk's root: each edge, last
    /// to first, passes when its comparison and its landing's
    /// ([`crate::code::Pre`] of its `x = f[y]`) both hold in the semistate
    /// the walk entered with (neither writes). The last that passes is
    /// followed from its landing, the comparison after it not tested again
    /// (the edge and the comparison's edge are given); a frame is pushed
    /// for the edges below it only if one of them passes too, that edge
    /// taken first as passed (`PRE`). An edge that fails would end its
    /// walk with no effect: no visited check, step count, tag or write
    /// before the comparisons, no frame. `None`: none passes.
    #[inline(never)]
    pub(super) fn enter_fan(
        &mut self,
        t: &Tables,
        st: &[u16],
        node: u32,
        at: u32,
    ) -> Result<Option<(u32, u32)>, RunError> {
        if self.frames.len() >= MAX_FRAMES {
            return Err(too_many_frames(node));
        }
        let info = &t.nodes[node as usize];
        let fan = &t.fans[at as usize..][..(info.end - info.first) as usize];
        // SAFETY: `Pre`s of `t.code` (`Sealed::pre`, copied by `landing`);
        // `st` checked where the walk starts.
        let holds = |k| unsafe { t.code.holds(st, k) };
        let passes = |l: &Landing| holds(l.test) && holds(l.then);
        let Some(i) = fan.iter().rposition(passes) else {
            return Ok(None);
        };
        if let Some(j) = fan[..i].iter().rposition(passes) {
            let e = info.first + j as u32;
            self.push_range(info, info.first, e + 1, run::PRE | (e & !run::PRE));
        }
        Ok(Some((fan[i].start, fan[i].passed)))
    }
}
