//! Constant folding of a check's program once laid out: along each path of
//! the tree, a slot assigned a known symbol is known until its subtree
//! ends, so reads of it (and through it: `board[go[coord]]` with `coord`
//! known is one fixed slot) become immediates or fixed slots. A comparison
//! of two known symbols is dropped (it holds: its subtree goes on) or
//! removed with its subtree (it fails: nothing there runs); an assignment
//! that nothing later in its subtree reads is dropped (the program undoes
//! its writes at its end): to a fixed slot, or through a key slot an
//! any-assignment above chose (`board[coord] = empty` after `coord =
//! Coord(*)`) where every symbol of its range is a key of the map and no
//! later read may reach the slots those keys name (`board[go[coord]]`,
//! `coord` unchanged, never `board[coord]` for any of them). The program
//! decides the same, with the same errors: reads never fail, only writes
//! through a key that is no key of the map do, and those are neither
//! folded nor dropped.
//!
//! The translations' end-of-turn checks copy a move's first steps, its
//! writes too (englishDraughts' "a man of mine can step": `board[coord] =
//! empty`, then `board[go[coord]] == empty`); without the write the
//! program writes only its any-assignment, and rg-jit's function for it
//! logs, hashes and undoes nothing. Callgrind instructions in
//! `play_random` (`rbg bench --engine native`, seed 1, 20 playouts):
//! englishDraughts -4.1%, breakthrough -3.6%; interpreted, where the
//! walk speculates these checks, within 0.03%.
//!
//! The translations of RBG's `anySquare {p} ...` checks, one `coord =
//! xNyM` edge per square, become comparisons of fixed squares only: leaf
//! checks (`program::leaves`). Callgrind instructions per playout (`rbg
//! bench --engine interp`, seed 1, in `play_random`): go.rg 387.6M ->
//! 220.5M (-43%); the 8 bar games within 0.1%.

use super::{comparison, Ins, Step, NONE};
use crate::tables::{Fast, Operand, Place, NO_SLOT};

/// What folding reads: the constant tables and the number of slots.
#[derive(Clone, Copy)]
pub struct Consts<'a> {
    /// `Tables::fun`.
    pub fun: &'a [u32],
    /// `Tables::fast`.
    pub fast: &'a [Fast],
    /// The semistate's slots.
    pub slots: usize,
    /// The game's symbols (the length of a table of `fun`).
    pub symbols: usize,
    /// `Tables::any_syms`.
    pub any_syms: &'a [u16],
}

/// Known symbols of slots on the path to an instruction.
type Known = Vec<(u32, u16)>;

fn known(k: &Known, s: u32) -> Option<u16> {
    k.iter().rev().find(|&&(x, _)| x == s).map(|&(_, v)| v)
}

