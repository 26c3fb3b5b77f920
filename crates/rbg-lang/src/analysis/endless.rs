//! Stars that repeat without end once reached: the causes `rbg check` can
//! see of descriptions that are not proper (paper, "Proper RBG Description":
//! the straightness of the application language must be finite).
//!
//! A word is *unstoppable* when, once it can be applied, it can be applied
//! again and again: it consists only of offs, assignments of constants
//! within the variable's bounds, no-ops and switches (no shift and no test
//! that a changed state could make fail). A `*` whose body has an
//! unstoppable word with a modifier repeats forever as soon as the rules
//! reach it: `->a [e]*`, `[$ v = 1]*`, `(->> [e])*`, `(->a)*`. Whether a move
//! ever reaches it depends on the game (`{x} [e]*` is harmless if no `x`
//! is ever on the board), so these are warnings; the engine detects the
//! repetition itself when it happens.

use std::ops::Range;

use crate::ast::{Action, Arith, Game, Rule};

/// What can go on forever once the rules reach a `*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endless {
    /// A move: modifiers repeat without a switch.
    Move,
    /// The keeper's completion: the keeper switches to itself again and again.
    Keeper,
    /// The game: players switch again and again and nothing ends it.
    Play,
}

/// A `*` whose body has an unstoppable word (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndlessStar {
    /// What repeats.
    pub kind: Endless,
    /// The body's actions, as indices in the order of
    /// [`Rule::for_each_action`] (and of [`crate::ActionSpans`]).
    pub actions: Range<usize>,
}

impl EndlessStar {
    /// A one-line explanation, for a warning at the star's first action.
    pub fn message(&self) -> &'static str {
        match self.kind {
            Endless::Move => {
                "a move that reaches this `*` can go on forever: its body can apply \
                 modifiers again and again with no switch and no test to stop it \
                 (the description is not proper unless no move gets here)"
            }
            Endless::Keeper => {
                "the keeper's completion can go on forever once it reaches this `*`: \
                 its body can switch to the keeper again and again with no test to stop it"
            }
            Endless::Play => {
                "a game that reaches this `*` can go on forever: its body can switch \
                 players again and again with no test to end the game"
            }
        }
    }
}

/// Classes of unstoppable words: which kinds of modifiers they contain.
const MODIFIER: u8 = 1;
const KEEPER: u8 = 2;
const PLAYER: u8 = 4;

/// The set of classes (bit `c` for class `c`) of a subexpression's
/// unstoppable words.
type Classes = u8;

/// Classes of the words `uv`, `u` of class in `a` and `v` in `b`.
fn concat(a: Classes, b: Classes) -> Classes {
    let mut out = 0;
    for x in (0..8).filter(|x| a >> x & 1 != 0) {
        for y in (0..8).filter(|y| b >> y & 1 != 0) {
            out |= 1 << (x | y);
        }
    }
    out
}

/// The stars of `game`'s rules that repeat without end once reached, in
/// textual order.
pub fn endless_stars(game: &Game) -> Vec<EndlessStar> {
    let mut out = Vec::new();
    let mut next = 0;
    classes(game, &game.rules, &mut next, &mut out);
    out
}

