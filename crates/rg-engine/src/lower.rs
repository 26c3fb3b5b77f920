//! Lowering a [`CheckedGame`] to [`Tables`]: slot layout of the variables and
//! constants, expressions to operands (constant parts folded), edges grouped
//! by node, pragmas, visited guards (`analysis.rs`).

use std::collections::HashMap;

use rg_lang::ast::Pragma;
use rg_lang::checked::{CExpr, CLabel, CheckedGame};
use rg_lang::types::Ty;

use crate::layout::{Layouts, MAX_SLOTS};
use crate::maps::{self, MapPlan};
use crate::tables::{
    Access, Act, Check, Edge, Fast, Guard, KeyStep, MapRef, Mem, Next, NodeInfo, Op, Operand,
    Place, Probe, Tables, NO_DENSE, NO_EDGE, NO_NODE, NO_SLOT, NO_SWITCH,
};
use crate::LoadError;
use crate::{analysis, bits, cycles, local, mirror, program, shortcut, switch};

struct Lowerer<'a> {
    g: &'a CheckedGame,
    layouts: Layouts<'a>,
    var_offsets: Vec<u32>,
    const_offsets: Vec<u32>,
    consts: Vec<u16>,
    reads: Vec<Access>,
    steps: Vec<KeyStep>,
    fun: Vec<u32>,
    fun_index: HashMap<Vec<u32>, u32>,
    fast: Vec<Fast>,
    /// Every symbol in order: the keys of a table indexed by a symbol.
    symbols: Vec<u32>,
}

