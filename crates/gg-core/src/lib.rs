//! The forward model that every game language's engine implements (RBG, RG,
//! and later HRG), so that agents, matches, perft and benchmarks are
//! written once.
//!
//! A [`Game`] is the shared, immutable model of one game; a [`Reasoner`]
//! is a per-thread workspace that lists legal moves and applies them; a
//! state ([`Game::State`]) is a plain value. A move is a slice of the
//! engine's *atoms* ([`Game::Atom`]): an RBG move is its sequence of
//! (modifier, vertex) applications, an RG move its walk. Moves are listed
//! into a flat [`MoveList`] and are cheap to re-apply from their atoms.
//!
//! States seen through this interface are never "mid-turn": the engine
//! applies the system's own moves (RBG's keeper, RG's `keeper`) inside
//! [`Reasoner::apply`] and [`Game::initial_state`]. What remains is told by
//! [`Game::turn`]: a player's turn, a chance event (RG's `random` player:
//! every listed move is equally likely), or the end of the game. A player
//! whose turn it is may have no legal move; the game then ends there (RBG's
//! rule; in RG it means the game was written improperly).
//!
//! ```
//! use gg_core::{Game, MoveList, Reasoner, Turn};
//!
//! /// Plays the first legal move until the game ends; returns the scores.
//! fn first_moves<G: Game>(game: &G) -> Result<Vec<i64>, G::Error> {
//!     let mut r = game.reasoner();
//!     let mut s = game.initial_state()?;
//!     let mut moves = MoveList::default();
//!     while game.turn(&s) != Turn::Over {
//!         r.legal_moves(&s, &mut moves)?;
//!         if moves.is_empty() {
//!             break;
//!         }
//!         r.apply(&mut s, moves.get(0))?;
//!     }
//!     Ok(game.scores(&s))
//! }
//! ```
//!
//! The generic [`perft`] and [`playout`] modules are monomorphised per
//! engine: no dynamic dispatch in their loops.

pub mod clock;
pub mod moves;
pub mod perft;
pub mod playout;
pub mod toy;

use std::fmt::{self, Debug};
use std::hash::Hash;

pub use moves::MoveList;

/// Who acts in a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// Player `i` (0-based, declaration order) chooses a move.
    Player(usize),
    /// Chance (RG's `random` player) picks one of the legal moves uniformly.
    Chance,
    /// The game is over.
    Over,
}

/// Why a move text was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not written in the game's move notation.
    Syntax(String),
    /// A number of the text names nothing: `what` (e.g. "vertex") `found`,
    /// where `1..=max` are the names.
    OutOfRange {
        /// What the number should name.
        what: &'static str,
        /// The number written.
        found: u64,
        /// The largest number that names one.
        max: u64,
    },
    /// The text is well formed but no legal move here is written so (the
    /// text, trimmed). Only engines that read a move against the legal
    /// moves give it.
    NotLegal(String),
    /// Listing the legal moves failed (an improper game): the game's error.
    Game(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) | MoveError::Game(s) => f.write_str(s),
            MoveError::OutOfRange { what, found, max } => {
                write!(f, "{what} {found} out of range 1..={max}")
            }
            MoveError::NotLegal(text) => write!(f, "`{text}` is not a legal move here"),
        }
    }
}

impl std::error::Error for MoveError {}

