//! Piece counts kept only where a later read sees them (`counts.rs`): an
//! unread piece's count may drift past zero to `nan`, and the game stays
//! exact.

mod checked;

#[test]
fn an_unread_count_drifting_past_zero_keeps_the_game_exact() {
    // Each move empties a square holding `a` or `c` (a kept decrement:
    // `a` is read) and puts `c` there (not counted: `c` is never read), so
    // `c`'s count, 1 at the start, goes down every time a `c` is taken:
    // to 0, then to `dec`'s `nan`, then stays there.
    let text = checked::translated(
        "#players = p(1)
#pieces = e, a, c
#variables =
#board = rectangle(up, down, left, right, [c, a, e])
#rules = (->p (left* + right*) {a, c} [e] [c] {$ a < 5})*",
        8,
    );
    assert!(
        text.contains("counters[board[coord]] = dec[counters[board[coord]]];"),
        "{text}"
    );
    assert!(!text.contains("= inc["), "{text}");
}
