//! Games, states, batches and agents behind trait objects, so that the
//! Python bindings are written once for every engine: [`load`] picks the
//! engine and monomorphises [`EnvGame`] for it.

use std::any::Any;
use std::sync::{Arc, Mutex};

use gg_core::{Game, MoveList, Reasoner, Turn};
use gg_games::{with_game, AnyGame, Language};
use rbg_agents::playout::Normaliser;
use rbg_agents::Agent;

use crate::batch::{Batch, BatchError, Frame};
use crate::decision::{action_perft, Decision, StepError};
use crate::spec::{Numbering, Segment, Spec};

/// An error for the caller: a bad argument (Python's `ValueError`) or a
/// failure of the engine on an improperly written game (`RuntimeError`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EnvError {
    /// Bad input: an illegal action, a malformed text, a bad description.
    Value(String),
    /// The engine failed.
    Runtime(String),
}

impl std::fmt::Display for EnvError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EnvError::Value(m) | EnvError::Runtime(m) => f.write_str(m),
        }
    }
}

fn runtime(e: impl std::fmt::Display) -> EnvError {
    EnvError::Runtime(e.to_string())
}

impl<E: std::fmt::Display> From<StepError<E>> for EnvError {
    fn from(e: StepError<E>) -> Self {
        match e {
            StepError::Illegal(a) => EnvError::Value(format!("action {a} is not legal here")),
            StepError::Over => EnvError::Value("the game is over".to_string()),
            StepError::Engine(e) => runtime(e),
        }
    }
}

impl From<BatchError> for EnvError {
    fn from(e: BatchError) -> Self {
        match e {
            BatchError::Engine(m) => EnvError::Runtime(m),
            e => EnvError::Value(e.to_string()),
        }
    }
}

/// Loads a game: from the file `path_or_text` names (language by its
/// extension, unless `language` is given), else from the text itself
/// (RBG unless `language` says `rg` or `hrg`). It is played by `engine`
/// (`interp` or `native`) or by the default one as `rbg` picks it (see
/// `rbg_cli::cmd::with_engine`: native code for RBG where the host has it,
/// the interpreter where that cannot play the game, and for RG).
pub fn load(
    path_or_text: &str,
    language: Option<&str>,
    engine: Option<&str>,
) -> Result<Arc<dyn DynGame>, EnvError> {
    let engine = engine
        .map(|e| e.parse::<rbg_jit::Engine>())
        .transpose()
        .map_err(EnvError::Value)?;
    let lang = match language.map(str::to_ascii_lowercase).as_deref() {
        None => None,
        Some("rbg") => Some(Language::Rbg),
        Some("rg") => Some(Language::Rg),
        Some("hrg") => Some(Language::Hrg),
        Some(other) => {
            return Err(EnvError::Value(format!(
                "unknown language {other:?} (expected rbg, rg or hrg)"
            )))
        }
    };
    let is_file = !path_or_text.contains('\n') && std::path::Path::new(path_or_text).is_file();
    let game = if is_file {
        let bytes = std::fs::read(path_or_text)
            .map_err(|e| EnvError::Value(format!("{path_or_text}: error: cannot read: {e}")))?;
        let lang = lang.unwrap_or_else(|| Language::of_path(path_or_text));
        AnyGame::from_text(lang, path_or_text, &bytes)
    } else {
        let lang = lang.unwrap_or(Language::Rbg);
        AnyGame::from_text(lang, "<text>", path_or_text.as_bytes())
    };
    let game = game.map_err(EnvError::Value)?;
    let (game, note) = match game {
        AnyGame::Rbg(g) => rbg_engine_keyed(g, engine)?,
        g => rbg_cli::cmd::with_engine(path_or_text, g, engine).map_err(EnvError::Value)?,
    };
    let name = rbg_cli::cmd::engine_of(&game).0;
    Ok(with_game!(&game, g => EnvGame::new(g.clone(), name, note)? as Arc<dyn DynGame>))
}

