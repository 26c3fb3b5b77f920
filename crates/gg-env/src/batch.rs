//! Many games stepped at once ([`Batch`]), on a pool of threads: the core
//! of the Python `VecEnv`.
//!
//! Every game has its own generator, seeded from the batch's seed and its
//! index, so results do not depend on the number of threads. Chance moves
//! are drawn inside the batch; a finished game reports its returns and
//! starts again.
//!
//! What was measured, kept and dropped for speed: [`crate::batch_notes`].

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use rbg_agents::playout::Normaliser;

use crate::decision::{Decision, StepError};
use crate::spec::Spec;
use gg_core::Turn;

/// The switch of in-process timing experiments (feature `ab`): code under
/// test takes one variant or the other by [`ab`], and `batch_bench GAME
/// SECONDS ENVS PAIRS [fused] ab` (built with `--features ab`) times the
/// batch with it off and on in turn, in one process (ABBA): a 2% step
/// shows there, unlike in runs of two binaries on the shared machine.
#[cfg(feature = "ab")]
#[doc(hidden)]
pub static AB: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether the A/B switch is on (`AB`; always `false` without the
/// feature `ab`).
#[doc(hidden)]
#[inline(always)]
pub fn ab() -> bool {
    #[cfg(feature = "ab")]
    return AB.load(std::sync::atomic::Ordering::Relaxed);
    #[cfg(not(feature = "ab"))]
    false
}

/// Masks of at most this many actions are cleared whole before they are
/// written (a few cache lines, one `memset`; their [`Frame::mask_set`]
/// lists stay empty), longer ones entry by entry: hex (243 actions, ~60
/// legal) spent ~4 instructions per entry clearing and a `memcpy` call
/// keeping the list.
const WHOLE_MASK: usize = 512;

/// Restarts in a row that end before any player moves before the batch
/// gives up on a game.
const MAX_EMPTY_RESTARTS: usize = 1000;

/// What one reset or step returns, row-major per game. A step fills a
/// frame it is given (resized, every value written), so that callers can
/// reuse the buffers.
#[derive(Clone, Debug, Default)]
pub struct Frame {
    /// Observations of the player on move (`n * obs_len`).
    pub obs: Vec<f32>,
    /// Legal actions (`n * num_actions`).
    pub masks: Vec<bool>,
    /// The actions set in each game's mask (`n` lists, possibly with
    /// repeats), so that a step into this frame again clears only those
    /// entries instead of the whole mask (chess: 4,865 bytes per game and
    /// action); empty for masks short enough to be cleared whole
    /// (`WHOLE_MASK`). Whoever writes `masks` otherwise must clear this list;
    /// when its length is not `n` the masks are taken as unknown and
    /// cleared whole.
    pub mask_set: Vec<Vec<u32>>,
    /// Normalised returns of every player when the game ended in this step,
    /// else zeros (`n * players`).
    pub rewards: Vec<f32>,
    /// Whether the game ended in this step (it has started again).
    pub dones: Vec<bool>,
    /// Player on move in each game.
    pub players: Vec<i32>,
    /// Which step of which batch wrote `obs` (0: unknown). A batch
    /// stepping into the frame it wrote last patches the observations of
    /// moves in progress instead of writing them whole, so whoever changes
    /// `obs` otherwise must set this to 0.
    pub obs_tag: u64,
}

/// The next [`Frame::obs_tag`].
static NEXT_TAG: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl Frame {
    /// Sizes every buffer for `n` games (no allocation when the buffers
    /// are large enough already) and clears the small ones; observations
    /// are written whole game by game, masks cleared game by game just
    /// before they are written (clearing them all first was a fifth of the
    /// instructions on chess, and wrote the frame to memory twice): only
    /// the entries set when `mask_set` tells them (returns whether it
    /// does), else whole.
    fn prepare(&mut self, n: usize, z: Sizes) -> bool {
        let known = self.mask_set.len() == n && self.masks.len() == n * z.actions;
        if !known {
            self.mask_set.clear();
            self.mask_set.resize_with(n, Vec::new);
        }
        fn fill<T: Copy>(v: &mut Vec<T>, len: usize, zero: T) {
            v.clear();
            v.resize(len, zero);
        }
        fn size<T: Copy>(v: &mut Vec<T>, len: usize, zero: T) {
            v.truncate(len);
            v.resize(len, zero);
        }
        size(&mut self.obs, n * z.obs, 0.0);
        size(&mut self.masks, n * z.actions, false);
        fill(&mut self.rewards, n * z.players, 0.0);
        fill(&mut self.dones, n, false);
        fill(&mut self.players, n, 0);
        known
    }
}

/// Why a batch step failed.
#[derive(Debug)]
pub enum BatchError {
    /// `actions` has the wrong length.
    Length(usize),
    /// Game `env` got an illegal action.
    Illegal {
        /// Index of the game.
        env: usize,
        /// The action.
        action: u32,
    },
    /// The engine failed, or a game ends before any player moves again and
    /// again.
    Engine(String),
}

impl std::fmt::Display for BatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BatchError::Length(n) => write!(f, "expected one action per game, got {n}"),
            BatchError::Illegal { env, action } => {
                write!(f, "action {action} is not legal in game {env}")
            }
            BatchError::Engine(e) => f.write_str(e),
        }
    }
}

