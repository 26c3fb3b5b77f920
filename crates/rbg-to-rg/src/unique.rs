//! Nodes that one enumeration visits at most once per key by construction,
//! although the RG engine's analysis would give them a visited check:
//! they get `@unique`.
//!
//! The engine checks every node reached by an assignment from a checked
//! node, since an assignment may make distinct keys equal. The translation
//! knows more: where a walk's tags and `coord` determine every variable
//! (`repeat_ok`, see `lib.rs`), an assignment to another variable keeps
//! distinct keys distinct, and so does a shift whose map takes no two
//! vertices to one (only keys whose `coord` became `null` may meet, and such
//! walks fail at their next step). A node entered by exactly one edge from a
//! node visited at most once per key, by such an action (or a tag, a
//! comparison, a check, no action), is visited at most once per key too.

use std::collections::{HashMap, HashSet};

use rg_lang::ast::{Expr, Game, Label};

/// Whether `l` assigns `player`.
pub(crate) fn is_player(l: &Label) -> bool {
    matches!(l, Label::Assign { target: Expr::Ref(n), .. } if n.text.as_str() == "player")
}

/// The nodes of `game` visited at most once per key (`ok`: nodes where the
/// tags and `coord` determine the variables; `injective`: move maps that
/// take no two vertices to one).
pub fn distinct_nodes(
    game: &Game,
    ok: &HashSet<&str>,
    coord: &str,
    injective: &HashSet<String>,
    joins: &[String],
) -> Vec<String> {
    let mut incoming: HashMap<&str, usize> = HashMap::new();
    let mut out: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, e) in game.edges.iter().enumerate() {
        *incoming.entry(e.to.text.as_str()).or_default() += 1;
        out.entry(e.from.text.as_str()).or_default().push(i);
    }
    // Where enumerations start: `begin`, check starts and targets of
    // `player` assignments, each visited once when that is its only way in.
    let mut roots: Vec<&str> = vec!["begin"];
    for e in &game.edges {
        match &e.label {
            Label::Reach { from, .. } => roots.push(from.text.as_str()),
            l if is_player(l) => roots.push(e.to.text.as_str()),
            _ => {}
        }
    }
    // Nodes visited at most once: from a root by edges other than
    // any-assignments, each node entered by one edge.
    let mut once: HashSet<&str> = HashSet::new();
    let mut work = Vec::new();
    for r in roots {
        let ways_in = incoming.get(r).copied().unwrap_or(0);
        let from_player = game
            .edges
            .iter()
            .filter(|e| e.to.text.as_str() == r)
            .all(|e| is_player(&e.label));
        if ways_in <= 1 && from_player && once.insert(r) {
            work.push(r);
        }
    }
    while let Some(p) = work.pop() {
        for &i in out.get(p).map_or(&[][..], |v| &v[..]) {
            let e = &game.edges[i];
            let n = e.to.text.as_str();
            if incoming[n] == 1
                && !is_player(&e.label)
                && !matches!(e.label, Label::AssignAny { .. })
                && once.insert(n)
            {
                work.push(n);
            }
        }
    }
    // Every node's visits that pass its check (or need none) have distinct
    // keys; a node entered by one edge keeping them distinct needs none.
    let is_coord = |e: &Expr| matches!(e, Expr::Ref(n) if n.text.as_str() == coord);
    let mut nodes: Vec<String> = Vec::new();
    for e in &game.edges {
        let (p, n) = (e.from.text.as_str(), e.to.text.as_str());
        if incoming[n] != 1 || is_player(&e.label) {
            continue;
        }
        let keeps = match &e.label {
            Label::Skip
            | Label::Tag(_)
            | Label::TagVariable(_)
            | Label::Compare { .. }
            | Label::Reach { .. } => true,
            _ if once.contains(p) && !matches!(e.label, Label::AssignAny { .. }) => true,
            Label::AssignAny { target, .. } => is_coord(target) && once.contains(p),
            Label::Assign { target, value } if is_coord(target) => matches!(value,
                Expr::Access { map, key, .. } if is_coord(key)
                    && matches!(&**map, Expr::Ref(g) if injective.contains(g.text.as_str()))),
            Label::Assign { .. } => ok.contains(p),
        };
        if keeps {
            nodes.push(n.to_string());
        }
    }
    // The engine checks the successors of a `@unique` node it would have
    // checked, unless they are `@unique` too: a node keeps the pragma only
    // if every successor (but `player` assignments' targets) keeps it, or is
    // entered by one edge and was never a candidate (an edge the rules above
    // do not trust: the engine checks such a node after a checked node
    // anyway).
    nodes.extend(joins.iter().cloned());
    let first: HashSet<&str> = nodes.iter().map(String::as_str).collect();
    let mut set = first.clone();
    loop {
        let dropped: Vec<&str> = set
            .iter()
            .copied()
            .filter(|p| {
                out.get(p).is_some_and(|edges| {
                    edges.iter().any(|&i| {
                        let e = &game.edges[i];
                        let t = e.to.text.as_str();
                        !is_player(&e.label)
                            && !set.contains(t)
                            && (incoming[t] > 1 || first.contains(t))
                    })
                })
            })
            .collect();
        if dropped.is_empty() {
            break;
        }
        for p in dropped {
            set.remove(p);
        }
    }
    let mut nodes: Vec<String> = set.into_iter().map(str::to_string).collect();
    nodes.sort();
    nodes
}