/// An RBG game played by `engine` (or the host's default), as
/// `rbg_cli::cmd::with_engine` chooses it, its native code keyed
/// ([`crate::keyed`]: a turn's first keys written by the engine). Where the
/// default engine cannot play it, the interpreter does, with a note.
fn rbg_engine_keyed(
    game: rbg_engine::GameModel,
    engine: Option<rbg_jit::Engine>,
) -> Result<(AnyGame, Option<String>), EnvError> {
    let chosen = engine.is_some();
    let keyed = match engine.unwrap_or_else(rbg_jit::Engine::default_for_host) {
        rbg_jit::Engine::Interp => Ok(game.interpreted()),
        rbg_jit::Engine::Native => crate::keyed(&game),
    };
    match keyed {
        Ok(g) => Ok((AnyGame::Rbg(g), None)),
        Err(e) if !chosen => Ok((
            AnyGame::Rbg(game.interpreted()),
            Some(format!("note: {e}; the game is played by the interpreter")),
        )),
        Err(e) => Err(EnvError::Value(e.to_string())),
    }
}

/// A loaded game, whatever its engine.
pub trait DynGame: Send + Sync {
    /// Number of players.
    fn num_players(&self) -> usize;
    /// Player `p`'s name.
    fn player_name(&self, p: usize) -> String;
    /// Size of the action space.
    fn num_distinct_actions(&self) -> usize;
    /// The observation vector's parts.
    fn observation_layout(&self) -> Vec<Segment>;
    /// Whether every player sees everything.
    fn perfect_information(&self) -> bool;
    /// Each player's lowest and highest score.
    fn score_ranges(&self) -> Vec<(i64, i64)>;
    /// The initial state.
    fn new_initial_state(&self) -> Box<dyn DynState>;
    /// `n` games stepped together on `threads` threads.
    fn new_batch(&self, n: usize, seed: u64, threads: usize)
        -> Result<Box<dyn DynBatch>, EnvError>;
    /// The engine that plays it (`native`, `interp`, `rg-engine`, ...).
    fn engine_name(&self) -> &str;
    /// Why the default engine could not play the game, when it could not.
    fn engine_note(&self) -> Option<&str>;
    /// The engine's perft: leaves at `depth`.
    fn perft(&self, depth: usize) -> Result<u64, EnvError>;
    /// An agent made from a spec (`random`, `flatmc:iterations=100`,
    /// `mcts:iterations=1000:c=1.4`).
    fn agent(&self, spec: &str, seed: u64) -> Result<Box<dyn DynAgent>, EnvError>;
}

/// A state of a loaded game, possibly in the middle of a move.
pub trait DynState: Send + Sync {
    /// A copy.
    fn clone_box(&self) -> Box<dyn DynState>;
    /// Who chooses the next action.
    fn turn(&self) -> Turn;
    /// The legal actions, sorted.
    fn legal_actions(&self) -> Vec<u32>;
    /// The engine's legal moves still possible in this turn (all of them
    /// at its start), as move texts.
    fn legal_moves(&self) -> Vec<String>;
    /// How many legal moves [`DynState::legal_moves`] lists.
    fn num_legal_moves(&self) -> usize;
    /// At a chance node: every action with its probability.
    fn chance_outcomes(&self) -> Vec<(u32, f64)>;
    /// Applies an action.
    fn apply_action(&mut self, a: u32) -> Result<(), EnvError>;
    /// The actions applied since the initial state.
    fn history(&self) -> &[u32];
    /// Complete moves played (by players and chance).
    fn move_number(&self) -> usize;
    /// Normalised scores (`0..=1`) when the game is over, else zeros.
    fn returns(&self) -> Vec<f64>;
    /// The players' scores as they stand.
    fn scores(&self) -> Vec<i64>;
    /// `viewer`'s observation.
    fn observation(&self, viewer: usize) -> Vec<f32>;
    /// An action in the language's move notation (`end` for the end action).
    fn action_to_string(&self, a: u32) -> String;
    /// The legal action an action text names.
    fn string_to_action(&self, text: &str) -> Result<u32, EnvError>;
    /// The state drawn as `rbg play` draws it, with the move in progress.
    fn render(&self) -> String;
    /// Perft through the action interface.
    fn action_perft(&self, depth: usize) -> Result<u64, EnvError>;
    /// For downcasts by agents.
    fn as_any(&self) -> &dyn Any;
}

