//! Which nodes need a visited check.
//!
//! The reference drops a walk state whose key (node, tags, user variables)
//! was already seen in the same enumeration. A node needs that check only if
//! one enumeration can reach it twice with one key. It cannot when
//!
//! - it is entered by a single edge (or is only ever a walk's start: then it
//!   is visited once per enumeration — *single*), and
//! - the edge comes from a node visited at most once per key (*unique*: a
//!   checked node, or one this rule applies to) by an action that is
//!   injective on keys (anything but an assignment to a user variable), or
//!   from a *single* node by any action (an any-assignment to a user
//!   variable then gives distinct keys; to another variable, equal ones).
//!
//! Starts are `begin`, targets of `player` assignments and check starts. In
//! checks `player` assignments are ordinary edges, so they count as incoming
//! edges of nodes reachable from a check start. `@unique` nodes are never
//! checked; their successors are then checked as if they could repeat.

use rg_lang::checked::CheckedGame;

use crate::tables::{Access, Check, Edge, Guard, KeyStep, Op, Operand, Place, NO_SLOT};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Status {
    /// Visited at most once per enumeration.
    Single,
    /// Visited at most once per key.
    Unique,
    /// Checked (so visited at most once per key).
    Checked,
    /// `@unique` where a check would be needed: may repeat keys.
    Repeats,
}

/// Facts about the lowered edges the analysis needs.
pub struct EdgeFacts<'a> {
    /// Tables of one-slot reads and places.
    pub fun: &'a [u32],
    /// Computed reads and places.
    pub reads: &'a [Access],
    /// Their key steps.
    pub steps: &'a [KeyStep],
    /// Number of symbols (the length of each table in `fun`).
    pub symbols: usize,
    /// Edges per source node.
    pub per_node: &'a [Vec<Edge>],
    /// Per edge (same layout): whether it assigns a user variable (the key).
    pub writes_key: &'a [Vec<bool>],
    /// The reachability checks.
    pub checks: &'a [Check],
}

/// The visited check of every node (`@unique` nodes given by `unique`).
pub fn guards(facts: &EdgeFacts, unique: &[bool]) -> Vec<Guard> {
    let n = facts.per_node.len();
    // Nodes a check walk can visit.
    let mut in_check = vec![false; n];
    let mut stack: Vec<u32> = facts.checks.iter().map(|c| c.start).collect();
    for &s in &stack {
        in_check[s as usize] = true;
    }
    while let Some(v) = stack.pop() {
        for e in &facts.per_node[v as usize] {
            if !in_check[e.to as usize] {
                in_check[e.to as usize] = true;
                stack.push(e.to);
            }
        }
    }
    let mut is_start = vec![false; n];
    is_start[CheckedGame::BEGIN.0 as usize] = true;
    for c in facts.checks {
        is_start[c.start as usize] = true;
    }
    // Incoming walk edges: (count, the last one as (source, edge index)).
    let mut incoming: Vec<(u32, Option<(u32, usize)>)> = vec![(0, None); n];
    for (from, list) in facts.per_node.iter().enumerate() {
        for (i, e) in list.iter().enumerate() {
            if matches!(e.op, Op::SetPlayer(_)) {
                is_start[e.to as usize] = true;
                if !in_check[from] {
                    continue;
                }
            }
            let entry = &mut incoming[e.to as usize];
            entry.0 += 1;
            entry.1 = Some((from as u32, i));
        }
    }
    let mut status: Vec<Option<Status>> = vec![None; n];
    let mut on_chain = vec![false; n];
    for root in 0..n {
        // Follow single incoming edges back to a node whose status is known
        // or basic, then resolve the chain forwards.
        let mut chain: Vec<usize> = Vec::new();
        let mut q = root;
        let base = loop {
            if let Some(s) = status[q] {
                break s;
            }
            let (count, last) = incoming[q];
            let total = count + is_start[q] as u32;
            if total != 1 || is_start[q] || on_chain[q] {
                let s = if total >= 2 || on_chain[q] {
                    Status::Checked
                } else {
                    Status::Single
                };
                let s = adjust(s, unique[q]);
                status[q] = Some(s);
                break s;
            }
            chain.push(q);
            on_chain[q] = true;
            q = last.expect("one incoming edge").0 as usize;
        };
        let mut prev = base;
        while let Some(q) = chain.pop() {
            on_chain[q] = false;
            if let Some(s) = status[q] {
                // A node of a cycle, checked above.
                prev = s;
                continue;
            }
            let (from, i) = incoming[q].1.expect("one incoming edge");
            let op = &facts.per_node[from as usize][i].op;
            let key = facts.writes_key[from as usize][i]
                && !facts.old_value_known(from as usize, op, &incoming, &is_start);
            let s = match prev {
                Status::Single if matches!(op, Op::AssignAny(..)) && !key => Status::Checked,
                Status::Single if matches!(op, Op::AssignAny(..)) => Status::Unique,
                Status::Single => Status::Single,
                Status::Unique | Status::Checked if !key => Status::Unique,
                _ => Status::Checked,
            };
            let s = adjust(s, unique[q]);
            status[q] = Some(s);
            prev = s;
        }
    }
    status
        .into_iter()
        .map(|s| match s {
            Some(Status::Checked) => Guard::Full,
            _ => Guard::None,
        })
        .collect()
}

impl EdgeFacts<'_> {
    /// Whether `op`, leaving node `from`, assigns a place whose value the only
    /// edge into `from` just compared equal to a constant (`board[p] == e`
    /// then `board[p] = x`): then the assignment is injective on keys.
    fn old_value_known(
        &self,
        from: usize,
        op: &Op,
        incoming: &[(u32, Option<(u32, usize)>)],
        is_start: &[bool],
    ) -> bool {
        let Op::Assign(place, _) = op else {
            return false;
        };
        let (1, Some((p, i))) = incoming[from] else {
            return false;
        };
        if is_start[from] {
            return false;
        }
        match self.per_node[p as usize][i].op {
            Op::Cmp(a, Operand::Imm(_), true) | Op::Cmp(Operand::Imm(_), a, true) => {
                self.same_location(a, *place)
            }
            _ => false,
        }
    }

    /// Whether reading `a` reads the slot that assigning `p` writes.
    fn same_location(&self, a: Operand, p: Place) -> bool {
        match (a, p) {
            (Operand::Slot(x), Place::Slot(y)) => x == y,
            (Operand::Ind(k1, t1), Place::Ind(k2, t2)) => {
                let (t1, t2) = (t1 as usize, t2 as usize);
                k1 == k2
                    && (0..self.symbols).all(|x| {
                        self.fun[t2 + x] == NO_SLOT || self.fun[t1 + x] == self.fun[t2 + x]
                    })
            }
            (Operand::Read(i), Place::Gen(j)) => {
                let (a, b) = (&self.reads[i as usize], &self.reads[j as usize]);
                let steps =
                    |x: &Access| &self.steps[x.steps.0 as usize..(x.steps.0 + x.steps.1) as usize];
                a.mem == b.mem
                    && a.base == b.base
                    && steps(a).len() == steps(b).len()
                    && steps(a)
                        .iter()
                        .zip(steps(b))
                        .all(|(x, y)| x.key == y.key && x.table == y.table && x.stride == y.stride)
            }
            _ => false,
        }
    }
}

/// `@unique` turns a needed check into a node that may repeat keys.
fn adjust(s: Status, unique: bool) -> Status {
    if unique && s == Status::Checked {
        Status::Repeats
    } else {
        s
    }
}