/// What a chunk of games is stepped with: a reasoner and a state for
/// observations of moves in progress.
struct Worker<G: Spec> {
    r: G::Reasoner,
    scratch: Option<G::State>,
}

struct Slot<G: Spec> {
    d: Decision<G>,
    /// The depth of the move in progress whose observation the game's row
    /// of the last frame shows (meaningful while the turn goes on).
    shows: usize,
    rng: SmallRng,
    moves: u64,
    games: u64,
}

/// `n` games of one kind.
pub struct Batch<G: Spec> {
    game: G,
    initial: Decision<G>,
    /// The observation of `initial` when a player is on move there (a
    /// restart draws no chance move then and lands on it), taken from the
    /// first reset's frame (observing it here made the compiler stop
    /// inlining the step loop's observation): copied into the rows of
    /// restarted games instead of observing them.
    start_obs: Option<Vec<f32>>,
    slots: Vec<Slot<G>>,
    /// One worker per chunk of games.
    workers: Vec<Worker<G>>,
    chunk: usize,
    /// The candidates a step's actions pick (kept for its buffer).
    picks: Vec<u32>,
    pool: Option<rayon::ThreadPool>,
    obs_len: usize,
    num_actions: usize,
    norm: Normaliser,
    /// The [`Frame::obs_tag`] of the frame the batch wrote last (0: none).
    tag: u64,
    /// Whether single-action turns are stepped by
    /// [`Decision::play_single`] ([`Batch::single_path`]).
    single: bool,
}

/// Sizes a chunk of games works on.
#[derive(Clone, Copy)]
struct Sizes {
    obs: usize,
    actions: usize,
    players: usize,
    /// Whether single-action turns take their own path
    /// ([`Batch::single_path`]).
    single: bool,
}

