//! Move walks and reachability checks: one depth-first walk over (node,
//! semistate) with the actions applied in place and undone from a log.
//!
//! The walk follows `rg-language.md` §5.4 so that counts match the reference:
//! a node's edges are tried last to first (the reference pushes them in file
//! order and pops them), the symbols of `T(*)` likewise; a state is dropped
//! when its key (node, tags, user variables) was seen before in the same
//! enumeration — checked only at the nodes `analysis.rs` says can repeat a
//! key; a `player` assignment ends a move walk and yields a move. `@disjoint`
//! nodes take only their first legal edge in file order.
//!
//! Frames are pushed only at nodes with a choice (several edges or a
//! `T(*)`); chains of single edges are followed inline. A frame remembers the
//! undo-log length, tag count, key hash and semistate *version* at its node;
//! every assignment gives the semistate a fresh version, so a reachability
//! check's result is reused while the version is unchanged. A check runs the
//! same walk (tags ignored, `player` assignments ordinary) with its own
//! visited set, nested at most [`MAX_CHECK_DEPTH`] deep.
//!
//! This module holds the workspace ([`Walker`]), its entry points and the
//! undo log; the parts, in `walk/`: `run.rs` the loop and its frames,
//! `filter.rs` the any-assignments' filters a frame applies, `visit.rs`
//! the visited checks, `check.rs` the checks' evaluation (memo, probes,
//! speculation, pure searches), `program.rs` checks run as programs, and
//! `read.rs` the reads of operands and places, `root.rs` how a walk starts
//! at its root, `straight.rs` keeper walks with no choice applied in place.
//!
//! The functions a playout runs most (the walk's loop and its run filter,
//! `decide`, `speculate` and the check programs, [`Walker::moves`] and the
//! forward model's `play_random` and `after_move`) are placed side by side
//! in one section, `.text.hot.rg_walk` (Linux only). Apart, the linker left
//! them over ~110 KB, whose hot lines met in a few sets of the 32 KB,
//! 8-way instruction cache, past its ways: callgrind's cache simulation
//! (this machine's geometry) counted per playout, interpreted, seed 1,
//! englishDraughts 2,212 instruction-cache misses (the RBG interpreter
//! none), reversi 2,272, chess 3,319, amazons 786; placed together 861,
//! 463, 96 and 49 (the others at most 8 either way), the same
//! instructions. Time, englishDraughts (states per CPU second, paired
//! medians of 16 alternated 1 s runs): 1.018 and 1.021. Which lines meet
//! depends on the layout, so the counts move with unrelated changes.

mod ahead;
mod check;
mod filter;
mod program;
mod ray;
mod read;
mod root;
mod run;
mod straight;
mod visit;

use crate::moves::{Kept, MoveList, Sink};
use crate::prefixes::Prefixes;
use crate::seen::Seen;
use crate::shortcut::SlotSearch;
use crate::tables::{Tables, NO_EDGE, NO_NODE, NO_SLOT};
use crate::RunError;

pub use ahead::AheadOf;
pub(crate) use filter::switch_range;
pub(crate) use read::{compares, offset, place_access, read_computed};
pub use read::{mix, place, read, tag_step};
pub(crate) use root::{root_starts, root_tails};
pub use root::{Landing, FAN_ROOT};
pub(crate) use straight::straight_roots;

/// Checks nested deeper than this are an error.
pub const MAX_CHECK_DEPTH: usize = 64;
/// Moves longer than this many tags are an error (a tag on a cycle).
pub const MAX_TAGS: usize = 1 << 11;
/// Walks with more nested choices than this are an error.
pub const MAX_FRAMES: usize = 1 << 20;
/// Edges followed without a frame in one enumeration beyond this are an error
/// (only games with `@unique` nodes can loop there; 2^25 bounds such a walk
/// to well under a second). Counted only where single edges form a cycle
/// ([`Tables::has_unique`]).
pub const MAX_STEPS: usize = 1 << 25;
/// Assignments on the current walk beyond this are an error.
pub const MAX_LOG: usize = 1 << 22;
/// The moves of one state holding more tags and slot changes than this
/// together are an error (so an improper game cannot exhaust the memory:
/// at most 512 MiB per list; arimaa's positions hold up to 31M).
pub const MAX_RECORDED: usize = 1 << 26;

