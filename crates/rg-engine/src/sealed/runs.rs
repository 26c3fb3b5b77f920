//! Runs: an any-assignment's symbols whose tests read consecutive slots,
//! scanned in the semistate with one table lookup each ([`Run`]).

use super::mask::{Range, MAX_LEN};
use super::{Cond, Sealed, PAD};
use crate::code::{Code, Kind};
use crate::program::{AnyFilter, Ins, Step, NO_TABLE};
use crate::tables::{Operand, Place, Probe};

/// An any-assignment's symbols (`x = T(*)`) whose comparisons after it all
/// read one map at `x` (`board[x] == c`, `f[board[x]] == c`) at
/// consecutive slots: symbol `i` of the assignment reads `st[base + i]`
/// (a map's slots follow its keys' order, `layout.rs`), and passes some
/// comparison iff its value's entry of the run's table is set. A scan of
/// the symbols is then a scan of `len` consecutive slots, one table
/// lookup each, with nothing written (the assigned slot is not among
/// them): chess's king search in its one-slot checks (`shortcut.rs`), the
/// move walk's "a piece of mine here" of several kinds ([`Filter::Run`](super::Filter::Run)).
///
/// Callgrind instructions per playout (`rbg bench --engine interp`, seed
/// 1, in `play_random`) on the suite's translations, against 8d664bf:
/// chess 57,918,242 -> 52,935,053 (-8.6%), englishDraughts 758,342 ->
/// 704,416 (-7.1%), the other six within 0.08% (reversi +0.08%, hex
/// +0.005%). Tried and dropped: [`Filter::Ind`](super::Filter::Ind) (one comparison) as a run
/// too, in the walk's loop: breakthrough -0.4%, but the loop's function
/// no longer inlined (ticTacToe +2.1%, connect4 +2.8%, amazons +1.5%, hex
/// +1.3%); out of line, breakthrough +4.0% (a call of ~109 instructions
/// where the inline loop finds the next of its dense pieces in a few;
/// now a run whose passing values are one range takes the walk's mask
/// instead, `Walker::mask_filter`);
/// the walk's scan a block of [`CHUNK`] values at a time, englishDraughts
/// 718,160 against 704,413 one at a time (dense pieces); the search's run
/// looked up by edge (the search's call given the edge): hex +0.6%, its
/// loop laid out anew, so it is looked up by node ([`Sealed::node_run`]).
///
/// The checks' programs (`walk/program.rs`) take a run too: an
/// any-assignment whose filter ([`AnyFilter`]) is `board[x] == c` of one
/// table, its squares consecutive ([`Sealed::with_check_runs`];
/// englishDraughts' "some man of mine can capture"). Callgrind
/// instructions per playout against 5983452: englishDraughts 703,952 ->
/// 678,258 (-3.65%), reversi 2,060,306 -> 2,046,587 (-0.67%), amazons
/// -0.14%, the others within 0.003%.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Run {
    base: u32,
    len: u32,
    /// The symbols' start in `Tables::any_syms`, and the assigned slot.
    start: u32,
    slot: u32,
    /// Index in [`Sealed`]'s `passes`.
    pass: u32,
    /// The passing values as one range: scanned eight values a step
    /// ([`Range::last`]) and, for a run of at most [`MAX_LEN`] symbols,
    /// as a mask ([`Range::mask`]).
    range: Option<Range>,
}

/// Values a run's upward scan tests at once, one branch for all
/// ([`Sealed::first_in_run`]: chess's one king among 64 squares).
const CHUNK: usize = 8;

/// Whether some value of `block` passes.
#[inline(always)]
fn some_pass(pass: &[bool; 1 << 16], block: &[u16]) -> bool {
    block.iter().fold(false, |a, &v| a | pass[v as usize])
}

/// A [`Run`]'s index for an any-assignment without one.
pub(crate) const NO_RUN: u32 = u32::MAX;

