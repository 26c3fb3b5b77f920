//! Shift tables and filters: every maximal vertex-only subexpression
//! (shifts, no-ops and patterns of those: `anySquare`, `up^2 left`,
//! `{! left} {! up}`, yavalath's `... {? W^4 E^8} ...`) becomes one action
//! whose table lists, per start vertex, the vertices it can end at,
//! computed once at load time and shared between equal subexpressions. Such
//! patterns cost nothing at run time.
//!
//! - A table that never leaves its start vertex is a filter (`Op::Filter`,
//!   one cell per vertex).
//! - A table with at most one target per vertex (`up left`,
//!   `{? up} down^2`) becomes an extra direction of the neighbour table
//!   (`Op::Shift`, one lookup).
//! - A table's search may take [`MAX_TABLE_WORK`] steps, all tables'
//!   together [`super::MAX_TABLES_WORK`] (given-up searches included);
//!   beyond that the walk follows the expression step by step
//!   (`Compiled::untabulated`, no suite game), so a 200x200 board with two
//!   `anySquare`s loads in about a second.

use rbg_lang::ast::{Action, Rule};

use super::glushkov::{Builder, Follow, Pos};
use super::{Act, MAX_TABLE_WORK, NONE};

/// Turns every shift table that is a partial function (at most one target
/// per vertex, e.g. `up left` or `{? up} down^2`) into an extra direction, so
/// the walk follows it with one lookup. Returns the extended neighbour table
/// and its number of directions.
pub(super) fn deterministic_tables_as_directions(b: &mut Builder) -> (Vec<u32>, u32) {
    let nv = b.num_vertices as usize;
    let nd = b.num_dirs as usize;
    let mut columns: Vec<Vec<u32>> = (0..nd)
        .map(|d| (0..nv).map(|v| b.neighbors[v * nd + d]).collect())
        .collect();
    let mut dir_of_table = std::collections::HashMap::new();
    for act in &b.acts {
        let Act::Multi(t) = *act else { continue };
        dir_of_table.entry(t).or_insert_with(|| {
            let vertices = 0..b.num_vertices;
            if vertices.clone().any(|v| b.table_targets(t, v).len() > 1) {
                return NONE;
            }
            let column = vertices
                .map(|v| b.table_targets(t, v).first().copied().unwrap_or(NONE))
                .collect();
            columns.push(column);
            columns.len() as u32 - 1
        });
    }
    for act in b.acts.iter_mut() {
        if let Act::Multi(t) = *act {
            if dir_of_table[&t] != NONE {
                *act = Act::Shift(dir_of_table[&t]);
            }
        }
    }
    let nd = columns.len();
    let mut neighbors = vec![NONE; nv * nd];
    for (d, column) in columns.iter().enumerate() {
        for (v, &t) in column.iter().enumerate() {
            neighbors[v * nd + d] = t;
        }
    }
    (neighbors, nd as u32)
}

/// A step of a vertex-only expression's local automaton.
#[derive(Clone, Copy)]
enum Step {
    /// Shift along a direction.
    Dir(u32),
    /// Stay, if the filter (row start in `filter_ok`) passes; `NONE`: always.
    Keep(u32),
}

impl Builder {
    /// The action of a vertex-only expression: a filter when it never
    /// leaves its start vertex, a shift table otherwise; `None` when the
    /// table would cost too much.
    pub(super) fn vertex_only_act(&mut self, rule: &Rule) -> Option<Act> {
        let t = self.shift_table(rule)?;
        let stays =
            (0..self.num_vertices).all(|v| self.table_targets(t, v).iter().all(|&w| w == v));
        if !stays {
            return Some(Act::Multi(t));
        }
        let ok = self.reaches_any(t, false);
        Some(Act::Filter(self.filter_row(ok)))
    }

    /// Targets of shift table `t` from vertex `v`.
    pub(super) fn table_targets(&self, t: u32, v: u32) -> &[u32] {
        let i = t as usize * (self.num_vertices as usize + 1) + v as usize;
        &self.multi_targets[self.multi_off[i] as usize..self.multi_off[i + 1] as usize]
    }

