//! Parser and checker for the expanded sections (paper appendix, "Low level
//! RBG" plus the HL-RBG board generators and syntactic sugar).
//!
//! The parser works on the token lists of the five sections produced by
//! [`crate::expand`]. It resolves every name to a dense index (see
//! [`crate::ast`]) and reports the first error it finds, always at the
//! offending token, in the "expected X, found Y" style.
//!
//! - declarations (`#players`, `#pieces`, `#variables`): this module;
//! - `#board` (explicit graphs and the `rectangle`, `hexagon` and `cuboid`
//!   generators): [`board`];
//! - `#rules` (regular expressions, arithmetic, sugar): [`rules`].
//!
//! Robustness limits: bracket nesting is capped at [`MAX_NESTING`] levels,
//! arithmetic expression trees at [`MAX_ARITH_DEPTH`] levels and the rules at
//! [`MAX_ACTIONS`] actions after unrolling `^n`, so that no input can
//! overflow the stack or exhaust memory here or in later passes.

mod board;
mod rules;

use std::collections::HashMap;

use crate::ast::{BoundedName, Game};
use crate::error::{Error, Result, Span};
use crate::expand::{Section, Sections};
use crate::lexer::{Token, TokenKind};

/// Largest number accepted anywhere in a description.
pub const MAX_NUMBER: u64 = 2_147_483_647;
/// Deepest accepted nesting of `(`, `{` and `[` in the rules.
pub const MAX_NESTING: usize = 256;
/// Deepest accepted arithmetic expression tree (operators on one path).
pub const MAX_ARITH_DEPTH: usize = 256;
/// Largest accepted number of actions in the rules after unrolling `^n`
/// (actions inside patterns included).
pub const MAX_ACTIONS: u64 = 4_000_000;

/// Parses and checks the expanded sections into a [`Game`].
pub fn parse_game(s: &Sections) -> Result<Game> {
    parse_game_with_spans(s).map(|(game, _)| game)
}

/// Like [`parse_game`], also returning the span of every action of the rules
/// (see [`crate::ActionSpans`]).
pub fn parse_game_with_spans(s: &Sections) -> Result<(Game, Vec<Span>)> {
    parse_sections(s).map_err(|e| explain_plain_macro(s, e))
}

/// An error at an identifier that names a macro left unexpanded (see
/// [`Sections::unexpanded`]): "unknown identifier" becomes the reason, other
/// messages get it as a note.
#[cold]
fn explain_plain_macro(s: &Sections, e: Error) -> Error {
    let Some(why) = s.unexpanded.iter().find(|u| u.span == e.span) else {
        return e;
    };
    if e.message.starts_with("unknown identifier") {
        why.clone()
    } else {
        e.with_note(why.message.clone())
    }
}

fn parse_sections(s: &Sections) -> Result<(Game, Vec<Span>)> {
    let mut names = Names::default();

    let players = parse_bounded(&s.players, "players", "a player name", false)?;
    for (i, (name, span, _)) in players.iter().enumerate() {
        names.declare(name, Kind::Player, i as u32, *span)?;
    }
    let pieces = parse_pieces(&s.pieces)?;
    for (i, (name, span)) in pieces.iter().enumerate() {
        names.declare(name, Kind::Piece, i as u32, *span)?;
    }
    let variables = parse_bounded(&s.variables, "variables", "a variable name", true)?;
    for (i, (name, span, _)) in variables.iter().enumerate() {
        names.declare(name, Kind::Variable, (players.len() + i) as u32, *span)?;
    }

    let mut c = Cursor::new(&s.board, "board");
    let board = board::parse_board(&mut c, &mut names)?;

    let mut c = Cursor::new(&s.rules, "rules");
    let (rules, spans) = rules::parse_rules(&mut c, &names)?;

    let bounded = |v: Vec<(String, Span, u64)>| {
        v.into_iter()
            .map(|(name, _, bound)| BoundedName { name, bound })
            .collect::<Vec<_>>()
    };
    let mut game = Game {
        players: bounded(players),
        pieces: pieces.into_iter().map(|(n, _)| n).collect(),
        variables: bounded(variables),
        board,
        rules,
    };
    game.canonicalize_directions();
    Ok((game, spans))
}

