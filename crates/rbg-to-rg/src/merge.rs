//! Nodes with the same future shared, in two passes over the finished
//! translation.
//!
//! [`merge_equal_futures`]: the coarsest partition of the nodes in which
//! the nodes of a class have the same edges in the same order (labels
//! equal, targets in the same class), found by refining one class per kind
//! of node until stable; each class becomes its first node. A Glushkov
//! automaton has one state per leaf, so a star of alternatives
//! (`(dir1 {e} + dir2 {e} + ...)*`) leaves one node per alternative's last
//! leaf, each with the star's edges: chineseCheckers6's jump landings (one
//! per direction) in the move and in every check become one node. A walk
//! reaching two copies with one key (the same vertex by another last jump)
//! went on twice, up to the visited check of the next node; merged, the
//! first visited check drops the second walk. The futures are the same
//! (same edges into the same classes), so the moves and their counts are:
//! a merged node's edges go, the edges into it are redirected, parallel
//! edges stay.
//!
//! [`share_tails`]: a node whose last edges (at least [`MIN_TAIL`]) are,
//! in order, all the edges of another node `m` has a no-op into `m` in
//! their place; each walk keeps its tags and its end (one more node on
//! the way), a second visit of `m` with one key is dropped there instead
//! of at the nodes after it. chineseCheckers6's move start (a step to an
//! empty neighbour, or the jumps' star) goes into the landing node.
//!
//! Kept apart (a class of their own, never a shared tail's `m`): `begin`,
//! `end`, the nodes a check starts or ends at, the nodes a `player`
//! assignment leaves (every visit there is a move: two visits with one key
//! would be two moves) or enters (where a state rests: random children
//! are told apart by their node), `@unique` nodes (no visited check: one
//! key could come twice, which the engine's analysis of what a node's
//! visits differ in does not expect) and the nodes any other pragma names,
//! except `@repeat`, whose variables are part of the initial class. The
//! translation's `@repeat` holds where the move's tags and `coord`
//! determine the variables (the replay of the tagged modifiers, the same
//! at every node), so also at a merged node, and for walks into `m` from
//! a node where the same holds. A `@disjoint` node keeps its edges.
//!
//! Callgrind instructions (`rbg bench chineseCheckers6.rg --seed 1
//! --playouts 20 --engine E`, counted in `play_random`, one binary on
//! both translations): interp 498,215,744 -> 391,587,149 (-21.4%; the
//! merge alone -15.1%), native 163,788,496 -> 126,541,118 (-22.7%; the
//! merge alone -13.3%). Of the eight bar games only hex and chess change
//! (hex native +0.14%, the others within 0.02%).

use std::collections::{HashMap, HashSet};

use rg_lang::ast::{Game, Label, Name, Pragma};

/// The edges of a game by node: nodes numbered in order of appearance,
/// labels by their first edge.
struct Graph {
    index: HashMap<String, u32>,
    names: Vec<String>,
    /// Per node, its edges in order: (label, target).
    out: Vec<Vec<(u32, u32)>>,
    /// Per node, whether it is kept apart (see the module comment).
    apart: Vec<bool>,
    /// Per node, its `@repeat` variables (none: not `@repeat`).
    repeat: Vec<Option<Vec<String>>>,
}

impl Graph {
    fn new(game: &Game) -> Graph {
        let mut index: HashMap<String, u32> = HashMap::new();
        let mut names: Vec<String> = Vec::new();
        let mut id = |n: &Name| -> u32 {
            *index.entry(n.text.clone()).or_insert_with(|| {
                names.push(n.text.clone());
                names.len() as u32 - 1
            })
        };
        let ends: Vec<(u32, u32)> = game
            .edges
            .iter()
            .map(|e| (id(&e.from), id(&e.to)))
            .collect();
        let mut labels: HashMap<&Label, u32> = HashMap::new();
        let mut out: Vec<Vec<(u32, u32)>> = vec![Vec::new(); names.len()];
        for (e, &(from, to)) in game.edges.iter().zip(&ends) {
            let next = labels.len() as u32;
            let label = *labels.entry(&e.label).or_insert(next);
            out[from as usize].push((label, to));
        }
        let mut repeat = vec![None; names.len()];
        for p in &game.pragmas {
            if let Pragma::Repeat { nodes, variables } = p {
                for n in nodes.iter().filter_map(|n| index.get(&n.text)) {
                    repeat[*n as usize] = Some(variables.iter().map(|v| v.text.clone()).collect());
                }
            }
        }
        let apart = apart(game, &ends, &index, names.len());
        Graph {
            index,
            names,
            out,
            apart,
            repeat,
        }
    }
}

