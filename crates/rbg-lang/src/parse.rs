//! Parser for the expanded sections (placeholder).
use crate::ast::Game;
use crate::error::{Error, Result};
use crate::expand::Sections;

/// Parses and checks the expanded sections into a [`Game`].
pub fn parse_game(s: &Sections) -> Result<Game> {
    Err(Error::new(s.end, "parser not implemented yet"))
}
