//! Using the engine from Rust: load a game description, play uniformly
//! random moves until the game ends, print the moves, the final position
//! and the scores.
//!
//! ```sh
//! cargo run --release -p rbg-engine --example random_game -- games/ticTacToe.rbg 7
//! ```
//!
//! The arguments are the description (default `games/ticTacToe.rbg`) and a
//! seed (default 1). `cargo test` builds this example and runs its test.

use std::error::Error;

use gg_core::{Game, MoveList, Reasoner, Turn};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rbg_engine::GameModel;
use rbg_lang::SourceFile;

/// A finished random game: the move texts and the final state.
struct Played<G: Game> {
    moves: Vec<String>,
    last: G::State,
}

/// Plays random moves from the initial state until the game is over (or
/// the player on move has no legal move). Works for any engine behind the
/// [`Game`] interface.
fn play_random<G: Game>(game: &G, seed: u64) -> Result<Played<G>, G::Error> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut reasoner = game.reasoner();
    let mut state = game.initial_state()?;
    let mut moves = MoveList::default();
    let mut played = Vec::new();
    while game.turn(&state) != Turn::Over {
        reasoner.legal_moves(&state, &mut moves)?;
        if moves.is_empty() {
            break;
        }
        let m = moves.get(rng.gen_range(0..moves.len())).to_vec();
        played.push(game.move_text(&m));
        reasoner.apply(&mut state, &m)?;
    }
    Ok(Played {
        moves: played,
        last: state,
    })
}

fn main() {
    // Errors are printed with `Display` (`main` returning them would print
    // their `Debug` form).
    if let Err(e) = run() {
        eprintln!("{e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| "games/ticTacToe.rbg".to_string());
    let seed: u64 = args.next().map(|s| s.parse()).transpose()?.unwrap_or(1);
    let bytes = std::fs::read(&path).map_err(|e| format!("{path}: cannot read: {e}"))?;
    let file = SourceFile::from_bytes(&path, &bytes);
    // An invalid description is a `Diagnostic`: `file:line:col: error: ...`
    // followed by the source line with a caret.
    let game = GameModel::load(&file)?;
    let played = play_random(&game, seed)?;
    for (i, m) in played.moves.iter().enumerate() {
        println!("move {}: {m}", i + 1);
    }
    print!("{}", game.describe(&played.last));
    for (p, score) in game.scores(&played.last).iter().enumerate() {
        println!("{}: {score}", game.player_name(p));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TTT: &str = include_str!("../../../games/ticTacToe.rbg");

    #[test]
    fn random_tic_tac_toe_ends_with_valid_scores() -> Result<(), Box<dyn Error>> {
        // `rbg_lang::Error` is a `std::error::Error`, so `?` works here.
        let game = GameModel::from_text(TTT)?;
        for seed in 0..20 {
            let played = play_random(&game, seed)?;
            assert!(
                (5..=9).contains(&played.moves.len()),
                "{}",
                played.moves.len()
            );
            let scores = game.scores(&played.last);
            assert!(
                [[100, 0], [0, 100], [50, 50]].contains(&[scores[0], scores[1]]),
                "{scores:?}"
            );
        }
        let bad = GameModel::from_text("#players = a(1)").unwrap_err();
        let boxed: Box<dyn Error> = Box::new(bad);
        assert!(
            boxed.to_string().starts_with("missing section `#pieces`"),
            "{boxed}"
        );
        Ok(())
    }
}