/// Merges the nodes of `game` with the same future (see the module
/// comment); returns how many nodes were merged into others.
pub(crate) fn merge_equal_futures(game: &mut Game) -> usize {
    let Graph {
        index,
        names,
        out,
        apart,
        repeat,
    } = Graph::new(game);
    // Initial classes: a node kept apart alone, the others by their
    // `@repeat` variables.
    let mut kinds: HashMap<&Option<Vec<String>>, u32> = HashMap::new();
    let mut class: Vec<u32> = (0..names.len())
        .map(|n| {
            let next = kinds.len() as u32;
            if apart[n] {
                next + n as u32 + names.len() as u32
            } else {
                *kinds.entry(&repeat[n]).or_insert(next)
            }
        })
        .collect();
    let mut count = usize::MAX;
    loop {
        let mut sigs: HashMap<(u32, Vec<(u32, u32)>), u32> = HashMap::new();
        let refined: Vec<u32> = (0..names.len())
            .map(|n| {
                let sig = out[n]
                    .iter()
                    .map(|&(l, t)| (l, class[t as usize]))
                    .collect();
                let next = sigs.len() as u32;
                *sigs.entry((class[n], sig)).or_insert(next)
            })
            .collect();
        class = refined;
        if sigs.len() == count {
            break;
        }
        count = sigs.len();
    }
    // Each class becomes its first node.
    let mut first: HashMap<u32, u32> = HashMap::new();
    let rep: Vec<u32> = (0..names.len() as u32)
        .map(|n| *first.entry(class[n as usize]).or_insert(n))
        .collect();
    let merged = (0..names.len()).filter(|&n| rep[n] != n as u32).count();
    if merged == 0 {
        return 0;
    }
    let kept = |n: &Name| index.get(&n.text).is_none_or(|&i| rep[i as usize] == i);
    let renamed = |n: &Name| match index.get(&n.text) {
        Some(&i) => Name::new(&names[rep[i as usize] as usize]),
        None => n.clone(),
    };
    let edges = std::mem::take(&mut game.edges);
    for mut e in edges.into_iter().filter(|e| kept(&e.from)) {
        e.to = renamed(&e.to);
        game.edges.push(e);
    }
    for p in &mut game.pragmas {
        match p {
            Pragma::Unique(nodes) | Pragma::Repeat { nodes, .. } => nodes.retain(kept),
            Pragma::Disjoint { targets, .. } => {
                for t in targets {
                    *t = renamed(t);
                }
            }
            _ => {}
        }
    }
    merged
}

/// Replaces the last edges of a node that are all the edges of another
/// node `m`, in order, by a no-op into `m` (see the module comment);
/// returns how many nodes changed. `ok`: the nodes where the move's tags
/// and `coord` determine the variables (only those may go into a
/// `@repeat` node).
pub(crate) fn share_tails(game: &mut Game, ok: &HashSet<&str>) -> usize {
    let g = Graph::new(game);
    let disjoint: HashSet<&str> = game
        .pragmas
        .iter()
        .filter_map(|p| match p {
            Pragma::Disjoint { node, .. } => Some(node.text.as_str()),
            _ => None,
        })
        .collect();
    let mut whole: HashMap<&[(u32, u32)], u32> = HashMap::new();
    for (m, out) in g.out.iter().enumerate() {
        if !g.apart[m] && out.len() >= MIN_TAIL {
            whole.entry(out).or_insert(m as u32);
        }
    }
    // Per node: where its tail starts, and the node that has it.
    let mut tails: HashMap<u32, (usize, u32)> = HashMap::new();
    for (n, out) in g.out.iter().enumerate() {
        if disjoint.contains(g.names[n].as_str()) {
            continue;
        }
        let tail = (1..=out.len().saturating_sub(MIN_TAIL)).find_map(|k| {
            let m = *whole.get(&out[k..])?;
            let into = g.repeat[m as usize].is_none() || ok.contains(g.names[n].as_str());
            (m != n as u32 && into).then_some((k, m))
        });
        if let Some(tail) = tail {
            tails.insert(n as u32, tail);
        }
    }
    if tails.is_empty() {
        return 0;
    }
    let mut seen = vec![0usize; g.names.len()];
    let edges = std::mem::take(&mut game.edges);
    for mut e in edges {
        let n = g.index[&e.from.text];
        let i = seen[n as usize];
        seen[n as usize] += 1;
        match tails.get(&n) {
            Some(&(k, m)) if i == k => {
                e.to = Name::new(&g.names[m as usize]);
                e.label = Label::Skip;
            }
            Some(&(k, _)) if i > k => continue,
            _ => {}
        }
        game.edges.push(e);
    }
    tails.len()
}

