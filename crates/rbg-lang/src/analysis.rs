//! Analyses of checked games: strong straightness and a size [`Summary`].
//!
//! Strong straightness follows the recursion in the proof of Theorem 4 of
//! *Regular Boardgames* (Kowalski et al.): for every subexpression `E` we
//! compute four values in `N ∪ {⊥, ∞}`:
//!
//! - `MSuff(E)`: most modifiers in a switch-free suffix of a word of `L(E)`;
//! - `MPref(E)`: most modifiers in a switch-free word of `app(L(E))`;
//! - `MFact(E)`: most modifiers in a switch-free factor of `app(L(E))`;
//! - `MWord(E)`: most modifiers in a switch-free word of `L(E)`.
//!
//! The strong straightness of a description is `MFact(Rules)`.

pub mod endless;

use crate::ast::{Action, Game, Rule};
use std::fmt;

/// A value in `N ∪ {⊥, ∞}`, ordered `⊥ < 0 < 1 < … < ∞`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Count {
    /// `⊥`: the set the maximum is taken over is empty.
    Bottom,
    /// A finite maximum.
    Finite(u64),
    /// `∞`: no maximum exists.
    Infinite,
}

impl Count {
    /// The paper's addition: `⊥` absorbs everything, then `∞` absorbs numbers.
    pub fn plus(self, other: Count) -> Count {
        match (self, other) {
            (Count::Bottom, _) | (_, Count::Bottom) => Count::Bottom,
            (Count::Infinite, _) | (_, Count::Infinite) => Count::Infinite,
            (Count::Finite(a), Count::Finite(b)) => Count::Finite(a.saturating_add(b)),
        }
    }

    /// `true` for a finite positive value or `∞`.
    fn positive(self) -> bool {
        self > Count::Finite(0)
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Count::Bottom => f.write_str("bot"),
            Count::Finite(n) => write!(f, "{n}"),
            Count::Infinite => f.write_str("inf"),
        }
    }
}

/// The four values of the Theorem 4 recursion for one expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Straightness {
    /// `MSuff`.
    pub suff: Count,
    /// `MPref`.
    pub pref: Count,
    /// `MFact`.
    pub fact: Count,
    /// `MWord`.
    pub word: Count,
}

impl Straightness {
    fn all(suff: u64, pref: u64, fact: u64, word: Count) -> Straightness {
        Straightness {
            suff: Count::Finite(suff),
            pref: Count::Finite(pref),
            fact: Count::Finite(fact),
            word,
        }
    }

    /// Values for a single action.
    pub fn of_action(a: &Action) -> Straightness {
        match a {
            Action::Switch(_) => Straightness::all(0, 0, 0, Count::Bottom),
            Action::Off(_) | Action::Assign(..) => Straightness::all(1, 1, 1, Count::Finite(1)),
            Action::Pattern { rule, .. } => {
                let inner = Straightness::of_rule(rule).pref;
                Straightness {
                    suff: Count::Finite(0),
                    pref: inner,
                    fact: inner,
                    word: Count::Finite(0),
                }
            }
            Action::Shift(_) | Action::On(_) | Action::Compare(..) | Action::Noop => {
                Straightness::all(0, 0, 0, Count::Finite(0))
            }
        }
    }

    /// Values for `E1 + E2`.
    pub fn alt(self, o: Straightness) -> Straightness {
        Straightness {
            suff: self.suff.max(o.suff),
            pref: self.pref.max(o.pref),
            fact: self.fact.max(o.fact),
            word: self.word.max(o.word),
        }
    }

    /// Values for `E1 E2`.
    pub fn concat(self, o: Straightness) -> Straightness {
        Straightness {
            suff: self.suff.plus(o.word).max(o.suff),
            pref: self.pref.max(self.word.plus(o.pref)),
            fact: self.fact.max(self.suff.plus(o.pref)).max(o.fact),
            word: self.word.plus(o.word),
        }
    }

    /// Values for `E*`.
    pub fn star(self) -> Straightness {
        if self.word.positive() {
            Straightness {
                suff: Count::Infinite,
                pref: Count::Infinite,
                fact: Count::Infinite,
                word: Count::Infinite,
            }
        } else {
            Straightness {
                suff: self.suff,
                pref: self.pref,
                fact: self.suff.plus(self.pref).max(self.fact),
                word: Count::Finite(0),
            }
        }
    }

    /// Values for a whole expression (n-ary sums and concatenations are
    /// folded from the left).
    pub fn of_rule(r: &Rule) -> Straightness {
        match r {
            Rule::Action(a) => Straightness::of_action(a),
            Rule::Concat(v) => fold(v, Straightness::concat),
            Rule::Alt(v) => fold(v, Straightness::alt),
            Rule::Star(c) => Straightness::of_rule(c).star(),
        }
    }
}

