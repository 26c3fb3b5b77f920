//! A fast forward model for Regular Boardgames.
//!
//! ```no_run
//! use rbg_engine::{GameModel, MoveList};
//! let text = std::fs::read_to_string("games/ticTacToe.rbg").unwrap();
//! let game = GameModel::from_text(&text).unwrap();
//! let mut r = game.reasoner();
//! let mut s = game.initial_state();
//! let mut moves = MoveList::default();
//! while { r.legal_moves(&s, &mut moves)?; !moves.is_empty() } {
//!     let m = moves.get(0).to_vec();
//!     r.apply(&mut s, &m)?;
//! }
//! println!("scores: {:?}", game.scores(&s));
//! # Ok::<(), rbg_engine::GameError>(())
//! ```
//!
//! [`GameModel`] holds the lowered game (shared, immutable); a [`Reasoner`]
//! holds the per-thread search workspace; a [`State`] is a plain value.
//! Whatever the description, every computation ends in bounded time and
//! memory: one that cannot finish (the description is not proper, or a
//! limit is reached) returns a [`GameError`]. The keeper's completion of
//! the initial state is computed when the model is built, so building can
//! fail the same way.

mod compile;
mod error;
mod forward;
pub mod moves;
pub mod perft;
pub mod playout;
mod probe;
mod search;
mod state;

use std::fmt;
use std::sync::Arc;

pub use error::{limits, ErrorKind, GameError};
pub use gg_core::MoveError;
pub use moves::{ModApp, Move, MoveList};
pub use state::{RawBuffers, State};

use compile::{Act, Compiled};
use error::Fault;
use search::Searcher;

/// The lowered tables and state internals, for code generators (the
/// `rbg-jit` crate). Not a stable interface.
#[doc(hidden)]
pub mod raw {
    pub use crate::compile::{apply_op, Act, Compiled, Expr, Op, Tr, NONE};
    pub use crate::error::{Fault, FaultKind};
    pub use crate::probe::{Ins, Probes, ACCEPT, FAIL, STEP_ACCEPTS, STEP_FAILS, STEP_GOES_ON};
    pub use crate::search::watch::PathLog;
    pub use crate::search::{compare, eval, is_step, max_levels, Change};
}

/// Machine code for a game's walks, made at load time by a code generator
/// (the `rbg-jit` crate); attached with [`GameModel::with_native`].
pub trait Native: Send + Sync {
    /// A search workspace for one thread.
    fn walker(&self) -> Box<dyn NativeWalker>;
    /// Short name of the engine (shown by the CLI).
    fn name(&self) -> &'static str;
    /// Processor time the code generation took.
    fn codegen_time(&self) -> std::time::Duration;
}

/// Per-thread workspace of a [`Native`] engine. Every method gets a state
/// of the engine's game (checked by the caller) and leaves it as it found
/// it, except `keeper_move`, which keeps the move it applies. A walk is
/// bounded as the interpreter's (see `crate::error`): on a fault the state
/// is restored and the fault returned.
pub trait NativeWalker: Send {
    /// All legal moves, as `Reasoner::legal_moves`, in the same order.
    fn legal_moves(&mut self, s: &mut State, out: &mut MoveList) -> Result<(), raw::Fault>;
    /// [`NativeWalker::legal_moves`], and where the engine was made with a
    /// numbering of atoms (`rbg_jit::compile_keyed`), the key of every
    /// move's first atom (or of its end, when it has none) into `keys`:
    /// whether it wrote them.
    fn legal_moves_keyed(
        &mut self,
        s: &mut State,
        out: &mut MoveList,
        keys: &mut Vec<u32>,
    ) -> Result<bool, raw::Fault> {
        let _ = keys;
        self.legal_moves(s, out).map(|()| false)
    }
    /// Whether the player on move has a legal move.
    fn has_move(&mut self, s: &mut State) -> Result<bool, raw::Fault>;
    /// Applies the keeper's first move from the state's node (the
    /// interpreter's choice) and returns its switch as (player, rules
    /// index, position); `None`, with the state unchanged, when the keeper
    /// has no move.
    fn keeper_move(&mut self, s: &mut State) -> Result<Option<(u32, u32, u32)>, raw::Fault>;
    /// The deepest level of its searches (its limit of nested modifier
    /// applications and pattern walks).
    fn max_levels(&self) -> usize;
    /// A fresh copy for another thread.
    fn clone_box(&self) -> Box<dyn NativeWalker>;
}