/// A game ready to be played: shared (cheap to clone) and immutable.
pub trait Game: Clone + Send + Sync + 'static {
    /// A game state: a plain value. Equal states are the same position
    /// (same future), so perft can merge chance outcomes by equality.
    type State: Clone + Eq + Hash + Debug + Send + Sync;
    /// One element of a move.
    type Atom: Copy + Eq + Ord + Hash + Debug + Send + Sync;
    /// The per-thread workspace.
    type Reasoner: Reasoner<Self>;
    /// A run-time error of an improperly written game (an RG keeper with two
    /// moves, a walk that never ends, ...). `Infallible` for engines that
    /// have none.
    type Error: std::error::Error + Send + Sync + 'static;

    /// A new workspace (one per thread).
    fn reasoner(&self) -> Self::Reasoner;

    /// The initial state, after the system's first moves (which may fail
    /// in an improper game).
    fn initial_state(&self) -> Result<Self::State, Self::Error>;

    /// Number of players (chance and the system not counted).
    fn num_players(&self) -> usize;

    /// Name of player `p`.
    fn player_name(&self, p: usize) -> &str;

    /// Who acts in `s`.
    fn turn(&self, s: &Self::State) -> Turn;

    /// Player `p`'s score in `s` (its outcome when the game is over).
    fn score(&self, s: &Self::State, p: usize) -> i64;

    /// Every player's score in `s`.
    fn scores(&self, s: &Self::State) -> Vec<i64> {
        (0..self.num_players()).map(|p| self.score(s, p)).collect()
    }

    /// The lowest and highest score player `p` can get.
    fn score_range(&self, p: usize) -> (i64, i64);

    /// The text of a move, in the language's notation (parsed back by
    /// [`Reasoner::parse_move`]).
    fn move_text(&self, m: &[Self::Atom]) -> String;

    /// Called when the player on move in `s` has no legal move: `Ok` when
    /// the game then ends (RBG's rule, the default), an error where that
    /// means the game is improper (an RG play stopping outside `end`).
    /// Perft does not call it (it counts such states as having no
    /// children).
    fn stuck(&self, s: &Self::State) -> Result<(), Self::Error> {
        let _ = s;
        Ok(())
    }

    /// Whether every player sees every move completely. When not, players
    /// may only be shown what [`Reasoner::observe_move`] tells them.
    fn perfect_information(&self) -> bool {
        true
    }

    /// A one-line summary of the game for `rbg check` (`players=2 ...`).
    fn summary(&self) -> String {
        format!("players={}", self.num_players())
    }

    /// A run-time error explained for the user (names instead of numbers
    /// where the engine can).
    fn error_text(&self, e: &Self::Error) -> String {
        e.to_string()
    }

    /// A complete, readable description of `s` (who is on move, variables,
    /// board): everything, whoever may see it.
    fn describe(&self, s: &Self::State) -> String;
}

/// A per-thread workspace that computes legal moves and applies them.
pub trait Reasoner<G: Game>: Send {
    /// The game.
    fn game(&self) -> &G;

    /// The legal moves in `s` into `out` (cleared first), working on `s` in
    /// place: it is restored before returning. Called only when
    /// [`Game::turn`] is not [`Turn::Over`].
    fn legal_moves_mut(
        &mut self,
        s: &mut G::State,
        out: &mut MoveList<G::Atom>,
    ) -> Result<(), G::Error>;

    /// Like [`Reasoner::legal_moves_mut`] on a shared state.
    fn legal_moves(&mut self, s: &G::State, out: &mut MoveList<G::Atom>) -> Result<(), G::Error> {
        let mut scratch = s.clone();
        self.legal_moves_mut(&mut scratch, out)
    }

    /// Applies a legal move of `s`, then the system's moves that follow.
    fn apply(&mut self, s: &mut G::State, m: &[G::Atom]) -> Result<(), G::Error>;

    /// Plays move `rng.gen_range(0..n)` of the `n` moves
    /// [`Reasoner::legal_moves_mut`] lists for `s` (none if `n` is 0) and
    /// returns `n`: a playout's step. `moves` is a workspace. Engines may
    /// skip listing the moves in full, but draw the same move.
    fn play_random(
        &mut self,
        s: &mut G::State,
        moves: &mut MoveList<G::Atom>,
        rng: &mut rand::rngs::SmallRng,
    ) -> Result<usize, G::Error> {
        use rand::Rng;
        self.legal_moves_mut(s, moves)?;
        let n = moves.len();
        if n > 0 {
            let i = rng.gen_range(0..n);
            self.apply(s, moves.get(i))?;
        }
        Ok(n)
    }

    /// The outcome of chance move `m` in `s`, written to `out`: perft
    /// counts chance moves with equal outcomes once. The default is the
    /// state after [`Reasoner::apply`]; RG compares the states before the
    /// keeper's moves, as its reference does.
    fn chance_outcome(
        &mut self,
        s: &G::State,
        m: &[G::Atom],
        out: &mut G::State,
    ) -> Result<(), G::Error> {
        out.clone_from(s);
        self.apply(out, m)
    }

    /// Reads a move text of the player on move in `s`. The result need not
    /// be legal; compare it with the legal moves.
    fn parse_move(&mut self, s: &G::State, text: &str) -> Result<Vec<G::Atom>, MoveError>;

    /// What player `viewer` is told when `m` is played in `before`: the
    /// whole move text under perfect information, else the part of the move
    /// the viewer may see (possibly empty).
    fn observe_move(
        &mut self,
        before: &G::State,
        m: &[G::Atom],
        viewer: usize,
    ) -> Result<String, G::Error> {
        let _ = (before, viewer);
        Ok(self.game().move_text(m))
    }
}
