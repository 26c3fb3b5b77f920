//! Checks decided by their programs (`program.rs`): straight-line
//! comparisons and assignments, any-assignments enumerated from a stack of
//! choices, writes undone through the walk's log.

use super::*;
use crate::program::{Program, Step, NO_TABLE};
use crate::sealed::mask::{highest, up_to};
use crate::sealed::{Sealed, NO_RUN};
use crate::seen::{Seen, MAX_KEYS};
use crate::tables::{Operand, Tables};
use crate::RunError;

/// The value of an operand, a computed read's commonest shape
/// (`f[board[x]]`) inline.
#[inline(always)]
fn operand(t: &Tables, st: &[u16], o: Operand) -> u16 {
    match o {
        Operand::Read(i) => read_computed(t, st, i),
        o => read(t, st, o),
    }
}

/// Whether a comparison step of a program holds.
#[inline(always)]
fn compare(t: &Tables, st: &[u16], step: &Step) -> bool {
    match *step {
        Step::IndImm(s, table, v, eq) => (read(t, st, Operand::Ind(s, table)) == v) == eq,
        Step::IndTab(s, table, s2, table2, eq) => {
            (read(t, st, Operand::Ind(s, table)) == read(t, st, Operand::Tab(s2, table2))) == eq
        }
        Step::Cmp(a, b, eq) => (operand(t, st, a) == operand(t, st, b)) == eq,
        _ => unreachable!("not a comparison"),
    }
}

/// Steps `left` down to the next symbol of `syms` below it that passes
/// the test; whether there is one.
#[inline(always)]
fn next_passing(syms: &[u16], left: &mut u32, mut passes: impl FnMut(u16) -> bool) -> bool {
    while *left > 0 {
        *left -= 1;
        if passes(syms[*left as usize]) {
            return true;
        }
    }
    false
}

/// The index of the next symbol below `left` of the any-assignment at
/// instruction `at` of the programs (to `slot`) that passes its filter,
/// if any: `st` as it was.
#[inline(always)]
fn next_symbol(t: &Tables, st: &mut [u16], at: usize, slot: u32, left: u32) -> Option<u32> {
    let Step::Any(_, (start, len), _) = t.program[at].step else {
        unreachable!("choices are any-assignments")
    };
    let syms = &t.any_syms[start as usize..(start + len) as usize];
    let mut left = left;
    let f = &t.any_filters[at];
    let run = t.code.filter_run(at);
    let found = if run != NO_RUN {
        // `board[x] == c` for each, the squares consecutive: read in
        // the semistate (`sealed::Run`), nothing written.
        let i = left
            .checked_sub(1)
            .and_then(|hi| t.code.last_in_run(st, run, hi));
        left = i.unwrap_or(0);
        i.is_some()
    } else if f.count > 0 {
        // Symbols that fail every comparison the subtree starts with
        // are skipped (`program::any_filters`).
        let tests = &t.any_filter_list[f.first as usize..(f.first + f.count) as usize];
        let old = st[slot as usize];
        let found = match *tests {
            // `board[x] == c` for each: one read of the square.
            _ if f.table != NO_TABLE => next_passing(syms, &mut left, |x| {
                f.passes(st[t.fun[(f.table + x as u32) as usize] as usize])
            }),
            [one] => {
                let cmp = &t.program[one as usize].step;
                next_passing(syms, &mut left, |x| {
                    st[slot as usize] = x;
                    compare(t, st, cmp)
                })
            }
            _ => next_passing(syms, &mut left, |x| {
                st[slot as usize] = x;
                tests
                    .iter()
                    .any(|&i| compare(t, st, &t.program[i as usize].step))
            }),
        };
        st[slot as usize] = old;
        found
    } else {
        left = left.wrapping_sub(1);
        left != u32::MAX
    };
    found.then_some(left)
}

impl Walker {
    /// Decides a check by its program (`program.rs`); `CHOICES`: it may
    /// have any-assignments (a program without writes has none). Out of
    /// line: for a speculated check's program (`How::Other`); the others'
    /// loop is inlined into `Walker::by_program`.
    #[inline(never)]
    #[cfg_attr(target_os = "linux", link_section = ".text.hot.rg_walk")]
    pub(super) fn program<const WRITES: bool, const CHOICES: bool>(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        p: Program,
    ) -> Result<bool, RunError> {
        self.program_loop::<WRITES, CHOICES>(t, st, p)
    }