/// Distinct tables of passing values the runs may take (64 KiB each).
const MAX_PASS_TABLES: usize = 64;

/// Which values pass, for every `u16`: a lookup needs no bound test,
/// whatever the semistate holds. Of its 64 KiB a scan touches only the
/// cache lines of the values the run's slots hold (a board's few pieces,
/// 64 values a line), so a table sized to the symbols would save memory,
/// not misses, for a bound test per lookup.
pub(super) type PassTable = Box<[bool; 1 << 16]>;

/// The first of the slots that any-assignment symbols `syms` to `slot`
/// read (`at`: a slot below `slots`, or none), when they are consecutive
/// (a [`Run`]: within the semistate, `slot` not among them).
fn consecutive(
    syms: &[u16],
    slot: u32,
    slots: usize,
    at: impl Fn(u16) -> Option<u32>,
) -> Option<u32> {
    let base = at(*syms.first()?)?;
    let ok = syms.iter().enumerate().all(|(i, &x)| {
        let s = at(x);
        s == Some(base + i as u32) && s != Some(slot)
    });
    (ok && base as usize + syms.len() <= slots).then_some(base)
}

/// The runs and their distinct tables of passing values, as built.
#[derive(Default)]
pub(super) struct Runs {
    pub(super) runs: Vec<Run>,
    pub(super) passes: Vec<PassTable>,
}

impl Runs {
    /// Adds the [`Run`] of `len` slots from `base` of the symbols from
    /// `start` assigned to `slot`, with table `pass` (an equal one
    /// shared): its index, or none when [`MAX_PASS_TABLES`] are taken.
    pub(super) fn add(
        &mut self,
        (base, len): (u32, u32),
        (start, slot): (u32, u32),
        pass: PassTable,
    ) -> Option<u32> {
        let range = Range::of(&pass);
        let pass = match self.passes.iter().position(|p| p[..] == pass[..]) {
            Some(i) => i as u32,
            None if self.passes.len() < MAX_PASS_TABLES => {
                self.passes.push(pass);
                self.passes.len() as u32 - 1
            }
            None => return None,
        };
        self.runs.push(Run {
            base,
            len,
            start,
            slot,
            pass,
            range,
        });
        Some(self.runs.len() as u32 - 1)
    }

    /// Whether run `run`'s passing values are one [`Range`] (a mask).
    pub(super) fn has_range(&self, run: u32) -> bool {
        self.runs[run as usize].range.is_some()
    }

    /// Whether run `run` has a [`Range`] and at most [`MAX_LEN`] symbols
    /// (one mask).
    pub(super) fn has_mask(&self, run: u32) -> bool {
        self.has_range(run) && self.runs[run as usize].len as usize <= MAX_LEN
    }
}

/// The base slot and table of passing values of any-assignment symbols
/// `syms` to `slot` followed by comparisons `cmps` (instructions verified
/// as `sealed` says), when they form a [`Run`].
pub(super) fn run_of(
    cmps: &[Code],
    (slot, syms, slots): (u32, &[u16], usize),
    (vals, reads): (&[u32], &[u32]),
    sealed: &dyn Fn(Kind) -> bool,
) -> Option<(u32, PassTable)> {
    // The one map read by every comparison, through its slot table.
    let mut read = None;
    for c in cmps {
        let table = match c.kind {
            k @ Kind::CmpInd { slot: s, table, .. } if s == slot && sealed(k) => table,
            k @ Kind::CmpTabInd { slot: s, inner, .. } if s == slot && sealed(k) => inner,
            _ => return None,
        };
        if *read.get_or_insert(table) != table {
            return None;
        }
    }
    let table = read?;
    // (`table + x` is in range: a verified table, padded; its entries are
    // slots.)
    let at = |x: u16| Some(reads[(table + x as u32) as usize]);
    let base = consecutive(syms, slot, slots, at)?;
    let mut pass: PassTable = vec![false; 1 << 16].into_boxed_slice().try_into().ok()?;
    for (v, p) in pass.iter_mut().enumerate() {
        let v = v as u16;
        *p = cmps.iter().any(|c| match c.kind {
            Kind::CmpInd { value, eq, .. } => (v == value) == eq,
            Kind::CmpTabInd {
                outer, value, eq, ..
            } => (vals[(outer + v as u32) as usize] as u16 == value) == eq,
            _ => unreachable!("comparisons of the run (above)"),
        });
    }
    Some((base, pass))
}

