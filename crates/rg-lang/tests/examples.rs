//! The RG examples of `../shared/rg/examples` (next to the repository, or
//! `$RG_EXAMPLES`): each parses, and printing then parsing gives an equal game
//! and the same text again. Skipped with a message when the folder is missing,
//! unless `CI=true`.

use std::path::PathBuf;

use rg_lang::parse::parse_game;
use rg_lang::print::print_game;

fn examples() -> Option<Vec<PathBuf>> {
    let dir = testkit::rg_examples()?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("readable examples folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rg"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .rg files in {}", dir.display());
    Some(files)
}

#[test]
fn examples_parse_and_round_trip() {
    let Some(files) = examples() else { return };
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable example");
        let game = parse_game(&text).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        assert!(!game.edges.is_empty(), "{}", path.display());
        let checked =
            rg_lang::check::check(&game).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        assert!(
            checked.warnings.is_empty(),
            "{}: {:?}",
            path.display(),
            checked.warnings
        );
        let printed = print_game(&game);
        let again = parse_game(&printed)
            .unwrap_or_else(|e| panic!("{}: reprint: {e:?}\n{printed}", path.display()));
        assert_eq!(again, game, "{}", path.display());
        assert_eq!(print_game(&again), printed, "{}", path.display());
    }
}
