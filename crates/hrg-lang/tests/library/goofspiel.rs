//! Goofspiel with 4 cards (hidden bids): every round the random player
//! reveals one of the k remaining prizes, then each player bids one of
//! their k remaining cards, so perft is a running product of
//! 4, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1 (random moves use a ply), then 0.
//! Bids are hidden: the bidder's tag is invisible to the opponent.

use rg_engine::{MoveList, Mover};

use crate::{load, perft_is, playouts_end_with};

const FILE: &str = "goofspiel.hrg";

#[test]
fn perft_is_the_product_of_the_choices() {
    let mut expected = Vec::new();
    let mut product = 1;
    for k in (1..=4).rev() {
        for _ in 0..3 {
            product *= k;
            expected.push(product);
        }
    }
    expected.push(0);
    perft_is(&load(FILE), &expected);
}

#[test]
fn random_games_end_after_eight_bids() {
    playouts_end_with(&load(FILE), 200, &[&[2, 0], &[0, 2], &[1, 1]], 8..=8);
}

#[test]
fn a_bid_is_hidden_from_the_opponent() {
    let game = load(FILE);
    let mut r = game.reasoner();
    let mut s = game.initial_state();
    let mut moves = MoveList::default();
    r.complete_keeper(&mut s).unwrap();
    // The prize (seen by both), then alice's bid.
    r.moves(&mut s, &mut moves).unwrap();
    assert_eq!(game.mover(&s).unwrap(), Mover::Random);
    assert_eq!(game.observation(&moves, 0, 1).len(), 1);
    r.apply(&mut s, &moves, 0);
    r.moves(&mut s, &mut moves).unwrap();
    assert_eq!(game.mover(&s).unwrap(), Mover::Player(0));
    assert_eq!(moves.len(), 4);
    for i in 0..moves.len() {
        assert_eq!(
            game.observation(&moves, i, 0).len(),
            1,
            "alice sees her bid"
        );
        assert!(game.observation(&moves, i, 1).is_empty(), "bob does not");
    }
}
