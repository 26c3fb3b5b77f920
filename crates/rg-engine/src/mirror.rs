//! Reachability checks that mirror a move walk: the end-of-turn checks of
//! RBG translations (`rbg-to-rg.md` §4), which ask whether the next move
//! walk from some node `b` finds a move by searching a tagless copy of the
//! automaton from `b`.
//!
//! A check `? X -> Y` *mirrors* node `b` when for every semistate the check
//! holds whenever the move walks from `b` (with any `player` value) are not
//! empty: a move walk is a path of the copy to `Y`. (The converse, a copy
//! reaching `Y` only where a move exists, is not needed: every use decides
//! "no move" by the check's own walk.) Shown here structurally, pairing copy
//! nodes with original nodes from (`X`, `b`):
//!
//! - an original node's single tag edges are skipped (tags do not change
//!   legality; the move walk's keys merely tell more states apart), and a
//!   tag edge among several, with the single tag edges after it, pairs
//!   with a copy edge equal to the one edge after them;
//! - a paired copy node whose only edge is a no-op into `Y` pairs with any
//!   original node (every walk on from it reaches `Y` in the copy: the
//!   translation ends its copies where a move surely completes, e.g.
//!   before a promotion's exhaustive choice of rows, which this proof need
//!   not show);
//! - other paired nodes have edges in equal order with equal labels and
//!   paired targets, except that a no-op in the copy may stand for a tag
//!   (always legal, no effect) and a no-op into `Y` for a `player`
//!   assignment (the walk's end); no other `Y` target, no tag in the copy,
//!   no `player` assignment in the copy;
//! - no paired label reads `goals`, `visible` or `player`, nor does any
//!   check nested in one (the two walks differ in `player`, and the visited
//!   keys leave those variables out, so merged states continue alike); no
//!   paired copy node is `@repeat`, and a paired original `@repeat` node
//!   that is checked is reached from `b` by no write of a user variable its
//!   key leaves out (so its merges are of equal states; an unchecked one,
//!   whose keys the visited-check analysis proved distinct, e.g. by the
//!   tags, merges nothing); `@disjoint` is in effect on both nodes of a
//!   pair or on neither, except:
//! - a committed choice (a translated keeper's, `rbg-to-rg`'s `keeper.rs`):
//!   an original `@disjoint` node whose every edge is a check `? k -> Y`,
//!   each `k`'s edges (`k` not `@disjoint`) all edges of the paired copy
//!   node (not `@disjoint`), pairs with it and ends the proof there: a
//!   move walk on from it passed one of those checks, so the copy reaches
//!   `Y` from `k`, hence from the copy node. No check reads `goals`,
//!   `visible` or `player`, and no node the copy can reach from there is
//!   `@repeat` (the copy's walk goes on past the pairs; merges of equal
//!   keys lose no path).
//!
//! Then a move walk from `b` is a copy walk reaching `Y`, and merges (of
//! equal keys) never lose a reachable end. The walk uses mirrors in two
//! places (`walk.rs`):
//!
//! - *lazy roots*: a node `a` whose edges are `? K` to `b` and `! K` to a
//!   node whose only edge assigns `player` (neither `a` nor that node in the
//!   move walk's region from `b`), `K` mirroring `b`: the move walks of `a`
//!   are those from `b` when there are any (then `K` holds), else the walk
//!   from `a` is run as written;
//! - *speculated checks*: `? K` into a node whose only edge assigns
//!   `player` and goes to `b`, `K` mirroring `b`: a move walk that decides
//!   `K` generates the moves of `b` instead and keeps them for the state
//!   the `player` assignment leads to; where there are some, `K` holds,
//!   else `K` is decided by its own walk.
//!
//! One way only (issue 13): the translated kingCapture chess games' copies
//! end before the pawns' promotion rows, which a two-way proof had to show
//! exhaustive, so their end-of-turn checks were walked and then the moves
//! generated again. Callgrind instructions in `play_random` (seed 1)
//! chess_kingCapture -12.7%, chessGardner5x5 -15.3%, chessSilverman4x5
//! -7.0%; a play's last check, whose generated moves are none, is walked
//! as written (englishDraughts +0.17%).
//!
//! Committed choices (issue 13): internationalDraughts' keeper, after each
//! move, first checked that its walk completes (a search of the copy to its
//! end), then walked it; with its committed choices paired, that check's
//! node is a lazy root. Callgrind instructions in `play_random` (seed 1, 4
//! playouts, interpreted) 75.85M -> 69.39M (-8.5%).

