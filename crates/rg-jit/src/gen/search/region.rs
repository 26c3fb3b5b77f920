//! A search's region: the nodes and edges its function covers.

use rg_engine::raw::{Op, Tables};

use super::super::check::walked;

/// Edges of one search at most.
pub const MAX_SEARCH_EDGES: usize = 2_000;

/// A search's region: its nodes (its starts first; the target is not
/// one) and per node its first local edge number (edges numbered node by
/// node, so a node's edges are `local[k] .. local[k] + edges`).
pub(crate) struct Region {
    pub nodes: Vec<u32>,
    pub first: Vec<u32>,
    /// The checks its edges nest.
    pub nested: Vec<u32>,
    /// Its edges.
    pub edges: usize,
}

/// If check `c` is one generated code runs as a search, its region
/// ([`region`] from its start): no probe, program, pure or one-slot search
/// (the interpreter's other ways), no step counting (`Tables::has_unique`).
pub(crate) fn search(t: &Tables, c: usize, native: &dyn Fn(u32) -> bool) -> Option<Region> {
    let check = t.checks[c];
    if !walked(t, c) || t.one_slot[c] != rg_engine::raw::NO_SLOT || t.has_unique {
        return None;
    }
    region(t, &[check.start], check.target, native)
}

/// The nodes reachable from `starts` without expanding `target`, if a
/// search can take them: nodes without `@disjoint`, edges without map
/// operations, nested checks that `native` says are generated, at most
/// [`MAX_SEARCH_EDGES`]. Checks of one target whose regions meet share
/// one function over their regions' union (`plan.rs`), entered at the
/// caller's start.
pub(crate) fn region(
    t: &Tables,
    starts: &[u32],
    target: u32,
    native: &dyn Fn(u32) -> bool,
) -> Option<Region> {
    let mut local = vec![false; t.nodes.len()];
    let mut nodes = Vec::new();
    for &s in starts {
        if !local[s as usize] {
            local[s as usize] = true;
            nodes.push(s);
        }
    }
    let (mut first, mut nested, mut edges) = (Vec::new(), Vec::new(), 0);
    let mut k = 0;
    while k < nodes.len() {
        let info = t.nodes[nodes[k] as usize];
        k += 1;
        if info.disjoint {
            return None;
        }
        first.push(edges as u32);
        for e in &t.edges[info.first as usize..info.end as usize] {
            edges += 1;
            match e.op {
                Op::CmpMap(..) | Op::AssignMap(_) => return None,
                Op::Reach(c2, _) if !native(c2) => return None,
                Op::Reach(c2, _) => nested.push(c2),
                _ => {}
            }
            if e.to != target && !local[e.to as usize] {
                local[e.to as usize] = true;
                nodes.push(e.to);
            }
        }
        if edges > MAX_SEARCH_EDGES {
            return None;
        }
    }
    nested.sort_unstable();
    nested.dedup();
    Some(Region {
        nodes,
        first,
        nested,
        edges,
    })
}
