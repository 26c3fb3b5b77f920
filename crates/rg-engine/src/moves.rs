//! Move walks found by an enumeration, stored flat: each walk's tags (its
//! move), what each player sees of them, and its effect — the slots it
//! changed with their new values (including `player`) and the node it ends
//! at. Applying a walk writes those slots: no search again.

/// Where an enumeration puts the walks it finds.
pub trait Sink {
    /// Whether the sink keeps what players see of tags (else the walk does
    /// not work it out).
    const VISIBILITY: bool;

    /// Removes every walk.
    fn clear(&mut self);

    /// The sink as one of the two kinds (for the native engine).
    fn sink_mut(&mut self) -> crate::SinkMut<'_>;

    /// Number of walks.
    fn count(&self) -> usize;

    /// How many tags and slot changes the walks hold together (what their
    /// memory grows with; the walk bounds it by `walk::MAX_RECORDED`).
    fn recorded(&self) -> usize;

    /// Applies walk `i`'s effect to the slots; returns the node it ends at.
    fn apply_to(&self, i: usize, slots: &mut [u16]) -> u32;

    /// The sink of this kind in `kept`.
    #[doc(hidden)]
    fn kept(kept: &mut Kept) -> &mut Self;

    /// Records a walk that ends by assigning `player` in `player_slot`: its
    /// tags (and who sees each), the slots of its undo log (they hold the
    /// new values in `st`), the `player` value, the node it
    /// ends at and its tags' hash.
    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        tags: &[u16],
        vis: &[u64],
        log: impl ExactSizeIterator<Item = u32>,
        st: &[u16],
        player_slot: u32,
        player: u16,
        node: u32,
        tag_hash: u64,
    );

    /// [`Sink::push`] of a ray's landing (`walk/ray.rs`), no tags kept:
    /// the slots of its undo log `log`, which writes `slot` last; `fixed`
    /// holds the log's changes of the other slots, each as `st` holds it
    /// (the same for every landing of the walk's rays), so a sink may take
    /// them, then `slot`'s, for the log's.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn push_landing(
        &mut self,
        log: impl ExactSizeIterator<Item = u32>,
        fixed: &[Change],
        st: &[u16],
        slot: u32,
        (player_slot, player): (u32, u16),
        node: u32,
    ) {
        let _ = (fixed, slot);
        self.push(&[], &[], log, st, player_slot, player, node, 0);
    }

    /// [`Sink::push`] of walks of a lean enumeration (no tags kept): the
    /// walks of `w`, one per symbol.
    fn push_syms(&mut self, st: &mut [u16], w: TailWalks<'_>) {
        push_each(self, st, w)
    }
}

/// The walks of an any-assignment's tail ([`Sink::push_syms`]): the walk's
/// undo log `log`, one walk per symbol of `syms` written to the slot of
/// the log's last entry (left in `st`), `player` the `player` slot and
/// value, `node` where they end.
#[derive(Clone, Copy, Debug)]
pub struct TailWalks<'a> {
    /// The undo log.
    pub log: &'a [(u32, u16)],
    /// The symbols.
    pub syms: &'a [u16],
    /// The `player` slot and value.
    pub player: (u32, u16),
    /// The node the walks end at.
    pub node: u32,
}

/// [`Sink::push_syms`] as one [`Sink::push`] per symbol.
fn push_each<S: Sink + ?Sized>(sink: &mut S, st: &mut [u16], w: TailWalks<'_>) {
    let Some(&(slot, _)) = w.log.last() else {
        return;
    };
    let (player_slot, player) = w.player;
    for &x in w.syms {
        st[slot as usize] = x;
        let log = w.log.iter().map(|&(slot, _)| slot);
        sink.push(&[], &[], log, st, player_slot, player, w.node, 0);
    }
}

/// A sink of each kind, kept aside (moves generated ahead, `mirror.rs`).
#[derive(Clone, Debug, Default)]
pub struct Kept {
    pub(crate) list: MoveList,
    pub(crate) effects: Effects,
}

/// [`Effects::push_syms`] writes the ends of at most this many walks in
/// the loop of their changes. Callgrind instructions per playout (`rbg
/// --engine interp bench`, seed 1) on translations, against the ends
/// always in a loop of their own: ticTacToe -1.0%, connect4 -0.9%,
/// reversi -0.1%, hex +0.1%, the others within 0.01%; with the ends
/// always in the changes' loop, hex +0.7% (tens of walks).
const FEW_WALKS: usize = 16;

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

impl Sink for MoveList {
    fn kept(kept: &mut Kept) -> &mut Self {
        &mut kept.list
    }

    const VISIBILITY: bool = true;