#[derive(Clone, Copy)]
struct Frame {
    /// Edges `first .. next` are still to be tried, last first.
    next: u32,
    first: u32,
    /// Symbols of the any-assignment at edge `next` still to be tried,
    /// or `run.rs`'s `PRE` flag: edge `next - 1` passed its test.
    sub: u32,
    log: u32,
    tags: u32,
    hash: u64,
    tag_hash: u64,
    version: u64,
    /// A number no other frame had (the local visited checks' stamps),
    /// but a relay's frame has the number of the frame below.
    number: u64,
    /// Length of [`Walker::stamp_log`] when the frame was pushed
    /// ([`RELAY`]: a relay's frame, which restores none).
    stamp_log: u32,
}

/// [`Frame::stamp_log`] of a relay's frame.
const RELAY: u32 = u32::MAX;

/// A check's result in a semistate (its key hash and every slot): the same
/// check asked again in an equal semistate under another version (a
/// translation's end-of-turn check copy, then the move walk, assign the
/// same values) takes it without a walk. A check whose semistates rarely
/// repeat stops keeping them (the copy costs more than the hits save: HRG
/// reversi's checks, +5% instructions when always kept).
#[derive(Clone, Default)]
struct Held {
    hash: u64,
    result: bool,
    slots: Vec<u16>,
    hits: u32,
    kept: u32,
}

impl Held {
    /// Whether the check still keeps its semistates (and looks them up):
    /// while they were taken often enough. Once it stops, the last one
    /// kept is stale and no longer looked up, nor the key hash summed for
    /// it (issue 13: foxAndHounds' end-of-turn checks, ~100 instructions
    /// a decision).
    #[inline(always)]
    fn keeps(&self) -> bool {
        self.kept <= self.hits.saturating_mul(4).saturating_add(16)
    }
}

/// The nodes one pure check has reached (stamped with its generation).
#[derive(Clone, Default)]
struct Marks {
    gen: u32,
    at: Vec<u32>,
}

/// The moves of a node generated ahead by a speculated check (`mirror.rs`)
/// for the state its `player` assignment leads to: taken by the next move
/// enumeration if it is of that state (same slots, node and sink kind).
#[derive(Clone, Default)]
struct Ahead {
    /// A walker that does not speculate.
    walker: Walker,
    kept: Kept,
    /// Which state `kept` is of.
    of: AheadOf,
}

/// The target of a move enumeration (none).
const NO_TARGET: u32 = u32::MAX;

/// [`Walker`]'s `direct` of a leaf check (slots are fewer:
/// `layout::MAX_SLOTS`).
const LEAF: u32 = NO_SLOT - 1;
const _: () = assert!(crate::layout::MAX_SLOTS < LEAF as usize);

/// How [`Walker::decide`] decides a check, per check (one byte read and
/// one dispatch, where the probe, program and speculation tables were
/// each looked up in turn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum How {
    /// A leaf check (`program::leaves`): comparisons only.
    Leaf,
    /// A one-slot check that goes straight to its search (no probe, no
    /// program, never speculated): its slot, and whether the search tries
    /// the root's edges straight to the target first
    /// ([`crate::shortcut::root_first`]).
    Slot(u32, bool),
    /// A program (no probe, never speculated) that writes and has
    /// any-assignments.
    ProgramChoices,
    /// A program (the same) that writes and has no any-assignment.
    ProgramWrites,
    /// A program (the same) that does not write (nor choose).
    ProgramReads,
    /// Any other check: a probe, a speculated one, a pure or one-slot
    /// search (whether root first, as in [`How::Slot`]), or the walk.
    Other(bool),
}

