//! Assignments and comparisons of RBG arithmetic as RG labels: one lookup
//! in a table over all the values the expression reads, or, when that
//! table would be too large, one table per operator (intermediate values
//! get their own number symbols, negative ones too).

use rbg_lang::ast::{Arith, CmpOp};
use rg_lang::ast::{Expr, Label, Type};

use crate::arith::{compare, eval, inputs, Table};
use crate::decls::{assign, cmp, nested_keys, tref, Decls, Step};
use crate::ranges::{self, for_each, Span};
use crate::TranslateError;

/// An expression's value in RG: the expression, its range, and whether it
/// may be undefined (`nan`).
struct Part {
    expr: Expr,
    lo: i64,
    hi: i64,
    nan: bool,
}

impl Decls {
    /// The labels of `place = e` for a variable with bound `bound` (the
    /// value must lie in `0..=bound`), the variables within `spans` (if
    /// known: no guard where every value there is in range); `None` when
    /// it never holds.
    pub fn assign_steps(
        &mut self,
        place: Expr,
        e: &Arith,
        bound: i64,
        spans: Option<&[Span]>,
    ) -> Result<Option<Vec<Step>>, TranslateError> {
        let mut ins = Vec::new();
        inputs(e, &mut ins);
        let upper: Vec<u64> = ins.iter().map(|&i| self.input_bound(i)).collect();
        let ok = |x: &i64| (0..=bound).contains(x);
        let read = match Table::build(ins.clone(), upper, |v| eval(e, &ins, v).filter(ok)) {
            Ok(t) => {
                if let Some(c) = t.constant() {
                    return Ok(c.map(|x| vec![vec![assign(place, Expr::name(x.to_string()))]]));
                }
                if t.values.iter().all(Option::is_none) {
                    return Ok(None);
                }
                let mut nan = t.values.iter().any(Option::is_none);
                if let Some(spans) = spans {
                    // (lowest, highest) value in range, any out of range.
                    let mut got: Option<(i64, i64)> = None;
                    let mut out = false;
                    let vertices = self.vertices.len() as u64;
                    if for_each(&ins, spans, vertices, |v| {
                        match eval(e, &ins, v).filter(ok) {
                            Some(x) => {
                                got = Some(got.map_or((x, x), |(a, b)| (a.min(x), b.max(x))))
                            }
                            None => out = true,
                        }
                    }) {
                        match got {
                            None => return Ok(None),
                            Some((a, b)) if a == b && !out => {
                                return Ok(Some(vec![vec![assign(
                                    place,
                                    Expr::name(a.to_string()),
                                )]]));
                            }
                            _ => nan = out,
                        }
                    }
                }
                (self.table_read(&t, false), nan)
            }
            Err(_) => {
                let p = self.part(e)?;
                if p.lo >= 0 && p.hi <= bound && !p.nan {
                    (p.expr, false)
                } else {
                    let keys: Vec<i64> = (p.lo..=p.hi).collect();
                    let values = keys.iter().map(|x| ok(x).then(|| x.to_string())).collect();
                    let target = self.val_type();
                    (self.unary(&p, &keys, values, &target)?, true)
                }
            }
        };
        let mut steps = Vec::new();
        if read.1 {
            steps.push(vec![cmp(read.0.clone(), Expr::name(&self.nan), false)]);
        }
        steps.push(vec![assign(place, read.0)]);
        Ok(Some(steps))
    }

    /// The labels of `{$ l op r}`, the variables within `spans` (if
    /// known): `None` when it never holds, no steps when it always does.
    pub fn compare_steps(
        &mut self,
        l: &Arith,
        op: CmpOp,
        r: &Arith,
        spans: Option<&[Span]>,
    ) -> Result<Option<Vec<Step>>, TranslateError> {
        let mut ins = Vec::new();
        inputs(l, &mut ins);
        inputs(r, &mut ins);
        let upper: Vec<u64> = ins.iter().map(|&i| self.input_bound(i)).collect();
        let holds = |x: Option<i64>, y: Option<i64>| matches!((x, y), (Some(x), Some(y)) if compare(x, op, y));
        let read = match Table::build(ins.clone(), upper, |v| {
            Some(holds(eval(l, &ins, v), eval(r, &ins, v)) as i64)
        }) {
            Ok(t) => {
                if let Some(c) = t.constant() {
                    return Ok((c == Some(1)).then(Vec::new));
                }
                if t.values.iter().all(|v| *v == Some(0)) {
                    return Ok(None);
                }
                if let Some(spans) = spans {
                    let (mut yes, mut no) = (false, false);
                    let vertices = self.vertices.len() as u64;
                    if for_each(&ins, spans, vertices, |v| {
                        match ranges::holds(l, op, r, &ins, v) {
                            true => yes = true,
                            false => no = true,
                        }
                    }) {
                        match (yes, no) {
                            (true, false) => return Ok(Some(Vec::new())),
                            (false, _) => return Ok(None),
                            _ => {}
                        }
                    }
                }
                self.table_read(&t, true)
            }
            Err(_) => {
                let (a, b) = (self.part(l)?, self.part(r)?);
                let (ka, kb): (Vec<i64>, Vec<i64>) =
                    ((a.lo..=a.hi).collect(), (b.lo..=b.hi).collect());
                check_size(ka.len() as u64 * kb.len() as u64)?;
                let mut values = Vec::new();
                for &x in &ka {
                    for &y in &kb {
                        values.push(if compare(x, op, y) { "1" } else { "0" }.to_string());
                    }
                }
                let keys = vec![self.syms(&ka), self.syms(&kb)];
                let ty = Type::Arrow(
                    Box::new(tref(&self.int_type(a.lo, a.hi, false))),
                    Box::new(Type::Arrow(
                        Box::new(tref(&self.int_type(b.lo, b.hi, false))),
                        Box::new(tref("Bool")),
                    )),
                );
                let name = self.constant("test", ty, nested_keys(&values, &keys, "0"));
                Expr::name(name).at(a.expr).at(b.expr)
            }
        };
        Ok(Some(vec![vec![Label::Compare {
            left: read,
            right: Expr::name("1"),
            equal: true,
        }]]))
    }

