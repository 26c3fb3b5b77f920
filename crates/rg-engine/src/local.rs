//! Local visited checks: a checked node whose visits can repeat a key only
//! within one visit of the choice node before it gets stamps instead of a
//! hashed visited set.
//!
//! Node q qualifies when every path into q (final edges) comes from one
//! node p that pushes a frame, through nodes the walk follows inline (one
//! edge, no `T(*)`, not `@disjoint`, no region's start), with no tags and no
//! `player` assignments on the way. Then, while the walk reaches q, p's
//! frame is on top. Keys of q's visits from one visit of p differ only in
//! the variables W written on the way; keys from two visits of p differ
//! where p's keys do (`analysis::Distinct`: V besides the tags, which no
//! edge on the way adds to), and stay different when W misses V. At a
//! `@repeat` node (key: its variables R and the tags) V must lie in R and
//! only W ∩ R counts. So the reference drops exactly the visits whose W
//! values repeat within one visit of p: a stamp per (q, W value) holding
//! the number of p's frame (`walk.rs`; a visit of p nested in another, by
//! a cycle back to p, restores the stamps it overwrote when its frame is
//! popped). W of more than one slot keeps the
//! hashed check. The edges into q may all be one tag (`$ t` or `$$ v`,
//! v then joins W): the tags at q are p's and that one.
//!
//! Choices may lie between p and q (a queen's rays, each step a choice
//! between landing and going on): every node between, reached backwards
//! from q without passing p, is entered only from nodes between or from p,
//! so p's visit is on the frame stack below theirs. Such choice nodes are
//! *relays*: their frames carry the number of the frame below, and leave
//! the stamps to p's frame to restore. A relay is nobody's frame node p.
//!
//! q may lie on a cycle of the nodes between (chinese checkers' jump
//! chains: q is one of the chain's checked choices, a relay then itself),
//! when no edge into q is a tag (round the cycle its visits' tags would
//! grow). The argument holds as it stands: a walk's path into q, after its
//! last visit of p, runs through nodes between only (any other way in
//! passes p), so the frames above p's on the stack are relays' (or none)
//! and carry p's number, however often the path goes round; the keys of
//! those visits of q are p's key with the W values at q, and the stamps
//! drop exactly the repeats of them. A visit of p nested in another (the
//! cycle passing p) has a number of its own, and its pop restores the
//! outer visit's stamps it overwrote, so neither visit's drops see the
//! other's keys, which differ from them (V or the tags). Where a walk may
//! start (`begin`, `player` targets, checks' starts, lazy roots) is no
//! node between: a walk started there would have no frame of p below.
//! The frame node p is then found among q's dominators in the backward
//! graph (`local/dominators.rs`): the nearest choice nodes every way into
//! q passes, tried in turn ([`MAX_TRIES`]), the first that passes all the
//! tests above.
//!
//! Only a visit of p nested in another needs the stamps restored: where
//! none can nest (p on no cycle, no check's walk reaching p, so no check
//! nested in the walk visits it), q's stamps are not logged
//! ([`NodeInfo::local_logged`]); a later visit of p has a number no stamp
//! holds. Callgrind instructions per playout (`rbg --engine interp
//! bench`, seed 1, 20 playouts) on translations, against every stamp
//! logged: chineseCheckers6 -4.1% (its jump chains' stamps, ~490 a state,
//! under the frame of the piece picked up); the bar games make no local
//! stamp in these playouts and moved with the walk's layout: chess +0.52%,
//! englishDraughts +0.40%, reversi +0.30%, amazons +0.21%, hex +0.10%,
//! breakthrough +0.03%, ticTacToe and connect4 unchanged. Time
//! (playouts per CPU second, alternated 1 s runs): chineseCheckers6 1.083
//! (5 rounds, 1.057-1.175), chess 1.016 (3 rounds).

mod dominators;

use crate::analysis::Distinct;
use crate::bits::{insert, intersects, is_empty, subset};
use crate::tables::{Check, Edge, Guard, NodeInfo, Op, NO_DENSE, NO_NODE, NO_SLOT};

/// Nodes between the frame node and the checked node at most.
const MAX_BETWEEN: usize = 64;
/// Stamps of all local checks at most.
const MAX_STAMPS: u32 = 1 << 20;

/// What the choice of local checks needs about the lowered game.
pub struct LocalFacts<'a> {
    /// Per edge of [`crate::Tables::edges`], the user variable it writes.
    pub writes: &'a [Option<u32>],
    /// Per user variable, its slots.
    pub var_slots: &'a [(u32, u32)],
    /// Per user slot, its variable.
    pub slot_var: &'a [u32],
    /// Per node, what its keys differ in.
    pub distinct: &'a [Distinct],
    /// Per `@repeat` node, its key variables (a bit set).
    pub repeat: &'a [Option<Vec<u64>>],
    /// The reachability checks (their starts begin walks).
    pub checks: &'a [Check],
    /// Per node a, the node b whose move walks stand for a's
    /// (`mirror.rs`'s lazy roots; [`NO_NODE`]: none): walks begin at b.
    pub lazy: &'a [u32],
    /// Number of symbols (a slot's values).
    pub symbols: u32,
}

