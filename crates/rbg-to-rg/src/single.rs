//! Walks that never meet: regions of the move walks (from `begin` or a
//! `player` assignment's target up to the next `player` assignments) in
//! which the RG walk is single, so that no node needs a visited check
//! there (`@unique`).
//!
//! The RG engine checks every node that several edges enter (reversi's
//! keeper: each direction's `{! flips} + flip` ends in one node, and every
//! node after the first such join compares the whole board). The
//! translation knows more, from the rules' automaton:
//!
//! - A choice between alternatives that never both hold: tests of disjoint
//!   piece sets at one square, `{? p}` and `{! p}`, disjoint vertex tests,
//!   comparisons of the same two sides with no outcome in common
//!   (`{$ w > b} + {$ w < b} + {$ w == b}`). At most one of them goes on.
//! - `{! p}` beside an alternative whose every walk, until it mirrors an
//!   accepting walk of `p`, reaches no state the `{! p}` side reaches
//!   (`simulate::implies`): reversi's `{! d {opp} d ({opp} d)* {me}} + d
//!   {opp} [me] d ({opp} [me] d)* {me} back ...`. The flips' walk reads no
//!   square it changed before `{me}`, so it is past `{me}` only where the
//!   pattern holds on the board as it was, where `{! p}` fails: the two
//!   sides' walks never meet.
//!
//! - Alternatives whose walks each pass, before they change anything or
//!   move, tests that never both hold, where the walk that fails visits
//!   before it fails no state the other may reach: the tests are the
//!   negations of earlier keeper alternatives that the emission puts
//!   before an alternative (`Emitter::unless_earlier`), its leaf, and the
//!   tests after it while each state has one successor. Hex's keeper
//!   `({! a} + {! b}) + {? a} {? b} ...`, emitted as `{! a}`, `{? a} {! b}`
//!   and `{? a} {? b}`: the two joins before the next player's move
//!   compared the whole board (interp −6.9%, native −4.5% per playout).
//!
//! So where every choice of a region (every state whose transitions its
//! walks take) is one of these and every leaf has at most one outcome (no
//! shift with several targets, no choice of any vertex, no committed
//! keeper choice), one walk of the region reaches each node's state per
//! enumeration: its nodes (named after the state whose transition they are
//! on, `m{state}...`) are each visited by one walk. That walk does not come
//! back to a node with equal variables: every state and current vertex
//! (`coord`, after the pending shifts of a fused test) it goes through
//! differ, as the states' graph with each shift's map applied to the
//! vertex has no cycle (every loop moves along a ray that leaves the board).
//! A node the region shares with another region (that is not proved) is
//! left as it was.

use std::collections::{HashMap, HashSet};

use rg_lang::ast::{Edge, Label};

use crate::board::{shape, Relation, Shape};
use crate::regex::{Leaf, Nfa};
use crate::unique::is_player;
use rbg_lang::ast::CmpOp;

/// A state and the current vertex.
type Pos = (u32, u32);

/// The nodes of every game, on no state's transition.
const ENDS: [&str; 2] = ["begin", "end"];

/// Most (state, vertex) pairs of one region's cycle search.
const MAX_PRODUCT: usize = 1 << 22;

/// The vertex maps of a leaf with at most one outcome: `Some(None)` when it
/// keeps the vertex, `Some(Some(map))` for a shift by one map, `None` when
/// it may have several outcomes.
fn outcome(leaf: &Leaf, relations: &[Relation]) -> Option<Option<Vec<Option<u32>>>> {
    match leaf {
        Leaf::Move(r) => match shape(&relations[*r]) {
            Shape::Filter(_) => Some(None),
            Shape::Maps(maps) if maps.len() == 1 => Some(Some(maps[0].clone())),
            _ => None,
        },
        _ => Some(None),
    }
}

/// The outcomes (`<`, `==`, `>`) in which `op` holds.
fn holds(op: CmpOp) -> [bool; 3] {
    match op {
        CmpOp::Lt => [true, false, false],
        CmpOp::Le => [true, true, false],
        CmpOp::Eq => [false, true, false],
        CmpOp::Ne => [true, false, true],
        CmpOp::Gt => [false, false, true],
        CmpOp::Ge => [false, true, true],
    }
}

/// Whether leaves `a` and `b`, taken from one state, never both hold: as
/// `keeper.rs` knows, or comparisons of the same sides.
fn exclusive(a: &Leaf, b: &Leaf, relations: &[Relation]) -> bool {
    match (a, b) {
        (Leaf::Compare(l, o, r), Leaf::Compare(l2, o2, r2)) if l == l2 && r == r2 => {
            let (h, h2) = (holds(*o), holds(*o2));
            (0..3).all(|i| !(h[i] && h2[i]))
        }
        _ => crate::keeper::exclusive(a, b, relations),
    }
}

