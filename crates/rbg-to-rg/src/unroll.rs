//! Patterns searched without moving: a pattern whose leaves are only
//! shifts and tests of the piece or of the vertex keeps `coord` at the
//! vertex where the check started, and each of its nodes stands for a state
//! of the pattern's automaton *and* the composition `M` of the shifts taken
//! since the start: a test reads `board[M[coord]]` (`M[coord]` is `null`
//! past the board's edge, where the square holds no piece), a shift changes
//! `M` and emits nothing. The check then assigns nothing (the engines search
//! a graph of nodes rather than of (node, vertex) pairs), and a ray along an
//! acyclic direction becomes an acyclic chain of tests. Only while the
//! product stays small ([`MAX_NODES`], [`MAX_MAPS`]); otherwise the pattern
//! is emitted as it is (`pattern.rs`).
//!
//! An any-vertex move (`anySquare {e} ...`) assigns `coord` and `M` starts
//! over after it, except where only tests of pieces that few vertices hold
//! at the start follow it ([`few_pass`]). A search for a piece that at
//! most one vertex holds (`royal.rs`, chess's king) assigns nothing: `M`
//! starts over from the variable holding its vertex (a node's *base*),
//! so the check reads only (see `lib.rs` for chess's figures).
//!
//! Callgrind instructions per playout (`rbg --engine native|interp bench`,
//! seed 1) against the translations without it: see the commit that added
//! this file; reversi, chess, connect4 and ticTacToe gain most. Past
//! any-vertex moves, against stopping there: reversi interp -8.9%, native
//! -2.3% (its game-end test `anySquare {e} (movePossible(me) +
//! movePossible(opp))`), englishDraughts interp -5.3%, native +0.1%
//! (`canCapture`); chess's king search unrolled cost native +24.5%, interp
//! +2.2% (rg-jit runs it as a writing program trying the vertices one by
//! one instead of a one-slot search that tests them 64 at a time).
//! Measured again after rg-jit's writing checks filter any-assignments
//! (callgrind, seed 1, 10 playouts): unrolled, interp +1.8%, native +37%;
//! the king search kept (`coord = Coord(*)`, `board[coord] == K`) with
//! its rays unrolled into a nested check of comparisons only, interp
//! -18.7% but native +55% (the same writing program, vertex by vertex):
//! both dropped; the second is worth it once rg-jit searches such a check
//! as the interpreter does. Measured again on the suite's chess (6
//! playouts): unrolled whole, interp -1.7%, native +1.0%; the king search
//! kept with its rays as a nested check of comparisons, interp -21.7%,
//! native +9.6% (rg-jit's writing-program filter loop over the king's
//! square, ~10 instructions a vertex, against the one-slot search's
//! unrolled constant tests): dropped for native. The repo's
//! `games/englishDraughts.rbg` (not the suite's, whose `canCapture` is
//! unrolled already): its `canCapture` unrolled, with the bound at an
//! eighth instead of a quarter (callgrind in `play_random`, seed 1, 60
//! playouts): interp -7.4%, native +0.6%; its shifts fused with the single tests after them instead
//! (`board[g[coord]]` tested, then `coord = g[coord]`, by hand): interp
//! -7.1%, native +0.6%. Both dropped for native; no suite game's
//! translation changes at an eighth.

use std::collections::{HashMap, HashSet};

use rg_lang::ast::{Expr, Label};

use crate::board::{shape, Relation, Shape};
use crate::decls::cmp;
use crate::emit::Emitter;
use crate::regex::{Leaf, Nfa};
use crate::TranslateError;

/// Most nodes (state, composed shift) of one unrolled pattern.
const MAX_NODES: usize = 2048;

/// Most distinct composed shifts of one unrolled pattern.
const MAX_MAPS: usize = 256;

/// Most states the closures over shifts of one pattern visit in all.
const MAX_WORK: usize = 1 << 16;

