//! The leading edges of a `@disjoint` node that are leaf checks (`? c` or
//! `! c`, `c` a [`LeafCheck`]), tested in one loop when the node's frame
//! looks for its first legal edge ([`Sealed::scan`]): no memo, no check
//! dispatch per edge. An RBG translation's `anySquare {p} ...` search is
//! such a node, one edge per square (`? c: coord = xNyM, board[coord] ==
//! p`), whose checks folding (`program/fold.rs`) makes comparisons of
//! fixed squares; a check of one comparison of a slot is tested as that.
//! Callgrind instructions per playout (seed 1, in `play_random`), with
//! folding: go.rg interp 220.5M -> 186.8M (-15%); rg-jit's `first_legal`
//! scans too (native go.rg 331.6M -> 82.7M with both, of which 19.4M a
//! one-time table allocation).
//!
//! Each edge is tested by a guard first, a comparison of one slot that
//! the edge needs ([`Scan`]): the check's first comparison when its
//! failure fails the check (go's floodfill `board[xNyM] == toCapture`
//! before its neighbours), and only then by the rest. A node whose guards
//! read consecutive slots for one value ([`GuardRun`]: a square per edge)
//! scans those slots a block at a time ([`Sealed::scan`]). Callgrind
//! instructions (`rbg bench go.rg --seed 1 --playouts 20`, in
//! `play_random`) against each edge's leaf check run in turn: interp
//! 3,029,912,113 -> 2,682,965,067 (-11.5%), native 1,262,671,192 ->
//! 1,041,997,452 (-17.5%; its simulated D1 misses halved); the keeper's
//! moves were 7x the RBG engine's (native 43K instructions a state against
//! 6K).

use super::leaf::LeafCheck;
use super::Sealed;
use crate::code::Kind;
use crate::tables::{Edge, NodeInfo, Op, NO_SLOT};

/// One scanned edge: legal iff `(st[slot] == value) == want` and then,
/// if there is one, the leaf check holds (`true`) or not.
#[derive(Clone, Copy, Debug)]
pub(super) struct Scan {
    slot: u32,
    value: u16,
    want: bool,
    then: Option<(LeafCheck, bool)>,
}

/// A guard that always passes ([`Scan`]): `st[0] != u16::MAX`, a value no
/// symbol has (the game has fewer symbols, [`Sealed::with_scans`]).
const ALWAYS: (u32, u16, bool) = (0, u16::MAX, false);

/// A node's scanned edges whose guards read `st[base + i]` for edge `i`,
/// each `(st[base + i] == value) == want`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct GuardRun {
    base: u32,
    value: u16,
    want: bool,
}

/// Slots a guard run's scan tests at once, one branch for all.
const BLOCK: usize = 16;

/// The guard run of `scans`, if their guards read consecutive slots for
/// one value (two edges at least).
fn run_of(scans: &[Scan]) -> Option<GuardRun> {
    let s = scans.first()?;
    let consecutive = scans.iter().enumerate().all(|(i, x)| {
        (x.slot, x.value, x.want) != ALWAYS
            && x.slot == s.slot + i as u32
            && (x.value, x.want) == (s.value, s.want)
    });
    (consecutive && scans.len() >= 2).then_some(GuardRun {
        base: s.slot,
        value: s.value,
        want: s.want,
    })
}

impl Sealed {
    /// With the scans of the `@disjoint` nodes of `nodes` (none when
    /// `with_scans` is false: the walk without shortcuts).
    pub(crate) fn with_scans(
        mut self,
        nodes: &[NodeInfo],
        edges: &[Edge],
        with_scans: bool,
    ) -> Sealed {
        let mut scans = Vec::new();
        let mut ranges = vec![(0u32, 0u32, None); nodes.len()];
        // (The guard `ALWAYS` needs a slot, and a value no symbol has.)
        let with_scans = with_scans && self.slots > 0 && self.symbols < u16::MAX as u32;
        for (info, r) in nodes.iter().zip(&mut ranges) {
            if !info.disjoint || !with_scans {
                continue;
            }
            let first = scans.len();
            let Some(es) = edges.get(info.first as usize..info.end as usize) else {
                continue;
            };
            for e in es {
                let Op::Reach(c, positive) = e.op else { break };
                let Some(l) = self.leaf_range(c) else { break };
                scans.push(self.scan_of(l, positive));
            }
            *r = (first as u32, scans.len() as u32, run_of(&scans[first..]));
        }
        self.scans = scans.into_boxed_slice();
        self.scan_ranges = ranges.into_boxed_slice();
        self
    }

