//! HL-RBG macro expansion: turns the token list of a whole file into the
//! expanded token lists of the five sections (paper appendix, "High level
//! RBG" → "Macro system").
//!
//! # Semantics
//!
//! * A file is a sequence of definitions, each starting with `#` and a name.
//!   `#players`, `#pieces`, `#variables`, `#board` and `#rules` are sections
//!   (`#name = tokens`); every other name is a macro, `#name = body` or
//!   `#name(p1; ...; pk) = body`. A definition runs until the next `#` or the
//!   end of the file. Its index in the file is its *context order*.
//! * Only the five sections are expanded. Text written in a definition sees
//!   only the macros defined strictly before that definition, so a macro never
//!   sees itself and recursion is impossible.
//! * An identifier naming a visible 0-arity macro expands to the macro's body
//!   (expanded in the macro's own context); a following `(` is left alone.
//!   An identifier naming only macros with parameters is a call when followed
//!   by `(`: the arguments are split on `;` at round-parenthesis depth 0 (braces
//!   and brackets do not nest), expanded in the caller's context, and bound to
//!   the callee's parameters. Without `(` the identifier is a plain token.
//!   Parameters shadow macros; substituted arguments are not rescanned.
//! * `a~b` pastes the last token of the left operand's expansion to the first
//!   token of the right operand's expansion (operands: a plain token, a
//!   parameter, or a macro call with its arguments). If one side expands to
//!   nothing, the other is kept as is. Chains are left-associative. The result
//!   must be a single legal token and is never expanded as a macro. `~` is
//!   allowed only inside macro bodies.
//! * Expansion is bounded: at most [`Limits::max_tokens`] units of work
//!   (tokens read from macro bodies plus tokens copied from arguments, which
//!   bounds the number of produced tokens), at most [`Limits::max_depth`]
//!   nested macro bodies/argument lists, and at most
//!   [`Limits::max_paste_bytes`] bytes of text produced by `~`.

use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;

use crate::error::{Error, Result, Span};
use crate::lexer::{single_token, Token, TokenKind};

/// One section's expanded tokens.
#[derive(Clone, Debug, Default)]
pub struct Section {
    /// Span of the `#name` that opens the section.
    pub header: Span,
    /// Expanded tokens after the `=`.
    pub tokens: Vec<Token>,
}

/// The five sections of a description, expanded.
#[derive(Clone, Debug, Default)]
pub struct Sections {
    /// `#players`
    pub players: Section,
    /// `#pieces`
    pub pieces: Section,
    /// `#variables`
    pub variables: Section,
    /// `#board`
    pub board: Section,
    /// `#rules`
    pub rules: Section,
    /// An empty span at the end of the file (for "unexpected end" errors).
    pub end: Span,
    /// Identifiers naming macros that were left as plain tokens (a macro
    /// with parameters without `(`, a macro used in or before its own
    /// definition), each with the error that explains it. A parse error at
    /// such a token is replaced by its explanation.
    pub unexpanded: Vec<Error>,
}

impl Sections {
    /// The section with index `i` in [`SECTION_NAMES`] order.
    pub fn get(&self, i: usize) -> Option<&Section> {
        match i {
            0 => Some(&self.players),
            1 => Some(&self.pieces),
            2 => Some(&self.variables),
            3 => Some(&self.board),
            4 => Some(&self.rules),
            _ => None,
        }
    }

    fn get_mut(&mut self, i: usize) -> &mut Section {
        match i {
            0 => &mut self.players,
            1 => &mut self.pieces,
            2 => &mut self.variables,
            3 => &mut self.board,
            _ => &mut self.rules,
        }
    }
}

/// Names of the sections, in the order used in messages.
pub const SECTION_NAMES: [&str; 5] = ["players", "pieces", "variables", "board", "rules"];

/// Default bound on the work of expanding all sections (see [`Limits`]).
pub const MAX_EXPANDED_TOKENS: usize = 2_000_000;
/// Default bound on nested macro expansions.
pub const MAX_NESTING: usize = 256;
/// Default bound on the total text produced by `~`.
pub const MAX_PASTE_BYTES: usize = 1_000_000;

/// Resource bounds of the expander.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Bound, over all sections, on the tokens read from macro bodies plus the
    /// tokens copied from arguments; every token produced by a macro is
    /// counted at least once, so this also bounds the output.
    pub max_tokens: usize,
    /// Bound on nested expansions (macro bodies and argument lists).
    pub max_depth: usize,
    /// Bound on the total length of the texts made by `~`.
    pub max_paste_bytes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_tokens: MAX_EXPANDED_TOKENS,
            max_depth: MAX_NESTING,
            max_paste_bytes: MAX_PASTE_BYTES,
        }
    }
}

