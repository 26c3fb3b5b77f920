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
pub mod translate;
pub mod view;

use std::io::Read;
use std::sync::OnceLock;

use gg_games::{AnyGame, Language};
use rbg_engine::GameModel;
use rbg_lang::{Game, SourceFile};

/// Reads `path` (`-` = standard input, named `<stdin>`): its name for
/// messages and its bytes.
pub fn read_bytes(path: &str) -> Result<(String, Vec<u8>), String> {
    if path == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("<stdin>: error: cannot read standard input: {e}"))?;
        Ok(("<stdin>".to_string(), bytes))
    } else {
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: error: cannot read: {e}"))?;
        Ok((path.to_string(), bytes))
    }
}

/// Reads `path` (`-` = standard input, named `<stdin>`) as an RBG source.
pub fn read_source(path: &str) -> Result<SourceFile, String> {
    let (name, bytes) = read_bytes(path)?;
    Ok(SourceFile::from_bytes(name, &bytes))
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

/// Reads a description of any language (chosen by the file's extension, see
/// [`Language::of_path`]) and builds its engine (for RBG, the one chosen
/// with `--engine`); on failure prints the error to stderr.
pub fn load_any(path: &str) -> Option<AnyGame> {
    let result = read_bytes(path)
        .and_then(|(name, bytes)| AnyGame::from_text(Language::of_path(path), &name, &bytes));
    match result.map_err(|msg| eprintln!("{msg}")).ok()? {
        AnyGame::Rbg(g) => prepare(g).map(AnyGame::Rbg),
        other => Some(other),
    }
}

/// The engine that plays a loaded game and its code generation time.
pub fn engine_of(game: &AnyGame) -> (&'static str, Option<std::time::Duration>) {
    match game {
        AnyGame::Rbg(g) => (g.engine_name(), g.codegen_time()),
        AnyGame::Rg(_) => ("rg-engine", None),
    }
}

static ENGINE: OnceLock<rbg_jit::Engine> = OnceLock::new();

/// Sets the engine of every RBG game loaded by this process (`--engine`).
pub fn set_engine(e: rbg_jit::Engine) {
    let _ = ENGINE.set(e);
}

/// The engine chosen with `--engine` (or the host's default).
pub fn engine() -> rbg_jit::Engine {
    *ENGINE.get_or_init(rbg_jit::Engine::default_for_host)
}

/// The game played by the chosen engine; on failure prints the error.
pub fn prepare(game: GameModel) -> Option<GameModel> {
    match engine().prepare(&game) {
        Ok(g) => Some(g),
        Err(e) => {
            eprintln!("error: {e}");
            None
        }
    }
}
