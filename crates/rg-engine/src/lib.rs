//! A forward model for Regular Games (RG).
//!
//! ```no_run
//! use rg_engine::{GameModel, Mover, MoveList};
//! let text = std::fs::read_to_string("tictactoe.rg").unwrap();
//! let game = GameModel::from_text(&text).unwrap();
//! let mut r = game.reasoner();
//! let mut s = game.initial_state();
//! let mut moves = MoveList::default();
//! r.complete_keeper(&mut s).unwrap();
//! while !game.is_terminal(&s) {
//!     r.moves(&mut s, &mut moves).unwrap();
//!     println!("{:?} plays {}", game.mover(&s), game.move_text(&moves, 0));
//!     r.apply(&mut s, &moves, 0);
//!     r.complete_keeper(&mut s).unwrap();
//! }
//! println!("goals: {:?}", game.scores(&s));
//! ```
//!
//! [`GameModel`] holds the lowered game (shared, immutable), a [`Reasoner`]
//! the per-thread walk workspace, a [`State`] is plain data (the semistate's
//! slots and the node). Moves are the walks of a [`MoveList`]; a move's
//! identity is its tag sequence.

mod analysis;
mod bits;
mod code;
mod cycles;
mod error;
pub mod forward;
mod layout;
mod local;
mod lower;
mod maps;
mod merges;
mod mirror;
pub mod moves;
pub mod perft;
pub mod playout;
mod prefixes;
mod program;
mod rays;
mod sealed;
mod seen;
mod shortcut;
mod switch;
mod tables;
mod walk;

/// The lowered tables and the walk's parts, for the native engine
/// (`rg-jit`), which generates code from them.
#[doc(hidden)]
pub mod raw {
    pub use crate::code::{Code, Kind};
    pub use crate::cycles::{components, few_tags, on_cycle, FEW_TAGS};
    pub use crate::maps::{assign, equal, MapPlan};
    pub use crate::prefixes::{Prefixes, EMPTY};
    pub use crate::program::{Ins, Program, Step};
    pub use crate::sealed::Sealed;
    pub use crate::seen::{Seen, SeenEntry, MAX_ARENA, MAX_KEYS, MAX_MOVE_KEYS};
    pub use crate::tables::*;
    pub use crate::walk::{
        mix, place, read, tag_step, too_long, AheadOf, Walker, FAN_ROOT, MAX_FRAMES, MAX_LOG,
        MAX_RECORDED, MAX_STEPS, MAX_TAGS,
    };
}

use std::fmt;
use std::sync::Arc;

pub use error::{Bound, RunError};
pub use moves::{Change, Effects, MoveList, Sink};
use rg_lang::checked::CheckedGame;
use rg_lang::types::Sym;
use tables::Tables;
use walk::Walker;

/// Why a game cannot be lowered (it is too large for the dense layout).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError(pub String);

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LoadError {}

/// Who is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mover {
    /// Player `i` (in the order of `type Player`).
    Player(usize),
    /// The keeper (bookkeeping; exactly one move in a proper game).
    Keeper,
    /// The random player (uniform over its moves).
    Random,
}

/// The state of a play: the semistate's slots and the current node.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct State {
    slots: Vec<u16>,
    node: u32,
}

impl Clone for State {
    fn clone(&self) -> State {
        State {
            slots: self.slots.clone(),
            node: self.node,
        }
    }

    fn clone_from(&mut self, src: &State) {
        let State { slots, node } = src;
        self.slots.clone_from(slots);
        self.node = *node;
    }
}

impl State {
    /// The current node (0 = `begin`, 1 = `end`).
    pub fn node(&self) -> u32 {
        self.node
    }

    /// The slots' values (symbol numbers), in the layout's order.
    pub fn slots(&self) -> &[u16] {
        &self.slots
    }
}

/// Machine code for a game's move walks, made at load time by a code
/// generator (the `rg-jit` crate); attached with [`GameModel::with_native`].
pub trait Native: Send + Sync {
    /// A walk workspace for one thread.
    fn walker(&self) -> Box<dyn NativeWalker>;
    /// Short name of the engine (shown by the CLI).
    fn name(&self) -> &'static str;
    /// Processor time the code generation took.
    fn codegen_time(&self) -> std::time::Duration;
}

