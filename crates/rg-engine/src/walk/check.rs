//! Checks in a move walk: memoised per semistate version, kept per
//! semistate, decided by a probe, a one-slot search (`shortcut.rs`), a
//! program (`program.rs`, run by `walk/program.rs`), a pure search over the
//! nodes, speculated moves (`mirror.rs`), or else the walk itself
//! ([`Walker::run`]) with its own visited set.

use super::*;
use crate::moves::MoveList;
use crate::sealed::NO_RUN;
use crate::tables::{Op, Operand, Probe, Tables, NO_NODE, NO_SLOT};
use crate::RunError;

/// Decides a check that has a probe: some symbol of its any-assignment
/// (written in place, then restored) makes every comparison hold.
#[inline]
fn probe(t: &Tables, st: &mut [u16], p: &Probe) -> bool {
    let conds = &t.probe_conds[p.conds.0 as usize..(p.conds.0 + p.conds.1) as usize];
    #[inline(always)]
    fn holds(t: &Tables, st: &[u16], conds: &[(Operand, Operand, bool)]) -> bool {
        for &(a, b, eq) in conds {
            if (read(t, st, a) == read(t, st, b)) != eq {
                return false;
            }
        }
        true
    }
    let Some((slot, (start, len))) = p.any else {
        return holds(t, st, conds);
    };
    let old = st[slot as usize];
    let mut found = false;
    for &sym in &t.any_syms[start as usize..(start + len) as usize] {
        st[slot as usize] = sym;
        if holds(t, st, conds) {
            found = true;
            break;
        }
    }
    st[slot as usize] = old;
    found
}

impl Walker {
    /// Evaluates check `c` in the current semistate (memoised per version).
    /// Inline: the memo's answer, and a leaf check outside any other
    /// (which meets no error), come without a call. Callgrind instructions
    /// per playout (`rbg --engine interp bench`, seed 1) on translations,
    /// against the call for every check: hex -6.8%, reversi -6.7%,
    /// ticTacToe -4.3%, breakthrough -4.0%, amazons -3.1%, chess -1.7%,
    /// englishDraughts -0.3%, connect4 +0.6%.
    #[inline(always)]
    pub(super) fn check(&mut self, t: &Tables, st: &mut [u16], c: u32) -> Result<bool, RunError> {
        let (version, result) = self.memo[c as usize];
        if version == self.version {
            return Ok(result);
        }
        if self.direct[c as usize] == LEAF && self.active.is_empty() {
            return Ok(self.leaf(t, st, c));
        }
        self.decide(t, st, c)
    }

    /// [`Walker::check`] as a call (for loops that call it rarely: a
    /// program's nested checks; inlined there, HRG reversi +2.5%).
    #[inline(never)]
    pub(super) fn check_call(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        c: u32,
    ) -> Result<bool, RunError> {
        let (version, result) = self.memo[c as usize];
        if version == self.version {
            return Ok(result);
        }
        // A one-slot check straight to its search, without the call of
        // `decide` (go's liberty checks nested in its placement check).
        if let How::Slot(slot, first) = self.how[c as usize] {
            return self.slot_check(t, st, c, slot, first);
        }
        self.decide(t, st, c)
    }

    /// The errors of entering a check that starts at `start`: the same
    /// check already being evaluated, or too many nested.
    #[inline(always)]
    #[allow(clippy::manual_contains)]
    fn may_enter(&self, start: u32) -> Result<(), RunError> {
        // A plain loop: the stack is short (a vectorised `contains` spent
        // ~25 instructions on its setup).
        if self.active.iter().any(|&a| a == start) {
            return Err(RunError::RecursiveCheck(start));
        }
        if self.active.len() >= MAX_CHECK_DEPTH {
            return Err(RunError::ChecksTooDeep(MAX_CHECK_DEPTH));
        }
        Ok(())
    }

