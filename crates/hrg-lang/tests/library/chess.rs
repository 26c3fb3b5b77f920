//! Chess (`games/hrg/chess.hrg`, the rules of `games/chess.rbg`): perft
//! against the published values from the initial position and from two
//! test positions, and random games.
//!
//! Sources: Chess Programming Wiki, "Perft Results"
//! (<https://www.chessprogramming.org/Perft_Results>): the initial position
//! (20, 400, 8902, 197281, 4865609), position 2 "Kiwipete" by Peter
//! McKenzie (48, 2039, 97862, 4085603; castling, en passant, promotions,
//! pins) and position 3 (14, 191, 2812, 43238, 674624; en passant and
//! checks along ranks). The test positions are put into the description by
//! replacing its position (the `board`, `colour`, `kingAt` and `unmoved` lines) with
//! one read from FEN.

use rg_engine::GameModel;

use crate::{leaves, load, perft_is, playouts_end_with};

const FILE: &str = "chess.hrg";

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -";
const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -";

/// `chess.hrg` with the position of `fen` (white to move, no en passant).
fn from_fen(fen: &str) -> GameModel {
    let path = crate::game_path(FILE);
    let text = std::fs::read_to_string(&path).unwrap();
    let fields: Vec<&str> = fen.split(' ').collect();
    assert_eq!(fields[1], "w", "white to move");
    let mut entries = vec![":empty".to_string(), "off = border".to_string()];
    let mut colours = vec![":nobody".to_string()];
    let mut kings = Vec::new();
    for (i, row) in fields[0].split('/').enumerate() {
        let rank = 7 - i;
        let mut file = 0;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d as usize;
                continue;
            }
            let colour = if c.is_ascii_uppercase() { 'w' } else { 'b' };
            let piece = format!("{colour}{}", c.to_ascii_uppercase());
            let side = if colour == 'w' { "white" } else { "black" };
            if piece.ends_with('K') {
                kings.push(format!("{side} = S({rank}, {file})"));
            }
            entries.push(format!("S({rank}, {file}) = {piece}"));
            colours.push(format!("S({rank}, {file}) = {side}"));
            file += 1;
        }
    }
    // Castling rights: 1 on the squares of the king and the rook of each
    // right (`unmoved`).
    let right = |rights: &str| u8::from(rights.chars().any(|c| fields[2].contains(c)));
    let position = format!(
        "board : Square -> Piece = {{ {} }}\ncolour : Square -> Side = {{ {} }}\nkingAt : Player -> Square = {{ {} }}\n\
         unmoved : Square -> Bool = {{ :0; S(0, 4) = {}; S(0, 7) = {}; S(0, 0) = {}; \
         S(7, 4) = {}; S(7, 7) = {}; S(7, 0) = {} }}\n",
        entries.join("; "),
        colours.join("; "),
        kings.join("; "),
        right("KQ"),
        right("K"),
        right("Q"),
        right("kq"),
        right("k"),
        right("q"),
    );
    let start = text.find("board : Square -> Piece").unwrap();
    let end = text[start..].find("\nep :").unwrap() + start + 1;
    let text = format!("{}{position}{}", &text[..start], &text[end..]);
    let (_, checked) = hrg_lang::parse_str(&text).unwrap_or_else(|e| {
        panic!(
            "{}",
            hrg_lang::SourceFile::new("chess position", text.as_str()).diagnostic(e)
        )
    });
    GameModel::new(checked).unwrap()
}

#[test]
fn initial_position_perft_to_depth_3() {
    perft_is(&load(FILE), &[20, 400, 8902]);
}

#[test]
#[ignore = "slow: about 7 s"]
fn initial_position_perft_depth_4() {
    assert_eq!(leaves(&load(FILE), 4), 197_281);
}

#[test]
#[ignore = "slow: about 3 min"]
fn initial_position_perft_depth_5() {
    assert_eq!(leaves(&load(FILE), 5), 4_865_609);
}

#[test]
fn kiwipete_perft_to_depth_2() {
    perft_is(&from_fen(KIWIPETE), &[48, 2039]);
}

#[test]
#[ignore = "slow: about 5 s"]
fn kiwipete_perft_depths_3_and_4() {
    assert_eq!(leaves(&from_fen(KIWIPETE), 3), 97_862);
    assert_eq!(leaves(&from_fen(KIWIPETE), 4), 4_085_603);
}

#[test]
fn position_3_perft_to_depth_4() {
    perft_is(&from_fen(POSITION_3), &[14, 191, 2812, 43238]);
}

#[test]
#[ignore = "slow: about 25 s"]
fn position_3_perft_depth_5() {
    assert_eq!(leaves(&from_fen(POSITION_3), 5), 674_624);
}

#[test]
fn random_games_end_properly() {
    // Decisive or drawn; the fifty-move rule bounds every game.
    playouts_end_with(
        &load(FILE),
        10,
        &[&[100, 0], &[0, 100], &[50, 50]],
        1..=6000,
    );
}
