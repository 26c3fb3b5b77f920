//! Visited checks: the enumeration's visited set (`seen.rs`) keyed by
//! node, tag sequence and user slots, dense stamps for one-slot keys, and
//! the local checks' stamps under a frame (`local.rs`).

use super::*;
use crate::prefixes::EMPTY;
use crate::tables::{Guard, NodeInfo, Tables, NO_DENSE, NO_SLOT};
use crate::RunError;

impl Walker {
    /// Whether (node, key) is new in the current enumeration (and records it).
    #[inline]
    pub(super) fn visit<const MOVES: bool>(
        &mut self,
        t: &Tables,
        st: &[u16],
        node: u32,
        depth: usize,
    ) -> Result<bool, RunError> {
        let info = &t.nodes[node as usize];
        let guard = info.guard;
        if guard == Guard::None {
            return Ok(true);
        }
        if (!MOVES || info.untagged) && info.dense != NO_DENSE {
            // A key with one slot and no tags (a check's, or a move's at
            // a node reached without tags): a stamp.
            let slot = match guard {
                Guard::Full(lo, _) => lo,
                Guard::Repeat(i) => t.repeat_slots[i as usize][0],
                Guard::None => unreachable!("checked"),
            };
            let i = info.dense + st[slot as usize] as u32;
            return Ok(self.seen[depth].insert_dense(i, t.dense_size));
        }
        let tags = match MOVES {
            true => self.tag_id(node)?,
            false => EMPTY,
        };
        let tag_hash = if MOVES { self.tag_hash } else { 0 };
        match guard {
            Guard::Full(lo, hi) => {
                // The hash covers every user slot; the others are equal.
                let h = mix(self.key_hash(t, st)
                    ^ tag_hash.rotate_left(29)
                    ^ (node as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
                self.seen[depth].insert(h, node, &st[lo as usize..hi as usize], tags)
            }
            Guard::Repeat(i) => {
                self.scratch.clear();
                let mut h =
                    tag_hash.rotate_left(29) ^ (node as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                for &s in &t.repeat_slots[i as usize] {
                    self.scratch.push(st[s as usize]);
                    h = h.wrapping_add(t.hash_mul[s as usize].wrapping_mul(st[s as usize] as u64));
                }
                self.seen[depth].insert(mix(h), node, &self.scratch, tags)
            }
            Guard::None => Ok(true),
        }
    }

    /// A local visited check (`local.rs`) of node `info`: whether the key
    /// is new under the frame numbered `number` (and records it, the old
    /// stamp logged where [`NodeInfo::local_logged`] says).
    #[inline]
    pub(super) fn stamp(&mut self, st: &[u16], info: &NodeInfo, number: u64) -> bool {
        let key = match info.local_slot {
            NO_SLOT => 0,
            s => st[s as usize] as u32,
        };
        let i = info.local + key;
        let at = &mut self.stamps[i as usize];
        let old = *at;
        if old == number {
            return false;
        }
        *at = number;
        if info.local_logged {
            self.stamp_log.push((i, old));
        }
        true
    }

    /// Restores the stamps overwritten since the log had `len` entries.
    pub(super) fn restore_stamps(&mut self, len: u32) {
        for (i, old) in self.stamp_log.drain(len as usize..).rev() {
            self.stamps[i as usize] = old;
        }
    }

    /// The number of the current tag sequence.
    #[inline]
    pub(super) fn tag_id(&mut self, node: u32) -> Result<u32, RunError> {
        let mut id = self.tag_ids.last().copied().unwrap_or(EMPTY);
        for i in self.tag_ids.len()..self.tags.len() {
            id = self.prefixes.child(id, self.tags[i], node)?;
            self.tag_ids.push(id);
        }
        Ok(id)
    }
}
