//! `rbg.VecEnv`: many games stepped in Rust threads with the GIL released.

use std::sync::{Arc, Mutex};

use gg_env::{DynBatch, Frame};
use numpy::ndarray::{ArrayView1, ArrayView2};
use numpy::{Element, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
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

/// `(observations, masks, rewards, dones, actions)`.
type WithActions<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<bool>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<i64>>,
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
/// results do not depend on `threads`. Observations and masks are
/// read-only (`.copy()` one to change it): the memory of dropped arrays is
/// reused, and a step clears only the mask entries it set before and
/// patches the observations of moves in progress.
#[pyclass(module = "rbg", subclass)]
pub struct VecEnv {
    inner: Mutex<Box<dyn DynBatch>>,
    players: Mutex<Vec<i32>>,
    num_players: usize,
    pool: Arc<Pool>,
}

/// Most buffers of each element type kept for reuse.
const POOL_SIZE: usize = 8;

/// Buffers of arrays Python has dropped, reused by later steps: fresh
/// memory for every step's arrays made the kernel zero new pages each
/// time (a fifth of the CPU time on connect4).
#[derive(Default)]
struct Pool {
    f32s: Mutex<Vec<Vec<f32>>>,
    bools: Mutex<Vec<Vec<bool>>>,
    /// Observations with the tag of the step that wrote them
    /// ([`Frame::obs_tag`]): a step into the last frame written patches
    /// the observations of moves in progress (the observations are
    /// read-only in Python, so they still hold what the batch wrote).
    obs: Mutex<Vec<Obs>>,
    /// Masks with the actions set in each row ([`Frame::mask_set`]): a
    /// step clears only those (the masks are read-only in Python, so they
    /// still hold what the batch wrote).
    masks: Mutex<Vec<Mask>>,
}

/// A mask buffer and the actions set in each of its rows.
type Mask = (Vec<bool>, Vec<Vec<u32>>);

/// An observation buffer and its [`Frame::obs_tag`].
type Obs = (Vec<f32>, u64);

/// The memory of one returned array.
enum Data {
    F32(Vec<f32>),
    Bool(Vec<bool>),
    Mask(Mask),
    Obs(Obs),
}

/// Element types whose buffers are pooled.
trait Pooled: Element + Copy {
    fn shelf(pool: &Pool) -> &Mutex<Vec<Vec<Self>>>;
    fn wrap(v: Vec<Self>) -> Data;
    fn slice(d: &Data) -> &[Self];
}

/// `Pooled` for an element type: its shelf in the pool, its variant and
/// the variant of a mask (for `bool`).
macro_rules! pooled {
    ($t:ty, $shelf:ident, $variant:ident $(, $also:ident)?) => {
        impl Pooled for $t {
            fn shelf(pool: &Pool) -> &Mutex<Vec<Vec<$t>>> {
                &pool.$shelf
            }
            fn wrap(v: Vec<$t>) -> Data {
                Data::$variant(v)
            }
            fn slice(d: &Data) -> &[$t] {
                match d {
                    Data::$variant(v) => v,
                    $(Data::$also((v, _)) => v,)?
                    _ => &[],
                }
            }
        }
    };
}

pooled!(f32, f32s, F32, Obs);
pooled!(bool, bools, Bool, Mask);

/// Puts `v` on `shelf` when it has room.
fn give<T>(shelf: &Mutex<Vec<T>>, v: T) {
    if let Ok(mut s) = shelf.lock() {
        if s.len() < POOL_SIZE {
            s.push(v);
        }
    }
}

/// The last buffer put on `shelf` (the default when there is none).
fn take<T: Default>(shelf: &Mutex<Vec<T>>) -> T {
    shelf
        .lock()
        .ok()
        .and_then(|mut s| s.pop())
        .unwrap_or_default()
}

impl Pool {
    /// A buffer to fill (empty when none is free).
    fn take<T: Pooled>(&self) -> Vec<T> {
        take(T::shelf(self))
    }

    fn give<T: Pooled>(&self, v: Vec<T>) {
        give(T::shelf(self), v);
    }

    /// Buffers for a frame (empty, or of an earlier frame).
    fn frame(&self) -> Frame {
        let (masks, mask_set) = take(&self.masks);
        let (obs, obs_tag) = take(&self.obs);
        Frame {
            obs,
            masks,
            mask_set,
            rewards: self.take(),
            dones: self.take(),
            players: Vec::new(),
            obs_tag,
        }
    }
}

/// The owner of a returned array's memory (its numpy `base`): gives the
/// buffer back to the pool when Python drops the array.
#[pyclass(module = "rbg", frozen)]
struct Buffer {
    data: Data,
    pool: Arc<Pool>,
}

impl Drop for Buffer {
    fn drop(&mut self) {
        match std::mem::replace(&mut self.data, Data::F32(Vec::new())) {
            Data::F32(v) => self.pool.give(v),
            Data::Bool(v) => self.pool.give(v),
            Data::Mask(m) => give(&self.pool.masks, m),
            Data::Obs(o) => give(&self.pool.obs, o),
        }
    }
}

/// `v` in a [`Buffer`] (a numpy array's base object), which gives it
/// back to `pool` when dropped.
fn owner<'py>(py: Python<'py>, pool: &Arc<Pool>, data: Data) -> PyResult<Bound<'py, Buffer>> {
    let pool = pool.clone();
    Bound::new(py, Buffer { data, pool })
}

