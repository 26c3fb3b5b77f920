//! Conformance over the RBG suite (`../shared/rbg-suite` next to the
//! repository, or `$RBG_SUITE`): every game parses, survives the LL-RBG
//! round trip, and has the strong straightness listed in `straightness.tsv`.
//!
//! When the suite is missing the test is skipped, unless `CI=true`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rbg_lang::analysis::strong_straightness;
use rbg_lang::print::print_game;
use rbg_lang::{load, parse_str, Game, SourceFile};

fn collect_games(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect_games(&p, out);
        } else if p.extension().is_some_and(|e| e == "rbg") {
            out.push(p);
        }
    }
}

fn expected_straightness(suite: &Path) -> BTreeMap<String, Option<u64>> {
    let text = std::fs::read_to_string(suite.join("straightness.tsv"))
        .expect("straightness.tsv is readable");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let (game, value) = l.split_once('\t').expect("two columns");
            let value = match value.trim() {
                "inf" => None,
                n => Some(n.parse().expect("a number or inf")),
            };
            (game.to_string(), value)
        })
        .collect()
}

/// Names the first part where two games differ (for failure messages).
fn first_difference(a: &Game, b: &Game) -> String {
    if a.players != b.players {
        return format!("players {:?} vs {:?}", a.players, b.players);
    }
    if a.pieces != b.pieces {
        return format!("pieces {:?} vs {:?}", a.pieces, b.pieces);
    }
    if a.variables != b.variables {
        return format!("variables {:?} vs {:?}", a.variables, b.variables);
    }
    if a.board.dirs != b.board.dirs {
        return format!("dirs {:?} vs {:?}", a.board.dirs, b.board.dirs);
    }
    if a.board.vertices.len() != b.board.vertices.len() {
        return format!(
            "{} vs {} vertices",
            a.board.vertices.len(),
            b.board.vertices.len()
        );
    }
    for (i, (x, y)) in a.board.vertices.iter().zip(&b.board.vertices).enumerate() {
        if x != y {
            return format!("vertex {i}: {x:?} vs {y:?}");
        }
    }
    let ra = format!("{:?}", a.rules);
    let rb = format!("{:?}", b.rules);
    let at = ra
        .bytes()
        .zip(rb.bytes())
        .position(|(x, y)| x != y)
        .unwrap_or(ra.len().min(rb.len()));
    let from = at.saturating_sub(80);
    format!(
        "rules differ at: {:?} vs {:?}",
        &ra[from..(at + 80).min(ra.len())],
        &rb[from..(at + 80).min(rb.len())]
    )
}

fn show(s: Option<u64>) -> String {
    s.map_or_else(|| "inf".to_string(), |n| n.to_string())
}

#[test]
fn suite_conformance() {
    let Some(suite) = testkit::rbg_suite("games") else {
        return;
    };
    let games_dir = suite.join("games");
    let mut games = Vec::new();
    collect_games(&games_dir, &mut games);
    let expected = expected_straightness(&suite);
    assert_eq!(games.len(), 65, "the suite has 65 games");

    let mut failures = Vec::new();
    for path in &games {
        let rel = path
            .strip_prefix(&games_dir)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let bytes = std::fs::read(path).unwrap();
        let file = SourceFile::from_bytes(rel.clone(), &bytes);
        let game = match load(&file) {
            Ok(g) => g,
            Err(d) => {
                failures.push(format!("{rel}: does not parse:\n{d}"));
                continue;
            }
        };

        // Round trip: print -> parse -> equal game, and the same text again.
        let text = print_game(&game);
        match parse_str(&text) {
            Ok(again) => {
                if again != game {
                    failures.push(format!(
                        "{rel}: round trip gives a different game ({})",
                        first_difference(&game, &again)
                    ));
                }
                let text2 = print_game(&again);
                if text2 != text {
                    failures.push(format!("{rel}: printing the reparsed game differs"));
                }
            }
            Err(e) => {
                let ll = SourceFile::new(format!("{rel} (printed)"), text);
                failures.push(format!(
                    "{rel}: printed LL-RBG does not parse:\n{}",
                    ll.diagnostic(e)
                ));
            }
        }

        // Strong straightness.
        let got = strong_straightness(&game);
        match expected.get(&rel) {
            Some(want) if *want == got => {}
            Some(want) => failures.push(format!(
                "{rel}: strong straightness {} (expected {})",
                show(got),
                show(*want)
            )),
            None => failures.push(format!("{rel}: missing from straightness.tsv")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failure(s) over {} games:\n{}",
        failures.len(),
        games.len(),
        failures.join("\n")
    );
}
