//! The walk's loop ([`Walker::run`]): frames pushed at choice nodes, each
//! taking its next (edge, symbol) and following the chain of specialised
//! instructions (`code.rs`) inline until a choice, a dead end, a failed
//! test or a move's end.
//!
//! Modifier chains run in one arm of the loop: a `$$ v` instruction whose
//! inline continuation is a `$ s` takes it there, and the `board[x] = c`
//! or `player = p` after that, without going back to the loop's dispatch
//! (a translation's `vertex index_N` tags before each modifier; not past a
//! check's target). In translated englishDraughts, `$$` then `$` was 17%
//! of the interpreter's dispatches (1.18M of 6.9M in 200,000 walks), and
//! every `$` followed a `$$`.
//!
//! Callgrind instructions per playout (`rbg --engine interp bench`,
//! seed 1) against 5456932: englishDraughts 580,205 -> 573,100 (-1.22%),
//! chess +0.48%, breakthrough +0.14%, ticTacToe +0.12%, connect4
//! +0.09%, hex and reversi +0.03%, amazons -0.01%. Cachegrind's branch
//! simulation (englishDraughts, 100 playouts, load included): indirect
//! mispredictions 472K -> 302K, conditional 654K -> 682K. Time,
//! englishDraughts (rates per CPU second, medians of 10 alternated 1 s
//! runs on a loaded machine): 1.069, 1.085, and 0.995 during a build
//! (paired median 1.022); chess 0.992 and 0.988, breakthrough 1.001.
//!
//! A switch (`switch.rs`) entered from the chain (`Walker::enter`) takes
//! the last edge of its range untested (it passes: the range ends at an
//! edge that does) and goes on from that comparison's inline continuation
//! without dispatching it (translated englishDraughts' "which piece of
//! mine stands here" after each square picked). Callgrind instructions
//! per playout (`rbg --engine interp bench`, seed 1) against 5d4e544:
//! englishDraughts 573,563 -> 552,129 (-3.74%), chess -2.86%, reversi
//! -1.30%, hex -0.11%, breakthrough +0.31%, ticTacToe and connect4
//! unchanged, amazons within 0.05%. The same for any edge `enter` takes
//! whose own comparison passed (a test per `enter`), against that:
//! englishDraughts 552,129 -> 549,997 (-0.39%), breakthrough -0.13%,
//! reversi -0.12%, amazons +0.07%, chess and hex +0.02%, ticTacToe and
//! connect4 unchanged. Tried and dropped: every chain started from a
//! frame as well at its comparison's continuation when the frame passed
//! it (a test per chain): englishDraughts +0.19%, breakthrough +0.94%,
//! chess +0.17%.
//!
//! Tried and dropped: the same after the comparisons and `x = f[y]`
//! (`board[x] == c` then `$$`, `x = f[y]` then `$$`): englishDraughts
//! indirect mispredictions 208K but instructions -0.81% only,
//! breakthrough +1.85%, chess +1.6%, connect4 +1.0%, amazons +0.9%; with
//! those arms' lookahead only in tagged walks, no better; after the
//! comparisons only, `$$` next: chess +1.9%, breakthrough +1.5%,
//! englishDraughts -0.15%.

use super::filter::{
    any_tests, cyclic_value, first_passing, other_filter, run_filter, switch_range,
};
use super::root::FAN_ROOT;
use super::*;
use crate::code::{self, Kind};
use crate::moves::{Sink, TailWalks};
use crate::rays::MAX_RAY;
use crate::sealed::{Filter, Table, TailTest, NO_RUN, NO_TAIL};
use crate::seen::{Seen, MAX_KEYS, MAX_MOVE_KEYS};
use crate::tables::{Guard, NodeInfo, Op, Tables, NO_DENSE, NO_EDGE, NO_SWITCH};
use crate::RunError;

/// Whether the walk goes on from `c` straight to its inline continuation
/// `c.next`: it has one (below [`code::RAY`]) and, when deciding a check,
/// `c` does not land on the check's `target` (where that walk stops).
#[inline(always)]
fn goes_inline<const MOVES: bool>(c: &code::Code, target: u32) -> bool {
    c.next < code::RAY && (MOVES || c.to != target)
}

