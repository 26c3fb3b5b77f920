//! `rbg.VecEnv`: many games stepped in Rust threads with the GIL released.

use std::sync::Mutex;

use gg_env::{DynBatch, Frame};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::game::{py_err, Game};

/// `(observations, masks)`.
type Start<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<bool>>);

/// `(observations, masks, rewards, dones)`.
type Arrays<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<bool>>,
);

/// `n` games of one kind stepped together in Rust threads.
///
/// `reset()` returns `(observations, masks)`; `step(actions)` returns
/// `(observations, masks, rewards, dones)`: observations `(n, obs)` float32
/// of the player to choose, masks `(n, num_distinct_actions)` bool, rewards
/// `(n, players)` float32 (every player's return in games that ended in
/// this step, else 0), dones `(n,)` bool. Finished games start again at
/// once (the observation is then the new game's); chance moves are drawn
/// inside. Game `i` uses its own generator seeded from `seed` and `i`, so
/// results do not depend on `threads`.
#[pyclass(module = "rbg", subclass)]
pub struct VecEnv {
    inner: Mutex<Box<dyn DynBatch>>,
    players: Mutex<Vec<i32>>,
    num_players: usize,
}

impl VecEnv {
    fn batch(&self) -> PyResult<std::sync::MutexGuard<'_, Box<dyn DynBatch>>> {
        self.inner
            .lock()
            .map_err(|_| PyRuntimeError::new_err("VecEnv poisoned by an earlier failure"))
    }

    fn arrays<'py>(&self, py: Python<'py>, f: Frame) -> PyResult<Arrays<'py>> {
        let n = f.dones.len();
        let obs_len = f.obs.len() / n.max(1);
        let acts = f.masks.len() / n.max(1);
        if let Ok(mut p) = self.players.lock() {
            *p = f.players;
        }
        Ok((
            PyArray1::from_vec(py, f.obs).reshape([n, obs_len])?,
            PyArray1::from_vec(py, f.masks).reshape([n, acts])?,
            PyArray1::from_vec(py, f.rewards).reshape([n, self.num_players])?,
            PyArray1::from_vec(py, f.dones),
        ))
    }
}

#[pymethods]
impl VecEnv {
    /// `n` games of `game` (a `Game`, a path or a description) on `threads`
    /// threads (default: all cores).
    #[new]
    #[pyo3(signature = (game, n, seed=0, threads=None))]
    fn new(
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        n: usize,
        seed: u64,
        threads: Option<usize>,
    ) -> PyResult<VecEnv> {
        let game: Py<Game> = match game.cast::<Game>() {
            Ok(g) => g.clone().unbind(),
            Err(_) => crate::load_game(py, game.extract()?, None)?,
        };
        if n == 0 {
            return Err(PyValueError::new_err("a VecEnv needs at least one game"));
        }
        let threads =
            threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |t| t.get()));
        let g = game.get().inner.clone();
        let inner = py
            .detach(move || g.new_batch(n, seed, threads))
            .map_err(py_err)?;
        Ok(VecEnv {
            inner: Mutex::new(inner),
            players: Mutex::new(vec![0; n]),
            num_players: game.get().inner.num_players(),
        })
    }

    /// Starts every game anew: `(observations, masks)`.
    fn reset<'py>(&self, py: Python<'py>) -> PyResult<Start<'py>> {
        let mut b = self.batch()?;
        let b: &mut dyn DynBatch = &mut **b;
        let f = py.detach(move || b.reset()).map_err(py_err)?;
        let (obs, masks, _, _) = self.arrays(py, f)?;
        Ok((obs, masks))
    }

    /// Applies one action per game (an integer array of length `n`):
    /// `(observations, masks, rewards, dones)`.
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<Arrays<'py>> {
        let acts: Vec<u32> = actions
            .as_array()
            .iter()
            .map(|&a| u32::try_from(a).unwrap_or(u32::MAX))
            .collect();
        let mut b = self.batch()?;
        let b: &mut dyn DynBatch = &mut **b;
        let f = py.detach(move || b.step(&acts)).map_err(py_err)?;
        self.arrays(py, f)
    }

    /// A uniformly random legal action per game (int64 array), drawn from
    /// the games' own generators.
    fn random_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let acts = self.batch()?.random_actions();
        Ok(PyArray1::from_vec(
            py,
            acts.into_iter().map(i64::from).collect(),
        ))
    }

    /// The player to choose in each game (int32 array).
    fn current_players<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i32>>> {
        let p = self
            .players
            .lock()
            .map_err(|_| PyRuntimeError::new_err("VecEnv poisoned"))?;
        Ok(PyArray1::from_vec(py, p.clone()))
    }

    /// `(moves, games)`: player moves completed and games finished so far.
    fn counts(&self) -> PyResult<(u64, u64)> {
        Ok(self.batch()?.counts())
    }

    /// Number of games.
    fn __len__(&self) -> PyResult<usize> {
        Ok(self.batch()?.len())
    }

    /// Length of an observation.
    #[getter]
    fn observation_size(&self) -> PyResult<usize> {
        Ok(self.batch()?.obs_len())
    }

    /// Length of a mask (the game's `num_distinct_actions()`).
    #[getter]
    fn num_actions(&self) -> PyResult<usize> {
        Ok(self.batch()?.num_actions())
    }

    /// Number of players (columns of `rewards`).
    #[getter]
    fn num_players(&self) -> usize {
        self.num_players
    }
}
