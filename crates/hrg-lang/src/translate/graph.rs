//! Statements → edges (`hrg-language.md` §3.4). Each block is translated
//! from a current node and, unless it ends with a jump, finished by a skip
//! edge to its next node; the shape follows the reference exactly, because
//! move enumeration merges walks by node.

use rbg_lang::{Error, Span};
use rg_lang::ast::{self as rg, Name};

use super::{arg_var, node_base, rg_type, Ctx, Extra, Shared, Translator};
use crate::ast::{Expr, Graph, Stmt, StmtKind};
use crate::value::Value;

impl<'g> Translator<'g, '_> {
    /// Translates `stmts` from `cur`, ending with a skip to `next` unless
    /// the last statement jumps.
    pub(super) fn block(
        &mut self,
        ctx: &mut Ctx<'g>,
        stmts: &'g [Stmt],
        mut cur: usize,
        next: usize,
        span: Span,
    ) -> Result<(), Error> {
        self.enter(span)?;
        for (i, s) in stmts.iter().enumerate() {
            match self.stmt(ctx, s, cur)? {
                Some(n) => cur = n,
                None => {
                    if let Some(after) = stmts.get(i + 1) {
                        return Err(Error::new(
                            after.span,
                            "expected the end of the block after a jump (`end`, `break`, `continue`, `return`), found a statement",
                        ));
                    }
                    self.depth -= 1;
                    return Ok(());
                }
            }
        }
        let span = stmts.last().map_or(span, |s| s.span);
        self.edge(cur, next, rg::Label::Skip, span)?;
        self.depth -= 1;
        Ok(())
    }

    /// Translates one statement from `cur`; the node after it, or `None`
    /// after a jump.
    fn stmt(&mut self, ctx: &mut Ctx<'g>, s: &'g Stmt, cur: usize) -> Result<Option<usize>, Error> {
        let span = s.span;
        match &s.kind {
            StmtKind::Assign {
                root,
                indices,
                value,
            } => {
                let target = self.target(ctx, root, indices)?;
                let value = self.rt(ctx, value)?;
                self.step(ctx, cur, rg::Label::Assign { target, value }, span)
            }
            StmtKind::AssignAny { root, indices, ty } => {
                let target = self.target(ctx, root, indices)?;
                let ty = rg_type(ty);
                self.step(ctx, cur, rg::Label::AssignAny { target, ty }, span)
            }
            StmtKind::Tag { artificial, names } => {
                let mut parts = Vec::with_capacity(names.len());
                for n in names {
                    parts.push(match lookup(ctx, &n.text) {
                        Some(v) => crate::encode::symbol(v, n.span)?.text,
                        None => n.text.clone(),
                    });
                }
                let tag = parts.join("__");
                if *artificial {
                    self.artificial.insert(tag.clone());
                }
                self.step(ctx, cur, rg::Label::Tag(Name::at(tag, span)), span)
            }
            StmtKind::TagVariable(v) => {
                self.not_substituted(ctx, v, "`$$`")?;
                let label = rg::Label::TagVariable(Name::at(v.text.clone(), v.span));
                self.step(ctx, cur, label, span)
            }
            StmtKind::Call { name, args } => self.call_stmt(ctx, name, args, cur, span),
            StmtKind::Branch(arms) => {
                let join = self.fresh(&ctx.base);
                for arm in arms {
                    self.block(ctx, arm, cur, join, span)?;
                }
                Ok(Some(join))
            }
            StmtKind::BranchIn { var, ty, body } => {
                let values = self.ev.defs.values(ty)?;
                let join = self.fresh(&ctx.base);
                for v in values.iter() {
                    ctx.subst.push((&var.text, v.clone()));
                    let r = self.block(ctx, body, cur, join, span);
                    ctx.subst.pop();
                    r?;
                }
                Ok(Some(join))
            }
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                let t = self.fresh(&ctx.base);
                let e = self.fresh(&ctx.base);
                // A block a decided condition never enters still ends in a
                // node of its own: the join keeps one entering edge.
                let decided = self.decided(ctx, cond);
                let next = |this: &mut Self, base: &str, taken: bool, join: usize| {
                    if decided == Some(!taken) {
                        this.fresh(base)
                    } else {
                        join
                    }
                };
                match otherwise {
                    None => {
                        self.cond(ctx, cond, cur, Some(t), Some(e))?;
                        let n = next(self, &ctx.base, true, e);
                        self.block(ctx, then, t, n, span)?;
                        Ok(Some(e))
                    }
                    Some(other) => {
                        let join = self.fresh(&ctx.base);
                        self.cond(ctx, cond, cur, Some(t), Some(e))?;
                        let n = next(self, &ctx.base, true, join);
                        self.block(ctx, then, t, n, span)?;
                        let n = next(self, &ctx.base, false, join);
                        self.block(ctx, other, e, n, span)?;
                        Ok(Some(join))
                    }
                }
            }
            StmtKind::While { cond, body } => {
                let t = self.fresh(&ctx.base);
                let e = self.fresh(&ctx.base);
                self.cond(ctx, cond, cur, Some(t), Some(e))?;
                let saved = ctx.loop_nodes.replace((e, cur));
                let r = self.block(ctx, body, t, cur, span);
                ctx.loop_nodes = saved;
                r?;
                Ok(Some(e))
            }
            StmtKind::Loop(body) => {
                let i = self.fresh(&ctx.base);
                let x = self.fresh(&ctx.base);
                self.edge(cur, i, rg::Label::Skip, span)?;
                let saved = ctx.loop_nodes.replace((x, i));
                let r = self.block(ctx, body, i, i, span);
                ctx.loop_nodes = saved;
                r?;
                Ok(Some(x))
            }
            StmtKind::Repeat { count, body } => {
                let n: usize = count.text.parse().map_err(|_| {
                    Error::new(
                        count.span,
                        format!("expected a repeat count, found `{}`", count.text),
                    )
                })?;
                self.repeat(ctx, None, n, body, cur, span)
            }
            StmtKind::RepeatIn { var, ty, body } => {
                let values = self.ev.defs.values(ty)?;
                self.repeat(
                    ctx,
                    Some((&var.text, &values)),
                    values.len(),
                    body,
                    cur,
                    span,
                )
            }
        }
    }

    /// `cur → n: label` with `n` fresh.
    fn step(
        &mut self,
        ctx: &Ctx<'g>,
        cur: usize,
        label: rg::Label,
        span: Span,
    ) -> Result<Option<usize>, Error> {
        let n = self.fresh(&ctx.base);
        self.edge(cur, n, label, span)?;
        Ok(Some(n))
    }

    /// `repeat`: `count` iterations; with `var`, the i-th substitutes the
    /// i-th value for the variable.
    fn repeat(
        &mut self,
        ctx: &mut Ctx<'g>,
        var: Option<(&'g str, &[Value])>,
        count: usize,
        body: &'g [Stmt],
        mut cur: usize,
        span: Span,
    ) -> Result<Option<usize>, Error> {
        let exit = self.fresh(&ctx.base);
        for i in 0..count {
            let m = self.fresh(&ctx.base);
            let saved = ctx.loop_nodes.replace((exit, m));
            if let Some((var, values)) = var {
                ctx.subst.push((var, values[i].clone()));
            }
            let r = self.block(ctx, body, cur, m, span);
            if var.is_some() {
                ctx.subst.pop();
            }
            ctx.loop_nodes = saved;
            r?;
            cur = m;
        }
        self.edge(cur, exit, rg::Label::Skip, span)?;
        Ok(Some(exit))
    }

    /// The target of an assignment: the root is taken as written, indices
    /// are run-time expressions.
    fn target(
        &mut self,
        ctx: &Ctx<'g>,
        root: &'g crate::ast::Ident,
        indices: &'g [Expr],
    ) -> Result<rg::Expr, Error> {
        self.not_substituted(ctx, root, "an assignment")?;
        let mut e = rg::Expr::Ref(Name::at(root.text.clone(), root.span));
        for i in indices {
            let key = self.rt(ctx, i)?;
            e = rg::Expr::Access {
                map: Box::new(e),
                key: Box::new(key),
                loc: rg::Loc(root.span.to(i.span())),
            };
        }
        Ok(e)
    }

    pub(super) fn not_substituted(
        &self,
        ctx: &Ctx<'g>,
        n: &crate::ast::Ident,
        what: &str,
    ) -> Result<(), Error> {
        if lookup(ctx, &n.text).is_some() {
            return Err(Error::new(
                n.span,
                format!("expected a variable in {what}, found `{}`, a `branch`/`repeat` variable (replaced by its values)", n.text),
            ));
        }
        Ok(())
    }

    /// A statement `name(args)`: a built-in or a graph call.
    fn call_stmt(
        &mut self,
        ctx: &mut Ctx<'g>,
        name: &'g crate::ast::Ident,
        args: &'g [Expr],
        cur: usize,
        span: Span,
    ) -> Result<Option<usize>, Error> {
        let arity = |n: usize| -> Result<(), Error> {
            if args.len() != n {
                return Err(Error::new(
                    span,
                    format!(
                        "expected {n} argument(s) for `{}`, found {}",
                        name.text,
                        args.len()
                    ),
                ));
            }
            Ok(())
        };
        match name.text.as_str() {
            "check" => {
                arity(1)?;
                let n = self.fresh(&ctx.base);
                self.cond(ctx, &args[0], cur, Some(n), None)?;
                Ok(Some(n))
            }
            "end" => {
                arity(0)?;
                let label = rg::Label::Assign {
                    target: rg::Expr::Ref(Name::at("player", span)),
                    value: rg::Expr::Ref(Name::at("keeper", span)),
                };
                self.edge(cur, ctx.end, label, span)?;
                Ok(None)
            }
            "break" | "continue" => {
                arity(0)?;
                let Some((brk, cont)) = ctx.loop_nodes else {
                    return Err(Error::new(
                        span,
                        format!("expected `{}()` inside a loop, found it outside", name.text),
                    ));
                };
                let to = if name.text == "break" { brk } else { cont };
                self.edge(cur, to, rg::Label::Skip, span)?;
                Ok(None)
            }
            "return" => {
                arity(0)?;
                let Some(ret) = ctx.ret else {
                    return Err(Error::new(span, "expected `return()` outside graphs checked by `reachable`, found it inside one"));
                };
                self.edge(cur, ret, rg::Label::Skip, span)?;
                Ok(None)
            }
            _ => {
                self.not_substituted(ctx, name, "a call")?;
                let g = self.graph(name)?;
                self.call_graph(ctx, g, args, cur, span).map(Some)
            }
        }
    }

    /// The graph called `name`.
    pub(super) fn graph(&self, name: &crate::ast::Ident) -> Result<&'g Graph, Error> {
        self.ev.defs.graphs.get(name.text.as_str()).copied().ok_or_else(|| {
            Error::new(name.span, format!("expected a graph or a built-in (`check`, `end`, `break`, `continue`, `return`), found `{}`", name.text))
        })
    }

    /// Assigns the arguments of a call to `g`'s argument variables, from
    /// `cur`; the node after them and the constants passed (`args.rs`).
    /// In a check (`in_check`), arguments that are all constants are not
    /// assigned.
    pub(super) fn pass_args(
        &mut self,
        ctx: &Ctx<'g>,
        g: &'g Graph,
        args: &'g [Expr],
        mut cur: usize,
        span: Span,
        in_check: bool,
    ) -> Result<(usize, Vec<Option<Value>>), Error> {
        if args.len() != g.params.len() {
            return Err(Error::new(
                span,
                format!(
                    "expected {} argument(s) for the graph `{}`, found {}",
                    g.params.len(),
                    g.name.text,
                    args.len()
                ),
            ));
        }
        self.declare_args(g)?;
        let consts = self.constant_args(ctx, g, args);
        if in_check && consts.iter().all(Option::is_some) {
            return Ok((cur, consts));
        }
        for (i, a) in args.iter().enumerate() {
            let value = self.rt(ctx, a)?;
            let target = rg::Expr::Ref(Name::at(arg_var(g, i), a.span()));
            let n = self.fresh(&ctx.base);
            self.edge(cur, n, rg::Label::Assign { target, value }, a.span())?;
            cur = n;
        }
        Ok((cur, consts))
    }

    /// A new copy of a non-reusable graph's body entered from `cur` by a
    /// skip, or starting at `entry` (`end()` goes to `end`, else to the
    /// copy's end node; `return()` to the copy's end node if
    /// `with_return`); the copy's end node.
    pub(super) fn copy(
        &mut self,
        g: &'g Graph,
        (cur, consts): (usize, Vec<Option<Value>>),
        entry: Option<usize>,
        end: Option<usize>,
        with_return: bool,
        span: Span,
    ) -> Result<usize, Error> {
        if self.expanding.contains(&g.name.text.as_str()) {
            return Err(Error::new(
                span,
                format!("expected `{}` not to call itself (only a `reusable` graph may), found a recursive call", g.name.text),
            ));
        }
        self.enter(span)?;
        let base = node_base(&g.name.text);
        let begin = match entry {
            Some(n) => n,
            None => {
                let begin = self.fresh(&base);
                self.edge(cur, begin, rg::Label::Skip, span)?;
                begin
            }
        };
        let g_end = self.fresh(&base);
        let mut inner = Ctx {
            graph: g,
            base,
            end: end.unwrap_or(g_end),
            ret: with_return.then_some(g_end),
            loop_nodes: None,
            subst: Vec::new(),
            consts,
        };
        self.expanding.push(&g.name.text);
        self.block(&mut inner, &g.body, begin, g_end, g.name.span)?;
        self.expanding.pop();
        self.depth -= 1;
        Ok(g_end)
    }

    /// Enters the shared copy of a reusable graph from `cur` by a skip; the
    /// copy is translated on first use, with `end()` going to `end` (or its
    /// own end node). The copy's end node.
    pub(super) fn shared(
        &mut self,
        g: &'g Graph,
        cur: usize,
        end: Option<usize>,
        with_return: bool,
        span: Span,
    ) -> Result<usize, Error> {
        let base = node_base(&g.name.text);
        if self
            .graphs
            .get(g.name.text.as_str())
            .and_then(|s| s.shared.as_ref())
            .is_none()
        {
            let begin = self.fresh(&base);
            let g_end = self.fresh(&base);
            self.graphs.entry(&g.name.text).or_default().shared = Some(Shared {
                begin,
                end: g_end,
                translated: false,
                ret: None,
                calls: Vec::new(),
                span,
            });
        }
        let shared = self
            .graphs
            .get_mut(g.name.text.as_str())
            .and_then(|s| s.shared.as_mut())
            .expect("made");
        let (begin, g_end) = (shared.begin, shared.end);
        let translated = std::mem::replace(&mut shared.translated, true);
        self.edge(cur, begin, rg::Label::Skip, span)?;
        if !translated {
            self.enter(span)?;
            let mut inner = Ctx {
                graph: g,
                base,
                end: end.unwrap_or(g_end),
                ret: with_return.then_some(g_end),
                loop_nodes: None,
                subst: Vec::new(),
                consts: Vec::new(),
            };
            self.block(&mut inner, &g.body, begin, g_end, g.name.span)?;
            self.depth -= 1;
        }
        Ok(g_end)
    }

    /// A graph call as a statement.
    fn call_graph(
        &mut self,
        ctx: &Ctx<'g>,
        g: &'g Graph,
        args: &'g [Expr],
        cur: usize,
        span: Span,
    ) -> Result<usize, Error> {
        if !g.reusable {
            let passed = self.pass_args(ctx, g, args, cur, span, false)?;
            let g_end = self.copy(g, passed, None, Some(ctx.end), true, span)?;
            let r = self.fresh(&ctx.base);
            self.edge(g_end, r, rg::Label::Skip, span)?;
            return Ok(r);
        }
        self.counter += 1;
        let id = format!("{}_call_{}", g.name.text, self.counter);
        let k = self.named(&format!(
            "{}_call_{}",
            node_base(&g.name.text),
            self.counter
        ));
        self.edge(cur, k, rg::Label::Skip, span)?;
        let var = format!("{}_return", g.name.text);
        let label = rg::Label::Assign {
            target: rg::Expr::Ref(Name::at(var.clone(), span)),
            value: rg::Expr::Ref(Name::at(id.clone(), span)),
        };
        let n = self.fresh(&ctx.base);
        self.edge(k, n, label, span)?;
        let (cur, _) = self.pass_args(ctx, g, args, n, span, false)?;
        let g_end = self.shared(g, cur, Some(ctx.end), true, span)?;
        let shared = self
            .graphs
            .get_mut(g.name.text.as_str())
            .and_then(|s| s.shared.as_mut())
            .expect("made");
        let first_call = shared.calls.is_empty();
        shared.calls.push(id.clone());
        let ret = match shared.ret {
            Some(r) => r,
            None => {
                let r = self.named(&format!(
                    "{}_return_{}",
                    node_base(&g.name.text),
                    self.counter
                ));
                self.graphs
                    .get_mut(g.name.text.as_str())
                    .and_then(|s| s.shared.as_mut())
                    .expect("made")
                    .ret = Some(r);
                self.edge(g_end, r, rg::Label::Skip, span)?;
                r
            }
        };
        if first_call {
            self.extra.push(Extra::Return(g.name.text.clone()));
        }
        let m = self.fresh(&ctx.base);
        let label = rg::Label::Compare {
            left: rg::Expr::Ref(Name::at(var, span)),
            right: rg::Expr::Ref(Name::at(id, span)),
            equal: true,
        };
        self.edge(ret, m, label, span)?;
        Ok(m)
    }

    /// A node with exactly this name (unique: it carries the counter).
    pub(super) fn named(&mut self, name: &str) -> usize {
        self.nodes.push(name.to_string());
        self.nodes.len() - 1
    }
}

/// The value of a `branch`/`repeat` variable in force.
pub(super) fn lookup<'c>(ctx: &'c Ctx, name: &str) -> Option<&'c Value> {
    ctx.subst
        .iter()
        .rev()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v)
}