impl<G: Spec> Batch<G> {
    /// `n` games on `threads` threads (1: the caller's own), seeded by
    /// `seed`.
    pub fn new(game: &G, n: usize, seed: u64, threads: usize) -> Result<Batch<G>, String> {
        let mut r = game.reasoner();
        let initial = game
            .initial_state()
            .and_then(|s| Decision::<G>::new(&mut r, s))
            .map_err(|e| game.error_text(&e))?;
        let threads = threads.clamp(1, n.max(1));
        let chunk = n.div_ceil(threads).max(1);
        let pool = if threads > 1 {
            let p = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .stack_size(gg_core::perft::STACK_SIZE)
                .build()
                .map_err(|e| format!("cannot start threads: {e}"))?;
            Some(p)
        } else {
            None
        };
        let slots = (0..n)
            .map(|i| Slot {
                d: initial.clone(),
                shows: 0,
                rng: SmallRng::seed_from_u64(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)),
                moves: 0,
                games: 0,
            })
            .collect();
        let workers = (0..n.div_ceil(chunk))
            .map(|_| Worker {
                r: game.reasoner(),
                scratch: None,
            })
            .collect();
        let obs_len = game.observation_layout().iter().map(|s| s.len()).sum();
        let num_actions = initial.num_actions() as usize;
        Ok(Batch {
            game: game.clone(),
            initial,
            start_obs: None,
            slots,
            workers,
            chunk,
            picks: Vec::new(),
            pool,
            obs_len,
            num_actions,
            norm: Normaliser::new(game),
            tag: 0,
            single: true,
        })
    }

    /// Whether turns whose candidates each take an action of their own
    /// ([`Decision::single_action`]) are stepped by
    /// [`Decision::play_single`] (the default) or by the general path, for
    /// tests that the two give the same frames.
    #[doc(hidden)]
    pub fn single_path(&mut self, on: bool) {
        self.single = on;
    }

    /// Number of games.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the batch has no games.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Length of one observation.
    pub fn obs_len(&self) -> usize {
        self.obs_len
    }

    /// Number of distinct actions (a mask's length).
    pub fn num_actions(&self) -> usize {
        self.num_actions
    }

    /// Player moves completed and games finished, over all games.
    pub fn counts(&self) -> (u64, u64) {
        let moves = self.slots.iter().map(|s| s.moves).sum();
        let games = self.slots.iter().map(|s| s.games).sum();
        (moves, games)
    }

    /// Restarts every game.
    pub fn reset(&mut self) -> Result<Frame, BatchError> {
        let mut f = Frame::default();
        self.reset_into(&mut f)?;
        Ok(f)
    }

    /// Applies `actions[i]` in game `i`; finished games start again.
    pub fn step(&mut self, actions: &[u32]) -> Result<Frame, BatchError> {
        let mut f = Frame::default();
        self.step_into(actions, &mut f)?;
        Ok(f)
    }

    /// [`Batch::reset`] into the buffers of `f`.
    pub fn reset_into(&mut self, f: &mut Frame) -> Result<(), BatchError> {
        self.run(None, f).map(|_| ())
    }

    /// [`Batch::step`] into the buffers of `f`. Every action is checked
    /// before any game moves (all or nothing); the check finds the
    /// candidate that takes it, which the step then applies.
    pub fn step_into(&mut self, actions: &[u32], f: &mut Frame) -> Result<(), BatchError> {
        if actions.len() != self.slots.len() {
            return Err(BatchError::Length(actions.len()));
        }
        let mut picks = std::mem::take(&mut self.picks);
        picks.clear();
        for (env, (s, &action)) in self.slots.iter().zip(actions).enumerate() {
            match s.d.candidate_taking(action) {
                Some(j) => picks.push(j as u32),
                None => {
                    self.picks = picks;
                    return Err(BatchError::Illegal { env, action });
                }
            }
        }
        let r = self.run(Some(Step::Candidates(&picks)), f).map(|_| ());
        self.picks = picks;
        r
    }

    /// [`Batch::step_into`] with [`Batch::random_actions`] (legal by
    /// construction, so not checked again); returns the actions.
    pub fn step_random_into(&mut self, f: &mut Frame) -> Result<Vec<u32>, BatchError> {
        self.run(Some(Step::Random), f)
    }

    /// A random legal action in every game (from the games' own
    /// generators), each with the probability that a uniformly random
    /// legal move takes it: so random actions play uniformly random moves,
    /// as `rbg bench`'s playouts do.
    pub fn random_actions(&mut self) -> Vec<u32> {
        let slots = self.slots.iter_mut();
        slots
            .map(|s| {
                let j = random_candidate(s);
                s.d.candidate_action(j)
            })
            .collect()
    }

    /// Resets (`actions` = `None`) or steps every game, chunk by chunk;
    /// returns the actions taken.
    fn run(&mut self, actions: Option<Step<'_>>, f: &mut Frame) -> Result<Vec<u32>, BatchError> {
        let n = self.slots.len();
        let sizes = Sizes {
            obs: self.obs_len,
            actions: self.num_actions,
            players: self.norm.players(),
            single: self.single,
        };
        let same = self.tag != 0 && f.obs_tag == self.tag && f.obs.len() == n * sizes.obs;
        let known = f.prepare(n, sizes);
        // Unknown until every game is written.
        (self.tag, f.obs_tag) = (0, 0);
        let c = self.chunk;
        let mut taken = vec![0; n];
        let (game, initial, norm) = (&self.game, &self.initial, &self.norm);
        let start_obs = self.start_obs.as_deref();
        let tasks: Vec<_> = self
            .slots
            .chunks_mut(c)
            .zip(self.workers.iter_mut())
            .zip(f.obs.chunks_mut(c * sizes.obs.max(1)))
            .zip(f.masks.chunks_mut(c * sizes.actions))
            .zip(f.rewards.chunks_mut(c * sizes.players.max(1)))
            .zip(f.dones.chunks_mut(c).zip(f.players.chunks_mut(c)))
            .zip(taken.chunks_mut(c).zip(f.mask_set.chunks_mut(c)))
            .enumerate()
            .map(
                |(k, ((((((slots, w), obs), masks), rewards), (dones, players)), (taken, set)))| {
                    let acts = actions.map(|a| a.chunk(k * c..(k * c + slots.len())));
                    let out = Out {
                        obs,
                        masks,
                        mask_set: set,
                        known,
                        same,
                        rewards,
                        dones,
                        players,
                        taken,
                    };
                    Task {
                        slots,
                        w,
                        actions: acts,
                        out,
                    }
                },
            )
            .collect();
        let work = |t: Task<G>| run_chunk(game, (initial, start_obs), norm, sizes, t);
        let results: Vec<Result<(), StepError<G::Error>>> = match &self.pool {
            Some(pool) => pool.install(|| tasks.into_par_iter().map(work).collect()),
            None => tasks.into_iter().map(work).collect(),
        };
        if results.iter().any(|r| r.is_err()) {
            // Games after the failing one were not written.
            f.mask_set.clear();
        } else {
            self.tag = NEXT_TAG.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            f.obs_tag = self.tag;
            if actions.is_none() && matches!(self.initial.turn(), Turn::Player(_)) {
                self.start_obs = f.obs.get(..sizes.obs).map(<[f32]>::to_vec);
            }
        }
        for r in results {
            match r {
                Ok(()) => {}
                Err(StepError::Engine(e)) => {
                    return Err(BatchError::Engine(self.game.error_text(&e)))
                }
                Err(StepError::Over) => {
                    return Err(BatchError::Engine(format!(
                    "the game keeps ending before any player moves ({MAX_EMPTY_RESTARTS} restarts)"
                )))
                }
                Err(StepError::Illegal(a)) => {
                    return Err(BatchError::Engine(format!("action {a} became illegal")))
                }
            }
        }
        Ok(taken)
    }
}