/// A composed shift: the target of every vertex (`None`: off the board).
type Map = Vec<Option<u32>>;

/// What an edge of the unrolled pattern does (`m`: a composed shift).
#[derive(Clone, PartialEq, Eq, Hash)]
enum Act {
    /// The piece at `M[coord]` is one of these.
    On(Vec<u32>, usize),
    /// `M[coord]` is one of these vertices.
    Filter(Vec<bool>, usize),
    /// Accept (if `M[coord]` is a vertex, when that is not known).
    Accept(Option<usize>),
    /// Any vertex of `targets` (`None`: all) becomes `coord`, from
    /// `M[coord]` in `starts` (`None`: any vertex); `M` starts over.
    Any(Option<Vec<bool>>, Option<Vec<bool>>, usize),
    /// From `M[coord]` a vertex, the shifts start over from base `b`:
    /// the vertex in a tracked piece's variable (`royal.rs`).
    Jump(usize, usize),
}

/// The unrolled automaton: its nodes (state, composed shift, base),
/// edges between them (`usize::MAX`: the accepting node), the shifts, and
/// the bases the shifts start from (0: `coord`; others: the variables of
/// tracked pieces searched for, which are read and never assigned).
struct Product {
    maps: Vec<Map>,
    nodes: Vec<(u32, usize, usize)>,
    edges: Vec<(usize, usize, Act)>,
    bases: Vec<String>,
}

/// A leaf an unrolled pattern can hold.
enum Kind {
    /// A test of the piece.
    On(Vec<u32>),
    /// A shift by any of these maps.
    Maps(Vec<Map>),
    /// A test of the vertex.
    Filter(Vec<bool>),
    /// A move to any vertex of the targets (`Shape::Uniform`).
    Any(Option<Vec<bool>>, Option<Vec<bool>>),
    /// A move to the vertex in a variable (a search that jumps to a
    /// tracked piece, `royal.rs`).
    Jump(String),
}

/// The kind of every state's leaf (state 0: none), or `None` when some
/// leaf is of none of them.
fn kinds(
    nfa: &Nfa,
    relations: &[Relation],
    jump: impl Fn(u32) -> Option<String>,
) -> Option<Vec<Option<Kind>>> {
    let mut out = vec![None];
    for s in 1..nfa.states() as u32 {
        if let Some(w) = jump(s) {
            out.push(Some(Kind::Jump(w)));
            continue;
        }
        out.push(Some(match nfa.leaf(s) {
            Leaf::On(set) => Kind::On(set.clone()),
            Leaf::Move(r) => match shape(&relations[*r]) {
                Shape::Maps(maps) => Kind::Maps(maps),
                Shape::Filter(f) => Kind::Filter(f),
                Shape::Uniform { starts, targets } => Kind::Any(starts, targets),
                _ => return None,
            },
            _ => return None,
        }));
    }
    Some(out)
}

/// Whether some any-vertex move of `nfa` is followed only by tests of the
/// piece that fewer than a quarter of its targets pass on the board at the
/// start (`initial`: the piece of every vertex). rg-jit searches such a
/// pattern kept as it is (a one-slot search) by testing the vertices 64 at
/// a time, but runs it unrolled (a program, which writes `coord`) one
/// vertex at a time: chess's king search, where one vertex passes, cost
/// native +24.5% unrolled.
fn few_pass(nfa: &Nfa, kinds: &[Option<Kind>], initial: &[u32]) -> bool {
    (1..nfa.states()).any(|v| {
        let Some(Kind::Any(_, targets)) = &kinds[v] else {
            return false;
        };
        let mut pieces: Vec<u32> = Vec::new();
        for &u in &nfa.next[v] {
            match &kinds[u as usize] {
                Some(Kind::On(set)) => pieces.extend(set),
                _ => return false,
            }
        }
        let to = |w: usize| targets.as_ref().is_none_or(|t| t[w]);
        let all = (0..initial.len()).filter(|&w| to(w)).count();
        let pass = (0..initial.len())
            .filter(|&w| to(w) && pieces.contains(&initial[w]))
            .count();
        !pieces.is_empty() && pass * 4 < all
    })
}

