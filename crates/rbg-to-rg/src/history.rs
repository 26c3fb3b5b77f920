//! What every walk of the rules into a state has seen of the board, for
//! `sure.rs`: a state is sure when, whatever the walk into it, the squares
//! it tested or changed let some walk from it reach a switch or a sure
//! state (amazons: the arrow can always fly back one square toward the
//! square the amazon left, which it emptied or flew over).
//!
//! A *fact* says that the square `f(v)` holds one of the pieces `P`, `v`
//! the current vertex and `f` a partial map of vertices. A test `{P}` adds
//! `(identity, P)`; a shift by relation `r` turns `f` into `f ∘ r⁻¹`
//! (dropped where that is not a partial map: some vertex then has two
//! origins); `[x]` drops the facts whose square may be the current vertex
//! (`f(v) = v` for some `v`) unless `x` is in `P`, and adds
//! `(identity, {x})`. Nothing else changes the board (patterns modify
//! nothing), so facts carry over switches, turns included: every game's
//! history is a walk of the rules from the start, where nothing is known.
//!
//! Each state keeps the minimal fact sets of the walks into it (a walk
//! knowing more is proved by the proof of one knowing less): the states'
//! sets grow to a fixpoint, each set, map and count bounded (past a bound,
//! a state knows nothing, which proves less and stays sound). A walk's
//! vertex is where each of its facts' maps is defined, so a shift that
//! leaves a fact's map defined nowhere leaves the board: no walk knowing
//! that fact takes it, and its set is dropped (without that, reversi's
//! flips past the board's edge lost the square they started from).
//!
//! Amazons' check now ends at the amazon's first step onto an empty square
//! (it no longer lands and shoots), an acyclic region without visited
//! checks: callgrind instructions (`rbg --engine native|interp bench`, 5
//! playouts, seed 1) native 57.53M -> 54.62M (-5.1%), interp 86.35M ->
//! 85.21M (-1.3%); alternated 1 s rounds new/old 0.99-1.03 (noise). The
//! keeper's checks in go after a capture mark (`[toCapture] down ->>`
//! returns to a square it came from) go too: -0.4% interp.

use std::collections::HashMap;

use crate::board::Relation;
use crate::intern::Capped;
use crate::regex::{Leaf, Nfa};

/// A partial map of vertices.
type Map = Vec<Option<u32>>;

/// A fact: an interned map and the pieces its square holds one of.
type Fact = (u32, Vec<u32>);

/// A fact's map after a shift.
#[derive(Clone, Copy)]
enum Shifted {
    /// This map (interned).
    Map(u32),
    /// Not a partial map, or past [`MAX_MAPS`]: the fact is dropped.
    Unknown,
    /// Defined nowhere: the fact's square was known where the walk is, so
    /// the shift leaves the board there and no walk takes it.
    Gone,
}

/// Most distinct maps of one game's facts.
const MAX_MAPS: usize = 256;

/// Most facts per set (those of the first maps interned are kept: the
/// identity first).
const MAX_FACTS: usize = 16;

/// Most minimal fact sets per state.
const MAX_SETS: usize = 64;

/// Most state visits of the fixpoint.
const MAX_VISITS: usize = 1 << 16;

/// Most leaves of a walk a proof takes from its state (reversi's flips
/// walk back over up to six squares: 14 leaves).
const MAX_WALK: usize = 16;

/// Most steps (leaves tried) of the proof of one fact set.
const MAX_STEPS: usize = 1 << 12;

/// What [`History::proves`] takes as certain.
struct Certain<'a> {
    /// States a walk stops at, proved.
    ok: &'a dyn Fn(u32) -> bool,
    /// Leaves legal whatever the board.
    always: &'a dyn Fn(u32) -> bool,
    /// States after a shift, from which a walk surely reaches an `ok` one
    /// when the shift may land on a square holding one of these pieces.
    slides: &'a dyn Fn(u32, &[u32]) -> bool,
}

/// Per state: the minimal fact sets of the walks of the rules into it.
pub(crate) struct History {
    maps: Capped<Map>,
    /// Per state: the sets (empty: not reached, or nothing known).
    sets: Vec<Vec<Vec<Fact>>>,
    /// The maps of the facts a shift by relation `r` leaves, per map.
    shifted: HashMap<(u32, usize), Shifted>,
    /// The identity's id.
    identity: u32,
    /// Steps left to the proof under way.
    steps: usize,
}

