//! `rbg translate FILE --to rg`: prints a description translated to RG
//! (`.rbg` by `rbg-to-rg`, `.hrg` by the HRG front end; `.rg` is checked
//! and printed back).

use clap::{Args, ValueEnum};
use gg_games::Language;

use super::read_bytes;

/// Arguments of `rbg translate`.
#[derive(Args, Debug)]
pub struct TranslateArgs {
    /// Game description (`.rbg`, `.hrg` or `.rg`; `-` for RBG on standard
    /// input).
    pub file: String,
    /// The language to translate to.
    #[arg(long, value_enum, default_value_t = Target::Rg)]
    pub to: Target,
}

/// Languages `rbg translate` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Target {
    /// Regular Games (low level).
    Rg,
}

/// Runs the command: 0 on success, 1 when the description is invalid or
/// cannot be translated.
pub fn run(args: &TranslateArgs) -> i32 {
    let (name, bytes) = match read_bytes(&args.file) {
        Ok(x) => x,
        Err(msg) => {
            eprintln!("{msg}");
            return 1;
        }
    };
    let file = rbg_lang::SourceFile::from_bytes(name.as_str(), &bytes);
    let game = match Language::of_path(&args.file) {
        Language::Hrg => hrg_lang::load(&file).map(|(g, _)| g),
        Language::Rg => rg_lang::load(&file).map(|(g, _)| g),
        Language::Rbg => {
            let game = match rbg_lang::load(&file) {
                Ok(g) => g,
                Err(d) => {
                    eprintln!("{d}");
                    return 1;
                }
            };
            return match rbg_to_rg::translate_text(&game) {
                Ok(text) => {
                    print!("{text}");
                    0
                }
                Err(e) => {
                    eprintln!("{name}: error: cannot translate: {e}");
                    1
                }
            };
        }
    };
    match game {
        Ok(g) => {
            print!("{}", rg_lang::print::print_game(&g));
            0
        }
        Err(d) => {
            eprintln!("{d}");
            1
        }
    }
}
