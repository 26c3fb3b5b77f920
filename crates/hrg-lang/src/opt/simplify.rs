//! Shrinking check automata: equal nodes merged, repeated edges and skip
//! chains dropped, unreachable edges removed.
//!
//! All but the last act only at nodes a check alone passes
//! ([`Facts::removable`]): there a check holds exactly when its target is
//! reachable in the graph of states, which none of these changes alters
//! (two nodes with the same edges to the same places reach the same
//! states; an edge twice reaches nothing new; a node whose one edge is a
//! skip to `m` reaches what `m` reaches).

use std::collections::HashMap;

use rg_lang::ast::Label;

use super::graph::{Facts, Graph, BEGIN};

/// At most this much work (edges times rounds) for merging nodes.
const MERGE_WORK: usize = 20_000_000;

/// Merges removable nodes with the same target whose edges (as sets of
/// label and target) are equal, to the coarsest such partition (Moore's
/// refinement); whether any merged.
pub(super) fn merge(g: &mut Graph, facts: &Facts) -> bool {
    let n = g.names.len();
    let cand: Vec<bool> = (0..n).map(|i| facts.removable(i).is_some()).collect();
    let mut labels: HashMap<&Label, usize> = HashMap::new();
    let mut ids: Vec<Vec<usize>> = Vec::with_capacity(n);
    for i in 0..n {
        ids.push(
            g.out[i]
                .iter()
                .map(|e| {
                    let next = labels.len();
                    *labels.entry(&e.label).or_insert(next)
                })
                .collect(),
        );
    }
    // Classes: a non-candidate is alone (its index), candidates start
    // grouped by their check's target.
    let mut class: Vec<usize> = (0..n)
        .map(|i| match facts.removable(i) {
            Some(t) if cand[i] => n + t,
            _ => i,
        })
        .collect();
    let mut count = usize::MAX;
    let mut work = 0;
    loop {
        let mut sigs: HashMap<(usize, Vec<(usize, usize)>), usize> = HashMap::new();
        let mut next = class.clone();
        for i in (0..n).filter(|&i| cand[i]) {
            let mut sig: Vec<(usize, usize)> = ids[i]
                .iter()
                .zip(&g.out[i])
                .map(|(&l, e)| (l, class[e.to]))
                .collect();
            sig.sort_unstable();
            sig.dedup();
            work += sig.len() + 1;
            let fresh = sigs.len();
            next[i] = n + *sigs.entry((class[i], sig)).or_insert(fresh);
        }
        if work > MERGE_WORK {
            return false;
        }
        class = next;
        if sigs.len() == count {
            break;
        }
        count = sigs.len();
    }
    let mut rep: HashMap<usize, usize> = HashMap::new();
    for i in (0..n).filter(|&i| cand[i]) {
        rep.entry(class[i]).or_insert(i);
    }
    let mut changed = false;
    for i in 0..n {
        if cand[i] && rep[&class[i]] != i {
            g.out[i].clear();
            changed = true;
        }
        for e in &mut g.out[i] {
            if cand[e.to] {
                e.to = rep[&class[e.to]];
            }
        }
    }
    changed
}

/// Drops the repeats of an edge (same label and target) at editable nodes.
pub(super) fn dedupe(g: &mut Graph, facts: &Facts) -> bool {
    let mut changed = false;
    for i in 0..g.names.len() {
        if facts.editable(i).is_none() || g.out[i].len() < 2 {
            continue;
        }
        let before = g.out[i].len();
        let mut seen = std::collections::HashSet::new();
        g.out[i].retain(|e| seen.insert((e.to, e.label.clone())));
        changed |= g.out[i].len() != before;
    }
    changed
}

/// Bypasses removable nodes whose only edge is a skip (edges into them go
/// where the skip goes), and puts in place of a skip from an editable node
/// to a removable node entered only by that skip the node's edges.
pub(super) fn compact(g: &mut Graph, facts: &Facts) -> bool {
    let n = g.names.len();
    let mut forward: Vec<Option<usize>> = vec![None; n];
    for (i, f) in forward.iter_mut().enumerate() {
        if facts.removable(i).is_some() {
            if let [e] = g.out[i].as_slice() {
                if e.label == Label::Skip && e.to != i {
                    *f = Some(e.to);
                }
            }
        }
    }
    let resolve = |mut i: usize| {
        for _ in 0..n {
            match forward[i] {
                Some(j) => i = j,
                None => return Some(i),
            }
        }
        None // a cycle of skips: left alone
    };
    let mut changed = false;
    for i in 0..n {
        for k in 0..g.out[i].len() {
            let to = g.out[i][k].to;
            if forward[to].is_some() {
                if let Some(t) = resolve(to) {
                    g.out[i][k].to = t;
                    changed = true;
                }
            }
        }
    }
    let mut indegree = vec![0usize; n];
    for e in g.out.iter().flatten() {
        indegree[e.to] += 1;
    }
    for p in 0..n {
        if facts.editable(p).is_none() {
            continue;
        }
        let mut k = 0;
        let mut steps = 0;
        while k < g.out[p].len() && steps < n {
            steps += 1;
            let e = &g.out[p][k];
            let m = e.to;
            if e.label == Label::Skip && m != p && indegree[m] == 1 && facts.removable(m).is_some()
            {
                let moved = std::mem::take(&mut g.out[m]);
                g.out[p].splice(k..=k, moved);
                indegree[m] = 0;
                changed = true;
            } else {
                k += 1;
            }
        }
    }
    changed
}

/// Clears the edges of nodes that no walk reaches (from `begin`, entering
/// checks; nodes named by pragmas kept); whether any.
pub(super) fn prune(g: &mut Graph, facts: &Facts) -> bool {
    let n = g.names.len();
    let mut seen = vec![false; n];
    let mut todo = vec![BEGIN];
    seen[BEGIN] = true;
    for i in (0..n).filter(|&i| facts.pragma.get(i).copied().unwrap_or(false)) {
        seen[i] = true;
        todo.push(i);
    }
    while let Some(i) = todo.pop() {
        for e in &g.out[i] {
            let mut next = vec![e.to];
            if let Some((a, b)) = g.check(&e.label) {
                next.extend([a, b]);
            }
            for j in next {
                if !seen[j] {
                    seen[j] = true;
                    todo.push(j);
                }
            }
        }
    }
    let mut changed = false;
    for (out, seen) in g.out.iter_mut().zip(seen) {
        if !seen && !out.is_empty() {
            out.clear();
            changed = true;
        }
    }
    changed
}
