//! Translation-time values as RG values: symbols checked to be RG names,
//! maps with their default first, and functions tabulated into nested
//! constant maps with the most common value of each level as its default
//! (`hrg-language.md` §3.1, §4.5, §4.6).

use std::collections::HashSet;
use std::rc::Rc;

use rbg_lang::{Error, Span};
use rg_lang::ast::{self as rg, Name};

use crate::ast::Function;
use crate::defs::Shape;
use crate::eval::{most_common, Evaluator};
use crate::lexer::{is_name_char, KEYWORDS};
use crate::value::{MapValue, Value};

/// At most this many argument combinations per function.
pub const MAX_CALLS: usize = 1 << 20;

/// The RG text of a value (symbol, or `{ :d, k: v, ... }`).
pub fn rg_text(v: &Value) -> String {
    match v {
        Value::Map(m) => {
            let mut s = format!("{{ :{}", rg_text(&m.default));
            for (k, v) in &m.entries {
                s.push_str(&format!(", {}: {}", rg_text(k), rg_text(v)));
            }
            s.push_str(" }");
            s
        }
        v => v.symbol().expect("not a map"),
    }
}

/// Whether `s` can be written as an RG name.
pub fn is_rg_name(s: &str) -> bool {
    !s.is_empty() && s.chars().all(is_name_char) && !KEYWORDS.contains(&s)
}

/// A non-map value as an RG symbol.
pub fn symbol(v: &Value, span: Span) -> Result<Name, Error> {
    let s = v.symbol().ok_or_else(|| {
        Error::new(
            span,
            "expected a symbol or a constructor value, found a map",
        )
    })?;
    if !is_rg_name(&s) {
        return Err(Error::new(
            span,
            format!("expected a value that is an RG name, found `{s}` (negative numbers cannot leave translation)"),
        ));
    }
    Ok(Name::at(s, span))
}

/// A value as an RG value (maps with their default entry first).
pub fn to_rg(v: &Value, span: Span) -> Result<rg::Value, Error> {
    match v {
        Value::Map(m) => {
            let mut entries = vec![rg::Entry {
                key: None,
                value: to_rg(&m.default, span)?,
            }];
            for (k, v) in &m.entries {
                entries.push(rg::Entry {
                    key: Some(symbol(k, span)?),
                    value: to_rg(v, span)?,
                });
            }
            Ok(rg::Value::Map {
                entries,
                loc: rg::Loc(span),
            })
        }
        v => Ok(rg::Value::Name(symbol(v, span)?)),
    }
}

/// The value of a function as a nested constant map over its parameters'
/// domains (keys in domain order, each level with its most common value as
/// the default).
pub fn function_table<'g>(ev: &mut Evaluator<'g, '_>, f: &'g Function) -> Result<Value, Error> {
    let arity = f.cases[0].patterns.len();
    if arity == 0 {
        return Err(Error::new(
            f.cases[0].span,
            format!(
                "expected at least one parameter of the function `{}`, found none",
                f.name.text
            ),
        ));
    }
    if let Some(c) = f.cases.iter().find(|c| c.patterns.len() != arity) {
        return Err(Error::new(
            c.span,
            format!(
                "expected {arity} pattern(s) as in the first case of `{}`, found {}",
                f.name.text,
                c.patterns.len()
            ),
        ));
    }
    let mut shape = ev.defs.shape(&f.ty)?;
    let mut sources = Vec::new();
    while sources.len() < arity {
        match shape {
            Shape::Arrow(a, b) => {
                let Shape::Set(values) = *a else {
                    return Err(Error::new(f.ty.span(), "expected parameter types that are sets, found a map type"));
                };
                sources.push(distinct(values));
                shape = *b;
            }
            Shape::Set(_) => {
                return Err(Error::new(
                    f.ty.span(),
                    format!("expected a type with at least {arity} arrow(s) for the cases of `{}`, found fewer", f.name.text),
                ))
            }
        }
    }
    sources
        .iter()
        .try_fold(1usize, |acc, s| acc.checked_mul(s.len()))
        .filter(|&t| t <= MAX_CALLS)
        .ok_or_else(|| {
            Error::new(
                f.name.span,
                format!(
                    "expected at most {MAX_CALLS} argument combinations for `{}`, found more",
                    f.name.text
                ),
            )
        })?;
    let mut args = Vec::with_capacity(arity);
    table(ev, f, &sources, &mut args)
}

fn distinct(values: Rc<[Value]>) -> Vec<Value> {
    let mut seen = HashSet::new();
    values
        .iter()
        .filter(|v| seen.insert((*v).clone()))
        .cloned()
        .collect()
}

fn table<'g>(
    ev: &mut Evaluator<'g, '_>,
    f: &'g Function,
    sources: &[Vec<Value>],
    args: &mut Vec<Value>,
) -> Result<Value, Error> {
    let level = args.len();
    if level == sources.len() {
        return ev.call_once(f, args.clone(), f.name.span);
    }
    let mut children = Vec::with_capacity(sources[level].len());
    for k in &sources[level] {
        args.push(k.clone());
        let v = table(ev, f, sources, args);
        args.pop();
        children.push((k.clone(), v?));
    }
    let Some(default) = most_common(children.iter().map(|c| &c.1)) else {
        return Err(Error::new(
            f.ty.span(),
            "expected parameter types with values, found an empty one",
        ));
    };
    let entries = children.into_iter().filter(|c| c.1 != default).collect();
    Ok(Value::Map(Rc::new(MapValue { default, entries })))
}