impl Consts<'_> {
    fn fun(&self, table: u32, v: u16) -> Option<u32> {
        self.fun.get((table + v as u32) as usize).copied()
    }

    fn slot(&self, table: u32, v: u16) -> Option<u32> {
        self.fun(table, v)
            .filter(|&s| s != NO_SLOT && (s as usize) < self.slots)
    }

    /// `o` with the known slots read.
    fn operand(&self, k: &Known, o: Operand) -> Operand {
        let folded = match o {
            Operand::Slot(s) => known(k, s).map(Operand::Imm),
            Operand::Tab(s, t) => known(k, s)
                .and_then(|v| self.fun(t, v))
                .map(|x| Operand::Imm(x as u16)),
            Operand::Ind(s, t) => known(k, s).and_then(|v| self.slot(t, v)).map(Operand::Slot),
            Operand::Read(i) => match self.fast.get(i as usize) {
                Some(&Fast::TabInd(s, inner, outer)) => known(k, s)
                    .and_then(|v| self.slot(inner, v))
                    .map(|x| Operand::Tab(x, outer)),
                Some(&Fast::IndInd(s, inner, outer)) => known(k, s)
                    .and_then(|v| self.slot(inner, v))
                    .map(|x| Operand::Ind(x, outer)),
                _ => None,
            },
            Operand::Imm(_) => None,
        };
        match folded {
            Some(f) => self.operand(k, f),
            None => o,
        }
    }

    /// `p` as a fixed slot if the known slots make it one.
    fn place(&self, k: &Known, p: Place) -> Place {
        match p {
            Place::Ind(s, t) => match known(k, s).and_then(|v| self.slot(t, v)) {
                Some(x) => Place::Slot(x),
                None => p,
            },
            _ => p,
        }
    }

    /// `step` with the known slots read.
    fn step(&self, k: &Known, step: Step) -> Step {
        let cmp = |a, b, eq| {
            let (a, b) = (self.operand(k, a), self.operand(k, b));
            match (a, b) {
                // The slot first (`code::kind`'s shape either way).
                (Operand::Imm(_), Operand::Slot(_)) => comparison(b, a, eq),
                _ => comparison(a, b, eq),
            }
        };
        match step {
            Step::Cmp(a, b, eq) => cmp(a, b, eq),
            Step::IndImm(s, t, v, eq) => cmp(Operand::Ind(s, t), Operand::Imm(v), eq),
            Step::IndTab(s, t, s2, t2, eq) => cmp(Operand::Ind(s, t), Operand::Tab(s2, t2), eq),
            Step::Assign(p, v) => Step::Assign(self.place(k, p), self.operand(k, v)),
            Step::Any(p, syms, f) => Step::Any(self.place(k, p), syms, f),
            s => s,
        }
    }
}

/// A keyed write `st[fun[t + st[s]]]` with `st[s]` among `syms` (every one
/// a key of the map): the slots it may write and what reads may reach them.
struct Keyed<'a, 'c> {
    cx: &'c Consts<'a>,
    s: u32,
    t: u32,
    syms: &'c [u16],
    /// The slots the write may name.
    written: Vec<u32>,
}

impl Keyed<'_, '_> {
    /// Whether some symbol's entry of table `t2` is a written slot.
    fn meets(&self, t2: u32) -> bool {
        (0..self.cx.symbols as u32).any(|x| {
            self.cx
                .fun(t2, x as u16)
                .is_some_and(|y| self.written.contains(&y))
        })
    }

    /// Whether reading `o` may read a written slot (`same`: `s` holds
    /// the value it held at the write).
    fn hits(&self, o: Operand, same: bool) -> bool {
        match o {
            Operand::Imm(_) => false,
            Operand::Slot(x) | Operand::Tab(x, _) => self.written.contains(&x),
            Operand::Ind(k, t2) => {
                self.written.contains(&k)
                    || match same && k == self.s {
                        true => self
                            .syms
                            .iter()
                            .any(|&v| self.cx.fun(t2, v) == self.cx.fun(self.t, v)),
                        false => self.meets(t2),
                    }
            }
            Operand::Read(r) => match self.cx.fast.get(r as usize) {
                Some(&Fast::TabInd(k, inner, _)) => self.hits(Operand::Ind(k, inner), same),
                Some(&Fast::IndInd(k, inner, outer)) => {
                    self.hits(Operand::Ind(k, inner), same) || self.meets(outer)
                }
                _ => true,
            },
        }
    }

    /// Whether step `st` may read a written slot.
    fn reads(&self, st: &Step, same: bool) -> bool {
        let place = |p: Place| match p {
            Place::Slot(_) => false,
            Place::Ind(k, _) => self.written.contains(&k),
            Place::Gen(_) => true,
        };
        match *st {
            Step::Cmp(a, b, _) => self.hits(a, same) || self.hits(b, same),
            Step::IndImm(k, t2, ..) => self.hits(Operand::Ind(k, t2), same),
            Step::IndTab(k, t2, k2, t3, _) => {
                self.hits(Operand::Ind(k, t2), same) || self.hits(Operand::Tab(k2, t3), same)
            }
            Step::Assign(p, v) => place(p) || self.hits(v, same),
            Step::Any(p, ..) => place(p),
            Step::Pass | Step::End => false,
            Step::CmpMap(..) | Step::Reach(..) | Step::Visit(_) | Step::Retry => true,
        }
    }
}