impl History {
    /// The facts of `rules`' states; `relations`: the shifts' relations.
    pub(crate) fn new(rules: &Nfa, relations: &[Relation], vertices: usize) -> History {
        let mut h = History {
            maps: Capped::new(MAX_MAPS),
            sets: vec![Vec::new(); rules.states()],
            shifted: HashMap::new(),
            identity: 0,
            steps: 0,
        };
        h.identity = h
            .intern((0..vertices as u32).map(Some).collect())
            .expect("the first map");
        h.sets[0] = vec![Vec::new()];
        h.explore(rules, relations, 0, &|_| false);
        h
    }

    /// The facts of the walks from state `s` only, which start knowing what
    /// every walk into `s` knows, up to the states where `stop` holds:
    /// fewer walks than the whole game's, so fewer sets per state (where
    /// the game's overflow [`MAX_SETS`], these may not).
    pub(crate) fn walks_from(
        &self,
        rules: &Nfa,
        relations: &[Relation],
        s: u32,
        stop: &dyn Fn(u32) -> bool,
    ) -> History {
        let mut h = History {
            maps: self.maps.with_room(MAX_MAPS),
            sets: vec![Vec::new(); rules.states()],
            shifted: HashMap::new(),
            identity: self.identity,
            steps: 0,
        };
        h.sets[s as usize] = self.sets[s as usize].clone();
        h.explore(rules, relations, s, stop);
        h
    }

    /// Grows the sets from state `s` to a fixpoint, not beyond the states
    /// where `stop` holds; past [`MAX_VISITS`], nothing is known anywhere.
    fn explore(&mut self, rules: &Nfa, relations: &[Relation], s: u32, stop: &dyn Fn(u32) -> bool) {
        let mut work = vec![s];
        let mut visits = 0;
        while let Some(s) = work.pop() {
            visits += 1;
            if visits > MAX_VISITS {
                self.sets = vec![vec![Vec::new()]; rules.states()];
                return;
            }
            for &t in &rules.next[s as usize] {
                let leaf = rules.leaf(t);
                let mut changed = false;
                for facts in self.sets[s as usize].clone() {
                    if let Some(after) = self.after(leaf, &facts, relations) {
                        changed |= self.insert(t, after);
                    }
                }
                if changed && !stop(t) {
                    work.push(t);
                }
            }
        }
    }

    fn intern(&mut self, m: Map) -> Option<u32> {
        self.maps.id(m).map(|id| id as u32)
    }

    /// Map `f` after a shift by relation `r`: `f ∘ r⁻¹`, if a partial
    /// map (interned).
    fn shift(&mut self, f: u32, r: usize, relations: &[Relation]) -> Shifted {
        if let Some(&out) = self.shifted.get(&(f, r)) {
            return out;
        }
        let map = &self.maps[f as usize];
        let mut out: Map = vec![None; map.len()];
        let mut ok = true;
        for (v, targets) in relations[r].iter().enumerate() {
            let Some(sq) = map[v] else { continue };
            for &w in targets {
                match out[w as usize] {
                    Some(o) if o != sq => ok = false,
                    _ => out[w as usize] = Some(sq),
                }
            }
        }
        let id = if !out.iter().any(Option::is_some) {
            Shifted::Gone
        } else if ok {
            self.intern(out).map_or(Shifted::Unknown, Shifted::Map)
        } else {
            Shifted::Unknown
        };
        self.shifted.insert((f, r), id);
        id
    }

    /// Whether map `f` may lead a vertex to itself.
    fn may_return(&self, f: u32) -> bool {
        self.maps[f as usize]
            .iter()
            .enumerate()
            .any(|(v, &sq)| sq == Some(v as u32))
    }

    /// The facts after `leaf`, from `facts` before it; `None` where no walk
    /// knowing them takes the leaf (a shift off the board).
    fn after(&mut self, leaf: &Leaf, facts: &[Fact], relations: &[Relation]) -> Option<Vec<Fact>> {
        let mut out: Vec<Fact> = match leaf {
            Leaf::Move(r) => {
                let mut out = Vec::new();
                for (f, p) in facts {
                    match self.shift(*f, *r, relations) {
                        Shifted::Map(g) => out.push((g, p.clone())),
                        Shifted::Unknown => {}
                        Shifted::Gone => return None,
                    }
                }
                out
            }
            Leaf::On(set) => {
                let mut out = facts.to_vec();
                out.push((self.identity, set.clone()));
                out
            }
            Leaf::Off(x, _) => {
                let mut out: Vec<Fact> = facts
                    .iter()
                    .filter(|(f, p)| p.contains(x) || !self.may_return(*f))
                    .cloned()
                    .collect();
                out.push((self.identity, vec![*x]));
                out
            }
            Leaf::Assign(..) | Leaf::Compare(..) | Leaf::Switch(..) | Leaf::Pattern(..) => {
                facts.to_vec()
            }
        };
        out.sort();
        out.dedup();
        out.truncate(MAX_FACTS);
        Some(out)
    }