    /// A one-slot check that goes straight to its search ([`How::Slot`]):
    /// the same errors as [`Walker::decide`]'s walk, then its search (which
    /// nests no check: no `active` entry), without the kept semistate (a
    /// cache of the same result).
    #[inline(always)]
    fn slot_check(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        c: u32,
        slot: u32,
        first: bool,
    ) -> Result<bool, RunError> {
        let check = t.checks[c as usize];
        self.may_enter(check.start)?;
        let r = self
            .slot_search
            .reach(t, st, (check.start, check.target), slot, first);
        self.memo[c as usize] = (self.version, r);
        Ok(r)
    }

    /// Runs leaf check `c`'s instructions and memoises the answer (its
    /// errors already ruled out).
    #[inline(always)]
    fn leaf(&mut self, t: &Tables, st: &[u16], c: u32) -> bool {
        let range = t.code.leaf_range(c).expect("a leaf check");
        let r = t.code.leaf(st, range);
        self.memo[c as usize] = (self.version, r);
        r
    }

    /// [`Walker::check`] past its memo: by its [`How`], each way its own
    /// function (called as this one's tail: no frame here).
    ///
    /// Callgrind instructions (`rbg bench G.rg --engine interp --seed 1
    /// --playouts 20`, in `play_random`), translations, against the probe,
    /// speculation and program tables each looked up in turn here and a
    /// program's loop called from here (this and a program's entry in one
    /// frame, [`Walker::by_program`]): go 3,235,633,573 -> 3,160,167,777
    /// (-2.3%); then this function a dispatch only: go -1.5% more
    /// (3,065,665,500 with `program::Step`'s byte tag), reversi -1.7%,
    /// englishDraughts -0.8%.
    #[inline(never)]
    #[cfg_attr(target_os = "linux", link_section = ".text.hot.rg_walk")]
    fn decide(&mut self, t: &Tables, st: &mut [u16], c: u32) -> Result<bool, RunError> {
        match self.how[c as usize] {
            How::Leaf => self.by_leaf(t, st, c),
            How::Slot(..) => self.by_slot(t, st, c),
            How::ProgramChoices => self.by_program::<true, true>(t, st, c),
            How::ProgramWrites => self.by_program::<true, false>(t, st, c),
            How::ProgramReads => self.by_program::<false, false>(t, st, c),
            How::Other(_) => self.decide_other(t, st, c),
        }
    }

    /// A leaf check ([`How::Leaf`]): comparisons only. The same errors as
    /// [`Walker::decide_other`]'s walk, then its instructions, without the
    /// kept semistate (a cache of the same result).
    #[inline(never)]
    #[cfg_attr(target_os = "linux", link_section = ".text.hot.rg_walk")]
    fn by_leaf(&mut self, t: &Tables, st: &mut [u16], c: u32) -> Result<bool, RunError> {
        self.may_enter(t.checks[c as usize].start)?;
        Ok(self.leaf(t, st, c))
    }

    /// A one-slot check of [`How::Slot`] ([`Walker::slot_check`]).
    #[inline(never)]
    #[cfg_attr(target_os = "linux", link_section = ".text.hot.rg_walk")]
    fn by_slot(&mut self, t: &Tables, st: &mut [u16], c: u32) -> Result<bool, RunError> {
        let How::Slot(slot, first) = self.how[c as usize] else {
            unreachable!("a one-slot check straight to its search")
        };
        self.slot_check(t, st, c, slot, first)
    }

    /// The result kept for check `c` in a semistate equal to `st`, if the
    /// check keeps them ([`Held::keeps`]; memoised then); with whether it
    /// keeps them and the key hash it is kept under.
    #[inline(always)]
    fn kept_result(&mut self, t: &Tables, st: &[u16], c: u32) -> (Option<bool>, bool, u64) {
        // A kept semistate is looked up, and the key hash summed for it,
        // only while the check keeps them (a stale one seldom recurs).
        let keeps = self.held[c as usize].keeps();
        let hash = match keeps {
            true => self.key_hash(t, st),
            false => 0,
        };
        let held = &self.held[c as usize];
        if keeps && held.hash == hash && !held.slots.is_empty() && held.slots[..] == st[..] {
            let r = held.result;
            let h = &mut self.held[c as usize].hits;
            *h = h.saturating_add(1);
            self.memo[c as usize] = (self.version, r);
            return (Some(r), keeps, hash);
        }
        (None, keeps, hash)
    }

