//! Shifts fused with the tests after them (`fuse.rs`): a transition into
//! a shift whose continuations only test pieces reads the square through
//! the shifts' composed map and moves `coord` only when the test holds.
//! A test entered only so with fused shifts after it keeps the map
//! pending (a ray moves `coord` once, where it stops). The translation
//! keeps the RBG game's perft.

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

/// Amazons on a board of five rows of four squares: a piece slides along
/// a ray of empty squares, then shoots an arrow (`x`) along a diagonal.
const RAYS: &str = "#players = white(1), black(1)
#pieces = e, w, b, x
#variables =
#board = rectangle(up, down, left, right,
    [b, e, e, b] [e, e, e, e] [e, e, e, e] [e, e, e, e] [w, e, e, w])
#anySquare = (up* + down*) (left* + right*)
#ray(dir) = dir {e} (dir {e})*
#turn(me; piece) = ->me anySquare {piece} [e]
    (ray(up) + ray(down) + ray(left) + ray(right)) [piece]
    (ray(up left) + ray(down right) + ray(up right)) [x]
#rules = (turn(white; w) turn(black; b))*";

#[test]
fn a_walk_along_a_ray_moves_coord_only_where_it_stops() {
    let rg = checked::translated(RAYS, 4);
    // A test after a test, through the map composed of both steps of the
    // ray (`coord` not moved between them).
    let lazy = rg.lines().any(|l| {
        l.split_once(": ").is_some_and(|(ends, label)| {
            ends.split(", ").all(|n| n.contains("fgo")) && label.contains("] == e")
        })
    });
    assert!(lazy, "{rg}");
    // `coord` moves only into the modifiers after the ray.
    for l in rg.lines().filter(|l| l.contains(": coord = go")) {
        let (from, to) = l.split_once(": ").unwrap().0.split_once(", ").unwrap();
        assert!(from.contains("fgo") && !to.contains("fgo"), "{l}\n{rg}");
    }
}
