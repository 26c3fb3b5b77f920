//! The RBG rules as a regular expression over translation *leaves* (vertex
//! relations, tests, modifiers, patterns), and its Glushkov automaton:
//! state 0 is the start, state `i + 1` is "just after leaf `i`", and the
//! transition into state `j` performs leaf `j - 1`. There are no epsilon
//! moves, so every RG edge of the translation does real work.

use std::collections::HashMap;

use rbg_lang::ast::{Action, Arith, CmpOp, Rule};

use crate::board::{shape, Evaluator, Relation, Shape};

/// One action of the automaton.
#[derive(Clone, Debug, PartialEq)]
pub enum Leaf {
    /// Moves the current vertex by relation `id` (not the identity, not
    /// empty).
    Move(usize),
    /// The current vertex holds one of these pieces (a non-empty set).
    On(Vec<u32>),
    /// Puts a piece on the current vertex; the modifier's number (0 inside
    /// patterns).
    Off(u32, u32),
    /// `[$ var = expr]` and its modifier number.
    Assign(u32, Arith, u32),
    /// `{$ l op r}`.
    Compare(Arith, CmpOp, Arith),
    /// `->player` (`None`: `->>`) and its modifier number.
    Switch(Option<u32>, u32),
    /// `{? p}` (false) or `{! p}` (true) of pattern `id`.
    Pattern(bool, usize),
}

impl Leaf {
    /// Modifiers' numbers (the move tags `index_N`), 0 for other leaves.
    pub fn modifier(&self) -> u32 {
        match self {
            Leaf::Off(_, n) | Leaf::Assign(_, _, n) | Leaf::Switch(_, n) => *n,
            _ => 0,
        }
    }
}

/// A regular expression over leaves (indices into an [`Nfa`]'s [`leaves`](Nfa::leaves)).
#[derive(Clone, Debug)]
enum Re {
    Empty,
    Eps,
    Leaf(usize),
    Cat(Vec<Re>),
    Alt(Vec<Re>),
    Star(Box<Re>),
}

/// A Glushkov automaton.
#[derive(Clone, Debug, Default)]
pub struct Nfa {
    /// The leaf of every position.
    pub leaves: Vec<Leaf>,
    /// Transitions: state → states (state `i + 1` = after leaf `i`).
    pub next: Vec<Vec<u32>>,
    /// Accepting states.
    pub finals: Vec<bool>,
}

impl Nfa {
    /// Number of states.
    pub fn states(&self) -> usize {
        self.next.len()
    }

    /// The leaf performed on entering state `s` (`s > 0`).
    pub fn leaf(&self, s: u32) -> &Leaf {
        &self.leaves[s as usize - 1]
    }

    /// States reachable from the start.
    pub fn reachable(&self) -> Vec<bool> {
        let mut seen = vec![false; self.states()];
        let mut stack = vec![0u32];
        seen[0] = true;
        while let Some(s) = stack.pop() {
            for &t in &self.next[s as usize] {
                if !std::mem::replace(&mut seen[t as usize], true) {
                    stack.push(t);
                }
            }
        }
        seen
    }
}

/// The rules and patterns lowered to automata, with the relations they use.
#[derive(Default)]
pub struct Lowered {
    /// The rules.
    pub rules: Nfa,
    /// Every distinct pattern body (not vertex-only), by id.
    pub patterns: Vec<Nfa>,
    /// Every distinct vertex relation, by id.
    pub relations: Vec<Relation>,
}

struct Lowerer<'a> {
    eval: Evaluator<'a>,
    out: Lowered,
    relation_ids: HashMap<Relation, usize>,
    pattern_rules: Vec<Rule>,
    modifiers: u32,
}

/// Lowers a game's rules.
pub fn lower(game: &rbg_lang::Game) -> Lowered {
    let mut l = Lowerer {
        eval: Evaluator::new(&game.board),
        out: Lowered::default(),
        relation_ids: HashMap::new(),
        pattern_rules: Vec::new(),
        modifiers: 0,
    };
    l.out.rules = l.automaton(&game.rules, 0);
    l.out
}