/// Many games stepped together (see [`Batch`]).
pub trait DynBatch: Send {
    /// Restarts every game; the frame goes into `f`'s buffers.
    fn reset(&mut self, f: &mut Frame) -> Result<(), EnvError>;
    /// One action per game; the frame goes into `f`'s buffers.
    fn step(&mut self, actions: &[u32], f: &mut Frame) -> Result<(), EnvError>;
    /// A uniformly random legal action per game.
    fn random_actions(&mut self) -> Vec<u32>;
    /// [`DynBatch::step`] with [`DynBatch::random_actions`]; returns them.
    fn step_random(&mut self, f: &mut Frame) -> Result<Vec<u32>, EnvError>;
    /// Player moves completed and games finished.
    fn counts(&self) -> (u64, u64);
    /// Number of games.
    fn len(&self) -> usize;
    /// Whether there are no games.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Length of an observation.
    fn obs_len(&self) -> usize;
    /// Length of a mask.
    fn num_actions(&self) -> usize;
}

/// An agent choosing actions: it picks a whole move at a decision and
/// answers the later decisions of the same move from that plan.
pub trait DynAgent: Send {
    /// The agent's action in `s` (a player's decision of its game).
    fn act(&mut self, s: &dyn DynState) -> Result<u32, EnvError>;
}

/// Per-thread reasoners shared by the states of one game.
struct Pool<G: Game> {
    game: G,
    free: Mutex<Vec<G::Reasoner>>,
}

impl<G: Game> Pool<G> {
    fn with<T>(&self, f: impl FnOnce(&mut G::Reasoner) -> T) -> T {
        let taken = self.free.lock().map(|mut v| v.pop()).unwrap_or(None);
        let mut r = taken.unwrap_or_else(|| self.game.reasoner());
        let out = f(&mut r);
        if let Ok(mut v) = self.free.lock() {
            v.push(r);
        }
        out
    }
}