impl Sealed {
    /// The [`Run`] of an any-assignment to `slot` into node `to` of
    /// symbols `any_syms[start .. start + len]` ([`NO_RUN`]: none known;
    /// checked).
    #[inline(always)]
    pub(crate) fn node_run(&self, to: u32, slot: u32, (start, len): (u32, u32)) -> u32 {
        match self.node_runs[to as usize] {
            NO_RUN => NO_RUN,
            r => {
                let run = &self.runs[r as usize];
                match run.start == start && run.len == len && run.slot == slot {
                    true => r,
                    false => NO_RUN,
                }
            }
        }
    }

    /// `self` with the [`Run`]s of the any-assignments of the checks'
    /// programs (`program`) whose filter ([`AnyFilter`], `filters`) reads
    /// one table at the assigned slot (`board[x] == c`), where the
    /// symbols' reads are consecutive slots: the filter's passing values
    /// in a table ([`Sealed::filter_run`]); and likewise of the probes
    /// (`probes`, their comparisons `conds`) whose comparisons all read
    /// one table at the assigned slot ([`Sealed::probe_run`]). None
    /// `with_runs` false.
    pub(crate) fn with_check_runs(
        mut self,
        (program, filters): (&[Ins], &[AnyFilter]),
        (probes, conds): (&[Option<Probe>], &[Cond]),
        any_syms: &[u16],
        with_runs: bool,
    ) -> Sealed {
        let mut runs = Runs {
            runs: std::mem::take(&mut self.runs).into_vec(),
            passes: std::mem::take(&mut self.passes).into_vec(),
        };
        let (vals, slots) = (&self.vals, self.slots);
        let fun_len = vals.len() - PAD;
        // The run of symbols `start .. start + len` assigned to `slot`,
        // read through `table`, of those values that pass.
        let mut run = |table: u32, (start, len): (u32, u32), slot, passes: &dyn Fn(u16) -> bool| {
            let syms = any_syms.get(start as usize..(start as usize).saturating_add(len as usize));
            // The table's entries for the symbols, slots (`fun` as values).
            let at = |x: u16| {
                let i = (table as usize).checked_add(x as usize)?;
                let s = *vals.get(i).filter(|_| i < fun_len)?;
                ((s as usize) < slots).then_some(s)
            };
            let base = consecutive(syms?, slot, slots, at)?;
            let pass = (0..=u16::MAX).map(passes).collect::<Box<[bool]>>();
            runs.add((base, len), (start, slot), pass.try_into().ok()?)
        };
        let with = |n: usize| if with_runs { n } else { 0 };
        let mut filter_runs = vec![NO_RUN; program.len()];
        for ((ins, f), r) in program
            .iter()
            .zip(filters)
            .zip(&mut filter_runs)
            .take(with(program.len()))
        {
            if let (Step::Any(Place::Slot(slot), syms, _), true) =
                (ins.step, f.count > 0 && f.table != NO_TABLE)
            {
                *r = run(f.table, syms, slot, &|v| f.passes(v)).unwrap_or(NO_RUN);
            }
        }
        let mut probe_runs = vec![NO_RUN; probes.len()];
        for (p, r) in probes.iter().zip(&mut probe_runs).take(with(probes.len())) {
            let Some(Probe {
                any: Some((slot, syms)),
                conds: (first, count),
            }) = *p
            else {
                continue;
            };
            let Some(cs) =
                conds.get(first as usize..(first as usize).saturating_add(count as usize))
            else {
                continue;
            };
            // `board[x] == c` (or `!=`) of the assigned slot, one table.
            let cmp = |&(a, b, eq): &(Operand, Operand, bool)| match (a, b) {
                (Operand::Ind(s, t), Operand::Imm(v)) | (Operand::Imm(v), Operand::Ind(s, t))
                    if s == slot =>
                {
                    Some((t, v, eq))
                }
                _ => None,
            };
            let Some(cmps) = cs.iter().map(cmp).collect::<Option<Vec<_>>>() else {
                continue;
            };
            let Some(&(table, ..)) = cmps
                .first()
                .filter(|_| cmps.iter().all(|c| c.0 == cmps[0].0))
            else {
                continue;
            };
            let passes = |x: u16| cmps.iter().all(|&(_, v, eq)| (x == v) == eq);
            *r = run(table, syms, slot, &passes).unwrap_or(NO_RUN);
        }
        self.runs = runs.runs.into_boxed_slice();
        self.passes = runs.passes.into_boxed_slice();
        self.filter_runs = filter_runs.into_boxed_slice();
        self.probe_runs = probe_runs.into_boxed_slice();
        self
    }

