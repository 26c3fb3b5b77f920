//! Shifts fused with the tests after them (`fuse.rs`): a transition into
//! a shift whose continuations only test pieces reads the square through
//! the shifts' composed map and moves `coord` only when the test holds.
//! The translation keeps the RBG game's perft.

mod checked;

/// Pawns of `white` (`w`) and `black` (`b`) on four rows of three squares stepping like
/// breakthrough's: up (down for `b`) onto an empty square, or also one
/// square to the side onto an empty square or an opponent's pawn.
const GAME: &str = "#players = white(1), black(1)
#pieces = e, w, b
#variables =
#board = rectangle(up, down, left, right,
    [b, b, b] [e, e, e] [e, e, e] [w, w, w])
#anySquare = (up* + down*) (left* + right*)
#rules = (
    ->white anySquare {w} [e] up ({e} + (left + right) {e, b}) [w]
    ->black anySquare {b} [e] down ({e} + (left + right) {e, w}) [b]
  )*";

#[test]
fn shifts_before_tests_are_read_through_their_composed_map() {
    let rg = checked::translated(GAME, 5);
    // Every shift (up; up then left or right) moves `coord` from a fused
    // node, after its test: three per player's move.
    let shifts: Vec<&str> = rg.lines().filter(|l| l.contains(": coord = go")).collect();
    assert!(shifts.len() >= 6, "{rg}");
    for l in shifts {
        let from = l.split_once(", ").map_or("", |(from, _)| from);
        assert!(from.contains("fgo"), "{l}\n{rg}");
    }
}
