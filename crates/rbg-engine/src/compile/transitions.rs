//! The transitions the walk follows: each state's successors decoded into
//! [`Tr`]s (kind, target, visited slot, operand: the walk chases no
//! pointers).
//!
//! - **Visited slots** only where one level can enter a node twice (see
//!   [`visited_slots`]).
//! - **Fused tests.** A shift (or shift table) into a state whose only
//!   continuation is a piece test reached from nowhere else is one
//!   transition (`Op::ShiftOn`, `Op::MultiOn`): the piece is tested before a
//!   node is made. When all continuations are piece tests, the union of
//!   their sets is tested before entering the node (draughts'
//!   `anySquare ({king} ... + {man} ...)` then scans 12 pieces, not 32
//!   squares).
//! - **Switch on the piece.** When no two of those tests can pass together
//!   (`dir ({o} ... + {x} ...)`), the shift is `Op::ShiftSwitch`: the piece
//!   at the target picks the test's state from a row of
//!   `Compiled::switch_rows`, and the shift's own node is never entered
//!   (chess -28% instructions per state, reversi -9%).
//! - **Moves end at discovery.** A transition into a state whose only
//!   transition is a switch without a visited slot (`Tr::ends`) takes the
//!   switch when it discovers the node instead of visiting it later
//!   (connect4 and tic-tac-toe -19 to -21% instructions).

use super::glushkov::Builder;
use super::{Act, Op, Tr, NONE};

/// The walk's transition tables (see [`super::Compiled`]).
pub(super) struct Transitions {
    pub trans_off: Vec<u32>,
    pub trans: Vec<Tr>,
    pub switch_rows: Vec<(u32, u32)>,
    pub num_slots: u32,
}

/// Builds the transitions of the states whose sorted successors are
/// `follow`, over a board of `nd` directions (`neighbors`); fused piece
/// tests add rows to `b.on_sets`.
pub(super) fn build(
    follow: &[Vec<u32>],
    accepting: &[bool],
    b: &mut Builder,
    neighbors: &[u32],
    nd: u32,
    np: u32,
) -> Transitions {
    let nv = b.num_vertices;
    let n_acts = b.acts.len();
    let n_states = follow.len();
    let injective: Vec<bool> = (0..nd)
        .map(|d| {
            let mut seen = vec![false; nv as usize];
            (0..nv).all(|v| {
                let t = neighbors[(v * nd + d) as usize];
                t == NONE || !std::mem::replace(&mut seen[t as usize], true)
            })
        })
        .collect();
    let (slot, num_slots) = visited_slots(follow, &b.acts, &b.owner, &injective, n_acts);
    let mut indegree = vec![0u32; n_states];
    for &t in follow.iter().flatten() {
        indegree[t as usize] += 1;
    }
    let decode = |t: u32| -> (Op, u32) {
        match b.acts[t as usize] {
            Act::Shift(d) => (Op::Shift, d),
            Act::Multi(tab) => (Op::Multi, tab),
            Act::Filter(row) => (Op::Filter, row),
            Act::On(set) => (Op::On, set * np),
            Act::Noop => (Op::Noop, 0),
            Act::Compare(..) => (Op::Compare, 0),
            Act::Pattern(k, negated) => (Op::Pattern, Tr::pattern_arg(k, negated)),
            Act::Off(p) => (Op::Off, p),
            Act::Assign(var, _) => (Op::Assign, var),
            Act::Switch(p) => (Op::Switch, p),
        }
    };
    let mut switch_rows = Vec::new();
    let mut trans_off = Vec::with_capacity(n_states + 1);
    let mut trans = Vec::new();
    for f in follow {
        trans_off.push(trans.len() as u32);
        for &t in f {
            let (op, arg) = decode(t);
            let mut tr = Tr {
                op,
                slot: slot[t as usize],
                to: t,
                arg,
                set: 0,
                accepting: false,
                ends: false,
            };
            // Test pieces before entering the node of a shift into a
            // non-accepting state whose continuations are all piece
            // tests. With a single test reached from nowhere else the
            // shift state's node is skipped altogether (its slot dedups
            // the test's node equally well: the test keeps the vertex
            // and has no other predecessor); otherwise the node is
            // entered only where some test can pass (the union of the
            // sets).
            let nexts = &follow[t as usize];
            let all_tests = !nexts.is_empty() && nexts.iter().all(|&x| decode(x).0 == Op::On);
            if matches!(op, Op::Shift | Op::Multi) && all_tests && !accepting[t as usize] {
                tr.op = if op == Op::Shift {
                    Op::ShiftOn
                } else {
                    Op::MultiOn
                };
                match nexts[..] {
                    [only] if indegree[only as usize] == 1 => {
                        tr.to = only;
                        tr.set = decode(only).1;
                    }
                    _ if op == Op::Shift
                        && disjoint_sets(&b.on_sets, nexts.iter().map(|&x| decode(x).1), np) =>
                    {
                        // The piece at the target picks the one test
                        // that can pass: go straight to its node.
                        tr.op = Op::ShiftSwitch;
                        tr.set = switch_rows.len() as u32;
                        let mut row = vec![(NONE, NONE); np as usize];
                        for &x in nexts {
                            let set = decode(x).1;
                            for (p, cell) in row.iter_mut().enumerate() {
                                if b.on_sets[(set + p as u32) as usize] {
                                    *cell = (x, slot[x as usize]);
                                }
                            }
                        }
                        switch_rows.extend(row);
                    }
                    _ => {
                        tr.set = b.on_sets.len() as u32;
                        let mut row = vec![false; np as usize];
                        for &x in nexts {
                            let set = decode(x).1 as usize;
                            for (p, cell) in row.iter_mut().enumerate() {
                                *cell |= b.on_sets[set + p];
                            }
                        }
                        b.on_sets.extend(row);
                    }
                }
            }
            trans.push(tr);
        }
    }
    trans_off.push(trans.len() as u32);
    let ends: Vec<bool> = (0..n_states)
        .map(
            |q| match &trans[trans_off[q] as usize..trans_off[q + 1] as usize] {
                [only] => only.op == Op::Switch && only.slot == NONE,
                _ => false,
            },
        )
        .collect();
    for tr in trans.iter_mut() {
        tr.accepting = accepting[tr.to as usize];
        tr.ends = tr.op != Op::ShiftSwitch && ends[tr.to as usize];
    }
    Transitions {
        trans_off,
        trans,
        switch_rows,
        num_slots,
    }
}

