//! Every HRG example in `../shared/rg/examples` (or `$RG_EXAMPLES`) gives
//! the perft counts of `perft.tsv` when translated and run by `rg-engine`;
//! the translation prints as RG that parses back to the same game (and does
//! not blow up: under 2 s). Skipped with a message when the folder is
//! missing, unless `CI=true`.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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
    let Some(dir) = examples_dir() else { return };
    let table = std::fs::read_to_string(dir.join("perft.tsv")).expect("perft.tsv");
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in table.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (file, depth, expected): (&str, usize, u64) =
            (cols[0], cols[1].parse().unwrap(), cols[2].parse().unwrap());
        if !file.ends_with(".hrg") {
            continue;
        }
        let game = load(&dir, file);
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
    assert!(checked >= 30, "only {checked} lines checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
