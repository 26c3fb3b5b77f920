//! Levels: a visited set per sequence of applied modifiers, cleared by
//! generation stamps, and the step into the next level when a modifier is
//! applied (undone on the way back).

use super::{Kind, Mode, Searcher};
use crate::compile::{Compiled, NONE};
use crate::error::{limits, FaultKind};
use crate::moves::ModApp;
use crate::state::State;

/// An applied modifier, for undoing it: the vertex and its previous piece,
/// or the variable and its previous value.
#[derive(Clone, Copy, Debug)]
pub enum Change {
    /// A vertex and the piece it held.
    Piece(u32, u32),
    /// A variable and the value it held.
    Var(u32, i32),
}

impl Change {
    /// Puts back what the modifier replaced.
    #[inline(always)]
    pub(super) fn revert(self, g: &Compiled, s: &mut State) {
        match self {
            Change::Piece(v, old) => {
                s.set_piece(g, v, old);
            }
            Change::Var(var, old) => s.vars[var as usize] = old,
        }
    }
}

/// The visited set of the level being walked, borrowed for the walk.
///
/// Holds a raw pointer into the level's stamp buffer: while `node` walks
/// level `l`, only that walk touches level `l`'s stamps (patterns and
/// modifiers begin deeper levels; growing `levels` moves the `Level` values
/// but not their heap buffers).
pub(super) struct Marks {
    stamps: *mut u32,
    gen: u32,
    num_vertices: usize,
    #[cfg(debug_assertions)]
    len: usize,
}

impl Marks {
    /// Marks the node of a state with visited slot `slot` (or `NONE`) at
    /// vertex `v`; false if it already was marked in this level.
    #[inline(always)]
    pub(super) fn mark(&self, slot: u32, v: u32) -> bool {
        if slot == NONE {
            return true;
        }
        let i = slot as usize * self.num_vertices + v as usize;
        // `slot < num_slots` and `v < num_vertices`, and every level holds
        // `num_slots * num_vertices` stamps.
        #[cfg(debug_assertions)]
        debug_assert!(i < self.len);
        // SAFETY: in bounds (above); the buffer outlives the walk of the
        // level and nothing else accesses it meanwhile (see the type's doc).
        unsafe {
            let stamp = self.stamps.add(i);
            if *stamp == self.gen {
                false
            } else {
                *stamp = self.gen;
                true
            }
        }
    }
}

/// One level's visited set: its generation and a stamp per (slot, vertex).
#[derive(Clone, Default)]
pub(super) struct Level {
    gen: u32,
    stamps: Vec<u32>,
}

impl Searcher {
    /// Starts a fresh visited set for `level` (O(1): a new generation) and
    /// returns it for the walk of that level.
    #[inline(always)]
    pub(super) fn begin_level(&mut self, g: &Compiled, level: usize) -> Marks {
        let l = match self.levels.get_mut(level) {
            Some(l) if l.gen != u32::MAX => {
                l.gen += 1;
                l
            }
            _ => self.begin_level_slow(level),
        };
        Marks {
            stamps: l.stamps.as_mut_ptr(),
            gen: l.gen,
            num_vertices: g.num_vertices as usize,
            #[cfg(debug_assertions)]
            len: l.stamps.len(),
        }
    }

    #[cold]
    #[inline(never)]
    fn begin_level_slow(&mut self, level: usize) -> &mut Level {
        if level >= self.levels.len() {
            self.levels.resize_with(level + 1, || Level {
                gen: 0,
                stamps: vec![0; self.level_size],
            });
        }
        let l = &mut self.levels[level];
        l.gen = l.gen.wrapping_add(1);
        if l.gen == 0 {
            l.stamps.iter_mut().for_each(|x| *x = 0);
            l.gen = 1;
        }
        l
    }

    /// After modifier `a` was applied at `v`: records it, walks the next
    /// level, and undoes it with `undo` unless the keeper stopped there (the
    /// keeper keeps its move). Returns true to stop.
    ///
    /// Deep levels, an exhausted budget and faults take the watched path
    /// (`descend_watched`); the common case pays two comparisons.
    #[inline(always)]
    pub(super) fn descend<M: Mode>(
        &mut self,
        g: &Compiled,
        s: &mut State,
        a: u32,
        v: u32,
        level: usize,
        undo: Change,
    ) -> bool {
        if level + 1 >= self.watch_from || self.budget == 0 {
            return self.descend_watched::<M>(g, s, a, v, level, undo);
        }
        self.budget -= 1;
        self.next_level::<M>(g, s, a, v, level, undo)
    }

    /// [`Searcher::descend`] at a deep level or after a fault: stops on a
    /// fault, on the limits, or when the state repeats an earlier level's.
    #[cold]
    #[inline(never)]
    fn descend_watched<M: Mode>(
        &mut self,
        g: &Compiled,
        s: &mut State,
        a: u32,
        v: u32,
        level: usize,
        undo: Change,
    ) -> bool {
        let fault = if self.fault.is_some() {
            None
        } else if self.budget == 0 {
            Some(FaultKind::LongSearch)
        } else if level + 1 >= self.max_levels {
            Some(FaultKind::LongMove)
        } else if self.path.enter(g, s, level + 1, a, v, undo) {
            self.path.leave();
            Some(FaultKind::EndlessMove)
        } else {
            self.budget -= 1;
            let stop = self.next_level::<M>(g, s, a, v, level, undo);
            self.path.leave();
            return stop;
        };
        if let Some(kind) = fault {
            self.fail(kind, a);
        }
        undo.revert(g, s);
        true
    }

    /// The body of [`Searcher::descend`].
    #[inline(always)]
    fn next_level<M: Mode>(
        &mut self,
        g: &Compiled,
        s: &mut State,
        a: u32,
        v: u32,
        level: usize,
        undo: Change,
    ) -> bool {
        self.cur.push(ModApp {
            action: a,
            vertex: v,
        });
        let saved_version = self.version;
        self.new_version();
        let stop = self.node::<M>(g, s, a, v, level + 1);
        if stop && M::KIND == Kind::Keeper && self.fault.is_none() {
            return true;
        }
        self.version = saved_version;
        self.cur.pop();
        undo.revert(g, s);
        stop
    }
}

/// The deepest level of a search of `g`: `limits::MAX_LEVELS`, fewer when
/// the levels' visited sets would take more than `limits::LEVEL_MEMORY`.
pub fn max_levels(g: &Compiled) -> usize {
    let level_bytes = (g.num_slots as usize * g.num_vertices as usize * 4).max(1);
    (limits::LEVEL_MEMORY / level_bytes).clamp(limits::MIN_LEVELS, limits::MAX_LEVELS)
}
