//! Regular Games (RG) language front end.
//!
//! Pipeline: [`parse::parse_game`] (text → [`ast::Game`], syntax only; the
//! tokens come from [`lexer`], pragmas from [`pragma`]) → [`check::check`]
//! (built-ins, every static check → [`check::Checked`], the resolved form the
//! engine lowers). [`print::print_game`] writes a game back as RG text.
//! The language is specified in `../shared/rg/rg-language.md`.

pub mod ast;
pub mod lexer;
pub mod parse;
pub mod pragma;
pub mod print;

pub use ast::Game;
pub use rbg_lang::{Diagnostic, Error, SourceFile, Span};
