//! A ray into a move's end recorded at once (`rays.rs`).

use super::*;
use crate::code::Kind;
use crate::moves::Sink;
use crate::tables::Tables;
use crate::RunError;

impl Walker {
    /// Records the moves of the ray starting at `node` (`rays.rs`): each
    /// landing, in the walk's order, while the comparisons into the next
    /// node hold; the landings that pass their tail's tests are recorded
    /// as one tail's symbols. The semistate is left as it was. Out of
    /// line: the walk's loop keeps its registers.
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
        let mut passing = std::mem::take(&mut self.tail_syms);
        passing.clear();
        // SAFETY: a slot operand of the ray's landings (instructions of
        // `t.code`'s table, `rays.rs`; the tail's slot is theirs); `st`
        // checked where the walk starts.
        let old = unsafe { t.code.get(st, slot) };
        // SAFETY: as above.
        let key = unsafe { t.code.get(st, ray.key) };
        // SAFETY: tests of `t.code` (`Sealed::tail`); `st` as above.
        let passes = |st: &[u16], c| unsafe { t.code.passes(st, c) };
        for s in steps {
            // SAFETY: a table operand of a landing, as above.
            let v = unsafe { t.code.tab_at(key, s.table) };
            if tests.is_empty() {
                passing.push(v);
            } else {
                st[slot as usize] = v;
                if tests.iter().all(|&c| passes(st, c)) {
                    passing.push(v);
                }
                st[slot as usize] = old;
            }
            // SAFETY: a comparison of `t.code`'s table (`rays.rs`); `st`
            // as above.
            if s.test == Kind::Skip || !unsafe { t.code.holds(st, s.test) } {
                break;
            }
        }
        let log = self.log.len();
        self.log.push((slot, old));
        let size = passing.len().saturating_mul(self.log.len() + 1);
        let r = match out.recorded().saturating_add(size) > MAX_RECORDED {
            true => Err(RunError::MovesTooLarge(MAX_RECORDED)),
            false => {
                // One by one: `Sink::push_syms`' template stays inline in
                // `Walker::tail_moves` (called from here too, it was not:
                // ticTacToe +2.0%, connect4 +1.3%; `moves::push_each`
                // called here, hex +0.9%).
                let slots = self.log.iter().map(|&(slot, _)| slot);
                for &x in &passing {
                    st[slot as usize] = x;
                    out.push(
                        &[],
                        &[],
                        slots.clone(),
                        st,
                        t.player_slot,
                        tail.player,
                        tail.node,
                        0,
                    );
                }
                Ok(())
            }
        };
        self.rollback(st, log);
        self.tail_syms = passing;
        r
    }
}
