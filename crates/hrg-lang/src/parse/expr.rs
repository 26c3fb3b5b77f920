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

use super::Parser;
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

    fn right_assoc(
        &mut self,
        tok: Tok,
        op: BinOp,
        operand: impl Fn(&mut Self) -> Result<Expr, Error>,
    ) -> Result<Expr, Error> {
        let mut operands = vec![operand(self)?];
        while self.eat(tok).is_some() {
            operands.push(operand(self)?);
        }
        let mut e = operands.pop().expect("one operand");
        while let Some(left) = operands.pop() {
            let span = left.span().to(e.span());
            e = Expr::Binary(op, Box::new(left), Box::new(e), span);
        }
        Ok(e)
    }

    fn comparison(&mut self) -> Result<Expr, Error> {
        let mut e = self.sum()?;
        loop {
            let op = match self.peek().tok {
                Tok::EqEq => BinOp::Eq,
                Tok::NotEq => BinOp::Ne,
                Tok::Lt => BinOp::Lt,
                Tok::Le => BinOp::Le,
                Tok::Gt => BinOp::Gt,
                Tok::Ge => BinOp::Ge,
                _ => return Ok(e),
            };
            self.bump();
            let right = self.sum()?;
            let span = e.span().to(right.span());
            e = Expr::Binary(op, Box::new(e), Box::new(right), span);
        }
    }

    fn sum(&mut self) -> Result<Expr, Error> {
        let mut e = self.postfix()?;
        loop {
            let t = self.peek();
            let op = match t.tok {
                Tok::Plus => BinOp::Add,
                Tok::Minus => BinOp::Sub,
                Tok::Percent => BinOp::Mod,
                Tok::Name if t.space_after && self.text_of(t) == "in" => BinOp::In,
                _ => return Ok(e),
            };
            self.bump();
            let right = self.postfix()?;
            let span = e.span().to(right.span());
            e = Expr::Binary(op, Box::new(e), Box::new(right), span);
        }
    }

    fn postfix(&mut self) -> Result<Expr, Error> {
        let mut e = self.atom()?;
        loop {
            if self.eat(Tok::LBracket).is_some() {
                let key = self.expr()?;
                self.expect(Tok::RBracket)?;
                let span = self.since(e.span());
                e = Expr::Access(Box::new(e), Box::new(key), span);
            } else if self.peek().tok == Tok::LParen {
                let args = self.arguments()?;
                let span = self.since(e.span());
                e = Expr::Call(Box::new(e), args, span);
            } else {
                return Ok(e);
            }
        }
    }

    /// `'(' [ expr { ',' expr } ] ')'`
    pub(crate) fn arguments(&mut self) -> Result<Vec<Expr>, Error> {
        self.expect(Tok::LParen)?;
        let mut args = Vec::new();
        if self.eat(Tok::RParen).is_none() {
            loop {
                args.push(self.expr()?);
                if self.eat(Tok::Comma).is_none() {
                    break;
                }
            }
            self.expect(Tok::RParen)?;
        }
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
                self.expect_word("then")?;
                let a = self.expr()?;
                self.expect_word("else")?;
                let b = self.expr()?;
                let span = self.since(t.span);
                Ok(Expr::If(Box::new(c), Box::new(a), Box::new(b), span))
            }
            Tok::Name => {
                let name = self.ident()?;
                if name.is_variable() && self.peek().tok == Tok::LParen {
                    let args = self.arguments()?;
                    let span = self.since(name.span);
                    Ok(Expr::Constructor(name, args, span))
                } else {
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
        if self.eat(Tok::Colon).is_some() {
            default = Some(Box::new(self.expr()?));
            while self.eat(Tok::Semi).is_some() {
                parts.push(self.map_part()?);
            }
        } else {
            parts.push(self.map_part()?);
            while self.eat(Tok::Semi).is_some() {
                parts.push(self.map_part()?);
            }
        }
        self.expect(Tok::RBrace)?;
        Ok(Expr::Map {
            default,
            parts,
            span: self.since(open),
        })
    }

    fn map_part(&mut self) -> Result<MapPart, Error> {
        let key = self.pattern()?;
        self.expect(Tok::Eq)?;
        let value = self.expr()?;
        let bindings = if self.at_word("where") {
            self.bump();
            self.optional_bindings()?
        } else {
            Vec::new()
        };
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
