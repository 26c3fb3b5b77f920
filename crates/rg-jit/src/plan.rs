//! Which checks generated code decides, and how: the plan of
//! [`crate::compile`].

use rg_engine::raw::Tables;
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
}

/// The plan: per check its code, and the instructions of writing programs
/// with the leaf checks they nest.
pub(crate) struct Plan {
    pub checks: Vec<CheckCode>,
    pub writing_ins: usize,
}

/// Plans `t`'s checks: writing programs, with the leaf checks they nest
/// (beyond the leaf budgets), while [`MAX_WRITING_INS`] lasts; then the
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
    for c in (0..checks).filter(|&c| !leaf(c) && t.probes[c].is_none()) {
        let native = |c2: u32| t.probes[c2 as usize].is_some() || leaf(c2 as usize);
        let Some(p) = gen::writing(t, c, &native) else {
            continue;
        };
        let mut new: Vec<usize> = gen::nested(t, p)
            .map(|c2| c2 as usize)
            .filter(|&c2| leaf(c2) && !forced[c2])
            .collect();
        new.sort_unstable();
        new.dedup();
        let size = (p.1 - p.0) as usize + new.iter().map(|&c2| cost(c2)).sum::<usize>();
        if writing_ins + size > MAX_WRITING_INS {
            continue;
        }
        writing_ins += size;
        new.iter().for_each(|&c2| forced[c2] = true);
        code[c] = CheckCode::Writing(p.0, p.1);
    }
    let (mut pure_edges, mut program_ins) = (0, 0);
    for c in 0..checks {
        if t.probes[c].is_some() {
            code[c] = CheckCode::Probe;
            continue;
        }
        if let Some((a, b)) = leaf_prog[c] {
            if forced[c] || program_ins + (b - a) as usize <= MAX_PROGRAM_INS {
                program_ins += (b - a) as usize;
                code[c] = CheckCode::Program(a, b);
                continue;
            }
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
        writing_ins,
    }
}

/// How the native engine would decide each of `game`'s checks (for
/// tests and tools).
#[doc(hidden)]
pub fn check_codes(game: &GameModel) -> Vec<CheckCode> {
    plan(game.tables()).checks
}
