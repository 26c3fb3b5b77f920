//! Which nodes need a visited check.
//!
//! The reference drops a walk state whose key (node, tags, user variables)
//! was already seen in the same enumeration. A node needs that check only if
//! some enumeration can reach it twice with one key.
//!
//! Each *region* — what one enumeration can visit: from a move root (`begin`
//! or the target of a `player` assignment) up to the `player` assignments,
//! or from a check's start following every edge — is analysed on its own,
//! and a node is checked when some region needs it. Within a region a node
//! entered by several edges (or a start with an edge back to it) is checked,
//! unless they come from branches no walk takes two of (`joins.rs`).
//! A node entered by one edge inherits from its source what the keys there
//! can differ in:
//!
//! - *single*: one visit per enumeration (the start, and what deterministic
//!   actions lead to from it);
//! - *unique* with a set `V` of user variables (and whether tags) in which
//!   the keys of its visits may differ; a checked node's keys may differ
//!   anywhere.
//!
//! An assignment to a user variable `w` keeps keys distinct when `w` is not
//! in `V` (the keys still differ where they did), also when the assigned
//! place was just compared equal to a constant (`board[p] == e` then
//! `board[p] = x`) and user variables the assignment cannot change choose
//! the place (they join `V`); otherwise the target is checked. An
//! any-assignment to a user variable from a single node gives distinct
//! keys, to a variable outside the key equal ones (the target is checked).
//! Tags and other actions keep keys distinct. `@unique` nodes are never
//! checked; their successors then are. Past a checked node, keys differ in
//! its key: the tags and the `@repeat` variables (or any), less `v` when
//! every edge into it is `$$ v` (equal tags then mean equal `v`).
//!
//! A checked node compares only the slots of the user variables that edges
//! of its regions write (as one range): the others keep the start's values
//! throughout an enumeration (nested checks undo their writes).

mod joins;

use rg_lang::checked::CheckedGame;

use crate::bits::{self, contains, intersects, is_empty, subset, with, without};
use crate::tables::{Access, Check, Edge, Guard, KeyStep, Op, Operand, Place, NO_SLOT};

/// What the keys of a node's visits in one enumeration can differ in.
#[derive(Clone, PartialEq, Eq, Debug)]
enum Status {
    /// Visited at most once.
    Single,
    /// Visited at most once per key; the keys may differ in their tags and
    /// in these user variables (a bit set; `None`: in any).
    Unique(Option<Vec<u64>>),
    /// Checked: visited at most once per key, keys may differ anywhere.
    Checked,
    /// `@unique` where a check would be needed: keys may repeat.
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
    /// Per edge (same layout): the user variable it assigns, if any.
    pub writes: &'a [Vec<Option<u32>>],
    /// The reachability checks.
    pub checks: &'a [Check],
    /// Per user slot, its variable.
    pub slot_var: &'a [u32],
    /// Per user variable, its slots.
    pub var_slots: &'a [(u32, u32)],
}

/// Edge visits the analysis may make in all (a fraction of a second).
const ANALYSIS_BUDGET: usize = 1 << 25;
/// Links the search for exclusive joins may look at in all; past it, the
/// nodes left are checked.
const JOIN_BUDGET: usize = 1 << 24;

/// What the keys of a node's visits in one enumeration (after its own
/// visited check) can differ in besides the tags, over every region.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Distinct {
    /// In these user variables (a bit set; empty: visited at most once per
    /// tag sequence, or never).
    Vars(Vec<u64>),
    /// In any user variable.
    Anywhere,
    /// Keys may repeat (`@unique`, or not analysed).
    Repeats,
}

impl Distinct {
    /// What two regions' facts allow together.
    fn join(&self, other: &Distinct) -> Distinct {
        match (self, other) {
            (Distinct::Repeats, _) | (_, Distinct::Repeats) => Distinct::Repeats,
            (Distinct::Anywhere, _) | (_, Distinct::Anywhere) => Distinct::Anywhere,
            (Distinct::Vars(a), Distinct::Vars(b)) => Distinct::Vars(bits::union(a, b)),
        }
    }
}

