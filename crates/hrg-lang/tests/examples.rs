//! Every HRG example in `../shared/rg/examples` (or `$RG_EXAMPLES`) gives
//! the perft counts of `perft.tsv` when translated and run by `rg-engine`;
//! the translation prints as RG that parses back to the same game (and does
//! not blow up: under 2 s). Skipped with a message when the folder is
//! missing, unless `CI=true`.

use std::path::Path;
use std::time::{Duration, Instant};

use rg_engine::perft::{perft, Counting};
use rg_engine::GameModel;

fn load(dir: &Path, file: &str) -> GameModel {
    let text = std::fs::read_to_string(dir.join(file)).expect("example");
    let start = Instant::now();
    let (game, checked) = hrg_lang::parse_str(&text).unwrap_or_else(|e| {
        panic!(
            "{file}: {}",
            hrg_lang::SourceFile::new(file, text.as_str()).diagnostic(e)
        )
    });
    let took = start.elapsed();
    // A guard against blow-up on a loaded machine; the 100 ms goal is
    // measured with the `timing` example (games/README.md).
    assert!(
        took < Duration::from_secs(2),
        "{file}: translation took {took:?}"
    );
    let printed = rg_lang::print::print_game(&game);
    let reparsed = rg_lang::parse::parse_game(&printed)
        .unwrap_or_else(|e| panic!("{file}: printed RG does not parse: {e}\n{printed}"));
    assert_eq!(reparsed, game, "{file}: print/parse round trip");
    GameModel::new(checked).unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn perft_of_every_hrg_example() {
    let Some(dir) = testkit::rg_examples() else {
        return;
    };
    testkit::check_rg_example_perft(&dir, ".hrg", 30, |file, depth| {
        let game = load(&dir, file);
        perft(&game, depth, Counting::Walks)
            .unwrap_or_else(|e| panic!("{file}: {}", game.error_text(&e)))
            .leaves
    });
}