/// A reusable walk workspace (one per thread).
#[derive(Clone, Default)]
pub struct Walker {
    frames: Vec<Frame>,
    log: Vec<(u32, u16)>,
    tags: Vec<u16>,
    /// Numbers of the sequences `tags[..=i]`, for a prefix of `tags` (made
    /// when a visited check needs them).
    tag_ids: Vec<u32>,
    prefixes: Prefixes,
    vis: Vec<u64>,
    seen: Vec<Seen>,
    memo: Vec<(u64, bool)>,
    /// Per check: the last semistate a walk or program decided it in.
    held: Vec<Held>,
    /// Check starts being evaluated (for recursion).
    active: Vec<u32>,
    scratch: Vec<u16>,
    /// The symbols of an any-assignment's tail that pass its tests
    /// (`run.rs`, `Walker::tail_moves`).
    tail_syms: Vec<u16>,
    /// The changes of the slots before a ray's that it does not write
    /// (`walk/ray.rs`).
    ray_fixed: Vec<crate::moves::Change>,
    map_writes: Vec<(u32, u16)>,
    /// Pure checks' node marks, per nesting depth.
    marks: Vec<Marks>,
    /// One-slot checks' search (`shortcut.rs`).
    slot_search: SlotSearch,
    /// Pure checks' nodes to expand (nested searches above their callers').
    pending: Vec<u32>,
    /// Per frame (by its index): the mask of its any-assignment's run
    /// ([`crate::sealed::Filter::Run`], `walk/filter.rs`), taken when its
    /// scan starts.
    run_masks: Vec<u64>,
    /// Local visited checks' stamps (`local.rs`): the number of the frame
    /// a (node, key) was last seen under.
    stamps: Vec<u64>,
    /// Stamps overwritten, with their old values: restored when the frame
    /// that wrote them is popped, so a visit of the choice node nested in
    /// another (a cycle back to it) leaves the outer visit's stamps intact.
    stamp_log: Vec<(u32, u64)>,
    /// Per check: the slot of a one-slot check that goes straight to its
    /// search ([`How::Slot`]), [`LEAF`] for a leaf check, else [`NO_SLOT`]
    /// (read by the walk's inline check, [`Walker::check`]: through
    /// [`Walker::how`] instead, the walk's loop was compiled anew,
    /// translated breakthrough +1.5% interpreted instructions).
    direct: Vec<u32>,
    /// Per check: how it is decided.
    how: Vec<How>,
    /// Programs' any-assignments being enumerated: instruction, symbols
    /// left, slot (nested programs above their callers').
    choices: Vec<(u32, u32, u32)>,
    /// Moves generated ahead (speculated checks).
    ahead: Option<Box<Ahead>>,
    /// Whether this walker may speculate (the one inside [`Ahead`] does not).
    speculates: bool,
    /// While a move enumeration of [`Walker::moves`] runs (and this walker
    /// speculates): whether its sink keeps visibility.
    sink_kind: Option<bool>,
    /// The key hash's change since the enumeration started (or since
    /// [`Walker::check_from`]'s hash): the key hash is `hash_base + hash`.
    hash: u64,
    /// The key hash where the enumeration started, computed when a
    /// visited check or a kept check result first needs it
    /// ([`Walker::key_hash`]; a walk without either never sums the slots).
    hash_base: Option<u64>,
    tag_hash: u64,
    version: u64,
    next_version: u64,
    steps: usize,
    /// Tags of the current walk when they are only counted (a lean walk:
    /// see [`Tables::tags_read`]); `tags` is empty then.
    counted_tags: u32,
    /// The count of tags at which a lean walk stops: [`Tables::tag_limit`],
    /// or [`MAX_TAGS`] while a walk that gave up there is made again
    /// ([`Walker::walk_counting_tags`]). Below [`MAX_TAGS`] the walk takes
    /// the table whose tags off cycles are no-ops, and counts the others.
    tag_limit: u32,
}

