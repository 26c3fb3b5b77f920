//! `rbg check FILE...`: validates descriptions and prints a summary line
//! for each valid one.

use clap::Args;
use rbg_lang::analysis::Summary;

use super::load_game;

/// Arguments of `rbg check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Game descriptions (`-` for standard input).
    #[arg(required = true)]
    pub files: Vec<String>,
}

/// Runs the command: 0 when every file is valid, 1 otherwise.
pub fn run(args: &CheckArgs) -> i32 {
    let mut code = 0;
    for path in &args.files {
        match load_game(path) {
            Some(game) => {
                let name = if path == "-" { "<stdin>" } else { path };
                println!("{name}: ok {}", Summary::of(&game));
            }
            None => code = 1,
        }
    }
    code
}
