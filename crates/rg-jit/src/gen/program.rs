//! *Writing programs*: check programs (`program.rs` of rg-engine) that
//! write, visit, choose (`Any`/`Retry`) or nest checks, as functions of
//! their own, as the interpreter's `Walker::program` runs them.
//!
//! Each instruction is a block entered with a log of known length (the
//! writes on the way to it, `Ins::depth`): an instruction arrived at with
//! more writes undoes the surplus first, a known number of entries (with
//! the key hash and a fresh version, as the interpreter's `unwind`). The
//! lengths along every jump are verified at generation ([`writing`]); the
//! choices of any-assignments are variables. Nested checks must be probes,
//! generated leaf checks or writing programs and searches planned before
//! (`plan.rs`: a bounded depth, no recursion), memoised by version as in
//! the walk; visited checks probe a visited set of their own in
//! generated code (`gen/visit.rs`, rg-engine's `Seen`), calling Rust
//! (`rt::prog_visit`) for other keys and to grow it.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I16, I32, I64};
use cranelift_codegen::ir::{Block, BlockArg, FuncRef, InstBuilder, Value};
use cranelift_frontend::Variable;
use rg_engine::raw::{Fast, Operand, Place, Step, Tables};

use super::check::{comparison, leaf_gen};
use super::{Func, Indexed, FLAGS};
use crate::rt::{self, Off};

/// Instructions of one writing program at most.
pub const MAX_PROGRAM_LEN: u32 = 8_000;

/// Where an instruction goes: to instruction `to` (absolute) with `depth`
/// writes, or out (`Yes`/`No`) with `depth` writes to undo.
#[derive(Clone, Copy)]
enum Go {
    To(u32, u32),
    Yes(u32),
    No(u32),
}

/// The any-assignment a `Retry` at `r` takes its next symbol from: the
/// innermost one whose subtree holds `r`.
fn retry_of(t: &Tables, start: u32, r: u32) -> Option<u32> {
    (start..r).rev().find(|&a| {
        matches!(t.program[a as usize].step, Step::Any(..)) && t.program[a as usize].skip > r
    })
}

/// The jumps of instruction `i` (for `Any`, `Retry`: into the choice's
/// advance, see [`emit_writing`]), holding / failing.
fn jumps(t: &Tables, i: u32) -> (Go, Option<Go>) {
    let ins = t.program[i as usize];
    let d = ins.depth;
    let on = |d: u32| match ins.accept {
        true => Go::Yes(d),
        false => Go::To(i + 1, d),
    };
    let skip = Some(Go::To(ins.skip, d));
    match ins.step {
        Step::Assign(..) => (on(d + 1), None),
        Step::Pass => (on(d), None),
        Step::End => (Go::No(d), None),
        // Advance: on into the subtree with the symbol written, or past it.
        Step::Any(..) => match ins.accept {
            true => (Go::Yes(d), None),
            false => (Go::To(i + 1, d + 1), skip),
        },
        Step::Retry => (Go::No(d), None),
        _ => (on(d), skip),
    }
}

/// If check `c` has a program that [`emit_writing`] takes, its
/// instructions `start .. end`: every step but `CmpMap`, nested checks
/// that `native` says are generated (probes, leaf checks, writing programs
/// and searches planned before), and writes
/// along every jump that never fall short of where it lands.
pub(crate) fn writing(t: &Tables, c: usize, native: &dyn Fn(u32) -> bool) -> Option<(u32, u32)> {
    let p = t.programs.get(c).copied().flatten()?;
    if t.probes[c].is_some() {
        return None;
    }
    let start = p.start;
    let mut end = start;
    while !matches!(t.program.get(end as usize)?.step, Step::End) {
        end += 1;
        if end - start > MAX_PROGRAM_LEN {
            return None;
        }
    }
    let inside = |k: u32| (start..=end).contains(&k);
    for i in start..=end {
        let ins = t.program[i as usize];
        match ins.step {
            Step::CmpMap(..) => return None,
            Step::Reach(c2, _) if !native(c2) => return None,
            Step::Any(_, _, true) => {
                comparison(t.program.get(i as usize + 1)?.step)??;
            }
            Step::Retry => {
                let a = retry_of(t, start, i)?;
                if t.program[a as usize].depth != ins.depth {
                    return None;
                }
            }
            _ => {}
        }
        let (hold, fail) = jumps(t, i);
        for g in [Some(hold), fail].into_iter().flatten() {
            if let Go::To(k, d) = g {
                if !inside(k) || d < t.program[k as usize].depth {
                    return None;
                }
            }
        }
    }
    Some((start, end + 1))
}