    fn sink_mut(&mut self) -> crate::SinkMut<'_> {
        crate::SinkMut::List(self)
    }

    fn clear(&mut self) {
        MoveList::clear(self);
    }

    fn count(&self) -> usize {
        self.len()
    }

    fn recorded(&self) -> usize {
        self.tags.len() + self.changes.len()
    }

    fn apply_to(&self, i: usize, slots: &mut [u16]) -> u32 {
        for &(slot, v) in self.changes(i) {
            slots[slot as usize] = v;
        }
        self.node(i)
    }

    #[inline]
    fn push(
        &mut self,
        tags: &[u16],
        vis: &[u64],
        log: impl ExactSizeIterator<Item = u32>,
        st: &[u16],
        player_slot: u32,
        player: u16,
        node: u32,
        tag_hash: u64,
    ) {
        // Moves are short: plain loops beat `memcpy` calls; the changes are
        // one `extend` (its length known: one capacity check).
        for &t in tags {
            self.tags.push(t);
        }
        for &v in vis {
            self.vis.push(v);
        }
        let changes = log.map(|slot| (slot, st[slot as usize]));
        self.changes.extend(changes.chain([(player_slot, player)]));
        self.recs.push(Rec {
            tags_end: self.tags.len() as u32,
            changes_end: self.changes.len() as u32,
            node,
            tag_hash,
        });
    }
}

/// Only the effects of the walks (slot changes and end node), for playouts,
/// which draw one walk and need no tags.
#[derive(Clone, Debug, Default)]
pub struct Effects {
    changes: Vec<Change>,
    /// Per walk: end of its changes, its end node.
    ends: Vec<[u32; 2]>,
}

/// A slot change of a recorded walk: the slot and its new value (a symbol;
/// two words, as the native engine writes them, so its records are copied
/// as they are).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Change {
    /// The slot.
    pub slot: u32,
    /// Its new value.
    pub value: u32,
}

impl Effects {
    /// Removes every walk.
    pub fn clear(&mut self) {
        self.changes.clear();
        self.ends.clear();
    }

    /// Number of walks.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Exchanges the walks with walks given flat (the native engine
    /// records them in buffers of its own and hands them over without a
    /// copy): the changes of all of them in order, and per walk the end of
    /// its changes and its end node.
    pub fn swap_flat(&mut self, changes: &mut Vec<Change>, ends: &mut Vec<[u32; 2]>) {
        std::mem::swap(&mut self.changes, changes);
        std::mem::swap(&mut self.ends, ends);
    }
}

impl Sink for Effects {
    fn kept(kept: &mut Kept) -> &mut Self {
        &mut kept.effects
    }

    const VISIBILITY: bool = false;