    /// How an edge `? c` (`positive`) or `! c` of leaf check `l` is
    /// scanned: a check of one comparison of a slot as that comparison; a
    /// positive one whose first comparison's failure fails it guarded by
    /// that comparison.
    fn scan_of(&self, l: LeafCheck, positive: bool) -> Scan {
        let (slot, value, want) = ALWAYS;
        let leaf = Scan {
            slot,
            value,
            want,
            then: Some((l, positive)),
        };
        let Some(x) = self
            .leaves
            .get(l.start as usize)
            .filter(|_| l.start < l.end)
        else {
            return leaf;
        };
        let Kind::CmpSlot { slot, value, eq } = x.kind else {
            return leaf;
        };
        if slot as usize >= self.slots {
            return leaf;
        }
        let one = l.end == l.start + 1 && l.key == NO_SLOT && x.accept;
        match (one, positive, x.skip >= l.end) {
            (true, _, _) => Scan {
                slot,
                value,
                want: eq == positive,
                then: None,
            },
            (false, true, true) => Scan {
                slot,
                value,
                want: eq,
                then: (!x.accept).then_some((l, true)),
            },
            _ => leaf,
        }
    }

    /// The number of `@disjoint` nodes' edges scanned ([`Sealed::scan`]).
    pub fn scanned_edges(&self) -> usize {
        self.scans.len()
    }

    /// How many of `@disjoint` node `node`'s leading edges [`Sealed::scan`]
    /// tests in its loop.
    pub fn scanned(&self, node: u32) -> u32 {
        self.scan_ranges
            .get(node as usize)
            .map_or(0, |&(first, end, _)| end - first)
    }

    /// Whether `@disjoint` node `node`'s scan reads its guards as a run
    /// ([`GuardRun`]).
    pub fn scans_run(&self, node: u32) -> bool {
        self.scan_ranges
            .get(node as usize)
            .is_some_and(|&(_, _, run)| run.is_some())
    }

    /// Whether scanned edge `s`, its guard passed, is legal.
    #[inline(always)]
    fn then_legal(&self, st: &[u16], s: &Scan) -> bool {
        match s.then {
            None => true,
            Some((r, positive)) => self.leaf(st, r) == positive,
        }
    }

    /// Of `@disjoint` node `node`'s leading leaf-check edges, the first
    /// legal one in `st` (its index among the node's edges) and how many
    /// there are: the edges from there on are tested as written. For a
    /// walk outside any check (a leaf check nested meets no error only
    /// there).
    #[inline]
    pub fn scan(&self, st: &[u16], node: u32) -> (Option<u32>, u32) {
        let Some(&(first, end, run)) = self.scan_ranges.get(node as usize) else {
            return (None, 0);
        };
        assert!(st.len() >= self.slots, "a semistate of the game");
        let scans = &self.scans[first as usize..end as usize];
        let n = scans.len();
        if let Some(GuardRun { base, value, want }) = run {
            // `with_scans` took guards' slots below `slots`.
            let slots = &st[base as usize..base as usize + n];
            let mut i = 0;
            while i < n {
                let block = &slots[i..n.min(i + BLOCK)];
                let some = block.iter().fold(false, |a, &v| a | ((v == value) == want));
                if some {
                    for (k, &v) in block.iter().enumerate() {
                        if (v == value) == want && self.then_legal(st, &scans[i + k]) {
                            return (Some((i + k) as u32), n as u32);
                        }
                    }
                }
                i += block.len();
            }
            return (None, n as u32);
        }
        for (i, s) in scans.iter().enumerate() {
            // SAFETY: `with_scans` took guards' slots below `slots`; `st`
            // checked above.
            let guard = (unsafe { *st.get_unchecked(s.slot as usize) } == s.value) == s.want;
            if guard && self.then_legal(st, s) {
                return (Some(i as u32), n as u32);
            }
        }
        (None, n as u32)
    }
}
