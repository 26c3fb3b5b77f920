//! High-level Regular Games (HRG) front end: HRG text → RG game.
//!
//! Pipeline: [`parse::parse_game`] (text → [`ast::Game`], with spans) →
//! [`translate::translate`] (domains expanded, functions tabulated into
//! constant maps, graphs into edges, exactly as `../shared/rg/hrg-language.md`
//! describes) → an [`rg_lang::Game`] that [`rg_lang::check`] checks and
//! `rg-engine` runs. Every name of the produced game carries the span of the
//! HRG text it comes from, so errors found by the RG checks point into the
//! HRG source too.

pub mod ast;
pub mod defs;
pub mod encode;
pub mod eval;
pub mod lexer;
pub mod opt;
pub mod parse;
pub mod translate;
pub mod value;

pub use rbg_lang::{Diagnostic, Error, SourceFile, Span};
use rg_lang::CheckedGame;

/// Parses and translates an HRG description to RG (not yet checked).
pub fn translate_str(text: &str) -> Result<rg_lang::Game, Error> {
    let game = parse::parse_game(text)?;
    translate::translate(&game)
}

/// Parses, translates and checks an HRG description; the translation is
/// then simplified by [`opt::optimize`] (the same moves) and checked again
/// (should that fail, the plain translation is kept).
pub fn parse_str(text: &str) -> Result<(rg_lang::Game, CheckedGame), Error> {
    let game = translate_str(text)?;
    let checked = rg_lang::check::check(&game).map_err(|e| {
        let mut e = e;
        e.notes
            .push("found in the RG translation of this HRG game".to_string());
        e
    })?;
    let optimized = opt::optimize(&game);
    match rg_lang::check::check(&optimized) {
        Ok(c) => Ok((optimized, c)),
        Err(_) => Ok((game, checked)),
    }
}

/// Like [`parse_str`], with errors tied to `file` (line, column, snippet).
pub fn load(file: &SourceFile) -> Result<(rg_lang::Game, CheckedGame), Diagnostic> {
    parse_str(&file.text).map_err(|e| file.diagnostic(e))
}