    fn sink_mut(&mut self) -> crate::SinkMut<'_> {
        crate::SinkMut::Effects(self)
    }

    fn clear(&mut self) {
        Effects::clear(self);
    }

    fn count(&self) -> usize {
        self.len()
    }

    fn recorded(&self) -> usize {
        self.changes.len()
    }

    fn apply_to(&self, i: usize, slots: &mut [u16]) -> u32 {
        let start = match i {
            0 => 0,
            _ => self.ends[i - 1][0] as usize,
        };
        let [end, node] = self.ends[i];
        for c in &self.changes[start..end as usize] {
            slots[c.slot as usize] = c.value as u16;
        }
        node
    }

    /// The walks of an any-assignment's tail written from one template:
    /// room made once for all of them, each the log's changes before the
    /// assigned slot's (the same for every symbol), then the symbol and
    /// `player`. Callgrind instructions per playout (`rbg --engine interp
    /// bench`, seed 1) on translations, against a [`Sink::push`] per
    /// symbol (its room checked, the log read, per walk): hex -12.4%,
    /// ticTacToe -2.5%, connect4 -2.2%, reversi -0.5%, the others within
    /// 0.03%.
    fn push_syms(&mut self, st: &mut [u16], w: TailWalks<'_>) {
        let (log, syms, node) = (w.log, w.syms, w.node);
        let Some((&(slot, _), before)) = log.split_last() else {
            return;
        };
        let Some(&last) = syms.last() else {
            return;
        };
        if before.iter().any(|&(s, _)| s == slot) {
            // The slot written before too: its earlier changes take the
            // symbol as well.
            return push_each(self, st, w);
        }
        st[slot as usize] = last;
        let (player_slot, player) = w.player;
        let n = log.len() + 1;
        let total = n * syms.len();
        self.changes.reserve(total);
        self.ends.reserve(syms.len());
        let len = self.changes.len();
        let walks = self.ends.len();
        let spare = &mut self.changes.spare_capacity_mut()[..total];
        // The ends written as the changes are (reserved above: no capacity
        // test per walk): few in the changes' loop, many in a loop of
        // their own (vectorised, its setup longer than a few walks).
        let ends = &mut self.ends.spare_capacity_mut()[..syms.len()];
        let mut end = len as u32;
        let few = syms.len() <= FEW_WALKS;
        let walks_and_ends = spare.chunks_exact_mut(n).zip(syms).zip(ends.iter_mut());
        for ((walk, &x), e) in walks_and_ends {
            let (changes, [at, p]) = walk.split_at_mut(n - 2) else {
                unreachable!("two changes after the log's first ones")
            };
            for (dst, &(s, _)) in changes.iter_mut().zip(before) {
                dst.write(Change {
                    slot: s,
                    value: st[s as usize] as u32,
                });
            }
            at.write(Change {
                slot,
                value: x as u32,
            });
            p.write(Change {
                slot: player_slot,
                value: player as u32,
            });
            if few {
                end += n as u32;
                e.write([end, node]);
            }
        }
        if !few {
            for e in ends {
                end += n as u32;
                e.write([end, node]);
            }
        }
        // SAFETY: the `total` entries past `len` were written above (each
        // chunk of `n` whole: `before` has `n - 2` entries), and the
        // `syms.len()` ends past `walks`.
        unsafe {
            self.changes.set_len(len + total);
            self.ends.set_len(walks + syms.len());
        }
    }

    /// The fixed changes copied, then `slot`'s and `player`'s: the log's
    /// earlier changes of `slot` (amazons' `coord`, written three times)
    /// left out, as the last one overwrites them with the same value.
    #[inline(always)]
    fn push_landing(
        &mut self,
        _log: impl ExactSizeIterator<Item = u32>,
        fixed: &[Change],
        st: &[u16],
        slot: u32,
        (player_slot, player): (u32, u16),
        node: u32,
    ) {
        let n = fixed.len() + 2;
        self.changes.reserve(n);
        let len = self.changes.len();
        let spare = &mut self.changes.spare_capacity_mut()[..n];
        let (copies, [at, p]) = spare.split_at_mut(n - 2) else {
            unreachable!("two changes after the fixed ones")
        };
        for (dst, &c) in copies.iter_mut().zip(fixed) {
            dst.write(c);
        }
        at.write(Change {
            slot,
            value: st[slot as usize] as u32,
        });
        p.write(Change {
            slot: player_slot,
            value: player as u32,
        });
        // SAFETY: the `n` entries past `len` were written above.
        unsafe { self.changes.set_len(len + n) };
        self.ends.push([self.changes.len() as u32, node]);
    }

    /// The changes written into the spare capacity: one check of the
    /// room, no generic `extend` (which the walk's loop would not inline
    /// both here and in `Walker::tail_moves`).
    #[inline(always)]
    fn push(
        &mut self,
        _tags: &[u16],
        _vis: &[u64],
        log: impl ExactSizeIterator<Item = u32>,
        st: &[u16],
        player_slot: u32,
        player: u16,
        node: u32,
        _tag_hash: u64,
    ) {
        let n = log.len() + 1;
        self.changes.reserve(n);
        let len = self.changes.len();
        let spare = &mut self.changes.spare_capacity_mut()[..n];
        let mut k = 0;
        for (dst, slot) in spare.iter_mut().zip(log) {
            dst.write(Change {
                slot,
                value: st[slot as usize] as u32,
            });
            k += 1;
        }
        spare[k].write(Change {
            slot: player_slot,
            value: player as u32,
        });
        // SAFETY: the first `k + 1` entries past `len` were written above.
        unsafe { self.changes.set_len(len + k + 1) };
        self.ends.push([self.changes.len() as u32, node]);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::TailWalks;
    use crate::sealed::TailTest;
    use crate::{Effects, GameModel, MoveList, Sink, State};

    /// `x` and `y` place pieces on six squares: `x` on an empty square
    /// after moving `other` (its any-assignment's tail has a comparison, a
    /// leaf check `c1` and the log an entry before it), `y` on an empty
    /// square whose next holds no `b` (two comparisons) and where leaf
    /// check `c0` fails, or, by another edge, nowhere (a tail of no test).
    const PLACING: &str = "type Player = {x, y};\ntype Score = {0, 1};\n\
        type V = {0, 1, 2, 3, 4, 5};\ntype P = {e, w, b};\nvar pos: V = 0;\nvar other: V = 0;\n\
        const next: V -> V = { 0: 1, 1: 2, 2: 3, 3: 4, 4: 5, :0 };\nvar board: V -> P = { 2: b, :e };\n\
        begin, x0: player = x;\nx0, xa: other = next[other];\nxa, x1: pos = V(*);\n\
        x1, xb: board[pos] == e;\nxb, x2: ? c1 -> cacc;\nx2, x3: $$ pos;\n\
        x3, kx: player = keeper;\nkx, kx1: board[pos] = w;\nkx1, y0: player = y;\n\
        y0, y1: other = V(*);\ny1, y2: board[other] == e;\ny2, yb: board[next[other]] != b;\n\
        yb, y3: ! c0 -> cacc;\ny3, y4: $$ other;\ny4, ky: player = keeper;\n\
        ky, ky1: board[other] = b;\nky1, x0: player = x;\ny0, z1: pos = V(*);\nz1, z2: $ 3;\n\
        z2, kz: player = keeper;\nkz, x0: player = x;\nkz, end: board[0] == b;\n\
        c0, cacc: board[next[next[other]]] == w;\nc0, c2: board[next[other]] == w;\n\
        c2, cacc: board[next[next[next[other]]]] == e;\n\
        c1, cacc: board[next[pos]] == e;\nc1, c3: board[next[pos]] == b;\nc3, cacc: board[0] == e;\n";

    #[test]
    fn a_tails_walks_from_a_template_are_its_walks_one_by_one() {
        // The log's last slot (7) written before it or not, a log of one;
        // few walks and more than `FEW_WALKS` (their ends written apart).
        let logs: [&[(u32, u16)]; 4] = [
            &[(7, 0)],
            &[(2, 0), (5, 1), (7, 0)],
            &[(7, 3), (2, 0), (7, 0)],
            &[],
        ];
        let many: Vec<u16> = (0..super::FEW_WALKS as u16 + 3)
            .map(|x| x * 7 % 11)
            .collect();
        for (log, syms) in logs
            .into_iter()
            .flat_map(|l| [(l, &[4, 1, 6][..]), (l, &many)])
        {
            let (mut one, mut all) = (Effects::default(), Effects::default());
            let mut st: Vec<u16> = (0..10).map(|v| v * 3).collect();
            // A walk recorded before.
            for e in [&mut one, &mut all] {
                e.push(&[], &[], [4].into_iter(), &st, 9, 2, 5, 0);
            }
            let slots = log.iter().map(|&(slot, _)| slot);
            for &x in syms {
                if let Some(&(slot, _)) = log.last() {
                    st[slot as usize] = x;
                    one.push(&[], &[], slots.clone(), &st, 9, 1, 3, 0);
                }
            }
            let w = TailWalks {
                log,
                syms,
                player: (9, 1),
                node: 3,
            };
            all.push_syms(&mut st.clone(), w);
            assert_eq!((&all.changes, &all.ends), (&one.changes, &one.ends));
        }
    }

    /// The state after walk `i` of a list.
    pub(crate) fn after(s: &State, list: &impl Sink, i: usize) -> State {
        let mut s = s.clone();
        s.node = list.apply_to(i, &mut s.slots);
        s
    }

    #[test]
    fn a_lean_walks_effects_are_the_move_lists() {
        // Effects record no tags: a lean walk, whose any-assignments into
        // a move's end record all their symbols at once (`sealed::Tail`).
        let g = GameModel::from_text(PLACING).unwrap();
        let t = g.tables();
        assert!(t.few_tags && !t.tags_read, "a lean walk skips the tags");
        let tails = (0..t.edges.len() as u32)
            .filter(|&e| t.code.pick(e).tail != crate::sealed::NO_TAIL)
            .count();
        assert_eq!(tails, 3, "x's, y's and the tail without tests");
        let leaves = (0..tails as u32)
            .flat_map(|i| t.code.tail(i).1)
            .filter(|test| matches!(test, TailTest::Leaf { .. }))
            .count();
        assert_eq!(leaves, 2, "x's and y's leaf checks");
        let mut r = g.reasoner();
        let (mut list, mut effects) = (MoveList::default(), Effects::default());
        let mut stack = vec![(g.initial_state(), 0)];
        let mut states = 0;
        while let Some((mut s, depth)) = stack.pop() {
            states += 1;
            r.moves(&mut s, &mut list).unwrap();
            r.walks(&mut s, &mut effects).unwrap();
            assert_eq!(effects.len(), list.len());
            for i in 0..list.len() {
                let next = after(&s, &list, i);
                assert_eq!(after(&s, &effects, i), next);
                if depth < 16 {
                    stack.push((next, depth + 1));
                }
            }
        }
        assert_eq!(states, 24326, "states within 16 moves");
    }
}