/// Whether edge `e`, taken from a frame, passes its test
/// ([`crate::code::Pre`]) in the frame's semistate: the edge whose
/// comparison that decided (not tested again; [`NO_EDGE`]: none), or
/// `None` when the edge would fail at once. A check's walk reaches its
/// `target` before a test after it: such an edge is taken untested.
#[inline(always)]
fn pre_passes<const MOVES: bool>(
    t: &Tables,
    code: Table,
    st: &[u16],
    e: u32,
    target: u32,
) -> Option<u32> {
    let p = t.code.pre(e);
    match p.kind {
        Kind::Skip => Some(NO_EDGE),
        _ if !MOVES && p.passed != e && code.at(e).to == target => Some(NO_EDGE),
        // SAFETY: a test of `t.code` (`Sealed::pre`); `st` checked where
        // the walk starts.
        k => unsafe { t.code.holds(st, k) }.then_some(p.passed),
    }
}

/// [`Frame::sub`]'s flag: the frame's edge below `next` passed its test
/// when the frame was pushed ([`Walker::enter`]); the bits below it are
/// the edge its test decided (all ones: [`NO_EDGE`]). Edges are fewer
/// than `PRE` (`code::DEAD`). Callgrind instructions per playout (`rbg
/// --engine interp bench`, seed 1) on translations, against the test
/// evaluated again when the frame takes the edge: amazons -3.7%,
/// breakthrough -1.6%, the others within 0.12% but hex +0.3% (its
/// any-assignments' frames test the flag). Tried and dropped: the flag
/// tested before `sub > 0` (every game +0.6% to +2.4% but amazons), the
/// frame's `sub` set after its push (englishDraughts +0.65%).
pub(super) const PRE: u32 = 1 << 31;

impl Walker {
    /// Pushes the frame of choice node `node`. Inline, with `@disjoint`
    /// nodes and the limit's error out of line: the walk pushes one at
    /// every choice, and a call returned its `Result` through memory
    /// (callgrind instructions per playout on translations: amazons
    /// -6.7%, breakthrough -4.6%, englishDraughts -3.1%, the others
    /// -0.1% to -1.9%).
    #[inline(always)]
    pub(super) fn push_frame(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        node: u32,
    ) -> Result<(), RunError> {
        if self.frames.len() >= MAX_FRAMES {
            return Err(too_many_frames(node));
        }
        let info = &t.nodes[node as usize];
        let (first, next) = if info.disjoint {
            self.disjoint_range(t, st, node)?
        } else if info.switch != NO_SWITCH {
            // Only the edges that can pass (`switch.rs`).
            switch_range(t, st, info.switch)
        } else {
            (info.first, info.end)
        };
        self.push_range(info, first, next, 0);
        Ok(())
    }

    /// Pushes a frame of a node (`info`) with edges `first .. next` to try.
    #[inline(always)]
    pub(super) fn push_range(&mut self, info: &NodeInfo, first: u32, next: u32, sub: u32) {
        // A relay's frame stands for the frame below (`local.rs`): its
        // number, and the stamps left to that frame to restore.
        let (number, stamp_log) = match (info.relay, self.frames.last()) {
            (true, Some(below)) => (below.number, RELAY),
            _ => (self.fresh_version(), self.stamp_log.len() as u32),
        };
        self.frames.push(Frame {
            next,
            first,
            sub,
            log: self.log.len() as u32,
            // One of the two is 0 (`counted_tags` outside lean walks).
            tags: self.tags.len() as u32 + self.counted_tags,
            hash: self.hash,
            tag_hash: self.tag_hash,
            version: self.version,
            number,
            stamp_log,
        });
    }

