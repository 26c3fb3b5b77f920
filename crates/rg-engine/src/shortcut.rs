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
//! - **Filtered any-assignments.** For `x = T(*)` into a node whose only edge
//!   is a comparison (`board[x] == e`), each symbol is tried against the
//!   comparison before the walk takes it: failing symbols cost a write and a
//!   comparison instead of a step of the enumeration. Only when that node has
//!   no visited check: then a failing symbol's walk ends at the comparison
//!   and leaves no trace.

use crate::tables::{Check, Edge, Next, NodeInfo, Op, Place, NO_EDGE};

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