impl Clone for Box<dyn NativeWalker> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// A game ready to be played: the checked description and its dense tables.
#[derive(Clone)]
pub struct GameModel {
    inner: Arc<Inner>,
}

struct Inner {
    ast: rbg_lang::Game,
    c: Compiled,
    native: Option<Arc<dyn Native>>,
    origin: Option<Arc<Origin>>,
    /// The keeper-completed initial state.
    initial: State,
}

/// Where a model's description came from, to locate errors.
pub(crate) struct Origin {
    pub file: rbg_lang::SourceFile,
    pub spans: rbg_lang::ActionSpans,
}

impl fmt::Debug for GameModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GameModel")
            .field("players", &self.inner.ast.players.len())
            .field("vertices", &self.inner.c.num_vertices)
            .field("actions", &self.inner.c.acts.len())
            .field("untabulated", &self.inner.c.untabulated)
            .finish()
    }
}

impl GameModel {
    /// Lowers a checked game and completes the keeper's first moves. Its
    /// errors cannot point at the source; see [`GameModel::load`].
    pub fn new(ast: rbg_lang::Game) -> Result<GameModel, GameError> {
        GameModel::with_origin(ast, None)
    }

    fn with_origin(ast: rbg_lang::Game, origin: Option<Origin>) -> Result<GameModel, GameError> {
        let c = match Compiled::new(&ast) {
            Ok(c) => c,
            Err(e) => {
                let kind = ErrorKind::LargeRules {
                    limit: compile::MAX_TRANSITIONS,
                };
                return Err(GameError::new(kind, e.at, origin.as_ref()));
            }
        };
        let mut initial = State::initial(&c);
        let mut searcher = Searcher::new(&c);
        if let Err(f) = searcher.complete_keeper(&c, &mut initial) {
            return Err(located(&c, origin.as_ref(), f, searcher.max_levels()));
        }
        let inner = Inner {
            ast,
            c,
            native: None,
            origin: origin.map(Arc::new),
            initial,
        };
        Ok(GameModel {
            inner: Arc::new(inner),
        })
    }

    /// This game with another native engine (`None`: the interpreter).
    fn with_engine(&self, native: Option<Arc<dyn Native>>) -> GameModel {
        let i = &self.inner;
        GameModel {
            inner: Arc::new(Inner {
                ast: i.ast.clone(),
                c: i.c.clone(),
                native,
                origin: i.origin.clone(),
                initial: i.initial.clone(),
            }),
        }
    }

    /// The same game played by a native engine. States of `self` and of
    /// the result are interchangeable.
    pub fn with_native(&self, native: Arc<dyn Native>) -> GameModel {
        self.with_engine(Some(native))
    }

    /// The same game played by the interpreter.
    pub fn interpreted(&self) -> GameModel {
        match self.inner.native {
            None => self.clone(),
            Some(_) => self.with_engine(None),
        }
    }

