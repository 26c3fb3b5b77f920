//! What the engine answers when it cannot finish a computation: the
//! description is not proper (a move, or the keeper's completion, can go on
//! forever), or the computation went past one of the engine's [`limits`].
//!
//! The paper (*Regular Boardgames*, "Proper RBG Description") requires the
//! number of modifiers that can be applied in a play to be bounded. Whether
//! a description meets this is PSPACE-complete to decide, so the engine
//! checks it where it matters, while it plays: a move that comes back to an
//! earlier game state (same board, variables, position and rules index)
//! after applying modifiers can repeat them forever, and so can a keeper's
//! completion that comes back to an earlier state. Both prove the
//! description improper. Everything else that could grow without bound (a
//! move that is long without repeating, a huge number of moves) is held to
//! a fixed limit and reported as such.

use std::fmt;

/// The bounds the engine holds every computation to.
pub mod limits {
    /// Most nested levels (modifier applications and pattern walks) of one
    /// move's search: the walk recurses once per level, so this bounds its
    /// stack use (about 350 bytes a level: a search fits the 2 MiB stack of
    /// a spawned thread), and each level has a visited set (see
    /// [`LEVEL_MEMORY`]).
    pub const MAX_LEVELS: usize = 2_000;
    /// Memory for the visited sets of one search's levels; on big boards it
    /// lowers the number of levels below [`MAX_LEVELS`] (not below
    /// [`MIN_LEVELS`]).
    pub const LEVEL_MEMORY: usize = 256 << 20;
    /// Levels always allowed, however big the visited sets.
    pub const MIN_LEVELS: usize = 64;
    /// From this level on, every modifier application of a search is logged
    /// to detect a move that comes back to an earlier state (cheap, but not
    /// free: shallower levels are not logged, and a move that repeats forever
    /// repeats at deeper levels too).
    pub const WATCH_FROM_LEVEL: usize = 32;
    /// Most modifier applications one search may make (for a state's moves,
    /// or one keeper move): a description can make the number of move
    /// prefixes exponential in its size.
    pub const MAX_SEARCH_MODIFIERS: u64 = 1 << 26;
    /// Most modifier applications in a state's list of moves.
    pub const MAX_LISTED_MODIFIERS: usize = 1 << 25;
    /// Most keeper moves in one completion.
    pub const MAX_KEEPER_MOVES: u64 = 1 << 20;
    /// After this many keeper moves in one completion the states are watched
    /// for a repetition.
    pub const WATCH_KEEPER_FROM: u64 = 64;
}

/// What went wrong; see [`GameError`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A move can go on forever: after applying a modifier it was back at an
    /// earlier state with the same position and rules index (not proper).
    EndlessMove,
    /// The keeper's completion can go on forever: it came back to a state it
    /// had already been in (not proper).
    EndlessKeeper,
    /// A move (or a pattern's walk) applied more than `limit` modifiers.
    LongMove {
        /// The limit.
        limit: usize,
    },
    /// The keeper made more than `limit` moves in one completion.
    LongKeeper {
        /// The limit.
        limit: u64,
    },
    /// A state's moves hold more than `limit` modifier applications.
    ManyMoves {
        /// The limit.
        limit: usize,
    },
    /// One search applied more than `limit` modifiers.
    LongSearch {
        /// The limit.
        limit: u64,
    },
    /// The rules' automata would have more than `limit` transitions (a `*`
    /// over a sum of n actions has n² of them).
    LargeRules {
        /// The limit.
        limit: u64,
    },
}

impl ErrorKind {
    /// Whether the error proves the description improper (rather than a
    /// limit of the engine).
    pub fn is_improper(&self) -> bool {
        matches!(self, ErrorKind::EndlessMove | ErrorKind::EndlessKeeper)
    }

    /// The message, without a location.
    pub fn message(&self) -> String {
        match self {
            ErrorKind::EndlessMove => {
                "the description is not proper: a move can go on forever".to_string()
            }
            ErrorKind::EndlessKeeper => {
                "the description is not proper: the keeper's completion goes on forever".to_string()
            }
            ErrorKind::LongMove { limit } => format!(
                "a move applies more than {limit} modifiers, the engine's limit \
                 (the description may not be proper)"
            ),
            ErrorKind::LongKeeper { limit } => format!(
                "the keeper's completion makes more than {limit} moves, the engine's limit \
                 (the description may not be proper)"
            ),
            ErrorKind::ManyMoves { limit } => format!(
                "a state has more moves than the engine lists \
                 ({limit} modifier applications in all)"
            ),
            ErrorKind::LongSearch { limit } => format!(
                "finding the moves of a state took more than {limit} modifier \
                 applications, the engine's limit"
            ),
            ErrorKind::LargeRules { limit } => format!(
                "the rules are too large for the engine: their automaton would have \
                 more than {limit} transitions"
            ),
        }
    }