    /// Memoises check `c`'s result `r`, decided in `st`, and keeps it
    /// with `st` if the check keeps them (`keeps`, under `hash`).
    #[inline(always)]
    fn decided(&mut self, st: &[u16], c: u32, (keeps, hash): (bool, u64), r: bool) {
        self.memo[c as usize] = (self.version, r);
        let held = &mut self.held[c as usize];
        if keeps {
            held.kept = held.kept.saturating_add(1);
            held.hash = hash;
            held.result = r;
            held.slots.clear();
            held.slots.extend_from_slice(st);
        }
    }

    /// A check decided by its program ([`How::ProgramWrites`] and the
    /// like): the errors, the kept semistate, then the program's loop.
    #[inline(never)]
    #[cfg_attr(target_os = "linux", link_section = ".text.hot.rg_walk")]
    fn by_program<const WRITES: bool, const CHOICES: bool>(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        c: u32,
    ) -> Result<bool, RunError> {
        let start = t.checks[c as usize].start;
        self.may_enter(start)?;
        let (kept, keeps, hash) = self.kept_result(t, st, c);
        if let Some(r) = kept {
            return Ok(r);
        }
        let p = t.programs[c as usize].expect("a program's check");
        self.active.push(start);
        let r = self.program_loop::<WRITES, CHOICES>(t, st, p)?;
        self.active.pop();
        self.decided(st, c, (keeps, hash), r);
        Ok(r)
    }

    /// A check of [`How::Other`].
    #[inline(never)]
    #[cfg_attr(target_os = "linux", link_section = ".text.hot.rg_walk")]
    fn decide_other(&mut self, t: &Tables, st: &mut [u16], c: u32) -> Result<bool, RunError> {
        if let Some(p) = t.probes[c as usize] {
            // Its symbols read consecutive slots: scanned in the
            // semistate, nothing written (`sealed::Run`).
            let r = match t.code.probe_run(c) {
                NO_RUN => probe(t, st, &p),
                run => t.code.any_in_run(st, run),
            };
            self.memo[c as usize] = (self.version, r);
            return Ok(r);
        }
        let check = t.checks[c as usize];
        self.may_enter(check.start)?;
        // A speculated check first: its decision keeps no semistate (the
        // moves it generates are kept instead), so looking one up for it
        // summed the key hash for nothing (foxAndHounds' end-of-turn
        // check, ~160 instructions a turn).
        if self.active.is_empty() && t.speculated[c as usize] != NO_NODE {
            if let Some(r) = self.speculate(t, st, c) {
                self.memo[c as usize] = (self.version, r);
                return Ok(r);
            }
        }
        let (kept, keeps, hash) = self.kept_result(t, st, c);
        if let Some(r) = kept {
            return Ok(r);
        }
        self.active.push(check.start);
        let r = if let Some(p) = t.programs[c as usize] {
            // A program with no any-assignment runs a loop without their
            // arms (nor the tables they read, which its entry would load).
            match (p.writes, p.choices) {
                (true, true) => self.program::<true, true>(t, st, p)?,
                (true, false) => self.program::<true, false>(t, st, p)?,
                (false, _) => self.program::<false, false>(t, st, p)?,
            }
        } else if t.pure[c as usize] {
            self.pure_reach(t, st, check.start, check.target)?
        } else if t.one_slot[c as usize] != NO_SLOT {
            let slot = t.one_slot[c as usize];
            let How::Other(first) = self.how[c as usize] else {
                unreachable!("a check of `How::Other`")
            };
            self.slot_search
                .reach(t, st, (check.start, check.target), slot, first)
        } else {
            self.run::<false, MoveList>(t, st, check.start, check.target, None)?
        };
        self.active.pop();
        self.decided(st, c, (keeps, hash), r);
        Ok(r)
    }

