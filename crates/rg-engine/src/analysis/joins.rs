//! Exclusive joins: a node entered by several edges whose walks split at
//! tests that cannot both pass, so that one walk into the split enters the
//! node once at most.
//!
//! A translation writes a value it does not know as one branch per value
//! that meet again: pentago's rotation stores a square in `tmp` by
//! `board[x] == e` then `tmp = 0`, `board[x] == w` then `tmp = 1`, ...,
//! all three into one node (and `? win` / `! win` branches meet the
//! same way). Counted by its edges, such a node needs a visited check;
//! but each walk into the split took one branch only, so the node's visits
//! are those of the split node, as distinct as its keys are (when the
//! branches add no tag and write none of the variables they differ in).
//!
//! Back from each edge into the node, the walk is determined as long as
//! nodes have one edge in, and through a join found before from its base
//! (the last node all its walks pass; [`Join::firsts`] the edges they
//! leave it by): every such chain goes back to a common top (a start, or a
//! node entered by several edges that is no join). A chain whose nearest
//! join lies past the links all chains share stands for that join's own
//! chains (a store after a store: its branches meet, then split again).
//! Two chains from different edges in split where their links first
//! differ; every edge either may leave that node by must be exclusive with
//! every edge the other may ([`exclusive`]).
//!
//! Callgrind instructions per playout (`rbg bench --seed 1 --playouts
//! 200`, in `play_random`) on pentago.rg (its rotations' stores and win
//! branches: 624 checked nodes to none but a check's target): interp
//! 2,373,502 -> 2,189,340 (-7.8%), native 1,036,411 -> 802,754 (-22.5%).

use crate::bits;
use crate::tables::{Edge, Op, Operand};

use super::EdgeFacts;

/// Most edges into a node taken as one join (pairs are compared).
const MAX_IN: usize = 16;
/// Longest chain followed back from an edge into a join.
const MAX_CHAIN: usize = 256;
/// Most paths of a join's chains compared.
const MAX_PATHS: usize = 64;

/// Two chains into a join that split at `node`: what their walks from
/// there do that could make two visits of `node` with different keys meet
/// with one key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Split {
    /// The node where the two chains part.
    pub node: u32,
    /// Whether either chain past `node` has a tag.
    pub tags: bool,
    /// The user variables either chain past `node` writes.
    pub writes: Vec<u64>,
}

/// A node entered by several edges whose chains split exclusively.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Join {
    /// The edges into the node: (source, index in its edges).
    pub sources: Vec<(u32, usize)>,
    /// Every pair of chains' split.
    pub splits: Vec<Split>,
    /// The last node every chain passes: every walk into the join passed
    /// it last by one of the edges `firsts` (indices in its edges).
    pub base: u32,
    /// See `base`.
    pub firsts: Vec<usize>,
    /// Its chains back from each edge in (joins on the way not taken).
    chains: Vec<Vec<Link>>,
    /// Whether a chain past `base` has a tag.
    pub tags: bool,
    /// The user variables the chains past `base` write.
    pub writes: Vec<u64>,
}

/// A step of a chain back from an edge into a join.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Link {
    /// An edge: (source, index in its edges).
    Edge(u32, usize),
    /// Through join `j` (its node), from its base.
    Jump(u32),
}

/// Where the chains into joins go back through (the region's facts).
pub(super) struct Back<'a> {
    /// Per node, its edges in: count and the last (source, index).
    pub incoming: &'a [(u32, (u32, usize))],
    /// The region's start.
    pub root: u32,
    /// Per node, 1 + its join's index in `joins` (0: none).
    pub join_of: &'a [u32],
    /// The joins found.
    pub joins: &'a [Join],
}

