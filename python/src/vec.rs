//! `rbg.VecEnv`: many games stepped in Rust threads with the GIL released.

use std::sync::{Arc, Mutex};

use gg_env::{DynBatch, Frame};
use numpy::ndarray::Dim;
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
/// patches the observations of moves in progress. A step whose last
/// arrays Python no longer holds (nor views of them) returns those same
/// arrays, rewritten; arrays Python holds are never written again.
#[pyclass(module = "rbg", subclass)]
pub struct VecEnv {
    inner: Mutex<Box<dyn DynBatch>>,
    players: Mutex<Vec<i32>>,
    num_players: usize,
    pool: Arc<Pool>,
    /// The arrays the last reset or step returned, for the next one.
    kept: Mutex<Option<Kept>>,
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
    /// The actions of `step_random` (not pooled: kept with their array).
    I64(Vec<i64>),
}

/// Element types whose buffers are pooled.
trait Pooled: Element + Copy {
    fn shelf(pool: &Pool) -> &Mutex<Vec<Vec<Self>>>;
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
    /// Behind a lock so that a step can write into the buffer again while
    /// Python holds no reference to it or its array ([`Kept`]).
    data: Mutex<Data>,
    pool: Arc<Pool>,
}

impl Drop for Buffer {
    fn drop(&mut self) {
        let data = match self.data.get_mut() {
            Ok(d) => d,
            Err(poisoned) => poisoned.into_inner(),
        };
        match std::mem::replace(data, Data::F32(Vec::new())) {
            Data::F32(v) => self.pool.give(v),
            Data::Bool(v) => self.pool.give(v),
            Data::Mask(m) => give(&self.pool.masks, m),
            Data::Obs(o) => give(&self.pool.obs, o),
            Data::I64(_) => {}
        }
    }
}

/// `data` in a [`Buffer`] (a numpy array's base object), which gives it
/// back to `pool` when dropped.
fn owner<'py>(py: Python<'py>, pool: &Arc<Pool>, data: Data) -> PyResult<Bound<'py, Buffer>> {
    let pool = pool.clone();
    let data = Mutex::new(data);
    Bound::new(py, Buffer { data, pool })
}

/// Element types of returned arrays: their values in a [`Data`].
trait InData: Element + Copy {
    fn slice(d: &Data) -> &[Self];
}

impl InData for i64 {
    fn slice(d: &Data) -> &[i64] {
        match d {
            Data::I64(v) => v,
            _ => &[],
        }
    }
}

impl<T: Pooled> InData for T {
    fn slice(d: &Data) -> &[T] {
        <T as Pooled>::slice(d)
    }
}

/// A returned array and its [`Buffer`], kept by the `VecEnv` so that the
/// next step can write into the same memory and return the same array
/// when Python no longer holds either ([`Held::free`]): no new array,
/// buffer object or read-only flag per step (about a microsecond per call,
/// 2-3% of a 256-game tic-tac-toe step).
struct Held<A> {
    array: Py<A>,
    buffer: Py<Buffer>,
}

impl<A> Held<A> {
    /// Puts `data` (taken by [`Held::take`], at the address the array
    /// shows) back into the buffer.
    fn put(&self, data: Data) {
        if let Ok(mut d) = self.buffer.get().data.lock() {
            *d = data;
        }
    }

    /// Whether only the `VecEnv` holds the array and its buffer (a view of
    /// the array holds the buffer, its base, as numpy collapses bases).
    fn free(&self, py: Python<'_>) -> bool {
        let _ = py;
        // SAFETY: both are live objects (held here), read with the GIL held.
        let count = |p: *mut pyo3::ffi::PyObject| unsafe { pyo3::ffi::Py_REFCNT(p) };
        count(self.array.as_ptr()) == 1 && count(self.buffer.as_ptr()) == 2
    }

    /// The buffer's data, taken out (the buffer left empty).
    fn take(&self) -> Option<Data> {
        let mut d = self.buffer.get().data.lock().ok()?;
        Some(std::mem::replace(&mut *d, Data::F32(Vec::new())))
    }
}

