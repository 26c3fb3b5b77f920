//! Shapes of the translation that spare the RG engines work: a pattern
//! that is one comparison is that comparison in place, and the keeper's
//! later alternative equivalent to an earlier one is walked only where the
//! earlier one fails; a check from a node without edges is no edge; a
//! pattern's shift is taken only past the tests after it; a search for a
//! piece that one vertex holds jumps there. The translation keeps the RBG
//! game's perft.

mod checked;

/// A six-square row and `rules`.
fn game(rules: &str) -> String {
    format!(
        "#players = p(1), q(1)
#pieces = e, x
#variables =
#board = rectangle(up, down, left, right, [e, x, e, e, e, x])
#rules = {rules}"
    )
}

#[test]
fn a_one_comparison_pattern_is_no_check() {
    // `{! left {x}}` and `{? right {x}}` are `board[..] != x`, `== x`.
    let text = checked::translated(
        &game("(->p (left* + right*) {e} {! left {x}} [x] ->q (left* + right*) {e} {? right {x}} [x])*"),
        4,
    );
    assert!(!text.contains("p0n0 -> p0nacc"), "{text}");
    assert!(!text.contains("p1n0 -> p1nacc"), "{text}");
    assert!(text.contains("] != x;"), "{text}");
}

#[test]
fn a_keepers_later_equivalent_test_needs_the_earlier_to_fail() {
    // The keeper's two tests lead on alike: the second is walked after
    // `? p0` (the first's negation). Where the first fails and the second
    // holds (two x's on the left only), the keeper still moves.
    let text = checked::translated(
        &game(
            "(->p (left* + right*) {e} [x] ->> ({! left {x} left {x}} + {! right {x} right {x}}))*",
        ),
        4,
    );
    assert!(text.contains(": ? p0n0 -> p0nacc;"), "{text}");
}

#[test]
fn a_check_from_a_node_without_edges_is_left_out() {
    // Where the keeper ends the game (`->> {}`), the next player's copy is
    // empty: its check never holds, so it is no edge (its negation a no-op).
    let text = checked::translated(
        &game("(->p (left* + right*) {e} [x] ->> ({? left {x}} ->> {} + {! left {x}}))*"),
        4,
    );
    let sources: std::collections::HashSet<&str> = text
        .lines()
        .filter_map(|l| l.split_once(", ").map(|(from, _)| from))
        .collect();
    let checks: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_once(": ").map(|(_, label)| label))
        .filter_map(|label| {
            label
                .strip_prefix("? ")
                .or_else(|| label.strip_prefix("! "))
        })
        .filter_map(|check| check.split_once(" -> ").map(|(from, _)| from))
        .collect();
    assert!(!checks.is_empty(), "{text}");
    for from in checks {
        assert!(
            sources.contains(from),
            "check from {from} without edges\n{text}"
        );
    }
}

/// A six-square row with one `k` and `rules`.
fn with_k(rules: &str) -> String {
    format!(
        "#players = p(1), q(1)
#pieces = e, x, k
#variables =
#board = rectangle(up, down, left, right, [e, x, k, e, e, x])
#anySquare = ((up* + down*)(left* + right*))
#rules = {rules}"
    )
}

#[test]
fn a_search_for_a_piece_one_vertex_holds_jumps_there() {
    // `k` is only moved (taken off, put down elsewhere) and captured: the
    // search for it reads its vertex from `kAt` (`royal.rs`).
    let text = checked::translated(
        &with_k(
            "(->p anySquare {k} [e] (left + right) {e, x} [k] {! anySquare {k} left {x}}
              ->q anySquare {x} [e] (left + right) [x])*",
        ),
        5,
    );
    assert!(text.contains("kAt = coord;"), "{text}");
    assert!(text.contains("board[kAt] == k;"), "{text}");
}

#[test]
fn a_piece_put_down_twice_is_searched_everywhere() {
    // `[k]` on an empty square makes a second `k`: no jump, every `k`
    // is tried (with a jump to the last one put down, the earlier ones
    // with an `x` on their left would be missed).
    let text = checked::translated(
        &with_k(
            "(->p anySquare {e} [k] {! anySquare {k} left {x}}
              ->q anySquare {e} [x])*",
        ),
        4,
    );
    assert!(!text.contains("kAt"), "{text}");
}

#[test]
fn a_patterns_shift_is_taken_past_the_tests_after_it() {
    // `{? {$ v == 0} (left {e})* left {x}}` is not unrolled (it compares a
    // variable): each `left` tests `board[go[coord]]` before it moves
    // `coord` (to go on along the ray), so no test reads `board[coord]`.
    let text = checked::translated(
        "#players = p(1), q(1)
#pieces = e, x
#variables = v(1)
#board = rectangle(up, down, left, right, [x, e, e, e, e, e, x, e])
#rules = (->p (left* + right*) {e} {? {$ v == 0} (left {e})* left {x}} [x]
          ->q (left* + right*) {e} [x])*",
        4,
    );
    let pattern: Vec<&str> = text.lines().filter(|l| l.starts_with("p0n")).collect();
    assert!(!pattern.is_empty(), "{text}");
    assert!(
        pattern.iter().all(|l| !l.contains("board[coord]")),
        "{text}"
    );
    assert!(
        pattern
            .iter()
            .any(|l| l.contains("== e;") && l.contains("board[go")),
        "{text}"
    );
}