/// Lowers a checked game; with `check_all`, every node (but `@unique` ones)
/// gets a visited check, as in the reference, and the walk takes none of the
/// shortcuts of `shortcut.rs` (for testing the analysis and the shortcuts).
pub fn lower(g: &CheckedGame, check_all: bool) -> Result<Tables, LoadError> {
    if g.symbols.len() >= u16::MAX as usize {
        return Err(LoadError(format!(
            "the game has {} symbols; at most {} are supported",
            g.symbols.len(),
            u16::MAX - 1
        )));
    }
    let mut l = Lowerer {
        g,
        layouts: Layouts::new(&g.types, g.symbols.len()),
        var_offsets: Vec::new(),
        const_offsets: Vec::new(),
        consts: Vec::new(),
        reads: Vec::new(),
        steps: Vec::new(),
        fun: Vec::new(),
        fun_index: HashMap::new(),
        fast: Vec::new(),
        symbols: (0..g.symbols.len() as u32).collect(),
    };
    let mut total = 0usize;
    for c in &g.constants {
        l.const_offsets.push(total as u32);
        total += l.layouts.size(c.ty)?;
        if total > MAX_SLOTS {
            return Err(LoadError(format!(
                "the constants need more than {MAX_SLOTS} slots"
            )));
        }
    }
    l.consts = vec![0; total];
    for (i, c) in g.constants.iter().enumerate() {
        let mut mem = std::mem::take(&mut l.consts);
        l.layouts
            .store(&c.value, c.ty, &mut mem, l.const_offsets[i] as usize)?;
        l.consts = mem;
    }
    let mut total = 0usize;
    let mut user_slots = 0;
    for (i, v) in g.variables.iter().enumerate() {
        if i == g.user_variables() {
            user_slots = total;
        }
        l.var_offsets.push(total as u32);
        total += l.layouts.size(v.ty)?;
        if total > MAX_SLOTS {
            return Err(LoadError(format!(
                "the variables need more than {MAX_SLOTS} slots"
            )));
        }
    }
    let mut initial = vec![0; total];
    for (i, v) in g.variables.iter().enumerate() {
        l.layouts
            .store(&v.value, v.ty, &mut initial, l.var_offsets[i] as usize)?;
    }

    let mut checks: Vec<Check> = Vec::new();
    let mut check_ids: HashMap<Check, u32> = HashMap::new();
    let mut any_syms: Vec<u16> = Vec::new();
    let mut map_pairs: Vec<(MapRef, MapRef)> = Vec::new();
    let mut map_plans: Vec<MapPlan> = Vec::new();
    let mut per_node: Vec<Vec<Edge>> = vec![Vec::new(); g.nodes.len()];
    let mut writes: Vec<Vec<Option<u32>>> = vec![Vec::new(); g.nodes.len()];
    for e in &g.edges {
        let written = match &e.label {
            CLabel::Assign(t, _) | CLabel::AssignAny(t, _) => t
                .root_var()
                .filter(|&v| v < g.user_variables())
                .map(|v| v as u32),
            _ => None,
        };
        writes[e.from.0 as usize].push(written);
        let op = match &e.label {
            CLabel::Skip => Op::Skip,
            CLabel::Tag(s) => Op::Tag(s.0 as u16),
            CLabel::TagVariable(v) => Op::TagVar(l.var_offsets[*v]),
            CLabel::Assign(CExpr::Var(v), value) if *v == g.player => {
                Op::SetPlayer(l.operand(value)?)
            }
            CLabel::Assign(target, value) => {
                if l.is_map(target) {
                    let pair = (l.map_ref(target)?, l.map_ref(value)?);
                    map_plans.push(maps::plan(&mut l.layouts, pair.0.ty, pair.1.ty, false)?);
                    map_pairs.push(pair);
                    Op::AssignMap(map_pairs.len() as u32 - 1)
                } else {
                    Op::Assign(l.place(target)?, l.operand(value)?)
                }
            }
            CLabel::AssignAny(target, syms) => {
                let start = any_syms.len() as u32;
                any_syms.extend(syms.iter().map(|s| s.0 as u16));
                Op::AssignAny(l.place(target)?, (start, syms.len() as u32))
            }
            CLabel::Compare(a, b, eq) => {
                if l.is_map(a) || l.is_map(b) {
                    let pair = (l.map_ref(a)?, l.map_ref(b)?);
                    map_plans.push(maps::plan(&mut l.layouts, pair.0.ty, pair.1.ty, true)?);
                    map_pairs.push(pair);
                    Op::CmpMap(map_pairs.len() as u32 - 1, *eq)
                } else {
                    Op::Cmp(l.operand(a)?, l.operand(b)?, *eq)
                }
            }
            CLabel::Reach(positive, a, b) => {
                let c = Check {
                    start: a.0,
                    target: b.0,
                };
                let id = *check_ids.entry(c).or_insert_with(|| {
                    checks.push(c);
                    checks.len() as u32 - 1
                });
                Op::Reach(id, *positive)
            }
        };
        per_node[e.from.0 as usize].push(Edge {
            op,
            to: e.to.0,
            guard: false,
            next: Next::Dead,
            filter: NO_EDGE,
            cyclic: NO_EDGE,
        });
    }
    let mut edges = Vec::with_capacity(g.edges.len());
    let mut nodes = Vec::with_capacity(g.nodes.len());
    for list in &per_node {
        let first = edges.len() as u32;
        edges.extend_from_slice(list);
        nodes.push(NodeInfo {
            first,
            end: edges.len() as u32,
            guard: Guard::None,
            disjoint: false,
            dense: NO_DENSE,
            untagged: false,
            local: NO_DENSE,
            local_slot: NO_SLOT,
            relay: false,
            switch: NO_SWITCH,
        });
    }
    let mut unique = vec![false; nodes.len()];
    let mut repeat: Vec<Option<Vec<u32>>> = vec![None; nodes.len()];
    for p in &g.pragmas {
        match p {
            Pragma::Disjoint { node, targets, .. } => {
                if let Some(n) = g.node(&node.text) {
                    let info = &mut nodes[n.0 as usize];
                    if (info.end - info.first) as usize == targets.len() {
                        info.disjoint = true;
                    }
                }
            }
            Pragma::Unique(list) => {
                for n in list.iter().filter_map(|n| g.node(&n.text)) {
                    unique[n.0 as usize] = true;
                }
            }
            Pragma::Repeat {
                nodes: list,
                variables,
            } => {
                let mut slots = Vec::new();
                for v in variables.iter().filter_map(|v| g.variable(&v.text)) {
                    if v < g.user_variables() {
                        let size = l.layouts.size(g.variables[v].ty)? as u32;
                        let base = l.var_offsets[v];
                        slots.extend(base..base + size);
                    }
                }
                for n in list.iter().filter_map(|n| g.node(&n.text)) {
                    repeat[n.0 as usize] = Some(slots.clone());
                }
            }
            _ => {}
        }
    }
    let mut slot_var = vec![0u32; user_slots];
    let mut var_slots = Vec::new();
    for v in 0..g.user_variables() {
        let end = l.var_offsets.get(v + 1).map_or(user_slots, |&o| o as usize);
        slot_var[l.var_offsets[v] as usize..end].fill(v as u32);
        var_slots.push((l.var_offsets[v], end as u32));
    }
    let facts = analysis::EdgeFacts {
        fun: &l.fun,
        reads: &l.reads,
        steps: &l.steps,
        symbols: g.symbols.len(),
        per_node: &per_node,
        writes: &writes,
        checks: &checks,
        slot_var: &slot_var,
        var_slots: &var_slots,
    };
    // Each `@repeat` node's key variables, as a bit set.
    let repeat_vars: Vec<Option<Vec<u64>>> = repeat
        .iter()
        .map(|slots| {
            slots.as_ref().map(|slots| {
                let mut set = vec![0u64; g.user_variables().div_ceil(64)];
                for &s in slots {
                    bits::insert(&mut set, slot_var[s as usize]);
                }
                set
            })
        })
        .collect();
    let analysis::Guards {
        guard: mut guards,
        distinct,
    } = analysis::guards(&facts, &unique, &repeat_vars);
    if check_all {
        for (guard, &u) in guards.iter_mut().zip(&unique) {
            if !u {
                *guard = Guard::Full(0, user_slots as u32);
            }
        }
    }
    let mut repeat_slots = Vec::new();
    for (i, guard) in guards.into_iter().enumerate() {
        nodes[i].guard = match &repeat[i] {
            // A `@repeat` node whose keys cannot repeat needs no check.
            Some(slots) if !unique[i] && guard != Guard::None => {
                repeat_slots.push(slots.clone());
                Guard::Repeat(repeat_slots.len() as u32 - 1)
            }
            _ => guard,
        };
    }
    untagged(&mut nodes, &edges);
    // One-slot keys (of checks, and of moves at untagged nodes) get dense
    // visited sets, up to 2^20 stamps.
    let mut dense_size = 0u32;
    for n in nodes.iter_mut() {
        let one_slot = match n.guard {
            Guard::Full(lo, hi) => hi == lo + 1,
            Guard::Repeat(i) => repeat_slots[i as usize].len() == 1,
            Guard::None => false,
        };
        let symbols = g.symbols.len() as u32;
        if !check_all && one_slot && dense_size + symbols <= 1 << 20 {
            n.dense = dense_size;
            dense_size += symbols;
        }
    }
    bypass_skips(&nodes, &mut edges, &checks);
    for i in 0..edges.len() {
        let to = &nodes[edges[i].to as usize];
        edges[i].guard = to.guard != Guard::None;
        edges[i].next = match to.end - to.first {
            0 => Next::Dead,
            1 if !to.disjoint && !matches!(edges[to.first as usize].op, Op::AssignAny(..)) => {
                Next::Inline(to.first)
            }
            _ => Next::Frame,
        };
    }
    let local_size = match check_all {
        true => 0,
        false => {
            let writes: Vec<Option<u32>> = writes.iter().flatten().copied().collect();
            let facts = local::LocalFacts {
                writes: &writes,
                var_slots: &var_slots,
                slot_var: &slot_var,
                distinct: &distinct,
                repeat: &repeat_vars,
                checks: &checks,
                symbols: g.symbols.len() as u32,
            };
            local::local_checks(&mut nodes, &edges, &facts)
        }
    };
    let pure = if check_all {
        vec![false; checks.len()]
    } else {
        shortcut::pure_checks(&nodes, &edges, &checks)
    };
    let (one_slot, slot_index, slot_nodes) = if check_all {
        (vec![NO_SLOT; checks.len()], Vec::new(), 0)
    } else {
        shortcut::one_slot_checks(&nodes, &edges, &checks, &pure, &repeat_slots, user_slots)
    };
    if !check_all {
        shortcut::set_filters(&mut edges);
    }
    let mut probe_conds = Vec::new();
    let probes: Vec<_> = checks
        .iter()
        .map(|c| probe(&nodes, &edges, *c, &mut probe_conds))
        .collect();
    let (lazy, speculated) = if check_all {
        (vec![NO_NODE; nodes.len()], vec![NO_NODE; checks.len()])
    } else {
        let disjoint: Vec<bool> = nodes.iter().map(|n| n.disjoint).collect();
        // Unchecked `@repeat` nodes merge no visits (the analysis proved
        // their keys distinct, e.g. by the tags).
        let checked: Vec<bool> = nodes.iter().map(|n| n.guard != Guard::None).collect();
        let m = mirror::mirrors(g, &disjoint, &repeat_vars, &checked);
        let speculated = checks
            .iter()
            .map(|c| {
                m.speculated
                    .get(&(c.start, c.target))
                    .copied()
                    .unwrap_or(NO_NODE)
            })
            .collect();
        (m.lazy, speculated)
    };
    let mut cyclic = Vec::new();
    if !check_all {
        let mut root = vec![false; nodes.len()];
        root[CheckedGame::BEGIN.0 as usize] = true;
        for e in &edges {
            if matches!(e.op, Op::SetPlayer(_)) {
                root[e.to as usize] = true;
            }
        }
        for c in &checks {
            root[c.start as usize] = true;
        }
        for &b in &lazy {
            if b != NO_NODE {
                root[b as usize] = true;
            }
        }
        let facts = cycles::RayFacts {
            distinct: &distinct,
            root: &root,
            user_slots,
            symbols: g.symbols.len(),
        };
        cycles::rays(&nodes, &mut edges, &facts, &mut l.fun, &mut cyclic);
    }
    let player_slot = l.var_offsets[g.player];
    let mut program = Vec::new();
    let programs = if check_all {
        vec![None; checks.len()]
    } else {
        let skip: Vec<bool> = probes.iter().map(Option::is_some).collect();
        program::programs(
            &nodes,
            &edges,
            &checks,
            &pure,
            &skip,
            player_slot,
            &mut program,
        )
    };
    let goal_slots = l.player_slots(g.goals)?;
    let visible = l.player_slots(g.visible)?;
    let visible_one = g.symbols.get("1").map_or(u16::MAX, |s| s.0 as u16);
    let changes_visible = g.edges.iter().any(|e| match &e.label {
        CLabel::Assign(t, _) | CLabel::AssignAny(t, _) => t.root_var() == Some(g.visible),
        _ => false,
    });
    let visible_slots =
        if changes_visible || visible.iter().any(|&s| initial[s as usize] != visible_one) {
            if g.players.len() > 64 {
                return Err(LoadError(format!(
                    "hidden information with {} players; at most 64 are supported",
                    g.players.len()
                )));
            }
            Some(visible)
        } else {
            None
        };
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let hash_mul: Vec<u64> = (0..initial.len())
        .map(|i| {
            if i < user_slots {
                splitmix(&mut seed) | 1
            } else {
                0
            }
        })
        .collect();
    let mut acts: Vec<Act> = edges.iter().map(|e| act(&e.op, &l.fast)).collect();
    let (switches, switch_ranges) = match check_all {
        true => (Vec::new(), Vec::new()),
        false => {
            shortcut::set_any_tests(&nodes, &edges, &mut acts);
            switch::switches(&mut nodes, &edges, &l.fast, &l.fun, g.symbols.len())
        }
    };
    // A local check's stamp has no tags (its node is not a walk's root, or
    // the root's tags are empty); at an untagged node they are empty.
    let tags_read = nodes
        .iter()
        .any(|n| n.guard != Guard::None && n.local == NO_DENSE && !n.untagged);
    let cmp_only = shortcut::cmp_only(&nodes, &edges);
    let has_unique = unique.iter().any(|&u| u) && cycles::inline_cycle(&edges);
    // Every node a root: the walks of `Walker::moves` start at any node.
    let few_tags = cycles::few_tags(&nodes, &edges, &vec![true; nodes.len()]);
    let code = crate::sealed::Sealed::new(
        crate::code::lower(&edges, &l.fast, has_unique)?,
        (&edges, &acts),
        &l.fun,
        &hash_mul,
        initial.len(),
        g.symbols.len() as u32,
    )?;
    Ok(Tables {
        code,
        cmp_only,
        nodes,
        edges,
        acts,
        reads: l.reads,
        fun: l.fun,
        fast: l.fast,
        steps: l.steps,
        map_pairs,
        map_plans,
        any_syms,
        checks,
        probes,
        pure,
        one_slot,
        slot_index,
        slot_nodes,
        symbols: g.symbols.len() as u32,
        probe_conds,
        lazy,
        speculated,
        switches,
        switch_ranges,
        programs,
        program,
        dense_size,
        local_size,
        cyclic,
        has_unique,
        tags_read,
        few_tags,
        repeat_slots,
        keys: std::mem::take(&mut l.layouts.keys),
        consts: l.consts,
        initial,
        user_slots,
        hash_mul,
        player_slot,
        goal_slots,
        visible_slots,
        visible_one,
    })
}