/// The unrolled form of `nfa` (`vertices`: the board's size), or `None`
/// when it grows past the bounds.
fn unroll(nfa: &Nfa, kinds: &[Option<Kind>], vertices: usize, coord: &str) -> Option<Product> {
    let mut p = Product {
        maps: vec![(0..vertices as u32).map(Some).collect()],
        nodes: vec![(0, 0, 0)],
        edges: Vec::new(),
        bases: vec![coord.to_string()],
    };
    let mut map_ids: HashMap<Map, usize> = HashMap::from([(p.maps[0].clone(), 0)]);
    let mut node_ids: HashMap<(u32, usize, usize), usize> = HashMap::from([((0, 0, 0), 0)]);
    let mut work = 0usize;
    let mut i = 0;
    while i < p.nodes.len() {
        let (s, m, b) = p.nodes[i];
        // The closure over shifts: (state, shift, shifted since the node).
        let mut seen: HashSet<(u32, usize)> = HashSet::from([(s, m)]);
        let mut stack = vec![(s, m, false)];
        let mut acts: Vec<(u32, usize, usize, Act)> = Vec::new();
        while let Some((u, mm, shifted)) = stack.pop() {
            work += 1;
            if work > MAX_WORK {
                return None;
            }
            if nfa.finals[u as usize] {
                acts.push((u32::MAX, 0, 0, Act::Accept(shifted.then_some(mm))));
            }
            for &v in &nfa.next[u as usize] {
                match kinds[v as usize].as_ref().expect("a leaf") {
                    Kind::Maps(gs) => {
                        for g in gs {
                            let next: Map = p.maps[mm]
                                .iter()
                                .map(|w| w.and_then(|w| g[w as usize]))
                                .collect();
                            if next.iter().all(Option::is_none) {
                                continue;
                            }
                            let id = match map_ids.get(&next) {
                                Some(&id) => id,
                                None => {
                                    if p.maps.len() == MAX_MAPS {
                                        return None;
                                    }
                                    p.maps.push(next.clone());
                                    map_ids.insert(next, p.maps.len() - 1);
                                    p.maps.len() - 1
                                }
                            };
                            if seen.insert((v, id)) {
                                stack.push((v, id, true));
                            }
                        }
                    }
                    Kind::Filter(f) => acts.push((v, mm, b, Act::Filter(f.clone(), mm))),
                    Kind::On(set) => acts.push((v, mm, b, Act::On(set.clone(), mm))),
                    Kind::Any(starts, targets) => {
                        acts.push((v, 0, 0, Act::Any(starts.clone(), targets.clone(), mm)))
                    }
                    Kind::Jump(w) => {
                        let base = match p.bases.iter().position(|x| x == w) {
                            Some(k) => k,
                            None => {
                                p.bases.push(w.clone());
                                p.bases.len() - 1
                            }
                        };
                        acts.push((v, 0, base, Act::Jump(base, mm)))
                    }
                }
            }
        }
        let mut done: HashSet<(usize, Act)> = HashSet::new();
        for (t, tm, tb, act) in acts {
            let to = match t {
                u32::MAX => usize::MAX,
                _ => *node_ids.entry((t, tm, tb)).or_insert_with(|| {
                    p.nodes.push((t, tm, tb));
                    p.nodes.len() - 1
                }),
            };
            if p.nodes.len() > MAX_NODES {
                return None;
            }
            if done.insert((to, act.clone())) {
                p.edges.push((i, to, act));
            }
        }
        i += 1;
    }
    // A node that only accepts is the accepting node.
    let mut accepts = vec![false; p.nodes.len()];
    let mut other = vec![false; p.nodes.len()];
    for (from, _, act) in &p.edges {
        match act {
            Act::Accept(None) => accepts[*from] = true,
            _ => other[*from] = true,
        }
    }
    let only_accepts: Vec<bool> = (0..p.nodes.len())
        .map(|i| i > 0 && accepts[i] && !other[i])
        .collect();
    p.edges.retain(|(from, _, _)| !only_accepts[*from]);
    for (_, to, _) in &mut p.edges {
        if *to != usize::MAX && only_accepts[*to] {
            *to = usize::MAX;
        }
    }
    Some(p)
}

