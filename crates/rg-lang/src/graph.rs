//! Checks on the rules automaton as a graph (labels ignored, check targets
//! not followed): `end` must be reachable from `begin`; reachability checks
//! whose walk may come back to their own edge are reported as warnings.

use rbg_lang::Error;

use crate::ast::{Game, Label};
use crate::checked::{CLabel, CheckedGame, Node};

/// Successor lists of the rules automaton (labels ignored).
pub fn successors(game: &CheckedGame) -> Vec<Vec<u32>> {
    let mut succ: Vec<Vec<u32>> = vec![Vec::new(); game.nodes.len()];
    for e in &game.edges {
        succ[e.from.0 as usize].push(e.to.0);
    }
    succ
}

/// The nodes reachable from `start` (including it), as a membership vector.
pub fn reachable(succ: &[Vec<u32>], start: Node) -> Vec<bool> {
    let mut seen = vec![false; succ.len()];
    let mut stack = vec![start.0];
    seen[start.0 as usize] = true;
    while let Some(v) = stack.pop() {
        for &w in &succ[v as usize] {
            if !seen[w as usize] {
                seen[w as usize] = true;
                stack.push(w);
            }
        }
    }
    seen
}

/// Requires `end` to be reachable from `begin`; adds the recursion warnings.
pub(crate) fn check_reachability(mut game: CheckedGame, ast: &Game) -> Result<CheckedGame, Error> {
    let succ = successors(&game);
    if !reachable(&succ, CheckedGame::BEGIN)[CheckedGame::END.0 as usize] {
        let span = ast.edges.first().map(|e| e.loc.0).unwrap_or_default();
        return Err(Error::new(
            span,
            "expected a path of edges from `begin` to `end`, found none",
        ));
    }
    let mut cache: Vec<Option<Vec<bool>>> = vec![None; game.nodes.len()];
    for (e, a) in game.edges.iter().zip(&ast.edges) {
        let CLabel::Reach(_, start, _) = e.label else {
            continue;
        };
        let from_start = cache[start.0 as usize].get_or_insert_with(|| reachable(&succ, start));
        if from_start[e.from.0 as usize] {
            let Label::Reach { from, .. } = &a.label else {
                continue;
            };
            game.warnings.push(Error::new(
                a.loc.0,
                format!(
                    "the check's walk from `{from}` can come back to this edge: a recursive check (an error when evaluated)"
                ),
            ));
        }
    }
    Ok(game)
}
