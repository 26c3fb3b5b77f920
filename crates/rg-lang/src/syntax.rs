//! Syntactic validity of a game built by a program (parsed games always pass):
//! every name is a name the lexer reads back, edge sources do not start with a
//! keyword, unknown pragmas contain no `;`, and nesting stays within
//! [`MAX_NESTING`]. After this, printing gives text that parses back to an
//! equal game, and every later pass may recurse over the tree.

use rbg_lang::{Error, Span};

use crate::ast::{Edge, Expr, Game, Label, Name, Pragma, Type, Value};
use crate::lexer::is_name_char;
use crate::parse::{KEYWORDS, MAX_NESTING};

/// Checks the whole game.
pub fn validate(game: &Game) -> Result<(), Error> {
    for t in &game.types {
        name(&t.name)?;
        ty(&t.ty, 0)?;
    }
    for b in game.constants.iter().chain(&game.variables) {
        name(&b.name)?;
        ty(&b.ty, 0)?;
        value(&b.value, 0)?;
    }
    for e in &game.edges {
        edge(e)?;
    }
    for p in &game.pragmas {
        pragma(p)?;
    }
    Ok(())
}

fn name(n: &Name) -> Result<(), Error> {
    let ok = !n.text.is_empty()
        && n.text.chars().all(is_name_char)
        && !KEYWORDS.contains(&n.text.as_str());
    if ok {
        Ok(())
    } else {
        Err(Error::new(
            n.span(),
            format!("expected a name, found {:?}", n.text),
        ))
    }
}

fn too_deep(span: Span) -> Error {
    Error::new(
        span,
        format!("expected at most {MAX_NESTING} levels of nesting, found more"),
    )
}

fn ty(t: &Type, depth: usize) -> Result<(), Error> {
    if depth > MAX_NESTING {
        return Err(too_deep(t.span()));
    }
    match t {
        Type::Set { symbols, loc } => {
            if symbols.is_empty() {
                return Err(Error::new(
                    loc.0,
                    "expected a symbol in the set type, found none",
                ));
            }
            symbols.iter().try_for_each(name)
        }
        Type::Arrow(a, b) => {
            ty(a, depth + 1)?;
            ty(b, depth + 1)
        }
        Type::Ref(n) => name(n),
    }
}

fn value(v: &Value, depth: usize) -> Result<(), Error> {
    if depth > MAX_NESTING {
        return Err(too_deep(v.span()));
    }
    match v {
        Value::Name(n) => name(n),
        Value::Map { entries, .. } => entries.iter().try_for_each(|e| {
            if let Some(k) = &e.key {
                name(k)?;
            }
            value(&e.value, depth + 1)
        }),
    }
}

fn expr(e: &Expr, depth: usize) -> Result<(), Error> {
    if depth > MAX_NESTING {
        return Err(too_deep(e.span()));
    }
    match e {
        Expr::Ref(n) => name(n),
        Expr::Access { map, key, .. } => {
            expr(map, depth + 1)?;
            expr(key, depth + 1)
        }
        Expr::Cast {
            ty, expr: inner, ..
        } => {
            name(ty)?;
            expr(inner, depth + 1)
        }
    }
}

fn edge(e: &Edge) -> Result<(), Error> {
    name(&e.from)?;
    name(&e.to)?;
    if let Some(k) = KEYWORDS.iter().find(|k| e.from.text.starts_with(**k)) {
        return Err(Error::new(
            e.from.span(),
            format!("expected a source node not starting with `{k}` (it would read as a declaration), found `{}`", e.from),
        ));
    }
    match &e.label {
        Label::Skip => Ok(()),
        Label::Tag(n) | Label::TagVariable(n) => name(n),
        Label::Assign { target, value } => {
            expr(target, 0)?;
            expr(value, 0)
        }
        Label::AssignAny { target, ty: t } => {
            expr(target, 0)?;
            ty(t, 0)
        }
        Label::Compare { left, right, .. } => {
            expr(left, 0)?;
            expr(right, 0)
        }
        Label::Reach { from, to, .. } => {
            name(from)?;
            name(to)
        }
    }
}

fn pragma(p: &Pragma) -> Result<(), Error> {
    match p {
        Pragma::ArtificialTag(list) | Pragma::Unique(list) => list.iter().try_for_each(name),
        Pragma::Disjoint { node, targets, .. } => {
            name(node)?;
            targets.iter().try_for_each(name)
        }
        Pragma::Integer { digits, names } => {
            name(digits)?;
            names.iter().try_for_each(name)
        }
        Pragma::Iterator { nodes, name: n } => {
            nodes.iter().try_for_each(name)?;
            name(n)
        }
        Pragma::Repeat { nodes, variables } => nodes.iter().chain(variables).try_for_each(name),
        Pragma::SimpleApply {
            from,
            to,
            tags,
            assignments,
            ..
        } => {
            name(from)?;
            name(to)?;
            for t in tags {
                name(&t.name)?;
                if let Some(t) = &t.ty {
                    ty(t, 0)?;
                }
            }
            assignments.iter().try_for_each(|(a, b)| {
                expr(a, 0)?;
                expr(b, 0)
            })
        }
        Pragma::TagIndex { nodes, index, .. } => {
            nodes.iter().try_for_each(name)?;
            name(index)
        }
        Pragma::TranslatedFromRbg => Ok(()),
        Pragma::Unknown { text, loc } => {
            if text.contains(';') {
                return Err(Error::new(
                    loc.0,
                    "expected a pragma without `;` in its text, found one",
                ));
            }
            Ok(())
        }
    }
}