/// Action `op` as the interpreter runs it (`fast`: how computed reads are
/// evaluated).
fn act(op: &Op, fast: &[Fast]) -> Act {
    match *op {
        Op::Cmp(a, b, eq) => match (a, b) {
            (Operand::Ind(slot, table), Operand::Imm(value))
            | (Operand::Imm(value), Operand::Ind(slot, table)) => Act::CmpInd {
                slot,
                table,
                value,
                eq,
            },
            (Operand::Tab(slot, table), Operand::Imm(value))
            | (Operand::Imm(value), Operand::Tab(slot, table)) => Act::CmpTab {
                slot,
                table,
                value,
                eq,
            },
            (Operand::Read(i), Operand::Imm(value)) | (Operand::Imm(value), Operand::Read(i)) => {
                match fast[i as usize] {
                    Fast::TabInd(slot, inner, outer) => Act::CmpTabInd {
                        slot,
                        inner,
                        outer,
                        value,
                        eq,
                    },
                    _ => Act::Other,
                }
            }
            _ => Act::Other,
        },
        Op::Assign(Place::Slot(to), Operand::Tab(slot, table)) => Act::SetTab { to, slot, table },
        Op::Assign(Place::Ind(slot, table), Operand::Imm(value)) => {
            Act::SetIndImm { slot, table, value }
        }
        _ => Act::Other,
    }
}