impl Emitter<'_> {
    /// Emits pattern `nfa` unrolled (see the module documentation) with
    /// node prefix `prefix`; its accepting node, or `None` (nothing
    /// emitted) when it is not unrolled.
    pub(crate) fn unrolled(
        &mut self,
        nfa: &Nfa,
        prefix: &str,
    ) -> Result<Option<String>, TranslateError> {
        let Some(kinds) = kinds(nfa, &self.low.relations, |s| self.jump_to(nfa, s)) else {
            return Ok(None);
        };
        if few_pass(nfa, &kinds, &self.d.initial) {
            return Ok(None);
        }
        let Some(p) = unroll(nfa, &kinds, self.d.vertices.len(), &self.d.coord) else {
            return Ok(None);
        };
        let accept = format!("{prefix}acc");
        let name = |i: usize| match i {
            usize::MAX => accept.clone(),
            _ => match p.nodes[i] {
                (s, 0, 0) => format!("{prefix}{s}"),
                (s, m, 0) => format!("{prefix}{s}m{m}"),
                (s, m, b) => format!("{prefix}{s}m{m}b{b}"),
            },
        };
        let mut tables: HashMap<usize, String> = HashMap::new();
        let null_name = self.d.null.clone();
        let null = || Expr::name(&null_name);
        for (from, to, act) in &p.edges {
            // The shifts start from the source node's base.
            let base = Expr::name(&p.bases[p.nodes[*from].2]);
            let mut at = |em: &mut Emitter, m: usize| match m {
                0 => base.clone(),
                _ => {
                    let t = tables
                        .entry(m)
                        .or_insert_with(|| em.d.vertex_move(&p.maps[m]));
                    Expr::name(t.as_str()).at(base.clone())
                }
            };
            let (src, dst) = (name(*from), name(*to));
            let steps: Vec<Label> = match act {
                Act::On(set, m) => {
                    let pos = at(self, *m);
                    vec![self.on_label(set, pos)]
                }
                Act::Filter(f, m) => {
                    let test = self.d.vertex_test(f);
                    let pos = at(self, *m);
                    vec![cmp(Expr::name(&test).at(pos), Expr::name("1"), true)]
                }
                Act::Accept(None) => vec![Label::Skip],
                Act::Accept(Some(m)) => {
                    let pos = at(self, *m);
                    vec![cmp(pos, null(), false)]
                }
                Act::Any(starts, targets, m) => {
                    let mut steps = Vec::new();
                    if let Some(f) = starts {
                        let test = self.d.vertex_test(f);
                        let pos = at(self, *m);
                        steps.push(cmp(Expr::name(&test).at(pos), Expr::name("1"), true));
                    } else if *m != 0 {
                        let pos = at(self, *m);
                        steps.push(cmp(pos, null(), false));
                    }
                    steps.push(self.any_vertex(targets.as_deref()));
                    steps
                }
                Act::Jump(_, 0) => Vec::new(),
                Act::Jump(_, m) => {
                    let pos = at(self, *m);
                    vec![cmp(pos, null(), false)]
                }
            };
            self.created.insert(src.clone());
            self.chain(&src, &dst, steps.into_iter().map(|l| vec![l]).collect())?;
        }
        self.created.insert(name(0));
        self.created.insert(accept.clone());
        Ok(Some(accept))
    }
}
