//! Visited checks around rays: the edge that closes a cycle whose only write
//! is a map applied to one slot checks only the values on a cycle of that map.
//!
//! A ray (`m7 -> m8: board[coord] == e; m8 -> m7: coord = go[coord]`) enters
//! its node n once per step, by the edge back around the cycle; the analysis
//! checks n (two edges enter it), although a board's shifts never come back.
//! Node n qualifies when its strongly connected component S (in the graph
//! without `player` assignments) is a simple cycle
//! (each node of S has exactly one edge into S, not an any-assignment; no
//! node of S is `@disjoint` or where a walk starts) whose edges only compare,
//! check, or assign one user slot x a function of x (`x = f[x]`, `x = c`),
//! and exactly one edge enters S from outside: into n, not an
//! any-assignment, from a node whose visits differ only in their tags
//! (`analysis::Distinct::Vars` empty: at most one visit per tag sequence).
//!
//! Then in one enumeration the visits of n with one tag sequence are one
//! entry (the edge from outside, at most one per tag sequence, since S adds
//! no tags) and the walk around S from it, deterministic: its x values are
//! x0, c(x0), c(c(x0)), ... where c is the maps of one turn composed, and
//! nothing else in n's key changes on S. A value repeats only if it lies on
//! a cycle of c. So the check of the edge back to n is skipped for the other
//! values ([`crate::tables::Edge::cyclic`], a table per symbol): it would
//! never drop one, and no later visit can have their key (it would be a
//! repeat of the same walk or a second entry). The entry keeps its check.
//! `GameModel::with_every_check` skips nothing.

use crate::analysis::Distinct;
use crate::tables::{Edge, Next, NodeInfo, Op, Operand, Place, NO_EDGE};

/// Tags beyond which [`few_tags`] gives up (far below
/// [`crate::raw::MAX_TAGS`]).
pub const FEW_TAGS: u32 = 64;

/// Symbols of all tables made here at most (beyond, rays keep their checks).
const MAX_TABLE: usize = 1 << 22;

/// What the search for rays needs about the lowered game.
pub struct RayFacts<'a> {
    /// Per node, what its keys differ in.
    pub distinct: &'a [Distinct],
    /// Per node, whether a walk starts there (`begin`, `player` targets,
    /// check starts, lazy roots).
    pub root: &'a [bool],
    /// Number of user slots.
    pub user_slots: usize,
    /// Number of symbols.
    pub symbols: usize,
}

/// Sets [`Edge::cyclic`] of the edges closing a qualifying ray: an index
/// into `cyclic` (slot, offset in `fun` of a table with 1 for the values on
/// a cycle of the ray's map).
pub fn rays(
    nodes: &[NodeInfo],
    edges: &mut [Edge],
    facts: &RayFacts,
    fun: &mut Vec<u32>,
    cyclic: &mut Vec<(u32, u32)>,
) {
    let n = nodes.len();
    let comp = components(nodes, edges);
    let mut members: Vec<Vec<u32>> = vec![Vec::new(); n];
    for v in 0..n {
        members[comp[v] as usize].push(v as u32);
    }
    // Edges entering each component from outside: count and the last.
    let mut entries = vec![(0u32, 0u32); n];
    for (v, info) in nodes.iter().enumerate() {
        for i in info.first..info.end {
            let c = comp[edges[i as usize].to as usize];
            if c != comp[v] {
                let e = &mut entries[c as usize];
                *e = (e.0 + 1, i);
            }
        }
    }
    let mut pos = vec![0u32; n];
    for list in &members {
        for (k, &v) in list.iter().enumerate() {
            pos[v as usize] = k as u32;
        }
    }
    let mut made = 0usize;
    for (c, list) in members.iter().enumerate() {
        let (1, entry) = entries[c] else {
            continue;
        };
        let Some((back, slot, table)) = ray(nodes, edges, facts, fun, (&comp, &pos), list, entry)
        else {
            continue;
        };
        if made + facts.symbols > MAX_TABLE {
            return;
        }
        made += facts.symbols;
        let at = fun.len() as u32;
        fun.extend(on_cycles(&table).into_iter().map(u32::from));
        cyclic.push((slot, at));
        edges[back as usize].cyclic = cyclic.len() as u32 - 1;
    }
}