    /// For every vertex, whether shift table `t` reaches any vertex from it
    /// (the opposite when `negated`): the truth of a pattern over `t`.
    fn reaches_any(&self, t: u32, negated: bool) -> Vec<bool> {
        (0..self.num_vertices)
            .map(|v| self.table_targets(t, v).is_empty() == negated)
            .collect()
    }

    /// Stores a filter row (reusing an equal one); returns its first cell.
    fn filter_row(&mut self, ok: Vec<bool>) -> u32 {
        let nv = self.num_vertices as usize;
        if let Some(f) = self.filter_ok.chunks(nv.max(1)).position(|r| r == &ok[..]) {
            return (f * nv) as u32;
        }
        let start = self.filter_ok.len() as u32;
        self.filter_ok.extend(ok);
        start
    }

    /// Builds (or reuses) the shift table of a vertex-only expression: for
    /// every start vertex, the vertices where some word of the expression
    /// can end, found by a search over (position automaton state, vertex).
    ///
    /// `None` when that search would take more than [`MAX_TABLE_WORK`]
    /// steps, or more than the work left of [`super::MAX_TABLES_WORK`]: a table
    /// can hold vertices² targets (`anySquare` on a 200x200 board: 1.6
    /// billion), and the walk follows such an expression step by step
    /// instead.
    fn shift_table(&mut self, rule: &Rule) -> Option<u32> {
        let key = format!("{rule:?}");
        if let Some(&t) = self.multi_ids.get(&key) {
            return t;
        }
        let t = self.new_shift_table(rule);
        self.multi_ids.insert(key, t);
        t
    }

    /// See [`Builder::shift_table`].
    fn new_shift_table(&mut self, rule: &Rule) -> Option<u32> {
        // Local position automaton over the steps of `rule`.
        let mut dirs = Vec::new();
        let mut follow = Follow::new(MAX_TABLE_WORK);
        let p = self.local_positions(rule, &mut dirs, &mut follow)?;
        if follow.full {
            return None;
        }
        let follow = {
            let mut lists = follow.lists;
            lists.push(p.first);
            lists
        };
        let n = dirs.len();
        let mut accepting = vec![false; n + 1];
        accepting[n] = p.nullable;
        for &l in &p.last {
            accepting[l as usize] = true;
        }
        let nv = self.num_vertices as usize;
        // The work is the number of (state, vertex) nodes the search visits
        // plus the transitions it follows, over all start vertices.
        let budget = MAX_TABLE_WORK.min(self.table_work);
        if ((n + 1) as u64).saturating_mul(nv as u64) > 4 * MAX_TABLE_WORK {
            // Not even the search's marks fit.
            return None;
        }
        let mut work = 0u64;
        let (old_off, old_targets) = (self.multi_off.len(), self.multi_targets.len());
        let mut seen = vec![u32::MAX; (n + 1) * nv];
        let mut hit = vec![u32::MAX; nv];
        let mut stack = Vec::new();
        let t = (self.multi_off.len() / (nv + 1)) as u32;
        for v0 in 0..nv {
            self.multi_off.push(self.multi_targets.len() as u32);
            stack.clear();
            stack.push((n, v0));
            seen[n * nv + v0] = v0 as u32;
            while let Some((q, v)) = stack.pop() {
                work += 1 + follow[q].len() as u64;
                if work > budget {
                    self.multi_off.truncate(old_off);
                    self.multi_targets.truncate(old_targets);
                    self.table_work -= work.min(self.table_work);
                    return None;
                }
                if accepting[q] && hit[v] != v0 as u32 {
                    hit[v] = v0 as u32;
                    self.multi_targets.push(v as u32);
                }
                for &a in &follow[q] {
                    let w = match dirs[a as usize] {
                        Step::Dir(d) => self.neighbors[v * self.num_dirs as usize + d as usize],
                        Step::Keep(f) if f == NONE || self.filter_ok[f as usize + v] => v as u32,
                        Step::Keep(_) => NONE,
                    };
                    if w != NONE {
                        let i = a as usize * nv + w as usize;
                        if seen[i] != v0 as u32 {
                            seen[i] = v0 as u32;
                            stack.push((a as usize, w as usize));
                        }
                    }
                }
            }
        }
        self.multi_off.push(self.multi_targets.len() as u32);
        self.table_work -= work;
        Some(t)
    }
}

