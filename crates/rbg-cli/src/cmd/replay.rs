//! `rbg replay GAME FILE`: show a recorded game move by move.

use std::io::Write;

use clap::Args;
use rbg_agents::Playthrough;

use super::board::{colour_wanted, View};
use super::choose::{read_line, Line};
use super::{load_model, read_source};

/// Arguments of `rbg replay`.
#[derive(Args, Debug)]
#[command(after_help = "\
FILE holds one move per line in the engine's notation (`vertex modifier` pairs, \
as written by `rbg play --record`); empty lines and lines starting with `//` are skipped. \
Either GAME or FILE may be `-` (standard input), not both, and not with --step.")]
pub struct ReplayArgs {
    /// Game description (`-` for standard input).
    pub game: String,
    /// The recorded moves (`-` for standard input).
    pub file: String,
    /// Wait for Enter before each move.
    #[arg(long)]
    pub step: bool,
}

/// Runs the command; returns the process exit code.
pub fn run(args: &ReplayArgs) -> i32 {
    let from_stdin = [&args.game, &args.file]
        .iter()
        .filter(|a| a.as_str() == "-")
        .count();
    if from_stdin > 1 || (from_stdin == 1 && args.step) {
        eprintln!(
            "error: standard input (`-`) can hold only one of GAME, FILE and the Enter presses of --step"
        );
        return 2;
    }
    let Some(game) = load_model(&args.game) else {
        return 1;
    };
    let record = match read_source(&args.file) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let (file, text) = (&record.name, &record.text);
    let view = View::new(&game, colour_wanted());
    let mut p = Playthrough::new(&game);
    print!("{}", view.legend());
    println!("{}", view.render(&p));
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        let fail = |reason: String| {
            eprintln!("{file}:{}: error: {reason}", n + 1);
            1
        };
        let m = match game.parse_move(line) {
            Ok(m) => m,
            Err(e) => return fail(format!("malformed move `{line}`: {e}")),
        };
        let Some(player) = p.player() else {
            return fail(format!("move `{line}` after the end of the game"));
        };
        let Some(i) = p.find(m.apps()) else {
            return fail(format!(
                "illegal move `{line}`: not one of the {} legal moves of {}",
                p.moves().len(),
                game.player_name(player)
            ));
        };
        if args.step {
            print!("[Enter] ");
            std::io::stdout().flush().ok();
            if read_line(&mut input) == Line::End {
                println!();
                return 0;
            }
        }
        let before = p.state().clone();
        p.play(i);
        println!(
            "move {}: {} plays {}\n",
            p.history().len(),
            view.player(player),
            view.describe(&before, p.state(), m.apps())
        );
        println!("{}", view.render(&p));
    }
    if p.is_over() {
        println!("{}", view.result(p.state()));
    } else {
        println!("(the record ends before the game does)");
    }
    0
}