/// The analysis' results per node.
pub struct Guards {
    /// The visited check.
    pub guard: Vec<Guard>,
    /// What the keys of its visits differ in.
    pub distinct: Vec<Distinct>,
}

/// The visited check of every node (`@unique` nodes given by `unique`; the
/// user variables a `@repeat` node keys on, as a bit set, by `repeat`).
pub fn guards(facts: &EdgeFacts, unique: &[bool], repeat: &[Option<Vec<u64>>]) -> Guards {
    let n = facts.per_node.len();
    let mut roots: Vec<(u32, bool)> = vec![(CheckedGame::BEGIN.0, true)];
    let mut is_root = vec![false; n];
    is_root[CheckedGame::BEGIN.0 as usize] = true;
    for list in facts.per_node {
        for e in list {
            if matches!(e.op, Op::SetPlayer(_)) && !is_root[e.to as usize] {
                is_root[e.to as usize] = true;
                roots.push((e.to, true));
            }
        }
    }
    let mut check_start = vec![false; n];
    for c in facts.checks {
        if !check_start[c.start as usize] {
            check_start[c.start as usize] = true;
            roots.push((c.start, false));
        }
    }
    // Per node: whether it is checked, and the slots written in the
    // regions it is in (an empty range: none).
    let mut out = Out {
        guard: vec![false; n],
        distinct: vec![Distinct::Vars(Vec::new()); n],
    };
    let mut written = vec![(u32::MAX, 0u32); n];
    let mut region = Region::new(n);
    // Regions may overlap: past a budget of edge visits (a huge game with
    // many roots), every node but the `@unique` ones is checked.
    let mut budget = ANALYSIS_BUDGET;
    let mut join_budget = JOIN_BUDGET;
    for (root, moves) in roots {
        let budgets = (&mut budget, &mut join_budget);
        if !region.analyse(facts, unique, repeat, root, moves, &mut out, budgets) {
            let all = Guard::Full(0, facts.slot_var.len() as u32);
            return Guards {
                guard: unique
                    .iter()
                    .map(|&u| if u { Guard::None } else { all })
                    .collect(),
                distinct: vec![Distinct::Repeats; n],
            };
        }
        let (lo, hi) = region.written(facts);
        for &v in &region.nodes {
            let w = &mut written[v as usize];
            *w = (w.0.min(lo), w.1.max(hi));
        }
    }
    Guards {
        guard: out
            .guard
            .into_iter()
            .zip(written)
            .map(|(g, (lo, hi))| match g {
                true => Guard::Full(lo.min(hi), hi),
                false => Guard::None,
            })
            .collect(),
        distinct: out.distinct,
    }
}

/// What the regions' analyses gather per node.
struct Out {
    /// Checked in some region.
    guard: Vec<bool>,
    distinct: Vec<Distinct>,
}

/// Workspace of one region's analysis (reused between regions).
struct Region {
    /// Nodes of the region, in discovery order.
    nodes: Vec<u32>,
    member: Vec<bool>,
    /// Incoming edges within the region: count and the last as (source,
    /// edge index).
    incoming: Vec<(u32, (u32, usize))>,
    status: Vec<Option<Status>>,
    /// Per node, the slot `s` when every edge into it within the region is
    /// `$$ s` ([`NO_TAG`]: none yet, [`MIXED`]: not so).
    tag_in: Vec<u32>,
    /// Whether the region is a move walk's (it ends at `player` assignments).
    moves: bool,
    /// Per node, 1 + its index in `joins` (0: not an exclusive join).
    join: Vec<u32>,
    /// The region's exclusive joins (`joins.rs`).
    joins: Vec<joins::Join>,
}

/// No edge into the node yet (see [`Region::tag_in`]).
const NO_TAG: u32 = u32::MAX;
/// Edges into the node that are not all one `$$ s`.
const MIXED: u32 = u32::MAX - 1;

