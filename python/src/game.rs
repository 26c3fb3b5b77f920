//! `rbg.Game` and `rbg.State`: the OpenSpiel-style game and state API.

use std::sync::Arc;

use gg_env::{DynGame, DynState, EnvError, Turn};
use numpy::PyArray1;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// `current_player()` at a chance node (as in OpenSpiel).
pub const CHANCE: i64 = -1;
/// `current_player()` when the game is over (as in OpenSpiel).
pub const TERMINAL: i64 = -4;

/// An `EnvError` as a Python exception.
pub fn py_err(e: EnvError) -> PyErr {
    match e {
        EnvError::Value(m) => PyValueError::new_err(m),
        EnvError::Runtime(m) => PyRuntimeError::new_err(m),
    }
}

/// A loaded game. Create with `rbg.load_game(path_or_text)`.
#[pyclass(module = "rbg", frozen)]
pub struct Game {
    pub inner: Arc<dyn DynGame>,
    /// What it was loaded from (a path or a description), the language
    /// and the engine asked for, to pickle it.
    pub source: (String, Option<String>, Option<String>),
}

#[pymethods]
impl Game {
    /// Number of players (chance not counted).
    fn num_players(&self) -> usize {
        self.inner.num_players()
    }

    /// Player `p`'s name.
    fn player_name(&self, p: usize) -> PyResult<String> {
        if p >= self.inner.num_players() {
            return Err(PyValueError::new_err(format!("no player {p}")));
        }
        Ok(self.inner.player_name(p))
    }

    /// Size of the fixed action space: action ids are `0..num_distinct_actions()`.
    fn num_distinct_actions(&self) -> usize {
        self.inner.num_distinct_actions()
    }

    /// Shape of `State.observation_tensor()`: `[length]`.
    fn observation_tensor_shape(&self) -> Vec<usize> {
        vec![self.observation_tensor_size()]
    }

    /// Length of an observation vector.
    fn observation_tensor_size(&self) -> usize {
        self.inner
            .observation_layout()
            .iter()
            .map(|s| s.len())
            .sum()
    }

    /// The parts of an observation, in order: a list of `(name, shape)`.
    fn observation_layout(&self) -> Vec<(String, Vec<usize>)> {
        let layout = self.inner.observation_layout();
        layout.into_iter().map(|s| (s.name, s.shape)).collect()
    }

    /// Whether every player sees the whole state.
    fn perfect_information(&self) -> bool {
        self.inner.perfect_information()
    }

    /// Each player's `(lowest, highest)` score.
    fn score_ranges(&self) -> Vec<(i64, i64)> {
        self.inner.score_ranges()
    }

    /// The initial state.
    fn new_initial_state(slf: &Bound<'_, Self>) -> State {
        State {
            inner: slf.get().inner.new_initial_state(),
            game: slf.clone().unbind(),
        }
    }

    /// A state from `State.serialize()`'s text: the actions replayed from
    /// the initial state (each must be legal).
    fn deserialize_state(slf: &Bound<'_, Self>, text: &str) -> PyResult<State> {
        let mut s = slf.get().inner.new_initial_state();
        for (i, word) in text.split_whitespace().enumerate() {
            let a: u32 = word.parse().map_err(|_| {
                PyValueError::new_err(format!("action {} is not a number: {word:?}", i + 1))
            })?;
            s.apply_action(a)
                .map_err(|e| PyValueError::new_err(format!("action {} ({a}): {e}", i + 1)))?;
        }
        Ok(State {
            inner: s,
            game: slf.clone().unbind(),
        })
    }

    /// The engine that plays the game: `"native"` or `"interp"` for RBG,
    /// `"rg-engine"` or RG's native engine's name.
    #[getter]
    fn engine(&self) -> String {
        self.inner.engine_name().to_string()
    }

    /// Why the default engine could not play the game (the interpreter
    /// does), or `None`.
    #[getter]
    fn engine_note(&self) -> Option<String> {
        self.inner.engine_note().map(str::to_string)
    }