/// A game of engine `G` as a [`DynGame`].
pub struct EnvGame<G: Spec> {
    game: G,
    pool: Arc<Pool<G>>,
    initial: Decision<G>,
    norm: Normaliser,
    engine: (&'static str, Option<String>),
}

impl<G: Spec> EnvGame<G> {
    /// Wraps a loaded game (computes its first decision) played by the
    /// engine named `engine`, with why the default engine could not play
    /// it (`note`), if it could not.
    pub fn new(
        game: G,
        engine: &'static str,
        note: Option<String>,
    ) -> Result<Arc<EnvGame<G>>, EnvError> {
        let pool = Arc::new(Pool {
            game: game.clone(),
            free: Mutex::new(Vec::new()),
        });
        let initial = pool.with(|r| {
            game.initial_state()
                .and_then(|s| Decision::new(r, s))
                .map_err(|e| EnvError::Runtime(game.error_text(&e)))
        })?;
        Ok(Arc::new(EnvGame {
            norm: Normaliser::new(&game),
            game,
            pool,
            initial,
            engine: (engine, note),
        }))
    }
}

impl<G: Spec> DynGame for EnvGame<G> {
    fn num_players(&self) -> usize {
        self.game.num_players()
    }
    fn player_name(&self, p: usize) -> String {
        self.game.player_name(p).to_string()
    }
    fn num_distinct_actions(&self) -> usize {
        self.initial.num_actions() as usize
    }
    fn observation_layout(&self) -> Vec<Segment> {
        self.game.observation_layout()
    }
    fn perfect_information(&self) -> bool {
        self.game.perfect_information()
    }
    fn score_ranges(&self) -> Vec<(i64, i64)> {
        (0..self.game.num_players())
            .map(|p| self.game.score_range(p))
            .collect()
    }
    fn new_initial_state(&self) -> Box<dyn DynState> {
        Box::new(EnvState {
            game: self.game.clone(),
            pool: self.pool.clone(),
            d: self.initial.clone(),
            history: Vec::new(),
            moves: 0,
            norm: self.norm.clone(),
        })
    }
    fn new_batch(
        &self,
        n: usize,
        seed: u64,
        threads: usize,
    ) -> Result<Box<dyn DynBatch>, EnvError> {
        let b = Batch::new(&self.game, n, seed, threads).map_err(EnvError::Runtime)?;
        Ok(Box::new(b))
    }
    fn engine_name(&self) -> &str {
        self.engine.0
    }
    fn engine_note(&self) -> Option<&str> {
        self.engine.1.as_deref()
    }
    fn perft(&self, depth: usize) -> Result<u64, EnvError> {
        let c = gg_core::perft::perft(&self.game, depth).map_err(runtime)?;
        Ok(c.leaves)
    }
    fn agent(&self, spec: &str, seed: u64) -> Result<Box<dyn DynAgent>, EnvError> {
        let agent = rbg_agents::from_spec::<G>(spec, seed).map_err(EnvError::Value)?;
        Ok(Box::new(EnvAgent::<G> { agent, plan: None }))
    }
}

impl<G: Spec> DynBatch for Batch<G> {
    fn reset(&mut self, f: &mut Frame) -> Result<(), EnvError> {
        Ok(Batch::reset_into(self, f)?)
    }
    fn step(&mut self, actions: &[u32], f: &mut Frame) -> Result<(), EnvError> {
        Ok(Batch::step_into(self, actions, f)?)
    }
    fn random_actions(&mut self) -> Vec<u32> {
        Batch::random_actions(self)
    }
    fn step_random(&mut self, f: &mut Frame) -> Result<Vec<u32>, EnvError> {
        Ok(Batch::step_random_into(self, f)?)
    }
    fn counts(&self) -> (u64, u64) {
        Batch::counts(self)
    }
    fn len(&self) -> usize {
        Batch::len(self)
    }
    fn obs_len(&self) -> usize {
        Batch::obs_len(self)
    }
    fn num_actions(&self) -> usize {
        Batch::num_actions(self)
    }
}

/// A state of engine `G`.
pub struct EnvState<G: Spec> {
    game: G,
    pool: Arc<Pool<G>>,
    d: Decision<G>,
    history: Vec<u32>,
    moves: usize,
    norm: Normaliser,
}

impl<G: Spec> DynState for EnvState<G> {
    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(EnvState {
            game: self.game.clone(),
            pool: self.pool.clone(),
            d: self.d.clone(),
            history: self.history.clone(),
            moves: self.moves,
            norm: self.norm.clone(),
        })
    }
    fn turn(&self) -> Turn {
        self.d.turn()
    }
    fn legal_actions(&self) -> Vec<u32> {
        self.d.actions().iter().map(|a| a.0).collect()
    }
    fn num_legal_moves(&self) -> usize {
        self.d.num_candidates()
    }
    fn legal_moves(&self) -> Vec<String> {
        let moves = self.d.moves();
        let texts = self.d.candidates();
        texts.map(|i| self.game.move_text(moves.get(i))).collect()
    }
    fn chance_outcomes(&self) -> Vec<(u32, f64)> {
        if self.d.turn() != Turn::Chance {
            return Vec::new();
        }
        let n = self.d.num_candidates() as f64;
        self.d
            .actions()
            .iter()
            .map(|&(a, k)| (a, k as f64 / n))
            .collect()
    }
    fn apply_action(&mut self, a: u32) -> Result<(), EnvError> {
        let d = &mut self.d;
        self.pool.with(|r| d.apply(r, a))?;
        self.history.push(a);
        if self.d.at_turn_start() {
            self.moves += 1;
        }
        Ok(())
    }
    fn history(&self) -> &[u32] {
        &self.history
    }
    fn move_number(&self) -> usize {
        self.moves
    }
    fn returns(&self) -> Vec<f64> {
        let mut out = vec![0.0; self.norm.players()];
        if self.d.turn() == Turn::Over {
            self.norm.scores(&self.game, self.d.base(), &mut out);
        }
        out
    }
    fn scores(&self) -> Vec<i64> {
        self.game.scores(self.d.base())
    }
    fn observation(&self, viewer: usize) -> Vec<f32> {
        let len = self.game.observation_layout().iter().map(|s| s.len()).sum();
        let mut out = vec![0.0; len];
        self.d.observe(&self.game, viewer, &mut out, &mut None);
        out
    }
    fn action_to_string(&self, a: u32) -> String {
        match self.d.numbering().action_text(a) {
            Some(text) => text,
            None if a == self.d.end_action() => "end".to_string(),
            None => format!("<no action {a}>"),
        }
    }
    fn string_to_action(&self, text: &str) -> Result<u32, EnvError> {
        let id = if text.trim() == "end" {
            self.d.end_action()
        } else {
            let atoms = self
                .pool
                .with(|r| r.parse_move(self.d.base(), text))
                .map_err(|e| EnvError::Value(e.to_string()))?;
            let numbering = self.d.numbering();
            let mut ids = atoms.iter().filter_map(|&a| numbering.atom_id(a));
            match (ids.next(), ids.next()) {
                (Some(id), None) => id,
                _ => return Err(EnvError::Value(format!("{text:?} is not one action"))),
            }
        };
        if !self.d.is_legal(id) {
            return Err(EnvError::Value(format!(
                "{text:?} is not a legal action here"
            )));
        }
        Ok(id)
    }
    fn render(&self) -> String {
        let prefix = self.d.prefix();
        let mut scratch = None;
        let s = self.d.shown_state(&self.game, &mut scratch);
        let mut out = self.game.view(false).render(s, self.d.turn());
        if !prefix.is_empty() {
            out.push_str(&format!("move so far: {}\n", self.game.move_text(prefix)));
        }
        out
    }
    fn action_perft(&self, depth: usize) -> Result<u64, EnvError> {
        Ok(self.pool.with(|r| action_perft(r, &self.d, depth))?)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// An agent of engine `G` with its plan: the move it chose and the state
/// where it chose it.
struct EnvAgent<G: Spec> {
    agent: Box<dyn Agent<G>>,
    plan: Option<(G::State, Vec<G::Atom>)>,
}

impl<G: Spec> DynAgent for EnvAgent<G> {
    fn act(&mut self, s: &dyn DynState) -> Result<u32, EnvError> {
        let Some(s) = s.as_any().downcast_ref::<EnvState<G>>() else {
            return Err(EnvError::Value(
                "this agent was made for a game of another language".to_string(),
            ));
        };
        let d = &s.d;
        match d.turn() {
            Turn::Player(_) => {}
            Turn::Chance => {
                return Err(EnvError::Value(
                    "chance is to move: draw from chance_outcomes()".to_string(),
                ))
            }
            Turn::Over => return Err(EnvError::Value("the game is over".to_string())),
        }
        let planned = self.plan.as_ref().and_then(|(base, m)| {
            if base != d.base() {
                return None;
            }
            let moves = d.moves();
            d.candidates().find(|&i| moves.get(i) == m.as_slice())
        });
        let chosen = match planned {
            Some(i) => i,
            None => {
                let mut subset = MoveList::default();
                for i in d.candidates() {
                    subset.push(d.moves().get(i));
                }
                self.agent.new_game(&s.game, d.base());
                let k = self
                    .agent
                    .select(d.base(), &subset, None)
                    .map_err(runtime)?;
                let i = d.candidate(k);
                self.plan = Some((d.base().clone(), d.moves().get(i).to_vec()));
                i
            }
        };
        Ok(d.action_of(chosen))
    }
}
