//! The keeper's choices, committed.
//!
//! RBG's keeper applies *any* legal move up to its next switch (a proper
//! game's keeper completion does not depend on which), while an RG walk
//! follows every alternative. A keeper loop then visits every order of its
//! steps: go's flood fill of a captured group walks through every subset of
//! the group, past the RG engine's bound on walk states. So a keeper's
//! choice between alternatives (several successor states, several targets
//! of a shift) on a loop, and a keeper's choice of any vertex, is a
//! `@disjoint` node whose edges check,
//! in order, that the keeper's move can be completed to its next switch
//! through that alternative (a check in the tagless copy of the rules); the
//! walk takes the first such alternative and never backtracks.
//!
//! A search for a tracked piece (`royal.rs`: `anySquare {f}`, the piece at
//! most one vertex holds) is no choice: it jumps to the piece's vertex, one
//! alternative, so it is never committed. Committed, foxAndHounds' keeper
//! picking up the fox tried each of the 32 squares' checks in turn
//! (paperSoccer's ball: 1,147). Callgrind instructions per playout (seed 1,
//! in `play_random`) against committing: foxAndHounds interp 350,832 ->
//! 204,271, native 246,410 -> 78,430; foxAndHounds-10x10 interp -48%,
//! native -74%; foxAndHounds-12x12 interp -53%, native -78%; paperSoccer
//! (4 playouts) interp -50%, native -58%. No other suite translation
//! changes.
//!
//! A ray is no loop here: a state that comes again straight after itself
//! by a shift of at most one target per vertex (`left*`) goes on one way,
//! one walk per stop, unless it is on a longer loop too. Committed, every
//! step of the ray checked that the rest of the walk completes, a search
//! of the rest of the ray (and of the keeper's walk after it) at each
//! step: internationalDraughts' keeper, walking from a move's landing
//! back to its start (`cleaningNeighborMove`, four rays), searched the
//! rest of each ray at its every square. Callgrind instructions per
//! playout (seed 1, in `play_random`) against committing rays, on main at
//! 0fa5dac: internationalDraughts interp 19.82M -> 18.96M (-4.3%, 4
//! playouts), native 10.48M -> 10.46M (-0.2%, 10 playouts; the first two
//! playouts alone gave -8.3%, later ones lose it, not looked into). No
//! other suite translation changes.

use rg_lang::ast::{Expr, Label, Name};

use crate::board::{shape, Relation, Shape};
use crate::decls::{assign, cmp};
use crate::emit::{Emitter, Info, Mode, KEEPER};
use crate::regex::{Leaf, Nfa};
use crate::TranslateError;

/// One alternative of a transition into a state.
#[derive(Clone, Copy)]
enum Alt {
    /// The transition as it is.
    Whole,
    /// The `i`-th map of a shift with several targets.
    Map(usize),
    /// A shift with the same targets from every start: to this vertex.
    Vertex(u32),
}

/// The alternatives of `leaf`; `jumps`: a search that jumps to a tracked
/// piece's vertex (`royal.rs`), one alternative whatever its shift.
fn alternatives(leaf: &Leaf, relations: &[Relation], jumps: bool) -> Vec<Alt> {
    let Leaf::Move(r) = leaf else {
        return vec![Alt::Whole];
    };
    if jumps {
        return vec![Alt::Whole];
    }
    match shape(&relations[*r]) {
        Shape::Maps(maps) if maps.len() > 1 => (0..maps.len()).map(Alt::Map).collect(),
        Shape::Uniform { targets, .. } => (0..relations[*r].len() as u32)
            .filter(|&v| targets.as_ref().is_none_or(|t| t[v as usize]))
            .map(Alt::Vertex)
            .collect(),
        _ => vec![Alt::Whole],
    }
}

/// Whether two leaves never both hold.
pub(crate) fn exclusive(a: &Leaf, b: &Leaf, relations: &[Relation]) -> bool {
    match (a, b) {
        (Leaf::On(x), Leaf::On(y)) => x.iter().all(|p| !y.contains(p)),
        (Leaf::Pattern(m, x), Leaf::Pattern(n, y)) => x == y && m != n,
        (Leaf::Move(x), Leaf::Move(y)) => match (shape(&relations[*x]), shape(&relations[*y])) {
            (Shape::Filter(f), Shape::Filter(g)) => f.iter().zip(&g).all(|(a, b)| !(a & b)),
            _ => false,
        },
        _ => false,
    }
}

/// Per state: whether the keeper's choice leaving it is committed (it has
/// several alternatives that may hold together, and is on a loop or picks
/// any vertex). `jumps`: per state, its search jumps to a tracked piece's
/// vertex (`royal.rs`): one alternative, not a choice of any vertex.
pub(crate) fn commits(
    nfa: &Nfa,
    ctx: &[u8],
    reach: &[bool],
    relations: &[Relation],
    jumps: &[bool],
) -> Vec<bool> {
    (0..nfa.states())
        .map(|s| {
            let next = &nfa.next[s];
            if !reach[s] || next.is_empty() || next.iter().any(|&t| ctx[t as usize] != KEEPER) {
                return false;
            }
            let alts: usize = next
                .iter()
                .map(|&t| alternatives(nfa.leaf(t), relations, jumps[t as usize]).len())
                .sum();
            let disjoint = alts == next.len()
                && next.iter().enumerate().all(|(i, &a)| {
                    next[i + 1..]
                        .iter()
                        .all(|&b| exclusive(nfa.leaf(a), nfa.leaf(b), relations))
                });
            let any_vertex = next.iter().any(|&t| {
                !jumps[t as usize]
                    && matches!(nfa.leaf(t), Leaf::Move(r) if matches!(shape(&relations[*r]), Shape::Uniform { .. }))
            });
            alts > 1 && !disjoint && (any_vertex || on_keeper_cycle(nfa, s as u32, relations))
        })
        .collect()
}