    /// The [`Run`] of probe `c`'s any-assignment (of check `c`;
    /// [`NO_RUN`]: none; checked): the probe holds iff some symbol passes
    /// (ticTacToe's and connect4's "some square is empty"). Callgrind
    /// instructions per playout (`rbg bench --engine interp`, seed 1)
    /// against the probe's loop: ticTacToe 14,384 -> 13,908 (-3.3%),
    /// connect4 59,833 -> 58,808 (-1.7%), hex -1.4%, reversi -0.5%,
    /// breakthrough -0.3%, the others within 0.25%.
    #[inline(always)]
    pub(crate) fn probe_run(&self, c: u32) -> u32 {
        self.probe_runs.get(c as usize).copied().unwrap_or(NO_RUN)
    }

    /// The number of probes whose symbols are scanned as a [`Run`].
    pub fn probe_runs(&self) -> usize {
        self.probe_runs.iter().filter(|&&r| r != NO_RUN).count()
    }

    /// The [`Run`] of the filter of the any-assignment at instruction `at`
    /// of the checks' programs ([`NO_RUN`]: none; checked).
    #[inline(always)]
    pub(crate) fn filter_run(&self, at: usize) -> u32 {
        self.filter_runs.get(at).copied().unwrap_or(NO_RUN)
    }

    /// The number of programs' any-assignments whose filter is a [`Run`].
    pub fn filter_runs(&self) -> usize {
        self.filter_runs.iter().filter(|&&r| r != NO_RUN).count()
    }

    /// The number of any-assignments whose symbols form a [`Run`].
    pub fn runs(&self) -> usize {
        self.any_runs.iter().filter(|&&r| r != NO_RUN).count()
    }

    /// The number of [`Tail`](super::Tail)s whose test is scanned as a [`Run`].
    pub fn tail_runs(&self) -> usize {
        self.tails.iter().filter(|t| t.run != NO_RUN).count()
    }

    /// Run `run`'s first slot, its length and its table of passing values
    /// ([`Run`]; checked): symbol `i` passes iff `pass[st[base + i]]`.
    #[inline(always)]
    pub(crate) fn run_parts(&self, run: u32) -> (usize, usize, &[bool; 1 << 16]) {
        let r = &self.runs[run as usize];
        (
            r.base as usize,
            r.len as usize,
            &self.passes[r.pass as usize],
        )
    }

    /// Run `run`'s passing symbols as a mask (bit `i`: symbol `i`), if it
    /// has a [`Range`] and at most [`MAX_LEN`] symbols (checked).
    #[inline(always)]
    pub(crate) fn run_mask(&self, st: &[u16], run: u32) -> Option<u64> {
        let r = &self.runs[run as usize];
        let range = r.range.filter(|_| r.len as usize <= MAX_LEN)?;
        Some(range.mask(&st[r.base as usize..][..r.len as usize]))
    }

