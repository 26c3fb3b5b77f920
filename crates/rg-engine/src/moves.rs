//! Move walks found by an enumeration, stored flat: each walk's tags (its
//! move), what each player sees of them, and its effect — the slots it
//! changed with their new values (including `player`) and the node it ends
//! at. Applying a walk writes those slots: no search again.

/// One walk's record.
#[derive(Clone, Copy, Debug)]
struct Rec {
    tags_end: u32,
    changes_end: u32,
    node: u32,
    tag_hash: u64,
}

/// The move walks of a state.
#[derive(Clone, Debug, Default)]
pub struct MoveList {
    tags: Vec<u16>,
    vis: Vec<u64>,
    changes: Vec<(u32, u16)>,
    recs: Vec<Rec>,
}

impl MoveList {
    /// Removes every walk.
    pub fn clear(&mut self) {
        self.tags.clear();
        self.vis.clear();
        self.changes.clear();
        self.recs.clear();
    }

    /// Number of walks.
    pub fn len(&self) -> usize {
        self.recs.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.recs.is_empty()
    }

    /// Records a walk that ends by assigning `player` in `player_slot`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn push(
        &mut self,
        tags: &[u16],
        vis: &[u64],
        log: &[(u32, u16)],
        st: &[u16],
        player_slot: u32,
        player: u16,
        node: u32,
        tag_hash: u64,
    ) {
        // Moves are short: plain loops beat `memcpy` calls.
        for &t in tags {
            self.tags.push(t);
        }
        for &v in vis {
            self.vis.push(v);
        }
        for &(slot, _) in log {
            self.changes.push((slot, st[slot as usize]));
        }
        self.changes.push((player_slot, player));
        self.recs.push(Rec {
            tags_end: self.tags.len() as u32,
            changes_end: self.changes.len() as u32,
            node,
            tag_hash,
        });
    }

    fn start(&self, i: usize) -> (usize, usize) {
        match i {
            0 => (0, 0),
            _ => {
                let r = self.recs[i - 1];
                (r.tags_end as usize, r.changes_end as usize)
            }
        }
    }

    /// The tags of walk `i` (its move), as symbol numbers.
    pub fn tags(&self, i: usize) -> &[u16] {
        let (t, _) = self.start(i);
        &self.tags[t..self.recs[i].tags_end as usize]
    }

    /// Per tag of walk `i`, the set of players (bit `p`) that see it; empty
    /// when every player sees every tag.
    pub fn visibility(&self, i: usize) -> &[u64] {
        if self.vis.is_empty() {
            return &[];
        }
        let (t, _) = self.start(i);
        &self.vis[t..self.recs[i].tags_end as usize]
    }

    /// Slot changes of walk `i`.
    pub(crate) fn changes(&self, i: usize) -> &[(u32, u16)] {
        let (_, c) = self.start(i);
        &self.changes[c..self.recs[i].changes_end as usize]
    }

    /// The node walk `i` ends at.
    pub(crate) fn node(&self, i: usize) -> u32 {
        self.recs[i].node
    }

    /// A hash of walk `i`'s tags (equal tags, equal hashes).
    pub(crate) fn tag_hash(&self, i: usize) -> u64 {
        self.recs[i].tag_hash
    }
}
