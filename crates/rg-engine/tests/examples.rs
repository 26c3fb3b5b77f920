//! Perft of every RG example in `../shared/rg/examples` (or `$RG_EXAMPLES`)
//! equals `perft.tsv`. Skipped with a message when the folder is missing,
//! unless `CI=true`.

use std::path::{Path, PathBuf};

use rg_engine::perft::{perft, Counting};
use rg_engine::GameModel;

fn examples_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("RG_EXAMPLES")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/rg/examples")
        });
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "RG examples not found at {}",
        dir.display()
    );
    eprintln!("skipped: RG examples not found at {}", dir.display());
    None
}

#[test]
fn perft_of_every_rg_example() {
    let Some(dir) = examples_dir() else { return };
    let table = std::fs::read_to_string(dir.join("perft.tsv")).expect("perft.tsv");
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in table.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (file, depth, expected): (&str, usize, u64) =
            (cols[0], cols[1].parse().unwrap(), cols[2].parse().unwrap());
        if !file.ends_with(".rg") {
            continue;
        }
        let text = std::fs::read_to_string(dir.join(file)).expect("example");
        let game = GameModel::from_text(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        let got = perft(&game, depth, Counting::Walks)
            .unwrap_or_else(|e| panic!("{file}: {}", game.error_text(&e)));
        if got.leaves != expected {
            failures.push(format!(
                "{file} depth {depth}: expected {expected}, got {}",
                got.leaves
            ));
        }
        checked += 1;
    }
    assert!(checked >= 25, "only {checked} lines checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