/// The states a walk from `u` may reach within a region (not past a
/// switch to a player, where the region ends), `u` included.
fn reach_from(nfa: &Nfa, u: u32) -> Vec<bool> {
    let mut seen = vec![false; nfa.states()];
    seen[u as usize] = true;
    let mut stack = vec![u];
    while let Some(p) = stack.pop() {
        if matches!(nfa.leaf(p), Leaf::Switch(Some(_), _)) {
            continue;
        }
        for &t in &nfa.next[p as usize] {
            if !std::mem::replace(&mut seen[t as usize], true) {
                stack.push(t);
            }
        }
    }
    seen
}

/// Whether `leaf` only tests, at the current vertex, what the walk has
/// not changed since its choice: pieces, a pattern, a comparison, a
/// vertex test.
fn is_test(leaf: &Leaf, relations: &[Relation]) -> bool {
    match leaf {
        Leaf::On(_) | Leaf::Pattern(..) | Leaf::Compare(..) => true,
        Leaf::Move(r) => matches!(shape(&relations[*r]), Shape::Filter(_)),
        _ => false,
    }
}

/// Most tests [`necessary`] follows past a transition.
const MAX_CHAIN: usize = 16;

/// The tests every walk through transition `s → t` passes before it
/// changes anything or moves, on the board and variables as they are at
/// `s`: `guards` (the negations of earlier keeper alternatives emitted
/// before it, `Emitter::unless_earlier`), `t`'s leaf, then the leaves of
/// the states after `t` while each has one successor. Each with the states
/// the walk may visit before the test decides (counting the state whose
/// leaf it is, for a test of several steps); and those states.
fn necessary(
    nfa: &Nfa,
    t: u32,
    guards: Vec<Leaf>,
    relations: &[Relation],
) -> (Vec<(Leaf, usize)>, Vec<u32>) {
    let mut tests: Vec<(Leaf, usize)> = guards.into_iter().map(|g| (g, 0)).collect();
    let mut chain: Vec<u32> = Vec::new();
    let mut at = t;
    while chain.len() < MAX_CHAIN && !chain.contains(&at) && is_test(nfa.leaf(at), relations) {
        chain.push(at);
        tests.push((nfa.leaf(at).clone(), chain.len()));
        // (A walk may end at a final state, untested further.)
        let [u] = nfa.next[at as usize][..] else {
            break;
        };
        if nfa.finals[at as usize] {
            break;
        }
        at = u;
    }
    (tests, chain)
}

/// Per state of the rules: whether the walks leaving it take at most one
/// of its transitions to a state the others' walks reach (see the module
/// documentation). A switch to a player is single: its transitions are
/// the next move's, walked in another region. `commit`: committed keeper
/// choices (not single); `ctx`: the states' contexts (`Info::ctx`).
pub(crate) fn single_states(
    nfa: &Nfa,
    patterns: &[Nfa],
    relations: &[Relation],
    commit: &[bool],
    ctx: &[u8],
    vertices: usize,
) -> Vec<bool> {
    (0..nfa.states() as u32)
        .map(|s| {
            if s > 0 && matches!(nfa.leaf(s), Leaf::Switch(Some(_), _)) {
                return true;
            }
            let next = &nfa.next[s as usize];
            if commit[s as usize]
                || next
                    .iter()
                    .any(|&t| outcome(nfa.leaf(t), relations).is_none())
            {
                return false;
            }
            // Per transition: its necessary tests and the states visited
            // before they decide, and the states its walk may reach.
            let guarded = !(s > 0 && crate::emit::may_null(relations, nfa.leaf(s)));
            let sides: Vec<_> = next
                .iter()
                .enumerate()
                .map(|(i, &t)| {
                    // (Only negations `unless_earlier` surely emits: of a
                    // pattern, before a pattern.)
                    let guards = next[..i]
                        .iter()
                        .filter_map(|&u| match (nfa.leaf(u), nfa.leaf(t)) {
                            (&Leaf::Pattern(negated, k), Leaf::Pattern(..))
                                if guarded && crate::emit::alike(nfa, ctx, u, t) =>
                            {
                                Some(Leaf::Pattern(!negated, k))
                            }
                            _ => None,
                        })
                        .collect();
                    (necessary(nfa, t, guards, relations), reach_from(nfa, t))
                })
                .collect();
            // Whether the walks through transitions `i` and `j` never both
            // pass their necessary tests, and the one that fails visits
            // before it fails no state the other may reach.
            let decided = |i: usize, j: usize| {
                let (((a, sa), ra), ((b, sb), rb)) = (&sides[i], &sides[j]);
                a.iter().any(|(x, m)| {
                    b.iter().any(|(y, n)| {
                        exclusive(x, y, relations)
                            && sa[..*m].iter().all(|&u| !rb[u as usize])
                            && sb[..*n].iter().all(|&u| !ra[u as usize])
                    })
                })
            };
            let apart = |u: u32, t: u32| {
                let Leaf::Pattern(true, k) = nfa.leaf(u) else {
                    return false;
                };
                let mut forbidden = reach_from(nfa, u);
                forbidden[s as usize] = true;
                crate::simulate::implies(
                    &patterns[*k],
                    nfa,
                    (s, t),
                    &forbidden,
                    relations,
                    vertices,
                )
            };
            next.iter().enumerate().all(|(i, &a)| {
                next[i + 1..].iter().enumerate().all(|(j, &b)| {
                    exclusive(nfa.leaf(a), nfa.leaf(b), relations)
                        || apart(a, b)
                        || apart(b, a)
                        || decided(i, i + 1 + j)
                })
            })
        })
        .collect()
}

