//! Position (Glushkov) automata of the rules and of every pattern body:
//! one state per action, no epsilon transitions (see the parent module).

use std::collections::{BTreeSet, HashMap};

use rbg_lang::ast::{self, Action, Rule};

use super::{expr, Act, MAX_TABLES_WORK, MAX_TRANSITIONS};

/// First and last positions of a finished automaton.
pub(super) struct AutInfo {
    pub(super) nullable: bool,
    pub(super) first: Vec<u32>,
    pub(super) last: Vec<u32>,
}

/// The automata and tables under construction.
pub(super) struct Builder {
    pub(super) neighbors: Vec<u32>,
    pub(super) num_vertices: u32,
    pub(super) num_dirs: u32,
    pub(super) multi_off: Vec<u32>,
    pub(super) multi_targets: Vec<u32>,
    /// Shift table of each vertex-only expression (by its text); `None`
    /// when it would cost too much (see [`super::MAX_TABLE_WORK`]).
    pub(super) multi_ids: HashMap<String, Option<u32>>,
    /// Work left for building tables (see [`MAX_TABLES_WORK`]).
    pub(super) table_work: u64,
    /// Vertex-only expressions left to the walk because their table would
    /// cost too much.
    pub(super) untabulated: u32,
    /// Filter rows (`num_vertices` cells each), see `Compiled::filter_ok`.
    pub(super) filter_ok: Vec<bool>,
    /// Pattern automaton of each pattern body (by its text).
    pub(super) pattern_ids: HashMap<String, u32>,
    /// Pattern automata used by more than one pattern action.
    pub(super) shared_patterns: BTreeSet<u32>,
    pub(super) num_pieces: u32,
    pub(super) num_players: u32,
    pub(super) acts: Vec<Act>,
    pub(super) on_sets: Vec<bool>,
    pub(super) follow: Follow,
    /// Where the automata first went past [`MAX_TRANSITIONS`] (see
    /// [`super::TooLarge`]).
    pub(super) too_large_at: Option<u32>,
    pub(super) in_pattern: Vec<bool>,
    /// Automaton of every action (a pattern's actions belong to the
    /// pattern's automaton, not to the enclosing one).
    pub(super) owner: Vec<u32>,
    /// Automaton being built.
    pub(super) building: u32,
    pub(super) automata: Vec<AutInfo>,
    /// See `Compiled::source`.
    pub(super) source: Vec<u32>,
    /// Index of the next description action to be lowered.
    pub(super) next_source: u32,
}

/// The follow sets of a position automaton being built, with a bound on
/// their total size (see [`MAX_TRANSITIONS`]).
pub(super) struct Follow {
    /// `lists[i]`: the positions that can follow position `i`.
    pub(super) lists: Vec<Vec<u32>>,
    pub(super) edges: u64,
    pub(super) limit: u64,
    /// Set once an addition went past the limit: the automaton is
    /// incomplete and must not be used.
    pub(super) full: bool,
}

impl Follow {
    pub(super) fn new(limit: u64) -> Follow {
        Follow {
            lists: Vec::new(),
            edges: 0,
            limit,
            full: false,
        }
    }

    /// A new position with no successors yet.
    pub(super) fn push(&mut self) {
        self.lists.push(Vec::new());
    }

    /// `to` may follow position `from`.
    pub(super) fn add(&mut self, from: u32, to: &[u32]) {
        self.edges += to.len() as u64;
        if self.edges > self.limit {
            self.full = true;
        } else {
            self.lists[from as usize].extend_from_slice(to);
        }
    }
}

/// Glushkov data of a subexpression.
pub(super) struct Pos {
    pub(super) nullable: bool,
    pub(super) first: Vec<u32>,
    pub(super) last: Vec<u32>,
}

impl Pos {
    /// A single position `i`.
    pub(super) fn leaf(i: u32) -> Pos {
        Pos {
            nullable: false,
            first: vec![i],
            last: vec![i],
        }
    }

    /// The empty concatenation (start of a fold with [`Pos::then`]).
    pub(super) fn epsilon() -> Pos {
        Pos {
            nullable: true,
            first: vec![],
            last: vec![],
        }
    }

    /// The empty sum (start of a fold with [`Pos::or`]).
    pub(super) fn nothing() -> Pos {
        Pos {
            nullable: false,
            first: vec![],
            last: vec![],
        }
    }

    /// Concatenates `p` after `self`, adding the follow edges between them.
    pub(super) fn then(&mut self, p: Pos, follow: &mut Follow) {
        for &l in &self.last {
            follow.add(l, &p.first);
        }
        if self.nullable {
            self.first.extend_from_slice(&p.first);
        }
        if p.nullable {
            self.last.extend_from_slice(&p.last);
        } else {
            self.last = p.last;
        }
        self.nullable &= p.nullable;
    }

    /// Adds `p` as an alternative.
    pub(super) fn or(&mut self, p: Pos) {
        self.nullable |= p.nullable;
        self.first.extend(p.first);
        self.last.extend(p.last);
    }

    /// The Kleene star of `self`, adding the loop edges.
    pub(super) fn star(self, follow: &mut Follow) -> Pos {
        for &l in &self.last {
            follow.add(l, &self.first);
        }
        Pos {
            nullable: true,
            ..self
        }
    }
}

