//! Expressions and comparisons over a state's variables and piece counts.

use crate::compile::{apply_op, Act, Compiled, Expr};
use crate::state::State;
use rbg_lang::ast::CmpOp;

/// The variable and value assignment action `a` sets in `s`, or `None` when
/// the value is undefined or out of the variable's bounds (the action then
/// fails).
#[inline(always)]
pub(super) fn assigned(g: &Compiled, s: &State, a: u32) -> Option<(u32, i32)> {
    let Act::Assign(var, e) = &g.acts[a as usize] else {
        unreachable!("decoded from an assignment")
    };
    let val = eval(s, e)?;
    (0..=g.var_bounds[*var as usize])
        .contains(&val)
        .then_some((*var, val as i32))
}

/// Evaluates an expression; `None` on overflow or division by zero.
#[inline]
pub fn eval(s: &State, e: &Expr) -> Option<i64> {
    match e {
        Expr::Const(c) => Some(*c),
        Expr::Var(v) => Some(s.vars[*v as usize] as i64),
        Expr::Count(p) => Some(s.counts[*p as usize] as i64),
        Expr::Bin(l, op, r) => apply_op(eval(s, l)?, *op, eval(s, r)?),
    }
}

/// Evaluates a comparison; false when a side is undefined.
#[inline]
pub fn compare(s: &State, l: &Expr, op: CmpOp, r: &Expr) -> bool {
    let (Some(x), Some(y)) = (eval(s, l), eval(s, r)) else {
        return false;
    };
    match op {
        CmpOp::Lt => x < y,
        CmpOp::Le => x <= y,
        CmpOp::Eq => x == y,
        CmpOp::Ne => x != y,
        CmpOp::Gt => x > y,
        CmpOp::Ge => x >= y,
    }
}
