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
    let (name, bytes) = read_bytes(path).map_err(|msg| eprintln!("{msg}")).ok()?;
    load_bytes(path, &name, &bytes)
}

/// Like [`load_any`], for the bytes read from `path` (named `name`).
pub fn load_bytes(path: &str, name: &str, bytes: &[u8]) -> Option<AnyGame> {
    let result = AnyGame::from_text(Language::of_path(path), name, bytes);
    match result.map_err(|msg| eprintln!("{msg}")).ok()? {
        AnyGame::Rbg(g) => prepare(g).map(AnyGame::Rbg),
        AnyGame::Rg(g) => Some(AnyGame::Rg(prepare_rg(name, g))),
    }
}

/// An RG game played by the engine chosen for RG: native code where the
/// generator takes the game, else the interpreter (with a note saying why
/// when `--engine native` chose it).
pub fn prepare_rg(name: &str, game: rg_engine::GameModel) -> rg_engine::GameModel {
    let (game, note) = rg_with_engine(name, game, rg_engine());
    if let Some(note) = note {
        eprintln!("{note}");
    }
    game
}

/// An RG game played by `engine` (and whether `--engine` chose it): native
/// code where the generator takes the game, else the interpreter, with a
/// note saying why if native code was chosen.
pub fn rg_with_engine(
    name: &str,
    game: rg_engine::GameModel,
    (engine, chosen): (rbg_jit::Engine, bool),
) -> (rg_engine::GameModel, Option<String>) {
    if engine != rbg_jit::Engine::Native
        || (!chosen && game.description().edges.len() > RG_DEFAULT_NATIVE_EDGES)
    {
        return (game, None);
    }
    match rg_jit::compile(&game) {
        Ok(g) => (g, None),
        Err(e) => (
            game,
            chosen.then(|| format!("{name}: note: played by the interpreter: {e}")),
        ),
    }
}

/// A loaded game of any language played by `chosen` (`None`: the default,
/// the host's for RBG, see [`rbg_jit::Engine::default_for_host`], and
/// [`RG_DEFAULT`] for RG), as the CLI's `--engine` does: where a default
/// engine cannot play the game (or native code is chosen for an RG game
/// it cannot take), the interpreter does and a note says why; an engine
/// chosen for an RBG game that cannot play it is an error.
pub fn with_engine(
    name: &str,
    game: AnyGame,
    chosen: Option<rbg_jit::Engine>,
) -> Result<(AnyGame, Option<String>), String> {
    match game {
        AnyGame::Rbg(g) => {
            let (g, note) = rbg_with_engine(g, chosen.map_or_else(default_engine, |e| (e, true)))?;
            Ok((AnyGame::Rbg(g), note))
        }
        AnyGame::Rg(g) => {
            let (g, note) =
                rg_with_engine(name, g, chosen.map_or((RG_DEFAULT, false), |e| (e, true)));
            Ok((AnyGame::Rg(g), note))
        }
    }
}

/// The engine that plays a loaded game and its code generation time.
pub fn engine_of(game: &AnyGame) -> (&'static str, Option<std::time::Duration>) {
    match game {
        AnyGame::Rbg(g) => (g.engine_name(), g.codegen_time()),
        AnyGame::Rg(g) => match g.engine_name() {
            "interp" => ("rg-engine", None),
            name => (name, g.codegen_time()),
        },
    }
}

/// The engine of RBG games, and whether `--engine` chose it.
static ENGINE: OnceLock<(rbg_jit::Engine, bool)> = OnceLock::new();

/// Sets the engine of every game loaded by this process: the one
/// `--engine` chose, or the default (the host's for RBG, [`RG_DEFAULT`]
/// for RG and HRG).
pub fn set_engine(chosen: Option<rbg_jit::Engine>) {
    let _ = ENGINE.set(chosen.map_or_else(default_engine, |e| (e, true)));
    let _ = RG_ENGINE.set(chosen.map_or((RG_DEFAULT, false), |e| (e, true)));
}

/// The host's default engine, not chosen by `--engine`.
fn default_engine() -> (rbg_jit::Engine, bool) {
    (rbg_jit::Engine::default_for_host(), false)
}

/// The engine of RG and HRG games unless `--engine` chooses: native code
/// (no slower than the interpreter on any of our RG and HRG games) for
/// games of at most [`RG_DEFAULT_NATIVE_EDGES`] edges that the generator
/// takes; the interpreter for the others.
pub const RG_DEFAULT: rbg_jit::Engine = rbg_jit::Engine::Native;

/// Larger RG games are interpreted unless `--engine native` chooses: their
/// code takes long to generate (chess.hrg, 9,187 edges: about 3.3 s of CPU,
/// too long for a command that plays a few moves; englishDraughts.hrg,
/// 3,960 edges: about 0.25 s; the other games of `games/hrg/`, up to 500
/// edges: at most about 35 ms).
pub const RG_DEFAULT_NATIVE_EDGES: usize = 5_000;

/// The engine of RG games, and whether `--engine` chose it.
static RG_ENGINE: OnceLock<(rbg_jit::Engine, bool)> = OnceLock::new();

/// The engine chosen for RG games (and whether `--engine` chose it).
pub fn rg_engine() -> (rbg_jit::Engine, bool) {
    *RG_ENGINE.get_or_init(|| (RG_DEFAULT, false))
}

/// The game played by the chosen engine. Where the default engine (not
/// one `--engine` chose) cannot play it, the interpreter does, after a
/// note; otherwise a failure prints the error.
pub fn prepare(game: GameModel) -> Option<GameModel> {
    match rbg_with_engine(game, *ENGINE.get_or_init(default_engine)) {
        Ok((g, note)) => {
            if let Some(note) = note {
                eprintln!("{note}");
            }
            Some(g)
        }
        Err(e) => {
            eprintln!("error: {e}");
            None
        }
    }
}

/// `game` played by `engine` (and whether it was chosen rather than the
/// default): the interpreter with a note where a default engine cannot
/// play it, an error where a chosen one cannot.
fn rbg_with_engine(
    game: GameModel,
    (engine, chosen): (rbg_jit::Engine, bool),
) -> Result<(GameModel, Option<String>), String> {
    match engine.prepare(&game) {
        Ok(g) => Ok((g, None)),
        Err(e) if !chosen => Ok((
            game.interpreted(),
            Some(format!("note: {e}; the game is played by the interpreter")),
        )),
        Err(e) => Err(e.to_string()),
    }
}

/// Prints an engine's error about the game read from `path`: as it is when
/// it already names its place in the file (`file:line:col: error: ...`),
/// else after `path: error: `.
pub fn print_error(path: &str, e: &dyn std::fmt::Display) {
    let name = if path == "-" { "<stdin>" } else { path };
    let text = e.to_string();
    if text.starts_with(&format!("{name}:")) {
        eprintln!("{text}");
    } else {
        eprintln!("{name}: error: {text}");
    }
}

/// Longest time a command accepts (about 31 years).
pub const MAX_SECONDS: f64 = 1e9;

/// Parses a number of seconds: finite, from 0 to [`MAX_SECONDS`].
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && (0.0..=MAX_SECONDS).contains(&x) => Ok(x),
        _ => Err(format!(
            "expected a number of seconds from 0 to {MAX_SECONDS}, found `{text}`"
        )),
    }
}

/// Parses a maximum game length: a whole number of moves, at least 1.
pub fn parse_max_length(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "expected a number of moves from 1 to {}, found `{text}`",
            u64::MAX
        )),
    }
}