impl<T: InData, D: numpy::ndarray::Dimension> Held<numpy::PyArray<T, D>> {
    /// An array over `data` (see [`array2`]), held.
    fn new(
        py: Python<'_>,
        pool: &Arc<Pool>,
        data: Data,
        shape: D,
    ) -> PyResult<Held<numpy::PyArray<T, D>>> {
        let owner = owner(py, pool, data)?;
        let array = {
            let d = owner
                .get()
                .data
                .lock()
                .map_err(|_| PyRuntimeError::new_err("a frame buffer is poisoned"))?;
            let view = numpy::ndarray::ArrayView::from_shape(shape, T::slice(&d))
                .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
            // SAFETY: the array's memory is the buffer `owner` holds, which
            // becomes the array's base object. The buffer's vector is
            // neither reallocated nor freed while the buffer lives: only
            // `Held::take` takes it out, while Python holds neither the
            // array nor the buffer (`Held::free`), and `Held::put` puts it
            // back only at the same address and length; else the array is
            // dropped unread.
            unsafe { numpy::PyArray::borrow_from_array(&view, owner.clone().into_any()) }
        };
        Ok(Held {
            array: array.unbind(),
            buffer: owner.unbind(),
        })
    }

    /// Whether `v` is the memory the array shows (same address and
    /// length).
    fn shows(&self, py: Python<'_>, v: &[T]) -> bool {
        let a = self.array.bind(py);
        a.data().cast_const() == v.as_ptr() && numpy::PyUntypedArrayMethods::len(a) == v.len()
    }

    /// The array, made read-only: masks, as the next steps clear only the
    /// entries the batch set ([`Frame::mask_set`]), and observations, as
    /// the next steps patch those of moves in progress
    /// ([`Frame::obs_tag`]), so Python must not write them (and cannot
    /// make them writeable again: the array does not own its memory).
    fn read_only(self, py: Python<'_>) -> PyResult<Self> {
        self.array
            .bind(py)
            .try_readwrite()
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?
            .make_nonwriteable();
        Ok(self)
    }
}

impl<A> Held<A> {
    fn bind<'py>(&self, py: Python<'py>) -> Bound<'py, A> {
        self.array.bind(py).clone()
    }
}

/// The arrays the last step returned ([`Held`]).
struct Kept {
    obs: Held<PyArray2<f32>>,
    masks: Held<PyArray2<bool>>,
    rewards: Held<PyArray2<f32>>,
    dones: Held<PyArray1<bool>>,
    /// `step_random`'s actions.
    acts: Option<Held<PyArray1<i64>>>,
}

impl Kept {
    /// Whether Python holds none of the arrays (nor their buffers).
    fn free(&self, py: Python<'_>) -> bool {
        self.obs.free(py) && self.masks.free(py) && self.rewards.free(py) && self.dones.free(py)
    }

    /// A frame over the arrays' buffers (taken out of them).
    fn frame(&self) -> Option<Frame> {
        let taken = (
            self.obs.take()?,
            self.masks.take()?,
            self.rewards.take()?,
            self.dones.take()?,
        );
        let (
            Data::Obs((obs, obs_tag)),
            Data::Mask((masks, mask_set)),
            Data::F32(rewards),
            Data::Bool(dones),
        ) = taken
        else {
            return None;
        };
        Some(Frame {
            obs,
            masks,
            mask_set,
            rewards,
            dones,
            players: Vec::new(),
            obs_tag,
        })
    }

    /// Whether the buffers of `f` are the memory the arrays show (else
    /// the arrays must be dropped unread).
    fn shows(&self, py: Python<'_>, f: &Frame) -> bool {
        self.obs.shows(py, &f.obs)
            && self.masks.shows(py, &f.masks)
            && self.rewards.shows(py, &f.rewards)
            && self.dones.shows(py, &f.dones)
    }

    /// Puts a frame [`Kept::frame`] took back into the buffers (where
    /// [`Kept::shows`]).
    fn put(&self, f: Frame) {
        self.obs.put(Data::Obs((f.obs, f.obs_tag)));
        self.masks.put(Data::Mask((f.masks, f.mask_set)));
        self.rewards.put(Data::F32(f.rewards));
        self.dones.put(Data::Bool(f.dones));
    }

    /// New arrays over the buffers of `f`.
    fn new(py: Python<'_>, pool: &Arc<Pool>, f: Frame, players: usize) -> PyResult<Kept> {
        let n = f.dones.len();
        let obs_len = f.obs.len() / n.max(1);
        let acts = f.masks.len() / n.max(1);
        Ok(Kept {
            obs: Held::new(py, pool, Data::Obs((f.obs, f.obs_tag)), Dim([n, obs_len]))?
                .read_only(py)?,
            masks: Held::new(py, pool, Data::Mask((f.masks, f.mask_set)), Dim([n, acts]))?
                .read_only(py)?,
            rewards: Held::new(py, pool, Data::F32(f.rewards), Dim([n, players]))?,
            dones: Held::new(py, pool, Data::Bool(f.dones), Dim([n]))?,
            acts: None,
        })
    }

