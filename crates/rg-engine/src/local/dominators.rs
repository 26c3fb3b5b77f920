//! Candidates for a local check's frame node p found by dominators: the
//! choice nodes that every path into q passes, q on a cycle or not
//! (chinese checkers' jump chains: `m12` choosing the first step, then
//! checked choices `m18`, `m22`, ... that jump again or stop; the nearest
//! choice before q is no frame node p, the chain's own choices enter q).
//!
//! The backward graph from q: q and the nodes that reach it through nodes
//! a region may pass (inline or relayable), at most [`MAX_NODES`] of them,
//! each with its predecessors as a bit set of one word. Its entries are
//! the nodes with an edge from outside (a node that cannot be passed, or
//! one past the bound). A node d dominates v when every path from an
//! entry's outside edge to v passes d: dom(v) = {v} ∪ ⋂ dom(u) over v's
//! predecessors u, the empty set for an entry (iterated to the fixed
//! point from the full set). Every walk into q then passes q's
//! dominators, so each choice node among them is a candidate p: the
//! nearest first (dominators of q form a chain, the nearer with the
//! larger set), and last the one outside node all entries come from, if
//! there is one. [`super::key_slot`] checks each.

/// Nodes of the backward graph at most (bit sets of one word).
const MAX_NODES: usize = 63;

/// Candidate frame nodes of q, nearest first. `incoming` and `source`:
/// the edges into each node and each edge's source; `passable`: whether a
/// region may pass a node; `relayable`: whether it is a choice node that
/// may relay; `index`: scratch, one entry per node, all 0 (left so).
pub(super) fn candidates(
    q: usize,
    (incoming, source): (&[Vec<u32>], &[u32]),
    passable: &dyn Fn(usize) -> bool,
    relayable: &dyn Fn(usize) -> bool,
    index: &mut [u8],
) -> Vec<usize> {
    // The backward graph: its nodes (q first), their predecessors, and
    // whether an edge enters each from outside.
    let mut list = vec![q];
    index[q] = 1;
    let mut preds: Vec<u64> = vec![0];
    let mut entry = vec![false];
    // The one outside node the entries come from (`None` with `one`
    // false: several, or a node past the bound).
    let (mut outside, mut one) = (None, true);
    let mut k = 0;
    while k < list.len() {
        let v = list[k];
        for &i in &incoming[v] {
            let s = source[i as usize] as usize;
            let at = match index[s] {
                0 if passable(s) && list.len() < MAX_NODES => {
                    list.push(s);
                    preds.push(0);
                    entry.push(false);
                    index[s] = list.len() as u8;
                    Some(list.len() - 1)
                }
                0 => None,
                j => Some(j as usize - 1),
            };
            match at {
                Some(j) => preds[k] |= 1 << j,
                None => {
                    entry[k] = true;
                    if passable(s) || *outside.get_or_insert(s) != s {
                        one = false;
                    }
                }
            }
        }
        k += 1;
    }
    for &v in &list {
        index[v] = 0;
    }
    let n = list.len();
    let all = (1u64 << n) - 1;
    let mut dom = vec![all; n];
    loop {
        let mut changed = false;
        for v in 0..n {
            let mut d = if entry[v] { 0 } else { all };
            let mut p = preds[v];
            while p != 0 {
                d &= dom[p.trailing_zeros() as usize];
                p &= p - 1;
            }
            d |= 1 << v;
            if d != dom[v] {
                dom[v] = d;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut found: Vec<(u32, usize)> = (1..n)
        .filter(|&c| dom[0] >> c & 1 == 1 && relayable(list[c]))
        .map(|c| (dom[c].count_ones(), list[c]))
        .collect();
    found.sort_by_key(|&(size, _)| std::cmp::Reverse(size));
    let mut out: Vec<usize> = found.into_iter().map(|(_, v)| v).collect();
    if let (true, Some(s)) = (one, outside) {
        out.push(s);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Edges (source, target) as `incoming` and `source`.
    fn graph(n: usize, edges: &[(u32, usize)]) -> (Vec<Vec<u32>>, Vec<u32>) {
        let mut incoming = vec![Vec::new(); n];
        for (i, &(_, to)) in edges.iter().enumerate() {
            incoming[to].push(i as u32);
        }
        (incoming, edges.iter().map(|e| e.0).collect())
    }

    #[test]
    fn a_loops_dominators_are_the_choices_before_it() {
        // 0 (a root) -> 1 (choice) -> 2 -> 3 (choice, q) -> 4 (choice)
        // -> 3, and 1 -> 4: q's dominators are 1 and 0; 3 and 4 are
        // entered from each other.
        let (incoming, source) = graph(5, &[(0, 1), (1, 2), (2, 3), (4, 3), (3, 4), (1, 4)]);
        let choice = |v: usize| matches!(v, 1 | 3 | 4);
        let passable = |v: usize| v != 0;
        let mut index = vec![0u8; 5];
        let c = candidates(3, (&incoming, &source), &passable, &choice, &mut index);
        assert_eq!(c, vec![1, 0]);
        assert!(index.iter().all(|&i| i == 0));
        // From two outside nodes: only the choice node.
        let (incoming, source) = graph(5, &[(0, 1), (1, 2), (2, 3), (4, 3), (3, 4), (0, 4)]);
        let c = candidates(3, (&incoming, &source), &passable, &choice, &mut index);
        assert_eq!(c, vec![0]);
        let passable = |v: usize| v != 0 && v != 1;
        let c = candidates(3, (&incoming, &source), &passable, &choice, &mut index);
        assert_eq!(c, Vec::<usize>::new(), "1 and 0 both enter");
    }
}