    /// Adds `facts` to state `t`'s minimal sets; whether they changed.
    fn insert(&mut self, t: u32, facts: Vec<Fact>) -> bool {
        let sets = &mut self.sets[t as usize];
        let within = |a: &[Fact], b: &[Fact]| a.iter().all(|x| b.binary_search(x).is_ok());
        if sets.iter().any(|g| within(g, &facts)) {
            return false;
        }
        sets.retain(|g| !within(&facts, g));
        sets.push(facts);
        if sets.len() > MAX_SETS {
            *sets = vec![Vec::new()];
        }
        true
    }

    /// Whether every walk into state `s` of `rules` goes on, by certain
    /// leaves (`always`, or tests and shifts its facts decide), into a
    /// state where `ok` holds within [`MAX_WALK`] leaves, or into a state
    /// `t` after a shift that may land on a square holding one of pieces
    /// `p` where `slides(t, p)` says a walk from `t` surely gets there.
    pub(crate) fn proves(
        &mut self,
        rules: &Nfa,
        relations: &[Relation],
        s: u32,
        ok: &dyn Fn(u32) -> bool,
        always: &dyn Fn(u32) -> bool,
        slides: &dyn Fn(u32, &[u32]) -> bool,
    ) -> bool {
        let sets = self.sets[s as usize].clone();
        let certain = Certain { ok, always, slides };
        !sets.is_empty()
            && sets.iter().all(|facts| {
                self.steps = MAX_STEPS;
                self.walk(rules, relations, s, facts, 0, &certain)
            })
    }

    fn walk(
        &mut self,
        rules: &Nfa,
        relations: &[Relation],
        q: u32,
        facts: &[Fact],
        depth: usize,
        certain: &Certain,
    ) -> bool {
        let Certain { ok, always, slides } = certain;
        if depth == MAX_WALK {
            return false;
        }
        for &t in &rules.next[q as usize] {
            if self.steps == 0 {
                return false;
            }
            self.steps -= 1;
            let leaf = rules.leaf(t);
            let decided = always(t)
                || match leaf {
                    Leaf::On(set) => facts
                        .iter()
                        .any(|(f, p)| self.is_identity(*f) && p.iter().all(|x| set.contains(x))),
                    // Some fact's square is a target of the shift.
                    Leaf::Move(r) => facts.iter().any(|(f, _)| self.lands(*f, &relations[*r])),
                    _ => false,
                };
            if !decided {
                continue;
            }
            if ok(t) {
                return true;
            }
            let Some(next) = self.after(leaf, facts, relations) else {
                continue;
            };
            if let Leaf::Move(r) = leaf {
                // The walk that lands on a fact's square holds its pieces.
                for (f, p) in facts {
                    if self.lands(*f, &relations[*r]) {
                        if slides(t, p) {
                            return true;
                        }
                        let mut with = next.clone();
                        with.push((self.identity, p.clone()));
                        with.sort();
                        with.dedup();
                        with.truncate(MAX_FACTS);
                        if self.walk(rules, relations, t, &with, depth + 1, certain) {
                            return true;
                        }
                    }
                }
                continue;
            }
            if self.walk(rules, relations, t, &next, depth + 1, certain) {
                return true;
            }
        }
        false
    }

    /// Whether a shift by `rel` can always land on map `f`'s square.
    fn lands(&self, f: u32, rel: &Relation) -> bool {
        self.maps[f as usize]
            .iter()
            .zip(rel)
            .all(|(sq, targets)| sq.is_none_or(|sq| targets.contains(&sq)))
    }

    /// Whether map `f` takes each vertex it knows to itself.
    fn is_identity(&self, f: u32) -> bool {
        self.maps[f as usize]
            .iter()
            .enumerate()
            .all(|(v, sq)| sq.is_none_or(|sq| sq == v as u32))
    }
}