fn fold(v: &[Rule], f: fn(Straightness, Straightness) -> Straightness) -> Straightness {
    let mut it = v.iter().map(Straightness::of_rule);
    let first = it
        .next()
        .unwrap_or_else(|| Straightness::all(0, 0, 0, Count::Finite(0)));
    it.fold(first, f)
}

/// Strong straightness of a rule expression (`MFact`); `None` when unbounded.
pub fn strong_straightness_of(r: &Rule) -> Option<u64> {
    match Straightness::of_rule(r).fact {
        Count::Bottom => Some(0),
        Count::Finite(n) => Some(n),
        Count::Infinite => None,
    }
}

/// Strong straightness of a game; `None` when unbounded (`∞`).
pub fn strong_straightness(g: &Game) -> Option<u64> {
    strong_straightness_of(&g.rules)
}

/// Size figures of a game, as printed by `rbg check`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Number of players.
    pub players: usize,
    /// Number of pieces.
    pub pieces: usize,
    /// Number of variables, not counting the players' score variables.
    pub variables: usize,
    /// Number of board vertices.
    pub vertices: usize,
    /// Number of directions (edge labels).
    pub directions: usize,
    /// Number of actions in the rules, counting patterns and what is inside.
    pub actions: usize,
    /// Maximum nesting depth of patterns (0 when there are none).
    pub pattern_depth: usize,
    /// Strong straightness; `None` when unbounded.
    pub straightness: Option<u64>,
}

impl Summary {
    /// Computes the summary of a game.
    pub fn of(g: &Game) -> Summary {
        let mut actions = 0;
        let mut pattern_depth = 0;
        g.rules.for_each_action(&mut |a, depth| {
            actions += 1;
            if let Action::Pattern { .. } = a {
                pattern_depth = pattern_depth.max(depth + 1);
            }
        });
        Summary {
            players: g.players.len(),
            pieces: g.pieces.len(),
            variables: g.variables.len(),
            vertices: g.board.vertices.len(),
            directions: g.board.dirs.len(),
            actions,
            pattern_depth,
            straightness: strong_straightness(g),
        }
    }
}