impl Back<'_> {
    /// The join of node `v`, if it is one.
    fn join(&self, v: u32) -> Option<&Join> {
        match self.join_of[v as usize] {
            0 => None,
            j => self.joins.get(j as usize - 1),
        }
    }

    /// The node a link starts from, and the edges it may leave it by.
    fn start(&self, l: Link) -> Option<(u32, Vec<usize>)> {
        match l {
            Link::Edge(p, k) => Some((p, vec![k])),
            Link::Jump(v) => self.join(v).map(|j| (j.base, j.firsts.clone())),
        }
    }

    /// The links of a chain back from `(src, k)`: top first, its top node
    /// (the start, or a node entered by several edges that is no join), or
    /// `None` past [`MAX_CHAIN`].
    fn chain(&self, (src, k): (u32, usize)) -> Option<(u32, Vec<Link>)> {
        let mut links = vec![Link::Edge(src, k)];
        let mut at = src;
        while at != self.root {
            if links.len() >= MAX_CHAIN {
                return None;
            }
            let (count, e) = self.incoming[at as usize];
            let (link, from) = match (count, self.join(at)) {
                (1, _) => (Link::Edge(e.0, e.1), e.0),
                (_, Some(j)) => (Link::Jump(at), j.base),
                _ => break,
            };
            links.push(link);
            at = from;
        }
        links.reverse();
        Some((at, links))
    }

    /// Whether links past a split add a tag, and the variables they write.
    fn effects(&self, facts: &EdgeFacts, links: &[Link], tags: &mut bool, writes: &mut Vec<u64>) {
        for &l in links {
            match l {
                Link::Edge(p, k) => {
                    let e = &facts.per_node[p as usize][k];
                    *tags |= matches!(e.op, Op::Tag(_) | Op::TagVar(_));
                    if let Some(w) = facts.writes[p as usize][k] {
                        bits::insert(writes, w);
                    }
                }
                Link::Jump(v) => {
                    if let Some(j) = self.join(v) {
                        *tags |= j.tags;
                        *writes = bits::union(writes, &j.writes);
                    }
                }
            }
        }
    }

    /// Node `v`'s join, if its edges in (`sources`) split exclusively.
    /// Adds the links and pairs looked at to `work`.
    pub(super) fn find(
        &self,
        facts: &EdgeFacts,
        sources: &[(u32, usize)],
        work: &mut usize,
    ) -> Option<Join> {
        if sources.len() < 2 || sources.len() > MAX_IN {
            return None;
        }
        let mut direct = Vec::with_capacity(sources.len());
        for &s in sources {
            let c = self.chain(s);
            *work += c.as_ref().map_or(MAX_CHAIN, |(_, links)| links.len());
            let (t, links) = c?;
            if direct.first().is_some_and(|(top, _)| *top != t) {
                return None;
            }
            direct.push((t, links));
        }
        // The links all chains share: through the last, `base`.
        let (_, first) = &direct[0];
        let common = direct
            .iter()
            .map(|(_, c)| c.iter().zip(first).take_while(|(x, y)| x == y).count())
            .min()?;
        // Per edge in, its chain's paths: a join past the shared links
        // (the nearest) taken by each of its own chains.
        let mut chains: Vec<(usize, Vec<Link>)> = Vec::new();
        for (i, (_, links)) in direct.iter().enumerate() {
            match links.iter().rposition(|l| matches!(l, Link::Jump(_))) {
                Some(at) if at >= common => {
                    let Link::Jump(v) = links[at] else {
                        return None;
                    };
                    for c in &self.join(v)?.chains {
                        let mut path = c.clone();
                        path.extend_from_slice(&links[at + 1..]);
                        *work += path.len();
                        chains.push((i, path));
                    }
                }
                _ => chains.push((i, links.clone())),
            }
            if chains.len() > MAX_PATHS {
                return None;
            }
        }
        let mut splits = Vec::new();
        for (i, (ia, a)) in chains.iter().enumerate() {
            for (_, b) in chains[i + 1..].iter().filter(|(ib, _)| ib != ia) {
                let shared = a.iter().zip(b).take_while(|(x, y)| x == y).count();
                *work += a.len() + b.len();
                let (Some(&la), Some(&lb)) = (a.get(shared), b.get(shared)) else {
                    return None;
                };
                let ((node, fa), (other, fb)) = (self.start(la)?, self.start(lb)?);
                if other != node {
                    return None;
                }
                let edges = &facts.per_node[node as usize];
                let exclusive = |x: usize, y: usize| match (edges.get(x), edges.get(y)) {
                    (Some(a), Some(b)) => exclusive(facts, a, b),
                    _ => false,
                };
                if !fa.iter().all(|&x| fb.iter().all(|&y| exclusive(x, y))) {
                    return None;
                }
                let mut split = Split {
                    node,
                    tags: false,
                    writes: Vec::new(),
                };
                self.effects(facts, &a[shared..], &mut split.tags, &mut split.writes);
                self.effects(facts, &b[shared..], &mut split.tags, &mut split.writes);
                splits.push(split);
            }
        }
        let (base, _) = self.start(*first.get(common)?)?;
        let (mut firsts, mut tags, mut writes) = (Vec::new(), false, Vec::new());
        for (_, links) in &direct {
            let (_, f) = self.start(*links.get(common)?)?;
            firsts.extend(f);
            self.effects(facts, &links[common..], &mut tags, &mut writes);
        }
        firsts.sort_unstable();
        firsts.dedup();
        Some(Join {
            sources: sources.to_vec(),
            splits,
            base,
            firsts,
            tags,
            writes,
            chains: direct.into_iter().map(|(_, c)| c).collect(),
        })
    }
}

