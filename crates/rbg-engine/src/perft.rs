//! Perft: counting the leaves of the game tree to a fixed depth, exactly as
//! the reference driver does (see the suite's README).

use crate::{GameModel, MoveList, Reasoner, State};

/// Result of a perft run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PerftCount {
    /// Leaves at the requested depth (plus final keeper states at depth 0).
    pub leaves: u64,
    /// Regular-player states visited plus final keeper states.
    pub states: u64,
}

/// Runs perft from the keeper-completed initial state.
pub fn perft(game: &GameModel, depth: usize) -> PerftCount {
    let mut r = game.reasoner();
    let root = game.initial_state();
    perft_from(&mut r, &root, depth)
}

/// Runs perft from a keeper-completed state.
pub fn perft_from(r: &mut Reasoner, root: &State, depth: usize) -> PerftCount {
    let mut states: Vec<State> = vec![root.clone(); depth + 1];
    let mut lists: Vec<MoveList> = vec![MoveList::default(); depth + 1];
    let mut count = PerftCount::default();
    rec(r, &mut states, &mut lists, depth, &mut count);
    count
}

fn rec(
    r: &mut Reasoner,
    states: &mut [State],
    lists: &mut [MoveList],
    d: usize,
    count: &mut PerftCount,
) {
    let num_players = r.game().num_players() as u32;
    let (cur, rest) = states.split_last_mut().expect("one state per depth");
    count.states += 1;
    if cur.player >= num_players || d == 0 {
        // A final keeper state, or a regular player's state at depth 0.
        if d == 0 {
            count.leaves += 1;
        }
        return;
    }
    let (list, rest_lists) = lists.split_last_mut().expect("one list per depth");
    r.legal_moves_mut(cur, list);
    for m in list.iter() {
        let child = rest.last_mut().expect("depth > 0");
        child.clone_from(cur);
        r.apply(child, m);
        rec(r, rest, rest_lists, d - 1, count);
    }
}