/// What a step applies in every game.
#[derive(Clone, Copy)]
enum Step<'a> {
    /// A candidate per game ([`Decision::candidate_taking`] of its action).
    Candidates(&'a [u32]),
    /// A random action per game, drawn as [`Batch::random_actions`] does,
    /// while the game is stepped (one pass over the games, not two).
    Random,
}

impl<'a> Step<'a> {
    /// The part for games `r`.
    fn chunk(self, r: std::ops::Range<usize>) -> Step<'a> {
        match self {
            Step::Candidates(a) => Step::Candidates(&a[r]),
            Step::Random => Step::Random,
        }
    }
}

/// A uniformly random candidate of a game: the action it takes is a random
/// action with the probability that a uniformly random legal move takes it.
fn random_candidate<G: Spec>(s: &mut Slot<G>) -> usize {
    s.rng.gen_range(0..s.d.num_candidates() as u32) as usize
}

/// A chunk of games, its worker, actions and part of the frame.
struct Task<'a, G: Spec> {
    slots: &'a mut [Slot<G>],
    w: &'a mut Worker<G>,
    actions: Option<Step<'a>>,
    out: Out<'a>,
}

/// A chunk's part of the frame.
struct Out<'a> {
    obs: &'a mut [f32],
    masks: &'a mut [bool],
    /// The games' [`Frame::mask_set`].
    mask_set: &'a mut [Vec<u32>],
    /// Whether `mask_set` tells what `masks` holds.
    known: bool,
    /// Whether `obs` holds what the last step of this batch wrote.
    same: bool,
    rewards: &'a mut [f32],
    dones: &'a mut [bool],
    players: &'a mut [i32],
    /// The actions taken.
    taken: &'a mut [u32],
}

/// Plays chance moves (uniformly among the legal moves) until a player or
/// the end is to move. Inlined: a call per step cost ~18 instructions in
/// games without chance (ticTacToe, session 24).
#[inline]
fn draw_chance<G: Spec>(r: &mut G::Reasoner, s: &mut Slot<G>) -> Result<(), StepError<G::Error>> {
    while s.d.turn() == Turn::Chance {
        let m = s.rng.gen_range(0..s.d.moves().len());
        s.d.apply_move(r, m)?;
    }
    Ok(())
}

/// Restarts a game: the initial state, then chance, again while that ends
/// the game.
fn restart<G: Spec>(
    initial: &Decision<G>,
    r: &mut G::Reasoner,
    s: &mut Slot<G>,
) -> Result<(), StepError<G::Error>> {
    for _ in 0..MAX_EMPTY_RESTARTS {
        s.d.clone_from(initial);
        draw_chance(r, s)?;
        if s.d.turn() != Turn::Over {
            return Ok(());
        }
    }
    Err(StepError::Over)
}

