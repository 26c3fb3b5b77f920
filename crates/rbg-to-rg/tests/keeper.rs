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

#[test]
fn a_keepers_search_for_a_tracked_piece_is_no_choice() {
    // The keeper picks up `k` wherever it is (foxAndHounds' fox): only
    // `kAt` passes `{k}` (`royal.rs`), so the keeper jumps there instead
    // of committing to the first of every vertex whose check passes.
    let text = checked::translated(
        "#players = p(1), q(1)
#pieces = e, x, k
#variables =
#board = rectangle(up, down, left, right, [e, x, k, e, e, x])
#anySquare = ((up* + down*)(left* + right*))
#rules = (->> anySquare {k} [e] ->p (left + right) {e} [k] ->q anySquare {e} [x])*",
        6,
    );
    assert!(!text.contains("@disjoint"), "{text}");
    assert!(text.contains("coord = kAt;"), "{text}");
}

#[test]
fn a_keepers_ray_is_not_committed() {
    // The keeper walks left from the mark to `y` (`left*` again and
    // again, or stop where `{y}` or `{x}` holds): one way on, one walk per
    // stop, so no `@disjoint` choice searching the rest of the ray at
    // every step. (On a shorter row `left*` is one shift of a few maps.)
    let text = checked::translated(
        "#players = p(1)
#pieces = e, m, x, y
#variables =
#board = rectangle(up, down, left, right,
    [y, e, e, e, e, e, e, e, e, e, e, e, e, e, e, e])
#rules = ->p (left* + right*) {e} [m]
    ->> left* ({y} [x] + {x} [e]) right* {! right} [y]
    ->p (left* + right*) {e} [m] ->> {}",
        2,
    );
    assert!(!text.contains("@disjoint"), "{text}");
    let rg = rg_engine::GameModel::from_text(&text).unwrap();
    // Depth 2: after a mark on one of the 14 inner squares 13 are empty
    // (the mark, `x` on the first, `y` on the last); after one on the
    // last, 14 (its `m` under the keeper's `y`).
    assert_eq!(perft(&rg, 2).unwrap().leaves, 14 * 13 + 14);
}