    /// The engine's perft: the number of move sequences of length `depth`
    /// (as `rbg perft` counts them).
    fn perft(&self, py: Python<'_>, depth: usize) -> PyResult<u64> {
        let g = self.inner.clone();
        py.detach(move || g.perft(depth)).map_err(py_err)
    }

    /// Players, action space and observation size.
    fn __repr__(&self) -> String {
        let names: Vec<String> = (0..self.inner.num_players())
            .map(|p| self.inner.player_name(p))
            .collect();
        format!(
            "<rbg.Game players=[{}] actions={} observation={} engine={}>",
            names.join(", "),
            self.inner.num_distinct_actions(),
            self.observation_tensor_size(),
            self.inner.engine_name()
        )
    }

    /// Pickled as its description's text (and language).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let load = py.import("rbg")?.getattr("load_game")?;
        let (text, lang, engine) = &slf.get().source;
        (load, (text.clone(), lang.clone(), engine.clone())).into_pyobject(py)
    }
}

/// A game state, possibly in the middle of a move (see the action space in
/// the README: a move is chosen by one action per decision).
#[pyclass(module = "rbg")]
pub struct State {
    pub inner: Box<dyn DynState>,
    pub game: Py<Game>,
}

impl State {
    fn player_or_current(&self, player: Option<i64>) -> PyResult<usize> {
        let n = self.game.get().inner.num_players();
        match player {
            Some(p) if p >= 0 && (p as usize) < n => Ok(p as usize),
            Some(p) => Err(PyValueError::new_err(format!("no player {p}"))),
            None => Ok(match self.inner.turn() {
                Turn::Player(p) => p,
                _ => 0,
            }),
        }
    }

    /// Reads `(player, x)` or `(x,)` arguments (OpenSpiel accepts both).
    fn last_arg<'py>(args: &Bound<'py, PyTuple>) -> PyResult<Bound<'py, PyAny>> {
        match args.len() {
            1 | 2 => args.get_item(args.len() - 1),
            n => Err(PyValueError::new_err(format!(
                "expected (action) or (player, action), got {n} arguments"
            ))),
        }
    }
}

#[pymethods]
impl State {
    /// The player to choose, `rbg.CHANCE` at a chance node, `rbg.TERMINAL`
    /// when the game is over.
    fn current_player(&self) -> i64 {
        match self.inner.turn() {
            Turn::Player(p) => p as i64,
            Turn::Chance => CHANCE,
            Turn::Over => TERMINAL,
        }
    }

    /// Whether the game is over (also when the player on move has no legal move).
    fn is_terminal(&self) -> bool {
        self.inner.turn() == Turn::Over
    }

    /// Whether chance chooses the next action.
    fn is_chance_node(&self) -> bool {
        self.inner.turn() == Turn::Chance
    }

    /// The legal actions (sorted ids); empty when the game is over or when
    /// `player` is given and is not the one to choose.
    #[pyo3(signature = (player=None))]
    fn legal_actions(&self, player: Option<i64>) -> Vec<u32> {
        match player {
            Some(p) if p != self.current_player() => Vec::new(),
            _ => self.inner.legal_actions(),
        }
    }

    /// The engine's legal moves that the actions of this turn so far
    /// still allow (every legal move at the start of a turn), as move
    /// texts in the language's notation; empty when the game is over.
    fn legal_moves(&self) -> Vec<String> {
        self.inner.legal_moves()
    }

    /// `len(legal_moves())`, without making the texts.
    fn num_legal_moves(&self) -> usize {
        self.inner.num_legal_moves()
    }

