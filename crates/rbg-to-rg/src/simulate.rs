//! Walks of a pattern mirrored by walks of the rules (`sure.rs`): every
//! accepting walk of pattern `p` (which modifies nothing), started where
//! the rules are at state `s`, is matched leaf by equal leaf by a walk of
//! the rules from `s` into a state where a move surely completes.
//!
//! Between the equal leaves the rules' walk may put pieces (a state whose
//! only continuation is `[x]` takes it, as draughts' `{opp} [empty]`), as
//! long as no later test of the walk can read a square it changed and
//! fail there: a test of pieces not containing `x` must be at a vertex that
//! no composition of the shifts taken since the change leads back to
//! (nested patterns after a change are not mirrored).
//!
//! A walk may also end in a state of a hypothesis set `H` (states proved
//! together, by induction): where the walk's changes never put a piece of a
//! set `T` and put some piece outside `T` right after a test of pieces in
//! `T` at the same vertex, the number of squares holding pieces of `T`
//! decreases strictly along it (draughts' jumps: `T` the opponent's pieces,
//! each jump empties one), so it cannot go on for ever.

use std::collections::HashMap;
use std::hash::Hash;

use crate::board::Relation;
use crate::intern::Capped;
use crate::regex::{Leaf, Nfa};

/// Most (pattern state, rules state, changes) pairs one mirrored pattern
/// may take.
const MAX_PAIRS: usize = 1 << 14;

/// Most distinct compositions of shifts since a change one pattern tracks.
const MAX_SHIFTS: usize = 256;

/// Most pieces put in a row by one mirrored walk between equal leaves.
const MAX_PUTS: usize = 8;

/// Where a mirrored walk may end.
pub(crate) struct Goal<'a> {
    /// States from which a move surely completes.
    pub sure: &'a [bool],
    /// States where `coord` may be `null`.
    pub maynull: &'a [bool],
    /// The hypothesis set `H` and the pieces `T` (a mask over pieces) whose
    /// count every walk into `H` decreases.
    pub hyp: Option<(&'a [bool], &'a [bool])>,
}

/// One pair of the simulation.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Pair {
    p: u32,
    q: u32,
    /// The pieces put since `s`, each with the composed shifts (an index
    /// into the relations) from its vertex to the current one.
    puts: Vec<(u32, usize)>,
    /// A piece outside `T` was put right after a test of pieces of `T`.
    dec: bool,
    /// A piece of `T` was put.
    inc: bool,
}

impl Pair {
    /// The pair both walks start from: the pattern's first state beside
    /// the rules' state `q`, nothing put.
    fn start(q: u32) -> Pair {
        Pair {
            p: 0,
            q,
            puts: Vec::new(),
            dec: false,
            inc: false,
        }
    }

    /// The pieces put, as the shift `r` leaves them: each one's composed
    /// shifts followed by `r`; `None` past [`MAX_SHIFTS`] compositions.
    fn moved(&self, r: usize, shifts: &mut Shifts) -> Option<Vec<(u32, usize)>> {
        self.puts
            .iter()
            .map(|&(x, d)| Some((x, shifts.then(d, r)?)))
            .collect()
    }
}

/// The items a walk reaches from a first one, each numbered once as first
/// seen and handed out once, in that order.
struct Worklist<T> {
    ids: HashMap<T, usize>,
    items: Vec<T>,
    /// The first item not yet handed out.
    cursor: usize,
}

impl<T: Clone + Eq + Hash> Worklist<T> {
    /// The list holding only `first`, numbered 0.
    fn seed(first: T) -> Self {
        Worklist {
            ids: HashMap::from([(first.clone(), 0)]),
            items: vec![first],
            cursor: 0,
        }
    }

    /// `item`'s number, added to be handed out when new.
    fn intern(&mut self, item: T) -> usize {
        let items = &mut self.items;
        *self.ids.entry(item).or_insert_with_key(|item| {
            items.push(item.clone());
            items.len() - 1
        })
    }

    /// The next item not yet handed out, with its number.
    fn next(&mut self) -> Option<(usize, T)> {
        let item = self.items.get(self.cursor)?.clone();
        self.cursor += 1;
        Some((self.cursor - 1, item))
    }

    /// How many items are numbered.
    fn len(&self) -> usize {
        self.items.len()
    }
}

/// Interned compositions of shifts.
struct Shifts<'a> {
    relations: &'a [Relation],
    all: Capped<Relation>,
}