impl Builder {
    /// A builder for `game`'s automata on a board with the given
    /// neighbour table (`neighbors[v * dirs + d]`).
    pub(super) fn new(game: &ast::Game, neighbors: Vec<u32>) -> Builder {
        Builder {
            neighbors,
            num_vertices: game.board.vertices.len() as u32,
            num_dirs: game.board.dirs.len() as u32,
            multi_off: Vec::new(),
            multi_targets: Vec::new(),
            multi_ids: HashMap::new(),
            table_work: MAX_TABLES_WORK,
            untabulated: 0,
            filter_ok: Vec::new(),
            pattern_ids: HashMap::new(),
            shared_patterns: BTreeSet::new(),
            num_pieces: game.pieces.len() as u32,
            num_players: game.players.len() as u32,
            acts: Vec::new(),
            on_sets: Vec::new(),
            follow: Follow::new(MAX_TRANSITIONS),
            too_large_at: None,
            in_pattern: Vec::new(),
            owner: Vec::new(),
            building: 0,
            automata: Vec::new(),
            source: Vec::new(),
            next_source: 0,
        }
    }

    /// Builds the automaton of `rule`, returning its index.
    pub(super) fn automaton(&mut self, rule: &Rule, in_pattern: bool) -> u32 {
        let k = self.automata.len();
        self.automata.push(AutInfo {
            nullable: false,
            first: vec![],
            last: vec![],
        });
        let outer = std::mem::replace(&mut self.building, k as u32);
        let p = self.build(rule, in_pattern);
        self.building = outer;
        self.automata[k] = AutInfo {
            nullable: p.nullable,
            first: p.first,
            last: p.last,
        };
        k as u32
    }

    /// Adds a new action, made from the next `described` actions of the
    /// description, and returns its Glushkov data.
    fn leaf(&mut self, act: Act, in_pattern: bool, described: u32) -> Pos {
        let i = self.acts.len() as u32;
        self.acts.push(act);
        self.follow.push();
        self.in_pattern.push(in_pattern);
        self.owner.push(self.building);
        self.source.push(self.next_source);
        self.next_source += described;
        Pos::leaf(i)
    }

    fn build(&mut self, rule: &Rule, in_pattern: bool) -> Pos {
        if self.follow.full {
            // The rules are too large: the automaton will not be used.
            return Pos::nothing();
        }
        if !matches!(rule, Rule::Action(Action::Shift(_) | Action::Noop)) && rule.vertex_only() {
            if let Some(act) = self.vertex_only_act(rule) {
                return self.leaf(act, in_pattern, count_actions(rule));
            }
            // Too big to tabulate: the walk follows it step by step.
            self.untabulated += 1;
        }
        match rule {
            Rule::Action(a) => {
                let i = self.acts.len();
                let p = self.leaf(Act::Noop, in_pattern, 1);
                let act = self.action(a);
                self.acts[i] = act;
                p
            }
            Rule::Concat(parts) => {
                let first = self.next_source;
                let mut acc = Pos::epsilon();
                let mut k = 0;
                while k < parts.len() {
                    // Fuse a run of vertex-only parts into one shift table.
                    let run = parts[k..].iter().take_while(|r| r.vertex_only()).count();
                    let fused = match run >= 2 {
                        true => {
                            let group = Rule::Concat(parts[k..k + run].to_vec());
                            self.vertex_only_act(&group).map(|act| (act, group))
                        }
                        false => None,
                    };
                    let p = match fused {
                        Some((act, group)) => {
                            k += run;
                            self.leaf(act, in_pattern, count_actions(&group))
                        }
                        // A single part, or a run too big to tabulate: its
                        // parts one by one.
                        None => {
                            k += 1;
                            self.build(&parts[k - 1], in_pattern)
                        }
                    };
                    acc.then(p, &mut self.follow);
                    self.note_too_large(first);
                }
                acc
            }
            Rule::Alt(parts) => {
                let mut acc = Pos::nothing();
                for part in parts {
                    let p = self.build(part, in_pattern);
                    acc.or(p);
                }
                acc
            }
            Rule::Star(inner) => {
                let first = self.next_source;
                let p = self.build(inner, in_pattern).star(&mut self.follow);
                self.note_too_large(first);
                p
            }
        }
    }

    /// Remembers the description action `first` (starting a `*` or a
    /// concatenation) if its transitions made the automata too large.
    fn note_too_large(&mut self, first: u32) {
        if self.follow.full && self.too_large_at.is_none() {
            self.too_large_at = Some(first);
        }
    }

    fn action(&mut self, a: &Action) -> Act {
        match a {
            Action::Shift(d) => Act::Shift(*d),
            Action::On(set) => {
                let id = (self.on_sets.len() / self.num_pieces.max(1) as usize) as u32;
                let base = self.on_sets.len();
                self.on_sets.resize(base + self.num_pieces as usize, false);
                for &p in set {
                    self.on_sets[base + p as usize] = true;
                }
                Act::On(id)
            }
            Action::Off(p) => Act::Off(*p),
            Action::Assign(v, e) => Act::Assign(*v, expr(e)),
            Action::Compare(l, op, r) => Act::Compare(expr(l), *op, expr(r)),
            Action::Switch(p) => Act::Switch(p.unwrap_or(self.num_players)),
            Action::Pattern { negated, rule } => {
                // Equal bodies share one automaton (and so one memo entry,
                // see `Compiled::memo_index`), as in `{! p} x + {? p} y`.
                let key = format!("{rule:?}");
                let k = match self.pattern_ids.get(&key) {
                    Some(&k) => {
                        self.shared_patterns.insert(k);
                        self.next_source += count_actions(rule);
                        k
                    }
                    None => {
                        let k = self.automaton(rule, true);
                        self.pattern_ids.insert(key, k);
                        k
                    }
                };
                Act::Pattern(k, *negated)
            }
            Action::Noop => Act::Noop,
        }
    }
}

/// Number of actions in an expression, those inside patterns included.
pub(super) fn count_actions(r: &Rule) -> u32 {
    let mut n = 0;
    r.for_each_action(&mut |_, _| n += 1);
    n
}
