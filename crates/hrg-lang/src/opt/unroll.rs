//! Any-assignments unrolled inside checks, and assignments no check reads
//! removed.
//!
//! **Unrolling.** An edge `u → v: x = T(*)` at an editable node
//! ([`Facts::editable`]) becomes one edge `x = t` per symbol `t` of `T` (in
//! `T`'s order), each to a copy of what follows `v` specialised to the
//! values known there: known variables are read as their symbols, lookups
//! of constant maps by known keys are done, comparisons of two known symbols
//! become skips or go, and an assignment of a known symbol to a trackable
//! variable makes it known too. A copy of node `n` under knowledge `env`
//! has the edges of `n`, each specialised under `env`, to the copies of
//! their targets under `env` after the edge; where nothing is known any
//! more, or at the check's target, or at a node named by a pragma, the edge
//! goes to the original node. Every walk through a copy has, in every
//! variable, the value the original walk would have there (the assignment
//! `x = t` stays), so a walk of the copy passes the same labels as the
//! original one: the same states, only other nodes. The reference's visited
//! set merges walks by node, so it could merge fewer of them, which matters
//! only when merged walks differ in `player`, `goals` or `visible`: never
//! at an editable node.
//!
//! **Dead assignments.** At an editable node with check target `b`, an
//! assignment `x = e` or `x = T(*)` whose variable no walk from its end
//! reads before `b` or a new assignment of all of `x` (nested checks
//! included) becomes a skip: the check's walks then reach the same nodes in
//! states that differ only in `x`, which nothing reads again.

use std::collections::HashMap;

use rg_lang::ast::{Expr, Label, Name};

use super::graph::{Edge, Facts, Graph};
use super::names::{replaced, Env, Names, BUILTIN_VARIABLES};

/// At most this many edges added by one unrolled assignment.
pub(super) const UNROLL_EDGES: usize = 256;

/// At most this many node visits in one liveness search (more: live).
const LIVE_WORK: usize = 100_000;

/// Unrolls the any-assignments it may (see the module notes) while the
/// copies fit in `budget` edges; whether anything changed. Only where it
/// pays: some copied label reads the value, and the assignment will be dead
/// (no nested check in the copies reads the variable, and where a copy
/// leads back to the original automaton nothing reads it).
pub(super) fn unroll(g: &mut Graph, names: &Names, facts: &Facts, budget: &mut usize) -> bool {
    let nodes = g.names.len();
    let mut changed = false;
    for u in 0..nodes {
        let Some(target) = facts.editable(u) else {
            continue;
        };
        let mut i = 0;
        while i < g.out[u].len() {
            let e = g.out[u][i].clone();
            let symbols = match &e.label {
                Label::AssignAny {
                    target: Expr::Ref(x),
                    ty,
                } if names.trackable(&x.text).is_some() => names
                    .symbols(ty)
                    .filter(|s| s.iter().all(|s| names.is_symbol(s)))
                    .map(|s| (x.clone(), s)),
                _ => None,
            };
            let Some((x, symbols)) = symbols else {
                i += 1;
                continue;
            };
            let limit = UNROLL_EDGES.min(*budget);
            let mut copier = Copier::new(g, facts, names, target, limit, &x.text);
            let mut heads = Vec::with_capacity(symbols.len());
            for s in &symbols {
                let env: Env = [(x.text.clone(), s.clone())].into_iter().collect();
                heads.push(copier.copy(e.to, env));
            }
            match copier.finish() {
                Some(added) => {
                    *budget -= added;
                    let edges: Vec<Edge> = symbols
                        .iter()
                        .zip(heads)
                        .map(|(s, to)| Edge {
                            to: to.expect("finished copies have heads"),
                            label: Label::Assign {
                                target: Expr::Ref(x.clone()),
                                value: Expr::Ref(Name::at(s.clone(), x.span())),
                            },
                            loc: e.loc,
                        })
                        .collect();
                    let n = edges.len();
                    g.out[u].splice(i..=i, edges);
                    i += n;
                    changed = true;
                }
                None => i += 1,
            }
        }
    }
    changed
}