impl Lowerer<'_> {
    fn automaton(&mut self, rule: &Rule, depth: usize) -> Nfa {
        let mut leaves = Vec::new();
        let re = self.re(rule, depth, &mut leaves);
        glushkov(&re, leaves)
    }

    /// A vertex-only rule as a leaf (or nothing / never); relations with
    /// no compact form are split.
    fn moves(&mut self, rule: &Rule, leaves: &mut Vec<Leaf>) -> Re {
        let rel = self.eval.relation(rule);
        match shape(&rel) {
            Shape::Identity => Re::Eps,
            Shape::Never => Re::Empty,
            Shape::Blocks(parts) => Re::Alt(
                parts
                    .into_iter()
                    .map(|p| self.relation_leaf(p, leaves))
                    .collect(),
            ),
            Shape::Structural => match rule {
                Rule::Concat(parts) => {
                    Re::Cat(parts.iter().map(|p| self.moves(p, leaves)).collect())
                }
                Rule::Alt(parts) => Re::Alt(parts.iter().map(|p| self.moves(p, leaves)).collect()),
                Rule::Star(body) => Re::Star(Box::new(self.moves(body, leaves))),
                Rule::Action(_) => unreachable!("shifts and patterns have compact relations"),
            },
            _ => self.relation_leaf(rel, leaves),
        }
    }

    /// A leaf moving by `rel`.
    fn relation_leaf(&mut self, rel: Relation, leaves: &mut Vec<Leaf>) -> Re {
        let n = self.out.relations.len();
        let id = *self.relation_ids.entry(rel.clone()).or_insert(n);
        if id == n {
            self.out.relations.push(rel);
        }
        leaf(leaves, Leaf::Move(id))
    }

    fn number(&mut self, depth: usize) -> u32 {
        if depth > 0 {
            return 0;
        }
        self.modifiers += 1;
        self.modifiers
    }

    fn re(&mut self, rule: &Rule, depth: usize, leaves: &mut Vec<Leaf>) -> Re {
        if rule.vertex_only() {
            return self.moves(rule, leaves);
        }
        match rule {
            Rule::Action(a) => match a {
                Action::On(set) if set.is_empty() => Re::Empty,
                Action::On(set) => leaf(leaves, Leaf::On(set.clone())),
                Action::Off(p) => {
                    let n = self.number(depth);
                    leaf(leaves, Leaf::Off(*p, n))
                }
                Action::Assign(v, e) => {
                    let n = self.number(depth);
                    leaf(leaves, Leaf::Assign(*v, e.clone(), n))
                }
                Action::Switch(p) => {
                    let n = self.number(depth);
                    leaf(leaves, Leaf::Switch(*p, n))
                }
                Action::Compare(l, op, r) => leaf(leaves, Leaf::Compare(l.clone(), *op, r.clone())),
                Action::Pattern { negated, rule } => {
                    let id = match self.pattern_rules.iter().position(|r| r == &**rule) {
                        Some(id) => id,
                        None => {
                            let nfa = self.automaton(rule, depth + 1);
                            self.pattern_rules.push((**rule).clone());
                            self.out.patterns.push(nfa);
                            self.out.patterns.len() - 1
                        }
                    };
                    leaf(leaves, Leaf::Pattern(*negated, id))
                }
                Action::Shift(_) | Action::Noop => unreachable!("vertex-only"),
            },
            Rule::Concat(parts) => {
                // Consecutive vertex-only parts make one relation.
                let mut out = Vec::new();
                let mut group: Vec<Rule> = Vec::new();
                for p in parts {
                    if p.vertex_only() {
                        group.push(p.clone());
                        continue;
                    }
                    if !group.is_empty() {
                        out.push(self.moves(&Rule::concat(std::mem::take(&mut group)), leaves));
                    }
                    out.push(self.re(p, depth, leaves));
                }
                if !group.is_empty() {
                    out.push(self.moves(&Rule::concat(group), leaves));
                }
                Re::Cat(out)
            }
            Rule::Alt(parts) => Re::Alt(parts.iter().map(|p| self.re(p, depth, leaves)).collect()),
            Rule::Star(body) => Re::Star(Box::new(self.re(body, depth, leaves))),
        }
    }
}

fn leaf(leaves: &mut Vec<Leaf>, l: Leaf) -> Re {
    leaves.push(l);
    Re::Leaf(leaves.len() - 1)
}

