//! Check regions searched without visited checks: `@unique` for every node
//! of a reachability check's automaton that is acyclic and has few walks.
//!
//! A check only asks whether its target is reachable. The reference's
//! search drops a walk whose key (node, tags, user variables) it has seen;
//! a dropped walk's continuations are those of the kept one except where
//! they read what the key omits (`goals`, `player`, `visible`). So where no
//! edge of any check region reads those, a search that drops nothing finds
//! the same nodes: the result is unchanged. Without the visited sets the
//! search walks every path, so a region qualifies only when it has no cycle
//! (the search ends) and at most [`MAX_WALKS_PER_EDGE`] walks per edge,
//! counting an any-assignment as one walk per symbol (its cost stays within
//! a constant factor of the region's size times its widest assignment).
//! Nodes also reached by move walks (from `begin`) are left alone.

use std::collections::{HashMap, HashSet};

use rg_lang::ast::{Expr, Game, Label, Name, Type};

/// Most walks of a region per edge and symbol of its widest any-assignment.
const MAX_WALKS_PER_EDGE: u64 = 4;

/// Most nodes of all check regions together (counted once per region)
/// the analysis looks at; past it, no node is given `@unique`.
const MAX_REGION_NODES: usize = 1 << 22;

/// The variables the reference's visited key omits.
const UNKEYED: [&str; 3] = ["goals", "player", "visible"];

/// Whether `e` reads one of [`UNKEYED`] (as a value or a key).
fn reads_unkeyed(e: &Expr) -> bool {
    match e {
        Expr::Ref(n) => UNKEYED.contains(&n.text.as_str()),
        Expr::Access { map, key, .. } => reads_unkeyed(map) || reads_unkeyed(key),
        Expr::Cast { expr, .. } => reads_unkeyed(expr),
    }
}

/// Whether assigning to place `e` reads one of [`UNKEYED`] (its keys).
fn place_reads_unkeyed(e: &Expr) -> bool {
    match e {
        Expr::Ref(_) => false,
        Expr::Access { map, key, .. } => place_reads_unkeyed(map) || reads_unkeyed(key),
        Expr::Cast { expr, .. } => place_reads_unkeyed(expr),
    }
}

fn label_reads_unkeyed(l: &Label) -> bool {
    match l {
        Label::Assign { target, value } => place_reads_unkeyed(target) || reads_unkeyed(value),
        Label::AssignAny { target, .. } => place_reads_unkeyed(target),
        Label::Compare { left, right, .. } => reads_unkeyed(left) || reads_unkeyed(right),
        Label::Skip | Label::Tag(_) | Label::TagVariable(_) | Label::Reach { .. } => false,
    }
}

/// The symbols of set type `ty` (`None`: not a set type).
pub(crate) fn type_symbols<'a>(game: &'a Game, ty: &'a Type) -> Option<&'a [Name]> {
    let mut ty = ty;
    // Aliases resolve to earlier definitions; bounded by their number.
    for _ in 0..=game.types.len() {
        match ty {
            Type::Set { symbols, .. } => return Some(symbols),
            Type::Arrow(..) => return None,
            Type::Ref(n) => ty = &game.types.iter().find(|t| t.name.text == n.text)?.ty,
        }
    }
    None
}

/// The number of symbols of set type `ty` (`None`: not a set type).
fn symbols(game: &Game, ty: &Type) -> Option<u64> {
    type_symbols(game, ty).map(|s| s.len() as u64)
}

/// `game`'s nodes numbered in order of first appearance on its edges: the
/// number of each name, and the names by number.
pub fn node_ids(game: &Game) -> (HashMap<&str, usize>, Vec<&str>) {
    let mut ids: HashMap<&str, usize> = HashMap::new();
    let mut names: Vec<&str> = Vec::new();
    for e in &game.edges {
        for n in [e.from.text.as_str(), e.to.text.as_str()] {
            ids.entry(n).or_insert_with(|| {
                names.push(n);
                names.len() - 1
            });
        }
    }
    (ids, names)
}

/// The numbers (`ids`, from [`node_ids`]) of the nodes `game`'s checks
/// start from, one per check edge.
pub fn check_starts(game: &Game, ids: &HashMap<&str, usize>) -> Vec<usize> {
    game.edges
        .iter()
        .filter_map(|e| match &e.label {
            Label::Reach { from, .. } => ids.get(from.text.as_str()).copied(),
            _ => None,
        })
        .collect()
}