/// Copies of nodes under known values, made in `g` and undone unless
/// [`Copier::finish`] accepts them.
struct Copier<'a, 'g, 'n> {
    g: &'g mut Graph,
    facts: &'a Facts,
    names: &'a Names<'n>,
    target: usize,
    limit: usize,
    /// Nodes before the first copy.
    before: usize,
    made: HashMap<(usize, Env), usize>,
    added: usize,
    /// The variable unrolled.
    var: &'a str,
    /// Some label read a known value.
    used: bool,
    failed: bool,
}

impl<'a, 'g, 'n> Copier<'a, 'g, 'n> {
    fn new(
        g: &'g mut Graph,
        facts: &'a Facts,
        names: &'a Names<'n>,
        target: usize,
        limit: usize,
        var: &'a str,
    ) -> Self {
        let before = g.names.len();
        Copier {
            g,
            facts,
            names,
            target,
            limit,
            before,
            made: HashMap::new(),
            added: 0,
            var,
            used: false,
            failed: false,
        }
    }

    /// The node standing for `n` under `env` (a copy, made with everything
    /// it leads to, or `n` itself); `None` once over the limit.
    fn copy(&mut self, n: usize, env: Env) -> Option<usize> {
        let first = self.node(n, env)?;
        let head = first.0;
        let mut todo = Vec::new();
        if first.0 != first.1 {
            todo.push(first);
        }
        while let Some((copy, orig, env)) = todo.pop() {
            let mut edges = Vec::with_capacity(self.g.out[orig].len());
            for e in self.g.out[orig].clone() {
                let label = self.names.specialise(&e.label, &env);
                self.used |= label.as_ref() != Some(&e.label);
                let Some(label) = label else { continue };
                let after = self.names.transfer(&env, &e.label);
                let var_known = after.contains_key(self.var);
                if env.contains_key(self.var) && self.nested_read(&label) {
                    self.failed = true;
                    return None;
                }
                let to = match self.node(e.to, after)? {
                    (c, o, env) if c != o => {
                        todo.push((c, o, env));
                        c
                    }
                    (c, ..) => {
                        // Back in the original automaton: the assignment
                        // must be dead there, or it stays (no gain).
                        if var_known
                            && c != self.target
                            && c < self.before
                            && live(self.g, self.names, self.facts, c, self.target, self.var)
                        {
                            self.failed = true;
                            return None;
                        }
                        c
                    }
                };
                edges.push(Edge {
                    to,
                    label,
                    loc: e.loc,
                });
            }
            self.added += edges.len();
            if self.added > self.limit {
                self.failed = true;
                return None;
            }
            self.g.out[copy] = edges;
        }
        Some(head)
    }

    /// Whether `label` is a check whose search reads the unrolled variable.
    fn nested_read(&self, label: &Label) -> bool {
        let id = self.names.id(self.var);
        self.g.check(label).is_some_and(|c| {
            self.facts
                .check_reads
                .get(&c)
                .is_none_or(|r| id.is_none_or(|i| r.contains(i)))
        })
    }

    /// (node for `n` under `env`, `n`, `env`): a new copy (to be filled)
    /// or a known one (same node twice means nothing to fill).
    fn node(&mut self, n: usize, env: Env) -> Option<(usize, usize, Env)> {
        if self.failed {
            return None;
        }
        if env.is_empty() || n == self.target || self.facts.pragma.get(n).copied().unwrap_or(true) {
            return Some((n, n, env));
        }
        if let Some(&c) = self.made.get(&(n, env.clone())) {
            return Some((c, c, env));
        }
        let c = self.g.copy_of(n);
        self.made.insert((n, env.clone()), c);
        Some((c, n, env))
    }

    /// The edges added, when the copies fit and read some known value;
    /// otherwise the copies are removed.
    fn finish(self) -> Option<usize> {
        if !self.failed && self.used {
            Some(self.added)
        } else {
            self.g.truncate(self.before);
            None
        }
    }
}