impl Region {
    fn new(n: usize) -> Region {
        Region {
            nodes: Vec::new(),
            member: vec![false; n],
            incoming: vec![(0, (0, 0)); n],
            status: vec![None; n],
            tag_in: vec![NO_TAG; n],
            moves: true,
            join: vec![0; n],
            joins: Vec::new(),
        }
    }

    /// Whether a walk of this region follows `e` (move walks end at `player`
    /// assignments).
    fn follows(moves: bool, e: &Edge) -> bool {
        !(moves && matches!(e.op, Op::SetPlayer(_)))
    }

    /// Analyses the region of `root`, marking the nodes it needs checked
    /// in `guard`; false when `budget` (edge visits) ran out.
    #[allow(clippy::too_many_arguments)]
    fn analyse(
        &mut self,
        facts: &EdgeFacts,
        unique: &[bool],
        repeat: &[Option<Vec<u64>>],
        root: u32,
        moves: bool,
        out: &mut Out,
        (budget, join_budget): (&mut usize, &mut usize),
    ) -> bool {
        for &v in &self.nodes {
            self.member[v as usize] = false;
            self.incoming[v as usize] = (0, (0, 0));
            self.status[v as usize] = None;
            self.tag_in[v as usize] = NO_TAG;
            self.join[v as usize] = 0;
        }
        self.nodes.clear();
        self.joins.clear();
        self.moves = moves;
        self.member[root as usize] = true;
        // A walk enters its start without a tag.
        self.tag_in[root as usize] = MIXED;
        self.nodes.push(root);
        let mut i = 0;
        while i < self.nodes.len() {
            let v = self.nodes[i];
            i += 1;
            let out = facts.per_node[v as usize].len() + 1;
            if *budget < out {
                return false;
            }
            *budget -= out;
            for (k, e) in facts.per_node[v as usize].iter().enumerate() {
                if !Region::follows(moves, e) {
                    continue;
                }
                let entry = &mut self.incoming[e.to as usize];
                entry.0 += 1;
                entry.1 = (v, k);
                let tag = &mut self.tag_in[e.to as usize];
                *tag = match e.op {
                    Op::TagVar(s) if *tag == NO_TAG || *tag == s => s,
                    _ => MIXED,
                };
                if !self.member[e.to as usize] {
                    self.member[e.to as usize] = true;
                    self.nodes.push(e.to);
                }
            }
        }
        self.find_joins(facts, root, join_budget);
        // Nodes whose status does not depend on a predecessor.
        let mut work: Vec<u32> = Vec::new();
        for i in 0..self.nodes.len() {
            let v = self.nodes[i];
            let count = self.incoming[v as usize].0 + (v == root) as u32;
            let status = match count {
                0 | 1 if v == root => Some(Status::Single),
                1 => None,
                _ if self.join[v as usize] != 0 => None,
                _ => Some(Status::Checked),
            };
            if let Some(s) = status {
                self.set(facts, v, s, unique, repeat, out);
                work.push(v);
            }
        }
        loop {
            // Propagate along single incoming edges, and into joins whose
            // edges in are all resolved.
            while let Some(p) = work.pop() {
                for (k, e) in facts.per_node[p as usize].iter().enumerate() {
                    let q = e.to;
                    if !Region::follows(moves, e) || self.status[q as usize].is_some() {
                        continue;
                    }
                    let s = match (self.incoming[q as usize].0, self.join[q as usize]) {
                        (1, _) => {
                            let from = self.status[p as usize].clone().expect("resolved");
                            self.step(facts, from, p, k, e)
                        }
                        (_, 0) => continue,
                        (_, j) => match self.join_status(facts, j as usize - 1) {
                            Some(s) => s,
                            None => continue,
                        },
                    };
                    self.set(facts, q, s, unique, repeat, out);
                    work.push(q);
                }
            }
            // A join still waiting is on a cycle through itself: checked.
            let waiting = self
                .nodes
                .iter()
                .copied()
                .find(|&v| self.join[v as usize] != 0 && self.status[v as usize].is_none());
            let Some(v) = waiting else { break };
            self.set(facts, v, Status::Checked, unique, repeat, out);
            work.push(v);
        }
        // (Every node of a region is resolved; should one not be, nothing
        // is assumed about its keys.)
        for &v in &self.nodes {
            if self.status[v as usize].is_none() {
                out.distinct[v as usize] = Distinct::Repeats;
            }
        }
        true
    }

