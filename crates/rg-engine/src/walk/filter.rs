//! An any-assignment's symbols filtered before its frame takes them
//! (`shortcut.rs`, filtered any-assignments; `sealed.rs`, [`crate::sealed::Filter`]): the
//! symbols the comparison after it rejects are skipped in place. Also the
//! switch's range of edges and the rays' cycle test the walk's loop reads.

use crate::shortcut::some_holds;
use crate::tables::{Op, Operand, Place, Tables, NO_EDGE, NO_SWITCH};

use super::*;

/// Takes frame `f`'s any-assignment (to `slot`, symbols from `start`) on
/// from symbol `sym` to the first symbol that `pass` accepts, last to
/// first (a filtered any-assignment, `shortcut.rs`); whether there is one.
/// The slot is left as it was.
#[inline(always)]
pub(super) fn first_passing(
    t: &Tables,
    st: &mut [u16],
    f: &mut Frame,
    slot: u32,
    start: u32,
    sym: &mut u16,
    pass: impl Fn(&[u16]) -> bool,
) -> bool {
    let old = st[slot as usize];
    let found = loop {
        st[slot as usize] = *sym;
        if pass(st) {
            break true;
        }
        if f.sub == 0 {
            break false;
        }
        f.sub -= 1;
        *sym = t.any_syms[(start + f.sub) as usize];
    };
    st[slot as usize] = old;
    found
}

/// The filter of any-assignment `edge` ([`crate::sealed::Filter::Other`]: a comparison
/// not specialised) taken on from symbol `sym` to the first symbol that
/// passes: the filter's edge ([`NO_EDGE`]: none tested, into the check's
/// `target`), or `None` when no symbol is left. Out of line: the walk's
/// loop stays as small.
#[inline(never)]
pub(super) fn other_filter(
    t: &Tables,
    st: &mut [u16],
    f: &mut Frame,
    edge: u32,
    target: u32,
    sym: &mut u16,
) -> Option<u32> {
    let e = &t.edges[edge as usize];
    if e.to == target {
        return Some(NO_EDGE);
    }
    let Op::AssignAny(Place::Slot(slot), (start, _)) = e.op else {
        return Some(NO_EDGE);
    };
    let Op::Cmp(a, b, eq) = t.edges[e.filter as usize].op else {
        return Some(NO_EDGE);
    };
    // Against a symbol: one read per symbol.
    let found = match (a, b) {
        (a, Operand::Imm(v)) | (Operand::Imm(v), a) => {
            first_passing(t, st, f, slot, start, sym, |st| (read(t, st, a) == v) == eq)
        }
        (a, b) => first_passing(t, st, f, slot, start, sym, |st| {
            (read(t, st, a) == read(t, st, b)) == eq
        }),
    };
    found.then_some(e.filter)
}

/// [`first_passing`] for an any-assignment (`slot`, symbols from `start`)
/// into node `to` with comparisons `cmps` ([`crate::tables::Act::AnyTests`]): through
/// its switch when it is one. Out of line: the walk's loop stays as small.
#[inline(never)]
pub(super) fn any_tests(
    t: &Tables,
    st: &mut [u16],
    f: &mut Frame,
    (slot, start): (u32, u32),
    to: u32,
    (first, count): (u32, u32),
    sym: &mut u16,
) -> bool {
    match t.nodes[to as usize].switch {
        NO_SWITCH => {
            let cmps = &t.edges[first as usize..(first + count) as usize];
            first_passing(t, st, f, slot, start, sym, |st| some_holds(t, st, cmps))
        }
        i => first_passing(t, st, f, slot, start, sym, |st| {
            let (a, b) = switch_range(t, st, i);
            a != b
        }),
    }
}

/// [`first_passing`] for an any-assignment (symbols from `start`) whose
/// symbols' reads form run `run` ([`crate::sealed::Filter::Run`]): the
/// reads scanned in the semistate, nothing written. Out of line: the
/// walk's loop stays as small.
#[inline(never)]
#[cfg_attr(target_os = "linux", link_section = ".text.hot.rg_walk")]
pub(super) fn run_filter(
    t: &Tables,
    st: &[u16],
    f: &mut Frame,
    (run, start): (u32, u32),
    sym: &mut u16,
) -> bool {
    match t.code.last_in_run(st, run, f.sub) {
        Some(i) => {
            f.sub = i;
            *sym = t.any_syms[(start + i) as usize];
            true
        }
        None => {
            f.sub = 0;
            false
        }
    }
}

