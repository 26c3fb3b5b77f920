//! Conditions → edges (`hrg-language.md` §3.4, "Conditions") and run-time
//! expressions → RG expressions (§3.3).

use rbg_lang::Error;
use rg_lang::ast::{self as rg, Name};

use super::graph::lookup;
use super::{arg_var, node_base, Ctx, Translator};
use crate::ast::{BinOp, Expr};
use crate::encode::symbol;

impl<'g> Translator<'g, '_> {
    /// Edges from `entry` to `then` taken when `c` holds and to `otherwise`
    /// when it does not (either may be absent).
    pub(super) fn cond(
        &mut self,
        ctx: &mut Ctx<'g>,
        c: &'g Expr,
        entry: usize,
        then: Option<usize>,
        otherwise: Option<usize>,
    ) -> Result<(), Error> {
        self.enter(c.span())?;
        self.cond_inner(ctx, c, entry, then, otherwise)?;
        self.depth -= 1;
        Ok(())
    }

    fn cond_inner(
        &mut self,
        ctx: &mut Ctx<'g>,
        c: &'g Expr,
        entry: usize,
        then: Option<usize>,
        otherwise: Option<usize>,
    ) -> Result<(), Error> {
        let span = c.span();
        match c {
            Expr::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b, _) => {
                let left = self.rt(ctx, a)?;
                let right = self.rt(ctx, b)?;
                let holds = *op == BinOp::Eq;
                let known = self.known_equal(ctx, a, b);
                for (to, equal) in [(then, holds), (otherwise, !holds)] {
                    if let (Some(to), Some(same)) = (to, known) {
                        // Two constants: a skip where the comparison holds.
                        if same == equal {
                            self.edge(entry, to, rg::Label::Skip, span)?;
                        }
                    } else if let Some(to) = to {
                        let label = rg::Label::Compare {
                            left: left.clone(),
                            right: right.clone(),
                            equal,
                        };
                        self.edge(entry, to, label, span)?;
                    }
                }
                Ok(())
            }
            Expr::Binary(BinOp::And, a, b, _) => {
                let t = self.fresh(&ctx.base);
                self.cond(ctx, a, entry, Some(t), otherwise)?;
                self.cond(ctx, b, t, then, otherwise)
            }
            Expr::Binary(BinOp::Or, a, b, _) => match otherwise {
                None => {
                    self.cond(ctx, a, entry, then, None)?;
                    self.cond(ctx, b, entry, then, None)
                }
                Some(_) => {
                    let f = self.fresh(&ctx.base);
                    self.cond(ctx, a, entry, then, Some(f))?;
                    self.cond(ctx, b, f, then, otherwise)
                }
            },
            Expr::Call(f, args, _) => {
                let Expr::Name(f) = &**f else {
                    return Err(not_supported(c));
                };
                let arity = |n: usize| {
                    if args.len() == n {
                        Ok(())
                    } else {
                        Err(Error::new(
                            span,
                            format!(
                                "expected {n} argument(s) for `{}`, found {}",
                                f.text,
                                args.len()
                            ),
                        ))
                    }
                };
                match f.text.as_str() {
                    "not" => {
                        arity(1)?;
                        self.cond(ctx, &args[0], entry, otherwise, then)
                    }
                    "true" | "false" => {
                        arity(0)?;
                        let to = if f.text == "true" { then } else { otherwise };
                        if let Some(to) = to {
                            self.edge(entry, to, rg::Label::Skip, span)?;
                        }
                        Ok(())
                    }
                    "reachable" => {
                        arity(1)?;
                        let (start, target) = self.reachable(ctx, &args[0])?;
                        for (to, positive) in [(then, true), (otherwise, false)] {
                            if let Some(to) = to {
                                let label = rg::Label::Reach {
                                    positive,
                                    from: Name::at(self.nodes[start].clone(), span),
                                    to: Name::at(self.nodes[target].clone(), span),
                                };
                                self.edge(entry, to, label, span)?;
                            }
                        }
                        Ok(())
                    }
                    _ => Err(not_supported(c)),
                }
            }
            _ => Err(not_supported(c)),
        }
    }

    /// The automaton checked by `reachable(g(args))`: its start (where the
    /// arguments are assigned) and `g`'s end node.
    fn reachable(&mut self, ctx: &mut Ctx<'g>, call: &'g Expr) -> Result<(usize, usize), Error> {
        let (Expr::Call(_, args, span), Some(name)) = (call, callee(call)) else {
            return Err(Error::new(
                call.span(),
                "expected a graph call in `reachable(...)`, found another expression",
            ));
        };
        let g = self.graph(name)?;
        let span = *span;
        if g.reusable {
            self.counter += 1;
            let start = self.named(&format!(
                "{}_call_{}",
                node_base(&g.name.text),
                self.counter
            ));
            let (cur, _) = self.pass_args(ctx, g, args, start, span, true)?;
            let end = self.shared(g, cur, None, false, span)?;
            Ok((start, end))
        } else {
            let start = self.fresh(&ctx.base);
            let passed = self.pass_args(ctx, g, args, start, span, true)?;
            // Without assignments the check starts at the body itself (an
            // engine probe needs its any-assignment first).
            let entry = (passed.0 == start).then_some(start);
            let end = self.copy(g, passed, entry, None, false, span)?;
            Ok((start, end))
        }
    }

    /// A run-time expression: names (graph arguments renamed, `branch` and
    /// `repeat` variables replaced by their values), accesses, calls as
    /// accesses, constructors evaluated now.
    pub(super) fn rt(&mut self, ctx: &Ctx<'g>, e: &'g Expr) -> Result<rg::Expr, Error> {
        self.enter(e.span())?;
        let r = self.rt_inner(ctx, e);
        self.depth -= 1;
        r
    }

    fn rt_inner(&mut self, ctx: &Ctx<'g>, e: &'g Expr) -> Result<rg::Expr, Error> {
        match e {
            Expr::Name(n) => {
                if let Some(v) = lookup(ctx, &n.text) {
                    return Ok(rg::Expr::Ref(symbol(v, n.span)?));
                }
                let name = match ctx.graph.params.iter().position(|(p, _)| p.text == n.text) {
                    Some(i) => match ctx.consts.get(i) {
                        Some(Some(v)) => return Ok(rg::Expr::Ref(symbol(v, n.span)?)),
                        _ => arg_var(ctx.graph, i),
                    },
                    None => n.text.clone(),
                };
                Ok(rg::Expr::Ref(Name::at(name, n.span)))
            }
            Expr::Access(m, k, span) => Ok(rg::Expr::Access {
                map: Box::new(self.rt(ctx, m)?),
                key: Box::new(self.rt(ctx, k)?),
                loc: rg::Loc(*span),
            }),
            Expr::Call(f, args, span) => {
                if let Expr::Name(n) = &**f {
                    self.not_substituted(ctx, n, "a call")?;
                }
                let mut out = self.rt(ctx, f)?;
                for a in args {
                    out = rg::Expr::Access {
                        map: Box::new(out),
                        key: Box::new(self.rt(ctx, a)?),
                        loc: rg::Loc(*span),
                    };
                }
                Ok(out)
            }
            Expr::Constructor(_, _, span) => {
                let v = self.ev.eval(e, &ctx.subst)?;
                Ok(rg::Expr::Ref(symbol(&v, *span)?))
            }
            _ => Err(not_supported(e)),
        }
    }
}

fn callee(call: &Expr) -> Option<&crate::ast::Ident> {
    match call {
        Expr::Call(f, _, _) => match &**f {
            Expr::Name(n) => Some(n),
            _ => None,
        },
        _ => None,
    }
}

fn not_supported(e: &Expr) -> Error {
    let what = match e {
        Expr::Binary(op, ..) => format!("`{}`", op.text()),
        Expr::If(..) => "`if ... then ... else`".to_string(),
        Expr::Map { .. } => "a map literal".to_string(),
        Expr::Call(..) => "a call".to_string(),
        _ => "this expression".to_string(),
    };
    Error::new(
        e.span(),
        format!("expected a run-time condition or value (`==`, `!=`, `&&`, `||`, `not`, `reachable`, names, `m[k]`, `f(a)`, constructors), found {what}; compute it in a function"),
    )
}
