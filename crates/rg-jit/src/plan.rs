//! Which checks generated code decides, and how: the plan of
//! [`crate::compile`].

use std::collections::{HashMap, HashSet};

use rg_engine::raw::{Tables, NO_NODE};
use rg_engine::GameModel;

use crate::gen;
use crate::{MAX_PROGRAM_INS, MAX_PURE_EDGES, MAX_WRITING_INS};

/// How the native engine decides a reachability check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckCode {
    /// By the interpreter (`Walker::check_from`).
    Interpreted,
    /// A probe, inline.
    Probe,
    /// A leaf program (its instructions `start .. end`), a function.
    Program(u32, u32),
    /// A leaf pure check's search, a function.
    Pure,
    /// A one-slot check's search, a function.
    Slot,
    /// A writing program (its instructions), a function calling the leaf
    /// checks it nests.
    Writing(u32, u32),
    /// A writing search (`gen/search.rs`: cycles, writes, visited
    /// checks), a function calling the checks it nests.
    Search,
}

/// Searches of one target whose regions meet, planned in one round: one
/// function over their regions' union, entered at each one's start
/// (`gen/search.rs`). Translated draughts' keeper checks that each of a
/// committed choice's alternatives completes (`? c160a0 -> cacc`, ...,
/// ~130 of them) search the same rest of the rules from starts one edge
/// apart.
struct Group {
    /// The check whose function the group's checks call.
    leader: u32,
    target: u32,
    round: usize,
    /// The union's nodes.
    nodes: HashSet<u32>,
    /// The union's edges.
    edges: usize,
}

impl Group {
    /// The edges `r` adds to the group's union, if they meet and the union
    /// stays within [`gen::MAX_SEARCH_EDGES`].
    fn added(&self, t: &Tables, r: &gen::Region) -> Option<usize> {
        if !r.nodes.iter().any(|n| self.nodes.contains(n)) {
            return None;
        }
        let new: usize = r
            .nodes
            .iter()
            .filter(|n| !self.nodes.contains(n))
            .map(|&n| (t.nodes[n as usize].end - t.nodes[n as usize].first) as usize)
            .sum();
        (self.edges + new <= gen::MAX_SEARCH_EDGES).then_some(new)
    }
}

/// Rounds of planning writing programs: how deep writing programs may
/// nest writing programs (each round's may nest the earlier rounds').
const MAX_NESTING: usize = 3;

/// What one edge of a writing search counts for against
/// [`MAX_WRITING_INS`].
const SEARCH_INS: usize = 4;

/// The plan: per check its code and the check whose function it calls,
/// and the instructions of writing programs with the leaf checks they
/// nest.
pub(crate) struct Plan {
    pub checks: Vec<CheckCode>,
    /// Per check, the first check with the same program ([`same`]),
    /// whose function it calls; itself if none.
    pub share: Vec<u32>,
    pub writing_ins: usize,
    /// The writing programs and searches, each after those it nests.
    pub writing_order: Vec<usize>,
}

/// Whether programs `p` and `q` (instructions `start .. end`) are the same:
/// instruction by instruction, jumps counted from their starts (a jump out
/// of the program, `End`'s, is never taken). Their generated functions
/// are then the same (chess.hrg's ~350 calls of one reusable check enter
/// it by a node of their own each, so each has a program, all the same).
fn same(t: &Tables, p: Span, q: Span) -> bool {
    let jump =
        |skip: u32, (start, end): (u32, u32)| (start..end).contains(&skip).then(|| skip - start);
    p.1 - p.0 == q.1 - q.0
        && (0..p.1 - p.0).all(|k| {
            let (a, b) = (t.program[(p.0 + k) as usize], t.program[(q.0 + k) as usize]);
            a.step == b.step
                && a.accept == b.accept
                && a.depth == b.depth
                && jump(a.skip, p) == jump(b.skip, q)
        })
}

/// A program's instructions `start .. end`.
type Span = (u32, u32);

/// Programs given a function, by length: (check, instructions).
#[derive(Default)]
struct Shared(HashMap<u32, Vec<(u32, Span)>>);

impl Shared {
    /// The first check given a function whose program is `p`'s, or `c`
    /// itself (then given one).
    fn find(&mut self, t: &Tables, c: usize, p: Span) -> u32 {
        let same_len = self.0.entry(p.1 - p.0).or_default();
        match same_len.iter().find(|&&(_, q)| same(t, p, q)) {
            Some(&(first, _)) => first,
            None => {
                same_len.push((c as u32, p));
                c as u32
            }
        }
    }