    /// Enters choice node `node` from the walk's chain: the edges whose
    /// test ([`crate::code::Pre`]) fails are never tried, the last edge
    /// that passes is taken at once, and a frame is pushed for the others
    /// (none when none is left, but for a local check's frame node).
    /// Gives the edge taken and the edge its test passed, or `None` (a
    /// frame pushed as [`Walker::push_frame`] does, or none passes).
    #[inline(always)]
    fn enter<const MOVES: bool>(
        &mut self,
        t: &Tables,
        code: Table,
        st: &mut [u16],
        node: u32,
        target: u32,
    ) -> Result<Option<(u32, u32)>, RunError> {
        if self.frames.len() >= MAX_FRAMES {
            return Err(too_many_frames(node));
        }
        let info = &t.nodes[node as usize];
        let (first, mut next) = if info.disjoint {
            self.push_frame(t, st, node)?;
            return Ok(None);
        } else if info.switch != NO_SWITCH {
            // The range's last edge passes (`switch.rs`): its own
            // comparison, not tested again.
            let (first, next) = switch_range(t, st, info.switch);
            if next <= first {
                return Ok(None);
            }
            let e = next - 1;
            debug_assert_eq!(t.code.pre(e).passed, e, "a switch's comparison");
            self.enter_rest::<MOVES>(t, code, st, info, (first, e), target);
            // Its comparison is not dispatched: the walk goes on from its
            // inline continuation, where there is one.
            let c = code.at(e);
            return Ok(Some(match goes_inline::<MOVES>(c, target) {
                true => (c.next, NO_EDGE),
                false => (e, e),
            }));
        } else {
            (info.first, info.end)
        };
        // The last edge that passes.
        let (edge, passed) = loop {
            if next <= first {
                return Ok(None);
            }
            next -= 1;
            if t.code.pick(next).len > 0 {
                // An any-assignment: taken by its frame.
                self.push_range(info, first, next + 1, 0);
                return Ok(None);
            }
            if let Some(p) = pre_passes::<MOVES>(t, code, st, next, target) {
                break (next, p);
            }
        };
        self.enter_rest::<MOVES>(t, code, st, info, (first, next), target);
        // An edge whose own comparison passed goes on from its inline
        // continuation, the comparison not dispatched.
        let c = code.at(edge);
        if passed == edge && goes_inline::<MOVES>(c, target) {
            return Ok(Some((c.next, NO_EDGE)));
        }
        Ok(Some((edge, passed)))
    }

    /// [`Walker::enter`]'s frame for the edges `first .. next` below the
    /// edge taken that pass (none: no frame, but for a local check's frame
    /// node), which takes the top one as passed, its test not evaluated
    /// again (`PRE`).
    #[inline(always)]
    fn enter_rest<const MOVES: bool>(
        &mut self,
        t: &Tables,
        code: Table,
        st: &[u16],
        info: &NodeInfo,
        (first, next): (u32, u32),
        target: u32,
    ) {
        let mut rest = next;
        let mut sub = 0;
        while rest > first {
            let e = rest - 1;
            if t.code.pick(e).len > 0 {
                break;
            }
            if let Some(p) = pre_passes::<MOVES>(t, code, st, e, target) {
                sub = PRE | (p & !PRE);
                break;
            }
            rest = e;
        }
        if rest > first || info.owner {
            self.push_range(info, first, rest, sub);
        }
    }

    /// The edges a frame of `@disjoint` node `node` tries: its first legal
    /// edge, or none.
    #[inline(never)]
    pub(super) fn disjoint_range(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        node: u32,
    ) -> Result<(u32, u32), RunError> {
        Ok(match self.first_legal(t, st, node)? {
            Some(e) => (e, e + 1),
            None => {
                let first = t.nodes[node as usize].first;
                (first, first)
            }
        })
    }

    /// The first edge of `node` (file order) whose action is legal now.
    pub(super) fn first_legal(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        node: u32,
    ) -> Result<Option<u32>, RunError> {
        let info = t.nodes[node as usize];
        let mut from = info.first;
        if self.active.is_empty() {
            // Its leading leaf checks in one loop (`sealed/scan.rs`).
            let (found, scanned) = t.code.scan(st, node);
            if let Some(i) = found {
                return Ok(Some(info.first + i));
            }
            from += scanned;
        }
        for i in from..info.end {
            let legal = match t.edges[i as usize].op {
                Op::Cmp(a, b, eq) => (read(t, st, a) == read(t, st, b)) == eq,
                Op::CmpMap(i, eq) => crate::maps::equal(t, st, i) == eq,
                Op::Reach(c, positive) => self.check(t, st, c)? == positive,
                _ => true,
            };
            if legal {
                return Ok(Some(i));
            }
        }
        Ok(None)
    }

