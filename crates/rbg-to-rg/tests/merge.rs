//! Nodes with the same future merged (`merge.rs`): a star of hops leaves
//! one node per hop's last leaf, all with the star's edges; the
//! translation keeps one. The translation keeps the RBG game's perft.

mod checked;

/// Pieces hop over a piece onto an empty square, forward, left or right,
/// any number of times, then are put down (where they started, after no
/// hop): chineseCheckers6's jumps on four rows of four squares.
const HOPS: &str = "#players = white(1), black(1)
#pieces = e, w, b
#variables =
#board = rectangle(up, down, left, right,
    [b, b, b, b] [e, b, e, e] [e, e, w, e] [w, w, w, w])
#anySquare = (up* + down*) (left* + right*)
#hop(dir) = dir {w, b} dir {e}
#turn(me; piece; fwd) = ->me anySquare {piece} [e] (hop(fwd) + hop(left) + hop(right))* [piece]
#rules = (turn(white; w; up) turn(black; b; down))*";

#[test]
fn the_hops_land_on_one_node() {
    let rg = checked::translated(HOPS, 5);
    // White's put (`$ index_3`) after `$$ coord` from where the piece
    // stands: the start (no hop) and one landing for the three hops.
    let edge = |l: &str| {
        let (ends, label) = l.split_once(": ")?;
        let (from, to) = ends.split_once(", ")?;
        Some((from.to_string(), to.to_string(), label.to_string()))
    };
    let edges: Vec<_> = rg.lines().filter_map(edge).collect();
    let put = edges
        .iter()
        .find(|e| e.2 == "$ index_3;")
        .map(|e| e.0.clone());
    let put = put.expect("white's put");
    let into: Vec<&str> = edges
        .iter()
        .filter(|e| e.1 == put && e.2 == "$$ coord;")
        .map(|e| e.0.as_str())
        .collect();
    assert_eq!(into.len(), 2, "{into:?}\n{rg}");
}
