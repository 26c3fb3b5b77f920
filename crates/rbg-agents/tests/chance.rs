//! Agents in a game with chance ([`gg_core::toy::Gamble`]): search agents
//! maximise the expected score, and games are drawn reproducibly.

use gg_core::toy::Gamble;
use rbg_agents::{from_spec, play_game, Agent, Playthrough, DEFAULT_MAX_LENGTH};

/// Option 0 scores 5; option 1 draws 0, 10 or 10 (expected 6.67); option 2
/// draws 0, 0, 0 or 11 (expected 2.75, but the best single outcome).
fn gamble() -> Gamble {
    Gamble::new(vec![vec![5], vec![0, 10, 10], vec![0, 0, 0, 11]])
}

#[test]
fn search_agents_maximise_the_expected_score() {
    let game = gamble();
    for spec in ["mcts:iterations=3000", "flatmc:iterations=3000"] {
        for seed in 0..3 {
            let p = Playthrough::new(&game).unwrap();
            let mut a: Box<dyn Agent<Gamble>> = from_spec(spec, seed).unwrap();
            a.new_game(&game, p.state());
            let i = a.select(p.state(), p.moves(), None).unwrap();
            assert_eq!(p.moves().get(i), &[1], "{spec} seed {seed}");
        }
    }
}

#[test]
fn chance_moves_are_drawn_by_the_arena_reproducibly() {
    let game = gamble();
    let play = |seed| {
        let mut agents: Vec<Box<dyn Agent<Gamble>>> = vec![from_spec("random", seed).unwrap()];
        let r = play_game(&game, &mut agents, seed + 1000, DEFAULT_MAX_LENGTH).unwrap();
        assert_eq!(r.moves.len(), 2, "a choice and a draw");
        assert_eq!(r.player_moves, vec![1]);
        let options = [5, 10, 11];
        assert!(r.scores[0] == 0 || r.scores[0] == options[r.moves[0][0] as usize]);
        (r.moves, r.scores)
    };
    let games: Vec<_> = (0..40).map(play).collect();
    assert_eq!(games, (0..40).map(play).collect::<Vec<_>>());
    // All 8 (choice, draw) pairs occur.
    let pairs: std::collections::BTreeSet<_> = games.iter().map(|g| g.0.clone()).collect();
    assert_eq!(pairs.len(), 8, "{pairs:?}");
}