    /// Records the moves of an any-assignment's tail `i`
    /// ([`crate::sealed::Tail`]) for its symbols `start + from` down to
    /// `start` (`Tables::any_syms`), last to first as its frame takes
    /// them: the symbols that pass the tail's tests first (a first
    /// comparison `board[x] == c` of the assigned slot with its operands
    /// hoisted), then for each the walk's log and the symbol, and
    /// `player`. The assignment's log entry stays (the frame's rollback
    /// undoes it). Out of line: the walk's loop keeps its registers.
    #[inline(never)]
    fn tail_moves<S: Sink>(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        i: u32,
        (start, from): (u32, u32),
        out: Option<&mut S>,
    ) -> Result<(), RunError> {
        let Some(out) = out else {
            return Ok(());
        };
        let (tail, tests) = t.code.tail(i);
        debug_assert!(self.active.is_empty(), "a move walk's leaf checks");
        let slot = tail.slot as usize;
        self.log.push((tail.slot, st[slot]));
        let syms = t.any_syms[start as usize..=(start + from) as usize]
            .iter()
            .rev();
        let mut passing = std::mem::take(&mut self.tail_syms);
        passing.clear();
        // SAFETY: tests of `t.code` (`Sealed::tail`); `st` checked where
        // the walk starts.
        let passes = |st: &[u16], c| unsafe { t.code.passes(st, c) };
        match tests {
            // The comparison read in the semistate (`sealed::Run`).
            [_] if tail.run != NO_RUN => {
                let syms = &t.any_syms[start as usize..];
                t.code
                    .passing_in_run(st, tail.run, (syms, from), &mut passing);
            }
            // The first comparison read so, the other tests taken on each
            // symbol that passes it as the scan finds it (the scan resumed
            // below it: the symbol is written into the semistate).
            [_, rest @ ..] if tail.run != NO_RUN => {
                let syms = &t.any_syms[start as usize..];
                let (base, n, pass) = t.code.run_parts(tail.run);
                let mut below = n.min(from as usize + 1);
                while let Some(i) = st[base..base + below]
                    .iter()
                    .rposition(|&v| pass[v as usize])
                {
                    let x = syms[i];
                    st[slot] = x;
                    if rest.iter().all(|&c| passes(st, c)) {
                        passing.push(x);
                    }
                    below = i;
                }
            }
            &[TailTest::Cmp(Kind::CmpInd {
                slot: s,
                table,
                value,
                eq,
            }), ref rest @ ..]
                if s == tail.slot =>
            {
                for &x in syms {
                    st[slot] = x;
                    // SAFETY: the operands of a test of `t.code`, as above.
                    let v = unsafe { t.code.ind(st, s, table) };
                    if (v == value) == eq && rest.iter().all(|&c| passes(st, c)) {
                        passing.push(x);
                    }
                }
            }
            _ => {
                for &x in syms {
                    st[slot] = x;
                    if tests.iter().all(|&c| passes(st, c)) {
                        passing.push(x);
                    }
                }
            }
        }
        let size = passing.len().saturating_mul(self.log.len() + 1);
        let r = match out.recorded().saturating_add(size) > MAX_RECORDED {
            true => Err(RunError::MovesTooLarge(MAX_RECORDED)),
            false => {
                let w = TailWalks {
                    log: &self.log,
                    syms: &passing,
                    player: (t.player_slot, tail.player),
                    node: tail.node,
                };
                out.push_syms(st, w);
                Ok(())
            }
        };
        self.tail_syms = passing;
        r
    }

    /// The moves from a root whose edge `e` records them at once
    /// ([`Tables::root_tails`]), in a lean untagged walk (as
    /// [`Walker::run`]'s): as its frame would, without the frame or the
    /// visited set.
    pub(super) fn root_moves<S: Sink>(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        e: u32,
        out: &mut S,
    ) -> Result<(), RunError> {
        let p = t.code.pick(e);
        // The sealed instructions' reads need no more (`sealed.rs`).
        assert!(st.len() >= t.code.slots(), "a semistate of the game");
        let log = self.log.len();
        let r = self.tail_moves(t, st, p.tail, (p.start, p.len - 1), Some(out));
        self.rollback(st, log);
        r
    }