    /// `p`, just added by [`Shared::find`], is given no function after all.
    fn forget(&mut self, p: Span) {
        if let Some(same_len) = self.0.get_mut(&(p.1 - p.0)) {
            same_len.retain(|&(_, q)| q != p);
        }
    }
}

/// Plans `t`'s checks: writing programs and searches, with the leaf
/// checks they nest (beyond the leaf budgets), in rounds (each round's may
/// nest the earlier rounds'), while [`MAX_WRITING_INS`] lasts; then the
/// other leaf checks while [`MAX_PROGRAM_INS`] and [`MAX_PURE_EDGES`]
/// last.
pub(crate) fn plan(t: &Tables) -> Plan {
    let checks = t.checks.len();
    let leaf_prog: Vec<_> = (0..checks).map(|c| gen::leaf_program(t, c)).collect();
    let pure_size: Vec<_> = (0..checks).map(|c| gen::leaf_pure(t, c)).collect();
    let slot_size: Vec<_> = (0..checks).map(|c| gen::leaf_slot(t, c)).collect();
    let leaf = |c: usize| leaf_prog[c].is_some() || pure_size[c] + slot_size[c] > 0;
    let cost =
        |c: usize| leaf_prog[c].map_or(pure_size[c] + slot_size[c], |(a, b)| (b - a) as usize);
    let mut forced = vec![false; checks];
    let mut code = vec![CheckCode::Interpreted; checks];
    let mut writing_ins = 0;
    let mut share: Vec<u32> = (0..checks as u32).collect();
    let (mut writings, mut leaves) = (Shared::default(), Shared::default());
    let mut writing_order = Vec::new();
    // Whether a planned check visits, itself or through the checks it
    // nests (the visited set is one: such checks nest none).
    let mut visits = vec![false; checks];
    // Per planned check, the start nodes of the checks it nests, deeply:
    // the interpreter fails a check nested in one of the same start
    // (`RecursiveCheck`), so such a check is left to it.
    let mut starts: Vec<Vec<u32>> = vec![Vec::new(); checks];
    // Round k plans the writing programs and searches whose nested checks
    // are probes, leaf checks or those planned in earlier rounds: nesting
    // at most `MAX_NESTING` deep, never recursive.
    let mut groups: Vec<Group> = Vec::new();
    for round in 0..MAX_NESTING {
        let before = code.clone();
        let deep = visits.clone();
        let planned = |c2: usize| matches!(before[c2], CheckCode::Writing(..) | CheckCode::Search);
        let native = |c2: u32| {
            let c2 = c2 as usize;
            t.probes[c2].is_some() || leaf(c2) || planned(c2)
        };
        for c in (0..checks).filter(|&c| !leaf(c) && t.probes[c].is_none()) {
            if before[c] != CheckCode::Interpreted {
                continue;
            }
            let mut search_nodes = Vec::new();
            let (kind, nests, size, first) = if let Some(p) = gen::writing(t, c, &native) {
                let nests: Vec<u32> = gen::nested(t, p).collect();
                let first = writings.find(t, c, p);
                (
                    CheckCode::Writing(p.0, p.1),
                    nests,
                    (p.1 - p.0) as usize,
                    first,
                )
            } else if let Some(r) = gen::search(t, c, &native) {
                let target = t.checks[c].target;
                let joined = groups
                    .iter()
                    .enumerate()
                    .filter(|(_, g)| g.round == round && g.target == target)
                    .find_map(|(k, g)| g.added(t, &r).map(|new| (k, new)));
                let (size, first) = match joined {
                    Some((k, new)) => (SEARCH_INS * new, groups[k].leader),
                    None => (SEARCH_INS * r.edges, c as u32),
                };
                search_nodes = r.nodes;
                (CheckCode::Search, r.nested, size, first)
            } else {
                continue;
            };
            let visiting = match kind {
                CheckCode::Writing(..) => t.programs[c].is_some_and(|q| q.visits),
                _ => true,
            };
            let nested_visit = nests.iter().any(|&c2| deep[c2 as usize]);
            let mut inner: Vec<u32> = nests
                .iter()
                .filter(|&&c2| t.probes[c2 as usize].is_none())
                .flat_map(|&c2| {
                    let c2 = c2 as usize;
                    std::iter::once(t.checks[c2].start).chain(starts[c2].iter().copied())
                })
                .collect();
            inner.sort_unstable();
            inner.dedup();
            let recursive = inner.contains(&t.checks[c].start);
            if recursive || visiting && nested_visit {
                if let CheckCode::Writing(a, b) = kind {
                    if first == c as u32 {
                        writings.forget((a, b));
                    }
                }
                continue;
            }
            if first != c as u32 && kind != CheckCode::Search {
                // (Its nested checks are the first's.)
                share[c] = first;
                code[c] = kind;
                visits[c] = visiting || nested_visit;
                starts[c] = inner;
                writing_order.push(c);
                continue;
            }
            let mut new: Vec<usize> = nests
                .iter()
                .map(|&c2| c2 as usize)
                .filter(|&c2| leaf(c2) && !forced[c2])
                .collect();
            new.sort_unstable();
            new.dedup();
            let size = size + new.iter().map(|&c2| cost(c2)).sum::<usize>();
            if writing_ins + size > MAX_WRITING_INS {
                if let CheckCode::Writing(a, b) = kind {
                    writings.forget((a, b));
                }
                continue;
            }
            writing_ins += size;
            new.iter().for_each(|&c2| forced[c2] = true);
            if kind == CheckCode::Search {
                share[c] = first;
                match groups.iter_mut().find(|g| g.leader == first) {
                    Some(g) => {
                        g.edges += size / SEARCH_INS;
                        g.nodes.extend(search_nodes.iter().copied());
                    }
                    None => groups.push(Group {
                        leader: c as u32,
                        target: t.checks[c].target,
                        round,
                        nodes: search_nodes.iter().copied().collect(),
                        edges: size / SEARCH_INS,
                    }),
                }
            }
            code[c] = kind;
            visits[c] = visiting || nested_visit;
            starts[c] = inner;
            writing_order.push(c);
        }
    }
    let (mut pure_edges, mut program_ins) = (0, 0);
    for c in 0..checks {
        if t.probes[c].is_some() {
            code[c] = CheckCode::Probe;
            continue;
        }
        if let Some((a, b)) = leaf_prog[c] {
            let first = leaves.find(t, c, (a, b));
            if first != c as u32 {
                share[c] = first;
                code[c] = CheckCode::Program(a, b);
                continue;
            }
            if forced[c] || program_ins + (b - a) as usize <= MAX_PROGRAM_INS {
                program_ins += (b - a) as usize;
                code[c] = CheckCode::Program(a, b);
                continue;
            }
            leaves.forget((a, b));
        }
        let size = pure_size[c] + slot_size[c];
        if size > 0 && (forced[c] || pure_edges + size <= MAX_PURE_EDGES) {
            pure_edges += size;
            code[c] = match slot_size[c] > 0 {
                true => CheckCode::Slot,
                false => CheckCode::Pure,
            };
        }
    }
    Plan {
        checks: code,
        share,
        writing_ins,
        writing_order,
    }
}