    /// Name of the engine that plays: `interp` or the native engine's.
    pub fn engine_name(&self) -> &'static str {
        self.inner.native.as_ref().map_or("interp", |n| n.name())
    }

    /// Processor time the native engine's code generation took (`None`
    /// for the interpreter).
    pub fn codegen_time(&self) -> Option<std::time::Duration> {
        self.inner.native.as_ref().map(|n| n.codegen_time())
    }

    /// The lowered tables, for code generators.
    #[doc(hidden)]
    pub fn compiled(&self) -> &Compiled {
        &self.inner.c
    }

    /// Parses a description (HL- or LL-RBG).
    pub fn from_text(text: &str) -> Result<GameModel, rbg_lang::Error> {
        let (ast, spans) = rbg_lang::parse_str_with_spans(text)?;
        GameModel::new(ast).map_err(|e| e.lang_error(&spans))
    }

    /// Parses a description, with errors tied to the file (those of the
    /// front end, and the [`GameError`]s of the engine, which then point at
    /// the rule part involved).
    pub fn load(file: &rbg_lang::SourceFile) -> Result<GameModel, rbg_lang::Diagnostic> {
        let (ast, spans) = rbg_lang::load_with_spans(file)?;
        let origin = Origin {
            file: file.clone(),
            spans,
        };
        GameModel::with_origin(ast, Some(origin)).map_err(|e| {
            // Parsed again (it did parse) to get the spans back.
            let spans =
                rbg_lang::parse_str_with_spans(&file.text).map_or_else(|_| Vec::new(), |(_, s)| s);
            file.diagnostic(e.lang_error(&spans))
        })
    }

    /// A fault of a search as an error located in the description.
    #[cold]
    fn error(&self, f: Fault, max_levels: usize) -> GameError {
        located(&self.inner.c, self.inner.origin.as_deref(), f, max_levels)
    }

    /// The checked description.
    pub fn description(&self) -> &rbg_lang::Game {
        &self.inner.ast
    }

    /// A search workspace for this game (one per thread).
    pub fn reasoner(&self) -> Reasoner {
        Reasoner {
            searcher: Searcher::new(&self.inner.c),
            native: self.inner.native.as_ref().map(|n| n.walker()),
            game: self.clone(),
            scratch: None,
        }
    }

    /// The initial state after the keeper's completion (the root of the game
    /// tree).
    pub fn initial_state(&self) -> State {
        self.inner.initial.clone()
    }

    /// The paper's initial state before the keeper's completion.
    pub fn raw_initial_state(&self) -> State {
        State::initial(&self.inner.c)
    }

    /// Number of (regular) players.
    pub fn num_players(&self) -> usize {
        self.inner.c.num_players as usize
    }

    /// Player on move, or `None` when the keeper is (only in a finished game
    /// after a completed keeper).
    pub fn current_player(&self, s: &State) -> Option<usize> {
        (s.player < self.inner.c.num_players).then_some(s.player as usize)
    }

    /// Name of player `i`.
    pub fn player_name(&self, i: usize) -> &str {
        &self.inner.ast.players[i].name
    }

    /// Players' scores (their variables).
    pub fn scores(&self, s: &State) -> Vec<i64> {
        s.vars[..self.num_players()]
            .iter()
            .map(|&v| v as i64)
            .collect()
    }

    /// Move in the original RBG game manager's notation:
    /// `vertex modifier vertex modifier ...`, both 1-based (vertices in
    /// `#board` order, modifiers in textual order of the rules outside
    /// patterns).
    pub fn move_to_text(&self, m: &[ModApp]) -> String {
        let c = &self.inner.c;
        m.iter()
            .map(|a| format!("{} {}", a.vertex + 1, c.modifier_number[a.action as usize]))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Parses a move in the notation of [`GameModel::move_to_text`]. Only the
    /// syntax and ranges are checked here; use [`Reasoner::is_legal`] for
    /// legality.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let c = &self.inner.c;
        let nums: Vec<&str> = text.split_whitespace().collect();
        if nums.is_empty() || !nums.len().is_multiple_of(2) {
            return Err(MoveError::Syntax(format!(
                "expected pairs `vertex modifier`, found {} number(s) in {text:?}",
                nums.len()
            )));
        }
        let mut apps = Vec::with_capacity(nums.len() / 2);
        for pair in nums.chunks(2) {
            let v: u64 = pair[0].parse().map_err(|_| {
                MoveError::Syntax(format!("expected a vertex number, found {:?}", pair[0]))
            })?;
            let m: u64 = pair[1].parse().map_err(|_| {
                MoveError::Syntax(format!("expected a modifier number, found {:?}", pair[1]))
            })?;
            if v == 0 || v > c.num_vertices as u64 {
                return Err(MoveError::OutOfRange {
                    what: "vertex",
                    found: v,
                    max: c.num_vertices as u64,
                });
            }
            if m == 0 || m >= c.modifier_action.len() as u64 {
                return Err(MoveError::OutOfRange {
                    what: "modifier",
                    found: m,
                    max: c.modifier_action.len() as u64 - 1,
                });
            }
            apps.push(ModApp {
                action: c.modifier_action[m as usize],
                vertex: (v - 1) as u32,
            });
        }
        Ok(Move(apps))
    }

    /// Applies a move (assumed legal), or the first modifiers of one, without
    /// the keeper's completion.
    pub fn apply_raw(&self, s: &mut State, m: &[ModApp]) {
        let g = &self.inner.c;
        g.check_state(s);
        for app in m {
            assert!(
                app.vertex < g.num_vertices && (app.action as usize) < g.acts.len(),
                "move {app} is not of this game"
            );
            s.pos = app.vertex;
            match &g.acts[app.action as usize] {
                Act::Off(p) => {
                    s.set_piece(g, app.vertex, *p);
                }
                Act::Assign(var, e) => {
                    if let Some(v) = search::eval(s, e) {
                        s.vars[*var as usize] = v as i32;
                    }
                }
                Act::Switch(p) => s.player = *p,
                _ => {}
            }
            s.rule_state = app.action;
        }
    }

    /// Number of modifiers: move texts number them `1..=num_modifiers()`
    /// in textual order of the rules outside patterns.
    pub fn num_modifiers(&self) -> u32 {
        self.inner.c.modifier_action.len() as u32 - 1
    }

    /// The 1-based number of the modifier an applied action is (as in move
    /// texts), or 0 when `action` is not a modifier of this game.
    pub fn modifier_number(&self, action: u32) -> u32 {
        let numbers = &self.inner.c.modifier_number;
        numbers.get(action as usize).copied().unwrap_or(0)
    }

    /// The action of modifier number `n` (`1..=num_modifiers()`).
    pub fn modifier_action(&self, n: u32) -> Option<u32> {
        let actions = &self.inner.c.modifier_action;
        (n >= 1).then(|| actions.get(n as usize).copied()).flatten()
    }

    /// Number of board vertices.
    pub fn num_vertices(&self) -> u32 {
        self.inner.c.num_vertices
    }

    /// A readable dump of the state: player on move, variables and the board.
    pub fn dump(&self, s: &State) -> String {
        let a = &self.inner.ast;
        let mut out = String::new();
        let on_move = match self.current_player(s) {
            Some(p) => a.players[p].name.clone(),
            None => "keeper (game over)".to_string(),
        };
        out.push_str(&format!("on move: {on_move}\n"));
        for v in 0..a.num_vars() {
            out.push_str(&format!("{} = {}\n", a.var_name(v as u32), s.vars[v]));
        }
        for (i, vert) in a.board.vertices.iter().enumerate() {
            out.push_str(&format!(
                "{} {}\n",
                vert.name, a.pieces[s.board[i] as usize]
            ));
        }
        out
    }
}