/// The error of a walk that went past [`MAX_STEPS`] single edges (`steps`
/// of them) or past [`MAX_LOG`] assignments (at `node`); the native
/// engine's too.
#[cold]
#[inline(never)]
pub fn too_long(steps: usize, node: u32) -> RunError {
    let (bound, limit) = match steps > MAX_STEPS {
        true => (crate::error::Bound::Steps, MAX_STEPS),
        false => (crate::error::Bound::Assignments, MAX_LOG),
    };
    RunError::TooManyStates { bound, limit, node }
}

/// The error of a walk past [`MAX_FRAMES`] nested choices (at `node`).
#[cold]
#[inline(never)]
fn too_many_frames(node: u32) -> RunError {
    RunError::TooManyStates {
        bound: crate::error::Bound::Frames,
        limit: MAX_FRAMES,
        node,
    }
}

impl How {
    /// How check `c` of `t` is decided.
    fn of(t: &Tables, c: usize) -> How {
        let plain = t.probes[c].is_none() && t.speculated[c] == NO_NODE;
        let first = t.one_slot[c] != NO_SLOT && crate::shortcut::root_first(t, t.checks[c]);
        match (t.one_slot[c], t.programs[c]) {
            _ if t.code.leaf_range(c as u32).is_some() => How::Leaf,
            (_, Some(p)) if plain => match (p.writes, p.choices) {
                (true, true) => How::ProgramChoices,
                (true, false) => How::ProgramWrites,
                (false, _) => How::ProgramReads,
            },
            (s, None) if plain && s != NO_SLOT => How::Slot(s, first),
            _ => How::Other(first),
        }
    }
}

impl Walker {
    /// A workspace for `t`.
    pub fn new(t: &Tables) -> Walker {
        let how: Vec<How> = (0..t.checks.len()).map(|c| How::of(t, c)).collect();
        Walker {
            memo: vec![(0, false); t.checks.len()],
            held: vec![Held::default(); t.checks.len()],
            stamps: vec![0; t.local_size as usize],
            direct: how
                .iter()
                .map(|h| match *h {
                    How::Leaf => LEAF,
                    How::Slot(s, _) => s,
                    _ => NO_SLOT,
                })
                .collect(),
            how,
            next_version: 1,
            speculates: true,
            tag_limit: t.tag_limit,
            ..Walker::default()
        }
    }

    /// Every move walk from the state (`st`, `node`) into `out` (cleared
    /// first). `st` is unchanged afterwards, also on error.
    #[cfg_attr(target_os = "linux", link_section = ".text.hot.rg_walk")]
    pub fn moves<S: Sink>(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        node: u32,
        out: &mut S,
    ) -> Result<(), RunError> {
        if let Some(a) = self.ahead.as_deref_mut() {
            if a.of.take(st, node, S::VISIBILITY) {
                std::mem::swap(out, S::kept(&mut a.kept));
                return Ok(());
            }
        }
        self.sink_kind = self.speculates.then_some(S::VISIBILITY);
        // A lazy root's moves are its mirror's when there are any.
        let lazy = t.lazy[node as usize];
        let r = match lazy {
            NO_NODE => self.enumerate(t, st, node, out),
            b => match self.enumerate(t, st, b, out) {
                Ok(()) if out.count() > 0 => Ok(()),
                _ => self.enumerate(t, st, node, out),
            },
        };
        self.sink_kind = None;
        r
    }

    /// [`Walker::moves`] as written: every walk from `node`, recorded at
    /// once where its root's edge does ([`Tables::root_tails`]).
    #[inline(always)]
    fn enumerate<S: Sink>(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        node: u32,
        out: &mut S,
    ) -> Result<(), RunError> {
        match t.root_tails[node as usize] {
            e if e != NO_EDGE && !S::VISIBILITY => self.enumerate_tail(t, st, e, out),
            _ => self.enumerate_walk(t, st, node, out),
        }
    }

    /// [`Walker::enumerate`] from a root whose edge `e` records its moves
    /// at once ([`Walker::root_moves`]). Out of line, as
    /// [`Walker::enumerate_walk`]: the walk's loop is laid out as where no
    /// root does (decided per enumeration inside the walk's function,
    /// breakthrough +1.2%, amazons +1.3%; the resets of
    /// [`Walker::begin`] inlined into [`Walker::moves`] instead, ticTacToe
    /// +0.45%).
    #[inline(never)]
    fn enumerate_tail<S: Sink>(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        e: u32,
        out: &mut S,
    ) -> Result<(), RunError> {
        out.clear();
        self.begin();
        self.root_moves(t, st, e, out)
    }

