//! MCTS beats uniformly random play in at least 95% of 40 games of the
//! suite's breakthrough, connect4 and reversi, with small iteration budgets
//! (the gap at 1 s per move is larger still). Seats alternate. They run
//! with `--release` only (ignored in debug builds).
//!
//! The suite lives beside the repository (`../shared/rbg-suite`, override
//! with `RBG_SUITE`). When it is missing the tests skip, except under
//! `CI=true`, where a missing suite is an error.

use rbg_agents::{from_spec, play_game, Agent, MatchStats, DEFAULT_MAX_LENGTH};
use rbg_engine::GameModel;

fn suite_game(name: &str) -> Option<GameModel> {
    let path = testkit::rbg_suite("games")?.join("games").join(name);
    let text = std::fs::read_to_string(path).unwrap();
    Some(GameModel::from_text(&text).unwrap())
}

/// Plays 40 games of `spec` against random (seats alternating) and checks
/// that `spec` wins at least 38.
fn beats_random(name: &str, spec: &str) {
    let Some(game) = suite_game(name) else { return };
    let specs = [spec, "random"];
    let bounds: Vec<u64> = game.description().players.iter().map(|p| p.bound).collect();
    let play = |g: u64| {
        let seats: Vec<usize> = if g.is_multiple_of(2) {
            vec![0, 1]
        } else {
            vec![1, 0]
        };
        let mut agents: Vec<Box<dyn Agent<GameModel>>> = seats
            .iter()
            .map(|&a| from_spec(specs[a], 1000 * g + a as u64).unwrap())
            .collect();
        let record = play_game(&game, &mut agents, g, DEFAULT_MAX_LENGTH).unwrap();
        (record, seats)
    };
    // Two threads (odd and even games); the results do not depend on it.
    let records: Vec<_> = std::thread::scope(|scope| {
        let odd = scope.spawn(|| (1..40).step_by(2).map(play).collect::<Vec<_>>());
        let even: Vec<_> = (0..40).step_by(2).map(play).collect();
        even.into_iter().chain(odd.join().unwrap()).collect()
    });
    let mut stats = MatchStats::new(specs.iter().map(|s| s.to_string()).collect());
    for (record, seats) in &records {
        stats.add(record, seats, &bounds);
    }
    let (m, r) = (&stats.agents[0], &stats.agents[1]);
    eprintln!(
        "{name}: {spec} {}/{}/{} (wins/draws/losses) against random, average length {:.1}",
        m.wins,
        m.draws,
        m.losses,
        stats.avg_length()
    );
    assert_eq!(m.wins + m.draws + m.losses, 40);
    assert_eq!((m.wins, m.losses), (r.losses, r.wins));
    assert!(
        m.wins >= 38,
        "{spec} won only {} of 40 {name} games",
        m.wins
    );
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow without optimisations: run with --release"
)]
fn mcts_beats_random_at_breakthrough() {
    beats_random("breakthrough.rbg", "mcts:iterations=200");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow without optimisations: run with --release"
)]
fn mcts_beats_random_at_connect4() {
    beats_random("connect4.rbg", "mcts:iterations=100");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "slow without optimisations: run with --release"
)]
fn mcts_beats_random_at_reversi() {
    beats_random("reversi.rbg", "mcts:iterations=60");
}