/// Per-thread reasoning workspace for a [`GameModel`].
#[derive(Clone)]
pub struct Reasoner {
    game: GameModel,
    searcher: Searcher,
    native: Option<Box<dyn NativeWalker>>,
    scratch: Option<State>,
}

impl Reasoner {
    /// The game.
    pub fn game(&self) -> &GameModel {
        &self.game
    }

    /// The error of a search's fault.
    #[cold]
    fn error(&self, f: Fault) -> GameError {
        let levels = match &self.native {
            Some(n) => n.max_levels(),
            None => self.searcher.max_levels(),
        };
        self.game.error(f, levels)
    }

    /// Computes the legal moves of the player on move into `out` (cleared
    /// on an error).
    pub fn legal_moves(&mut self, s: &State, out: &mut MoveList) -> Result<(), GameError> {
        let mut scratch = self.scratch.take().unwrap_or_else(|| s.clone());
        scratch.clone_from(s);
        let r = self.legal_moves_mut(&mut scratch, out);
        self.scratch = Some(scratch);
        r
    }

    /// Like [`Reasoner::legal_moves`], working on `s` in place (it is
    /// restored before returning).
    pub fn legal_moves_mut(&mut self, s: &mut State, out: &mut MoveList) -> Result<(), GameError> {
        let g = &self.game.inner.c;
        match &mut self.native {
            Some(n) => {
                g.check_state(s);
                n.legal_moves(s, out)
            }
            None => self.searcher.legal_moves(g, s, out),
        }
        .map_err(|f| {
            out.clear();
            self.error(f)
        })
    }