/// The slot a writing program keeps in a register instead of the
/// semistate, if any: it writes only that slot (fixed), nests no check,
/// visits nothing, and no slot table it reads through names the slot (so
/// every read of it is a read of the fixed slot). Such a program leaves
/// the semistate, the log, the key hash and the version alone.
fn shadowed(t: &Tables, (start, end): (u32, u32)) -> Option<u32> {
    let mut slot = None;
    let mut tables = Vec::new();
    let operand = |o: Operand, tables: &mut Vec<u32>| match o {
        Operand::Imm(_) | Operand::Slot(_) | Operand::Tab(..) => true,
        Operand::Ind(_, table) => {
            tables.push(table);
            true
        }
        Operand::Read(i) => match t.fast[i as usize] {
            Fast::TabInd(_, inner, _) => {
                tables.push(inner);
                true
            }
            Fast::IndInd(_, inner, outer) => {
                tables.extend([inner, outer]);
                true
            }
            _ => false,
        },
    };
    // (Every instruction's value is that of a write on its path: the
    // layout is the tree's preorder.)
    let mut known = 1;
    for i in start..end {
        let ins = t.program[i as usize];
        if ins.depth as usize >= known {
            return None;
        }
        known = ins.depth as usize + 1;
        if matches!(ins.step, Step::Assign(..)) || matches!(ins.step, Step::Any(..)) && !ins.accept
        {
            known += 1;
        }
        let ok = match t.program[i as usize].step {
            Step::Assign(Place::Slot(s), v) => {
                *slot.get_or_insert(s) == s && operand(v, &mut tables)
            }
            Step::Any(Place::Slot(s), ..) => *slot.get_or_insert(s) == s,
            Step::Cmp(a, b, _) => operand(a, &mut tables) && operand(b, &mut tables),
            Step::IndImm(_, table, ..) | Step::IndTab(_, table, ..) => {
                tables.push(table);
                true
            }
            Step::Pass | Step::End | Step::Retry => true,
            _ => false,
        };
        if !ok {
            return None;
        }
    }
    let slot = slot?;
    let names = |table: u32| {
        let from = (table as usize).min(t.fun.len());
        let to = (table as usize + t.symbols as usize).min(t.fun.len());
        t.fun[from..to].contains(&slot)
    };
    (!tables.into_iter().any(names)).then_some(slot)
}

/// The value a shadowed slot ([`shadowed`]) has at an instruction: a value
/// computed by an assignment before it, or an any-assignment's symbol.
#[derive(Clone, Copy)]
enum Shadow {
    Value(Value),
    Var(Variable),
}

