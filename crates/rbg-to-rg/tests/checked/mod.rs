//! Translating a small RBG game for the tests, with its perft checked.

use gg_core::perft::perft;

/// The RG translation of the RBG game `text`, after the RG engine's perft
/// of it was checked equal to the RBG engine's at every depth up to
/// `depth`.
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
    rg_text
}
