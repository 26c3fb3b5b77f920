//! Regular Boardgames (RBG) language front end.
//!
//! Pipeline: [`lexer::lex`] (text → tokens with spans) → [`expand::expand`]
//! (HL-RBG macros → the five sections' tokens) → [`parse::parse_game`]
//! (board generators, sugar, name resolution and checks → [`ast::Game`]).
//! [`print::print_game`] writes a game back as LL-RBG and
//! [`analysis`] computes properties such as strong straightness.

pub mod analysis;
pub mod ast;
pub mod error;
pub mod expand;
pub mod lexer;
pub mod parse;
pub mod print;

pub use ast::Game;
pub use error::{Diagnostic, Error, SourceFile, Span};

/// Where the actions of a game's rules were written: the span of every
/// action in the order of [`ast::Rule::for_each_action`] (pre-order: a
/// pattern before its body). Actions repeated by `^n` share their span; an
/// action written in a macro body points into the macro's definition.
pub type ActionSpans = Vec<Span>;

/// Reads a complete description (HL-RBG or LL-RBG) into a checked game.
pub fn parse_str(text: &str) -> Result<Game, Error> {
    parse_str_with_spans(text).map(|(game, _)| game)
}

/// Like [`parse_str`], also returning where every action was written.
pub fn parse_str_with_spans(text: &str) -> Result<(Game, ActionSpans), Error> {
    let tokens = lexer::lex(text)?;
    let sections = expand::expand(&tokens, text.len())?;
    parse::parse_game_with_spans(&sections)
}

/// Like [`parse_str`], with errors tied to `file` (line, column, snippet).
pub fn load(file: &SourceFile) -> Result<Game, Diagnostic> {
    load_with_spans(file).map(|(game, _)| game)
}

/// Like [`load`], also returning where every action was written.
pub fn load_with_spans(file: &SourceFile) -> Result<(Game, ActionSpans), Diagnostic> {
    parse_str_with_spans(&file.text).map_err(|e| file.diagnostic(e))
}