    /// `e` as an RG expression, one table per operator.
    fn part(&mut self, e: &Arith) -> Result<Part, TranslateError> {
        Ok(match e {
            Arith::Num(c) => Part {
                expr: Expr::name(self.num(*c)?),
                lo: *c,
                hi: *c,
                nan: false,
            },
            Arith::Var(_) | Arith::PieceCount(_) => {
                let mut ins = Vec::new();
                inputs(e, &mut ins);
                Part {
                    expr: self.input(ins[0]),
                    lo: 0,
                    hi: self.input_bound(ins[0]) as i64,
                    nan: false,
                }
            }
            Arith::Bin(a, op, b) => {
                let (pa, pb) = (self.part(a)?, self.part(b)?);
                let (ka, kb): (Vec<i64>, Vec<i64>) =
                    ((pa.lo..=pa.hi).collect(), (pb.lo..=pb.hi).collect());
                check_size(ka.len() as u64 * kb.len() as u64)?;
                let mut results = Vec::new();
                for &x in &ka {
                    for &y in &kb {
                        results.push(eval(
                            &Arith::Bin(Box::new(Arith::Num(x)), *op, Box::new(Arith::Num(y))),
                            &[],
                            &[],
                        ));
                    }
                }
                let defined: Vec<i64> = results.iter().flatten().copied().collect();
                let (lo, hi) = (
                    defined.iter().copied().min().unwrap_or(0),
                    defined.iter().copied().max().unwrap_or(0),
                );
                let nan = pa.nan || pb.nan || results.iter().any(Option::is_none);
                let values = results
                    .iter()
                    .map(|r| match r {
                        Some(x) => self.num(*x),
                        None => Ok(self.nan.clone()),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                let keys = vec![self.syms(&ka), self.syms(&kb)];
                let ty = Type::Arrow(
                    Box::new(tref(&self.int_type(pa.lo, pa.hi, false))),
                    Box::new(Type::Arrow(
                        Box::new(tref(&self.int_type(pb.lo, pb.hi, false))),
                        Box::new(tref(&self.int_type(lo, hi, true))),
                    )),
                );
                let nan_sym = self.nan.clone();
                let name = self.constant("op", ty, nested_keys(&values, &keys, &nan_sym));
                Part {
                    expr: Expr::name(name).at(pa.expr).at(pb.expr),
                    lo,
                    hi,
                    nan,
                }
            }
        })
    }

    /// A one-input table over `keys` of part `p` (values `None` = `nan`).
    fn unary(
        &mut self,
        p: &Part,
        keys: &[i64],
        values: Vec<Option<String>>,
        target: &str,
    ) -> Result<Expr, TranslateError> {
        let values: Vec<String> = values
            .into_iter()
            .map(|v| v.unwrap_or_else(|| self.nan.clone()))
            .collect();
        let levels = vec![self.syms(keys)];
        let ty = Type::Arrow(
            Box::new(tref(&self.int_type(p.lo, p.hi, false))),
            Box::new(tref(target)),
        );
        let nan = self.nan.clone();
        let name = self.constant("calc", ty, nested_keys(&values, &levels, &nan));
        Ok(Expr::name(name).at(p.expr.clone()))
    }

    /// The symbol of integer `x`.
    fn num(&mut self, x: i64) -> Result<String, TranslateError> {
        if x >= 0 {
            return Ok(x.to_string());
        }
        let minus = match &self.minus {
            Some(m) => m.clone(),
            None => {
                let m = self.names.fresh("minus");
                self.minus = Some(m.clone());
                m
            }
        };
        let name = format!("{minus}{}", x.unsigned_abs());
        if self.names.is_taken(&name) {
            return Err(TranslateError(format!(
                "the name `{name}` is needed for the number {x}"
            )));
        }
        Ok(name)
    }

    fn syms(&mut self, xs: &[i64]) -> Vec<String> {
        xs.iter()
            .map(|&x| self.num(x).expect("checked when the part was made"))
            .collect()
    }

    /// The type of the integers `lo..=hi` (and `nan`).
    fn int_type(&mut self, lo: i64, hi: i64, nan: bool) -> String {
        if let Some(t) = self.int_types.get(&(lo, hi, nan)) {
            return t.clone();
        }
        let mut symbols: Vec<String> = (lo..=hi).map(|x| self.num(x).expect("a number")).collect();
        if nan {
            symbols.insert(0, self.nan.clone());
        }
        let name = self.type_def("Ints", Type::set(symbols));
        self.int_types.insert((lo, hi, nan), name.clone());
        name
    }
}

fn check_size(entries: u64) -> Result<(), TranslateError> {
    if entries > crate::arith::MAX_ENTRIES {
        return Err(TranslateError(format!(
            "an operation needs a table of {entries} entries (more than {})",
            crate::arith::MAX_ENTRIES
        )));
    }
    Ok(())
}