    /// [`Walker::enumerate`] by the walk ([`Walker::run`]).
    #[inline(never)]
    #[cfg_attr(target_os = "linux", link_section = ".text.hot.rg_walk")]
    fn enumerate_walk<S: Sink>(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        node: u32,
        out: &mut S,
    ) -> Result<(), RunError> {
        match self.walk_all(t, st, node, out) {
            // A lean walk's tags on cycles reached `tag_limit`: its tags
            // might reach `MAX_TAGS`.
            Err(RunError::EndlessWalk { limit, .. }) if limit < MAX_TAGS => {
                self.walk_counting_tags(t, st, node, out)
            }
            r => r,
        }
    }

    /// [`Walker::enumerate_walk`]'s walk, restored on error.
    #[inline(always)]
    fn walk_all<S: Sink>(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        node: u32,
        out: &mut S,
    ) -> Result<(), RunError> {
        out.clear();
        self.begin();
        let r = self.run::<true, S>(t, st, node, NO_TARGET, Some(out));
        if r.is_err() {
            self.abandon(st, 0);
            self.choices.clear();
        }
        r.map(|_| ())
    }

    /// [`Walker::walk_all`] again, every tag counted (a lean walk that gave
    /// up at [`Tables::tag_limit`]): its outcome is the listing walk's.
    #[cold]
    #[inline(never)]
    fn walk_counting_tags<S: Sink>(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        node: u32,
        out: &mut S,
    ) -> Result<(), RunError> {
        self.tag_limit = MAX_TAGS as u32;
        let r = self.walk_all(t, st, node, out);
        self.tag_limit = t.tag_limit;
        r
    }

    /// Evaluates check `c` for a native move walk (`rg-jit`) whose key hash
    /// is `hash` and whose bounded step count is `steps` (updated): as
    /// [`Walker::check`] at the top level, with a fresh version. On error the
    /// semistate is restored to what it was at the call.
    pub fn check_from(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        c: u32,
        hash: u64,
        steps: &mut usize,
    ) -> Result<bool, RunError> {
        self.hash = 0;
        self.hash_base = Some(hash);
        self.steps = *steps;
        self.version = self.fresh_version();
        let log = self.log.len();
        let r = self.check(t, st, c);
        *steps = self.steps;
        if r.is_err() {
            self.abandon(st, log);
        }
        r
    }

    /// Whether a walk from (`st`, `start`) reaches `target` (a check outside
    /// any move walk).
    pub fn reaches(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        start: u32,
        target: u32,
    ) -> Result<bool, RunError> {
        self.begin();
        let r = self.run::<false, MoveList>(t, st, start, target, None);
        if r.is_err() {
            self.abandon(st, 0);
            self.choices.clear();
        }
        r
    }

    /// After a walk's error: the semistate rolled back to log entry `log`,
    /// the walk's frames, stamps and pending checks dropped.
    fn abandon(&mut self, st: &mut [u16], log: usize) {
        self.rollback(st, log);
        self.frames.clear();
        self.stamp_log.clear();
        self.active.clear();
        self.pending.clear();
    }

    fn begin(&mut self) {
        self.steps = 0;
        self.counted_tags = 0;
        self.log.clear();
        self.tags.clear();
        self.tag_ids.clear();
        self.prefixes.clear();
        self.vis.clear();
        self.tag_hash = 0;
        self.hash = 0;
        self.hash_base = None;
        self.version = self.fresh_version();
    }

    /// The key hash of the semistate (the user slots' values times their
    /// multipliers, summed).
    #[inline]
    fn key_hash(&mut self, t: &Tables, st: &[u16]) -> u64 {
        let base = match self.hash_base {
            Some(b) => b,
            None => self.sum_hash_base(t, st),
        };
        base.wrapping_add(self.hash)
    }

