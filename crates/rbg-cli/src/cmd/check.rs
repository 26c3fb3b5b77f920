//! `rbg check FILE...`: validates descriptions (any language, by extension)
//! and prints a summary line for each valid one.

use std::time::{Duration, Instant};

use clap::Args;
use gg_core::Game;
use gg_games::with_game;

use super::load_any;

/// Arguments of `rbg check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Game descriptions (`.rbg`, `.rg`, `.hrg`; `-` for RBG on standard input).
    #[arg(required = true)]
    pub files: Vec<String>,
    /// Print the time of loading each game (parsing, lowering, and the
    /// native engine's code generation with `--engine native`).
    #[arg(long)]
    pub timings: bool,
}

/// Runs the command: 0 when every file is valid, 1 otherwise.
pub fn run(args: &CheckArgs) -> i32 {
    let mut code = 0;
    for path in &args.files {
        let start = Instant::now();
        match load_any(path) {
            Some(game) => {
                let loaded = start.elapsed();
                let name = if path == "-" { "<stdin>" } else { path };
                println!("{name}: ok {}", with_game!(&game, g => g.summary()));
                if args.timings {
                    let ms = |d: Duration| d.as_secs_f64() * 1e3;
                    let (engine, codegen) = super::engine_of(&game);
                    let codegen = match codegen {
                        Some(t) => format!(", code generation {:.1} ms of CPU", ms(t)),
                        None => String::new(),
                    };
                    println!(
                        "  timings: load {:.1} ms{codegen} (engine {engine})",
                        ms(loaded)
                    );
                }
            }
            None => code = 1,
        }
    }
    code
}