/// Sets [`NodeInfo::local`] and [`NodeInfo::local_slot`] of every node
/// that qualifies; gives the number of stamps and per node its frame node
/// p ([`NO_NODE`]: no local check).
pub fn local_checks(nodes: &mut [NodeInfo], edges: &[Edge], facts: &LocalFacts) -> (u32, Vec<u32>) {
    let n = nodes.len();
    let mut source = vec![0u32; edges.len()];
    let mut incoming: Vec<Vec<u32>> = vec![Vec::new(); n];
    // Where a walk starts (its node's frame is pushed whatever its edges).
    let mut root = vec![false; n];
    root[rg_lang::checked::CheckedGame::BEGIN.0 as usize] = true;
    for (v, info) in nodes.iter().enumerate() {
        for i in info.first..info.end {
            source[i as usize] = v as u32;
            let e = &edges[i as usize];
            incoming[e.to as usize].push(i);
            if matches!(e.op, Op::SetPlayer(_)) {
                root[e.to as usize] = true;
            }
        }
    }
    for c in facts.checks {
        root[c.start as usize] = true;
    }
    for &b in facts.lazy.iter().filter(|&&b| b != NO_NODE) {
        root[b as usize] = true;
    }
    let inline = |v: usize| {
        let info = &nodes[v];
        info.end == info.first + 1
            && !info.disjoint
            && !root[v]
            && !matches!(edges[info.first as usize].op, Op::AssignAny(..))
    };
    let mut size = 0u32;
    let mut local = vec![(NO_DENSE, NO_SLOT); n];
    // A choice node that may relay: pushes its frame whatever its edges.
    let relayable = |v: usize| !inline(v) && !root[v] && !nodes[v].disjoint;
    let mut member = vec![false; n];
    let mut between: Vec<usize> = Vec::new();
    let mut search = |q: usize, relay: Relay| {
        let key = key_slot(
            q,
            &incoming,
            &source,
            edges,
            facts,
            &inline,
            &relayable,
            relay,
            &mut member,
            &mut between,
        );
        for &v in between.iter() {
            member[v] = false;
        }
        let passed = std::mem::take(&mut between);
        // A frame node is entered with its frame pushed: a root of one
        // edge that an edge enters (a check's walk past a `player`
        // assignment) is followed inline there, with no frame.
        let frameless = |p: usize| {
            let info = &nodes[p];
            info.end == info.first + 1
                && !info.disjoint
                && !matches!(edges[info.first as usize].op, Op::AssignAny(..))
                && !incoming[p].is_empty()
        };
        (key.filter(|&(_, p)| !frameless(p)), passed)
    };
    // Per node: its frame node p and relays, if it has a local check.
    let mut found: Vec<Option<(u32, usize, Vec<usize>)>> = vec![None; n];
    let mut index = vec![0u8; n];
    for q in 0..n {
        if nodes[q].guard == Guard::None || root[q] {
            continue;
        }
        if let (Some((slot, p)), _) = search(q, Relay::None) {
            found[q] = Some((slot, p, Vec::new()));
            continue;
        }
        // Choices between: the farthest of the choice nodes passed that
        // bounds the region.
        let (_, passed) = search(q, Relay::Any);
        let candidates: Vec<usize> = passed.into_iter().filter(|&v| relayable(v)).collect();
        for &c in candidates.iter().rev().take(MAX_TRIES) {
            if let (Some((slot, p)), passed) = search(q, Relay::Through(c)) {
                let relays = passed.into_iter().filter(|&v| relayable(v)).collect();
                found[q] = Some((slot, p, relays));
                break;
            }
        }
        if found[q].is_some() {
            continue;
        }
        // The choice nodes every walk into q passes, nearest first.
        let passable = |v: usize| inline(v) || relayable(v);
        let graph = (&incoming[..], &source[..]);
        let dominators = dominators::candidates(q, graph, &passable, &relayable, &mut index);
        for c in dominators.into_iter().take(MAX_TRIES) {
            if let (Some((slot, p)), passed) = search(q, Relay::Through(c)) {
                let relays = passed.into_iter().filter(|&v| relayable(v)).collect();
                found[q] = Some((slot, p, relays));
                break;
            }
        }
    }
    let mut frames = vec![NO_NODE; n];
    let mut frame_node = vec![false; n];
    for &(_, p, _) in found.iter().flatten() {
        frame_node[p] = true;
    }
    for q in 0..n {
        let Some((slot, p, relays)) = &found[q] else {
            continue;
        };
        if relays.iter().any(|&r| frame_node[r]) {
            continue;
        }
        let stamps = if *slot == NO_SLOT { 1 } else { facts.symbols };
        if size + stamps > MAX_STAMPS {
            break;
        }
        local[q] = (size, *slot);
        frames[q] = *p as u32;
        size += stamps;
        for &r in relays {
            nodes[r].relay = true;
        }
        nodes[*p].owner = true;
    }
    let nests = nesting(nodes, edges, facts.checks);
    for ((info, (base, slot)), &p) in nodes.iter_mut().zip(local).zip(&frames) {
        info.local = base;
        info.local_slot = slot;
        info.local_logged = p != NO_NODE && nests[p as usize];
    }
    (size, frames)
}