impl Consts<'_> {
    /// Whether step `w` may write slot `s`.
    fn may_write(&self, w: &Step, s: u32) -> bool {
        match *w {
            Step::Assign(p, _) | Step::Any(p, ..) => match p {
                Place::Slot(x) => x == s,
                Place::Ind(_, t) => {
                    (0..self.symbols as u32).any(|x| self.fun(t, x as u16) == Some(s))
                }
                Place::Gen(_) => true,
            },
            _ => false,
        }
    }

    /// Whether the keyed write `st[fun[t + st[s]]]`, `st[s]` one of the
    /// `len` symbols of `any_syms` from `first`, is read by none of
    /// `steps` (its subtree's kept steps, in order; `end_of` their
    /// subtrees' ends): false where a symbol is no key of the map (the
    /// write would fail), a step may read a slot it names, or a `Retry`
    /// goes back above it. Where `s` is written again, reads through it
    /// may reach any slot of their table.
    fn keyed_unread(
        &self,
        (s, t): (u32, u32),
        (first, len): (u32, u32),
        steps: impl Iterator<Item = (usize, Ins)>,
        end_of: impl Fn(&Ins) -> Option<usize>,
    ) -> bool {
        let Some(syms) = self.any_syms.get(first as usize..(first + len) as usize) else {
            return false;
        };
        let written: Option<Vec<u32>> = syms.iter().map(|&v| self.slot(t, v)).collect();
        let Some(written) = written else {
            return false;
        };
        let k = Keyed {
            cx: self,
            s,
            t,
            syms,
            written,
        };
        // Ends of the subtrees (open at the step) that write `s` again, and
        // of the any-assignments' among the steps.
        let (mut again, mut anys): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
        for (j, ins) in steps {
            again.retain(|&end| end > j);
            anys.retain(|&end| end > j);
            let read = match ins.step {
                // Back into an any-assignment's subtree: one of these.
                Step::Retry => anys.is_empty(),
                st => k.reads(&st, again.is_empty()),
            };
            if read {
                return false;
            }
            if let Some(end) = end_of(&ins) {
                if self.may_write(&ins.step, s) {
                    again.push(end);
                }
                if matches!(ins.step, Step::Any(..)) {
                    anys.push(end);
                }
            }
        }
        true
    }
}

/// The slots step `s` reads (`None`: unknown ones, or the whole semistate).
fn reads(s: &Step, out: &mut Vec<u32>) -> Option<()> {
    let mut op = |o: Operand| match o {
        Operand::Imm(_) => Some(()),
        Operand::Slot(s) | Operand::Tab(s, _) => {
            out.push(s);
            Some(())
        }
        _ => None,
    };
    match *s {
        Step::Cmp(a, b, _) => op(a).and(op(b)),
        Step::Assign(Place::Slot(_), v) => op(v),
        Step::Any(Place::Slot(_), ..) | Step::Pass | Step::Retry | Step::End => Some(()),
        _ => None,
    }
}

/// Whether `s` holds whatever the semistate (`Some(true)`), never holds
/// (`Some(false)`), or depends on it.
fn constant(s: &Step) -> Option<bool> {
    match *s {
        Step::Cmp(Operand::Imm(a), Operand::Imm(b), eq) => Some((a == b) == eq),
        _ => None,
    }
}

