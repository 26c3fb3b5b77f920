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
use std::rc::Rc;

use crate::error::{Error, Result, Span};
use crate::lexer::{Token, TokenKind};

mod defs;
mod expander;

use defs::{parse_definitions, Entry};
use expander::{Ctx, Expander, NONE};

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
/// Default bound on nested macro expansions (macro bodies and argument
/// lists; the parser's bound on brackets is `parse::MAX_NESTING`).
pub const MAX_MACRO_NESTING: usize = 256;
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
            max_depth: MAX_MACRO_NESTING,
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