/// Expands all macros and splits the file into its sections.
pub fn expand(tokens: &[Token], text_len: usize) -> Result<Sections> {
    expand_with_limits(tokens, text_len, Limits::default())
}

/// [`expand`] with explicit resource bounds.
pub fn expand_with_limits(tokens: &[Token], text_len: usize, limits: Limits) -> Result<Sections> {
    let end = Span::new(text_len, text_len);
    let defs = parse_definitions(tokens, end)?;
    let mut sections: [Option<usize>; 5] = [None; 5];
    let mut names: HashMap<Rc<str>, Entry> = HashMap::new();
    for (d, def) in defs.iter().enumerate() {
        if let Some(s) = def.section {
            if let Some(prev) = sections[s] {
                return Err(Error::new(
                    def.header,
                    format!("section `#{}` is defined twice", def.name),
                )
                .with_secondary(defs[prev].header, "first defined here"));
            }
            sections[s] = Some(d);
            continue;
        }
        let entry = names.entry(def.name.clone()).or_default();
        let clash = |prev: usize, msg: String| {
            Err(Error::new(def.header, msg)
                .with_secondary(defs[prev].header, "previously defined here"))
        };
        if def.params.is_empty() {
            if let Some(prev) = entry.zero {
                return clash(prev, format!("macro `{}` is defined twice", def.name));
            }
            if let Some(&prev) = entry.with_params.first() {
                return clash(
                    prev,
                    format!(
                        "macro `{}` is defined both without and with parameters",
                        def.name
                    ),
                );
            }
            entry.zero = Some(d);
        } else {
            if let Some(prev) = entry.zero {
                return clash(
                    prev,
                    format!(
                        "macro `{}` is defined both without and with parameters",
                        def.name
                    ),
                );
            }
            let arity = def.params.len();
            if let Some(&prev) = entry
                .with_params
                .iter()
                .find(|&&p| defs[p].params.len() == arity)
            {
                return clash(
                    prev,
                    format!(
                        "macro `{}` with {} is defined twice",
                        def.name,
                        plural(arity, "parameter")
                    ),
                );
            }
            entry.with_params.push(d);
        }
    }
    for (k, s) in sections.iter().enumerate() {
        if s.is_none() {
            return Err(Error::new(
                end,
                format!(
                    "missing section `#{}`: every description needs #players, #pieces, #variables, #board and #rules",
                    SECTION_NAMES[k]
                ),
            ));
        }
    }
    // Resolve every identifier once: the macro entry of its name and, inside
    // a macro body, the index of the parameter it names.
    let mut entries: Vec<&Entry> = Vec::with_capacity(names.len());
    let mut entry_index: HashMap<&str, u32> = HashMap::with_capacity(names.len());
    for (name, entry) in &names {
        entry_index.insert(name, entries.len() as u32);
        entries.push(entry);
    }
    let mut resolved = vec![NONE; tokens.len()];
    let mut param_of = vec![NONE; tokens.len()];
    for def in &defs {
        for i in def.body.clone() {
            if let TokenKind::Ident(name) = &tokens[i].kind {
                if let Some(&k) = def.param_index.get(name) {
                    param_of[i] = k as u32;
                }
                if let Some(&e) = entry_index.get(&**name) {
                    resolved[i] = e;
                }
            }
        }
    }
    let mut ex = Expander {
        tokens,
        defs: &defs,
        entries: &entries,
        resolved: &resolved,
        param_of: &param_of,
        limits,
        used: 0,
        pasted_bytes: 0,
        outer_use: None,
        unexpanded: Vec::new(),
    };
    let mut out = Sections {
        end,
        ..Sections::default()
    };
    // Expand in file order so that the first error in the file is reported.
    let mut order: Vec<(usize, usize)> = sections
        .iter()
        .enumerate()
        .filter_map(|(k, d)| d.map(|d| (d, k)))
        .collect();
    order.sort_unstable();
    for (d, k) in order {
        let def = &defs[d];
        let mut pos = def.body.start;
        let mut toks = Vec::new();
        ex.outer_use = None;
        let ctx = Ctx {
            def: d,
            args: &[],
            depth: 0,
        };
        ex.expand_seq(ctx, &mut pos, def.body.end, None, &mut toks)
            .map_err(|e| *e)?;
        *out.get_mut(k) = Section {
            header: def.header,
            tokens: toks,
        };
    }
    out.unexpanded = ex.unexpanded;
    Ok(out)
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// One `#name ... = body` definition.
#[derive(Debug)]
struct Def {
    /// Context order: index in the file.
    order: usize,
    name: Rc<str>,
    /// `#name` (plus the parameter list, if any).
    header: Span,
    params: Vec<Rc<str>>,
    param_index: HashMap<Rc<str>, usize>,
    /// The body's token range.
    body: Range<usize>,
    /// Index in [`SECTION_NAMES`] for sections.
    section: Option<usize>,
}

/// The macros of one name: either one without parameters, or several with
/// parameters of distinct arities.
#[derive(Debug, Default)]
struct Entry {
    zero: Option<usize>,
    with_params: Vec<usize>,
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

fn parse_definitions(tokens: &[Token], end: Span) -> Result<Vec<Def>> {
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

/// Where expansion is happening: the definition whose text is read, the
/// bindings of its parameters, and the nesting depth.
#[derive(Clone, Copy)]
struct Ctx<'b> {
    def: usize,
    args: &'b [Vec<Token>],
    depth: usize,
}

/// Results inside the expander: errors are boxed to keep the frames of the
/// recursive functions small.
type R<T> = std::result::Result<T, Box<Error>>;

/// "No entry" in the per-token tables.
const NONE: u32 = u32::MAX;

/// Why a token string ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    End,
    Semicolon,
    Close,
}

struct Expander<'a> {
    tokens: &'a [Token],
    defs: &'a [Def],
    /// The macros of each name.
    entries: &'a [&'a Entry],
    /// For each token: index in `entries` of the macros it names, or [`NONE`].
    resolved: &'a [u32],
    /// For each token in a macro body: the parameter it names, or [`NONE`].
    param_of: &'a [u32],
    limits: Limits,
    used: usize,
    pasted_bytes: usize,
    /// The macro use, written in the section being expanded, whose expansion
    /// is in progress.
    outer_use: Option<Span>,
    /// See [`Sections::unexpanded`].
    unexpanded: Vec<Error>,
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
    fn expand_seq(
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
    /// `d`, stays a plain token (see [`Sections::unexpanded`]).
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
fn with_use(e: Box<Error>, span: Span) -> Box<Error> {
    if e.span == span || e.secondary.iter().any(|(s, _)| *s == span) {
        e
    } else {
        Box::new(e.with_secondary(span, "in the expansion of this macro use"))
    }
}

#[derive(Clone, Copy)]
enum TildeError {
    InSection,
    Twice,
    AtStart,
    AtEnd,
}

#[cold]
#[inline(never)]
fn tilde_error(tokens: &[Token], tilde: usize, kind: TildeError) -> Box<Error> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn expand_str(text: &str) -> Result<Sections> {
        expand(&lex(text).unwrap(), text.len())
    }

    fn rules(text: &str) -> String {
        let full = format!(
            "#players=p(1)#pieces=e#variables=#board=rectangle(up,down,left,right,[e])\n{text}"
        );
        let s = expand_str(&full).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        let v: Vec<&str> = s.rules.tokens.iter().map(|t| t.kind.text()).collect();
        v.join(" ")
    }

    #[test]
    fn plain_sections() {
        assert_eq!(rules("#rules = a b (c)"), "a b ( c )");
    }

    #[test]
    fn spans_point_at_bodies() {
        let text = "#m(a)=a~y z #players=#pieces=#variables=#board=#rules= m(x)";
        let s = expand_str(text).unwrap();
        let t = &s.rules.tokens;
        assert_eq!(t.len(), 2);
        // `xy`: x comes from the argument, y from the body: the `~`'s span.
        let tilde = text.find('~').unwrap();
        assert_eq!(t[0].span, Span::new(tilde, tilde + 1));
        let z = text.find('z').unwrap();
        assert_eq!(t[1].span, Span::new(z, z + 1));
        let text = "#m=ab~cd #players=#pieces=#variables=#board=#rules= m";
        let s = expand_str(text).unwrap();
        assert_eq!(s.rules.tokens[0].span, Span::new(3, 8));
        assert_eq!(s.rules.header, Span::new(44, 50));
        assert_eq!(s.end, Span::new(text.len(), text.len()));
    }
}