/// A numpy array of shape `[rows, cols]` over `data` (of element type
/// `T`), which goes back to `pool` when the array is dropped.
fn array2<'py, T: Pooled>(
    py: Python<'py>,
    pool: &Arc<Pool>,
    data: Data,
    rows: usize,
    cols: usize,
) -> PyResult<Bound<'py, PyArray2<T>>> {
    if T::slice(&data).len() != rows * cols {
        return Err(PyRuntimeError::new_err("a frame buffer has the wrong size"));
    }
    let owner = owner(py, pool, data)?;
    let view = ArrayView2::from_shape((rows, cols), T::slice(&owner.get().data))
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    // SAFETY: the array's memory is the buffer `owner` holds, which becomes
    // the array's base object; a `Buffer` is frozen (never changed, so its
    // vector is never reallocated) until it is dropped.
    Ok(unsafe { PyArray2::borrow_from_array(&view, owner.clone().into_any()) })
}

/// [`array2`], read-only: masks, as the next steps clear only the entries
/// the batch set ([`Frame::mask_set`]), and observations, as the next
/// steps patch those of moves in progress ([`Frame::obs_tag`]), so Python
/// must not write them (and cannot make them writeable again: the array
/// does not own its memory).
fn read_only<'py, T: Pooled>(
    py: Python<'py>,
    pool: &Arc<Pool>,
    data: Data,
    rows: usize,
    cols: usize,
) -> PyResult<Bound<'py, PyArray2<T>>> {
    let a = array2::<T>(py, pool, data, rows, cols)?;
    a.try_readwrite()
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?
        .make_nonwriteable();
    Ok(a)
}

/// A one-dimensional array over `v` (see [`array2`]).
fn array1<'py, T: Pooled>(
    py: Python<'py>,
    pool: &Arc<Pool>,
    v: Vec<T>,
) -> PyResult<Bound<'py, PyArray1<T>>> {
    let owner = owner(py, pool, T::wrap(v))?;
    let view = ArrayView1::from(T::slice(&owner.get().data));
    // SAFETY: as in `array2`.
    Ok(unsafe { PyArray1::borrow_from_array(&view, owner.clone().into_any()) })
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
        let pool = &self.pool;
        Ok((
            read_only(py, pool, Data::Obs((f.obs, f.obs_tag)), n, obs_len)?,
            read_only(py, pool, Data::Mask((f.masks, f.mask_set)), n, acts)?,
            array2(py, pool, Data::F32(f.rewards), n, self.num_players)?,
            array1(py, pool, f.dones)?,
        ))
    }
}

#[pymethods]
impl VecEnv {
    /// `n` games of `game` (a `Game`, a path or a description) on `threads`
    /// threads (default: all cores). `engine` as for `load_game` (for a
    /// path or a description; a `Game` keeps its own).
    #[new]
    #[pyo3(signature = (game, n, seed=0, threads=None, engine=None))]
    fn new(
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        n: usize,
        seed: u64,
        threads: Option<usize>,
        engine: Option<String>,
    ) -> PyResult<VecEnv> {
        let game: Py<Game> = match game.cast::<Game>() {
            Ok(g) if engine.is_none() => g.clone().unbind(),
            Ok(_) => {
                return Err(PyValueError::new_err(
                    "engine= is for a path or a description: a Game keeps the engine it was loaded with",
                ))
            }
            Err(_) => crate::load_game(py, game.extract()?, None, engine)?,
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
            pool: Arc::default(),
        })
    }

    /// Starts every game anew: `(observations, masks)`.
    fn reset<'py>(&self, py: Python<'py>) -> PyResult<Start<'py>> {
        let mut f = self.pool.frame();
        let mut b = self.batch()?;
        let b: &mut dyn DynBatch = &mut **b;
        py.detach(|| b.reset(&mut f)).map_err(py_err)?;
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
        let mut f = self.pool.frame();
        let mut b = self.batch()?;
        let b: &mut dyn DynBatch = &mut **b;
        py.detach(|| b.step(&acts, &mut f)).map_err(py_err)?;
        self.arrays(py, f)
    }

    /// `step(random_actions())` in one call, without passing the actions
    /// through Python (for random rollouts):
    /// `(observations, masks, rewards, dones, actions)`, the actions taken
    /// an int64 array.
    fn step_random<'py>(&self, py: Python<'py>) -> PyResult<WithActions<'py>> {
        let mut f = self.pool.frame();
        let mut b = self.batch()?;
        let b: &mut dyn DynBatch = &mut **b;
        let acts = py.detach(|| b.step_random(&mut f)).map_err(py_err)?;
        let (obs, masks, rewards, dones) = self.arrays(py, f)?;
        let acts = PyArray1::from_vec(py, acts.into_iter().map(i64::from).collect());
        Ok((obs, masks, rewards, dones, acts))
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
