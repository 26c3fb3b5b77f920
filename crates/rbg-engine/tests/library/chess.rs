//! Chess (`games/chess.rbg` and the same rules from two perft test
//! positions): perft against the published values, and random games.
//!
//! Sources of the published numbers:
//! - Chess Programming Wiki, "Perft Results"
//!   (<https://www.chessprogramming.org/Perft_Results>): the initial position
//!   (20, 400, 8902, 197281, 4865609, 119060324), position 2 "Kiwipete" by
//!   Peter McKenzie (48, 2039, 97862, 4085603) and position 3
//!   (14, 191, 2812, 43238, 674624, 11030083).
//! - The same values for the initial position and Kiwipete are listed by
//!   Albert Bertilsson's Sharper perft page
//!   (<http://www.albert.nu/programs/sharper/perft.htm>).
//!
//! Perft here is RBG's (the suite README's definition): the keeper's moves
//! are applied automatically and not counted, so the counts are those of
//! the chess moves.

use crate::{game_path, load, perft_is, playouts_end};
use rbg_engine::perft::perft;

#[test]
fn initial_position_perft_to_depth_4() {
    let g = load("chess.rbg");
    perft_is(&g, &[20, 400, 8902, 197281]);
}

#[test]
#[ignore = "slow: the 10 ignored library tests take 2 min together on 2 cores (session 3)"]
fn initial_position_perft_depth_5() {
    assert_eq!(perft(&load("chess.rbg"), 5).unwrap().leaves, 4865609);
}

#[test]
#[ignore = "slow: the 10 ignored library tests take 2 min together on 2 cores (session 3)"]
fn initial_position_perft_depth_6() {
    assert_eq!(perft(&load("chess.rbg"), 6).unwrap().leaves, 119060324);
}

#[test]
fn kiwipete_perft_to_depth_4() {
    let g = load("chess_kiwipete.rbg");
    perft_is(&g, &[48, 2039, 97862, 4085603]);
}

#[test]
fn position3_perft_to_depth_4() {
    let g = load("chess_position3.rbg");
    perft_is(&g, &[14, 191, 2812, 43238]);
}

#[test]
#[ignore = "slow: the 10 ignored library tests take 2 min together on 2 cores (session 3)"]
fn position3_perft_depths_5_and_6() {
    let g = load("chess_position3.rbg");
    assert_eq!(perft(&g, 5).unwrap().leaves, 674624);
    assert_eq!(perft(&g, 6).unwrap().leaves, 11030083);
}

/// The position files are chess.rbg with another `#board`: everything from
/// `#players` to the end, except the `#board` section, is the same text.
#[test]
fn position_files_share_the_rules() {
    fn rules(file: &str) -> (String, String) {
        let text = std::fs::read_to_string(game_path(file)).unwrap();
        let players = text.find("\n#players").expect("#players");
        let board = text.find("\n#board =").expect("#board");
        let after = text.find("// ---------").expect("geometry marker");
        (text[players..board].to_string(), text[after..].to_string())
    }
    let base = rules("chess.rbg");
    for file in ["chess_kiwipete.rbg", "chess_position3.rbg"] {
        assert!(
            rules(file) == base,
            "{file} differs from chess.rbg outside #board"
        );
    }
}

#[test]
fn random_games_end_with_mate_stalemate_or_fifty_moves() {
    let g = load("chess.rbg");
    // The fifty-move rule bounds a game: at most 16 * 6 pawn moves and 30
    // captures, each followed by at most 99 other half-moves.
    let res = playouts_end(&g, 20, 7, 127 * 100);
    res.assert_win_loss_draw();
}