/// Folds the program in `out[start..]` (ending in its `End`) and lays it
/// out again there, jumps and depths renumbered.
pub fn fold(out: &mut Vec<Ins>, start: usize, cx: &Consts) {
    let prog = &mut out[start..];
    let n = prog.len();
    // Jumps relative to the program's start.
    let end_of = |ins: &Ins| match ins.accept {
        true => None,
        false if ins.skip == NONE => None,
        false => Some((ins.skip as usize - start).min(n)),
    };
    let mut keep = vec![true; n];
    // Each instruction's step with the slots known on its path.
    let mut stack: Vec<(usize, Known)> = Vec::new();
    let mut k = Known::new();
    let mut i = 0;
    while i < n {
        while stack.last().is_some_and(|&(end, _)| end <= i) {
            k = stack.pop().expect("not empty").1;
        }
        let ins = prog[i];
        let step = cx.step(&k, ins.step);
        prog[i].step = step;
        let end = end_of(&ins).unwrap_or(i + 1);
        match constant(&step) {
            Some(true) if ins.accept => prog[i].step = Step::Pass,
            Some(true) => keep[i] = false,
            Some(false) => {
                // Nothing past it runs: on at its skip.
                keep[i..end].iter_mut().for_each(|x| *x = false);
                i = end;
                continue;
            }
            None => {}
        }
        let written = match step {
            Step::Assign(p, _) | Step::Any(p, ..) if end_of(&ins).is_some() => p,
            _ => {
                i += 1;
                continue;
            }
        };
        stack.push((end, k.clone()));
        match (written, step) {
            (Place::Slot(s), Step::Assign(_, Operand::Imm(v))) => k.push((s, v)),
            (Place::Slot(s), _) => k.retain(|&(x, _)| x != s),
            _ => k.clear(),
        }
        i += 1;
    }
    // Per keyed assignment (`Place::Ind(s, _)`), the symbols `s` may hold
    // there: the range of the innermost kept step above it that writes
    // `s`, an any-assignment to it (else unknown).
    let mut chosen: Vec<Option<(u32, u32)>> = vec![None; n];
    let mut open: Vec<(usize, Step)> = Vec::new();
    for i in 0..n {
        while open.last().is_some_and(|&(end, _)| end <= i) {
            open.pop();
        }
        if let (true, Step::Assign(Place::Ind(s, _), _)) = (keep[i], prog[i].step) {
            chosen[i] = open
                .iter()
                .rev()
                .find(|(_, w)| cx.may_write(w, s))
                .and_then(|&(_, w)| match w {
                    Step::Any(Place::Slot(x), syms, _) if x == s => Some(syms),
                    _ => None,
                });
        }
        if let Some(end) = end_of(&prog[i]).filter(|&e| keep[i] && e > i + 1) {
            open.push((end, prog[i].step));
        }
    }
    // Assignments that no kept step below reads, last first (a dropped one
    // reads nothing; one into the target is a `Pass`): to a fixed slot, or
    // through a chosen key.
    let mut read = Vec::new();
    for i in (0..n).rev() {
        let ins = prog[i];
        if let (true, true, Step::Assign(p, _)) = (keep[i], ins.accept, ins.step) {
            // Into the target: nothing reads it.
            if matches!(p, Place::Slot(_)) || chosen[i].is_some() {
                prog[i].step = Step::Pass;
            }
            continue;
        }
        let Some(end) = end_of(&ins).filter(|_| keep[i]) else {
            continue;
        };
        let below = (i + 1..end).filter(|&j| keep[j]);
        let unread = match ins.step {
            Step::Assign(Place::Slot(s), _) => below.into_iter().all(|j| {
                read.clear();
                reads(&prog[j].step, &mut read).is_some() && !read.contains(&s)
            }),
            Step::Assign(Place::Ind(s, t), _) => chosen[i].is_some_and(|syms| {
                let steps = below.map(|j| (j, prog[j]));
                cx.keyed_unread((s, t), syms, steps, end_of)
            }),
            _ => false,
        };
        if unread {
            keep[i] = false;
        }
    }
    // A comparison whose subtree is one `Pass` into the target accepts.
    for i in 0..n {
        let ins = prog[i];
        let Some(end) = end_of(&ins).filter(|_| keep[i] && ins.step.is_comparison()) else {
            continue;
        };
        let mut below = (i + 1..end).filter(|&j| keep[j]);
        if let (Some(j), None) = (below.next(), below.next()) {
            if prog[j].step == Step::Pass && prog[j].accept {
                keep[j] = false;
                prog[i].accept = true;
            }
        }
    }
    lay_out_again(out, start, &keep);
}

