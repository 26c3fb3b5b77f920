//! `rbg check FILE...`: validates descriptions (any language, by extension)
//! and prints a summary line for each valid one; for RBG, warnings about
//! stars that repeat without end once reached (see
//! `rbg_lang::analysis::endless`).

use std::time::{Duration, Instant};

use clap::Args;
use gg_core::Game;
use gg_games::{with_game, Language};
use rbg_lang::analysis::endless::endless_stars;

use super::{load_bytes, read_bytes};

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

/// Runs the command: 0 when every file is valid, 1 otherwise (warnings do
/// not change the exit code).
pub fn run(args: &CheckArgs) -> i32 {
    let mut code = 0;
    for path in &args.files {
        let start = Instant::now();
        let (name, bytes) = match read_bytes(path) {
            Ok(r) => r,
            Err(msg) => {
                eprintln!("{msg}");
                code = 1;
                continue;
            }
        };
        if Language::of_path(path) == Language::Rbg {
            warn_endless(&name, &bytes);
        }
        match load_bytes(path, &name, &bytes) {
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

/// Prints a warning for every star of an RBG description that repeats
/// without end once reached (nothing if the text does not parse: loading
/// reports that).
fn warn_endless(name: &str, bytes: &[u8]) {
    let file = rbg_lang::SourceFile::from_bytes(name, bytes);
    let Ok((game, spans)) = rbg_lang::parse_str_with_spans(&file.text) else {
        return;
    };
    for star in endless_stars(&game) {
        let at = spans[star.actions.start];
        eprintln!(
            "{}",
            file.warning(&rbg_lang::Error::new(at, star.message()))
        );
    }
}
