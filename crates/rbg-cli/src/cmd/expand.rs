//! `rbg expand FILE`: prints the description as low-level RBG.

use clap::Args;

use super::load_game;

/// Arguments of `rbg expand`.
#[derive(Args, Debug)]
pub struct ExpandArgs {
    /// Game description (`-` for standard input).
    pub file: String,
}

/// Runs the command: 0 on success, 1 when the description is invalid.
pub fn run(args: &ExpandArgs) -> i32 {
    match load_game(&args.file) {
        Some(game) => {
            print!("{}", rbg_lang::print::print_game(&game));
            0
        }
        None => 1,
    }
}