/// Keeps the instructions of `out[start..]` that `keep` says, their jumps
/// and depths renumbered.
fn lay_out_again(out: &mut Vec<Ins>, start: usize, keep: &[bool]) {
    let old = out.split_off(start);
    // `at[i]`: the new index of the first kept instruction at or past `i`.
    let mut at = Vec::with_capacity(old.len() + 1);
    let mut next = start;
    for &kept in keep {
        at.push(next as u32);
        next += kept as usize;
    }
    at.push(next as u32);
    for (i, ins) in old.iter().enumerate() {
        if !keep[i] {
            continue;
        }
        let skip = match ins.skip {
            NONE => NONE,
            _ if ins.accept => out.len() as u32 + 1,
            s => at[(s as usize - start).min(old.len())],
        };
        out.push(Ins { skip, ..*ins });
    }
    // Depths: the writes among a step's ancestors (a `Retry`: those of its
    // any-assignment, whose write it undoes).
    let mut open: Vec<(u32, u32)> = Vec::new();
    for (i, ins) in out.iter_mut().enumerate().skip(start) {
        while open.last().is_some_and(|&(end, _)| end as usize <= i) {
            open.pop();
        }
        let depth = open.last().map_or(0, |&(_, d)| d);
        ins.depth = match ins.step {
            Step::Retry => depth - 1,
            _ => depth,
        };
        let writes = matches!(ins.step, Step::Assign(..) | Step::Any(..));
        if !ins.accept && ins.skip != NONE && ins.skip as usize > i + 1 {
            open.push((ins.skip, depth + writes as u32));
        }
    }
    // An any-assignment is filtered by its subtree's only comparison.
    for i in start..out.len() {
        let (Step::Any(..), false) = (out[i].step, out[i].accept) else {
            continue;
        };
        let end = out[i].skip;
        let next = out[i + 1];
        let filter = next.step.is_comparison() && !next.accept && next.skip == end - 1;
        if let Step::Any(_, _, f) = &mut out[i].step {
            *f = filter;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ins(step: Step, skip: u32, depth: u32, accept: bool) -> Ins {
        Ins {
            step,
            skip,
            depth,
            accept,
        }
    }

    /// `fun`: table 0 maps symbol 3 to slot 5 (`board[3]`); 4 slots more.
    const FUN: [u32; 8] = [0, 0, 0, 5, 0, 0, 0, 0];

    fn folded(program: &[Ins], at: usize) -> Vec<(Step, u32, u32, bool)> {
        let cx = Consts {
            fun: &FUN,
            fast: &[],
            slots: 8,
            symbols: FUN.len(),
            any_syms: &[],
        };
        folded_in(program, at, &cx)
    }

    fn folded_in(program: &[Ins], at: usize, cx: &Consts) -> Vec<(Step, u32, u32, bool)> {
        // (Jumps written relative to the program's start.)
        let mut out = vec![ins(Step::End, NONE, 0, false); at];
        out.extend(program.iter().map(|&i| Ins {
            skip: i.skip.checked_add(at as u32).unwrap_or(NONE),
            ..i
        }));
        fold(&mut out, at, cx);
        out[at..]
            .iter()
            .map(|i| (i.step, i.skip, i.depth, i.accept))
            .collect()
    }

    #[test]
    fn a_square_through_a_known_slot_is_a_fixed_slot() {
        // At 2: `x = 3` (slot 0), then `board[x] == 7` into the target,
        // or `x == 4` (fails: removed with its `Pass`).
        let program = [
            ins(Step::Assign(Place::Slot(0), Operand::Imm(3)), 5, 0, false),
            ins(Step::IndImm(0, 0, 7, true), 3, 1, false),
            ins(Step::Pass, 3, 1, true),
            ins(
                Step::Cmp(Operand::Slot(0), Operand::Imm(4), true),
                5,
                1,
                false,
            ),
            ins(Step::Pass, 5, 1, true),
            ins(Step::End, NONE, 0, false),
        ];
        let cmp = Step::Cmp(Operand::Slot(5), Operand::Imm(7), true);
        // The write nothing reads is gone; the comparison accepts.
        assert_eq!(
            folded(&program, 2),
            [(cmp, 3, 0, true), (Step::End, NONE, 0, false)]
        );
    }

    /// Four symbols; slot 0 `coord`, slots 1-3 `board[1..=3]`. Table 0:
    /// `board[coord]` (symbol 0 no key), table 4: `board[go[coord]]` (`go`:
    /// 1 -> 2 -> 3).
    const BOARD: [u32; 8] = [NO_SLOT, 1, 2, 3, NO_SLOT, 2, 3, NO_SLOT];

    /// `coord = T(*)` (`T` the symbols `any_syms[first..first + 3]`), then
    /// `board[coord] = 9`, then `read == 7` into the target.
    fn keyed_write(first: u32, read: Step) -> [Ins; 5] {
        [
            ins(Step::Any(Place::Slot(0), (first, 3), false), 4, 0, false),
            ins(Step::Assign(Place::Ind(0, 0), Operand::Imm(9)), 3, 1, false),
            ins(read, 3, 2, true),
            ins(Step::Retry, NONE, 0, false),
            ins(Step::End, NONE, 0, false),
        ]
    }

    #[test]
    fn a_keyed_write_no_read_reaches_is_dropped() {
        let cx = Consts {
            fun: &BOARD,
            fast: &[],
            slots: 4,
            symbols: 4,
            any_syms: &[1, 2, 3, 0, 1, 2],
        };
        // `board[go[coord]] == 7`: never the square written.
        let next = Step::IndImm(0, 4, 7, true);
        let any = Step::Any(Place::Slot(0), (0, 3), false);
        assert_eq!(
            folded_in(&keyed_write(0, next), 0, &cx),
            [
                (any, 3, 0, false),
                (next, 2, 1, true),
                (Step::Retry, NONE, 0, false),
                (Step::End, NONE, 0, false),
            ]
        );
        // `board[coord] == 7` reads it; `board[2] == 7` may; symbol 0 is no
        // key (the write fails): kept.
        let here = Step::IndImm(0, 0, 7, true);
        let fixed = Step::Cmp(Operand::Slot(2), Operand::Imm(7), true);
        assert_eq!(folded_in(&keyed_write(0, here), 0, &cx).len(), 5);
        assert_eq!(folded_in(&keyed_write(0, fixed), 0, &cx).len(), 5);
        assert_eq!(folded_in(&keyed_write(1, next), 0, &cx).len(), 5);
    }

    #[test]
    fn a_read_or_a_nested_check_keeps_the_write() {
        // `x = 3`, then `? c` (which may read `x`): both stay, renumbered
        // only where something went.
        let program = [
            ins(Step::Assign(Place::Slot(0), Operand::Imm(3)), 3, 0, false),
            ins(
                Step::Cmp(Operand::Slot(0), Operand::Imm(3), true),
                3,
                1,
                false,
            ),
            ins(Step::Reach(9, true), 3, 1, true),
            ins(Step::End, NONE, 0, false),
        ];
        let assign = Step::Assign(Place::Slot(0), Operand::Imm(3));
        assert_eq!(
            folded(&program, 0),
            [
                (assign, 2, 0, false),
                (Step::Reach(9, true), 2, 1, true),
                (Step::End, NONE, 0, false),
            ]
        );
        // An unknown slot read through (`board[y]`, y unknown): kept.
        let program = [
            ins(Step::Assign(Place::Slot(0), Operand::Imm(3)), 2, 0, false),
            ins(Step::IndImm(1, 0, 7, true), 2, 1, true),
            ins(Step::End, NONE, 0, false),
        ];
        assert_eq!(folded(&program, 0).len(), 3);
    }
}
