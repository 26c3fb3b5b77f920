//! Translation-time evaluation (`hrg-language.md` §3.2): function calls by
//! pattern matching, arithmetic with the `%` quirk, conditions in natural
//! order, `in`, `if`, map literals.
//!
//! Recursion through function calls is bounded ([`MAX_DEPTH`]) and so is the
//! total work ([`MAX_STEPS`]); both give an error, never a stack overflow or
//! a hang.

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

use rbg_lang::{Error, Span};

use crate::ast::{BinOp, Expr, Function, MapPart, Pattern};
use crate::defs::{for_each_product, Defs};
use crate::value::{compare, MapValue, Value};

/// How deeply evaluation may recurse (expressions and calls together).
pub const MAX_DEPTH: usize = 1000;
/// How many expressions one translation may evaluate.
pub const MAX_STEPS: u64 = 2_000_000;

/// Variables bound by patterns, `where` and `branch`/`repeat`; the last
/// binding of a name wins.
pub type Env<'g> = Vec<(&'g str, Value)>;

fn lookup<'e>(env: &'e Env, name: &str) -> Option<&'e Value> {
    env.iter().rev().find(|(n, _)| *n == name).map(|(_, v)| v)
}

/// A fast hasher for the memo of calls (its keys are short strings and
/// vectors of values; SipHash made tabulating large functions slow).
#[derive(Default)]
struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Evaluates expressions against the game's functions and domains.
pub struct Evaluator<'g, 'd> {
    /// The declarations.
    pub defs: &'d mut Defs<'g>,
    depth: usize,
    steps: u64,
    memo: HashMap<(&'g str, Vec<Value>), Value, BuildHasherDefault<FxHasher>>,
}

impl<'g, 'd> Evaluator<'g, 'd> {
    /// An evaluator over `defs`.
    pub fn new(defs: &'d mut Defs<'g>) -> Self {
        Evaluator {
            defs,
            depth: 0,
            steps: 0,
            memo: HashMap::default(),
        }
    }

    fn enter(&mut self, span: Span) -> Result<(), Error> {
        self.depth += 1;
        self.steps += 1;
        if self.depth > MAX_DEPTH {
            return Err(Error::new(
                span,
                format!(
                    "expected evaluation at most {MAX_DEPTH} calls deep, found deeper recursion"
                ),
            ));
        }
        if self.steps > MAX_STEPS {
            return Err(Error::new(
                span,
                format!("expected at most {MAX_STEPS} evaluation steps, found more (endless recursion?)"),
            ));
        }
        Ok(())
    }

    /// The value of `e`.
    pub fn eval(&mut self, e: &'g Expr, env: &Env<'g>) -> Result<Value, Error> {
        self.enter(e.span())?;
        let v = self.eval_inner(e, env);
        self.depth -= 1;
        v
    }