/// Where a native walk puts its walks: the two [`Sink`]s.
pub enum SinkMut<'a> {
    /// Whole moves.
    List(&'a mut MoveList),
    /// Effects only.
    Effects(&'a mut Effects),
}

/// Per-thread workspace of a [`Native`] engine.
pub trait NativeWalker: Send + Sync {
    /// Every move walk from (`st`, `node`) into `out` (cleared first), as
    /// the interpreter's, in the same order; `st` is unchanged afterwards,
    /// also on error.
    fn moves(&mut self, st: &mut [u16], node: u32, out: SinkMut<'_>) -> Result<(), RunError>;
    /// A fresh copy for another thread.
    fn clone_box(&self) -> Box<dyn NativeWalker>;
}

impl Clone for Box<dyn NativeWalker> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// A game ready to be played: the checked description and its tables.
#[derive(Clone)]
pub struct GameModel {
    inner: Arc<Inner>,
    /// The native engine that plays it (`None`: the interpreter).
    native: Option<Arc<dyn Native>>,
}

struct Inner {
    checked: CheckedGame,
    t: Tables,
    /// Per symbol: the mover it names (`None`: not a mover).
    movers: Vec<Option<Mover>>,
    /// Per symbol: its value as a score (its number, or its index in `Score`).
    score_values: Vec<i64>,
    /// The source the description's positions refer to (run-time errors
    /// name its line and column).
    source: Option<rg_lang::SourceFile>,
}

impl fmt::Debug for GameModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GameModel")
            .field("players", &self.inner.checked.players.len())
            .field("nodes", &self.inner.t.nodes.len())
            .field("slots", &self.inner.t.initial.len())
            .finish()
    }
}

impl GameModel {
    /// Lowers a checked game.
    pub fn new(checked: CheckedGame) -> Result<GameModel, LoadError> {
        GameModel::lowered(checked, false, None)
    }

    /// Like [`GameModel::new`]; the positions of `checked` are in `source`
    /// (an RG file, or the HRG file translated), so run-time errors
    /// ([`GameModel::error_text`]) are located there.
    pub fn located(
        checked: CheckedGame,
        source: rg_lang::SourceFile,
    ) -> Result<GameModel, LoadError> {
        GameModel::lowered(checked, false, Some(source))
    }

    /// Like [`GameModel::new`], but every node (except `@unique` ones) has
    /// a visited check, as in the reference: slower, same results. For
    /// testing the analysis that leaves most checks out.
    #[doc(hidden)]
    pub fn with_every_check(checked: CheckedGame) -> Result<GameModel, LoadError> {
        GameModel::lowered(checked, true, None)
    }

    fn lowered(
        checked: CheckedGame,
        check_all: bool,
        source: Option<rg_lang::SourceFile>,
    ) -> Result<GameModel, LoadError> {
        let t = lower::lower(&checked, check_all)?;
        let n = checked.symbols.len();
        let mut movers = vec![None; n];
        for (i, p) in checked.players.iter().enumerate() {
            movers[p.0 as usize] = Some(Mover::Player(i));
        }
        movers[checked.keeper.0 as usize] = Some(Mover::Keeper);
        movers[checked.random.0 as usize] = Some(Mover::Random);
        let score_syms = checked
            .types
            .symbols(checked.typedefs["Score"])
            .unwrap_or(&[]);
        let score_values = (0..n)
            .map(|s| {
                let name = checked.symbols.name(Sym(s as u32));
                name.parse::<i64>().unwrap_or_else(|_| {
                    score_syms
                        .iter()
                        .position(|x| x.0 as usize == s)
                        .map_or(0, |i| i as i64)
                })
            })
            .collect();
        Ok(GameModel {
            inner: Arc::new(Inner {
                checked,
                t,
                movers,
                score_values,
                source,
            }),
            native: None,
        })
    }

    /// Parses, checks and lowers a description.
    pub fn from_text(text: &str) -> Result<GameModel, String> {
        let (_, checked) = rg_lang::parse_str(text).map_err(|e| e.message)?;
        GameModel::new(checked).map_err(|e| e.0)
    }

