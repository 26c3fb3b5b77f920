//! RBG arithmetic as constant tables: an expression over the variables and
//! piece counts it reads (its *leaves*) is evaluated once for every
//! combination of their values, exactly as the RBG engine evaluates it
//! (64-bit integers, `/` truncating, overflow and division by zero
//! undefined), and written as a nested map from the leaves' values to the
//! result.

use rbg_lang::ast::{Arith, ArithOp, CmpOp};

use crate::TranslateError;

/// A value an expression reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Input {
    /// Variable (players' scores first).
    Var(u32),
    /// The number of vertices holding a piece.
    Count(u32),
}

/// Most entries of one table.
pub const MAX_ENTRIES: u64 = 1 << 20;

/// The leaves of `e` in order of first appearance.
pub fn inputs(e: &Arith, out: &mut Vec<Input>) {
    match e {
        Arith::Num(_) => {}
        Arith::Var(v) => push_new(out, Input::Var(*v)),
        Arith::PieceCount(p) => push_new(out, Input::Count(*p)),
        Arith::Bin(a, _, b) => {
            inputs(a, out);
            inputs(b, out);
        }
    }
}

fn push_new(out: &mut Vec<Input>, i: Input) {
    if !out.contains(&i) {
        out.push(i);
    }
}

/// Evaluates `e` with `values[k]` for `inputs[k]`; `None` when undefined.
pub fn eval(e: &Arith, inputs: &[Input], values: &[i64]) -> Option<i64> {
    match e {
        Arith::Num(n) => Some(*n),
        Arith::Var(v) => Some(values[pos(inputs, Input::Var(*v))]),
        Arith::PieceCount(p) => Some(values[pos(inputs, Input::Count(*p))]),
        Arith::Bin(a, op, b) => {
            let (x, y) = (eval(a, inputs, values)?, eval(b, inputs, values)?);
            match op {
                ArithOp::Add => x.checked_add(y),
                ArithOp::Sub => x.checked_sub(y),
                ArithOp::Mul => x.checked_mul(y),
                ArithOp::Div => x.checked_div(y),
            }
        }
    }
}

fn pos(inputs: &[Input], i: Input) -> usize {
    inputs
        .iter()
        .position(|&x| x == i)
        .expect("an input of the expression")
}

/// Whether `x op y`.
pub fn compare(x: i64, op: CmpOp, y: i64) -> bool {
    match op {
        CmpOp::Lt => x < y,
        CmpOp::Le => x <= y,
        CmpOp::Eq => x == y,
        CmpOp::Ne => x != y,
        CmpOp::Gt => x > y,
        CmpOp::Ge => x >= y,
    }
}

/// A function of the inputs tabulated: `values` in row-major order over the
/// inputs' ranges `0..=upper[k]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Table {
    /// The inputs.
    pub inputs: Vec<Input>,
    /// Their upper bounds.
    pub upper: Vec<u64>,
    /// The results (`None`: undefined).
    pub values: Vec<Option<i64>>,
}

impl Table {
    /// Tabulates `f` over the inputs with upper bounds `upper`.
    pub fn build(
        inputs: Vec<Input>,
        upper: Vec<u64>,
        f: impl Fn(&[i64]) -> Option<i64>,
    ) -> Result<Table, TranslateError> {
        let size = upper
            .iter()
            .try_fold(1u64, |acc, &u| acc.checked_mul(u + 1))
            .filter(|&s| s <= MAX_ENTRIES)
            .ok_or_else(|| {
                TranslateError(format!(
                    "an expression over {} values needs a table of more than {MAX_ENTRIES} entries",
                    inputs.len()
                ))
            })?;
        let mut values = Vec::with_capacity(size as usize);
        let mut cur = vec![0i64; inputs.len()];
        for _ in 0..size {
            values.push(f(&cur));
            // Next combination, the last input fastest.
            for k in (0..cur.len()).rev() {
                if (cur[k] as u64) < upper[k] {
                    cur[k] += 1;
                    break;
                }
                cur[k] = 0;
            }
        }
        Ok(Table {
            inputs,
            upper,
            values,
        })
    }

    /// The single value when the table has no inputs.
    pub fn constant(&self) -> Option<Option<i64>> {
        self.inputs.is_empty().then(|| self.values[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_follow_the_engine() {
        // (v0 - v1) / 2 over v0 in 0..=3, v1 in 0..=1
        let e = Arith::Bin(
            Box::new(Arith::Bin(
                Box::new(Arith::Var(0)),
                ArithOp::Sub,
                Box::new(Arith::Var(1)),
            )),
            ArithOp::Div,
            Box::new(Arith::Num(2)),
        );
        let mut ins = Vec::new();
        inputs(&e, &mut ins);
        assert_eq!(ins, [Input::Var(0), Input::Var(1)]);
        let t = Table::build(ins.clone(), vec![3, 1], |v| eval(&e, &ins, v)).unwrap();
        let got: Vec<i64> = t.values.iter().map(|v| v.unwrap()).collect();
        // v0=0: 0, -1/2=0; v0=1: 0, 0; v0=2: 1, 0; v0=3: 1, 1
        assert_eq!(got, [0, 0, 0, 0, 1, 0, 1, 1]);
        let div0 = Arith::Bin(
            Box::new(Arith::Num(1)),
            ArithOp::Div,
            Box::new(Arith::Var(0)),
        );
        let t = Table::build(vec![Input::Var(0)], vec![1], |v| {
            eval(&div0, &[Input::Var(0)], v)
        })
        .unwrap();
        assert_eq!(t.values, [None, Some(1)]);
        assert!(Table::build(vec![Input::Var(0); 3], vec![1000; 3], |_| None).is_err());
    }
}
