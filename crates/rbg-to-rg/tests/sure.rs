//! Where a move surely completes, a switch needs no "has a move" check
//! (`sure.rs`): after tests covering every truth assignment of patterns,
//! every vertex and every value of the variables compared, and
//! after `R + {! R}` with `R` a walk of the rules equal to the pattern. The
//! translation keeps the RBG game's perft either way.

mod checked;

/// A three-square row; `keeper`: what the keeper runs after `p`'s move,
/// `turn`: `p`'s move.
fn game(turn: &str, keeper: &str) -> String {
    format!(
        "#players = p(1), q(1)
#pieces = e, x
#variables = s(2)
#board = rectangle(up, down, left, right, [e, x, e, e, x])
#rules = (->p {turn} ->> {keeper})*"
    )
}

/// The number of distinct "has a move" checks in the translation of `text`
/// (`? cN -> cacc`), after its perft is checked against the RBG engine's
/// to depth 4.
fn checks(text: &str) -> usize {
    checked::has_move_checks(text, 4)
}

#[test]
fn covering_pattern_tests_need_no_check() {
    let turn = "(left* + right*) {e} [x]";
    // Only `p`'s turn is checked.
    let tautology = "({! left {x}} + {! right {x}} + {? left {x}} {? right {x}})";
    assert_eq!(checks(&game(turn, tautology)), 1);
    // Not covered (`left {x}` without `right {x}`): the keeper is checked.
    let partial = "({! left {x}} + {? left {x}} {? right {x}})";
    assert_eq!(checks(&game(turn, partial)), 2);
}

#[test]
fn a_pass_on_the_negated_walk_needs_no_check() {
    // `p` plays on an empty square or passes when there is none: always a
    // move, so `p`'s turn is not checked; the keeper's `{}` never passes.
    let pass = "((left* + right*) {e} [x] + {! (left* + right*) {e}})";
    assert_eq!(checks(&game(pass, "")), 0);
    // The pass tests another pattern: `p` is checked.
    let other = "((left* + right*) {e} [x] + {! (left* + right*) {x}})";
    assert_eq!(checks(&game(other, "")), 1);
}

#[test]
fn covering_vertex_tests_and_comparisons_need_no_check() {
    let turn = "(left* + right*) {e} [x]";
    // `{? left}` is a test of the vertex: it and `{! left}` cover all.
    assert_eq!(checks(&game(turn, "({? left} + {! left})")), 1);
    // Square 0 has no `left` but a `right`: the keeper is checked.
    assert_eq!(checks(&game(turn, "({? left} + {! right})")), 2);
    // `s` is at most 2.
    assert_eq!(checks(&game(turn, "({$ s < 2} + {$ s == 2})")), 1);
    // After the first keeper move `s` is 1: neither comparison holds.
    assert_eq!(checks(&game(turn, "({$ s < 1} [$ s = 1] + {$ s == 2})")), 2);
}

/// A one-row game of jumps over `o`: the keeper gives `p` a capture
/// (`jump`, pieces put between equal tests) when `{? find}` holds, else a
/// step.
fn jumps(find: &str, jump: &str) -> String {
    format!(
        "#players = p(1)
#pieces = e, x, o
#variables =
#board = rectangle(up, down, left, right, [x, o, e, o, e, x, o, e, e])
#rules = (
    {{? (left* + right*) {find}}} ->p (left* + right*) {jump} ->>
  + {{! (left* + right*) {find}}} ->p (left* + right*) {{x}} [e] right {{e}} [x] ->>
  )*"
    )
}

#[test]
fn a_capture_after_its_test_needs_no_check() {
    let find = "{x} right {o} right {e}";
    // Each further jump empties an `o`: the jumps end, so a move completes
    // where `find` held; only the step is checked.
    let jump =
        "{x} [e] right {o} [e] right {e} (right {o} [e] right {e})* {! right {o} right {e}} [x]";
    assert_eq!(checks(&jumps(find, jump)), 1);
    // Jumps that leave the `o`s: no measure decreases, both are checked.
    let keep = "{x} [e] right {o} right {e} (right {o} right {e})* {! right {o} right {e}} [x]";
    assert_eq!(checks(&jumps(find, keep)), 2);
    // The walk reads back the square it emptied (`left {x}` fails there):
    // no move where `find` holds, the game ends by the check.
    let back = "{x} right {o} left {x}";
    let reads = "{x} [e] right {o} left {x} [x]";
    assert_eq!(checks(&jumps(back, reads)), 2);
}

/// A row of eight where `p` puts a `b` on an empty square and the keeper
/// flips the `w`s it encloses, to the left and then to the right
/// (reversi's `swapDirection`: a flip walks back to the square it started
/// from); `back`: what the flips step back over.
fn flips(back: &str) -> String {
    let flip = |d: &str, b: &str| {
        format!(
            "({{! {d} {{w}} {d} ({{w}} {d})* {{b}}}} \
             + {d} {{w}} [b] {d} ({{w}} [b] {d})* {{b}} {b} ({{{back}}} {b})* {{e}})"
        )
    };
    format!(
        "#players = p(1), q(1)
#pieces = e, w, b
#variables =
#board = rectangle(up, down, left, right, [e, w, b, e, w, w, b, e])
#rules = (->p (left* + right*) {{e}} ->> {} {} [b])*",
        flip("left", "right"),
        flip("right", "left")
    )
}

#[test]
fn flips_that_walk_back_to_their_start_need_no_check() {
    // Each flip walks back over the `b`s it put to the empty square it
    // left (known from the walks since the flips began, not from every
    // walk of the game): the keeper's move surely completes.
    assert_eq!(checks(&flips("b")), 1);
    // Walking back over `w`s (which it turned into `b`s) fails: checked.
    assert_eq!(checks(&flips("w")), 2);
}

#[test]
fn a_comparison_bounds_the_assignment_after_it() {
    // After `{$ s < 2}`, `s + 1` is at most 2: the assignment is always
    // legal (no `nan` guard), so the keeper surely completes its move and
    // only `p`'s turn is checked.
    let turn = "(left* + right*) {e} [x]";
    let keeper = "({$ s < 2} [$ s = s + 1] + {$ s == 2} [$ s = 0])";
    let text = game(turn, keeper);
    assert_eq!(checks(&text), 1);
    assert!(!checked::translated(&text, 4).contains("!= nan"));
    // Without the comparison `s + 1` may be 3: guarded and checked.
    let unbounded = "([$ s = s + 1] + {$ s == 2} [$ s = 0])";
    let text = game(turn, unbounded);
    assert_eq!(checks(&text), 2);
    assert!(checked::translated(&text, 4).contains("!= nan"));
}
