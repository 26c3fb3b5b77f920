//! The RBG suite (`../shared/rbg-suite`, or `$RBG_SUITE`) for the tests:
//! skipped with a message when missing, unless `CI=true`.

use std::path::PathBuf;

/// The suite's directory, if present.
pub fn suite() -> Option<PathBuf> {
    testkit::rbg_suite("perft.tsv")
}

/// A suite game, checked.
pub fn game(dir: &std::path::Path, name: &str) -> rbg_lang::Game {
    let text = std::fs::read_to_string(dir.join("games").join(name)).unwrap();
    rbg_lang::parse_str(&text).unwrap_or_else(|e| panic!("{name}: {}", e.message))
}

/// The RG engine's model of the translation of `game`.
pub fn translated(name: &str, game: &rbg_lang::Game) -> rg_engine::GameModel {
    let text = rbg_to_rg::translate_text(game).unwrap_or_else(|e| panic!("{name}: {e}"));
    rg_engine::GameModel::from_text(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}