    /// What the location points at, for the note under the source line.
    fn note(&self) -> &'static str {
        match self {
            ErrorKind::EndlessMove => {
                "after this modifier the move was back at an earlier state (board, \
                 variables, position and rules index): its modifiers can repeat without end"
            }
            ErrorKind::EndlessKeeper => {
                "the keeper's move ending here brought the game back to a state the \
                 completion had already been in"
            }
            ErrorKind::LongMove { .. } => "the modifier applied at the limit",
            ErrorKind::LongKeeper { .. } => "the keeper's switch at the limit",
            ErrorKind::ManyMoves { .. } | ErrorKind::LongSearch { .. } => {
                "the modifier applied at the limit"
            }
            ErrorKind::LargeRules { .. } => {
                "the expression starting here: a `*` or a concatenation over a sum of \
                 many actions links every one of them to every other"
            }
        }
    }
}

/// Why the engine could not compute moves, apply a move or complete the
/// keeper: the description is not proper or a limit was reached (see the
/// module doc). The state involved is left valid but unspecified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameError {
    kind: ErrorKind,
    action: Option<usize>,
    rendered: Option<String>,
}

impl GameError {
    /// An error at the description's action `action` (an index in the order
    /// of `rbg_lang::ast::Rule::for_each_action`), located in `origin` when
    /// the model knows its source.
    pub(crate) fn new(
        kind: ErrorKind,
        action: Option<usize>,
        origin: Option<&crate::Origin>,
    ) -> GameError {
        let rendered = match (action, origin) {
            (Some(i), Some(o)) if i < o.spans.len() => {
                let e = rbg_lang::Error::new(o.spans[i], kind.message()).with_note(kind.note());
                Some(o.file.diagnostic(e).rendered)
            }
            _ => None,
        };
        GameError {
            kind,
            action,
            rendered,
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// The description's action where it was found: its index in the order
    /// of `rbg_lang::ast::Rule::for_each_action`.
    pub fn action(&self) -> Option<usize> {
        self.action
    }

    /// The error as a front-end error at the action's span among `spans`
    /// (the start of the text when unknown).
    pub fn lang_error(&self, spans: &rbg_lang::ActionSpans) -> rbg_lang::Error {
        let span = self
            .action
            .and_then(|i| spans.get(i).copied())
            .unwrap_or_default();
        let e = rbg_lang::Error::new(span, self.kind.message());
        match self.action {
            Some(_) => e.with_note(self.kind.note()),
            None => e,
        }
    }
}

impl fmt::Display for GameError {
    /// With a known source: `file:line:col: error: message`, the source line
    /// and a note; otherwise `error: message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.rendered {
            Some(r) => f.write_str(r.trim_end()),
            None => write!(f, "error: {}", self.kind.message()),
        }
    }
}

impl std::error::Error for GameError {}

/// A search's fault before it is tied to the description: the kind and the
/// engine's action where it happened (`NONE` if none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    /// What went wrong.
    pub kind: FaultKind,
    /// The engine's action (modifier, switch or rules index) where.
    pub action: u32,
}

/// [`ErrorKind`] without the limits (they are constants, except the
/// levels of a search: see `FaultKind::kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// [`ErrorKind::EndlessMove`].
    EndlessMove,
    /// [`ErrorKind::EndlessKeeper`].
    EndlessKeeper,
    /// [`ErrorKind::LongMove`].
    LongMove,
    /// [`ErrorKind::LongKeeper`].
    LongKeeper,
    /// [`ErrorKind::ManyMoves`].
    ManyMoves,
    /// [`ErrorKind::LongSearch`].
    LongSearch,
}

impl FaultKind {
    /// The public kind, with the limit that was reached (`max_levels`:
    /// the levels of the engine's search).
    pub fn kind(self, max_levels: usize) -> ErrorKind {
        match self {
            FaultKind::EndlessMove => ErrorKind::EndlessMove,
            FaultKind::EndlessKeeper => ErrorKind::EndlessKeeper,
            FaultKind::LongMove => ErrorKind::LongMove { limit: max_levels },
            FaultKind::LongKeeper => ErrorKind::LongKeeper {
                limit: limits::MAX_KEEPER_MOVES,
            },
            FaultKind::ManyMoves => ErrorKind::ManyMoves {
                limit: limits::MAX_LISTED_MODIFIERS,
            },
            FaultKind::LongSearch => ErrorKind::LongSearch {
                limit: limits::MAX_SEARCH_MODIFIERS,
            },
        }
    }
}
