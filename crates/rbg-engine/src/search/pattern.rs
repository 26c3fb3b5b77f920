//! Patterns (`{? p}`, `{! p}`): decided by a probe where one was built
//! (`probe.rs`), by the walk in a fresh level otherwise.
//!
//! Pattern actions with equal bodies share one automaton
//! (`{! p} x + {? p} y` is very common); for shared automata the walk keeps
//! `version << 1 | result` per vertex (`Searcher::memo`). The version is a
//! number given to every state the walk passes through (fresh for each
//! root and each applied modifier, restored when the modifier is undone),
//! so a result is reused exactly while board and variables are unchanged,
//! across levels and nested patterns. A pattern walk returns as soon as it
//! discovers a node whose state is accepting (`Tr::accepting`), before the
//! rest of the current node's transitions (go's liberty tests: 20% more
//! playouts/s).

use super::{Pattern, Searcher};
use crate::compile::{Compiled, NONE};
use crate::state::State;

impl Searcher {
    /// Evaluates pattern automaton `k` at vertex `v`: true iff some path
    /// reaches an accepting state. The state is left unchanged.
    #[inline(always)]
    pub(super) fn pattern(
        &mut self,
        g: &Compiled,
        s: &mut State,
        k: u32,
        v: u32,
        level: usize,
    ) -> bool {
        let m = g.memo_index[k as usize];
        if m == NONE {
            return self.pattern_search(g, s, k, v, level);
        }
        let i = m as usize * g.num_vertices as usize + v as usize;
        let version = self.version;
        if self.memo[i] >> 1 == version {
            return self.memo[i] & 1 != 0;
        }
        let found = self.pattern_search(g, s, k, v, level);
        self.memo[i] = version << 1 | found as u64;
        found
    }

    /// Searches pattern automaton `k` from vertex `v`.
    fn pattern_search(
        &mut self,
        g: &Compiled,
        s: &mut State,
        k: u32,
        v: u32,
        level: usize,
    ) -> bool {
        let pc = g.probes.start[k as usize];
        if pc != NONE {
            return g.probes.run(&s.board, v, pc);
        }
        self.walk_pattern(g, s, k, v, level)
    }

    /// Decides pattern automaton `k` at `v` by a walk in a fresh level.
    fn walk_pattern(&mut self, g: &Compiled, s: &mut State, k: u32, v: u32, level: usize) -> bool {
        let saved_len = self.cur.len();
        let lvl = level + 1;
        let start = g.starts[k as usize];
        let found = self.node::<Pattern>(g, s, start, v, lvl);
        self.cur.truncate(saved_len);
        found
    }

    /// Decides pattern automaton `k` at `v` by a walk even when it has a
    /// probe, for tests comparing the two.
    #[cfg(test)]
    pub(crate) fn walk_pattern_at(&mut self, g: &Compiled, s: &mut State, k: u32, v: u32) -> bool {
        g.check_state(s);
        self.new_version();
        self.walk_pattern(g, s, k, v, 0)
    }
}
