//! `rbg check FILE...`: validates descriptions (any language, by extension)
//! and prints a summary line for each valid one.

use clap::Args;
use gg_core::Game;
use gg_games::with_game;

use super::load_any;

/// Arguments of `rbg check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Game descriptions (`.rbg`, `.rg`; `-` for RBG on standard input).
    #[arg(required = true)]
    pub files: Vec<String>,
}

/// Runs the command: 0 when every file is valid, 1 otherwise.
pub fn run(args: &CheckArgs) -> i32 {
    let mut code = 0;
    for path in &args.files {
        match load_any(path) {
            Some(game) => {
                let name = if path == "-" { "<stdin>" } else { path };
                println!("{name}: ok {}", with_game!(&game, g => g.summary()));
            }
            None => code = 1,
        }
    }
    code
}