/// Whether edges `a` and `b` (of one node) never both pass in one
/// semistate: `? c` and `! c`, or comparisons of one read with constants
/// that no symbol satisfies both of.
pub(super) fn exclusive(facts: &EdgeFacts, a: &Edge, b: &Edge) -> bool {
    match (a.op, b.op) {
        (Op::Reach(c, p), Op::Reach(d, q)) => {
            let same = c == d
                || matches!((facts.checks.get(c as usize), facts.checks.get(d as usize)),
                    (Some(x), Some(y)) if x.start == y.start && x.target == y.target);
            same && p != q
        }
        (Op::Cmp(x1, y1, eq1), Op::Cmp(x2, y2, eq2)) => {
            let (Some((r1, v1)), Some((r2, v2))) = (with_constant(x1, y1), with_constant(x2, y2))
            else {
                return false;
            };
            if facts.same_read(r1, r2) {
                return (eq1 && eq2 && v1 != v2) || (eq1 != eq2 && v1 == v2);
            }
            match (r1, r2) {
                // `f[x] == v` and `g[x] == w`: no symbol of `x` passes both.
                (Operand::Tab(s1, t1), Operand::Tab(s2, t2)) if s1 == s2 => {
                    (0..facts.symbols).all(|x| {
                        let at = |t: u32| facts.fun.get(t as usize + x).map(|&y| y as u16);
                        match (at(t1), at(t2)) {
                            (Some(y1), Some(y2)) => !((y1 == v1) == eq1 && (y2 == v2) == eq2),
                            _ => false,
                        }
                    })
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// A comparison's read and the constant it is compared with, if one side
/// is a constant.
fn with_constant(x: Operand, y: Operand) -> Option<(Operand, u16)> {
    match (x, y) {
        (Operand::Imm(_), Operand::Imm(_)) => None,
        (r, Operand::Imm(v)) | (Operand::Imm(v), r) => Some((r, v)),
        _ => None,
    }
}

impl EdgeFacts<'_> {
    /// Whether reads `a` and `b` always read the same symbol.
    fn same_read(&self, a: Operand, b: Operand) -> bool {
        match (a, b) {
            (Operand::Ind(k1, t1), Operand::Ind(k2, t2)) => {
                let (t1, t2) = (t1 as usize, t2 as usize);
                k1 == k2 && (0..self.symbols).all(|x| self.fun.get(t1 + x) == self.fun.get(t2 + x))
            }
            (Operand::Read(i), Operand::Read(j)) => self.same_access(i, j),
            (a, b) => a == b,
        }
    }
}
