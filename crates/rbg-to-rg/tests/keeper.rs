//! The keeper's choices are committed: a keeper loop whose steps may come
//! in many orders (here: a flood fill of a 6 x 6 board, through every
//! connected set of squares) is one deterministic walk (an RG walk of
//! every order stops at the engine's bound on walk states), and the
//! translation keeps the RBG game's perft.

use gg_core::perft::perft;

mod checked;

const ROW: &str = "#players = p(1)
#pieces = e, x, y
#variables =
#board = rectangle(up, down, left, right,
    [x, x, x, x, x, x] [x, x, x, x, x, x] [x, x, x, x, x, x]
    [x, x, x, x, x, x] [x, x, x, x, x, x] [x, x, x, x, x, x])
#rules = ((up + down + left + right) {x} [y] ->>)* {! (up + down + left + right) {x}}
    (->p (up* + down*) (left* + right*) {x, y} [e] ->> {})";

#[test]
fn a_keeper_loop_is_one_walk() {
    let text = checked::translated(ROW, 2);
    assert!(text.contains("@disjoint"), "{text}");
    let rg = rg_engine::GameModel::from_text(&text).unwrap();
    // The keeper marked every square: one move per square.
    assert_eq!(perft(&rg, 1).unwrap().leaves, 36);
}
