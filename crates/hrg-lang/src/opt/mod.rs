//! RG → RG simplification of a translated game, inside its checks.
//!
//! HRG written naturally searches in its checks: `kind = Kind(*)` then
//! `board[cellOf(kind, at, j)] == who` makes the engine assign, log and
//! undo `kind`, and read a three-level constant map, for every line of a
//! tic-tac-toe board. Inside a check (`? a -> b`) only whether `b` is
//! reached counts, and its state is discarded afterwards, so such searches
//! can be written out at translation time (the RG paper's appendix B lists
//! the reference optimiser's passes of this kind: constant propagation,
//! "expand any assignment", joins of equal paths, pruning). The passes here:
//!
//! - [`names`]: constant expressions folded (constant maps read by known
//!   keys, comparisons of two symbols decided), everywhere;
//! - [`unroll`]: an any-assignment in a check becomes one branch per value
//!   with that value propagated; assignments no later edge of the check
//!   reads become skips;
//! - [`simplify`]: equal nodes of a check merged, repeated edges and skip
//!   chains dropped, unreachable edges removed; variables the passes left
//!   unused dropped.
//!
//! Soundness rests on [`graph::Facts::editable`]: the passes change only
//! nodes that only checks with one target pass, none of which assigns
//! `player`, `goals` or `visible` or passes a node named by a pragma. There
//! the reference's search (`rg-language.md` §5.4, §7.7) finds the target
//! exactly when it is reachable in the graph of states, and each pass keeps
//! that (its module says why). The main automaton (moves, tags, the order
//! of each node's edges) is untouched except for folded expressions, so
//! moves, perft and playouts are those of the plain translation.
//!
//! Growth is bounded: one unrolled assignment adds at most
//! [`unroll::UNROLL_EDGES`] edges, all of them together at most a quarter
//! of the game's edges plus 256; the analysis and merging are bounded in
//! work (beyond the bound, nothing more is done), so this stays well within
//! the translation's 100 ms.

mod graph;
mod names;
mod simplify;
mod unroll;

use std::collections::HashSet;

use rg_lang::ast as rg;

use graph::{Facts, Graph};
use names::{written, Env, Names, BUILTIN_VARIABLES};

/// At most this many rounds of all passes.
const ROUNDS: usize = 16;

/// The game with its checks simplified (see the module notes); the same
/// moves, perft and playouts.
pub fn optimize(game: &rg::Game) -> rg::Game {
    let names = Names::new(game);
    let mut g = Graph::new(game);
    let mut budget = 256 + g.edge_count() / 4;
    fold(&mut g, &names);
    for _ in 0..ROUNDS {
        // Facts stay sound (if less precise) across the passes after the
        // unrolling: they only remove edges, move them within a check or
        // make nodes no check passed before (never editable).
        let Some(facts) = Facts::new(&g, &names) else {
            break;
        };
        let mut changed = unroll::unroll(&mut g, &names, &facts, &mut budget);
        let Some(facts) = Facts::new(&g, &names) else {
            break;
        };
        changed |= unroll::dead(&mut g, &names, &facts);
        changed |= unroll::inline(&mut g, &names, &facts);
        changed |= simplify::merge(&mut g, &facts);
        changed |= simplify::dedupe(&mut g, &facts);
        changed |= simplify::compact(&mut g, &facts);
        changed |= simplify::prune(&mut g, &facts);
        if !changed {
            break;
        }
    }
    let mut out = game.clone();
    out.edges = g.edges();
    // Variables the passes left unused go; others stay where they are (the
    // engines' state layout, and so their speed, depends on it).
    let before = used_variables(game, &names);
    let after = used_variables(&out, &names);
    out.variables
        .retain(|v| after.contains(&v.name.text) || !before.contains(&v.name.text));
    out
}

/// Folds constant expressions on every edge not at a node named by a
/// pragma (a comparison that never holds goes, one that always holds is a
/// skip: the same walks).
fn fold(g: &mut Graph, names: &Names) {
    let empty = Env::new();
    for i in 0..g.names.len() {
        if names.pragma_nodes.contains(&g.names[i]) {
            continue;
        }
        let edges = std::mem::take(&mut g.out[i]);
        g.out[i] = edges
            .into_iter()
            .filter_map(|mut e| {
                e.label = names.specialise(&e.label, &empty)?;
                Some(e)
            })
            .collect();
    }
}

/// Variables some edge reads or writes, built-ins, and those named by
/// pragmas.
fn used_variables(game: &rg::Game, names: &Names) -> HashSet<String> {
    let mut used: HashSet<String> = BUILTIN_VARIABLES.iter().map(|v| v.to_string()).collect();
    used.extend(names.pragma_vars.iter().cloned());
    for e in &game.edges {
        used.extend(written(&e.label).map(str::to_string));
        names.reads(&e.label, &mut |v| {
            used.insert(v.to_string());
        });
    }
    used
}