    /// Finds the region's exclusive joins (`joins.rs`) among the nodes
    /// entered by several edges, while `budget` (links looked at) lasts.
    fn find_joins(&mut self, facts: &EdgeFacts, root: u32, budget: &mut usize) {
        let mut into: Vec<(u32, (u32, usize))> = Vec::new();
        for &v in &self.nodes {
            for (k, e) in facts.per_node[v as usize].iter().enumerate() {
                if Region::follows(self.moves, e)
                    && e.to != root
                    && self.incoming[e.to as usize].0 >= 2
                {
                    into.push((e.to, (v, k)));
                }
            }
        }
        into.sort_by_key(|&(to, _)| to);
        // Each node's edges in, the nodes in discovery order (inner joins
        // first, as a rule).
        let mut groups: Vec<&[(u32, (u32, usize))]> = Vec::new();
        for &v in &self.nodes {
            let lo = into.partition_point(|x| x.0 < v);
            let hi = into.partition_point(|x| x.0 <= v);
            if lo < hi {
                groups.push(&into[lo..hi]);
            }
        }
        let mut found = vec![false; groups.len()];
        let mut sources = Vec::new();
        // A join's chains may go through joins found later: again until
        // none is found.
        let mut more = true;
        while more {
            more = false;
            for (g, group) in groups.iter().enumerate() {
                if found[g] {
                    continue;
                }
                sources.clear();
                sources.extend(group.iter().map(|&(_, s)| s));
                let back = joins::Back {
                    incoming: &self.incoming,
                    root,
                    join_of: &self.join,
                    joins: &self.joins,
                };
                let mut work = 0;
                let join = back.find(facts, &sources, &mut work);
                if *budget < work {
                    return;
                }
                *budget -= work;
                if let Some(j) = join {
                    self.joins.push(j);
                    self.join[group[0].0 as usize] = self.joins.len() as u32;
                    found[g] = true;
                    more = true;
                }
            }
        }
    }

    /// The status of join `j` once the sources of its edges in are
    /// resolved (`None`: not yet): what each edge gives, joined, if every
    /// split keeps keys of different visits apart; checked otherwise.
    fn join_status(&self, facts: &EdgeFacts, j: usize) -> Option<Status> {
        let join = &self.joins[j];
        let mut s = Status::Single;
        for &(p, k) in &join.sources {
            let from = self.status[p as usize].clone()?;
            let e = &facts.per_node[p as usize][k];
            s = merge(s, self.step(facts, from, p, k, e));
        }
        // Two visits of a split node (single: never) whose keys differ
        // stay apart past it when the branches add no tag and write none
        // of the variables the keys differ in.
        for split in &join.splits {
            let apart = match self.status[split.node as usize].as_ref()? {
                Status::Single => true,
                Status::Unique(Some(vars)) => !split.tags && !intersects(&split.writes, vars),
                Status::Unique(None) => !split.tags && is_empty(&split.writes),
                Status::Checked | Status::Repeats => false,
            };
            if !apart {
                return Some(Status::Checked);
            }
        }
        Some(s)
    }

    /// The slots (a range) of the user variables the region's edges write;
    /// `(u32::MAX, 0)` when none.
    fn written(&self, facts: &EdgeFacts) -> (u32, u32) {
        let mut range = (u32::MAX, 0);
        for &v in &self.nodes {
            for (k, e) in facts.per_node[v as usize].iter().enumerate() {
                if let (true, Some(w)) =
                    (Region::follows(self.moves, e), facts.writes[v as usize][k])
                {
                    let (lo, hi) = facts.var_slots[w as usize];
                    range = (range.0.min(lo), range.1.max(hi));
                }
            }
        }
        range
    }