    /// [`Walker::program`] inline.
    #[inline(always)]
    pub(super) fn program_loop<const WRITES: bool, const CHOICES: bool>(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        p: Program,
    ) -> Result<bool, RunError> {
        let depth = self.active.len();
        if p.visits {
            if self.seen.len() <= depth {
                self.seen.resize_with(depth + 1, Seen::default);
            }
            self.seen[depth].clear(MAX_KEYS);
        }
        let prog = &t.program;
        let base = self.log.len();
        let choices = self.choices.len();
        let (hash, version) = (self.hash, self.version);
        let mut pc = p.start as usize;
        let found = loop {
            let ins = &prog[pc];
            if WRITES && self.log.len() > base + ins.depth as usize {
                self.unwind(t, st, base + ins.depth as usize);
            }
            let holds = match ins.step {
                Step::IndImm(s, table, v, eq) => (read(t, st, Operand::Ind(s, table)) == v) == eq,
                Step::IndTab(s, table, s2, table2, eq) => {
                    (read(t, st, Operand::Ind(s, table)) == read(t, st, Operand::Tab(s2, table2)))
                        == eq
                }
                Step::Cmp(a, b, eq) => (operand(t, st, a) == operand(t, st, b)) == eq,
                Step::CmpMap(i, eq) => crate::maps::equal(t, st, i) == eq,
                Step::Reach(c, positive) => self.check_call(t, st, c)? == positive,
                Step::Assign(p, v) => {
                    let v = read(t, st, v);
                    let slot = place(t, st, p)?;
                    self.write(t, st, slot, v);
                    true
                }
                Step::Any(..) | Step::Retry if !CHOICES => {
                    unreachable!("a program without any-assignments")
                }
                Step::Any(p, ..) => {
                    let slot = place(t, st, p)?;
                    if ins.accept {
                        // Every symbol reaches the target.
                        break true;
                    }
                    self.choices.push((pc as u32, u32::MAX, slot));
                    match self.symbols(t, st, pc) {
                        Some(next) => pc = next,
                        None => break true,
                    }
                    continue;
                }
                Step::Retry => {
                    let at = self.choices.last().expect("an open any-assignment").0;
                    match self.symbols(t, st, at as usize) {
                        Some(next) => pc = next,
                        None => break true,
                    }
                    continue;
                }
                Step::Visit(node) => self.visit::<false>(t, st, node, depth)?,
                Step::Pass => true,
                Step::End => break false,
            };
            if !holds {
                pc = ins.skip as usize;
            } else if ins.accept {
                break true;
            } else {
                pc += 1;
            }
        };
        self.unwind(t, st, base);
        self.choices.truncate(choices);
        self.hash = hash;
        self.version = version;
        Ok(found)
    }

