//! Regular Games (RG) language front end.
//!
//! Pipeline: [`parse::parse_game`] (text → [`ast::Game`], syntax only; the
//! tokens come from [`lexer`], pragmas from [`pragma`]) → [`check::check`]
//! (built-ins, every static check → [`CheckedGame`], the resolved form the
//! engine lowers). [`print::print_game`] writes a game back as RG text.
//! The language is specified in `../shared/rg/rg-language.md`.

pub mod ast;
pub mod check;
pub mod checked;
pub mod graph;
pub mod lexer;
pub mod parse;
pub mod pragma;
pub mod print;
pub mod syntax;
mod typedefs;
pub mod types;

pub use ast::Game;
pub use rbg_lang::{Diagnostic, Error, SourceFile, Span};

pub use checked::CheckedGame;

/// Parses and checks a description.
pub fn parse_str(text: &str) -> Result<(Game, CheckedGame), Error> {
    let game = parse::parse_game(text)?;
    let checked = check::check(&game)?;
    Ok((game, checked))
}

/// Like [`parse_str`], with errors tied to `file` (line, column, snippet).
pub fn load(file: &SourceFile) -> Result<(Game, CheckedGame), Diagnostic> {
    parse_str(&file.text).map_err(|e| file.diagnostic(e))
}