/// Emits the writing program `start .. end` ([`writing`]) as a function
/// with the helpers' signature (`(ws, st, _, _) -> 1 holds, 0 not,
/// FAILED`); `pures` are the generated leaf checks, `visits` whether it
/// needs a fresh visited set.
pub(crate) fn emit_writing(
    t: &Tables,
    (start, end): (u32, u32),
    visits: bool,
    f: Func<'_, '_>,
    pures: &[Option<FuncRef>],
) {
    let mut g = leaf_gen(t, f);
    g.pures = pures;
    let shadow = shadowed(t, (start, end));
    // The shadowed slot's values by the depth of the instruction (its
    // value before any write first).
    let mut values = Vec::new();
    let saved = match shadow {
        Some(slot) => {
            let v = g.slot(slot);
            values.push(Shadow::Value(v));
            None
        }
        None => Some((
            g.ws_load(Off::LOG_LEN),
            g.ws_load(Off::HASH),
            g.ws_load(Off::VERSION),
        )),
    };
    if visits {
        g.call_imm(rt::prog_begin, 0, 0);
    }
    let blocks: Vec<Block> = (start..end).map(|_| g.b.create_block()).collect();
    // Per any-assignment: its symbols left and its slot; its advance.
    let mut vars = Vec::new();
    let mut advance = vec![None; (end - start) as usize];
    for i in start..end {
        if let Step::Any(..) = t.program[i as usize].step {
            let left = Variable::from_u32(vars.len() as u32);
            let slot = Variable::from_u32(vars.len() as u32 + 1);
            let sym = Variable::from_u32(vars.len() as u32 + 2);
            g.b.declare_var(left, I32);
            g.b.declare_var(slot, I32);
            g.b.declare_var(sym, I32);
            vars.extend([left, slot, sym]);
            advance[(i - start) as usize] = Some((g.b.create_block(), left, slot, sym));
        }
    }
    g.b.ins().jump(blocks[0], &[]);
    // Jumps that undo writes, filled last: (block, surplus, where to).
    let mut pending: Vec<(Block, u32, Go)> = Vec::new();
    let mut target = |g: &mut super::Gen<'_, '_>, go: Go| -> Block {
        let blk = g.b.create_block();
        pending.push((blk, 0, go));
        blk
    };
    for i in start..end {
        let ins = t.program[i as usize];
        g.b.switch_to_block(blocks[(i - start) as usize]);
        if let Some(slot) = shadow {
            // (The values before it are those of the writes on its path.)
            values.truncate(ins.depth as usize + 1);
            let v = match values[ins.depth as usize] {
                Shadow::Value(v) => v,
                Shadow::Var(x) => g.b.use_var(x),
            };
            g.known = Some((slot, v));
        }
        let (hold, fail) = jumps(t, i);
        match ins.step {
            Step::Any(p, (s0, len), filter) => {
                // (The place is evaluated first: a key outside its map fails.)
                let s = match g.place(p) {
                    Ok(s) => g.b.ins().iconst(I32, s as i64),
                    Err(s) => s,
                };
                if ins.accept {
                    // Every symbol reaches the target.
                    let y = target(&mut g, hold);
                    g.b.ins().jump(y, &[]);
                    continue;
                }
                let (adv, left, slot, symv) = advance[(i - start) as usize].expect("an advance");
                g.b.def_var(slot, s);
                let n = g.b.ins().iconst(I32, len as i64);
                g.b.def_var(left, n);
                g.b.ins().jump(adv, &[]);
                // The advance: the next symbol (last to first) that passes
                // the filter, written; or past the subtree.
                g.b.switch_to_block(adv);
                let (into, past) = (target(&mut g, hold), target(&mut g, fail.expect("a skip")));
                let s = g.b.use_var(slot);
                let (addr, at) = g.st_addr(s);
                let [body, next, found, none] = g.blocks();
                let old = g.b.ins().uload16(I32, FLAGS, addr, at);
                let l0 = g.b.use_var(left);
                // (A loop tested at its end: a symbol that fails goes on
                // at the next, or past the subtree.)
                g.b.ins().brif(l0, body, &[BlockArg::Value(l0)], none, &[]);
                let l = g.b.append_block_param(body, I32);
                g.b.switch_to_block(body);
                let l1 = g.b.ins().iadd_imm(l, -1);
                // (Read where needed: the comparisons may read tables over
                // the index instead, `Gen::indexed`.)
                let mut sym = None;
                // The comparisons one of which must hold for the symbol to
                // go anywhere (`program::any_filters`; `filter`: the one).
                let f = t.any_filters[i as usize];
                let cmps: Vec<u32> = match (f.count, filter) {
                    (0, true) => vec![i + 1],
                    (0, false) => Vec::new(),
                    _ => t.any_filter_list[f.first as usize..(f.first + f.count) as usize].to_vec(),
                };
                let cmps: Vec<_> = cmps
                    .iter()
                    .map(|&k| {
                        comparison(t.program[k as usize].step)
                            .flatten()
                            .expect("comparisons")
                    })
                    .collect();
                if !cmps.is_empty() {
                    // The symbol read as the slot where it is only read
                    // directly, else written in place for the comparisons.
                    let direct = match (shadow, p) {
                        (Some(slot), _) => Some(slot),
                        (None, Place::Slot(slot)) => cmps
                            .iter()
                            .all(|&(a, b, _)| {
                                g.reads_directly(a, slot) && g.reads_directly(b, slot)
                            })
                            .then_some(slot),
                        _ => None,
                    };
                    let holds = match direct {
                        Some(slot) => {
                            g.known = None;
                            g.at = Some(Indexed {
                                slot,
                                start: s0,
                                len,
                                i: l1,
                            });
                            let holds = g.some_holds(&cmps);
                            g.at = None;
                            holds
                        }
                        None => {
                            let v = g.any_sym(s0, l1);
                            sym = Some(v);
                            let sym16 = g.b.ins().ireduce(I16, v);
                            g.b.ins().store(FLAGS, sym16, addr, at);
                            let holds = g.some_holds(&cmps);
                            let old16 = g.b.ins().ireduce(I16, old);
                            g.b.ins().store(FLAGS, old16, addr, at);
                            holds
                        }
                    };
                    g.b.ins().brif(holds, found, &[], next, &[]);
                    g.b.switch_to_block(next);
                    g.b.ins().brif(l1, body, &[BlockArg::Value(l1)], none, &[]);
                } else {
                    g.b.ins().jump(found, &[]);
                }
                g.b.switch_to_block(found);
                let sym = sym.unwrap_or_else(|| g.any_sym(s0, l1));
                g.b.def_var(left, l1);
                match shadow {
                    Some(_) => g.b.def_var(symv, sym),
                    None => g.write(Err(s), sym, None),
                }
                g.b.ins().jump(into, &[]);
                values.push(Shadow::Var(symv));
                g.b.switch_to_block(none);
                g.b.ins().jump(past, &[]);
                continue;
            }
            Step::Retry => {
                let a = retry_of(t, start, i).expect("verified");
                let (adv, ..) = advance[(a - start) as usize].expect("an advance");
                g.b.ins().jump(adv, &[]);
                continue;
            }
            Step::End => {
                let n = target(&mut g, hold);
                g.b.ins().jump(n, &[]);
                continue;
            }
            _ => {}
        }
        let fails = match ins.step {
            Step::Assign(p, v) => {
                let v = g.operand(v);
                match shadow {
                    Some(_) => values.push(Shadow::Value(v)),
                    None => {
                        let slot = g.place(p);
                        g.write(slot, v, None);
                    }
                }
                None
            }
            Step::Pass => None,
            Step::Reach(c, positive) => Some(g.reach(c, positive)),
            Step::Visit(node) => {
                let r = g.prog_visit(node);
                g.check_failed(r);
                Some(g.b.ins().icmp_imm(IntCC::Equal, r, 0))
            }
            step => {
                let (a, b, eq) = comparison(step).flatten().expect("verified");
                Some(g.compare(a, b, eq))
            }
        };
        let on = target(&mut g, hold);
        match fails {
            Some(fails) => {
                let off = target(&mut g, fail.expect("a skip"));
                g.b.ins().brif(fails, off, &[], on, &[]);
            }
            None => {
                g.b.ins().jump(on, &[]);
            }
        }
    }
    // The jumps: undo the surplus, go on (or out, everything undone).
    let [yes, no] = g.blocks();
    for (blk, _, go) in pending {
        g.b.switch_to_block(blk);
        let Some((base, hash, version)) = saved else {
            // (Nothing written: nothing to undo.)
            let to = match go {
                Go::To(k, _) => blocks[(k - start) as usize],
                Go::Yes(_) => yes,
                Go::No(_) => no,
            };
            g.b.ins().jump(to, &[]);
            continue;
        };
        match go {
            Go::To(k, d) => {
                let surplus = d - t.program[k as usize].depth;
                if surplus > 0 {
                    undo(&mut g, surplus, true);
                }
                g.b.ins().jump(blocks[(k - start) as usize], &[]);
            }
            Go::Yes(d) | Go::No(d) => {
                if d > 0 {
                    undo(&mut g, d, false);
                }
                g.ws_store(base, Off::LOG_LEN);
                g.ws_store(hash, Off::HASH);
                g.ws_store(version, Off::VERSION);
                let out = if matches!(go, Go::Yes(_)) { yes } else { no };
                g.b.ins().jump(out, &[]);
            }
        }
    }
    super::check::finish_leaf(g, yes, no);
}