impl fmt::Display for Summary {
    /// `players=2 pieces=3 ... straightness=3` (`inf` when unbounded).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "players={} pieces={} variables={} vertices={} directions={} actions={} pattern_depth={} straightness=",
            self.players,
            self.pieces,
            self.variables,
            self.vertices,
            self.directions,
            self.actions,
            self.pattern_depth
        )?;
        match self.straightness {
            Some(n) => write!(f, "{n}"),
            None => f.write_str("inf"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::{Arith, CmpOp};

    fn off(p: u32) -> Rule {
        Rule::Action(Action::Off(p))
    }
    fn on(p: u32) -> Rule {
        Rule::Action(Action::On(vec![p]))
    }
    fn sw() -> Rule {
        Rule::Action(Action::Switch(Some(0)))
    }
    fn shift() -> Rule {
        Rule::Action(Action::Shift(0))
    }
    fn pat(r: Rule) -> Rule {
        Rule::Action(Action::Pattern {
            negated: false,
            rule: Box::new(r),
        })
    }
    fn star(r: Rule) -> Rule {
        Rule::Star(Box::new(r))
    }
    fn cat(v: Vec<Rule>) -> Rule {
        Rule::concat(v)
    }
    fn alt(v: Vec<Rule>) -> Rule {
        Rule::alt(v)
    }
    fn f(n: u64) -> Count {
        Count::Finite(n)
    }
    fn vals(r: &Rule) -> (Count, Count, Count, Count) {
        let s = Straightness::of_rule(r);
        (s.suff, s.pref, s.fact, s.word)
    }

    /// `[a]{b}{?[c][d]}[e]->[f]({g}+[h])[i]` from the paper.
    fn paper_example() -> Rule {
        cat(vec![
            off(0),
            on(1),
            pat(cat(vec![off(2), off(3)])),
            off(4),
            sw(),
            off(5),
            alt(vec![on(6), off(7)]),
            off(8),
        ])
    }

    #[test]
    fn paper_main_example() {
        // The paper states MPref = MFact = 4 "because of the prefix
        // [a]{b}[c][d]", but `{b}` is an on (not a modifier): that prefix has
        // three modifiers, and so does every switch-free factor of the
        // application language. The recursion (which the reference follows)
        // gives 3.
        let (suff, pref, fact, word) = vals(&paper_example());
        assert_eq!(suff, f(3));
        assert_eq!(pref, f(3));
        assert_eq!(fact, f(3));
        assert_eq!(word, Count::Bottom);
    }

    #[test]
    fn paper_fact_example() {
        // [a] -> [b][c][d] -> [e][f]
        let r = cat(vec![
            off(0),
            sw(),
            off(1),
            off(2),
            off(3),
            sw(),
            off(4),
            off(5),
        ]);
        assert_eq!(vals(&r).2, f(3));
        assert_eq!(strong_straightness_of(&r), Some(3));
    }

    #[test]
    fn paper_word_example() {
        // [a][b](-> + [c])[d]
        let r = cat(vec![off(0), off(1), alt(vec![sw(), off(2)]), off(3)]);
        assert_eq!(vals(&r).3, f(4));
    }

    #[test]
    fn actions() {
        assert_eq!(vals(&off(0)), (f(1), f(1), f(1), f(1)));
        assert_eq!(vals(&shift()), (f(0), f(0), f(0), f(0)));
        assert_eq!(vals(&sw()), (f(0), f(0), f(0), Count::Bottom));
        let assign = Rule::Action(Action::Assign(0, Arith::Num(1)));
        assert_eq!(vals(&assign), (f(1), f(1), f(1), f(1)));
        let cmp = Rule::Action(Action::Compare(Arith::Num(1), CmpOp::Lt, Arith::Var(0)));
        assert_eq!(vals(&cmp), (f(0), f(0), f(0), f(0)));
        assert_eq!(vals(&Rule::Action(Action::Noop)), (f(0), f(0), f(0), f(0)));
        let p = pat(cat(vec![off(0), shift(), off(1)]));
        assert_eq!(vals(&p), (f(0), f(2), f(2), f(0)));
    }

    #[test]
    fn stars() {
        // ([a] ->)* : MWord([a]->) = ⊥, so bounded.
        let r = star(cat(vec![off(0), sw()]));
        assert_eq!(strong_straightness_of(&r), Some(1));
        // (->x [a] [b] ->y)*  (tic-tac-toe-like): suff 0 + pref 0
        let r = star(cat(vec![sw(), off(0), off(1), sw()]));
        assert_eq!(strong_straightness_of(&r), Some(2));
        // (-> [a] [b])* : suffix [a][b] then prefix of the next round ([a][b] before the switch? no: switch first)
        let r = star(cat(vec![sw(), off(0), off(1)]));
        assert_eq!(strong_straightness_of(&r), Some(2));
        // ([a] -> [b])*: suffix [b] + prefix [a] = 2
        let r = star(cat(vec![off(0), sw(), off(1)]));
        assert_eq!(strong_straightness_of(&r), Some(2));
        // ([a] + ->)* : word [a] is switch-free with a modifier: unbounded.
        let r = star(alt(vec![off(0), sw()]));
        assert_eq!(strong_straightness_of(&r), None);
        // (up {x})*: no modifiers at all.
        let r = star(cat(vec![shift(), on(0)]));
        assert_eq!(strong_straightness_of(&r), Some(0));
        assert_eq!(vals(&r).3, f(0));
    }

    #[test]
    fn bottom_arithmetic() {
        assert_eq!(Count::Bottom.plus(Count::Infinite), Count::Bottom);
        assert_eq!(Count::Infinite.plus(f(2)), Count::Infinite);
        assert_eq!(f(2).plus(f(3)), f(5));
        assert!(Count::Bottom < f(0) && f(100) < Count::Infinite);
    }

    #[test]
    fn summary_counts() {
        use crate::ast::{Board, BoundedName, Vertex};
        let g = Game {
            players: vec![
                BoundedName {
                    name: "a".into(),
                    bound: 1,
                },
                BoundedName {
                    name: "b".into(),
                    bound: 1,
                },
            ],
            pieces: vec!["e".into()],
            variables: vec![],
            board: Board {
                dirs: vec!["r".into()],
                vertices: vec![Vertex {
                    name: "v".into(),
                    piece: 0,
                    edges: vec![(0, 0)],
                }],
            },
            rules: paper_example(),
        };
        let s = Summary::of(&g);
        // 9 actions outside the pattern (alt counts two) + 2 inside
        assert_eq!(s.actions, 11);
        assert_eq!(s.pattern_depth, 1);
        assert_eq!(s.straightness, Some(3));
        assert_eq!(
            s.to_string(),
            "players=2 pieces=1 variables=0 vertices=1 directions=1 actions=11 pattern_depth=1 straightness=3"
        );
    }
}