/// The state a main node is on the transition into (`m{state}...`).
fn owner(node: &str) -> Option<u32> {
    let rest = node.strip_prefix('m')?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    rest[..digits].parse().ok()
}

/// The states of `owners` and those their walks may reach up to a switch
/// to a player (fused shift states, which own no node, among them).
fn walked(nfa: &Nfa, owners: HashSet<u32>) -> HashSet<u32> {
    let mut states = owners;
    let mut stack: Vec<u32> = states.iter().copied().collect();
    while let Some(s) = stack.pop() {
        if s > 0 && matches!(nfa.leaf(s), Leaf::Switch(Some(_), _)) {
            continue;
        }
        for &t in &nfa.next[s as usize] {
            if states.insert(t) {
                stack.push(t);
            }
        }
    }
    states
}

/// Whether a walk through `states` can come back to a state at the same
/// vertex (each shift's map applied; other leaves keep the vertex; a
/// switch to a player ends the walk). `None` past [`MAX_PRODUCT`].
fn may_cycle(
    nfa: &Nfa,
    states: &HashSet<u32>,
    relations: &[Relation],
    vertices: usize,
) -> Option<bool> {
    if states.len().saturating_mul(vertices) > MAX_PRODUCT {
        return None;
    }
    let index: HashMap<u32, usize> = states.iter().enumerate().map(|(i, &s)| (s, i)).collect();
    let order: Vec<u32> = states.iter().copied().collect();
    // 0: unseen, 1: on the stack, 2: done.
    let mut color = vec![0u8; order.len() * vertices];
    let succ = |s: u32, v: u32| -> Vec<Pos> {
        if s > 0 && matches!(nfa.leaf(s), Leaf::Switch(Some(_), _)) {
            return Vec::new();
        }
        nfa.next[s as usize]
            .iter()
            .filter(|t| index.contains_key(t))
            .filter_map(|&t| match outcome(nfa.leaf(t), relations) {
                Some(None) => Some((t, v)),
                Some(Some(map)) => map[v as usize].map(|w| (t, w)),
                None => None,
            })
            .collect()
    };
    for &s in &order {
        for v in 0..vertices as u32 {
            if color[index[&s] * vertices + v as usize] != 0 {
                continue;
            }
            let mut stack: Vec<(Pos, Vec<Pos>)> = vec![((s, v), succ(s, v))];
            color[index[&s] * vertices + v as usize] = 1;
            while let Some((at, rest)) = stack.last_mut() {
                let at = *at;
                match rest.pop() {
                    Some((t, w)) => {
                        let c = &mut color[index[&t] * vertices + w as usize];
                        match *c {
                            1 => return Some(true),
                            0 => {
                                *c = 1;
                                stack.push(((t, w), succ(t, w)));
                            }
                            _ => {}
                        }
                    }
                    None => {
                        color[index[&at.0] * vertices + at.1 as usize] = 2;
                        stack.pop();
                    }
                }
            }
        }
    }
    Some(false)
}