    /// Takes the symbols of the any-assignment at instruction `at` (the
    /// top choice) from the next one ([`Walker::advance`]): where the
    /// program goes on, or `None` when the check holds. When its subtree
    /// is a leaf check (`Sealed::subtree`: comparisons only, which meet no
    /// error and write nothing), each symbol's subtree is decided as one,
    /// from the written symbol: accepted, or the next symbol.
    ///
    /// Callgrind instructions per playout (`rbg bench --engine interp`,
    /// seed 1, in `play_random`) on the suite's translations, against the
    /// subtree run step by step: chess 29,574,879 -> 21,879,209 (-26.0%:
    /// its "some piece of mine attacks this square" per square), reversi
    /// 1,362,714 -> 1,257,512 (-7.7%), englishDraughts 678,532 -> 632,287
    /// (-6.8%: "some man of mine can capture"), hex +0.85%, ticTacToe
    /// +0.4%, connect4 +0.3% (the loop laid out anew), the others within
    /// 0.05%. Then each symbol written unlogged (no log entry, key hash or
    /// version: a leaf check reads none of them), the slot restored once,
    /// instead of a logged write and an unwind per symbol, against
    /// 9d7d5e5: englishDraughts 644,697 -> 605,809 (-6.0%), reversi
    /// 1,264,401 -> 1,238,514 (-2.0%), the others within 0.03%; native
    /// englishDraughts and reversi unchanged. Where the any-assignment's
    /// filter is a run (`sealed::Run`), its scan and the leaf checks in
    /// one loop, the run looked up once: englishDraughts 605,809 ->
    /// 590,246 (-2.6%), reversi 1,238,514 -> 1,228,643 (-0.8%), the
    /// others within 0.01%.
    #[inline(always)]
    fn symbols(&mut self, t: &Tables, st: &mut [u16], at: usize) -> Option<usize> {
        let Some(sub) = t.code.subtree(at) else {
            return Some(self.advance(t, st, at));
        };
        // Each symbol written in place, unlogged, and the slot restored
        // once: a leaf check reads neither the log nor the key hash.
        let ins = &t.program[at];
        let Step::Any(_, (start, len), _) = ins.step else {
            unreachable!("choices are any-assignments")
        };
        let syms = &t.any_syms[start as usize..(start + len) as usize];
        let (_, left, slot) = *self.choices.last().expect("an open choice");
        let old = st[slot as usize];
        let mut left = left.min(len);
        let found = match t.code.filter_run(at) {
            NO_RUN => loop {
                let Some(i) = next_symbol(t, st, at, slot, left) else {
                    break false;
                };
                left = i;
                st[slot as usize] = syms[i as usize];
                if t.code.leaf(st, sub) {
                    break true;
                }
            },
            run => match t.code.run_mask(st, run) {
                // The passing symbols as a mask, highest first.
                Some(m) => {
                    let mut m = match left {
                        0 => 0,
                        l => up_to(m, l - 1),
                    };
                    loop {
                        let Some(i) = highest(m) else { break false };
                        m ^= 1 << i;
                        let x = syms[i as usize];
                        st[slot as usize] = x;
                        let holds = match Sealed::keyed_on(sub, slot) {
                            true => t.code.leaf_of_key(st, sub, x),
                            false => t.code.leaf(st, sub),
                        };
                        if holds {
                            break true;
                        }
                    }
                }
                None => {
                    // The run's squares read in place (`sealed::Run`: the
                    // assigned slot is not among them), the scan and the leaf
                    // checks in one loop.
                    let (base, n, pass) = t.code.run_parts(run);
                    let mut i = (left as usize).min(n);
                    loop {
                        if i == 0 {
                            break false;
                        }
                        i -= 1;
                        if pass[st[base + i] as usize] {
                            st[slot as usize] = syms[i];
                            if t.code.leaf(st, sub) {
                                break true;
                            }
                        }
                    }
                }
            },
        };
        st[slot as usize] = old;
        if found {
            return None;
        }
        self.choices.pop();
        Some(ins.skip as usize)
    }

    /// Takes the next symbol of the any-assignment at instruction `at`
    /// (the top choice; `u32::MAX` symbols left: all), last to first, and
    /// gives where the program goes on: into its subtree, or past it when
    /// no symbol is left.
    #[inline]
    pub(super) fn advance(&mut self, t: &Tables, st: &mut [u16], at: usize) -> usize {
        let ins = &t.program[at];
        let Step::Any(_, (start, len), _) = ins.step else {
            unreachable!("choices are any-assignments")
        };
        let (_, left, slot) = *self.choices.last().expect("an open choice");
        let Some(left) = next_symbol(t, st, at, slot, left.min(len)) else {
            self.choices.pop();
            return ins.skip as usize;
        };
        self.choices.last_mut().expect("an open choice").1 = left;
        let x = t.any_syms[(start + left) as usize];
        self.write(t, st, slot, x);
        at + 1
    }

    /// Undoes the writes past `to`, the key hash with them; the semistate
    /// gets a fresh version.
    pub(super) fn unwind(&mut self, t: &Tables, st: &mut [u16], to: usize) {
        while self.log.len() > to {
            let (slot, old) = self.log.pop().expect("longer than `to`");
            let m = t.hash_mul[slot as usize];
            let cur = st[slot as usize];
            self.hash = self
                .hash
                .wrapping_sub(m.wrapping_mul((cur as u64).wrapping_sub(old as u64)));
            st[slot as usize] = old;
        }
        self.version = self.fresh_version();
    }
}
