//! Replays the plays the original RBG game manager recorded
//! (`../shared/rbg-suite/transcripts/`, see the suite's README): its server
//! with its random clients, 3 plays of each of 17 suite games. Every move
//! must be legal here, given in the protocol's notation (the original's
//! vertex and modifier numbering), the play must be over exactly after its
//! last move, and the number of moves, the sum of the legal move counts and
//! the scores must equal the server's results line.
//!
//! Without the suite the test skips, except under `CI=true` (see
//! `testkit::rbg_suite`).

use std::path::Path;

use rbg_engine::{GameModel, MoveList};

/// One line of `GAME.results`: `seconds depth available_moves score...`.
struct Results {
    depth: usize,
    available: u64,
    scores: Vec<i64>,
}

fn parse_results(line: &str) -> Results {
    let f: Vec<&str> = line.split_whitespace().collect();
    assert!(f.len() >= 4, "short results line {line:?}");
    Results {
        depth: f[1].parse().expect("depth"),
        available: f[2].parse().expect("available_moves"),
        scores: f[3..].iter().map(|s| s.parse().expect("score")).collect(),
    }
}

/// Replays one play; returns what differs from the results line.
fn replay(game: &GameModel, moves: &[&str], want: &Results) -> Result<(), String> {
    let mut r = game.reasoner();
    let mut state = game.initial_state();
    let mut legal = MoveList::default();
    r.legal_moves(&state, &mut legal)
        .map_err(|e| e.to_string())?;
    let mut available = legal.len() as u64;
    let mut keeper_stuck = false;
    for (i, text) in moves.iter().enumerate() {
        let over = keeper_stuck || game.current_player(&state).is_none() || legal.is_empty();
        if over {
            return Err(format!("move {} `{text}`: the play is already over", i + 1));
        }
        let m = game
            .parse_move(text)
            .map_err(|e| format!("move {} `{text}`: {e}", i + 1))?;
        if !legal.iter().any(|x| x == m.apps()) {
            return Err(format!(
                "move {} `{text}` is not legal ({} legal moves, e.g. `{}`)",
                i + 1,
                legal.len(),
                game.move_to_text(legal.get(0))
            ));
        }
        keeper_stuck = !r.apply(&mut state, m.apps()).map_err(|e| e.to_string())?;
        r.legal_moves(&state, &mut legal)
            .map_err(|e| e.to_string())?;
        available += legal.len() as u64;
    }
    let over = keeper_stuck || game.current_player(&state).is_none() || legal.is_empty();
    if !over {
        return Err(format!(
            "not over after the last move ({} legal moves)",
            legal.len()
        ));
    }
    let got = (moves.len(), available, game.scores(&state));
    let expected = (want.depth, want.available, want.scores.clone());
    if got != expected {
        return Err(format!(
            "(depth, available_moves, scores) = {got:?}, the original's {expected:?}"
        ));
    }
    Ok(())
}

/// Checks every play of `name` (`transcripts/name.moves` against
/// `name.results`, game `games/name.rbg`); returns the failures.
fn check_game(dir: &Path, name: &str) -> Vec<String> {
    let read =
        |p: &Path| std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let t = dir.join("transcripts");
    let game = GameModel::from_text(&read(&dir.join("games").join(format!("{name}.rbg"))))
        .unwrap_or_else(|e| panic!("{name}: {}", e.message));
    let moves = read(&t.join(format!("{name}.moves")));
    let results = read(&t.join(format!("{name}.results")));
    let mut plays: Vec<Vec<&str>> = vec![Vec::new()];
    for line in moves.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if line == "reset" {
            plays.push(Vec::new());
        } else {
            plays.last_mut().expect("one play").push(line);
        }
    }
    assert!(
        plays.pop().is_some_and(|p| p.is_empty()),
        "{name}.moves ends with `reset`"
    );
    let results: Vec<Results> = results.lines().map(parse_results).collect();
    assert_eq!(plays.len(), results.len(), "{name}: plays vs results lines");
    assert!(!plays.is_empty(), "{name}: no plays");
    let mut failures = Vec::new();
    for (i, (play, want)) in plays.iter().zip(&results).enumerate() {
        if let Err(e) = replay(&game, play, want) {
            failures.push(format!("{name} play {}: {e}", i + 1));
        }
    }
    failures
}

#[test]
fn original_plays_replay_move_by_move() {
    let Some(dir) = testkit::rbg_suite("transcripts") else {
        return;
    };
    let mut names: Vec<String> = std::fs::read_dir(dir.join("transcripts"))
        .expect("transcripts")
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "moves").then(|| p.file_stem()?.to_str().map(String::from))?
        })
        .collect();
    names.sort();
    assert!(names.len() >= 17, "expected the 17 games, found {names:?}");
    // Deep rule walks recurse; give them room.
    let failures = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || {
            names
                .iter()
                .flat_map(|n| check_game(&dir, n))
                .collect::<Vec<_>>()
        })
        .expect("spawn")
        .join()
        .expect("no panic");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
