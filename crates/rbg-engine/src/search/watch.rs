//! Detecting moves and keeper completions that come back to an earlier
//! state, which proves that they can go on forever (see `crate::error`).

use super::Change;
use crate::compile::Compiled;
use crate::state::State;

/// The modifier applications of the current search path from
/// [`crate::error::limits::WATCH_FROM_LEVEL`] on, with a hash of the state
/// changes since the first of them, to find a level whose configuration
/// (board, variables, rules index, position) equals an earlier level's.
///
/// The hash of a level is the XOR of `key(cell, old) ^ key(cell, new)` over
/// the logged changes up to it, so two levels with equal boards and
/// variables have equal hashes; equal hashes are confirmed exactly from the
/// changes in between.
///
/// The log is a stack of levels: entering a level forgets the entries of
/// that level and deeper ones (branches already left), so a walker that
/// does not call [`PathLog::leave`] (the native engine) gets the same
/// answers.
#[derive(Clone, Default)]
pub struct PathLog {
    entries: Vec<Entry>,
    /// Scratch for [`PathLog::same_since`]: (cell, order, value before).
    cells: Vec<(u32, usize, i32)>,
}

#[derive(Clone, Copy)]
struct Entry {
    /// The level the modifier starts.
    level: usize,
    /// Rules index (the modifier's action) and position after the modifier.
    q: u32,
    v: u32,
    hash: u64,
    /// What the modifier replaced.
    change: Change,
}

/// A cell of the state: vertices first, then variables.
fn cell(g: &Compiled, c: Change) -> u32 {
    match c {
        Change::Piece(v, _) => v,
        Change::Var(var, _) => g.num_vertices + var,
    }
}

/// The value a change replaced.
fn before(c: Change) -> i32 {
    match c {
        Change::Piece(_, old) => old as i32,
        Change::Var(_, old) => old,
    }
}

/// The current value of a cell.
fn now(g: &Compiled, s: &State, cell: u32) -> i32 {
    if cell < g.num_vertices {
        s.board[cell as usize] as i32
    } else {
        s.vars[(cell - g.num_vertices) as usize]
    }
}

/// A pseudo-random key for a cell holding a value (splitmix64).
fn key(cell: u32, value: i32) -> u64 {
    let mut z =
        (u64::from(cell) << 32 | u64::from(value as u32)).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl PathLog {
    /// Forgets the path (at the start of a search).
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Logs modifier `q` applied at `v`, starting level `level` (`change`
    /// is what it replaced; the state already holds the new value). Returns
    /// true when the configuration equals that of an earlier logged level:
    /// the modifiers in between can repeat forever.
    pub fn enter(
        &mut self,
        g: &Compiled,
        s: &State,
        level: usize,
        q: u32,
        v: u32,
        change: Change,
    ) -> bool {
        while self.entries.last().is_some_and(|e| e.level >= level) {
            self.entries.pop();
        }
        let c = cell(g, change);
        let delta = key(c, before(change)) ^ key(c, now(g, s, c));
        let hash = self.entries.last().map_or(0, |e| e.hash) ^ delta;
        self.entries.push(Entry {
            level,
            q,
            v,
            hash,
            change,
        });
        let last = self.entries.len() - 1;
        (0..last).rev().any(|i| {
            let e = self.entries[i];
            e.q == q && e.v == v && e.hash == hash && self.same_since(g, s, i)
        })
    }

    /// Undoes the last [`PathLog::enter`].
    pub fn leave(&mut self) {
        self.entries.pop();
    }

    /// Whether the state now equals the state at entry `i`: every cell
    /// changed after it holds again the value it had then (the value before
    /// its first change after `i`).
    fn same_since(&mut self, g: &Compiled, s: &State, i: usize) -> bool {
        self.cells.clear();
        for (k, e) in self.entries.iter().enumerate().skip(i + 1) {
            self.cells.push((cell(g, e.change), k, before(e.change)));
        }
        self.cells.sort_unstable();
        let mut prev = u32::MAX;
        for &(c, _, old) in &self.cells {
            if c != prev {
                prev = c;
                if now(g, s, c) != old {
                    return false;
                }
            }
        }
        true
    }
}

/// Brent's cycle detection over the states of one keeper completion: a
/// repeated state means the completion goes on forever.
#[derive(Clone, Default)]
pub(super) struct KeeperWatch {
    /// The state compared with (the tortoise), once watching.
    mark: Option<State>,
    /// States since the mark and the length of the current stretch.
    since: u64,
    stretch: u64,
}

impl KeeperWatch {
    /// Starts watching from `s`.
    pub fn start(&mut self, s: &State) {
        match &mut self.mark {
            Some(m) => m.clone_from(s),
            None => self.mark = Some(s.clone()),
        }
        self.since = 0;
        self.stretch = 1;
    }

    /// Takes the next state of the completion; true if it was seen before.
    pub fn repeats(&mut self, s: &State) -> bool {
        let Some(mark) = &mut self.mark else {
            return false;
        };
        if mark == s {
            return true;
        }
        self.since += 1;
        if self.since == self.stretch {
            mark.clone_from(s);
            self.stretch *= 2;
            self.since = 0;
        }
        false
    }
}