/// Whether state `s` can be reached again from itself without a switch to
/// a player (within one keeper walk): only there can the keeper's
/// alternatives multiply without bound (every order of a loop's steps).
/// A ray, `s` again straight from `s` by a shift with at most one target
/// per vertex, does not count: it goes on one way, so its walks are one
/// per stop, and committing its every step would search the rest of the
/// ray again at each (see the module's documentation).
fn on_keeper_cycle(nfa: &Nfa, s: u32, relations: &[Relation]) -> bool {
    let ray = |t: u32| match nfa.leaf(t) {
        Leaf::Move(r) => relations[*r].iter().all(|v| v.len() <= 1),
        _ => false,
    };
    let mut seen = vec![false; nfa.states()];
    let mut stack = vec![s];
    while let Some(p) = stack.pop() {
        for &t in &nfa.next[p as usize] {
            if t == s && p == s && ray(t) {
                continue;
            }
            if t == s {
                return true;
            }
            if !matches!(nfa.leaf(t), Leaf::Switch(Some(_), _))
                && !std::mem::replace(&mut seen[t as usize], true)
            {
                stack.push(t);
            }
        }
    }
    false
}

impl Emitter<'_> {
    /// The committed keeper's choice leaving main state `s` (see the module
    /// documentation): node `m{s}` is `@disjoint`, its edge `k` checks from
    /// `c{s}a{k}` that alternative `k` completes the move, and leads to
    /// `m{s}a{k}`, which performs it.
    pub(crate) fn commit(
        &mut self,
        nfa: &Nfa,
        s: u32,
        maynull: bool,
        info: &Info,
    ) -> Result<(), TranslateError> {
        let from = format!("m{s}");
        let accept = self.copy_accept.clone();
        let cn = self.d.coord.clone();
        let coord = || Expr::name(&cn);
        let mut targets = Vec::new();
        for &t in &nfa.next[s as usize] {
            let leaf = nfa.leaf(t).clone();
            let needs_null = maynull && !self.null_safe(&leaf);
            let (main_to, copy_to) = (format!("m{t}"), format!("c{t}"));
            let maps = match &leaf {
                Leaf::Move(r) => match shape(&self.low.relations[*r]) {
                    Shape::Maps(maps) => maps,
                    _ => Vec::new(),
                },
                _ => Vec::new(),
            };
            let starts = match &leaf {
                Leaf::Move(r) => match shape(&self.low.relations[*r]) {
                    Shape::Uniform { starts, .. } => starts,
                    _ => None,
                },
                _ => None,
            };
            let jumps = self.jump_to(nfa, t).is_some();
            for alt in alternatives(&leaf, &self.low.relations, jumps) {
                let k = targets.len();
                let (pick, check) = (format!("m{s}a{k}"), format!("c{s}a{k}"));
                targets.push(Name::new(&pick));
                // The step performing the alternative, from `src` to `to`.
                let step = |em: &mut Emitter, src: &str, to: &str| match alt {
                    Alt::Whole => unreachable!("emitted as a transition"),
                    Alt::Map(i) => {
                        let g = em.d.vertex_move(&maps[i]);
                        em.edge(src, to, assign(coord(), Expr::name(&g).at(coord())));
                    }
                    Alt::Vertex(v) => {
                        let name = em.d.vertices[v as usize].clone();
                        em.edge(src, to, assign(coord(), Expr::name(&name)));
                    }
                };
                let label = if matches!(leaf, Leaf::Switch(..)) {
                    // The move ends here.
                    match needs_null {
                        true => cmp(coord(), Expr::name(&self.d.null), false),
                        false => Label::Skip,
                    }
                } else {
                    let mut src = match needs_null {
                        true => self.checked_node(&check),
                        false => check.clone(),
                    };
                    if let (Alt::Vertex(_), Some(starts)) = (alt, &starts) {
                        let test = self.d.vertex_test(starts);
                        let next = format!("{check}s");
                        let label = cmp(Expr::name(&test).at(coord()), Expr::name("1"), true);
                        self.edge(&src, &next, label);
                        src = next;
                    }
                    match alt {
                        Alt::Whole => {
                            self.transition(nfa, &src, t, &copy_to, Mode::Copy, Some(info))?
                        }
                        _ => step(self, &src, &copy_to),
                    }
                    Label::Reach {
                        positive: true,
                        from: Name::new(&check),
                        to: Name::new(&accept),
                    }
                };
                self.edge(&from, &pick, label);
                match alt {
                    Alt::Whole => {
                        self.transition(nfa, &pick, t, &main_to, Mode::Main, Some(info))?
                    }
                    _ => step(self, &pick, &main_to),
                }
            }
        }
        self.disjoint.push((from, targets));
        Ok(())
    }
}
