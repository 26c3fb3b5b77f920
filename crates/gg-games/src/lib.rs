//! Games of every supported language behind one enum, [`AnyGame`], loaded
//! by file extension ([`Language::of_path`]). Code that works for every
//! language is written once, generic over [`gg_core::Game`], and called
//! through [`with_game!`], which monomorphises it per engine:
//!
//! ```
//! use gg_core::Game;
//! use gg_games::{with_game, AnyGame};
//!
//! fn players<G: Game>(game: &G) -> usize {
//!     game.num_players()
//! }
//!
//! let text = "#players = a(1)\n#pieces = e\n#variables =\n#board = v[e]{}\n#rules = ->a ->> {}";
//! let game = AnyGame::from_text(gg_games::Language::Rbg, "game.rbg", text.as_bytes()).unwrap();
//! assert_eq!(with_game!(&game, g => players(g)), 1);
//! ```

use std::path::Path;

pub use gg_core;
pub use rbg_engine;
pub use rg_engine;

/// A description language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// Regular Boardgames (`.rbg`, HL or LL).
    Rbg,
    /// Regular Games, low level (`.rg`).
    Rg,
    /// High-level Regular Games (`.hrg`).
    Hrg,
}

impl Language {
    /// The language of a file, by its extension: `.rg` is RG, `.hrg` HRG,
    /// anything else (`.rbg`, standard input `-`) RBG.
    pub fn of_path(path: &str) -> Language {
        match Path::new(path).extension().and_then(|e| e.to_str()) {
            Some("rg") => Language::Rg,
            Some("hrg") => Language::Hrg,
            _ => Language::Rbg,
        }
    }

    /// The language's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Language::Rbg => "RBG",
            Language::Rg => "RG",
            Language::Hrg => "HRG",
        }
    }
}

/// A loaded game of any supported language.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// An RBG game.
    Rbg(rbg_engine::GameModel),
    /// An RG game (also an HRG game, translated to RG).
    Rg(rg_engine::GameModel),
}

impl AnyGame {
    /// Loads the description `bytes` of file `name` in `lang`. Errors are
    /// rendered for the user (`file:line:col: error: ...` with the source
    /// line).
    pub fn from_text(lang: Language, name: &str, bytes: &[u8]) -> Result<AnyGame, String> {
        match lang {
            Language::Rbg => {
                let file = rbg_lang::SourceFile::from_bytes(name, bytes);
                rbg_engine::GameModel::load(&file)
                    .map(AnyGame::Rbg)
                    .map_err(|d| d.to_string())
            }
            Language::Rg => {
                let file = rg_lang::SourceFile::from_bytes(name, bytes);
                rg_engine::GameModel::load(&file).map(AnyGame::Rg)
            }
            Language::Hrg => {
                // HRG is translated to RG and run by the RG engine; errors
                // point into the HRG text.
                let file = rbg_lang::SourceFile::from_bytes(name, bytes);
                let (_, checked) = hrg_lang::load(&file).map_err(|d| d.rendered)?;
                rg_engine::GameModel::located(checked, file)
                    .map(AnyGame::Rg)
                    .map_err(|e| format!("{name}: error: {}", e.0))
            }
        }
    }

    /// The game's language (an HRG game runs as RG: `Rg`).
    pub fn language(&self) -> Language {
        match self {
            AnyGame::Rbg(_) => Language::Rbg,
            AnyGame::Rg(_) => Language::Rg,
        }
    }
}

/// Evaluates `$body` with `$g` bound to the engine's game inside `$game`
/// (an `AnyGame` or a reference to one), once per engine, so generic code
/// is monomorphised for each.
#[macro_export]
macro_rules! with_game {
    ($game:expr, $g:ident => $body:expr) => {
        match $game {
            $crate::AnyGame::Rbg($g) => $body,
            $crate::AnyGame::Rg($g) => $body,
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_by_extension() {
        assert_eq!(Language::of_path("a/b.rg"), Language::Rg);
        assert_eq!(Language::of_path("b.hrg"), Language::Hrg);
        assert_eq!(Language::of_path("b.rbg"), Language::Rbg);
        assert_eq!(Language::of_path("-"), Language::Rbg);
        assert_eq!(Language::of_path("game"), Language::Rbg);
    }

    #[test]
    fn errors_name_the_file() {
        let e = AnyGame::from_text(Language::Rbg, "x.rbg", b"#players = ").unwrap_err();
        assert!(e.starts_with("x.rbg:1:"), "{e}");
        let e = AnyGame::from_text(Language::Rg, "x.rg", b"type Player = {a};\nbegin, x: ;")
            .unwrap_err();
        assert!(e.starts_with("x.rg:"), "{e}");
        let e = AnyGame::from_text(
            Language::Hrg,
            "x.hrg",
            b"domain Player = a\ndomain Score = 0\nv : Q\n",
        )
        .unwrap_err();
        assert!(e.starts_with("x.hrg:3:5: error: "), "{e}");
    }
}