/// Marks the nodes move walks reach only without tags: those no tag edge
/// leads to (through edges other than `player` assignments, where a walk
/// ends).
fn untagged(nodes: &mut [NodeInfo], edges: &[Edge]) {
    let is_tag = |e: &&Edge| matches!(e.op, Op::Tag(_) | Op::TagVar(_));
    let mut tagged = vec![false; nodes.len()];
    let mut stack: Vec<u32> = edges.iter().filter(is_tag).map(|e| e.to).collect();
    while let Some(n) = stack.pop() {
        if std::mem::replace(&mut tagged[n as usize], true) {
            continue;
        }
        let info = nodes[n as usize];
        for e in &edges[info.first as usize..info.end as usize] {
            if !matches!(e.op, Op::SetPlayer(_)) && !tagged[e.to as usize] {
                stack.push(e.to);
            }
        }
    }
    for (info, tagged) in nodes.iter_mut().zip(tagged) {
        info.untagged = !tagged;
    }
}

/// Edges into a node whose only edge is a no-op (and that has no visited
/// check, is no check's target and no `@disjoint` node) go on to that
/// no-op's target directly: the walk never stops there anyway. `player`
/// assignments keep their targets (where a play rests matters).
fn bypass_skips(nodes: &[NodeInfo], edges: &mut [Edge], checks: &[Check]) {
    let mut target = vec![false; nodes.len()];
    for c in checks {
        target[c.target as usize] = true;
    }
    let skip_next: Vec<Option<u32>> = (0..nodes.len())
        .map(|n| {
            let info = &nodes[n];
            let single = info.end == info.first + 1 && !info.disjoint && info.guard == Guard::None;
            (single && !target[n] && matches!(edges[info.first as usize].op, Op::Skip))
                .then(|| edges[info.first as usize].to)
        })
        .collect();
    // Per node, where an edge into it really goes: past its chain of no-ops
    // (each chain followed once). Chains into a cycle of no-ops are left
    // alone (such a walk ends at a visited check or the step limit).
    const UNKNOWN: u32 = u32::MAX;
    let mut end = vec![UNKNOWN; nodes.len()];
    let mut on_path = vec![false; nodes.len()];
    let mut path: Vec<u32> = Vec::new();
    for s in 0..nodes.len() as u32 {
        let mut v = s;
        let last = loop {
            if end[v as usize] != UNKNOWN {
                break Some(end[v as usize]);
            }
            on_path[v as usize] = true;
            path.push(v);
            match skip_next[v as usize] {
                Some(m) if on_path[m as usize] => break None,
                Some(m) => v = m,
                None => break Some(v),
            }
        };
        for p in path.drain(..) {
            on_path[p as usize] = false;
            end[p as usize] = last.unwrap_or(p);
        }
    }
    for e in edges.iter_mut() {
        if !matches!(e.op, Op::SetPlayer(_)) {
            e.to = end[e.to as usize];
        }
    }
}