    /// One enumeration from `root`: collecting move walks into `out`
    /// (`MOVES`), or deciding whether `target` is reached (tags ignored,
    /// `player` assignments ordinary). Leaves the semistate, tags and frames
    /// as it found them.
    #[cfg_attr(target_os = "linux", link_section = ".text.hot.rg_walk")]
    pub(super) fn run<const MOVES: bool, S: Sink>(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        root: u32,
        target: u32,
        mut out: Option<&mut S>,
    ) -> Result<bool, RunError> {
        // The sealed instructions' reads need no more (`sealed.rs`).
        assert!(st.len() >= t.code.slots(), "a semistate of the game");
        let depth = self.active.len();
        if self.seen.len() <= depth {
            self.seen.resize_with(depth + 1, Seen::default);
        }
        self.seen[depth].clear(match MOVES {
            true => MAX_MOVE_KEYS,
            false => MAX_KEYS,
        });
        if root == target {
            return Ok(true);
        }
        // A lean walk: tags only counted (a sink that keeps none, and no
        // visited check keys on them).
        let lean = MOVES && !S::VISIBILITY && !t.tags_read;
        // Tags off cycles are no-ops when the others are counted against
        // a lower bound (`Tables::tag_limit`): the table without them
        // (`sealed.rs`).
        let untagged = lean && self.tag_limit < MAX_TAGS as u32;
        let code = t.code.table(!untagged);
        let base = self.frames.len();
        let entry = (
            self.log.len(),
            self.tags.len() + self.counted_tags as usize,
            self.hash,
            self.tag_hash,
            self.version,
        );
        // The root's visit (always new) records its key; out of line, so
        // only where it has a visited check (ticTacToe's keeper walks
        // have none: a call per walk). With `Effects::push_syms`' ends
        // written unchecked, callgrind instructions per playout against
        // the call per walk: hex -6.3%, ticTacToe -2.6%, connect4 -1.4%,
        // breakthrough -0.7%, reversi -0.2%, chess +0.4%, the others
        // within 0.1%.
        if t.nodes[root as usize].guard != Guard::None {
            self.visit::<MOVES>(t, st, root, depth)?;
        }
        // The root's edge followed without a frame, and the edge whose
        // comparison is known to hold on it (`walk/root.rs`).
        let (mut chain, chain_passed) = match t.root_starts[root as usize] {
            s if MOVES && s != NO_EDGE && s & FAN_ROOT != 0 => {
                match self.enter_fan(t, st, root, s & !FAN_ROOT)? {
                    Some(taken) => taken,
                    None => (NO_EDGE, NO_EDGE),
                }
            }
            s if s & FAN_ROOT != 0 => {
                self.push_frame(t, st, root)?;
                (NO_EDGE, NO_EDGE)
            }
            e => (e, NO_EDGE),
        };
        let mut found = false;
        'frames: loop {
            // The next (edge, symbol) of the frame: an edge whose test
            // fails is skipped, its comparison's edge then holds without
            // being tested again (`passed`).
            let mut sym = 0u16;
            let mut passed = NO_EDGE;
            let mut top;
            let (mut edge, pick) = if chain != NO_EDGE {
                // The root's edge, no frame of this walk below it: `top`
                // is read only once one is pushed (the edge has no
                // filter, and no local check's frame node is passed).
                top = self.frames.len().wrapping_sub(1);
                passed = chain_passed;
                let e = std::mem::replace(&mut chain, NO_EDGE);
                (e, t.code.pick(e))
            } else {
                if self.frames.len() <= base {
                    break;
                }
                top = self.frames.len() - 1;
                let f = self.frames[top];
                self.rollback(st, f.log as usize);
                if lean {
                    self.counted_tags = f.tags;
                } else {
                    self.tags.truncate(f.tags as usize);
                    self.tag_ids.truncate(f.tags as usize);
                    self.vis.truncate(f.tags as usize);
                }
                self.hash = f.hash;
                self.tag_hash = f.tag_hash;
                self.version = f.version;
                let f = &mut self.frames[top];
                if f.sub > 0 {
                    if f.sub & PRE != 0 {
                        // The edge below `next` passed its test (`enter`).
                        f.next -= 1;
                        passed = match f.sub & !PRE {
                            p if p == NO_EDGE & !PRE => NO_EDGE,
                            p => p,
                        };
                        f.sub = 0;
                        (f.next, t.code.pick(f.next))
                    } else {
                        f.sub -= 1;
                        let p = t.code.pick(f.next);
                        sym = t.any_syms[(p.start + f.sub) as usize];
                        (f.next, p)
                    }
                } else {
                    let p = loop {
                        if f.next <= f.first {
                            break None;
                        }
                        f.next -= 1;
                        let p = t.code.pick(f.next);
                        if p.len > 0 {
                            if MOVES && untagged && p.tail != NO_TAIL {
                                // An any-assignment into a move's end
                                // (`sealed::Tail`): the moves of all its
                                // symbols recorded at once.
                                let syms = (p.start, p.len - 1);
                                self.tail_moves(t, st, p.tail, syms, out.as_deref_mut())?;
                                continue 'frames;
                            }
                            f.sub = p.len - 1;
                            sym = t.any_syms[(p.start + p.len - 1) as usize];
                            break Some(p);
                        }
                        if let Some(e) = pre_passes::<MOVES>(t, code, st, f.next, target) {
                            passed = e;
                            break Some(p);
                        }
                    };
                    match p {
                        Some(p) => (f.next, p),
                        None => {
                            let len = f.stamp_log;
                            if len != RELAY {
                                self.restore_stamps(len);
                            }
                            self.frames.pop();
                            continue;
                        }
                    }
                }
            };
            // A filtered any-assignment skips the symbols its comparison
            // rejects (`shortcut.rs`); the comparison's edge, next in the
            // chain, then holds without being tested again (`passed`).
            // Not into a check's target, which the walk reaches at once.
            match pick.test {
                Filter::None => {}
                Filter::Ind {
                    edge: filter,
                    slot,
                    table,
                    value,
                    eq,
                } if MOVES || t.edges[edge as usize].to != target => {
                    let f = &mut self.frames[top];
                    let found = first_passing(t, st, f, slot, pick.start, &mut sym, |st| {
                        // SAFETY: operands of an instruction of `t.code`
                        // (`Filter::Ind`); `st` checked where the walk
                        // starts.
                        (unsafe { t.code.ind(st, slot, table) } == value) == eq
                    });
                    if !found {
                        continue 'frames;
                    }
                    passed = filter;
                }
                Filter::Tests { slot, first, count } => {
                    let to = t.edges[edge as usize].to;
                    if MOVES || to != target {
                        let f = &mut self.frames[top];
                        let cmps = (first, count);
                        if !any_tests(t, st, f, (slot, pick.start), to, cmps, &mut sym) {
                            continue 'frames;
                        }
                    }
                }
                Filter::Run { run } if MOVES || t.edges[edge as usize].to != target => {
                    let f = &mut self.frames[top];
                    if !run_filter(t, st, f, (run, pick.start), &mut sym) {
                        continue 'frames;
                    }
                }
                Filter::Mask { run, passed: p } if MOVES || t.edges[edge as usize].to != target => {
                    if !self.mask_filter(t, st, top, (run, pick.start, pick.len), &mut sym) {
                        continue 'frames;
                    }
                    passed = p;
                }
                Filter::Ind { .. } | Filter::Run { .. } | Filter::Mask { .. } => {}
                Filter::Other => {
                    let f = &mut self.frames[top];
                    match other_filter(t, st, f, edge, target, &mut sym) {
                        Some(p) => passed = p,
                        None => continue 'frames,
                    }
                }
            }
            // Follow the chain from this edge: each edge's specialised
            // action (`code.rs`), the rarer ones as written. The operands
            // and continuations of `t.code`'s instructions are read
            // unchecked: `sealed.rs` verified them, and `st` is long
            // enough (checked where the walk starts).
            let mut c = code.at(edge);
            loop {
                // A comparison's test, unless the filter passed it.
                macro_rules! test {
                    ($holds:expr) => {
                        if edge == passed {
                            passed = NO_EDGE;
                        } else if !$holds {
                            continue 'frames;
                        }
                    };
                }
                // `player = v`: a move walk's end (a check's write).
                // `x[y] = v`, `c`'s `Kind::SetIndImm` (in its own arm and at
                // the end of a modifier chain).
                macro_rules! set_ind_imm {
                    ($slot:expr, $table:expr, $value:expr) => {{
                        // SAFETY: operands of `c` (see above).
                        let at = unsafe { t.code.place(st, $slot, $table)? };
                        // SAFETY: a slot `place` gave.
                        unsafe { self.write_sealed(t, st, at, $value) };
                    }};
                }
                macro_rules! set_player {
                    ($v:expr) => {{
                        let v = $v;
                        if MOVES {
                            if let Some(out) = out.as_deref_mut() {
                                out.push(
                                    &self.tags,
                                    &self.vis,
                                    self.log.iter().map(|&(slot, _)| slot),
                                    st,
                                    t.player_slot,
                                    v,
                                    c.to,
                                    self.tag_hash,
                                );
                                if out.recorded() > MAX_RECORDED {
                                    return Err(RunError::MovesTooLarge(MAX_RECORDED));
                                }
                            }
                            continue 'frames;
                        }
                        self.write(t, st, t.player_slot, v);
                    }};
                }
                // `$ s` (`Some(s)`) or `$$ v` (`None`: `v`'s slot read).
                macro_rules! tag {
                    ($s:expr, $slot:expr) => {
                        if lean {
                            // (Only tags on cycles in the untagged table.)
                            self.count_tag(c.to)?;
                        } else if MOVES {
                            let v = match $s {
                                Some(s) => s,
                                // SAFETY: an operand of `c` (see above).
                                None => unsafe { t.code.get(st, $slot) },
                            };
                            self.push_tag(t, st, v, S::VISIBILITY, c.to)?;
                        }
                    };
                }
                // `c`'s inline continuation, taken in `c`'s arm when it is
                // of `$kind` (its own arm's `$body`), without the loop's
                // dispatch: when `c` passes no check's target.
                macro_rules! then {
                    ($($kind:pat => $body:expr),+) => {
                        if goes_inline::<MOVES>(&c, target) {
                            // SAFETY: an inline continuation of `c`.
                            let n = unsafe { code.inline(c.next) };
                            match n.kind {
                                $($kind => {
                                    edge = c.next;
                                    c = n;
                                    $body
                                })+
                                _ => {}
                            }
                        }
                    };
                }
                match c.kind {
                    Kind::Skip => {}
                    Kind::Player(v) => set_player!(v),
                    Kind::Tag(s) => tag!(Some(s), 0),
                    Kind::TagVar(slot) => {
                        tag!(None, slot);
                        // A translation's `$$ coord $ index_N` (`vertex
                        // index_N`), then the modifier or the move's end
                        // (the module's notes).
                        then!(Kind::Tag(s) => {
                            tag!(Some(s), 0);
                            then!(
                                Kind::SetIndImm { slot, table, value } => {
                                    set_ind_imm!(slot, table, value)
                                },
                                Kind::Player(v) => set_player!(v)
                            );
                        });
                    }
                    k @ (Kind::CmpSlot { .. }
                    | Kind::CmpInd { .. }
                    | Kind::CmpTab { .. }
                    | Kind::CmpTabInd { .. }) => {
                        // SAFETY: `c`'s kind (see above).
                        test!(unsafe { t.code.holds(st, k) })
                    }
                    Kind::SetImm { to, value } => {
                        // SAFETY: an operand of `c` (see above).
                        unsafe { self.write_sealed(t, st, to, value) }
                    }
                    Kind::SetTab { to, slot, table } => {
                        // SAFETY: operands of `c` (see above).
                        let v = unsafe { t.code.tab(st, slot, table) };
                        // SAFETY: as above.
                        unsafe { self.write_sealed(t, st, to, v) };
                    }
                    Kind::SetIndImm { slot, table, value } => set_ind_imm!(slot, table, value),
                    Kind::AnySlot(slot) => {
                        // SAFETY: an operand of `c` (see above).
                        unsafe { self.write_sealed(t, st, slot, sym) }
                    }
                    Kind::Branch { check, yes, no } => {
                        // `? c` or `! c`, whichever holds, its action done.
                        edge = if self.check(t, st, check)? { yes } else { no };
                        // SAFETY: an edge's instruction (`Sealed::new`).
                        c = unsafe { code.inline(edge) };
                    }
                    Kind::Other => match t.edges[edge as usize].op {
                        Op::Cmp(a, b, eq) => test!((read(t, st, a) == read(t, st, b)) == eq),
                        Op::CmpMap(i, eq) => {
                            if crate::maps::equal(t, st, i) != eq {
                                continue 'frames;
                            }
                        }
                        Op::Reach(c, positive) => {
                            if self.check(t, st, c)? != positive {
                                continue 'frames;
                            }
                        }
                        Op::Assign(p, v) => {
                            let v = read(t, st, v);
                            let slot = place(t, st, p)?;
                            self.write(t, st, slot, v);
                        }
                        Op::AssignAny(p, _) => {
                            let slot = place(t, st, p)?;
                            self.write(t, st, slot, sym);
                        }
                        Op::AssignMap(i) => {
                            let mut writes = std::mem::take(&mut self.map_writes);
                            writes.clear();
                            let r = crate::maps::assign(t, st, i, &mut writes);
                            for &(slot, v) in &writes {
                                self.write(t, st, slot, v);
                            }
                            self.map_writes = writes;
                            r?;
                        }
                        Op::SetPlayer(v) => set_player!(read(t, st, v)),
                        Op::Skip | Op::Tag(_) | Op::TagVar(_) => {
                            unreachable!("specialised (`code.rs`)")
                        }
                    },
                }
                if !MOVES && c.to == target {
                    found = true;
                    break 'frames;
                }
                if c.next < code::RAY {
                    // Inline, no visited check, no step count.
                    edge = c.next;
                    // SAFETY: an inline continuation of `c`.
                    c = unsafe { code.inline(edge) };
                    continue;
                }
                if c.next & code::GUARD != 0 {
                    let cyclic = t.edges[edge as usize].cyclic;
                    if cyclic == NO_EDGE || cyclic_value(t, st, cyclic) {
                        let info = &t.nodes[c.to as usize];
                        let new = if info.local != NO_DENSE {
                            // Frame `top` is the choice node before `c.to`.
                            let number = self.frames[top].number;
                            self.stamp(st, info, number)
                        } else {
                            self.visit::<MOVES>(t, st, c.to, depth)?
                        };
                        if !new {
                            continue 'frames;
                        }
                    }
                }
                match c.next & code::FLOW {
                    // A ray recorded at once (`rays.rs`), where the frames
                    // below leave room for its own.
                    code::RAY if self.frames.len() < MAX_FRAMES - MAX_RAY => {
                        self.ray_moves(t, st, c.to, out.as_deref_mut())?;
                        continue 'frames;
                    }
                    code::FRAME | code::RAY => {
                        match self.enter::<MOVES>(t, code, st, c.to, target)? {
                            Some((e, p)) => {
                                // Under the frame just pushed, if one was
                                // (none yet after a frameless root's).
                                top = self.frames.len().wrapping_sub(1);
                                edge = e;
                                passed = p;
                                c = code.at(edge);
                            }
                            None => continue 'frames,
                        }
                    }
                    code::DEAD => continue 'frames,
                    next => {
                        // Only `@unique` nodes can close a cycle of single
                        // edges without a visited check: bound such walks
                        // (`code::COUNT`).
                        if c.next & code::COUNT != 0 {
                            self.steps += 1;
                            if self.steps > MAX_STEPS || self.log.len() > MAX_LOG {
                                return Err(too_long(self.steps, c.to));
                            }
                        }
                        edge = next;
                        // SAFETY: an inline continuation of `c`.
                        c = unsafe { code.inline(edge) };
                    }
                }
            }
        }
        if let Some(f) = self.frames.get(base).filter(|f| f.stamp_log != RELAY) {
            self.restore_stamps(f.stamp_log);
        }
        self.frames.truncate(base);
        let (log, tags, hash, tag_hash, version) = entry;
        self.rollback(st, log);
        if lean {
            self.counted_tags = tags as u32;
        } else {
            self.tags.truncate(tags);
            self.tag_ids.truncate(tags);
            self.vis.truncate(tags);
        }
        self.hash = hash;
        self.tag_hash = tag_hash;
        self.version = version;
        Ok(found)
    }
}
