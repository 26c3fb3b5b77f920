//! A ray into a move's end recorded at once (`rays.rs`).

use super::*;
use crate::code::Kind;
use crate::moves::Sink;
use crate::tables::Tables;
use crate::RunError;

impl Walker {
    /// Records the moves of the ray or fan starting at `node`
    /// (`rays.rs`): each landing, in the walk's order, while the
    /// comparisons into the next node hold (a fan's: where its own
    /// holds); each landing that passes its tail's tests as it is found.
    /// The semistate is left as it was. Out of line: the walk's loop
    /// keeps its registers.
    #[inline(never)]
    pub(super) fn ray_moves<S: Sink>(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        node: u32,
        out: Option<&mut S>,
    ) -> Result<(), RunError> {
        let (Some(out), Some((ray, steps))) = (out, t.rays.at(node)) else {
            return Ok(());
        };
        let (tail, tests) = t.code.tail(ray.tail);
        let slot = tail.slot;
        // SAFETY: a slot operand of the ray's landings (instructions of
        // `t.code`'s table, `rays.rs`; the tail's slot is theirs); `st`
        // checked where the walk starts.
        let old = unsafe { t.code.get(st, slot) };
        // SAFETY: as above.
        let key = unsafe { t.code.get(st, ray.key) };
        // SAFETY: tests of `t.code` (`Sealed::tail`); `st` as above.
        let passes = |st: &[u16], c| unsafe { t.code.passes(st, c) };
        // SAFETY: a comparison of `t.code`'s table (`rays.rs`); `st` as
        // above.
        let holds = |st: &[u16], k| unsafe { t.code.holds(st, k) };
        let log = self.log.len();
        self.log.push((slot, old));
        let slots = self.log.iter().map(|&(slot, _)| slot);
        let mut r = Ok(());
        for s in steps {
            let last = matches!(s.test, Kind::Skip);
            // A fan's step passed over when its comparison fails.
            if ray.fan && !last && !holds(st, s.test) {
                continue;
            }
            // SAFETY: a table operand of a landing, as above.
            st[slot as usize] = unsafe { t.code.tab_at(key, s.table) };
            if tests.iter().all(|&c| passes(st, c)) {
                let (player, at) = (t.player_slot, tail.node);
                out.push(&[], &[], slots.clone(), st, player, tail.player, at, 0);
                if out.recorded() > MAX_RECORDED {
                    r = Err(RunError::MovesTooLarge(MAX_RECORDED));
                    break;
                }
            }
            st[slot as usize] = old;
            if !ray.fan && (last || !holds(st, s.test)) {
                break;
            }
        }
        self.rollback(st, log);
        r
    }
}