    /// The values run `run`'s symbols `0 ..= hi` read (at most its
    /// length) and its table of passing values ([`Run`]; checked).
    #[inline(always)]
    pub(crate) fn run_values<'a>(
        &self,
        st: &'a [u16],
        run: u32,
        hi: u32,
    ) -> (&'a [u16], &[bool; 1 << 16]) {
        let r = &self.runs[run as usize];
        let vals = &st[r.base as usize..][..=(hi as usize).min(r.len as usize - 1)];
        (vals, &self.passes[r.pass as usize])
    }

    /// The highest index `i <= hi` of run `run`'s symbols that passes
    /// ([`Run`]), if any (checked).
    #[inline(always)]
    pub(crate) fn last_in_run(&self, st: &[u16], run: u32, hi: u32) -> Option<u32> {
        let (vals, pass) = self.run_values(st, run, hi);
        if let Some(range) = self.runs[run as usize].range {
            return range.last(vals, vals.len() as u32 - 1);
        }
        let i = vals.iter().rposition(|&v| pass[v as usize])?;
        Some(i as u32)
    }

    /// Appends to `out` the symbols `syms[hi]` down to `syms[0]` (at most
    /// run `run`'s, its symbols) that pass ([`Run`]): nothing written.
    /// Out of line: inside the tail's records (`Walker::tail_moves`), its
    /// other loops laid out anew cost reversi 0.5% more. Tried and dropped:
    /// an index loop below both lengths instead of the reversed zip
    /// (callgrind instructions per playout at 578035a: ticTacToe
    /// 12,959 both, hex 653,657 -> 653,661, connect4 59,674 both).
    #[inline(never)]
    pub(crate) fn passing_in_run(
        &self,
        st: &[u16],
        run: u32,
        (syms, hi): (&[u16], u32),
        out: &mut Vec<u16>,
    ) {
        let (vals, pass) = self.run_values(st, run, hi);
        for (&v, &x) in vals.iter().zip(syms).rev() {
            if pass[v as usize] {
                out.push(x);
            }
        }
    }

    /// Whether some symbol of run `run` passes ([`Run`]; checked): a
    /// probe's answer, no index wanted. Callgrind instructions per playout
    /// (`rbg bench --engine interp`, seed 1) on translations, against
    /// `first_in_run(..).is_some()` (the passing value's index found after
    /// its block): ticTacToe 12,497 -> 12,353 (-1.2%), connect4 -0.4%,
    /// hex -0.4%, the others within 0.03%; with the last (partial) block
    /// folded as the others, not left at the first passing value,
    /// connect4 +1.4% (its seven columns are all partial block).
    #[inline(always)]
    pub(crate) fn any_in_run(&self, st: &[u16], run: u32) -> bool {
        let r = &self.runs[run as usize];
        let pass = &self.passes[r.pass as usize];
        let vals = &st[r.base as usize..][..r.len as usize];
        let mut blocks = vals.chunks_exact(CHUNK);
        blocks.any(|b| some_pass(pass, b)) || blocks.remainder().iter().any(|&v| pass[v as usize])
    }

    /// The lowest index `i >= lo` of run `run`'s symbols that passes
    /// ([`Run`]), if any (checked).
    #[inline(always)]
    pub(crate) fn first_in_run(&self, st: &[u16], run: u32, lo: u32) -> Option<u32> {
        let r = &self.runs[run as usize];
        let pass = &self.passes[r.pass as usize];
        let vals = &st[r.base as usize..][..r.len as usize];
        let mut i = lo as usize;
        while let Some(block) = vals.get(i..i + CHUNK) {
            if some_pass(pass, block) {
                break;
            }
            i += CHUNK;
        }
        let k = vals.get(i..)?.iter().position(|&v| pass[v as usize])?;
        Some((i + k) as u32)
    }
}