    /// Records `v`'s status; marks `v` checked where its keys may repeat:
    /// status `Checked`, or at a `@repeat` node (whose key is only its
    /// variables and the tags) keys that may differ outside its variables.
    fn set(
        &mut self,
        facts: &EdgeFacts,
        v: u32,
        s: Status,
        unique: &[bool],
        repeat: &[Option<Vec<u64>>],
        out: &mut Out,
    ) {
        let s = match s {
            Status::Checked if unique[v as usize] => Status::Repeats,
            s => s,
        };
        let distinct = match (&s, &repeat[v as usize]) {
            (Status::Checked, _) => false,
            (Status::Unique(Some(vars)), Some(keyed)) => subset(vars, keyed),
            (Status::Unique(None), Some(_)) => false,
            _ => true,
        };
        let checked = !distinct && !unique[v as usize];
        out.guard[v as usize] |= checked;
        let here = match (&s, &repeat[v as usize]) {
            (Status::Single, _) => Distinct::Vars(Vec::new()),
            (Status::Unique(Some(vars)), _) => Distinct::Vars(vars.clone()),
            (Status::Checked, Some(keyed)) if checked => Distinct::Vars(keyed.clone()),
            (Status::Repeats, _) => Distinct::Repeats,
            _ => Distinct::Anywhere,
        };
        out.distinct[v as usize] = out.distinct[v as usize].join(&here);
        // Past its check, a node's visits differ in their key: the tags and
        // the `@repeat` variables (or any), less `v` when every edge in is
        // `$$ v` (equal tags then mean equal `v`).
        let s = match s {
            Status::Checked | Status::Unique(_) if checked => {
                let tagged = match self.tag_in[v as usize] {
                    t if self.moves && (t as usize) < facts.slot_var.len() => {
                        Some(facts.slot_var[t as usize])
                    }
                    _ => None,
                };
                let all = || {
                    let mut all = Vec::new();
                    for w in 0..facts.var_slots.len() as u32 {
                        bits::insert(&mut all, w);
                    }
                    all
                };
                match (&repeat[v as usize], tagged) {
                    (Some(keyed), Some(w)) => Status::Unique(Some(without(keyed, w))),
                    (Some(keyed), None) => Status::Unique(Some(keyed.clone())),
                    (None, Some(w)) => Status::Unique(Some(without(&all(), w))),
                    (None, None) => Status::Unique(None),
                }
            }
            s => s,
        };
        self.status[v as usize] = Some(s);
    }

    /// The status of the target of edge `k` of `p`, given `p`'s.
    fn step(&self, facts: &EdgeFacts, from: Status, p: u32, k: usize, e: &Edge) -> Status {
        let any = matches!(e.op, Op::AssignAny(..));
        match (from, facts.writes[p as usize][k], e.op) {
            // `$$ v` in a move walk: keys that differed in v now differ in
            // their tags (a check's key has no tags).
            (Status::Unique(Some(vars)), _, Op::TagVar(s))
                if self.moves && (s as usize) < facts.slot_var.len() =>
            {
                Status::Unique(Some(without(&vars, facts.slot_var[s as usize])))
            }
            (from, w, _) => self.step_write(facts, from, w, p, e, any),
        }
    }

    /// [`Region::step`] for an edge other than a `$$` tag: what its write
    /// `w` (if any) does to the keys.
    fn step_write(
        &self,
        facts: &EdgeFacts,
        from: Status,
        w: Option<u32>,
        p: u32,
        e: &Edge,
        any: bool,
    ) -> Status {
        match (from, w) {
            (Status::Repeats, _) => Status::Checked,
            // Several successors with one key.
            (_, None) if any => Status::Checked,
            (Status::Single, Some(w)) if any => Status::Unique(Some(with(&[], w))),
            (Status::Single, _) => Status::Single,
            (Status::Checked, None) => Status::Unique(None),
            (Status::Unique(vars), None) => Status::Unique(vars),
            (Status::Checked | Status::Unique(None), Some(_)) => {
                match self.old_value_known(facts, p, &e.op) {
                    Some(_) => Status::Unique(None),
                    None => Status::Checked,
                }
            }
            (Status::Unique(Some(vars)), Some(w)) if !contains(&vars, w) => match any {
                true => Status::Unique(Some(with(&vars, w))),
                false => Status::Unique(Some(vars)),
            },
            (Status::Unique(Some(vars)), Some(_)) => match self.old_value_known(facts, p, &e.op) {
                // Keys that differed only in where they write now differ
                // in the variables that choose it.
                Some(index) => Status::Unique(Some(index.iter().fold(vars, |s, &v| with(&s, v)))),
                None => Status::Checked,
            },
        }
    }

