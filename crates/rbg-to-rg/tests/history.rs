//! A move surely completes where the walk into it has seen enough of the
//! board (`history.rs`): amazons' arrow can always fly back toward the
//! square its amazon left, so the "has a move" check ends after the
//! amazon's first step; connect4's drop `down* {e} {! down {e}}` from an
//! empty square always finds the lowest empty one. The translation keeps
//! the RBG game's perft, and no player is left on move without one.

mod checked;

/// A five-square row where `x` pieces fly and shoot; `turn`: `p`'s move,
/// after which the keeper puts an `x` where it ended.
fn game(turn: &str) -> String {
    format!(
        "#players = p(1), q(1)
#pieces = e, x
#variables =
#board = rectangle(up, down, left, right, [e, x, e, e, e])
#rules = (->p {turn} ->> [x])*"
    )
}

/// The check copy's writes of `x` in the translation of `text`, after its
/// perft is checked against the RBG engine's to depth 5.
fn copy_puts(text: &str) -> usize {
    checked::translated(text, 5)
        .lines()
        .filter(|l| l.starts_with('c') && l.ends_with("] = x;"))
        .count()
}

#[test]
fn the_check_ends_where_the_walk_in_proves_a_move() {
    // Fly either way, land, shoot either way: the square behind the
    // landing square is empty (emptied or flown over), so the check ends
    // at the first empty step and never lands.
    let flight = "(left {e} (left {e})* + right {e} (right {e})*)";
    let amazon = format!("(left* + right*) {{x}} [e] {flight} [x] (left {{e}} + right {{e}})");
    assert_eq!(copy_puts(&game(&amazon)), 0);
    // Shooting only to the right: a flight to the right lands with an
    // unknown square ahead, so the check lands and shoots.
    let right = format!("(left* + right*) {{x}} [e] {flight} [x] right {{e}}");
    assert!(copy_puts(&game(&right)) > 0);
}

#[test]
fn a_square_written_since_its_test_proves_nothing() {
    // The square tested empty is filled before the walk comes back to it:
    // no move is ever legal, and the game ends at once.
    let refilled = "(left* + right*) {e} [x] right {e} [x] left {e}";
    assert!(copy_puts(&game(refilled)) > 0);
}

/// A column (top first) where `p` picks an empty square and the keeper
/// runs `drop` from it; the number of distinct "has a move" checks in the
/// translation, after its perft is checked (depth 4).
fn drop_checks(column: &str, drop: &str) -> usize {
    let text = format!(
        "#players = p(1)
#pieces = e, x
#variables =
#board = rectangle(up, down, left, right, {column})
#rules = (->p (up* + down*) {{e}} ->> {drop})*"
    );
    checked::has_move_checks(&text, 4)
}

#[test]
fn a_drop_to_the_lowest_empty_square_needs_no_check() {
    let column = "[e] [e] [e] [x] [x]";
    // Only `p`'s turn is checked (the column fills up).
    assert_eq!(drop_checks(column, "down* {e} {! down {e}} [x]"), 1);
    // Sliding up while testing below: the keeper is checked.
    assert_eq!(drop_checks(column, "up* {e} {! down {e}} [x]"), 2);
    // Stopping above an `x` (not a piece the slide stands on): the keeper
    // is stuck above an `e` whose next square is an `x`, and checked.
    assert_eq!(drop_checks("[e] [x]", "down* {e} {! down {x}} [x]"), 2);
}
