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

/// Reads a complete description (HL-RBG or LL-RBG) into a checked game.
pub fn parse_str(text: &str) -> Result<Game, Error> {
    let tokens = lexer::lex(text)?;
    let sections = expand::expand(&tokens, text.len())?;
    parse::parse_game(&sections)
}

/// Like [`parse_str`], with errors tied to `file` (line, column, snippet).
pub fn load(file: &SourceFile) -> Result<Game, Diagnostic> {
    parse_str(&file.text).map_err(|e| file.diagnostic(e))
}
