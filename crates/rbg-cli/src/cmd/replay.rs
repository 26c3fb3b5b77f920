//! `rbg replay GAME FILE`: show a recorded game move by move.

use std::io::Write;

use clap::Args;
use gg_core::MoveError;
use gg_games::with_game;
use rbg_agents::Playthrough;

use super::board::colour_wanted;
use super::choose::{read_line, Line};
use super::view::Presented;
use super::{load_any, print_error, read_source};

/// Arguments of `rbg replay`.
#[derive(Args, Debug)]
#[command(after_help = "\
FILE holds one move per line in the game's notation (`vertex modifier` pairs in RBG, \
tags in RG, as written by `rbg play --record`); empty lines and lines starting with `//` \
are skipped. \
Either GAME or FILE may be `-` (standard input), not both, and not with --step.")]
pub struct ReplayArgs {
    /// Game description (`.rbg`, `.rg`, `.hrg`; `-` for RBG on standard input).
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
    let Some(game) = load_any(&args.game) else {
        return 1;
    };
    with_game!(&game, g => replay(args, g))
}

/// Replays the record of `args` on `game`.
fn replay<G: Presented>(args: &ReplayArgs, game: &G) -> i32 {
    let engine_error = |e: G::Error| {
        print_error(&args.game, &game.error_text(&e));
        1
    };
    let record = match read_source(&args.file) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let (file, text) = (&record.name, &record.text);
    let view = game.view(colour_wanted());
    // A record is replayed whatever its length.
    let mut p = match Playthrough::new(game) {
        Ok(p) => p.with_max_length(u64::MAX),
        Err(e) => return engine_error(e),
    };
    print!("{}", view.legend());
    println!("{}", view.render(p.state(), p.turn()));
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
        // An engine that reads moves against the legal ones says "not
        // legal" here; the others are looked up below.
        let m = match p.parse(line) {
            Ok(m) => Some(m),
            Err(MoveError::NotLegal(_)) => None,
            Err(e) => return fail(format!("malformed move `{line}`: {e}")),
        };
        if p.is_over() {
            return fail(format!("move `{line}` after the end of the game"));
        }
        let (who, mover) = match p.player() {
            Some(player) => (view.player(player), game.player_name(player)),
            None => ("chance".to_string(), "chance"),
        };
        let Some((m, i)) = m.and_then(|m| p.find(&m).map(|i| (m, i))) else {
            return fail(format!(
                "illegal move `{line}`: not one of the {} legal moves of {mover}",
                p.moves().len(),
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
        if let Err(e) = p.play(i) {
            return engine_error(e);
        }
        println!(
            "move {}: {who} plays {}\n",
            p.history().len(),
            view.describe(&before, p.state(), &m)
        );
        println!("{}", view.render(p.state(), p.turn()));
    }
    if p.is_over() {
        println!("{}", view.result(p.state()));
    } else {
        println!("(the record ends before the game does)");
    }
    0
}
