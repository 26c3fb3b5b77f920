//! The expander: macro uses, calls with arguments and `~` pasting inside
//! the sections, within the bounds of [`super::Limits`].

use super::defs::{Def, Entry};
use super::{plural, Limits};
use crate::error::{Error, Span};
use crate::lexer::{single_token, Token, TokenKind};

/// Where expansion is happening: the definition whose text is read, the
/// bindings of its parameters, and the nesting depth.
#[derive(Clone, Copy)]
pub(super) struct Ctx<'b> {
    pub(super) def: usize,
    pub(super) args: &'b [Vec<Token>],
    pub(super) depth: usize,
}

/// Results inside the expander: errors are boxed to keep the frames of the
/// recursive functions small.
pub(super) type R<T> = std::result::Result<T, Box<Error>>;

/// "No entry" in the per-token tables.
pub(super) const NONE: u32 = u32::MAX;

/// Why a token string ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stop {
    End,
    Semicolon,
    Close,
}

pub(super) struct Expander<'a> {
    pub(super) tokens: &'a [Token],
    pub(super) defs: &'a [Def],
    /// The macros of each name.
    pub(super) entries: &'a [&'a Entry],
    /// For each token: index in `entries` of the macros it names, or [`NONE`].
    pub(super) resolved: &'a [u32],
    /// For each token in a macro body: the parameter it names, or [`NONE`].
    pub(super) param_of: &'a [u32],
    pub(super) limits: Limits,
    pub(super) used: usize,
    pub(super) pasted_bytes: usize,
    /// The macro use, written in the section being expanded, whose expansion
    /// is in progress.
    pub(super) outer_use: Option<Span>,
    /// See [`super::Sections::unexpanded`].
    pub(super) unexpanded: Vec<Error>,
}