impl<'a> Shifts<'a> {
    /// The compositions for mirroring `pattern` and the identity's id;
    /// `None` when the pattern modifies something (it is then not
    /// mirrored).
    fn of(pattern: &Nfa, relations: &'a [Relation], vertices: usize) -> Option<(Self, usize)> {
        let modifies = pattern
            .leaves
            .iter()
            .any(|l| matches!(l, Leaf::Off(..) | Leaf::Assign(..) | Leaf::Switch(..)));
        if modifies {
            return None;
        }
        let mut shifts = Shifts {
            relations,
            all: Capped::new(MAX_SHIFTS),
        };
        let identity = shifts
            .all
            .id((0..vertices as u32).map(|v| vec![v]).collect())?;
        Some((shifts, identity))
    }

    /// `d` then relation `r`.
    fn then(&mut self, d: usize, r: usize) -> Option<usize> {
        let rel = &self.relations[r];
        let composed: Relation = self.all[d]
            .iter()
            .map(|ws| {
                let mut out: Vec<u32> = ws.iter().flat_map(|&w| rel[w as usize].clone()).collect();
                out.sort_unstable();
                out.dedup();
                out
            })
            .collect();
        self.all.id(composed)
    }

    /// Whether `d` may lead some vertex back to itself.
    fn may_return(&self, d: usize) -> bool {
        self.all[d]
            .iter()
            .enumerate()
            .any(|(v, ws)| ws.contains(&(v as u32)))
    }
}

/// Whether every accepting walk of `pattern` is mirrored by a walk of
/// `rules` from state `s` that ends as `goal` allows, `coord` a vertex
/// there: the greatest simulation of the pattern's states by the rules'
/// states, from (start, `s`). `relations`: the leaves' shifts; `vertices`:
/// the board's size.
pub(crate) fn mirrored(
    pattern: &Nfa,
    rules: &Nfa,
    s: u32,
    goal: &Goal,
    relations: &[Relation],
    vertices: usize,
) -> bool {
    let Some((mut shifts, identity)) = Shifts::of(pattern, relations, vertices) else {
        return false;
    };
    let in_t = |piece: u32| goal.hyp.is_some_and(|(_, t)| t[piece as usize]);
    let all_t = |set: &[u32]| goal.hyp.is_some() && set.iter().all(|&x| in_t(x));
    // The pieces a state whose only continuation puts one puts, in a row.
    let settle = |pair: &mut Pair| -> bool {
        for _ in 0..MAX_PUTS {
            let next = &rules.next[pair.q as usize];
            let [u] = next[..] else {
                return true;
            };
            let Leaf::Off(x, _) = rules.leaf(u) else {
                return true;
            };
            if pair.q > 0 {
                if let Leaf::On(set) = rules.leaf(pair.q) {
                    pair.dec |= all_t(set) && !in_t(*x);
                }
            }
            pair.inc |= in_t(*x);
            pair.puts.push((*x, identity));
            pair.q = u;
        }
        false
    };
    let mut first = Pair::start(s);
    if !settle(&mut first) {
        return false;
    }
    // The pairs reachable from the first through equal leaves.
    let mut work = Worklist::seed(first);
    let mut succ: Vec<Vec<Vec<usize>>> = Vec::new();
    while let Some((_, pair)) = work.next() {
        let mut per: Vec<Vec<usize>> = Vec::new();
        for &p2 in &pattern.next[pair.p as usize] {
            let leaf = pattern.leaf(p2);
            // The changes as the pattern's leaf leaves them, or `None` when
            // the leaf may read one that makes it fail.
            let puts: Option<Vec<(u32, usize)>> = match leaf {
                Leaf::Move(r) => pair.moved(*r, &mut shifts),
                Leaf::On(set) => pair
                    .puts
                    .iter()
                    .all(|&(x, d)| set.contains(&x) || !shifts.may_return(d))
                    .then(|| pair.puts.clone()),
                Leaf::Pattern(..) => pair.puts.is_empty().then(Vec::new),
                _ => Some(pair.puts.clone()),
            };
            let mut alts = Vec::new();
            if let Some(puts) = puts {
                for &q2 in &rules.next[pair.q as usize] {
                    if leaf != rules.leaf(q2) {
                        continue;
                    }
                    let mut next = Pair {
                        p: p2,
                        q: q2,
                        puts: puts.clone(),
                        ..pair
                    };
                    if !settle(&mut next) {
                        continue;
                    }
                    next.puts.sort_unstable();
                    next.puts.dedup();
                    alts.push(work.intern(next));
                }
            }
            per.push(alts);
        }
        succ.push(per);
        if work.len() > MAX_PAIRS {
            return false;
        }
    }
    // Drop pairs that fail, to the greatest fixpoint.
    let ends = |pair: &Pair| {
        let q = pair.q as usize;
        !goal.maynull[q]
            && (goal.sure[q] || goal.hyp.is_some_and(|(h, _)| h[q] && pair.dec && !pair.inc))
    };
    let holds: Vec<bool> = work
        .items
        .iter()
        .map(|pair| !pattern.finals[pair.p as usize] || ends(pair))
        .collect();
    greatest(&succ, holds)
}

