//! Expressions, patterns and map literals.
//!
//! ```text
//! expr    = and { '||' and }                  (right associative)
//! and     = cmp { '&&' cmp }                  (right associative)
//! cmp     = sum { ('==' | '!=' | '<' | '<=' | '>' | '>=') sum }
//! sum     = postfix { ('+' | '-' | '%' | 'in') postfix }    ('in' then whitespace)
//! postfix = atom { '[' expr ']' | '(' [ expr { ',' expr } ] ')' }
//! atom    = 'if' expr 'then' expr 'else' expr | map | Name '(' args ')'
//!         | name | '(' expr ')' ;
//! map     = '{' ':' expr { ';' mpart } '}' | '{' mpart { ';' mpart } '}' ;
//! mpart   = pattern '=' expr [ 'where' [ dval { ',' dval } ] ] ;
//! pattern = '_' | Name '(' [ pattern { ',' pattern } ] ')' | name ;
//! ```

use rbg_lang::{Error, Span};

use super::{Parser, MAX_NESTING};
use crate::ast::{is_variable, BinOp, Expr, Ident, MapPart, Pattern};
use crate::lexer::Tok;

impl Parser<'_> {
    /// A whole expression.
    pub(crate) fn expr(&mut self) -> Result<Expr, Error> {
        self.enter()?;
        let e = self.right_assoc(Tok::OrOr, BinOp::Or, |p| {
            p.right_assoc(Tok::AndAnd, BinOp::And, Self::comparison)
        });
        self.leave();
        e
    }

    /// Records that the expression just built is `depth` levels deep; an
    /// error past [`MAX_NESTING`]. Every function returning an expression
    /// sets [`Parser::tree_depth`], so operator chains (parsed without
    /// recursion) cannot build trees that later passes, or dropping them,
    /// would recurse too deeply into.
    fn built(&mut self, depth: usize, span: Span) -> Result<(), Error> {
        if depth > MAX_NESTING {
            return Err(Error::new(
                span,
                format!(
                    "expected an expression at most {MAX_NESTING} levels deep, found a deeper one"
                ),
            ));
        }
        self.tree_depth = depth;
        Ok(())
    }

    fn right_assoc(
        &mut self,
        tok: Tok,
        op: BinOp,
        operand: impl Fn(&mut Self) -> Result<Expr, Error>,
    ) -> Result<Expr, Error> {
        let first = operand(self)?;
        let mut operands = vec![(first, self.tree_depth)];
        while self.eat(tok).is_some() {
            let e = operand(self)?;
            operands.push((e, self.tree_depth));
        }
        let (mut e, mut depth) = operands.pop().expect("one operand");
        while let Some((left, d)) = operands.pop() {
            let span = left.span().to(e.span());
            depth = 1 + depth.max(d);
            self.built(depth, span)?;
            e = Expr::Binary(op, Box::new(left), Box::new(e), span);
        }
        self.tree_depth = depth;
        Ok(e)
    }

    fn comparison(&mut self) -> Result<Expr, Error> {
        let mut e = self.sum()?;
        let mut depth = self.tree_depth;
        loop {
            let op = match self.peek().tok {
                Tok::EqEq => BinOp::Eq,
                Tok::NotEq => BinOp::Ne,
                Tok::Lt => BinOp::Lt,
                Tok::Le => BinOp::Le,
                Tok::Gt => BinOp::Gt,
                Tok::Ge => BinOp::Ge,
                _ => {
                    self.tree_depth = depth;
                    return Ok(e);
                }
            };
            self.bump();
            let right = self.sum()?;
            let span = e.span().to(right.span());
            depth = 1 + depth.max(self.tree_depth);
            self.built(depth, span)?;
            e = Expr::Binary(op, Box::new(e), Box::new(right), span);
        }
    }

    fn sum(&mut self) -> Result<Expr, Error> {
        let mut e = self.postfix()?;
        let mut depth = self.tree_depth;
        loop {
            let t = self.peek();
            let op = match t.tok {
                Tok::Plus => BinOp::Add,
                Tok::Minus => BinOp::Sub,
                Tok::Percent => BinOp::Mod,
                Tok::Name if t.space_after && self.text_of(t) == "in" => BinOp::In,
                _ => {
                    self.tree_depth = depth;
                    return Ok(e);
                }
            };
            self.bump();
            let right = self.postfix()?;
            let span = e.span().to(right.span());
            depth = 1 + depth.max(self.tree_depth);
            self.built(depth, span)?;
            e = Expr::Binary(op, Box::new(e), Box::new(right), span);
        }
    }

    fn postfix(&mut self) -> Result<Expr, Error> {
        let mut e = self.atom()?;
        let mut depth = self.tree_depth;
        loop {
            if self.eat(Tok::LBracket).is_some() {
                let key = self.expr()?;
                self.expect(Tok::RBracket)?;
                let span = self.since(e.span());
                depth = 1 + depth.max(self.tree_depth);
                self.built(depth, span)?;
                e = Expr::Access(Box::new(e), Box::new(key), span);
            } else if self.peek().tok == Tok::LParen {
                let args = self.arguments()?;
                let span = self.since(e.span());
                depth = 1 + depth.max(self.tree_depth);
                self.built(depth, span)?;
                e = Expr::Call(Box::new(e), args, span);
            } else {
                self.tree_depth = depth;
                return Ok(e);
            }
        }
    }

    /// `'(' [ expr { ',' expr } ] ')'`; [`Parser::tree_depth`] is the
    /// deepest argument's (0 for none).
    pub(crate) fn arguments(&mut self) -> Result<Vec<Expr>, Error> {
        self.expect(Tok::LParen)?;
        let mut args = Vec::new();
        let mut depth = 0;
        if self.eat(Tok::RParen).is_none() {
            loop {
                args.push(self.expr()?);
                depth = depth.max(self.tree_depth);
                if self.eat(Tok::Comma).is_none() {
                    break;
                }
            }
            self.expect(Tok::RParen)?;
        }
        self.tree_depth = depth;
        Ok(args)
    }

    fn atom(&mut self) -> Result<Expr, Error> {
        let t = self.peek();
        match t.tok {
            Tok::LParen => {
                self.bump();
                let e = self.expr()?;
                self.expect(Tok::RParen)?;
                Ok(e)
            }
            Tok::LBrace => self.map(),
            Tok::Name if self.text_of(t) == "if" => {
                self.bump();
                let c = self.expr()?;
                let mut depth = self.tree_depth;
                self.expect_word("then")?;
                let a = self.expr()?;
                depth = depth.max(self.tree_depth);
                self.expect_word("else")?;
                let b = self.expr()?;
                depth = depth.max(self.tree_depth);
                let span = self.since(t.span);
                self.built(depth + 1, span)?;
                Ok(Expr::If(Box::new(c), Box::new(a), Box::new(b), span))
            }
            Tok::Name => {
                let name = self.ident()?;
                if name.is_variable() && self.peek().tok == Tok::LParen {
                    let args = self.arguments()?;
                    let span = self.since(name.span);
                    self.built(self.tree_depth + 1, span)?;
                    Ok(Expr::Constructor(name, args, span))
                } else {
                    self.tree_depth = 1;
                    Ok(Expr::Name(name))
                }
            }
            _ => Err(self.unexpected("an expression")),
        }
    }

    /// `{ :d; parts }` or `{ parts }`.
    fn map(&mut self) -> Result<Expr, Error> {
        let open = self.bump().span;
        let mut default = None;
        let mut parts = Vec::new();
        let mut depth = 0;
        if self.eat(Tok::Colon).is_some() {
            default = Some(Box::new(self.expr()?));
            depth = self.tree_depth;
        } else {
            parts.push(self.map_part()?);
            depth = depth.max(self.tree_depth);
        }
        while self.eat(Tok::Semi).is_some() {
            parts.push(self.map_part()?);
            depth = depth.max(self.tree_depth);
        }
        self.expect(Tok::RBrace)?;
        let span = self.since(open);
        self.built(depth + 1, span)?;
        Ok(Expr::Map {
            default,
            parts,
            span,
        })
    }

    fn map_part(&mut self) -> Result<MapPart, Error> {
        let key = self.pattern()?;
        self.expect(Tok::Eq)?;
        let value = self.expr()?;
        let depth = self.tree_depth;
        let bindings = if self.at_word("where") {
            self.bump();
            self.optional_bindings()?
        } else {
            Vec::new()
        };
        self.tree_depth = depth;
        Ok(MapPart {
            key,
            value,
            bindings,
        })
    }

    /// `'_' | Name '(' [ pattern { ',' pattern } ] ')' | name`
    pub(crate) fn pattern(&mut self) -> Result<Pattern, Error> {
        self.enter()?;
        let p = self.pattern_inner();
        self.leave();
        p
    }

    fn pattern_inner(&mut self) -> Result<Pattern, Error> {
        let name: Ident = self.ident().map_err(|_| self.unexpected("a pattern"))?;
        if name.text == "_" {
            return Ok(Pattern::Wildcard(name.span));
        }
        if is_variable(&name.text) && self.eat(Tok::LParen).is_some() {
            let mut args = Vec::new();
            if self.eat(Tok::RParen).is_none() {
                loop {
                    args.push(self.pattern()?);
                    if self.eat(Tok::Comma).is_none() {
                        break;
                    }
                }
                self.expect(Tok::RParen)?;
            }
            let span: Span = self.since(name.span);
            return Ok(Pattern::Constructor(name, args, span));
        }
        Ok(Pattern::Name(name))
    }
}