/// The probe of check `c`, if its automaton has the shape [`Probe`] needs
/// (a path of single edges, not `@disjoint`, from the start to the target)
/// and no node between has a visited check: where one has (after
/// `goals[p] = Score(*)`, whose symbols give one key), the walk drops the
/// later symbols' states, so the check can be false although a symbol
/// passes (`rg-language.md` §7.7; `program.rs` decides those).
fn probe(
    nodes: &[NodeInfo],
    edges: &[Edge],
    c: Check,
    conds: &mut Vec<(Operand, Operand, bool)>,
) -> Option<Probe> {
    let single = |n: u32| -> Option<&Edge> {
        let info = &nodes[n as usize];
        (info.end == info.first + 1 && !info.disjoint).then(|| &edges[info.first as usize])
    };
    if c.start == c.target {
        return None;
    }
    let start = conds.len();
    let mut node = c.start;
    let mut any = None;
    let mut steps = 0;
    loop {
        let e = single(node)?;
        match e.op {
            Op::AssignAny(Place::Slot(slot), syms) if node == c.start => any = Some((slot, syms)),
            Op::Cmp(a, b, eq) => conds.push((a, b, eq)),
            Op::Skip => {}
            _ => {
                conds.truncate(start);
                return None;
            }
        }
        node = e.to;
        steps += 1;
        if node == c.target {
            break;
        }
        if nodes[node as usize].guard != Guard::None {
            conds.truncate(start);
            return None;
        }
        if node == c.start || steps > nodes.len() {
            conds.truncate(start);
            return None;
        }
    }
    Some(Probe {
        any,
        conds: (start as u32, (conds.len() - start) as u32),
    })
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Lowerer<'_> {
    /// The storage type of an expression: the declared type of its root
    /// followed through the accesses (casts are gone); `None` for a symbol.
    fn storage(&self, e: &CExpr) -> Option<Ty> {
        match e {
            CExpr::Const(c) => Some(self.g.constants[*c].ty),
            CExpr::Var(v) => Some(self.g.variables[*v].ty),
            CExpr::Sym(_) => None,
            CExpr::Access(m, _) => self.layouts.arrow(self.storage(m)?).map(|(_, b)| b),
        }
    }

    fn is_map(&self, e: &CExpr) -> bool {
        self.storage(e)
            .is_some_and(|t| self.layouts.arrow(t).is_some())
    }

    /// Per player, the slot of its entry in the map variable `var` (`goals`,
    /// `visible`); the default entry for a player outside the map's keys.
    fn player_slots(&mut self, var: usize) -> Result<Vec<u32>, LoadError> {
        let ty = self.g.variables[var].ty;
        let Some((keys, target)) = self.layouts.arrow(ty) else {
            return Err(LoadError(format!(
                "`{}` is not a map",
                self.g.variables[var].name
            )));
        };
        let step = self.layouts.size(target)? as u32;
        Ok(self
            .g
            .players
            .iter()
            .map(|p| {
                let i = keys.iter().position(|k| k == p).unwrap_or(keys.len()) as u32;
                self.var_offsets[var] + i * step
            })
            .collect())
    }

    /// The memory, base and key steps of an expression rooted at a variable
    /// or constant; constant keys are folded into the base when inside the
    /// source set.
    fn access(&mut self, e: &CExpr) -> Result<(Access, Ty), LoadError> {
        match e {
            CExpr::Var(v) => Ok((
                Access {
                    mem: Mem::State,
                    base: self.var_offsets[*v],
                    steps: (self.steps.len() as u32, 0),
                },
                self.g.variables[*v].ty,
            )),
            CExpr::Const(c) => Ok((
                Access {
                    mem: Mem::Const,
                    base: self.const_offsets[*c],
                    steps: (self.steps.len() as u32, 0),
                },
                self.g.constants[*c].ty,
            )),
            CExpr::Sym(_) => Err(LoadError("a symbol is not a map".to_string())),
            CExpr::Access(m, k) => {
                let (mut a, mt) = self.access(m)?;
                let Some((keys, target)) = self.layouts.arrow(mt) else {
                    return Err(LoadError(
                        "an access into a value that is not a map".to_string(),
                    ));
                };
                let stride = self.layouts.size(target)? as u32;
                let key = self.operand(k)?;
                let table = self.layouts.keys.of(keys);
                let limit = keys.len() as u16;
                match key {
                    Operand::Imm(s)
                        if (self.layouts.keys.table[table as usize + s as usize]) < limit =>
                    {
                        a.base +=
                            self.layouts.keys.table[table as usize + s as usize] as u32 * stride;
                    }
                    _ => {
                        // Steps of one access are contiguous: the key's own
                        // steps were pushed before, so move ours after them.
                        let step = KeyStep {
                            key,
                            table,
                            limit,
                            stride,
                        };
                        let (start, len) = a.steps;
                        if start + len != self.steps.len() as u32 {
                            let mine: Vec<KeyStep> =
                                self.steps[start as usize..(start + len) as usize].to_vec();
                            let new_start = self.steps.len() as u32;
                            self.steps.extend(mine);
                            a.steps = (new_start, len);
                        }
                        self.steps.push(step);
                        a.steps.1 += 1;
                    }
                }
                Ok((a, target))
            }
        }
    }

    /// A symbol-valued expression as an operand.
    fn operand(&mut self, e: &CExpr) -> Result<Operand, LoadError> {
        if let CExpr::Sym(s) = e {
            return Ok(Operand::Imm(s.0 as u16));
        }
        let (a, _) = self.access(e)?;
        Ok(match (a.mem, a.steps.1) {
            (Mem::Const, 0) => Operand::Imm(self.consts[a.base as usize]),
            (Mem::State, 0) => Operand::Slot(a.base),
            _ => match self.one_slot_table(&a, false) {
                Some((slot, table)) if a.mem == Mem::Const => Operand::Tab(slot, table),
                Some((slot, table)) => Operand::Ind(slot, table),
                None => {
                    let fast = match self.two_level_table(&a, false) {
                        Some((s, inner, outer)) if a.mem == Mem::Const => {
                            Fast::TabInd(s, inner, outer)
                        }
                        Some((s, inner, outer)) => Fast::IndInd(s, inner, outer),
                        None => self.pair(&a).unwrap_or(Fast::General),
                    };
                    Operand::Read(self.computed(a, fast))
                }
            },
        })
    }

    /// An assigned place (rooted at a variable).
    fn place(&mut self, e: &CExpr) -> Result<Place, LoadError> {
        let (a, _) = self.access(e)?;
        debug_assert_eq!(a.mem, Mem::State);
        Ok(match a.steps.1 {
            0 => Place::Slot(a.base),
            _ => match self.one_slot_table(&a, true) {
                Some((slot, table)) => Place::Ind(slot, table),
                None => {
                    let fast = match self.two_level_table(&a, true) {
                        Some((s, inner, outer)) => Fast::IndInd(s, inner, outer),
                        None => Fast::General,
                    };
                    Place::Gen(self.computed(a, fast))
                }
            },
        })
    }

    /// Adds a computed read or place.
    fn computed(&mut self, a: Access, fast: Fast) -> u32 {
        self.reads.push(a);
        self.fast.push(fast);
        self.reads.len() as u32 - 1
    }

    /// For an access with one key step whose key depends on one slot only
    /// (a slot, or a constant map of a slot), the table over that slot's
    /// symbol of what the access reads: the constant's symbol (constant
    /// memory) or the semistate slot. With `place`, keys outside the map
    /// give [`NO_SLOT`].
    fn one_slot_table(&mut self, a: &Access, place: bool) -> Option<(u32, u32)> {
        if a.steps.1 != 1 {
            return None;
        }
        let step = self.steps[a.steps.0 as usize];
        let (slot, keys): (u32, &[u32]) = match step.key {
            Operand::Slot(s) => (s, &self.symbols),
            Operand::Tab(s, t) => (s, &self.fun[t as usize..][..self.g.symbols.len()]),
            _ => return None,
        };
        let table = self.step_table(&step, keys, |off| self.at(a, off), place);
        Some((slot, self.intern(table)))
    }

    /// For an access with one key step whose key is an [`Operand::Ind`]
    /// read (`f[board[x]]`): its slot, its table and the table over the
    /// key's symbol of what the access reads (as [`Lowerer::one_slot_table`]).
    fn two_level_table(&mut self, a: &Access, place: bool) -> Option<(u32, u32, u32)> {
        if a.steps.1 != 1 {
            return None;
        }
        let step = self.steps[a.steps.0 as usize];
        let Operand::Ind(slot, inner) = step.key else {
            return None;
        };
        let table = self.step_table(&step, &self.symbols, |off| self.at(a, off), place);
        Some((slot, inner, self.intern(table)))
    }

    /// For a read of a constant map of maps with two key steps whose keys
    /// are not computed reads themselves (`arrive[piece][cur]`), its
    /// [`Fast::Pair`].
    fn pair(&mut self, a: &Access) -> Option<Fast> {
        let simple = |k: Operand| !matches!(k, Operand::Read(_));
        if a.mem != Mem::Const || a.steps.1 != 2 {
            return None;
        }
        let (s1, s2) = (
            self.steps[a.steps.0 as usize],
            self.steps[a.steps.0 as usize + 1],
        );
        if !simple(s1.key) || !simple(s2.key) {
            return None;
        }
        let first = self.step_table(&s1, &self.symbols, |off| a.base + off, false);
        let second = self.step_table(&s2, &self.symbols, |off| off, false);
        Some(Fast::Pair {
            first: s1.key,
            second: s2.key,
            first_table: self.intern(first),
            second_table: self.intern(second),
        })
    }

    /// Over symbols `x`, `f` of the offset that key `keys[x]` selects in
    /// `step` (a key outside the map's keys selects the default; with
    /// `place` it gives [`NO_SLOT`] instead).
    fn step_table(
        &self,
        step: &KeyStep,
        keys: &[u32],
        f: impl Fn(u32) -> u32,
        place: bool,
    ) -> Vec<u32> {
        keys.iter()
            .map(|&k| {
                let i = self.layouts.keys.table[(step.table + k) as usize];
                match place && i == step.limit {
                    true => NO_SLOT,
                    false => f(i as u32 * step.stride),
                }
            })
            .collect()
    }

    /// What a table of `a` holds for offset `off` from its base: the
    /// constant's symbol, or the semistate slot.
    fn at(&self, a: &Access, off: u32) -> u32 {
        match a.mem {
            Mem::Const => self.consts[(a.base + off) as usize] as u32,
            Mem::State => a.base + off,
        }
    }

    /// The offset in `fun` of `table` (shared with equal tables).
    fn intern(&mut self, table: Vec<u32>) -> u32 {
        match self.fun_index.get(&table) {
            Some(&o) => o,
            None => {
                let o = self.fun.len() as u32;
                self.fun.extend_from_slice(&table);
                self.fun_index.insert(table, o);
                o
            }
        }
    }

    /// A whole map value.
    fn map_ref(&mut self, e: &CExpr) -> Result<MapRef, LoadError> {
        let (at, ty) = self.access(e)?;
        Ok(MapRef { at, ty })
    }
}