use std::collections::{HashMap, HashSet};

use rg_lang::checked::{CEdge, CExpr, CLabel, CheckedGame};

use crate::merges;

/// No node (see [`Mirrors::lazy`]).
pub const NO_NODE: u32 = u32::MAX;

/// Pairs of nodes one mirror proof may visit (a check's copy and its region
/// are a small part of the automaton; beyond this no mirror is proved).
const MAX_PAIRS: usize = 1 << 16;

/// What the walk may use.
pub struct Mirrors {
    /// Per node: the node `b` whose move walks are the node's (a lazy
    /// root), or [`NO_NODE`].
    pub lazy: Vec<u32>,
    /// Per check (start, target): the node whose only edge, a `player`
    /// assignment, follows `? check` and whose target the check mirrors.
    pub speculated: HashMap<(u32, u32), u32>,
}

/// Finds the lazy roots and speculated checks of `g`; `disjoint` and
/// `repeat` say per node whether `@disjoint` is in effect and, for a
/// `@repeat` node, the user variables its key keeps (a bit set); `checked`
/// whether the node has a visited check (an unchecked `@repeat` node merges
/// no visits).
pub fn mirrors(
    g: &CheckedGame,
    disjoint: &[bool],
    repeat: &[Option<Vec<u64>>],
    checked: &[bool],
) -> Mirrors {
    let mut out: Vec<Vec<&CEdge>> = vec![Vec::new(); g.nodes.len()];
    for e in &g.edges {
        out[e.from.0 as usize].push(e);
    }
    let mut p = Prover {
        g,
        out,
        disjoint,
        repeat,
        checked,
        reads: HashMap::new(),
        plain: HashMap::new(),
        proved: HashMap::new(),
    };
    let mut lazy = vec![NO_NODE; g.nodes.len()];
    let mut speculated = HashMap::new();
    for a in 0..g.nodes.len() {
        let edges = p.out[a].clone();
        // `? K` into a `player` assignment: a speculated check.
        for e in &edges {
            if let CLabel::Reach(true, s, t) = e.label {
                let y = e.to.0 as usize;
                if let [only] = p.out[y][..] {
                    if p.sets_player(only) && !speculated.contains_key(&(s.0, t.0)) {
                        let b = only.to.0;
                        if p.mirror(s.0, t.0, b).is_some() {
                            speculated.insert((s.0, t.0), y as u32);
                        }
                    }
                }
            }
        }
        // `? K` to b and `! K` to a `player` assignment: a lazy root.
        if disjoint[a] {
            continue;
        }
        if let [e0, e1] = edges[..] {
            let (yes, no) = match (&e0.label, &e1.label) {
                (CLabel::Reach(true, ..), CLabel::Reach(false, ..)) => (e0, e1),
                (CLabel::Reach(false, ..), CLabel::Reach(true, ..)) => (e1, e0),
                _ => continue,
            };
            let (CLabel::Reach(_, s, t), CLabel::Reach(_, s2, t2)) = (&yes.label, &no.label) else {
                continue;
            };
            if (s, t) != (s2, t2) {
                continue;
            }
            let d = no.to.0 as usize;
            let ends = matches!(p.out[d][..], [only] if p.sets_player(only));
            if !ends {
                continue;
            }
            let b = yes.to.0;
            if let Some(region) = p.mirror(s.0, t.0, b) {
                if !region.contains(&(a as u32)) && !region.contains(&(d as u32)) {
                    lazy[a] = b;
                }
            }
        }
    }
    Mirrors { lazy, speculated }
}

struct Prover<'a> {
    g: &'a CheckedGame,
    out: Vec<Vec<&'a CEdge>>,
    disjoint: &'a [bool],
    repeat: &'a [Option<Vec<u64>>],
    checked: &'a [bool],
    /// Per check start: whether some label its walk can meet reads a
    /// variable outside the visited keys.
    reads: HashMap<u32, bool>,
    /// Per node: whether no node a walk can reach from it is `@repeat`.
    plain: HashMap<u32, bool>,
    /// Per (start, target, b): the region of a proved mirror.
    proved: HashMap<(u32, u32, u32), Option<HashSet<u32>>>,
}

