//! Translating a small RBG game for the tests, with its perft checked.

use gg_core::perft::{children, perft};
use gg_core::{Game, MoveList, Reasoner, Turn};

/// The RG translation of the RBG game `text`, after the RG engine's perft
/// of it was checked equal to the RBG engine's at every depth up to
/// `depth`, and every state of its tree above `depth` with no legal move
/// checked to be a finished game (perft counts a player stuck without a
/// move as a finished game: a wrongly skipped "has a move" check would
/// not change it).
pub fn translated(text: &str, depth: usize) -> String {
    let game = rbg_lang::parse_str(text).unwrap();
    let rg_text = rbg_to_rg::translate_text(&game).unwrap();
    let rg = rg_engine::GameModel::from_text(&rg_text).unwrap();
    let rbg = rbg_engine::GameModel::new(game).unwrap();
    for d in 0..=depth {
        let want = perft(&rbg, d).unwrap();
        let got = perft(&rg, d).unwrap();
        assert_eq!(got.leaves, want.leaves, "depth {d}\n{rg_text}");
    }
    type Rg = rg_engine::GameModel;
    let mut r = <Rg as Game>::reasoner(&rg);
    let mut level = vec![<Rg as Game>::initial_state(&rg).unwrap()];
    let mut moves = MoveList::default();
    for d in 0..depth {
        let mut next = Vec::new();
        for s in &level {
            if <Rg as Game>::turn(&rg, s) != Turn::Over {
                Reasoner::legal_moves(&mut r, s, &mut moves).unwrap();
                assert!(!moves.is_empty(), "stuck at depth {d}\n{rg_text}");
            }
            children::<Rg>(&mut r, s, &mut moves, &mut next).unwrap();
        }
        level = next;
    }
    rg_text
}

/// The number of distinct "has a move" checks (`? cN -> cacc`) in the
/// translation of `text`, after it passed [`translated`] to `depth`.
#[allow(dead_code)]
pub fn has_move_checks(text: &str, depth: usize) -> usize {
    let rg_text = translated(text, depth);
    let mut starts: Vec<&str> = rg_text
        .lines()
        .filter_map(|l| l.split_once(": ? c")?.1.split_once(" -> cacc"))
        .map(|(start, _)| start)
        .collect();
    starts.sort_unstable();
    starts.dedup();
    starts.len()
}