/// `name(nat), ...` as in `#players` and `#variables`.
fn parse_bounded(
    sec: &Section,
    section: &'static str,
    what: &str,
    allow_empty: bool,
) -> Result<Vec<(String, Span, u64)>> {
    let mut c = Cursor::new(sec, section);
    let mut out = Vec::new();
    if allow_empty && c.is_end() {
        return Ok(out);
    }
    loop {
        let (name, span) = c.ident(what)?;
        c.expect(&TokenKind::LParen, "`(` and a bound")?;
        let (bound, _) = c.nat("a bound (a natural number)")?;
        c.expect(&TokenKind::RParen, "`)`")?;
        out.push((name.to_string(), span, bound));
        if c.eat(&TokenKind::Comma).is_none() {
            break;
        }
    }
    c.finish("`,`")?;
    Ok(out)
}

/// `name, ...` as in `#pieces`.
fn parse_pieces(sec: &Section) -> Result<Vec<(String, Span)>> {
    let mut c = Cursor::new(sec, "pieces");
    let mut out = Vec::new();
    loop {
        let (name, span) = c.ident("a piece name")?;
        out.push((name.to_string(), span));
        if c.eat(&TokenKind::Comma).is_none() {
            break;
        }
    }
    c.finish("`,`")?;
    Ok(out)
}

/// What a declared identifier is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Player,
    Variable,
    Piece,
    Dir,
}

impl Kind {
    /// "a player", ... for messages.
    pub(crate) fn noun(self) -> &'static str {
        match self {
            Kind::Player => "a player",
            Kind::Variable => "a variable",
            Kind::Piece => "a piece",
            Kind::Dir => "a direction (edge label)",
        }
    }
}

/// The one namespace of players, pieces, variables and edge labels.
#[derive(Default)]
pub(crate) struct Names {
    map: HashMap<String, (Kind, u32, Span)>,
}

impl Names {
    /// Declares `name`; it must not be declared yet (in any kind). The error
    /// is reported at the later of the two occurrences.
    pub(crate) fn declare(&mut self, name: &str, kind: Kind, id: u32, span: Span) -> Result<()> {
        if let Some(&(k, _, prev)) = self.map.get(name) {
            let (first, second) = if prev.start <= span.start {
                (prev, span)
            } else {
                (span, prev)
            };
            let msg = if k == kind {
                format!("`{name}` is declared twice (as {})", kind.noun())
            } else {
                format!(
                    "`{name}` is declared both as {} and as {}; players, pieces, variables and edge labels must have distinct names",
                    k.noun(),
                    kind.noun()
                )
            };
            return Err(Error::new(second, msg).with_secondary(first, "first declared here"));
        }
        self.map.insert(name.to_string(), (kind, id, span));
        Ok(())
    }

    /// The kind, index and declaration of `name`.
    pub(crate) fn get(&self, name: &str) -> Option<(Kind, u32, Span)> {
        self.map.get(name).copied()
    }

    /// Resolves `name` (written at `span`) to one of the `want` kinds.
    pub(crate) fn resolve(
        &self,
        name: &str,
        span: Span,
        want: &[Kind],
        what: &str,
    ) -> Result<(Kind, u32)> {
        match self.get(name) {
            Some((k, id, _)) if want.contains(&k) => Ok((k, id)),
            Some((k, _, decl)) => Err(Error::new(
                span,
                format!("`{name}` is {}, expected {what}", k.noun()),
            )
            .with_secondary(decl, "declared here")),
            None => Err(Error::new(
                span,
                format!("unknown identifier `{name}`, expected {what}"),
            )),
        }
    }
}

