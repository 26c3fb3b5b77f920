//! Perft of every RG example in `../shared/rg/examples` (or `$RG_EXAMPLES`)
//! equals `perft.tsv`. Skipped with a message when the folder is missing,
//! unless `CI=true`.

use rg_engine::perft::{perft, Counting};
use rg_engine::GameModel;

#[test]
fn perft_of_every_rg_example() {
    let Some(dir) = testkit::rg_examples() else {
        return;
    };
    testkit::check_rg_example_perft(&dir, ".rg", 25, |file, depth| {
        let text = std::fs::read_to_string(dir.join(file)).expect("example");
        let game = GameModel::from_text(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        perft(&game, depth, Counting::Walks)
            .unwrap_or_else(|e| panic!("{file}: {}", game.error_text(&e)))
            .leaves
    });
}
