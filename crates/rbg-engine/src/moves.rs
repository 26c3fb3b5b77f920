//! Moves: sequences of modifier applications.

use std::fmt;

/// A modifier applied at a vertex: the paper's pair (action index, vertex).
/// (`repr(C)`: generated code writes the two fields in this order.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(C)]
pub struct ModApp {
    /// Global action index (textual pre-order over the rules, patterns
    /// included).
    pub action: u32,
    /// Vertex index (0-based, `#board` order).
    pub vertex: u32,
}

/// A move: the modifier applications of one legal move sequence, ending
/// with a switch.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Move(pub Vec<ModApp>);

impl Move {
    /// The modifier applications.
    pub fn apps(&self) -> &[ModApp] {
        &self.0
    }
}

/// A list of moves stored flat (the shared [`gg_core::MoveList`]).
pub type MoveList = gg_core::MoveList<ModApp>;

impl fmt::Display for ModApp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.action, self.vertex)
    }
}
