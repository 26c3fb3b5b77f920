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
pub mod forward;
mod layout;
mod lower;
mod maps;
pub mod moves;
pub mod perft;
pub mod playout;
mod prefixes;
mod seen;
mod shortcut;
mod tables;
mod walk;

use std::fmt;
use std::sync::Arc;

pub use moves::{Effects, MoveList, Sink};
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

/// An improper game found while playing (the paper's conditions the
/// language does not check statically).
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
    /// One enumeration visited more than `limit` states; the last one was
    /// at `node`.
    TooManyStates {
        /// The bound.
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
            RunError::TooManyStates { limit, .. } => {
                write!(f, "an enumeration visited more than {limit} states")
            }
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

/// A game ready to be played: the checked description and its tables.
#[derive(Clone)]
pub struct GameModel {
    inner: Arc<Inner>,
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

    /// A walk workspace for this game (one per thread).
    pub fn reasoner(&self) -> Reasoner {
        Reasoner {
            walker: Walker::new(&self.inner.t),
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
            e => format!("improper game: {e}"),
        }
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