    /// Sums [`Walker::hash_base`] (once an enumeration). Out of line: its
    /// loop took registers from its callers' (`Walker::decide`'s kept
    /// semistates, three spills a slot on translated breakthrough).
    #[inline(never)]
    fn sum_hash_base(&mut self, t: &Tables, st: &[u16]) -> u64 {
        // The sum now, less the changes made since the start.
        let now = st[..t.user_slots]
            .iter()
            .zip(&t.hash_mul)
            .fold(0u64, |h, (&v, &m)| h.wrapping_add(m.wrapping_mul(v as u64)));
        *self.hash_base.insert(now.wrapping_sub(self.hash))
    }

    fn fresh_version(&mut self) -> u64 {
        let v = self.next_version;
        self.next_version += 1;
        v
    }

    #[inline]
    fn rollback(&mut self, st: &mut [u16], to: usize) {
        while self.log.len() > to {
            let (slot, old) = self.log.pop().expect("longer than `to`");
            st[slot as usize] = old;
        }
    }

    #[inline(always)]
    fn write(&mut self, t: &Tables, st: &mut [u16], slot: u32, v: u16) {
        let old = st[slot as usize];
        self.log.push((slot, old));
        st[slot as usize] = v;
        let m = t.hash_mul[slot as usize];
        self.hash = self
            .hash
            .wrapping_add(m.wrapping_mul((v as u64).wrapping_sub(old as u64)));
        self.version = self.next_version;
        self.next_version += 1;
    }

    /// [`Walker::write`] of a slot the sealed instructions vouch for.
    ///
    /// # Safety
    /// As [`crate::sealed::Sealed::set`] of `t.code`.
    #[inline(always)]
    unsafe fn write_sealed(&mut self, t: &Tables, st: &mut [u16], slot: u32, v: u16) {
        // SAFETY: the caller's.
        let (old, m) = unsafe { t.code.set(st, slot, v) };
        self.log.push((slot, old));
        self.hash = self
            .hash
            .wrapping_add(m.wrapping_mul((v as u64).wrapping_sub(old as u64)));
        self.version = self.next_version;
        self.next_version += 1;
    }

    #[inline]
    fn push_tag(
        &mut self,
        t: &Tables,
        st: &[u16],
        tag: u16,
        vis: bool,
        node: u32,
    ) -> Result<(), RunError> {
        if self.tags.len() >= MAX_TAGS {
            return Err(RunError::EndlessWalk {
                limit: MAX_TAGS,
                node,
            });
        }
        self.tags.push(tag);
        self.tag_hash = tag_step(self.tag_hash, tag);
        if !vis {
            return Ok(());
        }
        if let Some(vis) = &t.visible_slots {
            let mut mask = 0u64;
            for (p, &s) in vis.iter().enumerate() {
                mask |= ((st[s as usize] == t.visible_one) as u64) << p;
            }
            self.vis.push(mask);
        }
        Ok(())
    }

    /// A tag of a lean walk: counted, not kept. At `tag_limit` the walk
    /// ends with [`RunError::EndlessWalk`] of that limit (below
    /// [`MAX_TAGS`]: given up, see [`Walker::enumerate_walk`]).
    #[inline]
    fn count_tag(&mut self, node: u32) -> Result<(), RunError> {
        if self.counted_tags >= self.tag_limit {
            return Err(RunError::EndlessWalk {
                limit: self.tag_limit as usize,
                node,
            });
        }
        self.counted_tags += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Held;

    #[test]
    fn a_check_keeps_its_semistates_while_they_are_taken() {
        let held = |kept, hits| Held {
            kept,
            hits,
            ..Held::default()
        };
        assert!(held(0, 0).keeps());
        assert!(held(16, 0).keeps());
        assert!(!held(17, 0).keeps(), "17 kept, none taken: stops");
        assert!(held(20, 1).keeps());
        assert!(!held(21, 1).keeps());
        assert!(held(u32::MAX, u32::MAX).keeps(), "saturated");
    }
}
