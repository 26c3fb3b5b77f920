//! Perft: the number of leaves of the game tree at a fixed depth, as the
//! RBG suite and the RG reference count them.
//!
//! Depth counts the moves of players and chance; the system's moves are
//! free (they happen inside [`Reasoner::apply`]). A state at depth 0 is one
//! leaf whatever it is (also a finished game); a state with no legal move
//! (or a finished game) above depth 0 has none. At a chance node the moves
//! with equal outcomes count once (the RG reference's rule).

use std::collections::HashSet;

use crate::{Game, MoveList, Reasoner, Turn};

/// Result of a perft run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PerftCount {
    /// Leaves at the requested depth.
    pub leaves: u64,
    /// States visited (every node of the tree, leaves included).
    pub states: u64,
}

impl std::ops::AddAssign for PerftCount {
    fn add_assign(&mut self, o: PerftCount) {
        self.leaves += o.leaves;
        self.states += o.states;
    }
}

/// Perft from the initial state.
pub fn perft<G: Game>(game: &G, depth: usize) -> Result<PerftCount, G::Error> {
    let mut r = game.reasoner();
    perft_from::<G>(&mut r, &game.initial_state()?, depth)
}

/// Perft on `threads` threads: the top of the tree is expanded into enough
/// subtrees to share out, and the subtrees are counted in parallel. Gives
/// the same counts as [`perft`].
pub fn perft_parallel<G: Game>(
    game: &G,
    depth: usize,
    threads: usize,
) -> Result<PerftCount, G::Error> {
    if threads <= 1 || depth < 2 {
        return perft(game, depth);
    }
    perft_split(game, depth, threads, &|_, _| {})
}

/// [`perft_parallel`] that splits the top of the tree also on one thread
/// and calls `progress(done, total)` after each subtree is counted (from
/// the counting threads).
pub fn perft_split<G: Game>(
    game: &G,
    depth: usize,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<PerftCount, G::Error> {
    let threads = threads.max(1);
    let mut r = game.reasoner();
    let mut count = PerftCount::default();
    let mut frontier = vec![game.initial_state()?];
    let mut d = depth;
    let mut moves = MoveList::<G::Atom>::default();
    // Expand as `perft_from` would, counting the states passed on the way.
    while frontier.len() < threads * 64 && d >= 2 {
        let mut next = Vec::new();
        for s in &frontier {
            count.states += 1;
            children::<G>(&mut r, s, &mut moves, &mut next)?;
        }
        frontier = next;
        d -= 1;
    }
    let taken = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::atomic::AtomicUsize::new(0);
    let parts: Vec<Result<PerftCount, G::Error>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                let (frontier, taken, done) = (&frontier, &taken, &done);
                std::thread::Builder::new()
                    .stack_size(STACK_SIZE)
                    .spawn_scoped(scope, move || {
                        let mut r = game.reasoner();
                        let mut sum = PerftCount::default();
                        loop {
                            let i = taken.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some(s) = frontier.get(i) else { break };
                            sum += perft_from::<G>(&mut r, s, d)?;
                            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            progress(n + 1, frontier.len());
                        }
                        Ok(sum)
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
        count += c?;
    }
    Ok(count)
}

/// Stack size of perft threads: engines may recurse once per applied
/// action and pattern.
pub const STACK_SIZE: usize = 256 << 20;

/// The children of `s` (none when the game is over), appended to `out`;
/// chance moves with equal outcomes ([`Reasoner::chance_outcome`]) count
/// once.
pub fn children<G: Game>(
    r: &mut G::Reasoner,
    s: &G::State,
    moves: &mut MoveList<G::Atom>,
    out: &mut Vec<G::State>,
) -> Result<(), G::Error> {
    let turn = r.game().turn(s);
    if turn == Turn::Over {
        return Ok(());
    }
    r.legal_moves(s, moves)?;
    let mut seen = HashSet::new();
    let mut outcome = s.clone();
    for m in moves.iter() {
        if turn == Turn::Chance {
            r.chance_outcome(s, m, &mut outcome)?;
            if !seen.insert(outcome.clone()) {
                continue;
            }
        }
        let mut child = s.clone();
        r.apply(&mut child, m)?;
        out.push(child);
    }
    Ok(())
}

/// A state of the walk with its children still to visit.
struct Frame<G: Game> {
    state: G::State,
    /// A player's moves.
    moves: MoveList<G::Atom>,
    /// A chance node's distinct outcomes (its children themselves).
    outcomes: Vec<G::State>,
    chance: bool,
    /// Next child to visit.
    next: usize,
    /// Depth left below `state`.
    depth: usize,
}

impl<G: Game> Frame<G> {
    fn children(&self) -> usize {
        match self.chance {
            true => self.outcomes.len(),
            false => self.moves.len(),
        }
    }
}

/// Perft from `root`.
///
/// The walk keeps one frame per state whose children are not all visited
/// yet, allocated as the depth is reached and reused after; the last child
/// of a frame takes the frame over, so a line without choices (a game that
/// cannot end, say) needs one frame whatever the depth. No recursion.
pub fn perft_from<G: Game>(
    r: &mut G::Reasoner,
    root: &G::State,
    depth: usize,
) -> Result<PerftCount, G::Error> {
    let mut count = PerftCount::default();
    let mut frames: Vec<Frame<G>> = vec![Frame {
        state: root.clone(),
        moves: MoveList::default(),
        outcomes: Vec::new(),
        chance: false,
        next: 0,
        depth,
    }];
    // Frames `..live` have children left to visit; `k` is the frame to
    // visit now.
    let mut live = 0;
    let mut k = 0;
    loop {
        let f = &mut frames[k];
        count.states += 1;
        if f.depth == 0 {
            count.leaves += 1;
        } else {
            match r.game().turn(&f.state) {
                Turn::Over => {}
                Turn::Player(_) => {
                    r.legal_moves_mut(&mut f.state, &mut f.moves)?;
                    (f.chance, f.next, live) = (false, 0, k + 1);
                }
                Turn::Chance => {
                    f.outcomes.clear();
                    children::<G>(r, &f.state, &mut f.moves, &mut f.outcomes)?;
                    (f.chance, f.next, live) = (true, 0, k + 1);
                }
            }
        }
        // The next child, of the deepest frame with children left.
        while live > 0 && frames[live - 1].next == frames[live - 1].children() {
            live -= 1;
        }
        if live == 0 {
            return Ok(count);
        }
        let p = live - 1;
        let i = frames[p].next;
        frames[p].next += 1;
        if frames[p].next == frames[p].children() {
            // The last child: the parent is done, its frame becomes the child's.
            let f = &mut frames[p];
            if f.chance {
                std::mem::swap(&mut f.state, &mut f.outcomes[i]);
            } else {
                r.apply(&mut f.state, f.moves.get(i))?;
            }
            f.depth -= 1;
            live = p;
            k = p;
        } else {
            if frames.len() == live {
                let f = &frames[p];
                frames.push(Frame {
                    state: f.state.clone(),
                    moves: MoveList::default(),
                    outcomes: Vec::new(),
                    chance: false,
                    next: 0,
                    depth: 0,
                });
            }
            let (parents, rest) = frames.split_at_mut(live);
            let (parent, child) = (&parents[p], &mut rest[0]);
            if parent.chance {
                child.state.clone_from(&parent.outcomes[i]);
            } else {
                child.state.clone_from(&parent.state);
                r.apply(&mut child.state, parent.moves.get(i))?;
            }
            child.depth = parent.depth - 1;
            k = live;
        }
    }
}