/// Whether component `list` (entered by edge `entry` only) is a ray: the
/// edge back to the entry node, the slot and the map of one turn.
fn ray(
    nodes: &[NodeInfo],
    edges: &[Edge],
    facts: &RayFacts,
    fun: &[u32],
    (comp, pos): (&[u32], &[u32]),
    list: &[u32],
    entry: u32,
) -> Option<(u32, u32, Vec<u32>)> {
    let e = &edges[entry as usize];
    let head = e.to;
    let source = source_of(nodes, entry);
    let once =
        matches!(&facts.distinct[source as usize], Distinct::Vars(v) if v.iter().all(|&w| w == 0));
    if !once || matches!(e.op, Op::AssignAny(..)) || !e.guard {
        return None;
    }
    let c = comp[head as usize];
    // Each node's one edge into the component.
    let mut next = vec![NO_EDGE; list.len()];
    for (k, &v) in list.iter().enumerate() {
        let info = &nodes[v as usize];
        if info.disjoint || facts.root[v as usize] {
            return None;
        }
        for i in info.first..info.end {
            if comp[edges[i as usize].to as usize] == c {
                if next[k] != NO_EDGE {
                    return None;
                }
                next[k] = i;
            }
        }
    }
    // Around the cycle from the head, composing the writes.
    let mut map: Vec<u32> = (0..facts.symbols as u32).collect();
    let mut slot = None;
    let mut v = head;
    let mut back = NO_EDGE;
    for _ in 0..list.len() {
        let i = next[pos[v as usize] as usize];
        if i == NO_EDGE {
            return None;
        }
        let e = &edges[i as usize];
        match e.op {
            Op::Skip | Op::Cmp(..) | Op::CmpMap(..) | Op::Reach(..) => {}
            Op::Assign(Place::Slot(x), value) if (x as usize) < facts.user_slots => {
                if slot.is_some_and(|s| s != x) {
                    return None;
                }
                slot = Some(x);
                match value {
                    Operand::Imm(s) => map.fill(s as u32),
                    Operand::Slot(y) if y == x => {}
                    Operand::Tab(y, t) if y == x => {
                        for m in map.iter_mut() {
                            *m = *fun.get((t + *m) as usize)?;
                        }
                    }
                    _ => return None,
                }
            }
            _ => return None,
        }
        v = e.to;
        if v == head {
            back = i;
            break;
        }
    }
    (back != NO_EDGE).then_some(())?;
    Some((back, slot?, map))
}

/// The node edge `i` leaves.
fn source_of(nodes: &[NodeInfo], i: u32) -> u32 {
    nodes.partition_point(|info| info.end <= i) as u32
}

/// Per value of a function on `0..f.len()`, whether it lies on a cycle.
fn on_cycles(f: &[u32]) -> Vec<bool> {
    const NEW: u8 = 0;
    const ON_PATH: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; f.len()];
    let mut cycle = vec![false; f.len()];
    let mut path = Vec::new();
    for s in 0..f.len() {
        let mut v = s;
        while state[v] == NEW {
            state[v] = ON_PATH;
            path.push(v);
            v = f[v] as usize;
        }
        if state[v] == ON_PATH {
            // The path closed a new cycle through v.
            let mut u = v;
            loop {
                cycle[u] = true;
                u = f[u] as usize;
                if u == v {
                    break;
                }
            }
        }
        for p in path.drain(..) {
            state[p] = DONE;
        }
    }
    cycle
}