impl Builder {
    /// Glushkov construction over a vertex-only expression (positions
    /// numbered locally; `steps[i]` is the step of position `i`). Patterns
    /// become filters, computed from their bodies' shift tables.
    /// `None` when a pattern's table would cost too much.
    fn local_positions(
        &mut self,
        r: &Rule,
        steps: &mut Vec<Step>,
        follow: &mut Follow,
    ) -> Option<Pos> {
        let mut leaf = |step: Step| {
            let i = steps.len() as u32;
            steps.push(step);
            follow.push();
            Some(Pos::leaf(i))
        };
        match r {
            Rule::Action(Action::Shift(d)) => leaf(Step::Dir(*d)),
            Rule::Action(Action::Noop) => leaf(Step::Keep(NONE)),
            Rule::Action(Action::Pattern { negated, rule }) => {
                let t = self.shift_table(rule)?;
                let ok = self.reaches_any(t, *negated);
                leaf(Step::Keep(self.filter_row(ok)))
            }
            Rule::Concat(parts) => {
                let mut acc = Pos::epsilon();
                for part in parts {
                    let p = self.local_positions(part, steps, follow)?;
                    acc.then(p, follow);
                }
                Some(acc)
            }
            Rule::Alt(parts) => {
                let mut acc = Pos::nothing();
                for part in parts {
                    let p = self.local_positions(part, steps, follow)?;
                    acc.or(p);
                }
                Some(acc)
            }
            Rule::Star(inner) => Some(self.local_positions(inner, steps, follow)?.star(follow)),
            Rule::Action(_) => unreachable!("only called on vertex-only expressions"),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{GameModel, MoveList};

    /// A one-player game on an `n`x`n` board: put a `w` on any empty square.
    fn big(n: usize, any_square: &str) -> String {
        let row = format!("[{}]", vec!["e"; n].join(","));
        format!(
            "#players = a(1)\n#pieces = e, w\n#variables =\n\
             #board = rectangle(up, down, left, right, {})\n\
             #rules = ->a {any_square} {{e}} [w] ->a\n",
            vec![row; n].join(" ")
        )
    }

    /// On a 200x200 board `anySquare` would be a table of 1.6 billion
    /// targets: it is walked instead, and the game loads at once.
    #[test]
    fn big_boards_walk_what_would_be_huge_tables() {
        for any in [
            "(up + down + left + right)*",
            "(up* + down*)(left* + right*)",
        ] {
            let t = std::time::Instant::now();
            let game = GameModel::from_text(&big(200, any)).unwrap();
            assert!(t.elapsed() < std::time::Duration::from_secs(10), "{any}");
            assert!(game.inner.c.untabulated >= 1, "{any}");
            let mut moves = MoveList::default();
            game.reasoner()
                .legal_moves(&game.initial_state(), &mut moves)
                .unwrap();
            assert_eq!(moves.len(), 200 * 200, "{any}");
        }
        // On a small board the same expressions are tables.
        for any in [
            "(up + down + left + right)*",
            "(up* + down*)(left* + right*)",
        ] {
            let game = GameModel::from_text(&big(8, any)).unwrap();
            assert_eq!(game.inner.c.untabulated, 0, "{any}");
        }
    }

    /// Every vertex-only expression of the suite's games is a table, as
    /// before tables had a budget: their speed is unchanged.
    #[test]
    fn suite_games_keep_all_their_tables() {
        let files = testkit::rbg_suite_games();
        if files.is_empty() {
            return;
        }
        let mut seen = 0;
        for path in &files {
            let text = std::fs::read_to_string(path).unwrap();
            let game = GameModel::from_text(&text).unwrap();
            assert_eq!(game.inner.c.untabulated, 0, "{}", path.display());
            seen += 1;
        }
        assert!(seen >= 60, "{seen} games");
    }
}