/// Glushkov's construction.
fn glushkov(re: &Re, leaves: Vec<Leaf>) -> Nfa {
    let n = leaves.len();
    let mut follow: Vec<Vec<u32>> = vec![Vec::new(); n];
    let (nullable, first, last) = go(re, &mut follow);
    let mut next = Vec::with_capacity(n + 1);
    next.push(first.iter().map(|&p| p + 1).collect::<Vec<_>>());
    for f in follow {
        next.push(f.iter().map(|&p| p + 1).collect());
    }
    for list in &mut next {
        let mut seen = std::collections::HashSet::new();
        list.retain(|s| seen.insert(*s));
    }
    let mut finals = vec![false; n + 1];
    finals[0] = nullable;
    for p in last {
        finals[p as usize + 1] = true;
    }
    Nfa {
        leaves,
        next,
        finals,
    }
}

/// (nullable, first positions, last positions), adding to `follow`.
fn go(re: &Re, follow: &mut [Vec<u32>]) -> (bool, Vec<u32>, Vec<u32>) {
    match re {
        Re::Empty => (false, vec![], vec![]),
        Re::Eps => (true, vec![], vec![]),
        Re::Leaf(i) => (false, vec![*i as u32], vec![*i as u32]),
        Re::Alt(parts) => {
            let (mut n, mut f, mut l) = (false, Vec::new(), Vec::new());
            for p in parts {
                let (pn, pf, pl) = go(p, follow);
                n |= pn;
                f.extend(pf);
                l.extend(pl);
            }
            (n, f, l)
        }
        Re::Cat(parts) => {
            // An empty part stops the concatenation there, but the actions
            // before it stay (`->> {}`: a switch, then no move).
            let (mut n, mut f, mut l) = (true, Vec::new(), Vec::new());
            for p in parts {
                let (pn, pf, pl) = go(p, follow);
                for &x in &l {
                    follow[x as usize].extend(&pf);
                }
                if n {
                    f.extend(&pf);
                }
                if pn {
                    l.extend(pl);
                } else {
                    l = pl;
                }
                n &= pn;
            }
            (n, f, l)
        }
        Re::Star(body) => {
            let (_, f, l) = go(body, follow);
            for &x in &l {
                follow[x as usize].extend(&f);
            }
            (true, f, l)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(r: &str) -> Lowered {
        let text = format!(
            "#players = a(1), b(1)
#pieces = e, x
#variables =
#board = rectangle(up, down, left, right, [e, x, e])
#rules = {r}"
        );
        lower(&rbg_lang::parse_str(&text).unwrap())
    }

    #[test]
    fn glushkov_of_a_small_game() {
        // ->a (right [x] + left right [x]) ->>
        let l = rules("->a (right [x] + left {x} [x]) ->> {}");
        let nfa = &l.rules;
        assert_eq!(
            nfa.leaves,
            vec![
                Leaf::Switch(Some(0), 1),
                Leaf::Move(0),
                Leaf::Off(1, 2),
                Leaf::Move(1),
                Leaf::On(vec![1]),
                Leaf::Off(1, 3),
                Leaf::Switch(None, 4),
            ]
        );
        assert_eq!(nfa.next[0], vec![1]);
        assert_eq!(nfa.next[1], vec![2, 4]);
        assert_eq!(nfa.next[3], vec![7]);
        assert_eq!(nfa.next[6], vec![7]);
        // `{}` is empty: nothing follows the keeper's switch.
        assert!(nfa.next[7].is_empty());
        assert_eq!(l.relations[0], vec![vec![1], vec![2], vec![]]);
    }

    #[test]
    fn stars_patterns_and_noops() {
        let l = rules("->a (right {e})* . {! left {x}} [x] ->> {}");
        let nfa = &l.rules;
        assert_eq!(nfa.leaves.len(), 6);
        // After the switch: the loop, the pattern or nothing.
        assert_eq!(nfa.next[1], vec![2, 4]);
        assert_eq!(nfa.next[3], vec![2, 4]);
        assert_eq!(nfa.leaves[3], Leaf::Pattern(true, 0));
        assert_eq!(l.patterns[0].leaves, vec![Leaf::Move(1), Leaf::On(vec![1])]);
        assert!(l.patterns[0].finals[2]);
    }
}
