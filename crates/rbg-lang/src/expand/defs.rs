//! The file's definitions (`#name = body`, `#name(p1; ...) = body`) before
//! expansion: names, parameters and body ranges, with their errors.

use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;

use super::SECTION_NAMES;
use crate::error::{Error, Result, Span};
use crate::lexer::{Token, TokenKind};

/// One `#name ... = body` definition.
#[derive(Debug)]
pub(super) struct Def {
    /// Context order: index in the file.
    pub(super) order: usize,
    pub(super) name: Rc<str>,
    /// `#name` (plus the parameter list, if any).
    pub(super) header: Span,
    pub(super) params: Vec<Rc<str>>,
    pub(super) param_index: HashMap<Rc<str>, usize>,
    /// The body's token range.
    pub(super) body: Range<usize>,
    /// Index in [`SECTION_NAMES`] for sections.
    pub(super) section: Option<usize>,
}

/// The macros of one name: either one without parameters, or several with
/// parameters of distinct arities.
#[derive(Debug, Default)]
pub(super) struct Entry {
    pub(super) zero: Option<usize>,
    pub(super) with_params: Vec<usize>,
}

fn found(tokens: &[Token], i: usize) -> String {
    match tokens.get(i) {
        Some(t) => t.describe(),
        None => "the end of the file".to_string(),
    }
}

fn span_at(tokens: &[Token], i: usize, end: Span) -> Span {
    tokens.get(i).map_or(end, |t| t.span)
}

pub(super) fn parse_definitions(tokens: &[Token], end: Span) -> Result<Vec<Def>> {
    let mut defs = Vec::new();
    let mut i = 0;
    if tokens.is_empty() {
        return Err(Error::new(
            end,
            "missing section `#players`: the description is empty",
        ));
    }
    while i < tokens.len() {
        let hash = &tokens[i];
        if hash.kind != TokenKind::Hash {
            return Err(Error::new(
                hash.span,
                format!(
                    "expected `#` to start a section or macro definition, found {}",
                    hash.describe()
                ),
            ));
        }
        let name = match tokens.get(i + 1).map(|t| &t.kind) {
            Some(TokenKind::Ident(name)) => name.clone(),
            _ => {
                return Err(Error::new(
                    span_at(tokens, i + 1, end),
                    format!(
                        "expected a section or macro name after `#`, found {}",
                        found(tokens, i + 1)
                    ),
                ))
            }
        };
        let name_span = tokens[i + 1].span;
        let section = SECTION_NAMES.iter().position(|s| **s == *name);
        let mut header = hash.span.to(name_span);
        let mut j = i + 2;
        let mut params: Vec<Rc<str>> = Vec::new();
        let mut param_index = HashMap::new();
        let mut param_spans: Vec<Span> = Vec::new();
        if tokens.get(j).map(|t| &t.kind) == Some(&TokenKind::LParen) {
            if section.is_some() {
                return Err(Error::new(
                    header.to(tokens[j].span),
                    format!(
                        "`{name}` is a section name and cannot be used as a macro name (sections take no parameters)"
                    ),
                ));
            }
            j += 1;
            loop {
                let (p, pspan) = match tokens.get(j) {
                    Some(Token {
                        kind: TokenKind::Ident(p),
                        span,
                    }) => (p.clone(), *span),
                    _ => {
                        return Err(Error::new(
                            span_at(tokens, j, end),
                            format!(
                                "expected a parameter name of macro `{name}`, found {}",
                                found(tokens, j)
                            ),
                        ))
                    }
                };
                if let Some(&k) = param_index.get(&p) {
                    return Err(Error::new(
                        pspan,
                        format!("duplicate parameter `{p}` of macro `{name}`"),
                    )
                    .with_secondary(param_spans[k], "first declared here"));
                }
                param_index.insert(p.clone(), params.len());
                params.push(p);
                param_spans.push(pspan);
                j += 1;
                match tokens.get(j).map(|t| &t.kind) {
                    Some(TokenKind::Semicolon) => j += 1,
                    Some(TokenKind::RParen) => {
                        header = header.to(tokens[j].span);
                        j += 1;
                        break;
                    }
                    _ => {
                        return Err(Error::new(
                            span_at(tokens, j, end),
                            format!(
                            "expected `;` or `)` in the parameter list of macro `{name}`, found {}",
                            found(tokens, j)
                        ),
                        ))
                    }
                }
            }
        }
        if tokens.get(j).map(|t| &t.kind) != Some(&TokenKind::Assign) {
            let what = if section.is_some() {
                format!("expected `=` after `#{name}`")
            } else if params.is_empty() {
                format!("expected `=` or `(` after macro name `#{name}`")
            } else {
                format!("expected `=` after the parameters of macro `#{name}`")
            };
            return Err(Error::new(
                span_at(tokens, j, end),
                format!("{what}, found {}", found(tokens, j)),
            ));
        }
        let start = j + 1;
        let mut k = start;
        while k < tokens.len() && tokens[k].kind != TokenKind::Hash {
            k += 1;
        }
        defs.push(Def {
            order: defs.len(),
            name,
            header,
            params,
            param_index,
            body: start..k,
            section,
        });
        i = k;
    }
    Ok(defs)
}