/// Per node, whether a walk may reach it again while a visit of it is on
/// the walk's path: it lies on a cycle (`player` assignments end a move
/// walk) or a check's walk reaches it (a check nested in a walk past it
/// may visit it, `player` assignments followed).
fn nesting(nodes: &[NodeInfo], edges: &[Edge], checks: &[Check]) -> Vec<bool> {
    let mut nests = crate::cycles::on_cycle(nodes, edges);
    let mut reached = vec![false; nodes.len()];
    let mut stack: Vec<u32> = checks.iter().map(|c| c.start).collect();
    while let Some(v) = stack.pop() {
        if std::mem::replace(&mut reached[v as usize], true) {
            continue;
        }
        nests[v as usize] = true;
        let info = &nodes[v as usize];
        stack.extend(
            edges[info.first as usize..info.end as usize]
                .iter()
                .map(|e| e.to),
        );
    }
    nests
}

/// Candidate frame nodes tried per checked node at most.
const MAX_TRIES: usize = 4;

/// Which choice nodes the backward search of [`key_slot`] passes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Relay {
    /// None: the first one met is the frame node p.
    None,
    /// Every one (to find the candidates for p; never succeeds).
    Any,
    /// Every one but this, which is p.
    Through(usize),
}

/// The key slot of q's local check ([`NO_SLOT`]: none, one stamp) and its
/// frame node p, if q qualifies; `member` and `between` hold the nodes
/// passed on the way (in the order met), choice nodes among them as
/// `relay` says.
#[allow(clippy::too_many_arguments)]
fn key_slot(
    q: usize,
    incoming: &[Vec<u32>],
    source: &[u32],
    edges: &[Edge],
    facts: &LocalFacts,
    inline: &dyn Fn(usize) -> bool,
    relayable: &dyn Fn(usize) -> bool,
    relay: Relay,
    member: &mut [bool],
    between: &mut Vec<usize>,
) -> Option<(u32, usize)> {
    let mut written: Vec<u64> = Vec::new();
    // Edges into q may all be one tag: then the tags at q are p's and that
    // one, equal when (for `$$ v`) v's values are.
    let tag = |op: Op| matches!(op, Op::Tag(_) | Op::TagVar(_));
    let first = incoming[q].first().map(|&i| edges[i as usize].op);
    let same = |other: Op| match (other, first) {
        (Op::Tag(a), Some(Op::Tag(b))) => a == b,
        (Op::TagVar(a), Some(Op::TagVar(b))) => a == b,
        (other, _) => !tag(other) && !first.is_some_and(tag),
    };
    if !incoming[q].iter().all(|&i| same(edges[i as usize].op)) {
        return None;
    }
    if let Some(Op::TagVar(slot)) = first {
        insert(&mut written, *facts.slot_var.get(slot as usize)?);
    }
    let mut frame: Option<usize> = None;
    let mut stack = vec![q];
    while let Some(v) = stack.pop() {
        for &i in &incoming[v] {
            let e = &edges[i as usize];
            if (v != q && tag(e.op)) || matches!(e.op, Op::SetPlayer(_)) {
                return None;
            }
            if let Some(w) = facts.writes[i as usize] {
                insert(&mut written, w);
            }
            let s = source[i as usize] as usize;
            let passes = match relay {
                Relay::None => false,
                Relay::Any => relayable(s),
                Relay::Through(p) => s != p && relayable(s),
            };
            if inline(s) || passes {
                // q on a cycle of the region: a tag into q would grow its
                // visits' tags round the cycle.
                if s == q && first.is_some_and(tag) {
                    return None;
                }
                if !member[s] {
                    if between.len() >= MAX_BETWEEN {
                        return None;
                    }
                    member[s] = true;
                    between.push(s);
                    stack.push(s);
                }
            } else if s == q || *frame.get_or_insert(s) != s {
                return None;
            }
        }
    }
    if relay == Relay::Any {
        return None;
    }
    let p = frame?;
    let repeat = facts.repeat[q].as_deref();
    let key: Vec<u64> = match (&facts.distinct[p], repeat) {
        (Distinct::Repeats, _) => return None,
        (Distinct::Anywhere, None) if is_empty(&written) => written,
        (Distinct::Anywhere, _) => return None,
        (Distinct::Vars(v), r) => {
            if intersects(v, &written) || r.is_some_and(|r| !subset(v, r)) {
                return None;
            }
            match r {
                Some(r) => written.iter().zip(r).map(|(a, b)| a & b).collect(),
                None => written,
            }
        }
    };
    let mut slots = key.iter().enumerate().flat_map(|(i, &word)| {
        (0..64)
            .filter(move |b| word >> b & 1 == 1)
            .map(move |b| i * 64 + b)
    });
    match (slots.next(), slots.next()) {
        (None, _) => Some((NO_SLOT, p)),
        (Some(v), None) => {
            let (lo, hi) = facts.var_slots[v];
            (hi == lo + 1).then_some((lo, p))
        }
        _ => None,
    }
}