/// Whether every walk of `rules` from state `s` into its successor `t`
/// mirrors, leaf by equal leaf, a walk of `pattern` (which modifies
/// nothing) on the board as it was at `s`, up to an accepting state of the
/// pattern, and reaches no `forbidden` state (nor a switch, an assignment)
/// before: the walk is then past that point only where the pattern holds
/// at `s`. Pieces the walk puts are skipped, as long as no later test of
/// it reads a square they changed (no composition of the shifts taken
/// since leads back to it), and no check or comparison (which may count
/// pieces) comes after one. The greatest simulation of the rules' states
/// by the pattern's, from (`s`, start): walks that never accept are
/// allowed, as they never go past that point.
pub(crate) fn implies(
    pattern: &Nfa,
    rules: &Nfa,
    (s, t): (u32, u32),
    forbidden: &[bool],
    relations: &[Relation],
    vertices: usize,
) -> bool {
    let Some((mut shifts, identity)) = Shifts::of(pattern, relations, vertices) else {
        return false;
    };
    let mut work = Worklist::seed(Pair::start(s));
    // Per pair, per rules' transition: the pairs that mirror it.
    let mut succ: Vec<Vec<Vec<usize>>> = Vec::new();
    while let Some((i, pair)) = work.next() {
        let mut per: Vec<Vec<usize>> = Vec::new();
        let next = match i {
            _ if pattern.finals[pair.p as usize] => &[][..],
            0 => &[t][..],
            _ => &rules.next[pair.q as usize][..],
        };
        for &q2 in next {
            let leaf = rules.leaf(q2);
            let mut alts = Vec::new();
            let puts: Option<Vec<(u32, usize)>> = match leaf {
                _ if forbidden[q2 as usize] => None,
                Leaf::Off(x, _) => {
                    let mut puts = pair.puts.clone();
                    puts.push((*x, identity));
                    puts.sort_unstable();
                    puts.dedup();
                    alts.push(work.intern(Pair {
                        q: q2,
                        puts,
                        ..pair.clone()
                    }));
                    None
                }
                Leaf::Assign(..) | Leaf::Switch(..) => None,
                Leaf::Move(r) => pair.moved(*r, &mut shifts),
                Leaf::On(_) => pair
                    .puts
                    .iter()
                    .all(|&(_, d)| !shifts.may_return(d))
                    .then(|| pair.puts.clone()),
                Leaf::Pattern(..) | Leaf::Compare(..) => pair.puts.is_empty().then(Vec::new),
            };
            if let Some(mut puts) = puts {
                puts.sort_unstable();
                puts.dedup();
                for &p2 in &pattern.next[pair.p as usize] {
                    if pattern.leaf(p2) == leaf {
                        let next = Pair {
                            p: p2,
                            q: q2,
                            puts: puts.clone(),
                            ..pair.clone()
                        };
                        alts.push(work.intern(next));
                    }
                }
            }
            per.push(alts);
        }
        succ.push(per);
        if work.len() > MAX_PAIRS {
            return false;
        }
    }
    // Drop pairs with a transition no pair mirrors, to the greatest
    // fixpoint (an accepting pattern state has none to mirror).
    greatest(&succ, vec![true; work.len()])
}

/// Whether the first pair holds in the greatest fixpoint below `holds`
/// where a pair holds when each of its transitions (`succ`: per pair, per
/// transition, the pairs that mirror it) has a mirroring pair that holds.
fn greatest(succ: &[Vec<Vec<usize>>], mut holds: Vec<bool>) -> bool {
    loop {
        let mut changed = false;
        for i in 0..holds.len() {
            if holds[i] && !succ[i].iter().all(|alts| alts.iter().any(|&j| holds[j])) {
                holds[i] = false;
                changed = true;
            }
        }
        if !changed {
            return holds[0];
        }
    }
}