impl Prover<'_> {
    fn sets_player(&self, e: &CEdge) -> bool {
        matches!(&e.label, CLabel::Assign(CExpr::Var(v), _) if *v == self.g.player)
    }

    fn special(&self, v: usize) -> bool {
        v == self.g.player || v == self.g.goals || v == self.g.visible
    }

    /// Whether evaluating `e` reads `goals`, `visible` or `player`.
    fn expr_reads(&self, e: &CExpr) -> bool {
        match e {
            CExpr::Var(v) => self.special(*v),
            CExpr::Const(_) | CExpr::Sym(_) => false,
            CExpr::Access(m, k) => self.expr_reads(m) || self.expr_reads(k),
        }
    }

    /// Whether finding the place `e` reads them (its keys).
    fn place_reads(&self, e: &CExpr) -> bool {
        match e {
            CExpr::Access(m, k) => self.place_reads(m) || self.expr_reads(k),
            _ => false,
        }
    }

    /// Whether a label (a check: every label its walk can meet) reads them.
    fn label_reads(&mut self, l: &CLabel) -> bool {
        match l {
            CLabel::Skip | CLabel::Tag(_) => false,
            CLabel::TagVariable(v) => self.special(*v),
            CLabel::Assign(t, v) => self.place_reads(t) || self.expr_reads(v),
            CLabel::AssignAny(t, _) => self.place_reads(t),
            CLabel::Compare(a, b, _) => self.expr_reads(a) || self.expr_reads(b),
            CLabel::Reach(_, s, _) => self.check_reads(s.0),
        }
    }

    fn check_reads(&mut self, start: u32) -> bool {
        if let Some(&r) = self.reads.get(&start) {
            return r;
        }
        let mut seen = HashSet::from([start]);
        let mut stack = vec![start];
        let mut reads = false;
        while let Some(n) = stack.pop() {
            for e in self.out[n as usize].clone() {
                let direct = match &e.label {
                    CLabel::Reach(_, s, _) => {
                        if seen.insert(s.0) {
                            stack.push(s.0);
                        }
                        false
                    }
                    l => self.label_reads(l),
                };
                if direct {
                    reads = true;
                }
                if seen.insert(e.to.0) {
                    stack.push(e.to.0);
                }
            }
        }
        self.reads.insert(start, reads);
        reads
    }

    /// The node after `v`'s chain of single tag edges (those nodes added to
    /// `region`); `None` on a cycle of them.
    fn skip_tags(&self, mut v: u32, region: &mut HashSet<u32>) -> Option<u32> {
        for _ in 0..=self.g.nodes.len() {
            let tag = match self.out[v as usize][..] {
                [e] => match e.label {
                    CLabel::Tag(_) => true,
                    CLabel::TagVariable(x) => !self.special(x),
                    _ => false,
                },
                _ => false,
            };
            if !tag || self.disjoint[v as usize] {
                return Some(v);
            }
            region.insert(v);
            v = self.out[v as usize][0].to.0;
        }
        None
    }

    /// Adds to `region` every node a move walk can visit from `v` (up to
    /// the `player` assignments that end it).
    fn walk_region(&self, v: u32, region: &mut HashSet<u32>) {
        let mut stack = vec![v];
        region.insert(v);
        while let Some(u) = stack.pop() {
            for e in &self.out[u as usize] {
                if !self.sets_player(e) && region.insert(e.to.0) {
                    stack.push(e.to.0);
                }
            }
        }
    }

    /// Whether original node `v`, `@disjoint`, is a committed choice that
    /// copy node `u` (not `@disjoint`) stands for, `y` the copy's end:
    /// each edge of `v` is a check `? k -> y` whose start's edges (`k` not
    /// `@disjoint`) are all edges of `u`, reading no variable outside the
    /// visited keys (a keeper's choice, `rbg-to-rg`'s `keeper.rs`). A walk
    /// on from `v` takes an edge whose check holds: the copy reaches `y`
    /// from `k`, hence from `u` by the same edge. The check of `u` explores
    /// on from `u` past the paired nodes: none of the nodes it can reach is
    /// `@repeat` (its merges, of equal keys, then lose no path).
    fn committed(&mut self, u: u32, v: u32, y: u32) -> bool {
        let ev = self.out[v as usize].clone();
        let eu = self.out[u as usize].clone();
        !ev.is_empty()
            && ev.iter().all(|e| match e.label {
                CLabel::Reach(true, k, t) => {
                    let ek = &self.out[k.0 as usize];
                    t.0 == y
                        && k.0 != y
                        && !self.disjoint[k.0 as usize]
                        && ek
                            .iter()
                            .all(|a| eu.iter().any(|b| a.label == b.label && a.to == b.to))
                        && !self.check_reads(k.0)
                }
                _ => false,
            })
            && self.merges_nothing(u)
    }

    /// Whether no node a walk can reach from `u` is `@repeat`.
    fn merges_nothing(&mut self, u: u32) -> bool {
        if let Some(&r) = self.plain.get(&u) {
            return r;
        }
        let mut seen = HashSet::from([u]);
        let mut stack = vec![u];
        let mut plain = true;
        while let Some(n) = stack.pop() {
            if self.repeat[n as usize].is_some() {
                plain = false;
                break;
            }
            for e in &self.out[n as usize] {
                if seen.insert(e.to.0) {
                    stack.push(e.to.0);
                }
            }
        }
        self.plain.insert(u, plain);
        plain
    }

    /// The move walk's region from `b` (every node it can visit) when
    /// `? x -> y` mirrors `b`.
    fn mirror(&mut self, x: u32, y: u32, b: u32) -> Option<HashSet<u32>> {
        if let Some(r) = self.proved.get(&(x, y, b)) {
            return r.clone();
        }
        let r = self.prove(x, y, b);
        self.proved.insert((x, y, b), r.clone());
        r
    }

    fn prove(&mut self, x: u32, y: u32, b: u32) -> Option<HashSet<u32>> {
        if x == y {
            return None;
        }
        let mut region = HashSet::new();
        let mut pairs = HashSet::new();
        let mut stack = vec![(x, b)];
        while let Some((u, v)) = stack.pop() {
            if !pairs.insert((u, v)) {
                continue;
            }
            if pairs.len() > MAX_PAIRS {
                return None;
            }
            let v = self.skip_tags(v, &mut region)?;
            region.insert(v);
            let (ui, vi) = (u as usize, v as usize);
            if self.repeat[ui].is_some() {
                return None;
            }
            if self.disjoint[vi] && !self.disjoint[ui] && self.committed(u, v, y) {
                // A move walk on from `v` passed one of its checks, which
                // shows the copy reaching `y` from `u`.
                self.walk_region(v, &mut region);
                continue;
            }
            if self.disjoint[ui] != self.disjoint[vi] {
                return None;
            }
            let (eu, ev) = (self.out[ui].clone(), self.out[vi].clone());
            if let [only] = eu[..] {
                if only.label == CLabel::Skip && only.to.0 == y {
                    if self.disjoint[ui] {
                        return None;
                    }
                    self.walk_region(v, &mut region);
                    continue;
                }
            }
            if eu.len() != ev.len() {
                return None;
            }
            for (a, c) in eu.iter().zip(&ev) {
                let skip = a.label == CLabel::Skip;
                if skip && a.to.0 == y && self.sets_player(c) {
                    // The copy's end where the walk ends with a move.
                    continue;
                }
                let tag = match c.label {
                    CLabel::Tag(_) => true,
                    CLabel::TagVariable(x) => !self.special(x),
                    _ => false,
                };
                // A tag edge among several and the single tag edges after
                // it stand for the one edge after them (`m39, m70_1: $$
                // coord` then `$ index_4`, `board[coord] = arrow`).
                let mut to = c.to.0;
                let mut after = false;
                if tag && !skip {
                    let w = self.skip_tags(c.to.0, &mut region)?;
                    match self.out[w as usize][..] {
                        [e] if !self.disjoint[w as usize] && e.label == a.label => {
                            region.insert(w);
                            to = e.to.0;
                            after = true;
                        }
                        _ => return None,
                    }
                }
                if !(a.label == c.label || skip && tag || after)
                    || a.to.0 == y
                    || matches!(a.label, CLabel::Tag(_) | CLabel::TagVariable(_))
                    || self.sets_player(a)
                    || self.label_reads(&a.label)
                {
                    return None;
                }
                stack.push((a.to.0, to));
            }
        }
        let repeats: Vec<(u32, &[u64])> = region
            .iter()
            .filter(|&&v| self.checked[v as usize])
            .filter_map(|&v| Some((v, self.repeat[v as usize].as_deref()?)))
            .collect();
        let exact = repeats.is_empty()
            || merges::exact(
                self.g,
                &self.out,
                &region,
                |e| self.sets_player(e),
                b,
                &repeats,
            );
        exact.then_some(region)
    }
}