impl<'a> Expander<'a> {
    #[inline]
    fn charge(&mut self, n: usize, at: Span) -> R<()> {
        self.used = self.used.saturating_add(n);
        if self.used > self.limits.max_tokens {
            return Err(self.too_many_tokens(at));
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn too_many_tokens(&self, at: Span) -> Box<Error> {
        Box::new(Error::new(
            self.outer_use.unwrap_or(at),
            format!("macro expansion exceeds {} tokens", self.limits.max_tokens),
        ))
    }

    #[inline]
    fn enter(&self, depth: usize, at: Span) -> R<usize> {
        let depth = depth + 1;
        if depth > self.limits.max_depth {
            return Err(self.too_deep(at));
        }
        Ok(depth)
    }

    #[cold]
    #[inline(never)]
    fn too_deep(&self, at: Span) -> Box<Error> {
        let mut e = Error::new(
            at,
            format!(
                "macro expansion nested deeper than {} levels",
                self.limits.max_depth
            ),
        );
        if let Some(u) = self.outer_use.filter(|&u| u != at) {
            e = e.with_secondary(u, "in the expansion of this macro use");
        }
        Box::new(e)
    }

    /// The error for an argument list of the call at `call` (the name
    /// token's index) running into the end of definition `d`'s text.
    #[cold]
    #[inline(never)]
    fn unclosed(&self, d: usize, call: usize) -> Box<Error> {
        let def = &self.defs[d];
        let end = if def.body.end >= self.tokens.len() {
            "the end of the file".to_string()
        } else if def.section.is_some() {
            format!("the end of section `#{}`", def.name)
        } else {
            format!("the end of the definition of macro `{}`", def.name)
        };
        let name = &self.tokens[call];
        let open = self.tokens.get(call + 1).map_or(name.span, |t| t.span);
        Box::new(Error::new(
            name.span.to(open),
            format!(
                "unclosed argument list of macro `{}`: expected `)`, found {end}",
                name.kind.text()
            ),
        ))
    }

    /// Expands the token string starting at `*pos` of definition `ctx.def`'s
    /// text. With `call = Some(i)` it is an argument of the macro call whose
    /// name is token `i`, and stops after a `;` or `)` at parenthesis depth 0;
    /// otherwise it runs to `end`. Output is appended to `out`.
    pub(super) fn expand_seq(
        &mut self,
        ctx: Ctx<'_>,
        pos: &mut usize,
        end: usize,
        call: Option<usize>,
        out: &mut Vec<Token>,
    ) -> R<Stop> {
        let tokens = self.tokens;
        let in_macro = self.defs[ctx.def].section.is_none();
        let mut parens = 0usize;
        // Start of the output of the current `~` chain.
        let mut chain_start = out.len();
        // The `~` waiting for its right operand.
        let mut pending: Option<usize> = None;
        let mut any_unit = false;
        loop {
            let i = *pos;
            let Some(tok) = tokens.get(i).filter(|_| i < end) else {
                if let Some(t) = pending {
                    return Err(tilde_error(tokens, t, TildeError::AtEnd));
                }
                if let Some(c) = call {
                    return Err(self.unclosed(ctx.def, c));
                }
                return Ok(Stop::End);
            };
            if in_macro {
                self.charge(1, tok.span)?;
            }
            if call.is_some() && parens == 0 {
                let stop = match tok.kind {
                    TokenKind::Semicolon => Some(Stop::Semicolon),
                    TokenKind::RParen => Some(Stop::Close),
                    _ => None,
                };
                if let Some(stop) = stop {
                    if let Some(t) = pending {
                        return Err(tilde_error(tokens, t, TildeError::AtEnd));
                    }
                    *pos += 1;
                    return Ok(stop);
                }
            }
            if tok.kind == TokenKind::Tilde {
                let problem = if !in_macro {
                    Some(TildeError::InSection)
                } else if pending.is_some() {
                    Some(TildeError::Twice)
                } else if !any_unit {
                    Some(TildeError::AtStart)
                } else {
                    None
                };
                if let Some(p) = problem {
                    return Err(tilde_error(tokens, i, p));
                }
                pending = Some(i);
                *pos += 1;
                continue;
            }
            let unit_start = out.len();
            match &tok.kind {
                TokenKind::Ident(_) => self.ident(ctx, pos, end, out)?,
                kind => {
                    match kind {
                        TokenKind::LParen => parens += 1,
                        TokenKind::RParen => parens = parens.saturating_sub(1),
                        _ => {}
                    }
                    out.push(tok.clone());
                    *pos += 1;
                }
            }
            any_unit = true;
            match pending.take() {
                Some(tilde) => {
                    if chain_start < unit_start && unit_start < out.len() {
                        self.paste(out, unit_start, tilde)?;
                    }
                }
                None => chain_start = unit_start,
            }
        }
    }

    /// Pastes `out[at - 1]` and `out[at]` into one token; `tilde` is the
    /// index of the `~` token.
    #[inline(never)]
    fn paste(&mut self, out: &mut Vec<Token>, at: usize, tilde: usize) -> R<()> {
        let tokens = self.tokens;
        let tilde_span = tokens[tilde].span;
        let (left, right) = (&out[at - 1], &out[at]);
        let text = format!("{}{}", left.kind.text(), right.kind.text());
        self.pasted_bytes = self.pasted_bytes.saturating_add(text.len());
        if self.pasted_bytes > self.limits.max_paste_bytes {
            return Err(Box::new(Error::new(
                self.outer_use.unwrap_or(tilde_span),
                format!(
                    "token pasting produces more than {} bytes of text",
                    self.limits.max_paste_bytes
                ),
            )));
        }
        let Some(kind) = single_token(&text) else {
            return Err(Box::new(Error::new(
                tilde_span,
                format!(
                    "invalid token paste: {} ~ {} gives `{text}`, which is not a single token",
                    left.describe(),
                    right.describe()
                ),
            )));
        };
        // Pieces written right around this `~` keep their source range.
        let raw_left = tilde.checked_sub(1).and_then(|i| tokens.get(i));
        let raw_right = tokens.get(tilde + 1);
        let from_here = raw_left
            .is_some_and(|l| l.span.end == left.span.end && l.span.end <= tilde_span.start)
            && raw_right.is_some_and(|r| r.span == right.span);
        let span = if from_here {
            left.span.to(right.span)
        } else {
            tilde_span
        };
        out[at - 1] = Token { kind, span };
        out.remove(at);
        Ok(())
    }

    /// Handles the identifier at `*pos`: a parameter, a macro use, or a plain
    /// token.
    fn ident(&mut self, ctx: Ctx<'_>, pos: &mut usize, end: usize, out: &mut Vec<Token>) -> R<()> {
        let tokens = self.tokens;
        let defs = self.defs;
        let at = *pos;
        let tok = &tokens[at];
        if let Some(arg) = ctx.args.get(self.param_of[at] as usize) {
            self.charge(arg.len(), tok.span)?;
            out.extend_from_slice(arg);
            *pos += 1;
            return Ok(());
        }
        let order = defs[ctx.def].order;
        let visible = |d: &usize| defs[*d].order < order;
        let Some(entry) = self.entries.get(self.resolved[at] as usize) else {
            out.push(tok.clone());
            *pos += 1;
            return Ok(());
        };
        let zero = entry.zero.filter(visible);
        let is_call = zero.is_some()
            || (at + 1 < end
                && tokens.get(at + 1).map(|t| &t.kind) == Some(&TokenKind::LParen)
                && entry.with_params.iter().any(visible));
        if !is_call {
            self.left_plain(ctx.def, tok, entry);
            out.push(tok.clone());
            *pos += 1;
            return Ok(());
        }
        let outermost = ctx.depth == 0;
        if outermost {
            self.outer_use = Some(tok.span);
        }
        let r = match zero {
            Some(callee) => {
                *pos += 1;
                self.invoke(ctx, tok.span, callee, &[], out)
            }
            None => self.call(ctx, entry, pos, end, out),
        };
        match r {
            Err(e) if outermost => Err(with_use(e, tok.span)),
            r => r,
        }
    }

    /// Records why `tok`, a name of the macros `entry` read in definition
    /// `d`, stays a plain token (see [`super::Sections::unexpanded`]).
    #[cold]
    #[inline(never)]
    fn left_plain(&mut self, d: usize, tok: &Token, entry: &Entry) {
        let defs = self.defs;
        let name = tok.kind.text();
        let order = defs[d].order;
        let mut e = if entry.with_params.iter().any(|&m| defs[m].order < order) {
            let mut arities: Vec<usize> = entry
                .with_params
                .iter()
                .map(|&m| defs[m].params.len())
                .collect();
            arities.sort_unstable();
            let first = &defs[entry.with_params[0]];
            Error::new(
                tok.span,
                format!(
                    "macro `{name}` takes {} but is used without `(`: write `{name}({})`",
                    plural(arities[0], "argument"),
                    first.params.join("; ")
                ),
            )
            .with_secondary(first.header, "defined here")
        } else {
            // Only definitions at or after this one: a definition sees the
            // macros above it only.
            let callee = entry.zero.or(entry.with_params.first().copied());
            let Some(callee) = callee else { return };
            if callee == d {
                Error::new(
                    tok.span,
                    format!(
                        "macro `{name}` is used in its own definition: macros cannot be recursive"
                    ),
                )
            } else {
                let user = if defs[d].section.is_some() {
                    format!("section `#{}`", defs[d].name)
                } else {
                    format!("macro `{}`", defs[d].name)
                };
                Error::new(
                    tok.span,
                    format!(
                        "macro `{name}` is defined after {user}, which uses it: a definition sees only the macros above it (so macros cannot be recursive)"
                    ),
                )
                .with_secondary(defs[callee].header, "defined here")
            }
        };
        if let Some(u) = self.outer_use.filter(|&u| u != tok.span) {
            e = e.with_secondary(u, "in the expansion of this macro use");
        }
        self.unexpanded.push(e);
    }

    /// Expands the call of a macro with parameters whose name is at `*pos`
    /// (followed by `(`).
    #[inline(never)]
    fn call(
        &mut self,
        ctx: Ctx<'_>,
        entry: &Entry,
        pos: &mut usize,
        end: usize,
        out: &mut Vec<Token>,
    ) -> R<()> {
        let defs = self.defs;
        let at = *pos;
        let span = self.tokens[at].span;
        let order = defs[ctx.def].order;
        let depth = self.enter(ctx.depth, span)?;
        let arg_ctx = Ctx { depth, ..ctx };
        *pos += 2;
        let mut args: Vec<Vec<Token>> = Vec::new();
        loop {
            let mut arg = Vec::new();
            let stop = self.expand_seq(arg_ctx, pos, end, Some(at), &mut arg)?;
            args.push(arg);
            if stop == Stop::Close {
                break;
            }
        }
        let callee = entry
            .with_params
            .iter()
            .copied()
            .find(|&d| defs[d].order < order && defs[d].params.len() == args.len());
        match callee {
            Some(callee) => self.invoke(ctx, span, callee, &args, out),
            None => Err(self.arity_error(entry, order, at, args.len())),
        }
    }

    #[cold]
    #[inline(never)]
    fn arity_error(&self, entry: &Entry, order: usize, at: usize, given: usize) -> Box<Error> {
        let defs = self.defs;
        let mut arities: Vec<usize> = entry
            .with_params
            .iter()
            .filter(|&&d| defs[d].order < order)
            .map(|&d| defs[d].params.len())
            .collect();
        arities.sort_unstable();
        let list = match arities.split_last() {
            Some((last, [])) => last.to_string(),
            Some((last, rest)) => {
                let rest: Vec<String> = rest.iter().map(|a| a.to_string()).collect();
                format!("{} or {last}", rest.join(", "))
            }
            None => String::new(),
        };
        let noun = if arities == [1] {
            "argument"
        } else {
            "arguments"
        };
        let tok = &self.tokens[at];
        Box::new(Error::new(
            tok.span,
            format!(
                "macro `{}` takes {list} {noun}, {given} given",
                tok.kind.text()
            ),
        ))
    }

    /// Expands the body of macro `callee` with `args` bound to its parameters.
    fn invoke(
        &mut self,
        caller: Ctx<'_>,
        at: Span,
        callee: usize,
        args: &[Vec<Token>],
        out: &mut Vec<Token>,
    ) -> R<()> {
        let depth = self.enter(caller.depth, at)?;
        let body = self.defs[callee].body.clone();
        let mut pos = body.start;
        let ctx = Ctx {
            def: callee,
            args,
            depth,
        };
        self.expand_seq(ctx, &mut pos, body.end, None, out)?;
        Ok(())
    }
}

/// Adds a label at the outermost macro use `span` to an error found while
/// expanding it.
#[cold]
#[inline(never)]
pub(super) fn with_use(e: Box<Error>, span: Span) -> Box<Error> {
    if e.span == span || e.secondary.iter().any(|(s, _)| *s == span) {
        e
    } else {
        Box::new(e.with_secondary(span, "in the expansion of this macro use"))
    }
}

#[derive(Clone, Copy)]
pub(super) enum TildeError {
    InSection,
    Twice,
    AtStart,
    AtEnd,
}

#[cold]
#[inline(never)]
pub(super) fn tilde_error(tokens: &[Token], tilde: usize, kind: TildeError) -> Box<Error> {
    let span = tokens.get(tilde).map_or_else(Span::default, |t| t.span);
    let msg = match kind {
        TildeError::InSection => "token pasting with `~` is only allowed inside macro definitions",
        TildeError::Twice => "`~` cannot follow another `~`: expected a token to paste",
        TildeError::AtStart => {
            "`~` at the start of a token string: expected a token to paste before it"
        }
        TildeError::AtEnd => "`~` at the end of a token string: expected a token to paste after it",
    };
    Box::new(Error::new(span, msg))
}
