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

use super::leaf::LeafCheck;
use super::Sealed;
use crate::code::Kind;
use crate::tables::{Edge, NodeInfo, Op, NO_SLOT};

/// One scanned edge.
#[derive(Clone, Copy, Debug)]
pub(super) enum Scan {
    /// Legal iff `(st[slot] == value) == want`.
    Slot { slot: u32, value: u16, want: bool },
    /// Legal iff the leaf check holds (`true`) or not.
    Leaf(LeafCheck, bool),
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
        let mut ranges = vec![(0u32, 0u32); nodes.len()];
        for (info, r) in nodes.iter().zip(&mut ranges) {
            if !info.disjoint || !with_scans {
                continue;
            }
            let first = scans.len() as u32;
            let Some(es) = edges.get(info.first as usize..info.end as usize) else {
                continue;
            };
            for e in es {
                let Op::Reach(c, positive) = e.op else { break };
                let Some(l) = self.leaf_range(c) else { break };
                let one = match self.leaves.get(l.start as usize) {
                    Some(x) if l.end == l.start + 1 && l.key == NO_SLOT && x.accept => x.kind,
                    _ => Kind::Other,
                };
                scans.push(match one {
                    Kind::CmpSlot { slot, value, eq } if (slot as usize) < self.slots => {
                        Scan::Slot {
                            slot,
                            value,
                            want: eq == positive,
                        }
                    }
                    _ => Scan::Leaf(l, positive),
                });
            }
            *r = (first, scans.len() as u32);
        }
        self.scans = scans.into_boxed_slice();
        self.scan_ranges = ranges.into_boxed_slice();
        self
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
            .map_or(0, |&(first, end)| end - first)
    }

    /// Of `@disjoint` node `node`'s leading leaf-check edges, the first
    /// legal one in `st` (its index among the node's edges) and how many
    /// there are: the edges from there on are tested as written. For a
    /// walk outside any check (a leaf check nested meets no error only
    /// there).
    #[inline]
    pub fn scan(&self, st: &[u16], node: u32) -> (Option<u32>, u32) {
        let Some(&(first, end)) = self.scan_ranges.get(node as usize) else {
            return (None, 0);
        };
        assert!(st.len() >= self.slots, "a semistate of the game");
        let scans = &self.scans[first as usize..end as usize];
        for (i, s) in scans.iter().enumerate() {
            let legal = match *s {
                Scan::Slot { slot, value, want } => {
                    // SAFETY: `with_scans` took slots below `slots`; `st`
                    // checked above.
                    (unsafe { *st.get_unchecked(slot as usize) } == value) == want
                }
                Scan::Leaf(r, positive) => self.leaf(st, r) == positive,
            };
            if legal {
                return (Some(i as u32), scans.len() as u32);
            }
        }
        (None, scans.len() as u32)
    }
}
