//! LL-RBG printer (placeholder).
use crate::ast::Game;

/// Prints a game as LL-RBG text.
pub fn print_game(_g: &Game) -> String {
    String::new()
}
