//! Lowering a [`CheckedGame`] to [`Tables`]: slot layout of the variables and
//! constants, expressions to operands (constant parts folded; `lower/exprs.rs`),
//! edges grouped by node, pragmas, visited guards (`analysis.rs`), and the
//! passes over the lowered edges (`lower/passes.rs`).

mod exprs;
mod passes;
mod pre;

use rg_lang::ast::Pragma;
use rg_lang::checked::{CLabel, CheckedGame};

use crate::tables::{
    Act, Edge, Guard, Next, NodeInfo, Op, Operand, Place, Tables, NO_DENSE, NO_EDGE, NO_NODE,
    NO_SLOT, NO_SWITCH,
};
use crate::LoadError;
use crate::{analysis, bits, cycles, local, mirror, program, shortcut, switch};
use exprs::{EdgeParts, Lowerer};
use passes::{bypass_skips, probe, splitmix, untagged};

/// Lowers a checked game; with `check_all`, every node (but `@unique` ones)
/// gets a visited check, as in the reference, and the walk takes none of the
/// shortcuts of `shortcut.rs` and no edge tests (`lower/pre.rs`; for testing
/// the analysis and the shortcuts).
pub fn lower(g: &CheckedGame, check_all: bool) -> Result<Tables, LoadError> {
    if g.symbols.len() >= u16::MAX as usize {
        return Err(LoadError(format!(
            "the game has {} symbols; at most {} are supported",
            g.symbols.len(),
            u16::MAX - 1
        )));
    }
    let mut l = Lowerer::new(g);
    let (initial, user_slots) = l.lay_out()?;

    let mut parts = EdgeParts::default();
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
        let op = l.op(&e.label, &mut parts)?;
        per_node[e.from.0 as usize].push(Edge {
            op,
            to: e.to.0,
            guard: false,
            next: Next::Dead,
            filter: NO_EDGE,
            cyclic: NO_EDGE,
        });
    }
    let EdgeParts {
        checks,
        any_syms,
        map_pairs,
        map_plans,
        ..
    } = parts;
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
            local_logged: false,
            relay: false,
            owner: false,
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
    let (local_size, local_frames) = match check_all {
        true => (0, vec![NO_NODE; nodes.len()]),
        false => {
            let writes: Vec<Option<u32>> = writes.iter().flatten().copied().collect();
            let facts = local::LocalFacts {
                writes: &writes,
                var_slots: &var_slots,
                slot_var: &slot_var,
                distinct: &distinct,
                repeat: &repeat_vars,
                checks: &checks,
                lazy: &lazy,
                symbols: g.symbols.len() as u32,
            };
            local::local_checks(&mut nodes, &edges, &facts)
        }
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
            (
                player_slot,
                &program::Consts {
                    fun: &l.fun,
                    fast: &l.fast,
                    slots: initial.len(),
                    symbols: g.symbols.len(),
                    any_syms: &any_syms,
                },
            ),
            &mut program,
        )
    };
    let (any_filters, any_filter_list) = program::any_filters(&program);
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
    let mut acts = vec![Act::Other; edges.len()];
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
    // Lean walks count only the tags on cycles (`None`: every tag).
    let (cyclic_tags, others) = cycles::cyclic_tags(&nodes, &edges);
    let tag_limit = match others {
        Some(a) => crate::walk::MAX_TAGS as u32 - 1 - a,
        None => crate::walk::MAX_TAGS as u32,
    };
    // The identity table of copies `x = y` (`code::lower`), where there are any.
    let copies = edges
        .iter()
        .any(|e| matches!(e.op, Op::Assign(Place::Slot(_), Operand::Slot(_))));
    let identity = copies.then(|| l.intern((0..g.symbols.len() as u32).collect()));
    let mut lowered = crate::code::lower(&edges, &l.fast, has_unique, identity)?;
    // Tested against the walk without them (`with_every_check`).
    let pres = match check_all {
        true => vec![crate::code::Pre::NONE; lowered.len()],
        false => l.pre_tests(&lowered),
    };
    if !check_all {
        crate::code::branches(&mut lowered, &edges, &nodes, has_unique)?;
    }
    let leaves = program::leaves(&program, &programs, &speculated, &l.fast);
    let fixed = crate::sealed::fixed_slots(
        &edges,
        &l.fun,
        &any_syms,
        &initial,
        (player_slot, g.symbols.len() as u32),
    );
    let mut code = crate::sealed::Sealed::new(
        (lowered, pres),
        (&edges, &acts, &cyclic_tags),
        (&nodes, &any_syms, !check_all),
        leaves,
        &l.fun,
        &hash_mul,
        (initial.len(), &fixed),
        g.symbols.len() as u32,
    )?
    .with_check_runs(
        (&program, &any_filters),
        (&probes, &probe_conds),
        &any_syms,
        !check_all,
    )
    .with_scans(&nodes, &edges, !check_all);
    let root_tails = crate::walk::root_tails(&nodes, &code, tags_read, others.is_some());
    let (root_starts, fans) = crate::walk::root_starts(&nodes, &code);
    let straight = match check_all {
        true => vec![false; nodes.len()],
        false => crate::walk::straight_roots(&nodes, &code, (&root_starts, &fans), &lazy),
    };
    // Only lean walks that take the untagged table take rays (`walk/run.rs`;
    // a ray's tail passes no counted tag, `sealed.rs`).
    let rays = match !check_all && others.is_some() && !tags_read {
        true => crate::rays::Rays::new(&nodes, &mut code),
        false => crate::rays::Rays::default(),
    };
    Ok(Tables {
        root_tails,
        root_starts,
        straight,
        fans,
        rays,
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
        any_filters,
        any_filter_list,
        dense_size,
        local_size,
        local_frames,
        cyclic,
        has_unique,
        tags_read,
        few_tags,
        tag_limit,
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