    fn eval_inner(&mut self, e: &'g Expr, env: &Env<'g>) -> Result<Value, Error> {
        match e {
            Expr::Name(n) if n.is_variable() => lookup(env, &n.text).cloned().ok_or_else(|| {
                Error::new(
                    n.span,
                    format!("expected a bound variable, found `{}` unbound", n.text),
                )
            }),
            Expr::Name(n) => Ok(Value::sym(&n.text)),
            Expr::Constructor(name, args, _) => {
                let mut values = Vec::with_capacity(args.len());
                for a in args {
                    let v = self.eval(a, env)?;
                    if matches!(v, Value::Map(_)) {
                        return Err(Error::new(
                            a.span(),
                            "expected a symbol or a constructor value as an argument, found a map",
                        ));
                    }
                    values.push(v);
                }
                Ok(Value::Ctor(Rc::from(name.text.as_str()), Rc::from(values)))
            }
            Expr::Call(callee, args, span) => {
                let Expr::Name(f) = &**callee else {
                    return Err(Error::new(
                        callee.span(),
                        "expected a function name before `(`, found an expression",
                    ));
                };
                let func = *self.defs.functions.get(f.text.as_str()).ok_or_else(|| {
                    Error::new(
                        f.span,
                        format!("expected a function, found `{}`, which is not one", f.text),
                    )
                })?;
                let mut values = Vec::with_capacity(args.len());
                for a in args {
                    values.push(self.eval(a, env)?);
                }
                self.call(func, values, *span)
            }
            Expr::Access(_, _, span) => Err(Error::new(
                *span,
                "expected a value computable at translation time, found a map access `m[k]`",
            )),
            Expr::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mod), a, b, span) => {
                let x = self.int(a, env)?;
                let y = self.int(b, env)?;
                let r = match op {
                    BinOp::Add => x.checked_add(y),
                    BinOp::Sub => x.checked_sub(y),
                    _ if y == 0 => {
                        return Err(Error::new(
                            *span,
                            "expected a non-zero right side of `%`, found 0",
                        ))
                    }
                    _ => x.checked_add(y).map(|s| s.wrapping_rem(y)),
                };
                r.map(|r| Value::int(r as i64)).ok_or_else(|| {
                    Error::new(
                        *span,
                        "expected arithmetic within 32-bit integers, found an overflow",
                    )
                })
            }
            Expr::Binary(op, _, _, span) => Err(Error::new(
                *span,
                format!(
                    "expected a value, found the condition `{}` (conditions go after `if`)",
                    op.text()
                ),
            )),
            Expr::If(c, a, b, _) => {
                if self.cond(c, env)? {
                    self.eval(a, env)
                } else {
                    self.eval(b, env)
                }
            }
            Expr::Map {
                default,
                parts,
                span,
            } => self.map(default.as_deref(), parts, *span, env),
        }
    }

    fn int(&mut self, e: &'g Expr, env: &Env<'g>) -> Result<i32, Error> {
        let v = self.eval(e, env)?;
        v.as_int().ok_or_else(|| {
            Error::new(
                e.span(),
                format!("expected a number, found {}", v.describe()),
            )
        })
    }

    /// Whether the condition `e` holds.
    pub fn cond(&mut self, e: &'g Expr, env: &Env<'g>) -> Result<bool, Error> {
        self.enter(e.span())?;
        let r = self.cond_inner(e, env);
        self.depth -= 1;
        r
    }

    fn cond_inner(&mut self, e: &'g Expr, env: &Env<'g>) -> Result<bool, Error> {
        let Expr::Binary(op, a, b, span) = e else {
            return Err(not_a_condition(e));
        };
        match op {
            BinOp::And => Ok(self.cond(a, env)? && self.cond(b, env)?),
            BinOp::Or => Ok(self.cond(a, env)? || self.cond(b, env)?),
            BinOp::In => {
                let v = self.eval(a, env)?;
                Ok(match &**b {
                    Expr::Name(d) => self.defs.domain(&d.text).is_some_and(|vs| vs.contains(&v)),
                    _ => false,
                })
            }
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let x = self.eval(a, env)?;
                let y = self.eval(b, env)?;
                let o = compare(&x, &y).ok_or_else(|| {
                    Error::new(
                        *span,
                        format!(
                            "expected comparable values, found {} and {}",
                            x.describe(),
                            y.describe()
                        ),
                    )
                })?;
                Ok(match op {
                    BinOp::Eq => o == Ordering::Equal,
                    BinOp::Ne => o != Ordering::Equal,
                    BinOp::Lt => o == Ordering::Less,
                    BinOp::Le => o != Ordering::Greater,
                    BinOp::Gt => o == Ordering::Greater,
                    _ => o != Ordering::Less,
                })
            }
            BinOp::Add | BinOp::Sub | BinOp::Mod => Err(not_a_condition(e)),
        }
    }

    /// `f(args)`: the first case whose patterns match (memoised).
    pub fn call(&mut self, f: &'g Function, args: Vec<Value>, span: Span) -> Result<Value, Error> {
        self.call_with(f, args, span, true)
    }

    /// [`Evaluator::call`] without storing the result: for tabulating a
    /// function, which evaluates each argument tuple once at the top level
    /// (the calls inside are memoised).
    pub fn call_once(
        &mut self,
        f: &'g Function,
        args: Vec<Value>,
        span: Span,
    ) -> Result<Value, Error> {
        self.call_with(f, args, span, false)
    }

    fn call_with(
        &mut self,
        f: &'g Function,
        args: Vec<Value>,
        span: Span,
        store: bool,
    ) -> Result<Value, Error> {
        let arity = f.cases[0].patterns.len();
        if args.len() != arity {
            return Err(Error::new(
                span,
                format!(
                    "expected {arity} argument(s) for `{}`, found {}",
                    f.name.text,
                    args.len()
                ),
            ));
        }
        let key = (f.name.text.as_str(), args);
        if store {
            if let Some(v) = self.memo.get(&key) {
                return Ok(v.clone());
            }
        }
        let args = key.1;
        for case in &f.cases {
            let mut env = Env::new();
            if case
                .patterns
                .iter()
                .zip(&args)
                .all(|(p, v)| matches(p, v, &mut env))
            {
                let v = self.eval(&case.body, &env)?;
                if matches!(v, Value::Map(_)) {
                    return Err(Error::new(case.body.span(), "expected a function to return a symbol or a constructor value, found a map"));
                }
                if store {
                    self.memo.insert((f.name.text.as_str(), args), v.clone());
                }
                return Ok(v);
            }
        }
        let shown: Vec<String> = args.iter().map(Value::to_string).collect();
        let mut e = Error::new(
            span,
            format!(
                "expected a case of `{}` matching ({}), found none",
                f.name.text,
                shown.join(", ")
            ),
        );
        if span != f.name.span {
            e = e.with_secondary(f.name.span, "the function");
        }
        Err(e)
    }

    /// A map literal: `{ _ = e }` is a map with only a default; `{ :d; ... }`
    /// keeps its entries as written; otherwise the most common value becomes
    /// the default. Entries are sorted by their key's RG text.
    fn map(
        &mut self,
        default: Option<&'g Expr>,
        parts: &'g [MapPart],
        span: Span,
        env: &Env<'g>,
    ) -> Result<Value, Error> {
        if let (None, [part]) = (default, parts) {
            if let Pattern::Wildcard(_) = part.key {
                if let Some(b) = part.bindings.first() {
                    return Err(Error::new(
                        b.var.span,
                        "expected no `where` after a `_` key, found one",
                    ));
                }
                let d = self.eval(&part.value, env)?;
                return Ok(Value::Map(Rc::new(MapValue {
                    default: d,
                    entries: Vec::new(),
                })));
            }
        }
        let default = default.map(|d| self.eval(d, env)).transpose()?;
        let mut entries: Vec<(String, Value, Value)> = Vec::new();
        let mut keys: HashSet<String> = HashSet::new();
        for part in parts {
            self.expand_part(part, env, &mut |key_span, key, text, value| {
                if !keys.insert(text.clone()) {
                    return Err(Error::new(
                        key_span,
                        format!("expected distinct keys in a map, found `{text}` twice"),
                    ));
                }
                entries.push((text, key, value));
                Ok(())
            })?;
        }
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let (default, keep_all) = match default {
            Some(d) => (d, true),
            None => {
                let d = most_common(entries.iter().map(|e| &e.2)).ok_or_else(|| {
                    Error::new(
                        span,
                        "expected at least one entry in a map without a default, found none",
                    )
                })?;
                (d, false)
            }
        };
        let entries = entries
            .into_iter()
            .filter(|e| keep_all || e.2 != default)
            .map(|(_, k, v)| (k, v))
            .collect();
        Ok(Value::Map(Rc::new(MapValue { default, entries })))
    }

    /// Expands one map part over its `where` bindings and reports each
    /// `(key span, key, key text, value)`.
    fn expand_part(
        &mut self,
        part: &'g MapPart,
        env: &Env<'g>,
        out: &mut dyn FnMut(Span, Value, String, Value) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let mut names: Vec<&str> = Vec::new();
        let mut columns = Vec::new();
        for b in &part.bindings {
            if names.contains(&b.var.text.as_str()) {
                return Err(Error::new(
                    b.var.span,
                    format!(
                        "expected distinct `where` variables, found `{}` twice",
                        b.var.text
                    ),
                ));
            }
            names.push(&b.var.text);
            columns.push(self.defs.binding_values(b)?);
        }
        let total = columns
            .iter()
            .try_fold(1usize, |acc, c| acc.checked_mul(c.len()))
            .unwrap_or(usize::MAX);
        self.defs.spend(total, part.key.span())?;
        let mut combos = Vec::new();
        for_each_product(&columns, |c| combos.push(c));
        if part.bindings.is_empty() {
            combos = vec![Vec::new()];
        }
        for combo in combos {
            let mut inner = env.clone();
            for (b, v) in part.bindings.iter().zip(combo) {
                inner.push((&b.var.text, v));
            }
            let key = instantiate(&part.key, &inner)?;
            let text = key.symbol().ok_or_else(|| {
                Error::new(
                    part.key.span(),
                    "expected a symbol or a constructor value as a key, found a map",
                )
            })?;
            let value = self.eval(&part.value, &inner)?;
            out(part.key.span(), key, text, value)?;
        }
        Ok(())
    }
}

