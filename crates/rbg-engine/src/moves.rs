//! Moves: sequences of modifier applications.

use std::fmt;

/// A modifier applied at a vertex: the paper's pair (action index, vertex).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
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

/// A list of moves stored flat (one allocation, reused between calls).
#[derive(Clone, Debug, Default)]
pub struct MoveList {
    apps: Vec<ModApp>,
    ends: Vec<u32>,
}

impl MoveList {
    /// Removes all moves, keeping capacity.
    pub fn clear(&mut self) {
        self.apps.clear();
        self.ends.clear();
    }

    /// Number of moves.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are no moves.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The `i`-th move's modifier applications.
    pub fn get(&self, i: usize) -> &[ModApp] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.apps[start..self.ends[i] as usize]
    }

    /// Iterates over the moves.
    pub fn iter(&self) -> impl Iterator<Item = &[ModApp]> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Appends a move given as a prefix plus its final application.
    #[inline]
    pub(crate) fn push_with(&mut self, prefix: &[ModApp], last: ModApp) {
        // Moves are short: a plain loop beats a `memcpy` call.
        self.apps.reserve(prefix.len() + 1);
        for &a in prefix {
            self.apps.push(a);
        }
        self.apps.push(last);
        self.ends.push(self.apps.len() as u32);
    }

    /// Appends a move.
    pub fn push(&mut self, m: &[ModApp]) {
        self.apps.extend_from_slice(m);
        self.ends.push(self.apps.len() as u32);
    }
}

impl fmt::Display for ModApp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.action, self.vertex)
    }
}
