//! The `rbg._rbg` extension module: bindings over `gg-env` (see the
//! `rbg` package's docstrings and the README's Python section).

mod game;
mod vec;

use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use gg_env::DynAgent;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use game::{py_err, Game, State, CHANCE, TERMINAL};
use vec::VecEnv;

/// Loads a game from a file (language by extension: `.rbg`, `.rg`, `.hrg`)
/// or from a description's text (RBG unless `language` is `"rg"` or
/// `"hrg"`). Raises `ValueError` with the error's location on a bad
/// description.
///
/// `engine` is `"native"` (machine code generated at load time) or
/// `"interp"` (the interpreter); by default RBG games are played by native
/// code on x86-64 and aarch64 (the interpreter where code generation
/// refuses a game: `Game.engine_note` says why), RG/HRG games of at most
/// 5,000 edges too (larger ones by the interpreter), as the `rbg` command
/// does. Both engines give the same
/// results. `ValueError` if a chosen RBG engine cannot play the game.
#[pyfunction]
#[pyo3(signature = (path_or_text, language=None, engine=None))]
pub(crate) fn load_game(
    py: Python<'_>,
    path_or_text: String,
    language: Option<String>,
    engine: Option<String>,
) -> PyResult<Py<Game>> {
    let (text, lang, eng) = (path_or_text.clone(), language.clone(), engine.clone());
    let inner = py
        .detach(move || gg_env::load(&text, lang.as_deref(), eng.as_deref()))
        .map_err(py_err)?;
    let (text, language) = source_of(path_or_text, language);
    Py::new(
        py,
        Game {
            inner,
            source: (text, language, engine),
        },
    )
}

/// What a game is pickled as: a file's text (and its language, from the
/// extension) rather than its path, so it loads on other machines too.
fn source_of(path_or_text: String, language: Option<String>) -> (String, Option<String>) {
    let path = std::path::Path::new(&path_or_text);
    if path_or_text.contains('\n') || !path.is_file() {
        return (path_or_text, language);
    }
    let Ok(text) = std::fs::read_to_string(path) else {
        return (path_or_text, language);
    };
    let lang = language.unwrap_or_else(|| {
        match path.extension().and_then(|e| e.to_str()) {
            Some("rg") => "rg",
            Some("hrg") => "hrg",
            _ => "rbg",
        }
        .to_string()
    });
    (text, Some(lang))
}

/// A seed from the clock when none is given.
fn seed_or_clock(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    })
}

/// An agent of the Rust engine choosing actions in states of one game.
///
/// `spec` as for `rbg match`: `random`, `flatmc:iterations=1000`,
/// `mcts:iterations=1000:c=1.4`, `mcts:time=100ms`. At the first decision
/// of a move the agent chooses the whole move; later decisions of that
/// move are answered from it without searching again.
#[pyclass(module = "rbg")]
struct Agent {
    inner: Mutex<Box<dyn DynAgent>>,
}

#[pymethods]
impl Agent {
    #[new]
    #[pyo3(signature = (game, spec, seed=None))]
    fn new(game: &Bound<'_, Game>, spec: &str, seed: Option<u64>) -> PyResult<Agent> {
        let a = game
            .get()
            .inner
            .agent(spec, seed_or_clock(seed))
            .map_err(py_err)?;
        Ok(Agent {
            inner: Mutex::new(a),
        })
    }

    /// The agent's action in `state` (a player's decision).
    fn step(&self, py: Python<'_>, state: &State) -> PyResult<u32> {
        let mut a = self
            .inner
            .lock()
            .map_err(|_| PyRuntimeError::new_err("agent poisoned by an earlier failure"))?;
        let a: &mut dyn DynAgent = &mut **a;
        let s: &dyn gg_env::DynState = state.inner.as_ref();
        py.detach(move || a.act(s)).map_err(py_err)
    }

    /// The agent's action in `state` (as `step`).
    fn __call__(&self, py: Python<'_>, state: &State) -> PyResult<u32> {
        self.step(py, state)
    }
}

/// Runs a fresh agent of `spec` once in `state`.
fn act_once(py: Python<'_>, state: &State, spec: &str, seed: Option<u64>) -> PyResult<u32> {
    let game = state.game.bind(py);
    let agent = Agent::new(game, spec, seed)?;
    agent.step(py, state)
}

/// The action MCTS (UCT, `iterations` playouts, exploration `c`) chooses
/// in `state`.
#[pyfunction]
#[pyo3(signature = (state, iterations=1000, c=1.4, seed=None))]
fn mcts(
    py: Python<'_>,
    state: &State,
    iterations: u64,
    c: f64,
    seed: Option<u64>,
) -> PyResult<u32> {
    let spec = format!("mcts:iterations={}:c={c}:reuse=false", iterations.max(1));
    act_once(py, state, &spec, seed)
}

/// The action flat Monte Carlo (`iterations` playouts spread over the
/// moves) chooses in `state`.
#[pyfunction]
#[pyo3(signature = (state, iterations=1000, seed=None))]
fn flat_mc(py: Python<'_>, state: &State, iterations: u64, seed: Option<u64>) -> PyResult<u32> {
    let spec = format!("flatmc:iterations={}", iterations.max(1));
    act_once(py, state, &spec, seed)
}

/// A uniformly random legal move's action in `state`.
#[pyfunction]
#[pyo3(signature = (state, seed=None))]
fn random_action(py: Python<'_>, state: &State, seed: Option<u64>) -> PyResult<u32> {
    act_once(py, state, "random", seed)
}

#[pymodule]
fn _rbg(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("CHANCE", CHANCE)?;
    m.add("TERMINAL", TERMINAL)?;
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_class::<VecEnv>()?;
    m.add_class::<Agent>()?;
    m.add_function(wrap_pyfunction!(load_game, m)?)?;
    m.add_function(wrap_pyfunction!(mcts, m)?)?;
    m.add_function(wrap_pyfunction!(flat_mc, m)?)?;
    m.add_function(wrap_pyfunction!(random_action, m)?)?;
    Ok(())
}
