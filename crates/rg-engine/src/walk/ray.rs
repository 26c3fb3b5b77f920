//! Rays into a move's end recorded at once (`rays.rs`).

use super::*;
use crate::code::Kind;
use crate::moves::{Change, Sink};
use crate::rays::Ray;
use crate::sealed::{Sealed, TailTest};
use crate::tables::Tables;
use crate::RunError;

impl Walker {
    /// Records the moves of the ray, fan or star at `node` (`rays.rs`):
    /// a star's rays whose comparison holds, in the walk's order, and of
    /// each ray each landing while the comparisons into the next node
    /// hold (a fan's: where its own holds), each landing that passes its
    /// tail's tests as it is found. The changes of the slots the rays do
    /// not write are read once ([`Walker::ray_fixed`]). The semistate is
    /// left as it was. Out of line: the walk's loop keeps its registers.
    #[inline(never)]
    pub(super) fn ray_moves<S: Sink>(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        node: u32,
        out: Option<&mut S>,
    ) -> Result<(), RunError> {
        let Some(out) = out else {
            return Ok(());
        };
        if let Some(ray) = t.rays.at(node) {
            // A ray or a fan of its own: recorded from the log (a template
            // read for one ray costs more than it saves: breakthrough's
            // fans, +1.6% with the template).
            return self.landings::<S, false>(t, st, ray, out);
        }
        let mut fixed = false;
        for a in t.rays.arms(node) {
            // SAFETY: a comparison of `t.code`'s table (`rays.rs`); `st`
            // checked where the walk starts.
            if !matches!(a.test, Kind::Skip) && !unsafe { t.code.holds(st, a.test) } {
                continue;
            }
            let ray = t.rays.ray(a.ray);
            let slot = ray.slot;
            if !fixed {
                // Every ray of a star writes the same slot (`rays.rs`).
                self.ray_fixed.clear();
                for &(s, _) in &self.log {
                    if s != slot {
                        let value = st[s as usize] as u32;
                        self.ray_fixed.push(Change { slot: s, value });
                    }
                }
                fixed = true;
            }
            self.landings::<S, true>(t, st, ray, out)?;
        }
        Ok(())
    }

    /// The landings of one ray (see [`Walker::ray_moves`]), recorded with
    /// [`Walker::ray_fixed`] (`FIXED`) or from the log: a fan's loop and
    /// a ray's apart (`FAN`), each testing only its own way on.
    #[inline(always)]
    fn landings<S: Sink, const FIXED: bool>(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        ray: &Ray,
        out: &mut S,
    ) -> Result<(), RunError> {
        match ray.fan {
            true => self.landings_of::<S, FIXED, true>(t, st, ray, out),
            false => self.landings_of::<S, FIXED, false>(t, st, ray, out),
        }
    }

    /// [`Walker::landings`] of a fan (`FAN`) or a ray.
    #[inline(always)]
    fn landings_of<S: Sink, const FIXED: bool, const FAN: bool>(
        &mut self,
        t: &Tables,
        st: &mut [u16],
        ray: &Ray,
        out: &mut S,
    ) -> Result<(), RunError> {
        // The tail's slot, `player` and node read from the ray, its tests
        // only where it has some (`Ray::tested`).
        let tests: &[TailTest] = match ray.tested {
            true => t.code.tail(ray.tail).1,
            false => &[],
        };
        let slot = ray.slot;
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
        let holds = |st: &[u16], k: &Kind| unsafe { step_holds(&t.code, st, k) };
        let log = self.log.len();
        self.log.push((slot, old));
        let slots = self.log.iter().map(|&(slot, _)| slot);
        let player = (t.player_slot, ray.player);
        let mut r = Ok(());
        for s in ray.steps.iter() {
            let last = matches!(s.test, Kind::Skip);
            // A fan's step passed over when its comparison fails.
            if FAN && !last && !holds(st, &s.test) {
                continue;
            }
            // SAFETY: a table operand of a landing, as above.
            st[slot as usize] = unsafe { t.code.tab_at(key, s.table) };
            if tests.iter().all(|&c| passes(st, c)) {
                if FIXED {
                    let fixed = &self.ray_fixed;
                    out.push_landing(slots.clone(), fixed, st, slot, player, ray.node);
                } else {
                    let (p, v) = player;
                    out.push(&[], &[], slots.clone(), st, p, v, ray.node, 0);
                }
                if out.recorded() > MAX_RECORDED {
                    r = Err(RunError::MovesTooLarge(MAX_RECORDED));
                    break;
                }
            }
            st[slot as usize] = old;
            if !FAN && (last || !holds(st, &s.test)) {
                break;
            }
        }
        // The slot restored after each landing, or here after an error.
        st[slot as usize] = old;
        self.log.truncate(log);
        r
    }
}

/// [`Sealed::holds`] with a ray's usual comparisons, `board[x] == c` and
/// `f[board[x]] == c`, tested inline and the others out of line: a ray's
/// step dispatches through no table. The step's comparison read in place
/// (`&Kind`): taken by value, it was copied to the stack whole and its
/// fields read back, which cost time though fewer instructions
/// (knightthrough 0.94, breakthrough 0.96 of the time per playout).
///
/// With [`Walker::landings`]' loops apart per `FAN`, callgrind
/// instructions per playout (`rbg bench --engine interp`, seed 7, in
/// `play_random`) against cf23477: amazons 7,529,654 -> 6,561,576
/// (-12.9%), knightthrough 416,599 -> 392,089 (-5.9%), breakthrough
/// 721,981 -> 684,134 (-5.2%), englishDraughts -2.1%, foxAndHounds
/// -1.8%, the others within 0.02% (knightthrough's fan steps: 36
/// instructions each, 25 now); native unchanged.
///
/// # Safety
/// As [`Sealed::holds`].
#[inline(always)]
unsafe fn step_holds(code: &Sealed, st: &[u16], k: &Kind) -> bool {
    // SAFETY: the caller's.
    unsafe {
        match *k {
            Kind::CmpInd {
                slot,
                table,
                value,
                eq,
            } => (code.ind(st, slot, table) == value) == eq,
            Kind::CmpTabInd {
                slot,
                inner,
                outer,
                value,
                eq,
            } => (code.tab_at(code.ind(st, slot, inner), outer) == value) == eq,
            k => other_holds(code, st, k),
        }
    }
}

/// [`Sealed::holds`], out of line ([`step_holds`]).
///
/// # Safety
/// As [`Sealed::holds`].
#[inline(never)]
unsafe fn other_holds(code: &Sealed, st: &[u16], k: Kind) -> bool {
    // SAFETY: the caller's.
    unsafe { code.holds(st, k) }
}