    /// Decides speculated check `c` of a move enumeration by generating the
    /// moves it mirrors, kept for the state its `player` assignment leads
    /// to (`mirror.rs`): it holds if there are some. `None`: not decided
    /// here (no moves, which the check's own walk then decides, not in a
    /// move enumeration, generation stopped, or an error, which the check's
    /// own walk then meets or not as written).
    /// Out of line (inlined into [`Walker::decide_other`], it left
    /// `AheadOf::made` out: knightthrough +0.2%).
    #[inline(never)]
    #[cfg_attr(target_os = "linux", link_section = ".text.hot.rg_walk")]
    pub(super) fn speculate(&mut self, t: &Tables, st: &mut [u16], c: u32) -> Option<bool> {
        let kind = self.sink_kind?;
        let y = t.speculated[c as usize];
        let e = t.edges[t.nodes[y as usize].first as usize];
        let Op::SetPlayer(p) = e.op else {
            unreachable!("a speculated check's node assigns `player`")
        };
        let a = self.ahead.get_or_insert_with(|| {
            Box::new(Ahead {
                walker: Walker {
                    speculates: false,
                    ..Walker::new(t)
                },
                ..Ahead::default()
            })
        });
        if !a.of.start() {
            return None;
        }
        let slot = t.player_slot as usize;
        let old = st[slot];
        st[slot] = read(t, st, p);
        let r = match kind {
            true => a
                .walker
                .moves(t, st, e.to, &mut a.kept.list)
                .map(|_| a.kept.list.len()),
            false => a
                .walker
                .moves(t, st, e.to, &mut a.kept.effects)
                .map(|_| a.kept.effects.len()),
        };
        a.of.made(r.is_ok(), st, e.to, kind);
        st[slot] = old;
        r.ok().filter(|&n| n > 0).map(|_| true)
    }

    /// Decides a pure check (`shortcut.rs`): a search over the nodes, each
    /// expanded once (the semistate never changes, so neither does a node's
    /// key), edges tried last to first as in [`Walker::run`].
    pub(super) fn pure_reach(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        root: u32,
        target: u32,
    ) -> Result<bool, RunError> {
        if root == target {
            return Ok(true);
        }
        let depth = self.active.len();
        if self.marks.len() <= depth {
            self.marks.resize_with(depth + 1, Marks::default);
        }
        let m = &mut self.marks[depth];
        if m.at.len() != t.nodes.len() {
            m.at = vec![0; t.nodes.len()];
            m.gen = 0;
        }
        crate::seen::next_generation(&mut m.gen, &mut m.at);
        let gen = m.gen;
        m.at[root as usize] = gen;
        let base = self.pending.len();
        self.pending.push(root);
        let mut found = false;
        'nodes: while self.pending.len() > base {
            let node = self.pending.pop().expect("above base");
            let info = t.nodes[node as usize];
            let (first, end) = if info.disjoint {
                match self.first_legal(t, st, node)? {
                    Some(e) => (e, e + 1),
                    None => continue,
                }
            } else {
                (info.first, info.end)
            };
            for i in (first..end).rev() {
                let e = &t.edges[i as usize];
                let legal = match e.op {
                    Op::Cmp(a, b, eq) => (read(t, st, a) == read(t, st, b)) == eq,
                    Op::CmpMap(i, eq) => crate::maps::equal(t, st, i) == eq,
                    Op::Reach(c, positive) => self.check(t, st, c)? == positive,
                    _ => true,
                };
                if !legal {
                    continue;
                }
                if e.to == target {
                    found = true;
                    break 'nodes;
                }
                let at = &mut self.marks[depth].at[e.to as usize];
                if *at != gen {
                    *at = gen;
                    self.pending.push(e.to);
                }
            }
        }
        self.pending.truncate(base);
        Ok(found)
    }
}