/// The fewest edges a shared tail has (one edge would only add a node).
const MIN_TAIL: usize = 2;

/// Per node (numbered as in `index`), whether it is kept apart (see the
/// module comment).
fn apart(
    game: &Game,
    ends: &[(u32, u32)],
    index: &HashMap<String, u32>,
    nodes: usize,
) -> Vec<bool> {
    let mut apart = vec![false; nodes];
    let mut mark = |n: &str| {
        if let Some(&i) = index.get(n) {
            apart[i as usize] = true;
        }
    };
    mark("begin");
    mark("end");
    for e in &game.edges {
        if let Label::Reach { from, to, .. } = &e.label {
            mark(&from.text);
            mark(&to.text);
        }
    }
    let mut named: HashSet<&str> = HashSet::new();
    for p in &game.pragmas {
        match p {
            Pragma::Repeat { .. } => {}
            Pragma::Disjoint { node, .. } => {
                named.insert(&node.text);
            }
            Pragma::Unique(nodes) => named.extend(nodes.iter().map(|n| n.text.as_str())),
            Pragma::Iterator { nodes, .. } => named.extend(nodes.iter().map(|n| n.text.as_str())),
            Pragma::SimpleApply { from, to, .. } => {
                named.extend([from.text.as_str(), to.text.as_str()])
            }
            Pragma::TagIndex { nodes, .. } => named.extend(nodes.iter().map(|n| n.text.as_str())),
            _ => {}
        }
    }
    for n in named {
        mark(n);
    }
    for (e, &(from, to)) in game.edges.iter().zip(ends) {
        if crate::unique::is_player(&e.label) {
            apart[from as usize] = true;
            apart[to as usize] = true;
        }
    }
    apart
}

#[cfg(test)]
mod tests {
    use gg_core::perft::perft;

    /// `u1`, `u2` have the same future (into `w`, whose `player` edge ends
    /// the move once per key); `p1`, `p2` too, but each visit there is a
    /// move of its own.
    const GAME: &str = "type Player = {x}; type Score = {0}; type V = {0, 1}; var a: V = 0;
        begin, s: player = x;
        s, u1: ; s, u2: ; u1, w: a = 1; u2, w: a = 1; w, end: player = keeper;
        s, p1: ; s, p2: ; p1, end: player = keeper; p2, end: player = keeper;";

    fn moves(text: &str) -> u64 {
        let model = rg_engine::GameModel::from_text(text).unwrap();
        perft(&model, 1).unwrap().leaves
    }

    #[test]
    fn copies_merge_but_not_where_a_move_ends() {
        let (mut game, _) = rg_lang::parse_str(GAME).unwrap();
        assert_eq!(super::merge_equal_futures(&mut game), 1);
        let text = rg_lang::print::print_game(&game);
        assert!(!text.contains("u2"), "{text}");
        assert_eq!(text.matches("s, u1: ;").count(), 2, "{text}");
        assert!(text.contains("p2, end"), "{text}");
        assert_eq!((moves(GAME), moves(&text)), (3, 3));
    }

    /// `t`'s last two edges are `m`'s edges.
    const TAIL: &str = "type Player = {x}; type Score = {0}; type V = {0, 1}; var a: V = 0;
        begin, s: player = x; s, t: ; s, m: ;
        t, y: a = 1; t, w: ; t, z: a = 1; m, w: ; m, z: a = 1;
        y, end: player = keeper; w, end: player = keeper; z, end: player = keeper;";

    #[test]
    fn a_tail_of_another_nodes_edges_goes_there() {
        let (mut game, _) = rg_lang::parse_str(TAIL).unwrap();
        assert_eq!(super::share_tails(&mut game, &Default::default()), 1);
        let text = rg_lang::print::print_game(&game);
        let t: Vec<&str> = text.lines().filter(|l| l.starts_with("t, ")).collect();
        assert_eq!(t, ["t, y: a = 1;", "t, m: ;"], "{text}");
        assert_eq!((moves(TAIL), moves(&text)), (3, 3));
    }
}