impl Walker {
    /// [`first_passing`] for the any-assignment (symbols `start ..
    /// start + len`) of frame `frames[top]` whose symbols' reads form run
    /// `run`, its passing values one range ([`crate::sealed::Filter::Mask`]):
    /// the scan's start takes the run's mask ([`Walker::start_mask`]) into
    /// `run_masks[top]`, and the frame's later symbols come from it, none
    /// read again: the frame rolls the semistate back to where it was
    /// pushed before each symbol, so the mask still holds.
    ///
    /// Callgrind instructions per playout (`rbg bench --engine interp`,
    /// seed 1, in `play_random`) against 85cb6b4, against the scan
    /// resumed eight values a step out of line ([`run_filter`]):
    /// englishDraughts 532,843 -> 515,693 (-3.22%), breakthrough -0.06%,
    /// hex +0.06%, reversi +0.04%, chess +0.02%, the others unchanged.
    /// Time, englishDraughts (alternated 1 s runs, new/old): 1.119, 1.110.
    /// Kept for every [`crate::sealed::Filter::Run`] (a run without a range
    /// read again each time) it cost chess 0.97% and breakthrough 0.82%;
    /// out of line, with the call, englishDraughts -0.4% only.
    ///
    /// A [`crate::sealed::Filter::Ind`] (one comparison, `board[x] == c`)
    /// whose reads form such a run takes its symbols from the mask too, its
    /// comparison then passed (issue 13). Callgrind instructions per
    /// playout (interp, seed 1, in `play_random`) against 6c13823:
    /// foxAndHounds-10x10 357,821 -> 331,225 (-7.4%), breakthrough 748,418
    /// -> 706,940 (-5.5%), foxAndHounds 203,904 -> 194,167 (-4.8%),
    /// knightthrough 445,873 -> 424,357 (-4.8%), englishDraughts +0.2%,
    /// amazons +0.01%, the others within 0.001% (foxAndHounds-12x12's 72
    /// squares: no mask). Time (alternated 1 s runs, new/base medians of
    /// 6): breakthrough 1.160, knightthrough 1.143, foxAndHounds 1.104.
    #[inline(always)]
    pub(super) fn mask_filter(
        &mut self,
        t: &Tables,
        st: &[u16],
        top: usize,
        (run, start, len): (u32, u32, u32),
        sym: &mut u16,
    ) -> bool {
        let hi = self.frames[top].sub;
        let kept = match self.run_masks.get(top) {
            Some(&m) if hi + 1 < len => m,
            _ => self.start_mask(t, st, top, run),
        };
        // Symbols `0 ..= hi` (`hi` at most 63 but at a scan's start:
        // a `Range`'s run has at most 64 symbols).
        let m = kept & (u64::MAX >> (63 - hi.min(63)));
        let f = &mut self.frames[top];
        match m {
            0 => {
                f.sub = 0;
                false
            }
            m => {
                let i = 63 - m.leading_zeros();
                f.sub = i;
                *sym = t.any_syms[(start + i) as usize];
                true
            }
        }
    }

    /// Run `run`'s mask ([`crate::sealed::Filter::Mask`]), kept as
    /// `run_masks[top]`.
    #[inline(never)]
    fn start_mask(&mut self, t: &Tables, st: &[u16], top: usize, run: u32) -> u64 {
        if self.run_masks.len() <= top {
            self.run_masks.resize(top + 1, 0);
        }
        let m = t.code.run_mask(st, run).unwrap_or(0);
        self.run_masks[top] = m;
        m
    }
}

/// The edges of switch `i` (`switch.rs`) that can pass now: from the
/// first to the last that do.
#[inline(always)]
pub(crate) fn switch_range(t: &Tables, st: &[u16], i: u32) -> (u32, u32) {
    let s = t.switches[i as usize];
    let v = read(t, st, Operand::Ind(s.slot, s.table));
    t.switch_ranges[(s.ranges + v as u32) as usize]
}

/// Whether the value of a ray's slot lies on a cycle of its map
/// (`cycles.rs`): only then is the visit checked.
#[inline(always)]
pub(super) fn cyclic_value(t: &Tables, st: &[u16], i: u32) -> bool {
    let (slot, table) = t.cyclic[i as usize];
    t.fun[(table + st[slot as usize] as u32) as usize] != 0
}
