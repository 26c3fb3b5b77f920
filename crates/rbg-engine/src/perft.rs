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

/// Runs perft on `threads` threads: the top of the tree is expanded into
/// enough subtrees to share out, and the subtrees are counted in parallel.
/// Gives the same counts as [`perft`].
pub fn perft_parallel(game: &GameModel, depth: usize, threads: usize) -> PerftCount {
    if threads <= 1 || depth < 2 {
        return perft(game, depth);
    }
    let num_players = game.num_players() as u32;
    let mut r = game.reasoner();
    let mut count = PerftCount::default();
    let mut frontier = vec![game.initial_state()];
    let mut d = depth;
    let mut moves = MoveList::default();
    // Expand as `rec` would, counting the states passed on the way.
    while frontier.len() < threads * 64 && d >= 2 {
        let mut next = Vec::new();
        for s in &frontier {
            count.states += 1;
            if s.player >= num_players {
                continue;
            }
            r.legal_moves(s, &mut moves);
            for m in moves.iter() {
                let mut child = s.clone();
                r.apply(&mut child, m);
                next.push(child);
            }
        }
        frontier = next;
        d -= 1;
    }
    let taken = std::sync::atomic::AtomicUsize::new(0);
    let parts: Vec<PerftCount> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                let (frontier, taken) = (&frontier, &taken);
                std::thread::Builder::new()
                    .stack_size(STACK_SIZE)
                    .spawn_scoped(scope, move || {
                        let mut r = game.reasoner();
                        let mut sum = PerftCount::default();
                        loop {
                            let i = taken.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some(s) = frontier.get(i) else { break };
                            let c = perft_from(&mut r, s, d);
                            sum.leaves += c.leaves;
                            sum.states += c.states;
                        }
                        sum
                    })
                    .expect("spawn a perft thread")
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("perft thread"))
            .collect()
    });
    for c in parts {
        count.leaves += c.leaves;
        count.states += c.states;
    }
    count
}

/// Stack size of perft threads: rule walks recurse once per applied
/// modifier and pattern.
const STACK_SIZE: usize = 256 << 20;

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
