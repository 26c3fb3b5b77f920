//! Constant graph arguments: a non-reusable graph called with a constant
//! argument reads that constant, not its argument variable.
//!
//! The argument variable of a non-reusable graph `g` is assigned only where
//! `g` is called. While a copy of `g` runs, no other call of `g` can run
//! unless a reusable graph entered from the copy leads to one (a copy calling
//! itself is rejected), so when no reusable graph leads to `g`, every read of
//! the argument inside the copy sees the value passed at the copy's call: a
//! constant there can be written in place of the variable, edge for edge the
//! same automaton. The assignment stays (the variable is part of the state),
//! except in a `reachable` check, which discards its state: there a copy
//! with only constant arguments starts directly at its body, so a check of a
//! plain path of comparisons stays one (the engine decides those without a
//! walk). For the same reason a comparison of two constants is decided
//! when translated: a skip where it holds, no edge where it does not.

use std::collections::{HashMap, HashSet};

use crate::ast::{BinOp, Expr, Game, Stmt, StmtKind};
use crate::value::Value;

/// The graphs some reusable graph leads to (by calls or `reachable`,
/// directly or through other graphs): their arguments are never replaced.
pub(super) fn shared_reach(game: &Game) -> HashSet<&str> {
    let mut graphs: HashMap<&str, &crate::ast::Graph> = HashMap::new();
    for g in &game.graphs {
        graphs.entry(g.name.text.as_str()).or_insert(g);
    }
    let mut reached: HashSet<&str> = HashSet::new();
    let mut todo: Vec<&str> = Vec::new();
    for g in graphs.values().filter(|g| g.reusable) {
        todo.extend(callees(&g.body));
    }
    while let Some(name) = todo.pop() {
        if let Some(g) = graphs.get(name) {
            if reached.insert(name) {
                todo.extend(callees(&g.body));
            }
        }
    }
    reached
}

/// Every name called in `body` (statements and expressions; a superset of
/// the graphs it calls). Iterative: nesting depth is the input's.
fn callees(body: &[Stmt]) -> Vec<&str> {
    let mut out = Vec::new();
    let mut stmts: Vec<&Stmt> = body.iter().collect();
    let mut exprs: Vec<&Expr> = Vec::new();
    while let Some(s) = stmts.pop() {
        match &s.kind {
            StmtKind::Assign { indices, value, .. } => {
                exprs.extend(indices);
                exprs.push(value);
            }
            StmtKind::AssignAny { indices, .. } => exprs.extend(indices),
            StmtKind::BranchIn { body, .. }
            | StmtKind::Loop(body)
            | StmtKind::Repeat { body, .. }
            | StmtKind::RepeatIn { body, .. } => stmts.extend(body),
            StmtKind::Branch(arms) => stmts.extend(arms.iter().flatten()),
            StmtKind::Call { name, args } => {
                out.push(name.text.as_str());
                exprs.extend(args);
            }
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                exprs.push(cond);
                stmts.extend(then);
                stmts.extend(otherwise.iter().flatten());
            }
            StmtKind::While { cond, body } => {
                exprs.push(cond);
                stmts.extend(body);
            }
            StmtKind::TagVariable(_) | StmtKind::Tag { .. } => {}
        }
    }
    while let Some(e) = exprs.pop() {
        match e {
            Expr::Name(_) => {}
            Expr::Constructor(_, args, _) => exprs.extend(args),
            Expr::Call(f, args, _) => {
                if let Expr::Name(n) = &**f {
                    out.push(n.text.as_str());
                }
                exprs.push(f);
                exprs.extend(args);
            }
            Expr::Access(m, k, _) => {
                exprs.push(m);
                exprs.push(k);
            }
            Expr::Binary(_, a, b, _) => {
                exprs.push(a);
                exprs.push(b);
            }
            Expr::If(c, a, b, _) => {
                exprs.push(c);
                exprs.push(a);
                exprs.push(b);
            }
            Expr::Map { default, parts, .. } => {
                exprs.extend(default.as_deref());
                exprs.extend(parts.iter().map(|p| &p.value));
            }
        }
    }
    out
}

impl<'g> super::Translator<'g, '_> {
    /// Per argument of a call to `g`, its value when it is a constant the
    /// copy may read in place of the argument variable: `g` not reusable
    /// and no reusable graph leading to it, the argument a symbol, a
    /// constructor, or a `branch`/`repeat` variable or a replaced argument of
    /// the caller, and a value of the parameter's type.
    pub(super) fn constant_args(
        &mut self,
        ctx: &super::Ctx<'g>,
        g: &'g crate::ast::Graph,
        args: &'g [Expr],
    ) -> Vec<Option<Value>> {
        if g.reusable || self.shared_reach.contains(g.name.text.as_str()) {
            return vec![None; args.len()];
        }
        args.iter()
            .zip(&g.params)
            .map(|(a, (_, ty))| {
                let v = self.constant(ctx, a)?;
                let values = self.ev.defs.values(ty).ok()?;
                values.contains(&v).then_some(v)
            })
            .collect()
    }

    /// Whether `a == b` holds, when both are constants (values of some
    /// domain: an unknown name is left to the RG checks).
    pub(super) fn known_equal(
        &mut self,
        ctx: &super::Ctx<'g>,
        a: &'g Expr,
        b: &'g Expr,
    ) -> Option<bool> {
        let a = self.constant(ctx, a)?;
        let b = self.constant(ctx, b)?;
        (self.domain_values.contains(&a) && self.domain_values.contains(&b)).then(|| a == b)
    }

    /// Whether an `==`/`!=` condition of two constants holds.
    pub(super) fn decided(&mut self, ctx: &super::Ctx<'g>, c: &'g Expr) -> Option<bool> {
        match c {
            Expr::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b, _) => {
                Some(self.known_equal(ctx, a, b)? == (*op == BinOp::Eq))
            }
            _ => None,
        }
    }

    fn constant(&mut self, ctx: &super::Ctx<'g>, a: &'g Expr) -> Option<Value> {
        match a {
            Expr::Name(n) => {
                if let Some(v) = super::graph::lookup(ctx, &n.text) {
                    return Some(v.clone());
                }
                let params = &ctx.graph.params;
                if let Some(i) = params.iter().position(|(p, _)| p.text == n.text) {
                    return ctx.consts.get(i).cloned().flatten();
                }
                let name = n.text.as_str();
                let builtin = ["player", "goals", "visible"].contains(&name);
                (!builtin && !self.user_names.contains(name)).then(|| Value::Sym(name.into()))
            }
            Expr::Constructor(..) => self.ev.eval(a, &ctx.subst).ok(),
            _ => None,
        }
    }
}