/// A position in one section's tokens.
pub(crate) struct Cursor<'a> {
    toks: &'a [Token],
    pos: usize,
    section: &'static str,
    header: Span,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(sec: &'a Section, section: &'static str) -> Cursor<'a> {
        Cursor {
            toks: &sec.tokens,
            pos: 0,
            section,
            header: sec.header,
        }
    }

    pub(crate) fn peek(&self) -> Option<&'a Token> {
        self.toks.get(self.pos)
    }

    pub(crate) fn peek_kind(&self) -> Option<&'a TokenKind> {
        self.peek().map(|t| &t.kind)
    }

    /// The token after the next one.
    pub(crate) fn peek2_kind(&self) -> Option<&'a TokenKind> {
        self.toks.get(self.pos + 1).map(|t| &t.kind)
    }

    pub(crate) fn bump(&mut self) -> Option<&'a Token> {
        let t = self.toks.get(self.pos);
        if t.is_some() {
            self.pos += 1;
        }
        t
    }

    pub(crate) fn is_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    pub(crate) fn at(&self, k: &TokenKind) -> bool {
        self.peek_kind() == Some(k)
    }

    /// Consumes the next token if it is `k`, returning its span.
    pub(crate) fn eat(&mut self, k: &TokenKind) -> Option<Span> {
        if self.at(k) {
            self.bump().map(|t| t.span)
        } else {
            None
        }
    }

    /// Where "found the end of the section" errors point: just after the
    /// last token of the section, where the missing token was due (the
    /// header of an empty section).
    pub(crate) fn end_span(&self) -> Span {
        match self.toks.last() {
            Some(t) => Span::new(t.span.end as usize, t.span.end as usize),
            None => self.header,
        }
    }

    /// Span of the next token (or [`Cursor::end_span`]).
    pub(crate) fn here(&self) -> Span {
        self.peek().map_or_else(|| self.end_span(), |t| t.span)
    }

    /// Description of the next token for "found ..." messages.
    pub(crate) fn found(&self) -> String {
        match self.peek() {
            Some(t) => t.describe(),
            None => format!("the end of the #{} section", self.section),
        }
    }

    /// "expected `what`, found `<next token>`" at the next token.
    pub(crate) fn expected(&self, what: &str) -> Error {
        Error::new(
            self.here(),
            format!("expected {what}, found {}", self.found()),
        )
    }

    pub(crate) fn expect(&mut self, k: &TokenKind, what: &str) -> Result<Span> {
        self.eat(k).ok_or_else(|| self.expected(what))
    }

    pub(crate) fn ident(&mut self, what: &str) -> Result<(&'a str, Span)> {
        match self.peek() {
            Some(Token {
                kind: TokenKind::Ident(s),
                span,
            }) => {
                self.pos += 1;
                Ok((s, *span))
            }
            _ => Err(self.expected(what)),
        }
    }

    pub(crate) fn nat(&mut self, what: &str) -> Result<(u64, Span)> {
        match self.peek() {
            Some(Token {
                kind: TokenKind::Nat(s),
                span,
            }) => {
                let v = parse_nat(s, *span)?;
                self.pos += 1;
                Ok((v, *span))
            }
            _ => Err(self.expected(what)),
        }
    }

    /// Checks that the section has no tokens left.
    pub(crate) fn finish(&self, what: &str) -> Result<()> {
        match self.peek() {
            None => Ok(()),
            Some(t) => Err(Error::new(
                t.span,
                format!(
                    "expected {what} or the end of the #{} section, found {}",
                    self.section,
                    t.describe()
                ),
            )),
        }
    }
}

/// The value of a number token, at most [`MAX_NUMBER`].
pub(crate) fn parse_nat(text: &str, span: Span) -> Result<u64> {
    let mut v: u64 = 0;
    for b in text.bytes() {
        let d = match b {
            b'0'..=b'9' => u64::from(b - b'0'),
            _ => {
                return Err(Error::new(
                    span,
                    format!("expected a number, found `{text}`"),
                ))
            }
        };
        v = v * 10 + d;
        if v > MAX_NUMBER {
            return Err(Error::new(
                span,
                format!("number too large: `{text}` (the largest allowed number is {MAX_NUMBER})"),
            ));
        }
    }
    Ok(v)
}
