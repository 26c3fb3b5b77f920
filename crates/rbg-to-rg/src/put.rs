//! A keeper's choice of the piece to put by where it stands, as one
//! assignment.
//!
//! English draughts' `->> ({? forward~Left + forward~Right} [me~Man] + {!
//! forward~Left + forward~Right} [me~King])`: the two patterns are tests of
//! the current vertex only (`board.rs` evaluates them to vertex filters),
//! they never both hold and one of them always does, and each puts a piece
//! there with the same continuation. Emitted as written, the keeper's walk
//! pushes a frame, tries both tests (one fails) and puts the piece of the
//! one that passes. Here it is one edge, `board[coord] = put[coord]`, with
//! `put` the piece each vertex gets: no choice, no frame, no failed test.
//!
//! Where: a state whose every transition is into a vertex filter entered
//! only from it, the filters pairwise disjoint and covering every vertex,
//! each filter's only transition into a piece put on the vertex (entered
//! only from the filter, no piece counters or tracked piece to update), the
//! puts alike after (same transitions, same acceptance), in the keeper's
//! walk (no tags), no fused shift among them, `coord` a vertex at the
//! state (the table's value at `null` is never read). The move is the one
//! of the filter that holds, as before; the keeper's moves have no tags.
//!
//! Callgrind instructions per playout (`rbg bench englishDraughts.rg
//! --seed 1 --playouts 60`, counted in `play_random`, one binary on both
//! translations): interp 532,843 -> 524,372 (-1.59%), native 221,951 ->
//! 221,045 (-0.41%). Of the suite's 61 games only englishDraughts and
//! englishDraughts_split translate differently.
//!
//! Tried and dropped (by hand on translated englishDraughts, same
//! measure): the keeper's other exclusive choices (this one, and
//! `{$ stagnation < 20}` / `{$ stagnation == 20}`) as `? c` / `! c` of
//! one-comparison checks, so that the engine takes each as one branch
//! (`rg-engine` `Kind::Branch`): interp +2.8%, native +1.1% (the checks'
//! evaluation costs more than the frame; the keeper's walk still does not
//! qualify as straight, its root being a choice). Each piece's modifier
//! (`$$ coord`, `$ index_N`, `board[coord] = empty`) moved after the tests
//! of the squares it goes to, one copy per destination, so that a piece
//! with no move skips it: interp +6.1%, native -2.3%.

use crate::board::{shape, Relation, Shape};
use crate::regex::{Leaf, Nfa};

/// A keeper's choice of the piece to put by vertex (see the module's doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Put {
    /// The filters' states, in transition order.
    pub tests: Vec<u32>,
    /// Each filter's put state, in the same order.
    pub puts: Vec<u32>,
    /// The piece put on each vertex.
    pub piece: Vec<u32>,
}

/// The choice of piece to put at state `s` (see the module's doc), given
/// the states' predecessors `preds` (reachable ones) and whether each state
/// is taken in a player's move (`tagged`: its modifiers are tagged). The
/// caller checks the rest (`coord` a vertex at `s`, no counters, no tracked
/// piece, no fused shift).
pub(crate) fn put_at(
    nfa: &Nfa,
    relations: &[Relation],
    preds: &[Vec<u32>],
    tagged: &dyn Fn(u32) -> bool,
    s: u32,
) -> Option<Put> {
    let next = &nfa.next[s as usize];
    if next.len() < 2 {
        return None;
    }
    let mut put = Put {
        tests: Vec::new(),
        puts: Vec::new(),
        piece: Vec::new(),
    };
    let mut piece: Vec<Option<u32>> = Vec::new();
    for &t in next {
        let Leaf::Move(r) = nfa.leaf(t) else {
            return None;
        };
        let Shape::Filter(set) = shape(&relations[*r]) else {
            return None;
        };
        let [u] = nfa.next[t as usize][..] else {
            return None;
        };
        let Leaf::Off(p, _) = *nfa.leaf(u) else {
            return None;
        };
        let only = |x: u32, from: u32| preds[x as usize] == [from];
        if !only(t, s) || !only(u, t) || nfa.finals[t as usize] || tagged(t) || tagged(u) {
            return None;
        }
        if let Some(&first) = put.puts.first() {
            let same = |a: u32, b: u32| {
                nfa.next[a as usize] == nfa.next[b as usize]
                    && nfa.finals[a as usize] == nfa.finals[b as usize]
            };
            if !same(first, u) {
                return None;
            }
        }
        piece.resize(set.len(), None);
        for (v, &inside) in set.iter().enumerate() {
            if inside && piece[v].replace(p).is_some() {
                return None;
            }
        }
        put.tests.push(t);
        put.puts.push(u);
    }
    put.piece = piece.into_iter().collect::<Option<Vec<u32>>>()?;
    Some(put)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// State 0 → filters 1, 2 → puts 3, 4 → 5 (the draughts' shape).
    fn nfa(second: Vec<bool>) -> (Nfa, Vec<Relation>) {
        let id = |set: &[bool]| -> Relation {
            set.iter()
                .enumerate()
                .map(|(v, &b)| if b { vec![v as u32] } else { vec![] })
                .collect()
        };
        let rels = vec![id(&[true, false, false]), id(&second)];
        let nfa = Nfa {
            leaves: vec![
                Leaf::Move(0),
                Leaf::Move(1),
                Leaf::Off(0, 0),
                Leaf::Off(1, 0),
                Leaf::Off(2, 0),
            ],
            next: vec![vec![1, 2], vec![3], vec![4], vec![5], vec![5], vec![]],
            finals: vec![false, false, false, false, false, true],
        };
        (nfa, rels)
    }

    fn preds(nfa: &Nfa) -> Vec<Vec<u32>> {
        let mut p = vec![Vec::new(); nfa.states()];
        for (s, next) in nfa.next.iter().enumerate() {
            for &t in next {
                p[t as usize].push(s as u32);
            }
        }
        p
    }

    #[test]
    fn complementary_filters_put_by_vertex() {
        let (n, rels) = nfa(vec![false, true, true]);
        let got = put_at(&n, &rels, &preds(&n), &|_| false, 0);
        let want = Put {
            tests: vec![1, 2],
            puts: vec![3, 4],
            piece: vec![0, 1, 1],
        };
        assert_eq!(got, Some(want));
    }

    #[test]
    fn no_put_where_a_vertex_has_no_filter_or_two() {
        let (n, rels) = nfa(vec![false, true, false]);
        assert_eq!(put_at(&n, &rels, &preds(&n), &|_| false, 0), None);
        let (n, rels) = nfa(vec![true, true, true]);
        assert_eq!(put_at(&n, &rels, &preds(&n), &|_| false, 0), None);
    }

    #[test]
    fn no_put_where_tagged_or_continuing_differently() {
        let (n, rels) = nfa(vec![false, true, true]);
        assert_eq!(put_at(&n, &rels, &preds(&n), &|t| t == 4, 0), None);
        let (mut n, rels) = nfa(vec![false, true, true]);
        n.next[4] = vec![];
        n.finals[4] = true;
        assert_eq!(put_at(&n, &rels, &preds(&n), &|_| false, 0), None);
    }
}
