//! Random small RG games for property tests: a fixed set of declarations and
//! edges drawn over eight nodes with every kind of action, so most games are
//! improper (loops, foreign keys, stuck plays, recursive checks, ambiguous
//! walks). A test draws [`edges`] and a pragma set below [`PRAGMAS`] and
//! writes the [`game`].

use proptest::prelude::*;

/// The edge labels: one of every action kind over the declared names.
pub const ACTIONS: &[&str] = &[
    "",
    "$ p",
    "$ q",
    "$$ c",
    "c = C(*)",
    "c = 2",
    "c = step[c]",
    "row[s] = c",
    "row[pick[c]] = 1",
    "c != 1",
    "row[s] == c",
    "row == col",
    "col = row",
    "? m2 -> m4",
    "! m1 -> m3",
    "? m3 -> m5",
    "player = a",
    "player = b",
    "player = keeper",
    "player = random",
    "goals[a] = 1",
    "goals[b] = Score(*)",
    "visible[b] = 0",
    "s = S(*)",
];

/// How many nodes edges join: `begin`, `end`, `m1` … `m6`.
pub const NODES: usize = 8;

/// How many pragma sets [`game`] knows.
pub const PRAGMAS: usize = 4;

const DECLARATIONS: &str = "type Player = {a, b};\ntype Score = {0, 1};\ntype C = {0, 1, 2};\n\
    type S = {x, y};\nvar c: C = 0;\nvar s: S = x;\nvar row: S -> C = { :0 };\n\
    var col: S -> C = { x: 1, :0 };\nconst step: C -> C = { 0: 1, 1: 2, :0 };\n\
    const pick: C -> S = { 0: x, :y };\nbegin, end: player = keeper;\n";

const PRAGMA_SETS: [&str; PRAGMAS] = [
    "",
    "@disjoint m1 : a b;\n",
    "@unique m2;\n@repeat m3 : c;\n",
    "@unique m4;\n",
];

/// Between `min` and `max` (exclusive) random edges: `(from, to, action)`.
pub fn edges(min: usize, max: usize) -> impl Strategy<Value = Vec<(usize, usize, usize)>> {
    prop::collection::vec((0..NODES, 0..NODES, 0..ACTIONS.len()), min..max)
}

/// The text of a game: the declarations, an edge per `(from, to, action)`
/// (node and [`ACTIONS`] indices, taken modulo their counts) and the pragma
/// set `pragma % PRAGMAS`.
pub fn game(edges: &[(usize, usize, usize)], pragma: usize) -> String {
    let node = |i: usize| match i % NODES {
        0 => "begin".to_string(),
        1 => "end".to_string(),
        i => format!("m{}", i - 1),
    };
    let mut text = String::from(DECLARATIONS);
    for &(from, to, action) in edges {
        let action = ACTIONS[action % ACTIONS.len()];
        text.push_str(&format!("{}, {}: {action};\n", node(from), node(to)));
    }
    text.push_str(PRAGMA_SETS[pragma % PRAGMAS]);
    text
}
