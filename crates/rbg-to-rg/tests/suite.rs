//! Every suite game translates into RG that the RG front end checks, and
//! the RG engine's perft of the translation equals the suite's RBG perft
//! (`perft.tsv`) on every line whose reference time is at most 2 s. The
//! lines above that run with
//! `cargo test --release -p rbg-to-rg --test suite -- --ignored`.

mod common;

use std::path::Path;

struct Line {
    game: String,
    depth: usize,
    leaves: u64,
    ref_seconds: f64,
}

fn lines(dir: &Path) -> Vec<Line> {
    let text = std::fs::read_to_string(dir.join("perft.tsv")).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            Line {
                game: c[0].to_string(),
                depth: c[1].parse().unwrap(),
                leaves: c[2].parse().unwrap(),
                ref_seconds: c[4].parse().unwrap(),
            }
        })
        .collect()
}

/// Runs the perft lines `keep` selects; returns the failures.
fn check(keep: impl Fn(&Line) -> bool) {
    let Some(dir) = common::suite() else { return };
    let all = lines(&dir);
    let mut games: Vec<&str> = all.iter().map(|l| l.game.as_str()).collect();
    games.dedup();
    let mut failures = Vec::new();
    let mut checked = 0;
    for name in games {
        let todo: Vec<&Line> = all.iter().filter(|l| l.game == name && keep(l)).collect();
        if todo.is_empty() {
            continue;
        }
        let model = common::translated(name, &common::game(&dir, name));
        for l in todo {
            let started = std::time::Instant::now();
            match gg_core::perft::perft_parallel(&model, l.depth, 2) {
                Ok(c) if c.leaves == l.leaves => {}
                Ok(c) => failures.push(format!(
                    "{name} depth {}: {} leaves, expected {}",
                    l.depth, c.leaves, l.leaves
                )),
                Err(e) => failures.push(format!(
                    "{name} depth {}: {}",
                    l.depth,
                    model.error_text(&e)
                )),
            }
            eprintln!(
                "{name} depth {}: {:.2} s",
                l.depth,
                started.elapsed().as_secs_f64()
            );
            checked += 1;
        }
    }
    eprintln!("{checked} lines checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_game_translates_and_checks() {
    let Some(dir) = common::suite() else { return };
    let mut names: Vec<String> = lines(&dir).into_iter().map(|l| l.game).collect();
    names.dedup();
    assert_eq!(names.len(), 65);
    for name in &names {
        let game = common::game(&dir, name);
        let text = rbg_to_rg::translate_text(&game).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (ast, checked) =
            rg_lang::parse_str(&text).unwrap_or_else(|e| panic!("{name}: {}", e.message));
        assert!(
            checked.warnings.is_empty(),
            "{name}: {:?}",
            checked.warnings
        );
        // The printed translation reads back as the same game.
        assert_eq!(rg_lang::print::print_game(&ast), text, "{name}");
    }
}

#[test]
fn perft_up_to_two_reference_seconds() {
    check(|l| l.ref_seconds <= 2.0);
}

#[test]
#[ignore = "minutes: the suite's longer perft lines"]
fn perft_above_two_reference_seconds() {
    check(|l| l.ref_seconds > 2.0);
}
