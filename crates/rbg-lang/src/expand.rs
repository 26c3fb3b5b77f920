//! HL-RBG macro expansion: turns the token list of a whole file into the
//! expanded token lists of the five sections.
//!
//! (Placeholder: splits sections, no macros yet.)

use crate::error::{Error, Result, Span};
use crate::lexer::{Token, TokenKind};

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
}

/// Names of the sections, in the order used in messages.
pub const SECTION_NAMES: [&str; 5] = ["players", "pieces", "variables", "board", "rules"];

/// Expands all macros and splits the file into its sections.
pub fn expand(tokens: &[Token], text_len: usize) -> Result<Sections> {
    let end = Span::new(text_len, text_len);
    let mut out = Sections {
        end,
        ..Sections::default()
    };
    let mut seen: [Option<Span>; 5] = [None; 5];
    let mut i = 0;
    if tokens.is_empty() {
        return Err(Error::new(
            end,
            "expected `#players`, found the end of the file (empty description)",
        ));
    }
    while i < tokens.len() {
        if tokens[i].kind != TokenKind::Hash {
            return Err(Error::new(
                tokens[i].span,
                format!("expected `#`, found {}", tokens[i].describe()),
            ));
        }
        let name_tok = tokens.get(i + 1).ok_or_else(|| {
            Error::new(
                end,
                "expected a section name after `#`, found the end of the file",
            )
        })?;
        let name = name_tok.kind.ident().ok_or_else(|| {
            Error::new(
                name_tok.span,
                format!(
                    "expected a section name after `#`, found {}",
                    name_tok.describe()
                ),
            )
        })?;
        let idx = SECTION_NAMES
            .iter()
            .position(|s| *s == name)
            .ok_or_else(|| Error::new(name_tok.span, format!("unknown section `#{name}`")))?;
        let header = tokens[i].span.to(name_tok.span);
        if let Some(prev) = seen[idx] {
            return Err(
                Error::new(header, format!("section `#{name}` is defined twice"))
                    .with_secondary(prev, "first defined here"),
            );
        }
        seen[idx] = Some(header);
        match tokens.get(i + 2) {
            Some(t) if t.kind == TokenKind::Assign => {}
            Some(t) => {
                return Err(Error::new(
                    t.span,
                    format!("expected `=` after `#{name}`, found {}", t.describe()),
                ))
            }
            None => {
                return Err(Error::new(
                    end,
                    format!("expected `=` after `#{name}`, found the end of the file"),
                ))
            }
        }
        let mut j = i + 3;
        while j < tokens.len() && tokens[j].kind != TokenKind::Hash {
            j += 1;
        }
        let section = Section {
            header,
            tokens: tokens[i + 3..j].to_vec(),
        };
        match idx {
            0 => out.players = section,
            1 => out.pieces = section,
            2 => out.variables = section,
            3 => out.board = section,
            _ => out.rules = section,
        }
        i = j;
    }
    for (k, s) in seen.iter().enumerate() {
        if s.is_none() {
            return Err(Error::new(end, format!("missing section `#{}`: every description needs #players, #pieces, #variables, #board and #rules", SECTION_NAMES[k])));
        }
    }
    Ok(out)
}