/// The classes of `r`'s unstoppable words; numbers `r`'s actions from `next`
/// and records its endless stars. Recursion depth: the rules' nesting,
/// bounded by the parser.
fn classes(game: &Game, r: &Rule, next: &mut usize, out: &mut Vec<EndlessStar>) -> Classes {
    match r {
        Rule::Action(a) => {
            *next += 1;
            match a {
                Action::Off(_) => 1 << MODIFIER,
                Action::Assign(v, e) => match constant(e) {
                    Some(c) if c >= 0 && c as u64 <= game.var_bound(*v) => 1 << MODIFIER,
                    _ => 0,
                },
                Action::Noop => 1,
                Action::Switch(None) => 1 << KEEPER,
                Action::Switch(Some(_)) => 1 << PLAYER,
                Action::Pattern { rule, .. } => {
                    classes(game, rule, next, out);
                    0
                }
                Action::Shift(_) | Action::On(_) | Action::Compare(..) => 0,
            }
        }
        Rule::Concat(parts) => parts
            .iter()
            .fold(1, |acc, p| concat(acc, classes(game, p, next, out))),
        Rule::Alt(parts) => parts
            .iter()
            .fold(0, |acc, p| acc | classes(game, p, next, out)),
        Rule::Star(body) => {
            let first = *next;
            let b = classes(game, body, next, out);
            let kind = if b >> MODIFIER & 1 != 0 {
                Some(Endless::Move)
            } else if b & (1 << KEEPER | 1 << (KEEPER | MODIFIER)) != 0 {
                Some(Endless::Keeper)
            } else if (0..8).any(|c| c & PLAYER != 0 && b >> c & 1 != 0) {
                Some(Endless::Play)
            } else {
                None
            };
            if let Some(kind) = kind {
                out.push(EndlessStar {
                    kind,
                    actions: first..*next,
                });
            }
            let mut all = 1;
            loop {
                let more = all | concat(all, b);
                if more == all {
                    break all;
                }
                all = more;
            }
        }
    }
}

/// The value of an expression without variables or piece counts.
fn constant(e: &Arith) -> Option<i64> {
    match e {
        Arith::Num(n) => Some(*n),
        Arith::Var(_) | Arith::PieceCount(_) => None,
        Arith::Bin(l, op, r) => {
            let (l, r) = (constant(l)?, constant(r)?);
            match op {
                crate::ast::ArithOp::Add => l.checked_add(r),
                crate::ast::ArithOp::Sub => l.checked_sub(r),
                crate::ast::ArithOp::Mul => l.checked_mul(r),
                crate::ast::ArithOp::Div => l.checked_div(r),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stars(rules: &str) -> Vec<(Endless, Range<usize>)> {
        let text = format!(
            "#players = a(1), b(1)\n#pieces = e, w\n#variables = v(3)\n\
             #board = rectangle(up, down, left, right, [e, w])\n#rules = {rules}"
        );
        let game = crate::parse_str(&text).expect("valid");
        endless_stars(&game)
            .into_iter()
            .map(|s| (s.kind, s.actions))
            .collect()
    }

    #[test]
    fn modifiers_under_a_star_without_a_test() {
        assert_eq!(stars("->a [e]*"), [(Endless::Move, 1..2)]);
        assert_eq!(stars("[$ v = 1]* ->a"), [(Endless::Move, 0..1)]);
        assert_eq!(stars("[$ v = 1 + 2]* ->a"), [(Endless::Move, 0..1)]);
        assert_eq!(stars("->a {e} ([w] . [e])*"), [(Endless::Move, 2..5)]);
        assert_eq!(stars("->a ({e} + [w])*"), [(Endless::Move, 1..3)]);
        assert_eq!(stars("->a {? [e]*}"), [(Endless::Move, 2..3)]);
    }

    #[test]
    fn switches_under_a_star_without_a_test() {
        assert_eq!(stars("(->> [e])*"), [(Endless::Keeper, 0..2)]);
        assert_eq!(stars("(->a)*"), [(Endless::Play, 0..1)]);
        assert_eq!(stars("(->a [e] ->>)*"), [(Endless::Play, 0..3)]);
    }

    #[test]
    fn stars_that_a_test_or_a_shift_can_stop() {
        assert!(stars("->a ({e} [w])*").is_empty());
        assert!(stars("->a (up [w])*").is_empty());
        assert!(stars("->a [$ v = v + 1]*").is_empty());
        // Out of the bound: the assignment never applies.
        assert!(stars("->a [$ v = 4]*").is_empty());
        assert!(stars("(->a {e} ->b {w})*").is_empty());
        assert!(stars("->a (up + down)* [e]").is_empty());
    }
}
