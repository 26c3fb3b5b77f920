//! Pieces that at most one vertex holds at any time (chess's kings), with
//! their vertex kept in a variable, so that a search for the piece
//! (`anySquare {whiteKing}`: `coord = Coord(*)`, `board[coord] ==
//! whiteKing`) jumps there (`coord = whiteKingAt`) instead of trying every
//! vertex.
//!
//! The invariant of a tracked piece `P` and its variable `PAt`: every
//! vertex holding `P` is `PAt` (so at most one does; `PAt` may be stale
//! where none does, and is `null` when no vertex holds `P` at the start).
//! Every `[P]` is followed by `PAt = coord`, which keeps the invariant
//! wherever no other vertex can hold `P` there: the rules' automaton (and
//! every pattern's, from any state where the invariant holds) is walked
//! with two facts per state, "no vertex holds `P`" (`none`) and "`coord`
//! holds `P`" (`at`: so `coord` is `PAt`). `{P}` sets `at`; a shift, or a
//! test no `P` passes, clears it; `[Q]` (`Q != P`) where `at` holds takes
//! `P` off the board (`none`); `[P]` keeps the invariant only where
//! `none` or `at` holds, else `P` is not tracked. Other `[Q]` only take
//! pieces off (a captured `P` leaves `PAt` stale: the test `board[coord]
//! == P` after the jump fails there, as every vertex's would).
//!
//! A search jumps where an any-vertex move (from every vertex) is followed
//! only by tests `{P}` (and does not end the pattern): only `PAt` can pass
//! them. Callgrind instructions per playout (`rbg bench --seed 1`,
//! counted in `play_random`) on the suite's chess: see `lib.rs`.

use crate::board::{shape, Relation, Shape};
use crate::regex::{Leaf, Lowered, Nfa};

/// What holds at a state of every walk reaching it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Fact {
    /// No vertex holds the piece.
    none: bool,
    /// `coord` holds the piece.
    at: bool,
}

impl Fact {
    fn join(self, o: Fact) -> Fact {
        Fact {
            none: self.none && o.none,
            at: self.at && o.at,
        }
    }
}

/// The fact past leaf `l` for piece `p`; `None` when `[p]` may put a
/// second `p` on the board.
fn step(l: &Leaf, p: u32, f: Fact) -> Option<Fact> {
    Some(match l {
        Leaf::Move(_) => Fact { at: false, ..f },
        Leaf::On(set) if set[..] == [p] => Fact {
            none: false,
            at: true,
        },
        Leaf::On(set) if !set.contains(&p) => Fact { at: false, ..f },
        Leaf::Off(q, _) if *q == p => match f.none || f.at {
            true => Fact {
                none: false,
                at: true,
            },
            false => return None,
        },
        Leaf::Off(..) => Fact {
            none: f.none || f.at,
            at: false,
        },
        _ => f,
    })
}

/// Whether every `[p]` of `nfa`, walked from `start`, keeps the invariant.
fn keeps(nfa: &Nfa, p: u32, start: Fact) -> bool {
    let mut fact: Vec<Option<Fact>> = vec![None; nfa.states()];
    fact[0] = Some(start);
    let mut work = vec![0u32];
    while let Some(s) = work.pop() {
        let f = fact[s as usize].expect("a reached state");
        for &t in &nfa.next[s as usize] {
            let Some(g) = step(nfa.leaf(t), p, f) else {
                return false;
            };
            let new = fact[t as usize].map_or(g, |old| old.join(g));
            if fact[t as usize] != Some(new) {
                fact[t as usize] = Some(new);
                work.push(t);
            }
        }
    }
    true
}

/// The piece that state `t`'s search would jump to were it tracked: its
/// leaf is a move to every vertex from every vertex, followed only by
/// tests of that one piece, and the automaton does not accept there.
fn jump(nfa: &Nfa, relations: &[Relation], t: u32) -> Option<u32> {
    let next = &nfa.next[t as usize];
    if t == 0 || nfa.finals[t as usize] || next.is_empty() {
        return None;
    }
    let Leaf::Move(r) = nfa.leaf(t) else {
        return None;
    };
    let every = Shape::Uniform {
        starts: None,
        targets: None,
    };
    if shape(&relations[*r]) != every {
        return None;
    }
    let piece = |u: &u32| match nfa.leaf(*u) {
        Leaf::On(set) if set.len() == 1 => Some(set[0]),
        _ => None,
    };
    let p = piece(&next[0])?;
    next.iter().all(|u| piece(u) == Some(p)).then_some(p)
}

/// The lowered rules' automata: the rules, then every pattern.
fn automata(low: &Lowered) -> impl Iterator<Item = &Nfa> {
    std::iter::once(&low.rules).chain(&low.patterns)
}