/// Replaces dead assignments at editable nodes by skips; whether any.
pub(super) fn dead(g: &mut Graph, names: &Names, facts: &Facts) -> bool {
    let mut changed = false;
    for u in 0..g.names.len() {
        let Some(target) = facts.editable(u) else {
            continue;
        };
        for i in 0..g.out[u].len() {
            let e = &g.out[u][i];
            let Some(x) = replaced(&e.label) else {
                continue;
            };
            if !names.is_variable(x)
                || BUILTIN_VARIABLES.contains(&x)
                || names.pragma_vars.contains(x)
                || live(g, names, facts, e.to, target, x)
            {
                continue;
            }
            g.out[u][i].label = Label::Skip;
            changed = true;
        }
    }
    changed
}

/// Moves an assignment `u → v: x = e` at an editable node into the edges
/// of `v` when only it enters `v` (a removable node) and `x` is dead after
/// each edge of `v`: those edges read `e` in place of `x` and the
/// assignment becomes a skip. At `v` the state is then the one at `u`
/// (only `x` differs, and `e` does not depend on it there: it is evaluated
/// on the state it was evaluated on before), so each edge of `v` passes or
/// fails as before, and `x` is read again by no walk. Whether any moved.
pub(super) fn inline(g: &mut Graph, names: &Names, facts: &Facts) -> bool {
    let n = g.names.len();
    let mut indegree = vec![0usize; n];
    for e in g.out.iter().flatten() {
        indegree[e.to] += 1;
    }
    let mut changed = false;
    for u in 0..n {
        let Some(target) = facts.editable(u) else {
            continue;
        };
        for i in 0..g.out[u].len() {
            let e = &g.out[u][i];
            let (
                v,
                Label::Assign {
                    target: Expr::Ref(x),
                    value,
                },
            ) = (e.to, &e.label)
            else {
                continue;
            };
            if v == u
                || indegree[v] != 1
                || facts.removable(v).is_none()
                || !names.is_variable(&x.text)
                || BUILTIN_VARIABLES.contains(&x.text.as_str())
                || names.pragma_vars.contains(&x.text)
                || g.out[v].iter().any(|f| {
                    f.to == v
                        || matches!(&f.label, Label::TagVariable(t) if t.text == x.text)
                        || g.check(&f.label).is_some_and(|c| {
                            let id = names.id(&x.text);
                            facts
                                .check_reads
                                .get(&c)
                                .is_some_and(|r| id.is_some_and(|i| r.contains(i)))
                        })
                        || live(g, names, facts, f.to, target, &x.text)
                })
            {
                continue;
            }
            let (x, value) = (x.text.clone(), value.clone());
            let moved: Vec<Label> = g.out[v]
                .iter()
                .map(|f| names.replace(&f.label, &x, &value))
                .collect();
            for (f, label) in g.out[v].iter_mut().zip(moved) {
                f.label = label;
            }
            g.out[u][i].label = Label::Skip;
            changed = true;
        }
    }
    changed
}

/// Whether some walk from `from` reads `x` before `target` or a new
/// assignment of all of `x` (conservative: true when the search is large).
fn live(g: &Graph, names: &Names, facts: &Facts, from: usize, target: usize, x: &str) -> bool {
    let mut seen = std::collections::HashSet::from([from]);
    let mut todo = vec![from];
    while let Some(n) = todo.pop() {
        if n == target {
            continue;
        }
        if seen.len() > LIVE_WORK {
            return true;
        }
        for e in &g.out[n] {
            let mut read = false;
            names.reads(&e.label, &mut |v| read |= v == x);
            if let Some(c) = g.check(&e.label) {
                let id = names.id(x);
                read |= facts
                    .check_reads
                    .get(&c)
                    .is_some_and(|r| id.is_some_and(|i| r.contains(i)));
            }
            if read {
                return true;
            }
            if replaced(&e.label) != Some(x) && seen.insert(e.to) {
                todo.push(e.to);
            }
        }
    }
    false
}
