//! Arithmetic in `#rules` (`factor`, `term`, `arith` of the grammar in
//! [`super`]): an explicit operator stack, so nesting costs no recursion.

use super::{Kind, Parser};
use crate::ast::{Arith, ArithOp};
use crate::error::{Error, Result, Span};
use crate::lexer::TokenKind;
use crate::parse::{parse_nat, MAX_ARITH_DEPTH};

impl Parser<'_, '_> {
    /// An arithmetic expression (`+ -` below `* /`, left associative),
    /// parsed with an explicit operator stack (shunting-yard).
    pub(super) fn arith(&mut self) -> Result<Arith> {
        const WHAT: &str = "a number, a variable, a piece or `(`";
        let mut values: Vec<(Arith, usize)> = Vec::new();
        let mut ops: Vec<OpItem> = Vec::new();
        let mut parens = 0usize;
        loop {
            // an operand
            let Some(tok) = self.c.peek() else {
                return Err(self.c.expected(WHAT));
            };
            let span = tok.span;
            match &tok.kind {
                TokenKind::LParen => {
                    self.c.bump();
                    self.enter(span)?;
                    ops.push(OpItem::Paren);
                    parens += 1;
                    continue;
                }
                TokenKind::Nat(s) => {
                    let v = parse_nat(s, span)?;
                    values.push((Arith::Num(v as i64), 1));
                }
                TokenKind::Ident(name) => {
                    let (k, id) = self.names.resolve(
                        name,
                        span,
                        &[Kind::Variable, Kind::Player, Kind::Piece],
                        "a variable, player or piece",
                    )?;
                    let a = if k == Kind::Piece {
                        Arith::PieceCount(id)
                    } else {
                        Arith::Var(id)
                    };
                    values.push((a, 1));
                }
                _ => return Err(self.c.expected(WHAT)),
            }
            self.c.bump();
            // operators and closing parentheses
            loop {
                let at = self.c.here();
                let op = match self.c.peek_kind() {
                    Some(TokenKind::Plus) => ArithOp::Add,
                    Some(TokenKind::Minus) => ArithOp::Sub,
                    Some(TokenKind::Star) => ArithOp::Mul,
                    Some(TokenKind::Slash) => ArithOp::Div,
                    Some(TokenKind::RParen) if parens > 0 => {
                        while let Some(OpItem::Op(op, sp)) = ops.last().copied() {
                            ops.pop();
                            reduce(&mut values, op, sp)?;
                        }
                        ops.pop();
                        parens -= 1;
                        self.leave();
                        self.c.bump();
                        continue;
                    }
                    _ if parens > 0 => {
                        return Err(self.c.expected("an arithmetic operator or `)`"))
                    }
                    _ => {
                        while let Some(OpItem::Op(op, sp)) = ops.pop() {
                            reduce(&mut values, op, sp)?;
                        }
                        return match (values.pop(), values.is_empty()) {
                            (Some((a, _)), true) => Ok(a),
                            _ => Err(self.c.expected(WHAT)),
                        };
                    }
                };
                while let Some(OpItem::Op(top, sp)) = ops.last().copied() {
                    if prec(top) < prec(op) {
                        break;
                    }
                    ops.pop();
                    reduce(&mut values, top, sp)?;
                }
                ops.push(OpItem::Op(op, at));
                self.c.bump();
                break;
            }
        }
    }
}

#[derive(Clone, Copy)]
enum OpItem {
    Op(ArithOp, Span),
    Paren,
}

fn prec(op: ArithOp) -> u8 {
    match op {
        ArithOp::Add | ArithOp::Sub => 1,
        ArithOp::Mul | ArithOp::Div => 2,
    }
}

/// Pops two operands and pushes `lhs op rhs`.
fn reduce(values: &mut Vec<(Arith, usize)>, op: ArithOp, at: Span) -> Result<()> {
    match (values.pop(), values.pop()) {
        (Some((rhs, rd)), Some((lhs, ld))) => {
            values.push(bin(lhs, ld, op, rhs, rd, at)?);
            Ok(())
        }
        _ => Err(Error::new(at, "malformed arithmetic expression")),
    }
}

/// `lhs op rhs`, refusing trees deeper than [`MAX_ARITH_DEPTH`].
fn bin(
    lhs: Arith,
    ld: usize,
    op: ArithOp,
    rhs: Arith,
    rd: usize,
    at: Span,
) -> Result<(Arith, usize)> {
    let d = ld.max(rd) + 1;
    if d > MAX_ARITH_DEPTH {
        return Err(Error::new(
            at,
            format!("arithmetic expression nested deeper than {MAX_ARITH_DEPTH} levels"),
        ));
    }
    Ok((Arith::Bin(Box::new(lhs), op, Box::new(rhs)), d))
}