    /// [`Reasoner::legal_moves_mut`], and with a keyed native engine
    /// ([`NativeWalker::legal_moves_keyed`]) each move's key into `keys`:
    /// whether it wrote them.
    pub fn legal_moves_keyed_mut(
        &mut self,
        s: &mut State,
        out: &mut MoveList,
        keys: &mut Vec<u32>,
    ) -> Result<bool, GameError> {
        let g = &self.game.inner.c;
        match &mut self.native {
            Some(n) => {
                g.check_state(s);
                n.legal_moves_keyed(s, out, keys)
            }
            None => self.searcher.legal_moves(g, s, out).map(|()| false),
        }
        .map_err(|f| {
            out.clear();
            self.error(f)
        })
    }

    /// Whether the game is over: the player on move has no legal move.
    pub fn is_terminal(&mut self, s: &State) -> Result<bool, GameError> {
        let mut scratch = self.scratch.take().unwrap_or_else(|| s.clone());
        scratch.clone_from(s);
        let g = &self.game.inner.c;
        let t = match &mut self.native {
            Some(n) => {
                g.check_state(&scratch);
                n.has_move(&mut scratch).map(|found| !found)
            }
            None => self.searcher.has_move(g, &mut scratch).map(|found| !found),
        };
        self.scratch = Some(scratch);
        t.map_err(|f| self.error(f))
    }

    /// Applies the keeper's moves while the keeper is on move. Returns
    /// `false` if the keeper has no legal move (the game is over).
    pub fn complete_keeper(&mut self, s: &mut State) -> Result<bool, GameError> {
        let g = &self.game.inner.c;
        let Some(n) = &mut self.native else {
            return self
                .searcher
                .complete_keeper(g, s)
                .map_err(|f| self.error(f));
        };
        let mut moves = 0;
        while s.player == g.num_players {
            g.check_state(s);
            let found = match n.keeper_move(s) {
                Ok(found) => found,
                Err(f) => return Err(self.error(f)),
            };
            let Some((player, rule_state, pos)) = found else {
                return Ok(false);
            };
            assert!(
                player <= g.num_players
                    && (rule_state as usize) < g.trans_off.len() - 1
                    && pos < g.num_vertices,
                "native keeper move out of range"
            );
            (s.player, s.rule_state, s.pos) = (player, rule_state, pos);
            moves += 1;
            if let Err(f) = self.searcher.watch_keeper(s, moves) {
                return Err(self.error(f));
            }
        }
        Ok(true)
    }

    /// Applies a move (assumed legal) without the keeper's completion.
    pub fn apply_raw(&self, s: &mut State, m: &[ModApp]) {
        self.game.apply_raw(s, m);
    }

    /// Applies a move (assumed legal) and then the keeper's completion.
    /// Returns `false` if the keeper got stuck (the game is over).
    pub fn apply(&mut self, s: &mut State, m: &[ModApp]) -> Result<bool, GameError> {
        self.apply_raw(s, m);
        self.complete_keeper(s)
    }

    /// Whether `m` is one of the legal moves in `s`.
    pub fn is_legal(&mut self, s: &State, m: &[ModApp]) -> Result<bool, GameError> {
        let mut list = MoveList::default();
        self.legal_moves(s, &mut list)?;
        let found = list.iter().any(|x| x == m);
        Ok(found)
    }
}

/// A fault of a search of `c` as an error located in the description.
#[cold]
fn located(c: &Compiled, origin: Option<&Origin>, f: Fault, max_levels: usize) -> GameError {
    let action = c.source.get(f.action as usize).map(|&i| i as usize);
    GameError::new(f.kind.kind(max_levels), action, origin)
}

/// Games and states may be shared between threads.
const _: () = {
    const fn is_send<T: Send + Sync>() {}
    is_send::<GameModel>();
    is_send::<State>();
};