    /// Like [`GameModel::from_text`], with front-end errors tied to `file`.
    pub fn load(file: &rg_lang::SourceFile) -> Result<GameModel, String> {
        let (_, checked) = rg_lang::load(file).map_err(|d| d.rendered)?;
        GameModel::located(checked, file.clone())
            .map_err(|e| format!("{}: error: {}", file.name, e.0))
    }

    /// The same game played by a native engine (states are
    /// interchangeable).
    pub fn with_native(&self, native: Arc<dyn Native>) -> GameModel {
        GameModel {
            inner: self.inner.clone(),
            native: Some(native),
        }
    }

    /// The same game played by the interpreter.
    pub fn interpreted(&self) -> GameModel {
        GameModel {
            inner: self.inner.clone(),
            native: None,
        }
    }

    /// Name of the engine that plays: `interp` or the native engine's.
    pub fn engine_name(&self) -> &'static str {
        self.native.as_ref().map_or("interp", |n| n.name())
    }

    /// Processor time of the native engine's code generation (`None`: the
    /// interpreter).
    pub fn codegen_time(&self) -> Option<std::time::Duration> {
        self.native.as_ref().map(|n| n.codegen_time())
    }

    /// The lowered tables (for the native engine).
    #[doc(hidden)]
    pub fn tables(&self) -> &Tables {
        &self.inner.t
    }

    /// The checked description.
    pub fn description(&self) -> &CheckedGame {
        &self.inner.checked
    }

    /// Whether each node (numbered as in [`CheckedGame::nodes`]) has a
    /// visited check (see `analysis.rs`).
    pub fn visited_checks(&self) -> Vec<bool> {
        self.inner
            .t
            .nodes
            .iter()
            .map(|n| n.guard != tables::Guard::None)
            .collect()
    }

    /// How many lazy roots and speculated checks the walk uses
    /// (`mirror.rs`).
    #[doc(hidden)]
    pub fn mirror_counts(&self) -> (usize, usize) {
        let t = &self.inner.t;
        let count = |v: &[u32]| v.iter().filter(|&&n| n != tables::NO_NODE).count();
        (count(&t.lazy), count(&t.speculated))
    }

    /// A walk workspace for this game (one per thread).
    pub fn reasoner(&self) -> Reasoner {
        Reasoner {
            walker: Walker::new(&self.inner.t),
            native: self.native.as_ref().map(|n| n.walker()),
            game: self.clone(),
            keeper_list: MoveList::default(),
        }
    }

    /// The initial state: initial values at `begin` (before the keeper's
    /// first move).
    pub fn initial_state(&self) -> State {
        State {
            slots: self.inner.t.initial.clone(),
            node: CheckedGame::BEGIN.0,
        }
    }

    /// Number of players (not counting the keeper and random).
    pub fn num_players(&self) -> usize {
        self.inner.checked.players.len()
    }

    /// Name of player `i`.
    pub fn player_name(&self, i: usize) -> &str {
        self.inner
            .checked
            .symbols
            .name(self.inner.checked.players[i])
    }

    /// Who is to move in `s`.
    pub fn mover(&self, s: &State) -> Result<Mover, RunError> {
        let v = s.slots[self.inner.t.player_slot as usize];
        self.inner.movers[v as usize].ok_or(RunError::NotAPlayer(v))
    }

    /// Whether the play is complete (the node is `end`).
    pub fn is_terminal(&self, s: &State) -> bool {
        s.node == CheckedGame::END.0
    }

    /// Each player's `goals` entry as a number (numeric symbols give their
    /// value, others their index in `Score`).
    pub fn scores(&self, s: &State) -> Vec<i64> {
        self.inner
            .t
            .goal_slots
            .iter()
            .map(|&slot| self.inner.score_values[s.slots[slot as usize] as usize])
            .collect()
    }

    /// Each player's `goals` entry as its symbol.
    pub fn goal_names(&self, s: &State) -> Vec<&str> {
        self.inner
            .t
            .goal_slots
            .iter()
            .map(|&slot| self.symbol_name(s.slots[slot as usize]))
            .collect()
    }

    /// The name of a symbol number (tags are symbols).
    pub fn symbol_name(&self, s: u16) -> &str {
        self.inner.checked.symbols.name(Sym(s as u32))
    }

    /// The move of walk `i`: its tags joined by spaces.
    pub fn move_text(&self, list: &MoveList, i: usize) -> String {
        self.tags_text(list.tags(i))
    }

    /// Tags joined by spaces.
    pub fn tags_text(&self, tags: &[u16]) -> String {
        tags.iter()
            .map(|&t| self.symbol_name(t))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The index of the first walk whose move is `text` (tags separated by
    /// whitespace), if any.
    pub fn find_move(&self, list: &MoveList, text: &str) -> Option<usize> {
        let words: Vec<&str> = text.split_whitespace().collect();
        (0..list.len()).find(|&i| {
            let tags = list.tags(i);
            tags.len() == words.len()
                && tags
                    .iter()
                    .zip(&words)
                    .all(|(&t, w)| self.symbol_name(t) == *w)
        })
    }

    /// What `player` sees of walk `i`: the tags emitted while
    /// `visible[player]` was 1.
    pub fn observation(&self, list: &MoveList, i: usize, player: usize) -> Vec<u16> {
        let tags = list.tags(i);
        let vis = list.visibility(i);
        if vis.is_empty() {
            return tags.to_vec();
        }
        tags.iter()
            .zip(vis)
            .filter(|(_, &m)| m >> player & 1 == 1)
            .map(|(&t, _)| t)
            .collect()
    }

    /// The name of a node.
    pub fn node_name(&self, node: u32) -> &str {
        &self.inner.checked.nodes[node as usize]
    }

    /// The state as text: node, then every variable (maps as `{ k: v, :d }`).
    pub fn describe(&self, s: &State) -> String {
        let g = &self.inner.checked;
        let mut out = format!("node {}\n", self.node_name(s.node));
        let mut lay = layout::Layouts::new(&g.types, g.symbols.len());
        let mut offset = 0usize;
        for v in &g.variables {
            let size = lay.size(v.ty).unwrap_or(1);
            out.push_str(&format!(
                "{} = {}\n",
                v.name,
                self.value_text(&mut lay, v.ty, &s.slots, offset)
            ));
            offset += size;
        }
        out
    }

    fn value_text(
        &self,
        lay: &mut layout::Layouts,
        ty: rg_lang::types::Ty,
        mem: &[u16],
        off: usize,
    ) -> String {
        match lay.arrow(ty) {
            None => self.symbol_name(mem[off]).to_string(),
            Some((keys, target)) => {
                let step = lay.size(target).unwrap_or(1);
                let mut parts: Vec<String> = keys
                    .iter()
                    .enumerate()
                    .map(|(i, k)| {
                        let name = self.inner.checked.symbols.name(*k).to_string();
                        format!(
                            "{name}: {}",
                            self.value_text(lay, target, mem, off + i * step)
                        )
                    })
                    .collect();
                parts.push(format!(
                    ":{}",
                    self.value_text(lay, target, mem, off + keys.len() * step)
                ));
                format!("{{ {} }}", parts.join(", "))
            }
        }
    }
}

/// Per-thread reasoning workspace for a [`GameModel`].
#[derive(Clone)]
pub struct Reasoner {
    game: GameModel,
    walker: Walker,
    native: Option<Box<dyn NativeWalker>>,
    keeper_list: MoveList,
}

/// Keeper moves in a row beyond this are an error.
pub const MAX_KEEPER_MOVES: usize = 1 << 12;

impl Reasoner {
    /// The game.
    pub fn game(&self) -> &GameModel {
        &self.game
    }

    /// Every move walk of the mover in `s` into `out`. `s` is used as a
    /// workspace and restored.
    pub fn moves(&mut self, s: &mut State, out: &mut MoveList) -> Result<(), RunError> {
        self.walks(s, out)
    }

    /// Every move walk of the mover in `s` into any [`Sink`].
    pub(crate) fn walks<S: Sink>(&mut self, s: &mut State, out: &mut S) -> Result<(), RunError> {
        if let Some(n) = &mut self.native {
            return n.moves(&mut s.slots, s.node, out.sink_mut());
        }
        let t = &self.game.inner.t;
        self.walker.moves(t, &mut s.slots, s.node, out)
    }

    /// Applies walk `i` of `list` (computed for `s`).
    pub fn apply(&self, s: &mut State, list: &MoveList, i: usize) {
        s.node = list.apply_to(i, &mut s.slots);
    }

    /// Applies the keeper's moves while the keeper is to move and the play
    /// is not complete; each must be the keeper's only move.
    pub fn complete_keeper(&mut self, s: &mut State) -> Result<(), RunError> {
        let mut list = std::mem::take(&mut self.keeper_list);
        let r = self.complete_keeper_with(s, &mut list);
        self.keeper_list = list;
        r
    }

    /// [`Reasoner::complete_keeper`] with a caller's walk list as workspace.
    pub fn complete_keeper_with<S: Sink>(
        &mut self,
        s: &mut State,
        list: &mut S,
    ) -> Result<(), RunError> {
        for _ in 0..MAX_KEEPER_MOVES {
            if self.game.is_terminal(s) || self.game.mover(s)? != Mover::Keeper {
                return Ok(());
            }
            let t = &self.game.inner.t;
            if self.native.is_none() && t.straight[s.node as usize] {
                // A walk with no choice, applied in place (`walk/straight.rs`;
                // not beside native code, whose checks are native).
                if let Some(node) = self.walker.straight(t, &mut s.slots, s.node, S::VISIBILITY) {
                    s.node = node;
                    continue;
                }
            }
            self.walks(s, list)?;
            if list.count() != 1 {
                return Err(RunError::KeeperMoves {
                    count: list.count(),
                    node: s.node,
                });
            }
            s.node = list.apply_to(0, &mut s.slots);
        }
        Err(RunError::EndlessKeeper {
            moves: MAX_KEEPER_MOVES,
            node: s.node,
        })
    }

    /// Whether a walk from `start` reaches `target` in the semistate of `s`.
    pub fn reaches(&mut self, s: &mut State, start: u32, target: u32) -> Result<bool, RunError> {
        let t = &self.game.inner.t;
        self.walker.reaches(t, &mut s.slots, start, target)
    }

    /// Fails if two walks of `list` (the moves of `s`) share node and tags
    /// but lead to different states (`rg-language.md` §6.2). `scratch`s are
    /// workspaces.
    pub fn check_unambiguous(
        &self,
        s: &State,
        list: &MoveList,
        order: &mut Vec<u32>,
        scratch: (&mut State, &mut State),
    ) -> Result<(), RunError> {
        let n = list.len();
        let same = |a: usize, b: usize| {
            list.tag_hash(a) == list.tag_hash(b)
                && list.node(a) == list.node(b)
                && list.tags(a) == list.tags(b)
        };
        let mut check = |a: usize, b: usize| -> Result<(), RunError> {
            if !same(a, b) {
                return Ok(());
            }
            let (x, y) = (&mut *scratch.0, &mut *scratch.1);
            x.clone_from(s);
            y.clone_from(s);
            self.apply(x, list, a);
            self.apply(y, list, b);
            if x.slots != y.slots {
                return Err(RunError::AmbiguousMove(list.tags(a).to_vec()));
            }
            Ok(())
        };
        if n <= 16 {
            for a in 0..n {
                for b in a + 1..n {
                    if list.tag_hash(a) == list.tag_hash(b) {
                        check(a, b)?;
                    }
                }
            }
            return Ok(());
        }
        order.clear();
        order.extend(0..n as u32);
        order.sort_unstable_by_key(|&i| list.tag_hash(i as usize));
        for (k, &a) in order.iter().enumerate() {
            for &b in order[k + 1..]
                .iter()
                .take_while(|&&b| list.tag_hash(b as usize) == list.tag_hash(a as usize))
            {
                check(a as usize, b as usize)?;
            }
        }
        Ok(())
    }
}

#[allow(dead_code)]
fn _assert_send() {
    fn is_send<T: Send + Sync>() {}
    is_send::<GameModel>();
    is_send::<State>();
    is_send::<Reasoner>();
}
