//! Speculated checks in native walks, as the interpreter's
//! (`rg_engine`'s `mirror.rs`, `walk/check.rs`): a move walk that meets
//! `? K` into a `player` assignment whose target `b` `K` mirrors generates
//! the moves of `b` with a second walker and keeps them for the state the
//! assignment leads to; where there are some, `K` holds (the generated code
//! then skips `K`'s own function), else `K` is decided as written. The
//! next enumeration of that state takes the kept moves.

use rg_engine::raw::{self, AheadOf, Op};
use rg_engine::{Effects, MoveList, NativeWalker, RunError, SinkMut};

use super::walker::Walker;
use super::Ws;

/// Moves generated ahead, and for which state.
pub(crate) struct Ahead {
    /// A walker that does not speculate.
    walker: Walker,
    list: MoveList,
    effects: Effects,
    /// Which state the kept moves are of (`kind`: in `list`).
    of: AheadOf,
}

impl Ws {
    /// Decides speculated check `c` (the running walk's, nested in no
    /// check) by generating the moves it mirrors: true where there are
    /// some; false where it is left to the check's own code (no moves, an
    /// error, generation stopped, or a walk that does not speculate).
    pub(super) fn speculate(&mut self, st: &mut [u16], c: u32) -> bool {
        if !self.speculates {
            return false;
        }
        let t = self.code.game.tables();
        let y = t.speculated[c as usize];
        if y == raw::NO_NODE {
            return false;
        }
        let e = t.edges[t.nodes[y as usize].first as usize];
        let Op::SetPlayer(p) = e.op else {
            return false;
        };
        let kind = self.want_vis;
        let a = self.ahead.get_or_insert_with(|| {
            Box::new(Ahead {
                walker: Walker::ahead(self.code.clone()),
                list: MoveList::default(),
                effects: Effects::default(),
                of: AheadOf::default(),
            })
        });
        if !a.of.start() {
            return false;
        }
        let slot = t.player_slot as usize;
        let old = st[slot];
        st[slot] = raw::read(t, st, p);
        let r: Result<usize, RunError> = match kind {
            true => a
                .walker
                .moves(st, e.to, SinkMut::List(&mut a.list))
                .map(|_| a.list.len()),
            false => a
                .walker
                .moves(st, e.to, SinkMut::Effects(&mut a.effects))
                .map(|_| a.effects.len()),
        };
        a.of.made(r.is_ok(), st, e.to, kind);
        st[slot] = old;
        matches!(r, Ok(n) if n > 0)
    }

    /// Hands `out` the moves kept for (`st`, `node`) where they are of that
    /// state and sink; whether it did. Kept moves are offered once.
    pub(super) fn take_ahead(&mut self, st: &[u16], node: u32, out: &mut SinkMut<'_>) -> bool {
        let Some(a) = self.ahead.as_deref_mut() else {
            return false;
        };
        if !a.of.take(st, node, matches!(out, SinkMut::List(_))) {
            return false;
        }
        match out {
            SinkMut::List(l) => std::mem::swap(*l, &mut a.list),
            SinkMut::Effects(l) => std::mem::swap(*l, &mut a.effects),
        }
        true
    }
}