/// The strongly connected component of each node in the graph without
/// `player` assignments (where move walks end; a check's walk that follows
/// one back into a component enters it by an entry edge) (iterative
/// Kosaraju).
pub fn components(nodes: &[NodeInfo], edges: &[Edge]) -> Vec<u32> {
    let n = nodes.len();
    // Finishing order of a depth-first search.
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut stack: Vec<(u32, u32)> = Vec::new();
    for s in 0..n as u32 {
        if seen[s as usize] {
            continue;
        }
        seen[s as usize] = true;
        stack.push((s, nodes[s as usize].first));
        while let Some(top) = stack.last_mut() {
            let (v, i) = *top;
            if i < nodes[v as usize].end {
                top.1 += 1;
                let w = edges[i as usize].to;
                if !matches!(edges[i as usize].op, Op::SetPlayer(_)) && !seen[w as usize] {
                    seen[w as usize] = true;
                    stack.push((w, nodes[w as usize].first));
                }
            } else {
                order.push(v);
                stack.pop();
            }
        }
    }
    // The reversed graph, searched in reverse finishing order.
    let mut incoming: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (v, info) in nodes.iter().enumerate() {
        for e in &edges[info.first as usize..info.end as usize] {
            if !matches!(e.op, Op::SetPlayer(_)) {
                incoming[e.to as usize].push(v as u32);
            }
        }
    }
    const NONE: u32 = u32::MAX;
    let mut comp = vec![NONE; n];
    let mut work = Vec::new();
    for &s in order.iter().rev() {
        if comp[s as usize] != NONE {
            continue;
        }
        comp[s as usize] = s;
        work.push(s);
        while let Some(v) = work.pop() {
            for &u in &incoming[v as usize] {
                if comp[u as usize] == NONE {
                    comp[u as usize] = s;
                    work.push(u);
                }
            }
        }
    }
    comp
}

/// Whether single edges followed inline ([`Next::Inline`]) can lead back
/// to an edge: only then can a walk go on without frames forever (at
/// `@unique` nodes, which have no visited check), so only then does it
/// count its steps ([`crate::tables::Tables::has_unique`]).
pub fn inline_cycle(edges: &[Edge]) -> bool {
    // 0: not reached yet, 1: on the path being followed, 2: followed.
    let mut state = vec![0u8; edges.len()];
    let mut path = Vec::new();
    for start in 0..edges.len() {
        let mut i = start;
        path.clear();
        while state[i] == 0 {
            state[i] = 1;
            path.push(i);
            match edges[i].next {
                Next::Inline(next) => i = next as usize,
                _ => break,
            }
        }
        if state[i] == 1 && matches!(edges[i].next, Next::Inline(_)) {
            return true;
        }
        for &p in &path {
            state[p] = 2;
        }
    }
    false
}

/// Whether every move walk (from the nodes `roots` marks to where its moves
/// end, a `player` assignment) pushes at most [`FEW_TAGS`] tags, so never
/// reaches the bound [`crate::raw::MAX_TAGS`]: then walks that count tags
/// only for that bound need not count them (the interpreter's lean walks,
/// [`crate::tables::Tables::few_tags`]; `rg-jit`'s playouts).
pub fn few_tags(nodes: &[NodeInfo], edges: &[Edge], roots: &[bool]) -> bool {
    // Per node, the most tags of a walk entering it (`u32::MAX`: unseen).
    let mut most = vec![u32::MAX; nodes.len()];
    let mut work = Vec::new();
    for (n, &root) in roots.iter().enumerate() {
        if root {
            most[n] = 0;
            work.push(n);
        }
    }
    // (Each node's count only grows, up to `FEW_TAGS`: this ends.)
    while let Some(n) = work.pop() {
        let info = nodes[n];
        for e in &edges[info.first as usize..info.end as usize] {
            let tags = match e.op {
                Op::SetPlayer(_) => continue,
                Op::Tag(_) | Op::TagVar(_) => most[n] + 1,
                _ => most[n],
            };
            if tags > FEW_TAGS {
                return false;
            }
            let to = e.to as usize;
            if most[to] == u32::MAX || most[to] < tags {
                most[to] = tags;
                work.push(to);
            }
        }
    }
    true
}