    /// Whether `op`, leaving `p`, assigns a place whose value the only edge
    /// into `p` (not a start) just compared equal to a constant, with the
    /// slot chosen by user variables the assignment cannot change: then
    /// the assignment keeps distinct keys distinct. Gives those variables.
    fn old_value_known(&self, facts: &EdgeFacts, p: u32, op: &Op) -> Option<Vec<u32>> {
        let Op::Assign(place, _) = op else {
            return None;
        };
        let (1, (src, i)) = self.incoming[p as usize] else {
            return None;
        };
        if self.nodes.first() == Some(&p) {
            return None;
        }
        match facts.per_node[src as usize][i].op {
            Op::Cmp(a, Operand::Imm(_), true) | Op::Cmp(Operand::Imm(_), a, true)
                if facts.same_location(a, *place) =>
            {
                facts.index_vars(*place)
            }
            _ => None,
        }
    }
}

/// What the keys of visits through either of two edges into a join can
/// differ in, each edge's visits coming from different walks.
fn merge(a: Status, b: Status) -> Status {
    match (a, b) {
        (Status::Checked | Status::Repeats, _) | (_, Status::Checked | Status::Repeats) => {
            Status::Checked
        }
        (Status::Single, s) | (s, Status::Single) => s,
        (Status::Unique(None), _) | (_, Status::Unique(None)) => Status::Unique(None),
        (Status::Unique(Some(a)), Status::Unique(Some(b))) => {
            Status::Unique(Some(bits::union(&a, &b)))
        }
    }
}

impl EdgeFacts<'_> {
    /// The user variables that choose the slot `p` writes, if they are
    /// user slots that writing `p` cannot change.
    fn index_vars(&self, p: Place) -> Option<Vec<u32>> {
        let user = |s: u32| (s as usize) < self.slot_var.len();
        match p {
            Place::Slot(_) => Some(Vec::new()),
            Place::Ind(k, t) => {
                let t = t as usize;
                let stable = user(k) && (0..self.symbols).all(|x| self.fun[t + x] != k);
                stable.then(|| vec![self.slot_var[k as usize]])
            }
            Place::Gen(j) => {
                let a = &self.reads[j as usize];
                let steps = &self.steps[a.steps.0 as usize..(a.steps.0 + a.steps.1) as usize];
                let span: u32 = steps.iter().map(|s| s.limit as u32 * s.stride).sum();
                let mut vars = Vec::new();
                for s in steps {
                    match s.key {
                        Operand::Imm(_) => {}
                        Operand::Slot(k) | Operand::Tab(k, _)
                            if user(k) && !(a.base..=a.base + span).contains(&k) =>
                        {
                            vars.push(self.slot_var[k as usize]);
                        }
                        _ => return None,
                    }
                }
                Some(vars)
            }
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
            (Operand::Read(i), Place::Gen(j)) => self.same_access(i, j),
            _ => false,
        }
    }

    /// Whether computed reads `i` and `j` ([`EdgeFacts::reads`]) are one.
    fn same_access(&self, i: u32, j: u32) -> bool {
        let (Some(a), Some(b)) = (self.reads.get(i as usize), self.reads.get(j as usize)) else {
            return false;
        };
        let steps = |x: &Access| &self.steps[x.steps.0 as usize..(x.steps.0 + x.steps.1) as usize];
        a.mem == b.mem
            && a.base == b.base
            && steps(a).len() == steps(b).len()
            && steps(a)
                .iter()
                .zip(steps(b))
                .all(|(x, y)| x.key == y.key && x.table == y.table && x.stride == y.stride)
    }
}