    /// A numpy bool array of length `num_distinct_actions()`, true at the
    /// legal actions.
    #[pyo3(signature = (player=None))]
    fn legal_actions_mask<'py>(
        &self,
        py: Python<'py>,
        player: Option<i64>,
    ) -> Bound<'py, PyArray1<bool>> {
        let mut mask = vec![false; self.game.get().inner.num_distinct_actions()];
        for a in self.legal_actions(player) {
            mask[a as usize] = true;
        }
        PyArray1::from_vec(py, mask)
    }

    /// At a chance node, `[(action, probability)]`; else empty.
    fn chance_outcomes(&self) -> Vec<(u32, f64)> {
        self.inner.chance_outcomes()
    }

    /// Applies a legal action (raises `ValueError` otherwise).
    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        let a = u32::try_from(action)
            .map_err(|_| PyValueError::new_err(format!("action {action} is not legal here")))?;
        self.inner.apply_action(a).map_err(py_err)
    }

    /// A new state: this one after `action`.
    fn child(&self, py: Python<'_>, action: i64) -> PyResult<State> {
        let mut s = self.clone_state(py);
        s.apply_action(action)?;
        Ok(s)
    }

    /// Every player's return: their score normalised to `0..1` by its range
    /// (as the agents see it) when the game is over, else zeros.
    fn returns(&self) -> Vec<f64> {
        self.inner.returns()
    }

    /// The players' scores as they stand (the description's numbers).
    fn scores(&self) -> Vec<i64> {
        self.inner.scores()
    }

    /// The observation of `player` (default: the one to choose) as a
    /// float32 numpy vector; see `Game.observation_layout()`.
    #[pyo3(signature = (player=None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Option<i64>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let p = self.player_or_current(player)?;
        Ok(PyArray1::from_vec(py, self.inner.observation(p)))
    }

    /// A copy of the state.
    #[pyo3(name = "clone")]
    fn clone_state(&self, py: Python<'_>) -> State {
        State {
            inner: self.inner.clone_box(),
            game: self.game.clone_ref(py),
        }
    }

    /// A copy of the state (as `clone`).
    fn __copy__(&self, py: Python<'_>) -> State {
        self.clone_state(py)
    }

    /// A copy of the state (as `clone`).
    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> State {
        self.clone_state(py)
    }

    /// The text of an action: `(action)` or `(player, action)`.
    #[pyo3(signature = (*args))]
    fn action_to_string(&self, args: &Bound<'_, PyTuple>) -> PyResult<String> {
        let a: i64 = Self::last_arg(args)?.extract()?;
        let n = self.game.get().inner.num_distinct_actions() as i64;
        if !(0..n).contains(&a) {
            return Err(PyValueError::new_err(format!("no action {a} (0..{n})")));
        }
        Ok(self.inner.action_to_string(a as u32))
    }

    /// The legal action a text names: `(text)` or `(player, text)`.
    #[pyo3(signature = (*args))]
    fn string_to_action(&self, args: &Bound<'_, PyTuple>) -> PyResult<u32> {
        let text: String = Self::last_arg(args)?.extract()?;
        self.inner.string_to_action(&text).map_err(py_err)
    }

    /// The actions applied since the initial state.
    fn history(&self) -> Vec<u32> {
        self.inner.history().to_vec()
    }

    /// Complete moves played so far (by players and chance).
    fn move_number(&self) -> usize {
        self.inner.move_number()
    }

    /// The state as text (the action history), for `Game.deserialize_state`.
    fn serialize(&self) -> String {
        let h: Vec<String> = self.inner.history().iter().map(u32::to_string).collect();
        h.join(" ")
    }

    /// The game.
    fn get_game(&self, py: Python<'_>) -> Py<Game> {
        self.game.clone_ref(py)
    }

    /// Perft through the action interface: complete moves reachable in
    /// `depth` moves, each chosen action by action.
    fn action_perft(&self, py: Python<'_>, depth: usize) -> PyResult<u64> {
        let s = self.inner.clone_box();
        py.detach(move || s.action_perft(depth)).map_err(py_err)
    }

    /// The board as `rbg play` draws it.
    fn __str__(&self) -> String {
        self.inner.render()
    }

    /// Player to choose, moves and actions played.
    fn __repr__(&self) -> String {
        format!(
            "<rbg.State player={} moves={} actions={}>",
            self.current_player(),
            self.inner.move_number(),
            self.inner.history().len()
        )
    }

    /// Pickled as its game and its action history.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let restore = self.game.bind(py).getattr("deserialize_state")?;
        (restore, (self.serialize(),)).into_pyobject(py)
    }
}
