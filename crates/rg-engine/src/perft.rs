//! Perft as the reference's `cli perf` counts it (`rg-language.md` §6.1):
//! keeper moves are free (they do not use up depth), random moves do (their
//! children merged by resulting state), every walk of a player counts. The
//! paper's count of distinct moves (children merged by tags) is an option.

use crate::{GameModel, MoveList, Mover, Reasoner, RunError, State, MAX_KEEPER_MOVES};

/// How children are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Counting {
    /// As the reference: every walk; random's children merged by state.
    #[default]
    Walks,
    /// As the paper: one child per distinct move (tag sequence).
    DistinctMoves,
}

/// The result of a perft run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PerftCount {
    /// Leaves at the requested depth.
    pub leaves: u64,
    /// States whose moves were generated.
    pub states: u64,
}

struct Level {
    state: State,
    list: MoveList,
    children: Vec<u32>,
    next: usize,
    /// Depth left for the children.
    depth: usize,
}

/// Counts the leaves `depth` plies below the initial state.
pub fn perft(game: &GameModel, depth: usize, counting: Counting) -> Result<PerftCount, RunError> {
    let mut r = game.reasoner();
    perft_from(&mut r, &game.initial_state(), depth, counting)
}

/// Counts the leaves `depth` plies below `root` (an explicit stack: keeper
/// chains of any length are fine).
pub fn perft_from(
    r: &mut Reasoner,
    root: &State,
    depth: usize,
    counting: Counting,
) -> Result<PerftCount, RunError> {
    let mut count = PerftCount::default();
    if depth == 0 {
        count.leaves = 1;
        return Ok(count);
    }
    let mut levels: Vec<Level> = Vec::new();
    let mut used = 0usize;
    let mut scratch = (root.clone(), root.clone());
    // Expands `state` (with `depth` > 0 left) into level `used`.
    let mut enter = |r: &mut Reasoner,
                     levels: &mut Vec<Level>,
                     used: &mut usize,
                     state: &State,
                     depth: usize,
                     count: &mut PerftCount|
     -> Result<(), RunError> {
        if *used == levels.len() {
            levels.push(Level {
                state: state.clone(),
                list: MoveList::default(),
                children: Vec::new(),
                next: 0,
                depth: 0,
            });
        }
        let l = &mut levels[*used];
        l.state.clone_from(state);
        r.moves(&mut l.state, &mut l.list)?;
        count.states += 1;
        let mover = r.game().mover(&l.state)?;
        l.children.clear();
        for i in 0..l.list.len() {
            let dup = match (counting, mover) {
                (Counting::DistinctMoves, _) => l
                    .children
                    .iter()
                    .any(|&j| l.list.tags(j as usize) == l.list.tags(i)),
                (Counting::Walks, Mover::Random) => l.children.iter().any(|&j| {
                    scratch.0.clone_from(&l.state);
                    scratch.1.clone_from(&l.state);
                    r.apply(&mut scratch.0, &l.list, j as usize);
                    r.apply(&mut scratch.1, &l.list, i);
                    scratch.0 == scratch.1
                }),
                _ => false,
            };
            if !dup {
                l.children.push(i as u32);
            }
        }
        l.next = 0;
        l.depth = if mover == Mover::Keeper {
            depth
        } else {
            depth - 1
        };
        *used += 1;
        if *used > depth + MAX_KEEPER_MOVES {
            return Err(RunError::EndlessKeeper {
                moves: MAX_KEEPER_MOVES,
                node: l.state.node(),
            });
        }
        Ok(())
    };
    enter(r, &mut levels, &mut used, root, depth, &mut count)?;
    let mut child = root.clone();
    while used > 0 {
        let l = &mut levels[used - 1];
        let Some(&i) = l.children.get(l.next) else {
            used -= 1;
            continue;
        };
        l.next += 1;
        if l.depth == 0 {
            count.leaves += 1;
            continue;
        }
        child.clone_from(&l.state);
        r.apply(&mut child, &l.list, i as usize);
        let d = l.depth;
        enter(r, &mut levels, &mut used, &child, d, &mut count)?;
    }
    Ok(count)
}
