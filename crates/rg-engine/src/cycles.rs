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

/// Per node, whether it lies on a cycle of the graph without `player`
/// assignments ([`components`]): its component has another node, or it
/// has an edge to itself that is not a `player` assignment.
pub fn on_cycle(nodes: &[NodeInfo], edges: &[Edge]) -> Vec<bool> {
    let comp = components(nodes, edges);
    let mut size = vec![0u32; nodes.len()];
    for &c in &comp {
        size[c as usize] += 1;
    }
    nodes
        .iter()
        .enumerate()
        .map(|(v, info)| {
            size[comp[v] as usize] > 1
                || edges[info.first as usize..info.end as usize]
                    .iter()
                    .any(|e| e.to as usize == v && !matches!(e.op, Op::SetPlayer(_)))
        })
        .collect()
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
/// only for that bound need not count them (`rg-jit`'s playouts; the
/// interpreter's lean walks, [`cyclic_tags`]).
pub fn few_tags(nodes: &[NodeInfo], edges: &[Edge], roots: &[bool]) -> bool {
    most_tags(nodes, edges, roots, &|_| true).is_some()
}

/// Per edge, whether it is a tag on a cycle of the graph of move walks
/// ([`components`]: its ends in one component), and the most other tags a
/// move walk from any node passes (`None`: more than [`FEW_TAGS`]).
///
/// A walk leaves a component for good, so it passes every tag between
/// two components at most once: its tags are at most its cyclic ones plus
/// that bound. The interpreter's lean walks count only the cyclic tags
/// and give up before the sum could reach [`crate::raw::MAX_TAGS`]
/// ([`crate::tables::Tables::tag_limit`]); with no cyclic tag they never
/// count ([`few_tags`]). englishDraughts' capture loop (`$$ coord $
/// index_N` per jump) is such a cycle, the rest of its tags are not.
pub fn cyclic_tags(nodes: &[NodeInfo], edges: &[Edge]) -> (Vec<bool>, Option<u32>) {
    let comp = components(nodes, edges);
    let mut cyclic = vec![false; edges.len()];
    for (n, info) in nodes.iter().enumerate() {
        for i in info.first..info.end {
            let e = &edges[i as usize];
            cyclic[i as usize] = is_tag(&e.op) && comp[e.to as usize] == comp[n];
        }
    }
    let roots = vec![true; nodes.len()];
    let others = most_tags(nodes, edges, &roots, &|i| !cyclic[i]);
    (cyclic, others)
}

fn is_tag(op: &Op) -> bool {
    matches!(op, Op::Tag(_) | Op::TagVar(_))
}

/// The most tags on edges `counts` a move walk from a node `roots` marks
/// passes, if at most [`FEW_TAGS`].
fn most_tags(
    nodes: &[NodeInfo],
    edges: &[Edge],
    roots: &[bool],
    counts: &dyn Fn(usize) -> bool,
) -> Option<u32> {
    // Per node, the most tags of a walk entering it (`u32::MAX`: unseen).
    let mut most = vec![u32::MAX; nodes.len()];
    let mut work = Vec::new();
    for (n, &root) in roots.iter().enumerate() {
        if root {
            most[n] = 0;
            work.push(n);
        }
    }
    let mut max = 0;
    // (Each node's count only grows, up to `FEW_TAGS`: this ends.)
    while let Some(n) = work.pop() {
        let info = nodes[n];
        let first = info.first as usize;
        for (i, e) in edges[first..info.end as usize].iter().enumerate() {
            let i = first + i;
            let tags = match e.op {
                Op::SetPlayer(_) => continue,
                ref op if is_tag(op) && counts(i) => most[n] + 1,
                _ => most[n],
            };
            if tags > FEW_TAGS {
                return None;
            }
            max = max.max(tags);
            let to = e.to as usize;
            if most[to] == u32::MAX || most[to] < tags {
                most[to] = tags;
                work.push(to);
            }
        }
    }
    Some(max)
}

#[cfg(test)]
mod tests {
    use super::cyclic_tags;
    use crate::tables::Op;
    use crate::walk::MAX_TAGS;
    use crate::{Effects, GameModel, MoveList, RunError, State};

    /// x's one move: tags `$ s $ u` (off the cycle), then `$ t` once per
    /// step of `v` from 0 to `n - 1` (a loop bounded by the state, as
    /// englishDraughts' captures): `n + 1` tags.
    fn counter(n: usize) -> GameModel {
        let vals: Vec<String> = (0..n).map(|i| i.to_string()).collect();
        let next: Vec<String> = (1..n).map(|i| format!("{}: {i}", i - 1)).collect();
        let text = format!(
            "type Player = {{x, y}};\ntype Score = {{0, 1}};\ntype V = {{{}}};\nvar v: V = 0;\n\
             const next: V -> V = {{ {}, :0 }};\n@unique a b c d;\n\
             begin, s: player = x;\ns, s1: $ s;\ns1, a: $ u;\na, b: $ t;\nb, c: v = next[v];\n\
             c, a: v != {last};\nc, d: v == {last};\nd, end: player = keeper;\n",
            vals.join(", "),
            next.join(", "),
            last = n - 1,
        );
        GameModel::from_text(&text).unwrap()
    }

    /// x's moves by the listing walk (`MoveList`) and the lean one
    /// (`Effects`): the states after each, or the error.
    fn both(g: &GameModel) -> [Result<Vec<State>, RunError>; 2] {
        let mut r = g.reasoner();
        let mut s = g.initial_state();
        r.complete_keeper(&mut s).unwrap();
        let (mut list, mut effects) = (MoveList::default(), Effects::default());
        let listed = r.walks(&mut s, &mut list).map(|()| {
            (0..list.len())
                .map(|i| crate::moves::tests::after(&s, &list, i))
                .collect()
        });
        let lean = r.walks(&mut s, &mut effects).map(|()| {
            (0..effects.len())
                .map(|i| crate::moves::tests::after(&s, &effects, i))
                .collect()
        });
        [listed, lean]
    }

    #[test]
    fn only_tags_on_cycles_are_counted() {
        let g = counter(50);
        let t = g.tables();
        let (cyclic, others) = cyclic_tags(&t.nodes, &t.edges);
        let tag = |i: usize| match t.edges[i].op {
            Op::Tag(s) => Some(g.description().symbols.name(rg_lang::types::Sym(s.into()))),
            _ => None,
        };
        let counted: Vec<_> = (0..t.edges.len()).filter(|&i| cyclic[i]).map(tag).collect();
        assert_eq!(counted, [Some("t")]);
        assert_eq!(others, Some(2), "`$ s $ u`");
        assert!(!t.few_tags && !t.tags_read, "a lean walk that counts tags");
        assert_eq!(t.tag_limit as usize, MAX_TAGS - 3);
        let [listed, lean] = both(&g);
        assert_eq!(listed.as_ref().map(Vec::len), Ok(1));
        assert_eq!(listed, lean);
    }

    #[test]
    fn lean_walks_fail_as_listing_walks_at_the_tag_bound() {
        // 2048 tags: `$ t` 2046 times, past the lean walk's limit (2045,
        // two tags off the cycle), so it gives up and counts them all.
        let [listed, lean] = both(&counter(MAX_TAGS - 1));
        assert_eq!(listed.as_ref().map(Vec::len), Ok(1));
        assert_eq!(listed, lean);
        // 2049 tags: `$ t` 2047 times (within 2048 if the two others were
        // not bounded); the listing walk's error.
        let g = counter(MAX_TAGS);
        let [listed, lean] = both(&g);
        let b = g.description().node("b").unwrap().0;
        let endless = RunError::EndlessWalk {
            limit: MAX_TAGS,
            node: b,
        };
        assert_eq!(listed, Err(endless.clone()));
        assert_eq!(lean, Err(endless));
    }
}