/// How the native engine would decide each of `game`'s checks (for
/// tests and tools).
#[doc(hidden)]
pub fn check_codes(game: &GameModel) -> Vec<CheckCode> {
    plan(game.tables()).checks
}

/// Per check of `game`, the check whose generated function it calls
/// (itself where it has its own; for tests and tools).
#[doc(hidden)]
pub fn check_functions(game: &GameModel) -> Vec<u32> {
    plan(game.tables()).share
}

/// Programs shorter than this decide a speculated check in fewer
/// instructions than generating its moves ahead costs to hand over.
const MIN_SPECULATED_INS: u32 = 32;

/// Per check, whether a walk's `? c` generates the moves `c` mirrors ahead
/// (`rt/ahead.rs`): speculated checks (`Tables::speculated`) but those a
/// probe or a short program decides, whose own answer, stopping at the
/// first move, costs less than keeping and handing over a whole move list.
/// Speculating every one cost (native callgrind per playout) ticTacToe's
/// and connect4's probes +20-24%, foxAndHounds' 9-instruction programs
/// +11%, and saved chess's 1,418-instruction programs 7%.
pub(crate) fn speculates(t: &Tables, checks: &[CheckCode]) -> Vec<bool> {
    use CheckCode as K;
    (0..t.checks.len())
        .map(|c| {
            t.speculated[c] != NO_NODE
                && match checks[c] {
                    K::Probe => false,
                    K::Program(a, b) | K::Writing(a, b) => b - a >= MIN_SPECULATED_INS,
                    K::Interpreted | K::Pure | K::Slot | K::Search => true,
                }
        })
        .collect()
}

/// Per check of `game`, whether native walks generate the moves it
/// mirrors ahead ([`speculates`]; for tests and tools).
#[doc(hidden)]
pub fn native_speculated(game: &GameModel) -> Vec<bool> {
    speculates(game.tables(), &plan(game.tables()).checks)
}
