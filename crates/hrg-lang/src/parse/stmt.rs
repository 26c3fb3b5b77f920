//! Statements of graphs.
//!
//! ```text
//! block = '{' { stmt } '}' ;
//! stmt  = name { '[' expr ']' } '=' type '(' '*' ')' | name { '[' expr ']' } '=' expr
//!       | 'branch' name 'in' type block | 'branch' block { 'or' block }
//!       | name '(' [ expr { ',' expr } ] ')'
//!       | 'if' expr block [ 'else' ( block | if ) ] | 'loop' block
//!       | 'repeat' name 'in' type block | 'repeat' digits block | 'while' expr block
//!       | '$$' name | ( '$' | '$_' ) ( name | '(' name { name } ')' ) ;
//! ```
//!
//! A name followed by `(` is always a call, so `if (c) {` reads `if(c)` as a
//! call and then fails at `{`, as in the reference.

use rbg_lang::Error;

use super::Parser;
use crate::ast::{Stmt, StmtKind, Type};
use crate::lexer::Tok;

impl Parser<'_> {
    /// `'{' { stmt } '}'`
    pub(crate) fn block(&mut self) -> Result<Vec<Stmt>, Error> {
        self.enter()?;
        self.expect(Tok::LBrace)?;
        let mut stmts = Vec::new();
        while self.eat(Tok::RBrace).is_none() {
            stmts.push(self.stmt()?);
        }
        self.leave();
        Ok(stmts)
    }

    fn stmt(&mut self) -> Result<Stmt, Error> {
        let start = self.peek().span;
        let kind = match self.peek().tok {
            Tok::DollarDollar => {
                self.bump();
                StmtKind::TagVariable(self.ident()?)
            }
            Tok::Dollar | Tok::DollarUnderscore => {
                let artificial = self.bump().tok == Tok::DollarUnderscore;
                let names = if self.eat(Tok::LParen).is_some() {
                    let mut names = vec![self.ident()?];
                    while self.peek().tok == Tok::Name {
                        names.push(self.ident()?);
                    }
                    self.expect(Tok::RParen)?;
                    names
                } else {
                    vec![self.ident()?]
                };
                StmtKind::Tag { artificial, names }
            }
            Tok::Name => self.named_stmt()?,
            _ => return Err(self.unexpected("a statement or `}`")),
        };
        Ok(Stmt {
            kind,
            span: self.since(start),
        })
    }

    fn named_stmt(&mut self) -> Result<StmtKind, Error> {
        let word = self.text_of(self.peek());
        match self.peek_at(1).tok {
            Tok::LParen => {
                let name = self.ident()?;
                let args = self.arguments()?;
                return Ok(StmtKind::Call { name, args });
            }
            Tok::LBracket | Tok::Eq => return self.assignment(),
            _ => {}
        }
        match word {
            "branch" => {
                self.bump();
                if self.peek().tok == Tok::LBrace {
                    let mut arms = vec![self.block()?];
                    while self.at_word("or") {
                        self.bump();
                        arms.push(self.block()?);
                    }
                    Ok(StmtKind::Branch(arms))
                } else {
                    let var = self.ident()?;
                    self.expect_word("in")?;
                    let ty = self.ty()?;
                    let body = self.block()?;
                    Ok(StmtKind::BranchIn { var, ty, body })
                }
            }
            "if" => self.if_stmt(),
            "loop" => {
                self.bump();
                Ok(StmtKind::Loop(self.block()?))
            }
            "repeat" => {
                self.bump();
                if self.peek_at(1).tok == Tok::Name && self.text_of(self.peek_at(1)) == "in" {
                    let var = self.ident()?;
                    self.bump();
                    let ty = self.ty()?;
                    let body = self.block()?;
                    Ok(StmtKind::RepeatIn { var, ty, body })
                } else {
                    let count = self.digits()?;
                    let body = self.block()?;
                    Ok(StmtKind::Repeat { count, body })
                }
            }
            "while" => {
                self.bump();
                let cond = self.expr()?;
                let body = self.block()?;
                Ok(StmtKind::While { cond, body })
            }
            _ => {
                self.bump();
                Err(self.unexpected("`(`, `[` or `=` after a name starting a statement"))
            }
        }
    }

    /// `if c { ... } [ else { ... } | else if ... ]`
    fn if_stmt(&mut self) -> Result<StmtKind, Error> {
        self.bump();
        let cond = self.expr()?;
        let then = self.block()?;
        let otherwise = if self.at_word("else") {
            self.bump();
            if self.at_word("if") && self.peek_at(1).tok != Tok::LParen {
                self.enter()?;
                let start = self.peek().span;
                let kind = self.if_stmt();
                self.leave();
                Some(vec![Stmt {
                    kind: kind?,
                    span: self.since(start),
                }])
            } else {
                Some(self.block()?)
            }
        } else {
            None
        };
        Ok(StmtKind::If {
            cond,
            then,
            otherwise,
        })
    }

    /// `name { '[' expr ']' } '=' ( type '(' '*' ')' | expr )`
    fn assignment(&mut self) -> Result<StmtKind, Error> {
        let root = self.ident()?;
        let mut indices = Vec::new();
        while self.eat(Tok::LBracket).is_some() {
            indices.push(self.expr()?);
            self.expect(Tok::RBracket)?;
        }
        self.expect(Tok::Eq)?;
        if let Some(ty) = self.any_type() {
            return Ok(StmtKind::AssignAny { root, indices, ty });
        }
        let value = self.expr()?;
        Ok(StmtKind::Assign {
            root,
            indices,
            value,
        })
    }

    /// `type '(' '*' ')'` if that is what follows (else nothing is consumed).
    fn any_type(&mut self) -> Option<Type> {
        if !matches!(self.peek().tok, Tok::Name | Tok::LBrace) {
            return None;
        }
        let saved = self.pos;
        if let Ok(ty) = self.ty() {
            if self.eat(Tok::LParen).is_some()
                && self.eat(Tok::Star).is_some()
                && self.eat(Tok::RParen).is_some()
            {
                return Some(ty);
            }
        }
        self.pos = saved;
        None
    }
}