/// Whether no piece is in two of the piece sets starting at `rows`.
fn disjoint_sets(on_sets: &[bool], rows: impl Iterator<Item = u32> + Clone, np: u32) -> bool {
    (0..np).all(|p| rows.clone().filter(|&r| on_sets[(r + p) as usize]).count() <= 1)
}

/// Assigns visited-set slots to the states that need one.
///
/// Within one level (fixed applied modifiers) a state is *visited once*
/// (at one vertex at most) if it is a root of the level (a start state, or a
/// modifier, whose entering begins a new level) or if its single predecessor
/// is visited once and its action is not a shift table. A state whose
/// single predecessor is visited once needs no slot: one node leads to
/// distinct nodes (a shift table lists distinct targets). Neither does a
/// state whose single incoming action maps distinct vertices to distinct
/// vertices (a vertex-keeping test or an injective shift). The others get a
/// slot, checked when the node is discovered.
fn visited_slots(
    follow: &[Vec<u32>],
    acts: &[Act],
    owner: &[u32],
    injective: &[bool],
    n_acts: usize,
) -> (Vec<u32>, u32) {
    let n = follow.len();
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (q, f) in follow.iter().enumerate() {
        for &t in f {
            preds[t as usize].push(q as u32);
        }
    }
    let root = |q: usize| q >= n_acts || acts[q].is_modifier();
    let mut once: Vec<bool> = (0..n).map(root).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for q in 0..n {
            if !once[q]
                && preds[q].len() == 1
                && once[preds[q][0] as usize]
                && !matches!(acts[q], Act::Multi(_))
            {
                once[q] = true;
                changed = true;
            }
        }
    }
    let mut slot = vec![NONE; n];
    let mut next = vec![0; n - n_acts];
    for q in 0..n_acts {
        let single_from_once = preds[q].len() == 1 && once[preds[q][0] as usize];
        let spreading = match acts[q] {
            Act::Shift(d) => !injective[d as usize],
            Act::Multi(_) => true,
            _ => false,
        };
        if !single_from_once && (preds[q].len() >= 2 || spreading) {
            let k = owner[q] as usize;
            slot[q] = next[k];
            next[k] += 1;
        }
    }
    (slot, next.into_iter().max().unwrap_or(0))
}