/// Undoes the newest `n` log entries (newest first); with `hashed`, the
/// key hash with them and a fresh version (as the interpreter's
/// `unwind`).
fn undo(g: &mut super::Gen<'_, '_>, n: u32, hashed: bool) {
    let len = g.ws_load(Off::LOG_LEN);
    let log = g.ws_load(Off::LOG);
    let off = g.b.ins().ishl_imm(len, 3);
    let end = g.b.ins().iadd(log, off);
    let mut h = match hashed {
        true => Some(g.ws_load(Off::HASH)),
        false => None,
    };
    for j in 1..=n as i32 {
        let slot = g.load(I32, end, -8 * j);
        let old = g.load(I32, end, -8 * j + 4);
        let (a, at) = g.st_addr(slot);
        if let Some(hv) = h {
            let cur = g.b.ins().uload16(I32, FLAGS, a, at);
            let i = g.widen(slot);
            let off = g.b.ins().ishl_imm(i, 3);
            let ma = g.b.ins().iadd_imm(off, g.t.hash_mul.as_ptr() as i64);
            let m = g.load(I64, ma, 0);
            let cur = g.b.ins().uextend(I64, cur);
            let old64 = g.b.ins().uextend(I64, old);
            let d = g.b.ins().isub(cur, old64);
            let d = g.b.ins().imul(m, d);
            h = Some(g.b.ins().isub(hv, d));
        }
        let old16 = g.b.ins().ireduce(I16, old);
        g.b.ins().store(FLAGS, old16, a, at);
    }
    let len = g.b.ins().iadd_imm(len, -(n as i64));
    g.ws_store(len, Off::LOG_LEN);
    if let Some(h) = h {
        g.ws_store(h, Off::HASH);
        let nv = g.ws_load(Off::NEXT_VERSION);
        g.ws_store(nv, Off::VERSION);
        let nv1 = g.b.ins().iadd_imm(nv, 1);
        g.ws_store(nv1, Off::NEXT_VERSION);
    }
}

/// The leaf checks a program nests (`Reach` steps).
pub(crate) fn nested(t: &Tables, (start, end): (u32, u32)) -> impl Iterator<Item = u32> + '_ {
    (start..end).filter_map(|i| match t.program[i as usize].step {
        Step::Reach(c, _) => Some(c),
        _ => None,
    })
}
