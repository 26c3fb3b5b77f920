//! Subcommands and the helpers they share (reading and loading games).

pub mod bench;
pub mod board;
pub mod check;
pub mod choose;
pub mod client;
pub mod expand;
pub mod matches;
pub mod perft;
pub mod play;
pub mod replay;
pub mod serve;

use std::io::Read;

use rbg_engine::GameModel;
use rbg_lang::{Game, SourceFile};

/// Reads `path` (`-` = standard input, named `<stdin>`) as bytes.
pub fn read_source(path: &str) -> Result<SourceFile, String> {
    if path == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("<stdin>: error: cannot read standard input: {e}"))?;
        Ok(SourceFile::from_bytes("<stdin>", &bytes))
    } else {
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: error: cannot read: {e}"))?;
        Ok(SourceFile::from_bytes(path, &bytes))
    }
}

/// Reads and checks a description; on failure prints the error to stderr.
pub fn load_game(path: &str) -> Option<Game> {
    let file = match read_source(path) {
        Ok(f) => f,
        Err(msg) => {
            eprintln!("{msg}");
            return None;
        }
    };
    match rbg_lang::load(&file) {
        Ok(g) => Some(g),
        Err(d) => {
            eprintln!("{d}");
            None
        }
    }
}

/// Reads a description and builds the engine's model of it; on failure
/// prints the error to stderr.
pub fn load_model(path: &str) -> Option<GameModel> {
    load_game(path).map(GameModel::new)
}