    fn arrays<'py>(&self, py: Python<'py>) -> Arrays<'py> {
        (
            self.obs.bind(py),
            self.masks.bind(py),
            self.rewards.bind(py),
            self.dones.bind(py),
        )
    }
}

impl VecEnv {
    fn batch(&self) -> PyResult<std::sync::MutexGuard<'_, Box<dyn DynBatch>>> {
        self.inner
            .lock()
            .map_err(|_| PyRuntimeError::new_err("VecEnv poisoned by an earlier failure"))
    }

    /// Runs `go` (a reset or a step) with the GIL released into the
    /// buffers of the last step's arrays when Python holds none of them
    /// (then returns those arrays again), else into pooled buffers (new
    /// arrays); returns the arrays and what `go` returned.
    fn run<'py, R: Send>(
        &self,
        py: Python<'py>,
        go: impl FnOnce(&mut dyn DynBatch, &mut Frame) -> Result<R, gg_env::EnvError> + Send,
    ) -> PyResult<(Arrays<'py>, R)> {
        let mut kept = self.kept.lock().ok().and_then(|mut k| k.take());
        kept = kept.filter(|k| k.free(py));
        let mut f = match kept.as_ref().and_then(Kept::frame) {
            Some(f) => f,
            None => {
                // Dropped unread (Python holds none of them).
                kept = None;
                self.pool.frame()
            }
        };
        let r = {
            let mut b = self.batch()?;
            let b: &mut dyn DynBatch = &mut **b;
            py.detach(|| go(b, &mut f)).map_err(py_err)?
        };
        if let Ok(mut p) = self.players.lock() {
            *p = std::mem::take(&mut f.players);
        }
        let k = match kept {
            Some(k) if k.shows(py, &f) => {
                k.put(f);
                k
            }
            // New arrays (a buffer that moved, never seen: the old arrays
            // are dropped unread).
            old => {
                let acts = old.and_then(|k| k.acts);
                let mut k = Kept::new(py, &self.pool, f, self.num_players)?;
                k.acts = acts;
                k
            }
        };
        let arrays = k.arrays(py);
        if let Ok(mut slot) = self.kept.lock() {
            *slot = Some(k);
        }
        Ok((arrays, r))
    }

    /// `acts` as an int64 array: the last one `step_random` returned,
    /// rewritten, when Python holds it no more ([`Held`]).
    fn actions_array<'py>(
        &self,
        py: Python<'py>,
        acts: &[u32],
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let mut kept = self
            .kept
            .lock()
            .map_err(|_| PyRuntimeError::new_err("VecEnv poisoned"))?;
        let Some(k) = kept.as_mut() else {
            let v = acts.iter().map(|&a| i64::from(a)).collect();
            return Ok(PyArray1::from_vec(py, v));
        };
        if let Some(h) = k.acts.as_ref().filter(|h| h.free(py)) {
            if let Ok(mut d) = h.buffer.get().data.lock() {
                if let Data::I64(v) = &mut *d {
                    if v.len() == acts.len() {
                        // In place: the array's memory stays where it is.
                        for (o, &a) in v.iter_mut().zip(acts) {
                            *o = i64::from(a);
                        }
                        return Ok(h.bind(py));
                    }
                }
            }
        }
        let v = acts.iter().map(|&a| i64::from(a)).collect();
        let h = Held::new(py, &self.pool, Data::I64(v), Dim([acts.len()]))?;
        let a = h.bind(py);
        k.acts = Some(h);
        Ok(a)
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
            kept: Mutex::new(None),
        })
    }

    /// Starts every game anew: `(observations, masks)`.
    fn reset<'py>(&self, py: Python<'py>) -> PyResult<Start<'py>> {
        let ((obs, masks, _, _), ()) = self.run(py, |b, f| b.reset(f))?;
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
        let (arrays, ()) = self.run(py, |b, f| b.step(&acts, f))?;
        Ok(arrays)
    }

    /// `step(random_actions())` in one call, without passing the actions
    /// through Python (for random rollouts):
    /// `(observations, masks, rewards, dones, actions)`, the actions taken
    /// an int64 array.
    fn step_random<'py>(&self, py: Python<'py>) -> PyResult<WithActions<'py>> {
        let ((obs, masks, rewards, dones), acts) = self.run(py, |b, f| b.step_random(f))?;
        let acts = self.actions_array(py, &acts)?;
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