/// A finished game: writes its returns into `rewards` (its row) and
/// starts it again; when that lands on the initial decision (`start`: it
/// and its observation, if so), writes the observation into `obs` (the
/// game's row) too and returns `true`. Out of line: games end rarely, and the step loop is
/// shorter without it.
#[cold]
#[inline(never)]
fn end_game<G: Spec>(
    game: &G,
    norm: &Normaliser,
    (initial, start): (&Decision<G>, Option<&[f32]>),
    r: &mut G::Reasoner,
    s: &mut Slot<G>,
    scores: &mut [f64],
    (rewards, obs): (&mut [f32], &mut [f32]),
) -> Result<bool, StepError<G::Error>> {
    norm.scores(game, s.d.base(), scores);
    for (o, &v) in rewards.iter_mut().zip(&*scores) {
        *o = v as f32;
    }
    s.games += 1;
    restart(initial, r, s)?;
    if let Some(o) = start {
        obs.copy_from_slice(o);
    }
    Ok(start.is_some())
}

/// Resets or steps one chunk of games and writes their part of the frame;
/// `start`: the initial decision and its observation, when a restart
/// lands on it ([`Batch::start_obs`]).
fn run_chunk<G: Spec>(
    game: &G,
    start: (&Decision<G>, Option<&[f32]>),
    norm: &Normaliser,
    z: Sizes,
    t: Task<G>,
) -> Result<(), StepError<G::Error>> {
    let Task {
        slots,
        w,
        actions,
        out,
    } = t;
    let Worker { r, scratch } = w;
    let initial = start.0;
    let mut scores = vec![0.0f64; z.players];
    for (i, s) in slots.iter_mut().enumerate() {
        // Whether the step completed a move and nothing else changed the
        // state since (no chance move, no restart).
        let mut moved = false;
        // Whether `obs` is written already (a restart).
        let mut written = false;
        // The player on move after a single-action step that landed on a
        // player's turn (no chance to draw, no end).
        let mut next = None;
        match actions {
            None => restart(initial, r, s)?,
            Some(step) => {
                let j = match step {
                    Step::Candidates(c) => c[i] as usize,
                    Step::Random => random_candidate(s),
                };
                out.taken[i] = s.d.candidate_action(j);
                if z.single && s.d.single_action() {
                    // Every candidate one action: move `j` played straight
                    // (`Decision::play_single`), the next turn settled only
                    // where its keys do not settle it already.
                    next = s.d.play_single(r, j)?;
                } else {
                    s.d.apply_candidate(r, j)?;
                }
                if next.is_some() {
                    s.moves += 1;
                    moved = true;
                } else {
                    if s.d.at_turn_start() {
                        s.moves += 1;
                        moved = s.d.turn() != Turn::Chance;
                        draw_chance(r, s)?;
                    }
                    if s.d.turn() == Turn::Over {
                        moved = false;
                        let rows = (
                            &mut out.rewards[i * z.players..],
                            &mut out.obs[i * z.obs..(i + 1) * z.obs],
                        );
                        written = end_game(game, norm, start, r, s, &mut scores, rows)?;
                        out.dones[i] = true;
                    }
                }
            }
        }
        let p = match (next, s.d.turn()) {
            (Some(p), _) | (None, Turn::Player(p)) => p,
            _ => unreachable!("restarted games have a player on move"),
        };
        out.players[i] = p as i32;
        let obs = &mut out.obs[i * z.obs..(i + 1) * z.obs];
        // The row shows this game's last step (written into this frame):
        // mid-move, this turn at an earlier depth; after a move, the last
        // turn with part of that move. Patched, without copying the state
        // or writing the planes whole.
        let patched = out.same
            && if next.is_some() {
                s.d.patch_turn_start(game, p, obs)
            } else if s.d.at_turn_start() {
                moved && s.d.patch_turn_start(game, p, obs)
            } else {
                s.d.patch_observation(game, s.shows, obs)
            };
        if !patched && !written {
            s.d.observe(game, p, obs, scratch);
        }
        s.shows = s.d.prefix_len();
        let mask = &mut out.masks[i * z.actions..(i + 1) * z.actions];
        let set = &mut out.mask_set[i];
        if mask.len() <= WHOLE_MASK {
            mask.fill(false);
            set.clear();
            s.d.write_mask(mask);
        } else {
            if !out.known {
                mask.fill(false);
                set.clear();
            }
            s.d.rewrite_mask(mask, set);
        }
    }
    Ok(())
}
