//! Agents on real games: they find forced wins, look ahead for any number
//! of players, are deterministic for a seed, and MCTS beats random.

use std::path::PathBuf;

use rbg_agents::{from_spec, play_game, Agent, MatchStats, Playthrough, DEFAULT_MAX_LENGTH};
use rbg_engine::GameModel;

fn repo_game(name: &str) -> GameModel {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../games")
        .join(name);
    GameModel::from_text(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Three players with different bounds. `a` picks vertex 1 or 2, then `b`
/// picks how to score, then `c` makes its only move:
/// - at vertex 1, `b` prefers (a=0, b=3) over (a=10, b=2);
/// - at vertex 2, `b` prefers (a=4, b=5) over (a=4, b=1).
///
/// So `a` should go to vertex 2 (4 points, not 0), although random replies
/// make vertex 1 look better on average (5 against 4).
const THREE: &str = "
#players = a(10), b(5), c(1)
#pieces = e, s
#variables =
#board = v0[e]{n:v1} v1[e]{}
#rules = ->a ( [s] ->b ( [$ a=10] [$ b=2] + [$ a=0] [$ b=3] )
             + n [s] ->b ( [$ a=4] [$ b=5] + [$ a=4] [$ b=1] ) )
         ->c [$ c=1] ->> {}
";

fn first_choice(game: &GameModel, spec: &str) -> String {
    let p = Playthrough::new(game).unwrap();
    let mut agent = from_spec(spec, 7).unwrap();
    agent.new_game(game, p.state());
    let i = agent.select(p.state(), p.moves(), None).unwrap();
    game.move_to_text(p.moves().get(i))
}

#[test]
fn three_players_mcts_looks_ahead_flat_mc_does_not() {
    let game = GameModel::from_text(THREE).unwrap();
    // `v1 [s]` is "2 <modifier>", `v0 [s]` is "1 <modifier>".
    assert!(first_choice(&game, "mcts:iterations=400").starts_with("2 "));
    assert!(first_choice(&game, "flatmc:iterations=4000").starts_with("1 "));
    // Played out: b answers as it prefers, c moves last.
    let mut agents: Vec<Box<dyn Agent<GameModel>>> = ["mcts:iterations=400"; 3]
        .iter()
        .map(|s| from_spec(s, 3).unwrap())
        .collect();
    let r = play_game(&game, &mut agents, 0, DEFAULT_MAX_LENGTH).unwrap();
    assert_eq!(r.scores, vec![4, 5, 1]);
    assert_eq!(r.moves.len(), 3);
    assert_eq!(r.player_moves, vec![1, 1, 1]);
}

/// Plays tic-tac-toe move texts (vertex numbers 1..=9, row by row, are the
/// squares; the modifier is the cross or nought put there).
fn ttt_after(game: &GameModel, squares: &[u32]) -> Playthrough<GameModel> {
    let mut p = Playthrough::new(game).unwrap();
    for &sq in squares {
        let i = (0..p.moves().len())
            .find(|&i| p.moves().get(i)[0].vertex + 1 == sq)
            .unwrap_or_else(|| panic!("square {sq} is free"));
        p.play(i).unwrap();
    }
    p
}

#[test]
fn search_agents_take_a_win_and_block_a_loss() {
    let game = repo_game("ticTacToe.rbg");
    // x: 1, 2; o: 4, 5. x to move wins at 3.
    let win = ttt_after(&game, &[1, 4, 2, 5]);
    // x: 1, 9; o: 5, 4. x to move must block at 6.
    let block = ttt_after(&game, &[1, 5, 9, 4]);
    for spec in ["mcts:iterations=2000", "flatmc:iterations=2000"] {
        for (p, square) in [(&win, 3), (&block, 6)] {
            let mut a = from_spec(spec, 11).unwrap();
            a.new_game(&game, p.state());
            let i = a.select(p.state(), p.moves(), None).unwrap();
            assert_eq!(p.moves().get(i)[0].vertex + 1, square, "{spec}");
        }
    }
}

#[test]
fn mcts_never_loses_tic_tac_toe_to_random_and_is_deterministic() {
    let game = repo_game("ticTacToe.rbg");
    let bounds = [100, 100];
    let run = || {
        let mut stats = MatchStats::new(vec!["mcts".into(), "random".into()]);
        let mut lengths = Vec::new();
        for g in 0..10u64 {
            let specs = ["mcts:iterations=1000", "random"];
            let seats: Vec<usize> = if g.is_multiple_of(2) {
                vec![0, 1]
            } else {
                vec![1, 0]
            };
            let mut agents: Vec<Box<dyn Agent<GameModel>>> = seats
                .iter()
                .map(|&a| from_spec(specs[a], g * 10 + a as u64).unwrap())
                .collect();
            let r = play_game(&game, &mut agents, g, DEFAULT_MAX_LENGTH).unwrap();
            lengths.push(r.moves.len());
            stats.add(&r, &seats, &bounds);
        }
        (stats.agents[0].wins, stats.agents[0].losses, lengths)
    };
    let (wins, losses, lengths) = run();
    assert_eq!(losses, 0);
    assert!(wins >= 7, "mcts won {wins} of 10");
    assert_eq!(run().2, lengths, "same seeds, same games");
}