/// The nodes of `game`'s check regions that need no visited check.
pub fn unchecked_nodes(game: &Game) -> Vec<String> {
    let (ids, names) = node_ids(game);
    let n = names.len();
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, e) in game.edges.iter().enumerate() {
        out[ids[e.from.text.as_str()]].push(i);
    }
    let reach = |starts: &[usize]| {
        let mut seen = vec![false; n];
        let mut work: Vec<usize> = starts.to_vec();
        for &s in starts {
            seen[s] = true;
        }
        let mut order = Vec::new();
        while let Some(v) = work.pop() {
            order.push(v);
            for &i in &out[v] {
                let t = ids[game.edges[i].to.text.as_str()];
                if !seen[t] {
                    seen[t] = true;
                    work.push(t);
                }
            }
        }
        order
    };
    let moves: HashSet<usize> = match ids.get("begin") {
        Some(&b) => reach(&[b]).into_iter().collect(),
        None => HashSet::new(),
    };
    let mut starts = check_starts(game, &ids);
    starts.sort_unstable();
    starts.dedup();
    let mut regions: Vec<Vec<usize>> = Vec::new();
    let mut size = 0;
    for &s in &starts {
        let region = reach(&[s]);
        size += region.len();
        if size > MAX_REGION_NODES {
            return Vec::new();
        }
        regions.push(region);
    }
    // Every check region's edges; none may read what keys omit.
    let in_checks: HashSet<usize> = regions.iter().flatten().copied().collect();
    let unkeyed = in_checks
        .iter()
        .flat_map(|&v| &out[v])
        .any(|&i| label_reads_unkeyed(&game.edges[i].label));
    if unkeyed {
        return Vec::new();
    }
    let mut bad = vec![false; n];
    for (&s, region) in starts.iter().zip(&regions) {
        let ok =
            region.iter().all(|v| !moves.contains(v)) && few_walks(game, &ids, &out, s, region);
        if !ok {
            region.iter().for_each(|&v| bad[v] = true);
        }
    }
    let mut nodes: Vec<String> = in_checks
        .into_iter()
        .filter(|&v| !bad[v])
        .map(|v| names[v].to_string())
        .collect();
    nodes.sort();
    nodes
}

/// Whether the region of start `s` (its nodes `region`) is acyclic with at
/// most [`MAX_WALKS_PER_EDGE`] walks per edge and symbol.
fn few_walks(
    game: &Game,
    ids: &HashMap<&str, usize>,
    out: &[Vec<usize>],
    s: usize,
    region: &[usize],
) -> bool {
    let target = |i: usize| ids[game.edges[i].to.text.as_str()];
    let mut indegree: HashMap<usize, usize> = region.iter().map(|&v| (v, 0)).collect();
    let mut edges = 0u64;
    let mut widest = 1u64;
    for &v in region {
        for &i in &out[v] {
            edges += 1;
            *indegree.get_mut(&target(i)).expect("in the region") += 1;
            if let Label::AssignAny { ty, .. } = &game.edges[i].label {
                match symbols(game, ty) {
                    Some(k) => widest = widest.max(k),
                    None => return false,
                }
            }
        }
    }
    let limit = MAX_WALKS_PER_EDGE
        .saturating_mul(edges.max(1))
        .saturating_mul(widest);
    // Walks into each node, in topological order (Kahn); a node left over
    // lies on a cycle.
    let mut walks: HashMap<usize, u64> = HashMap::from([(s, 1)]);
    let mut ready: Vec<usize> = region
        .iter()
        .copied()
        .filter(|v| indegree[v] == 0)
        .collect();
    let (mut done, mut total) = (0usize, 0u64);
    while let Some(v) = ready.pop() {
        done += 1;
        let here = walks.get(&v).copied().unwrap_or(0);
        total = total.saturating_add(here);
        if total > limit {
            return false;
        }
        for &i in &out[v] {
            let w = match &game.edges[i].label {
                Label::AssignAny { ty, .. } => symbols(game, ty).unwrap_or(u64::MAX),
                _ => 1,
            };
            let t = target(i);
            let into = walks.entry(t).or_insert(0);
            *into = into.saturating_add(here.saturating_mul(w));
            let d = indegree.get_mut(&t).expect("in the region");
            *d -= 1;
            if *d == 0 {
                ready.push(t);
            }
        }
    }
    done == region.len()
}
