//! Passes over the lowered edges and nodes: nodes reached only without
//! tags, no-op chains bypassed, checks' probes, and the key hash's
//! multipliers' generator.

use crate::tables::{Check, Edge, Guard, NodeInfo, Op, Operand, Place, Probe};

/// Marks the nodes move walks reach only without tags: those no tag edge
/// leads to (through edges other than `player` assignments, where a walk
/// ends).
pub(super) fn untagged(nodes: &mut [NodeInfo], edges: &[Edge]) {
    let is_tag = |e: &&Edge| matches!(e.op, Op::Tag(_) | Op::TagVar(_));
    let mut tagged = vec![false; nodes.len()];
    let mut stack: Vec<u32> = edges.iter().filter(is_tag).map(|e| e.to).collect();
    while let Some(n) = stack.pop() {
        if std::mem::replace(&mut tagged[n as usize], true) {
            continue;
        }
        let info = nodes[n as usize];
        for e in &edges[info.first as usize..info.end as usize] {
            if !matches!(e.op, Op::SetPlayer(_)) && !tagged[e.to as usize] {
                stack.push(e.to);
            }
        }
    }
    for (info, tagged) in nodes.iter_mut().zip(tagged) {
        info.untagged = !tagged;
    }
}

/// Edges into a node whose only edge is a no-op (and that has no visited
/// check, is no check's target and no `@disjoint` node) go on to that
/// no-op's target directly: the walk never stops there anyway. `player`
/// assignments keep their targets (where a play rests matters).
pub(super) fn bypass_skips(nodes: &[NodeInfo], edges: &mut [Edge], checks: &[Check]) {
    let mut target = vec![false; nodes.len()];
    for c in checks {
        target[c.target as usize] = true;
    }
    let skip_next: Vec<Option<u32>> = (0..nodes.len())
        .map(|n| {
            let info = &nodes[n];
            let single = info.end == info.first + 1 && !info.disjoint && info.guard == Guard::None;
            (single && !target[n] && matches!(edges[info.first as usize].op, Op::Skip))
                .then(|| edges[info.first as usize].to)
        })
        .collect();
    // Per node, where an edge into it really goes: past its chain of no-ops
    // (each chain followed once). Chains into a cycle of no-ops are left
    // alone (such a walk ends at a visited check or the step limit).
    const UNKNOWN: u32 = u32::MAX;
    let mut end = vec![UNKNOWN; nodes.len()];
    let mut on_path = vec![false; nodes.len()];
    let mut path: Vec<u32> = Vec::new();
    for s in 0..nodes.len() as u32 {
        let mut v = s;
        let last = loop {
            if end[v as usize] != UNKNOWN {
                break Some(end[v as usize]);
            }
            on_path[v as usize] = true;
            path.push(v);
            match skip_next[v as usize] {
                Some(m) if on_path[m as usize] => break None,
                Some(m) => v = m,
                None => break Some(v),
            }
        };
        for p in path.drain(..) {
            on_path[p as usize] = false;
            end[p as usize] = last.unwrap_or(p);
        }
    }
    for e in edges.iter_mut() {
        if !matches!(e.op, Op::SetPlayer(_)) {
            e.to = end[e.to as usize];
        }
    }
}

/// The probe of check `c`, if its automaton has the shape [`Probe`] needs
/// (a path of single edges, not `@disjoint`, from the start to the target)
/// and no node between has a visited check: where one has (after
/// `goals[p] = Score(*)`, whose symbols give one key), the walk drops the
/// later symbols' states, so the check can be false although a symbol
/// passes (`rg-language.md` §7.7; `program.rs` decides those).
pub(super) fn probe(
    nodes: &[NodeInfo],
    edges: &[Edge],
    c: Check,
    conds: &mut Vec<(Operand, Operand, bool)>,
) -> Option<Probe> {
    let single = |n: u32| -> Option<&Edge> {
        let info = &nodes[n as usize];
        (info.end == info.first + 1 && !info.disjoint).then(|| &edges[info.first as usize])
    };
    if c.start == c.target {
        return None;
    }
    let start = conds.len();
    let mut node = c.start;
    let mut any = None;
    let mut steps = 0;
    loop {
        let e = single(node)?;
        match e.op {
            Op::AssignAny(Place::Slot(slot), syms) if node == c.start => any = Some((slot, syms)),
            Op::Cmp(a, b, eq) => conds.push((a, b, eq)),
            Op::Skip => {}
            _ => {
                conds.truncate(start);
                return None;
            }
        }
        node = e.to;
        steps += 1;
        if node == c.target {
            break;
        }
        if nodes[node as usize].guard != Guard::None {
            conds.truncate(start);
            return None;
        }
        if node == c.start || steps > nodes.len() {
            conds.truncate(start);
            return None;
        }
    }
    Some(Probe {
        any,
        conds: (start as u32, (conds.len() - start) as u32),
    })
}

pub(super) fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
