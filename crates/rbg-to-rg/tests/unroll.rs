//! Patterns of shifts and tests are unrolled past an any-vertex move
//! (`unroll.rs`): `coord` is assigned there and the shifts after it become
//! tests of shifted vertices, except where the tests after it pass on few
//! vertices at the start (unless they test a piece at most one vertex
//! holds, `royal.rs`: the shifts then start from its vertex). The
//! translation keeps the RBG game's perft either way.

mod checked;

/// The translation of a one-row game whose player puts `piece` on an
/// empty square and whose keeper ends it when `pattern` fails, after its
/// perft is checked against the RBG engine's to depth 4.
fn translated(row: &str, piece: &str, pattern: &str) -> String {
    let text = format!(
        "#players = p(1)
#pieces = e, x, k
#variables =
#board = rectangle(up, down, left, right, [{row}])
#rules = (->p (left* + right*) {{e}} [{piece}] ->> {{? {pattern}}})*"
    );
    checked::translated(&text, 4)
}

/// Whether the translation moves `coord` by a shift (a pattern kept as it
/// is; the rules' any-vertex moves assign any vertex instead).
fn shifts(rg_text: &str) -> bool {
    rg_text.lines().any(|l| l.contains("coord = go"))
}

#[test]
fn patterns_are_unrolled_past_an_any_vertex_move() {
    let pattern = "(left* + right*) {e} (right {e})* right {x}";
    // Four of six squares hold `e`: unrolled.
    assert!(!shifts(&translated("e, x, e, e, x, e", "x", pattern)));
    // One holds `k`, which the rules put nowhere: unrolled from its vertex.
    let rare = "(left* + right*) {k} (right {e})* right {x}";
    let text = translated("e, x, k, e, x, e", "x", rare);
    assert!(
        !shifts(&text) && text.contains("board[kAt] == k;"),
        "{text}"
    );
    // The rules put down more `k`: kept, so the search tests the vertices
    // together.
    assert!(shifts(&translated("e, x, k, e, x, e", "k", rare)));
    // The same pattern where `k` is common.
    assert!(!shifts(&translated("k, x, k, e, k, e", "x", rare)));
}
