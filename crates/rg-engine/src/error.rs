//! Run-time errors of improper games and of the engine's bounds, and their
//! text (names instead of numbers, a source position where there is a node).

use std::fmt;

use crate::GameModel;

/// An improper game found while playing (the paper's conditions the
/// language does not check statically), or a bound of the engine reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// The keeper has this many moves (not one) at a node other than `end`.
    KeeperMoves {
        /// How many.
        count: usize,
        /// Where.
        node: u32,
    },
    /// No move at a node other than `end` ("game unexpectedly ended").
    NoMove(u32),
    /// The keeper keeps moving (more than `moves` moves in a row); it was
    /// at `node` then.
    EndlessKeeper {
        /// How many moves.
        moves: usize,
        /// Where.
        node: u32,
    },
    /// A playout made more than `moves` moves without ending; it was at
    /// `node` then.
    EndlessPlay {
        /// How many moves.
        moves: u64,
        /// Where.
        node: u32,
    },
    /// Two walks with the same tags end in different states.
    AmbiguousMove(Vec<u16>),
    /// A move's tags grew past `limit` (a tag on a cycle); the last tag
    /// led to `node`.
    EndlessWalk {
        /// The bound on a move's tags.
        limit: usize,
        /// Where.
        node: u32,
    },
    /// One enumeration went past one of its bounds (`bound`: which, `limit`:
    /// its value); the walk was at `node` then.
    TooManyStates {
        /// Which bound.
        bound: Bound,
        /// Its value.
        limit: usize,
        /// Where.
        node: u32,
    },
    /// A state's moves hold more than this many tags and slot changes.
    MovesTooLarge(usize),
    /// A reachability check starting at this node is reached again while
    /// it is being evaluated.
    RecursiveCheck(u32),
    /// Reachability checks nested deeper than this.
    ChecksTooDeep(usize),
    /// A map assignment with this key, which is outside the map's keys.
    ForeignKey(u16),
    /// `player` holds this symbol, which is no player.
    NotAPlayer(u16),
}

/// The bounds one move enumeration keeps within, so an improper game (or
/// one too large for the engine) gets an error instead of exhausting time
/// or memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// States (keys) in the visited set.
    States,
    /// Symbols of the variables copied into the visited set's keys.
    KeySymbols,
    /// Distinct tag sequences met.
    TagSequences,
    /// Choices nested on the current walk.
    Frames,
    /// Edges followed one after another without a choice (cycles of
    /// `@unique` nodes).
    Steps,
    /// Assignments on the current walk.
    Assignments,
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::KeeperMoves { count, node } => {
                write!(
                    f,
                    "the keeper has {count} moves (exactly 1 expected) at node #{node}"
                )
            }
            RunError::NoMove(n) => write!(f, "no legal move at node #{n}, which is not `end`"),
            RunError::EndlessKeeper { moves, .. } => {
                write!(f, "the keeper made more than {moves} moves in a row")
            }
            RunError::EndlessPlay { moves, .. } => {
                write!(f, "a play went on for more than {moves} moves")
            }
            RunError::AmbiguousMove(tags) => {
                write!(f, "two walks of the move {tags:?} lead to different states")
            }
            RunError::EndlessWalk { limit, .. } => {
                write!(f, "a move walk emitted more than {limit} tags")
            }
            RunError::TooManyStates { bound, limit, .. } => match bound {
                Bound::States => write!(f, "an enumeration visited more than {limit} states"),
                Bound::KeySymbols => write!(
                    f,
                    "an enumeration's visited states hold more than {limit} symbols together"
                ),
                Bound::TagSequences => write!(
                    f,
                    "an enumeration met more than {limit} distinct tag sequences"
                ),
                Bound::Frames => write!(f, "a walk nested more than {limit} choices"),
                Bound::Steps => write!(
                    f,
                    "a walk followed more than {limit} edges without a choice"
                ),
                Bound::Assignments => write!(f, "a walk made more than {limit} assignments"),
            },
            RunError::MovesTooLarge(n) => write!(
                f,
                "a state's moves hold more than {n} tags and assignments together"
            ),
            RunError::RecursiveCheck(n) => {
                write!(f, "the reachability check from node #{n} is recursive")
            }
            RunError::ChecksTooDeep(n) => {
                write!(f, "reachability checks nested more than {n} deep")
            }
            RunError::ForeignKey(s) => write!(f, "assignment at key #{s}, outside the map's keys"),
            RunError::NotAPlayer(s) => write!(f, "`player` is symbol #{s}, not a player"),
        }
    }
}

impl std::error::Error for RunError {}

impl GameModel {
    /// A run-time error with names instead of numbers; an error at a node
    /// of a located game (see [`GameModel::located`]) is rendered at that
    /// node's place in the source (`file:line:col: error: ...`).
    pub fn error_text(&self, e: &RunError) -> String {
        let text = self.error_message(e);
        let node = match e {
            RunError::KeeperMoves { node, .. } | RunError::NoMove(node) => *node,
            RunError::EndlessKeeper { node, .. } => *node,
            RunError::RecursiveCheck(node) => *node,
            RunError::EndlessPlay { node, .. }
            | RunError::EndlessWalk { node, .. }
            | RunError::TooManyStates { node, .. } => *node,
            _ => return text,
        };
        let checked = &self.inner.checked;
        match (
            &self.inner.source,
            checked.node_span(rg_lang::checked::Node(node)),
        ) {
            (Some(file), Some(span)) => file.diagnostic(rg_lang::Error::new(span, text)).rendered,
            _ => text,
        }
    }

    fn error_message(&self, e: &RunError) -> String {
        match e {
            RunError::KeeperMoves { count, node } => format!(
                "improper game: the keeper has {count} moves (exactly 1 expected) at node `{}`",
                self.node_name(*node)
            ),
            RunError::NoMove(n) => format!(
                "improper game: no legal move at node `{}`, which is not `end`",
                self.node_name(*n)
            ),
            RunError::AmbiguousMove(tags) => format!(
                "improper game: two walks of the move `{}` lead to different states",
                self.tags_text(tags)
            ),
            RunError::RecursiveCheck(n) => format!(
                "improper game: the reachability check from `{}` is evaluated recursively",
                self.node_name(*n)
            ),
            RunError::ForeignKey(s) => format!(
                "improper game: assignment at key `{}`, outside the map's keys",
                self.symbol_name(*s)
            ),
            RunError::NotAPlayer(s) => format!(
                "improper game: `player` is `{}`, not a player",
                self.symbol_name(*s)
            ),
            RunError::TooManyStates { .. } | RunError::MovesTooLarge(_) => {
                format!("game too large for the engine, or improper: {e}")
            }
            e => format!("improper game: {e}"),
        }
    }
}