/// Per automaton of the lowered rules (see `automata`), per state: the
/// piece its search jumps to, each computed once.
pub struct Jumps(Vec<Vec<Option<u32>>>);

impl Jumps {
    /// Every state's jump (`jump`), every piece taken as tracked.
    pub fn new(low: &Lowered) -> Jumps {
        let of = |nfa: &Nfa| -> Vec<Option<u32>> {
            (0..nfa.states() as u32)
                .map(|t| jump(nfa, &low.relations, t))
                .collect()
        };
        Jumps(automata(low).map(of).collect())
    }

    /// Keeps only the jumps to `tracked` pieces.
    pub fn keep(&mut self, tracked: &[bool]) {
        for p in self.0.iter_mut().flatten() {
            if p.is_some_and(|p| tracked.get(p as usize) != Some(&true)) {
                *p = None;
            }
        }
    }

    /// The piece that state `t` of `nfa` (one of `low`'s automata) jumps
    /// to.
    pub fn at(&self, low: &Lowered, nfa: &Nfa, t: u32) -> Option<u32> {
        let k = automata(low).position(|n| std::ptr::eq(n, nfa))?;
        *self.0.get(k)?.get(t as usize)?
    }
}

/// Per piece: whether it is tracked (some search jumps to it, at most one
/// vertex holds it at the start, and every `[p]` keeps the invariant).
pub fn tracked(low: &Lowered, jumps: &Jumps, initial: &[u32], pieces: usize) -> Vec<bool> {
    let mut out = vec![false; pieces];
    for &p in jumps.0.iter().flatten().flatten() {
        if let Some(o) = out.get_mut(p as usize) {
            *o = true;
        }
    }
    for (p, o) in (0..).zip(out.iter_mut()) {
        if !*o {
            continue;
        }
        let count = initial.iter().filter(|&&q| q == p).count();
        let start = Fact {
            none: count == 0,
            at: false,
        };
        let anywhere = Fact {
            none: false,
            at: false,
        };
        *o = count <= 1
            && keeps(&low.rules, p, start)
            && low.patterns.iter().all(|n| keeps(n, p, anywhere));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pieces `tracked` finds in a game on a row of three vertices
    /// (`board`) with pieces `e`, `k`, `x`.
    fn found(board: &str, rules: &str) -> Vec<bool> {
        let text = format!(
            "#players = a(1), b(1)
#pieces = e, k, x
#variables =
#board = rectangle(up, down, left, right, [{board}])
#anySquare = ((up* + down*)(left* + right*))
#rules = {rules}"
        );
        let game = rbg_lang::parse_str(&text).unwrap();
        let low = crate::regex::lower(&game);
        let initial: Vec<u32> = game.board.vertices.iter().map(|v| v.piece).collect();
        tracked(&low, &Jumps::new(&low), &initial, 3)
    }

    #[test]
    fn a_piece_moved_by_picking_it_up_is_tracked() {
        let moves =
            "(->a anySquare {k} [e] (left + right) {e} [k] {! anySquare {k} left {x}} ->> {})*";
        assert_eq!(found("e, k, e", moves), [false, true, false]);
        // Two `k` at the start.
        assert_eq!(found("k, k, e", moves), [false; 3]);
    }

    #[test]
    fn a_piece_put_down_without_picking_one_up_is_not_tracked() {
        // `[k]` where no `k` was taken off: a second one.
        let drop = "(->a anySquare {e} [k] {! anySquare {k} left {x}} ->> {})*";
        assert_eq!(found("e, k, e", drop), [false; 3]);
        // Taken off, then put down after a shift and a test that `k`
        // passes too: still at most one.
        let shifted = "(->a anySquare {k} [e] right {e, k} [k] {! anySquare {k} left {x}} ->> {})*";
        assert_eq!(found("e, k, e", shifted), [false, true, false]);
        // Put down again without taking it off.
        let twice = "(->a anySquare {k} [e] right [k] left [k] {! anySquare {k} left {x}} ->> {})*";
        assert_eq!(found("e, k, e", twice), [false; 3]);
    }

    #[test]
    fn captures_keep_the_invariant() {
        // `[x]` over anything, `k` included (`x` is moved as `k` is).
        let capture = "(->a anySquare {x} [e] right [x] {! anySquare {k} left {x}} ->> {})*";
        assert_eq!(found("x, k, e", capture), [false, true, true]);
        // `[x]` without taking one off: `x` is not tracked, `k` still is.
        let drop = "(->a anySquare {x} right [x] {! anySquare {k} left {x}} ->> {})*";
        assert_eq!(found("x, k, e", drop), [false, true, false]);
    }
}