/// The main nodes visited by one walk per enumeration in every region
/// that reaches them (see the module documentation); `single`: per state
/// of `nfa` (the rules), [`single_states`].
pub(crate) fn single_nodes(
    edges: &[Edge],
    single: &[bool],
    nfa: &Nfa,
    relations: &[Relation],
    vertices: usize,
) -> Vec<String> {
    let mut out: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut roots: Vec<&str> = vec!["begin"];
    for (i, e) in edges.iter().enumerate() {
        out.entry(e.from.text.as_str()).or_default().push(i);
        if is_player(&e.label) {
            roots.push(e.to.text.as_str());
        }
    }
    roots.sort_unstable();
    roots.dedup();
    // Per node: whether every region reaching it is proved.
    let mut proved: HashMap<&str, bool> = HashMap::new();
    for root in roots {
        let mut nodes: Vec<&str> = vec![root];
        let mut seen: HashSet<&str> = HashSet::from([root]);
        let mut i = 0;
        while i < nodes.len() {
            for &k in out.get(nodes[i]).map_or(&[][..], |v| &v[..]) {
                let e = &edges[k];
                if !is_player(&e.label) && seen.insert(e.to.text.as_str()) {
                    nodes.push(e.to.text.as_str());
                }
            }
            i += 1;
        }
        let owners: Option<HashSet<u32>> = nodes
            .iter()
            .filter(|&&n| !ENDS.contains(&n))
            .map(|n| owner(n).filter(|&s| (s as usize) < single.len()))
            .collect();
        let ok = owners.is_some_and(|owners| {
            let states = walked(nfa, owners);
            states.iter().all(|&s| single[s as usize])
                && may_cycle(nfa, &states, relations, vertices) == Some(false)
                // (Every choice of any vertex is a shift to any vertex,
                // which no single state takes: checked again on the edges.)
                && !edges.iter().any(|e| {
                    seen.contains(e.from.text.as_str())
                        && matches!(e.label, Label::AssignAny { .. })
                })
        });
        for n in nodes {
            *proved.entry(n).or_insert(true) &= ok;
        }
    }
    let mut nodes: Vec<String> = proved
        .into_iter()
        .filter(|&(n, ok)| ok && !ENDS.contains(&n))
        .map(|(n, _)| n.to_string())
        .collect();
    nodes.sort();
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the keeper's choice between `{! right {x}}` and `other`
    /// (after `[x]` on a row of five) is single.
    fn single_choice(other: &str) -> bool {
        single_keeper(&format!("({{! right {{x}}}} + {other})"), 0)
    }

    #[test]
    fn a_walk_past_its_pattern_is_apart_from_the_negation() {
        // The walk mirrors `right {x}` before it changes anything.
        assert!(single_choice("right {x} [e] left"));
        // It puts a piece first, on a square it does not read again.
        assert!(single_choice("[e] right {x} left"));
        // It reads the square it changed: not the board the pattern reads.
        assert!(!single_choice("right [e] {e} left"));
        // It goes elsewhere.
        assert!(!single_choice("left {x} right"));
    }

    /// Whether the keeper's choice leaving the state before the first
    /// `{! ...}` of `keeper` (after `[x]` on a row of five) is single, the
    /// states in context `ctx`.
    fn single_keeper(keeper: &str, ctx: u8) -> bool {
        let text = format!(
            "#players = a(1), b(1)
#pieces = e, x
#variables =
#board = rectangle(up, down, left, right, [e, x, e, x, e])
#anySquare = ((up* + down*)(left* + right*))
#rules = (->a anySquare {{e}} [x] ->> {keeper} ->b anySquare {{x}} [e] ->>)*"
        );
        let game = rbg_lang::parse_str(&text).unwrap();
        let low = crate::regex::lower(&game);
        let nfa = &low.rules;
        let commit = vec![false; nfa.states()];
        let ctx = vec![ctx; nfa.states()];
        let single = single_states(nfa, &low.patterns, &low.relations, &commit, &ctx, 5);
        let choice = (0..nfa.states())
            .find(|&s| {
                nfa.next[s]
                    .iter()
                    .any(|&t| matches!(nfa.leaf(t), Leaf::Pattern(true, _)))
            })
            .unwrap();
        single[choice]
    }

    #[test]
    fn alternatives_decided_by_later_or_emitted_tests_are_single() {
        let keeper = crate::emit::KEEPER;
        // The second side tests `{! right {x}}` after `{? left {x}}`, the
        // first `{? right {x}}`: never both.
        let deep = "({? left {x}} {! right {x}} + {? right {x}})";
        assert!(single_keeper(deep, keeper));
        // `{? left {x}}` and `{! right {x}}` may both hold.
        assert!(!single_keeper(
            "({? left {x}} {! right {x}} + {! right {x}})",
            keeper
        ));
        // Hex's keeper: the second `{! ...}` is emitted after `{? right
        // {x}}` (the negation of the first, an equal keeper alternative),
        // the third side tests `{? left {x}}` after `{? right {x}}`.
        let hex = "(({! right {x}} + {! left {x}}) + {? right {x}} {? left {x}} ->> {})";
        assert!(single_keeper(hex, keeper));
        // Not a keeper's choice: no negation is emitted before the second.
        assert!(!single_keeper(hex, 0));
    }
}