fn not_a_condition(e: &Expr) -> Error {
    Error::new(
        e.span(),
        "expected a condition (`==`, `!=`, `<`, `<=`, `>`, `>=`, `in`, `&&`, `||`), found another expression",
    )
}

/// Matches `v` against `p`, binding variables in `env` (a repeated variable
/// does not constrain; the later binding wins).
pub fn matches<'g>(p: &'g Pattern, v: &Value, env: &mut Env<'g>) -> bool {
    match p {
        Pattern::Wildcard(_) => true,
        Pattern::Name(n) if n.is_variable() => {
            env.push((&n.text, v.clone()));
            true
        }
        Pattern::Name(n) => matches!(v, Value::Sym(s) if **s == *n.text),
        Pattern::Constructor(name, ps, _) => match v {
            Value::Ctor(c, args) if **c == *name.text && args.len() == ps.len() => {
                ps.iter().zip(args.iter()).all(|(p, a)| matches(p, a, env))
            }
            _ => false,
        },
    }
}

/// The value a key pattern stands for under `env`.
pub fn instantiate(p: &Pattern, env: &Env) -> Result<Value, Error> {
    match p {
        Pattern::Wildcard(s) => Err(Error::new(
            *s,
            "expected a key, found `_` (only `{ _ = value }` may use it)",
        )),
        Pattern::Name(n) if n.is_variable() => lookup(env, &n.text).cloned().ok_or_else(|| {
            Error::new(
                n.span,
                format!("expected a bound variable, found `{}` unbound", n.text),
            )
        }),
        Pattern::Name(n) => Ok(Value::sym(&n.text)),
        Pattern::Constructor(name, ps, _) => {
            let args = ps
                .iter()
                .map(|p| instantiate(p, env))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Value::Ctor(Rc::from(name.text.as_str()), Rc::from(args)))
        }
    }
}

/// The default that leaves the fewest explicit entries: the most common
/// value; ties go to the greatest by the byte order of its RG text.
pub fn most_common<'a>(values: impl Iterator<Item = &'a Value>) -> Option<Value> {
    let mut counts: HashMap<&Value, usize, BuildHasherDefault<FxHasher>> = HashMap::default();
    let mut order: Vec<&Value> = Vec::new();
    for v in values {
        let c = counts.entry(v).or_insert(0);
        if *c == 0 {
            order.push(v);
        }
        *c += 1;
    }
    order
        .into_iter()
        .map(|v| (counts[v], crate::encode::rg_text(v), v))
        .max_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)))
        .map(|(_, _, v)| v.clone())
}
