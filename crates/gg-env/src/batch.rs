//! Many games stepped at once ([`Batch`]), on a pool of threads: the core
//! of the Python `VecEnv`.
//!
//! Every game has its own generator, seeded from the batch's seed and its
//! index, so results do not depend on the number of threads. Chance moves
//! are drawn inside the batch; a finished game reports its returns and
//! starts again.
//!
//! # Performance notes
//!
//! - Each game's observation is written whole (`Spec::observe` writes every
//!   value; RBG's piece planes compare the board with each piece,
//!   vectorised). Keeping each game's observation and updating the planes
//!   where the board changed, then copying it out, took fewer instructions
//!   but was slower on hex (-14%) and chess: twice the memory per step.
//! - A game's mask is cleared just before it is written: clearing the whole
//!   frame first wrote it to memory twice. A frame stepped into again
//!   clears only the entries it set there before ([`Frame::mask_set`]; the
//!   Python masks are read-only so that this holds): englishDraughts
//!   (3,201 actions) 0.55 -> 0.62 of playouts' rate, chess 0.67 -> 0.68,
//!   breakthrough unchanged (`batch_bench` 256 games fused, alternated).
//! - Tried and dropped: rewriting a reused frame's observation only where
//!   the board changed (kept per game: the board the planes show and the
//!   move plane's vertices; changed vertices found eight at a time).
//!   Instructions per step went up (englishDraughts +1.7%: the compiler's
//!   vectorised plane writes are cheap) and time did not go down: ratio to
//!   playouts englishDraughts 0.62 -> 0.62, breakthrough 0.65 -> 0.62
//!   (`batch_bench` 256 games fused, alternated). With no observation
//!   written at all englishDraughts reached only 0.64 (before the masks
//!   were cleared by their entries): writing observations is not what
//!   costs most.
//! - `Decision::settle` keeps each candidate's action unsorted; sorting and
//!   counting them (now on demand) was a fifth of the batch's time on
//!   connect4 and breakthrough. When the keys are pairwise distinct,
//!   applying an action counts nothing.
//! - Fresh output memory per step cost a fifth of the CPU time in page
//!   faults: the Python side pools the buffers.
//! - Callgrind counts each byte of a `rep stosb` memset as an instruction:
//!   chess's masks (5,505 actions) look like a fifth of the batch there,
//!   but skipping the mask and observation writes altogether gained only
//!   about a tenth of the time. Writing the piece planes as a memset plus
//!   a 1.0 per vertex (instead of comparing the board with every piece)
//!   showed no difference in time.
//! - The ratio to playouts is the same with 2 games as with 256 (chess,
//!   connect4): the games' own memory is not what costs.
//! - Skipping the candidates' shared atoms in one comparing pass before
//!   listing keys (chess lists them ~3 times per turn start) saved 0.4% of
//!   the instructions: not kept.
//! - Where the time goes that instructions do not show: the engine's own
//!   calls (`legal_moves_mut`, `apply`) timed inside the batch take 10-35%
//!   longer per state than the same calls in a playout loop (breakthrough,
//!   chess, hex; `Instant` around each call in both, one process,
//!   alternating): the engine runs colder between other games' work. So
//!   the batch's instruction ratio to playouts (chess 0.71, breakthrough
//!   0.68) overstates its speed ratio (0.55-0.65).
//! - Tried and rejected for that: stepping every game first and writing
//!   the outputs in a second pass (engine code back to back; no gain in
//!   alternated runs); writing each game's observation and mask into a
//!   cached scratch and streaming them to the frame with non-temporal
//!   stores (slower everywhere: connect4 0.6 -> 0.3, breakthrough 0.58 ->
//!   0.35, hex 0.62 -> 0.47); piece planes in fixed chunks of eight (more
//!   instructions on small boards than the compiler's own loop).
//! - The ratio falls with the number of games (breakthrough, one thread,
//!   `examples/batch_bench.rs`, rates per processor second: 16 games
//!   0.66-0.76, 256 games 0.63-0.66, 2048 games 0.41-0.45): the bytes a
//!   step touches per game count. Per action a game writes its observation
//!   and mask (chess 4.6 + 5.5 KB, englishDraughts 1.8 + 3.2 KB,
//!   breakthrough 1.0 + 0.4 KB) and reads its state, moves and keys. Even
//!   with 16 games and no output written at all (a test hack), chess
//!   stayed at 0.75-0.85: the rest is the decision's own work and the
//!   engine running colder.
//! - Tried and dropped: observing a move in progress without copying the
//!   state (`Spec::observe_before_prefix`: the planes of the turn's state
//!   with the prefix's pieces and constant assignments patched in; chess
//!   observes a prefix at almost every action, its moves all start with
//!   `[$ enPassant = 0]`). Same-seed outputs identical, instructions per
//!   state -0.4% chess, -1.1% breakthrough, -0.4% englishDraughts, but
//!   processor time unchanged (alternated medians of five 3 s runs
//!   0.99-1.01).
//! - Tried and dropped: prefetching the next game's moves, keys and output
//!   rows (`_mm_prefetch`, 16 lines each) while stepping one: alternated
//!   medians chess 1.03, breakthrough 0.98, englishDraughts 0.99 (runs
//!   vary by ±10% on the shared machine: no gain shown).
//! - Where chess and englishDraughts lose their time (callgrind
//!   `--cache-sim=yes --LL=1048576,16,64`, `batch_bench 0 256 1 fused`,
//!   per state, batch against playouts): chess 38.6K against 34.0K
//!   instructions, same instruction cache misses (315), but 300 against
//!   20 data L1 misses and 186 against 0 misses of a 1 MB L2 (146 of
//!   them writes, 116 the piece planes: 256 observations of 4.6 KB do not
//!   fit); the native code's own L1 read misses rise from 19 to 98 (its
//!   tables evicted by the other games' data). englishDraughts: 86
//!   against 0 L1 misses (34 the planes), 8 L2 misses. Skipping the
//!   piece planes altogether (a test hack) moved chess only 0.63 -> 0.67
//!   (alternated, 256 games; 16 games 0.76 -> 0.80): writing fewer
//!   observation bytes alone does not reach the bar.
//! - Fusing the "all keys the same" test into the key pass (no early
//!   exit) cost instructions (breakthrough +1.5%, tic-tac-toe +1.3%): the
//!   separate test stops at the second key.
//! - Masks of at most `WHOLE_MASK` actions are cleared whole (one
//!   `memset`) instead of entry by entry with a list of the entries kept,
//!   and a turn's keys are listed without a branch (indices clamped,
//!   `RbgIds::keys_at`): callgrind batch instructions (`batch_bench 0 64 1
//!   batch fused`) hex -3.3%, breakthrough -1.8%, ticTacToe -2.1%,
//!   connect4 -0.9%; alternated time new/old hex 1.09, breakthrough 1.03,
//!   ticTacToe 1.04, reversi 1.04, connect4 0.99.
//! - Tried and dropped: telling repeated keys by counting the chosen
//!   action's candidates when it is applied instead of reading the mask
//!   when writing it (perf put two fifths of the batch's own time in
//!   englishDraughts on that read, but the stall moved elsewhere: time
//!   0.99-1.01, instructions +0.4..+1.2%); the engine working in a
//!   worker's own state and move list, copied from and to the game's
//!   (slower: ticTacToe 0.88, breakthrough 0.93, englishDraughts 0.94,
//!   chess 0.99); the piece planes with AVX-512 (0.99-1.02, noise).
//! - Where chess loses (`perf record -e cpu-clock`, batch `0 256` fused
//!   against `rbg bench`, CPU time per state): the engine's own code
//!   (rules and patterns) takes 3.7 us in the batch against 2.8 us in
//!   playouts (+33%; +13% with one game), the batch's own work about
//!   1.1 us more (run_chunk 0.36, planes 0.25, keys 0.2, prefix states
//!   0.18). Batch ratios with 16 games against 256 (one process,
//!   alternating): ticTacToe 0.72/0.72, breakthrough 0.67/0.63,
//!   englishDraughts 0.64/0.60, chess 0.76/0.66: only chess loses much to
//!   the number of games.
//! - `step_into`'s legality pass finds each action's candidate
//!   ([`Decision::candidate_taking`]), which the step applies: one search
//!   of a game's keys instead of two; callgrind batch instructions
//!   (`batch_bench 0 64 1 batch`, stepped by actions) ticTacToe -1.35%,
//!   connect4 -0.66%, englishDraughts -0.61%, hex -0.42%, breakthrough
//!   -0.28% (fused, now the same loop: ticTacToe -1.2%, breakthrough
//!   -0.46%, hex -0.22%).
//! - Tried and dropped: keeping the candidates that take an action
//!   without a branch per candidate (`apply_taken_by`: each written, the
//!   count raised by the comparison): instructions breakthrough +1.9%,
//!   englishDraughts +0.6%, time lost in the noise (0.78-1.08 under load
//!   5); `draw_chance` as an inline test of the turn with its loop apart:
//!   +0.05..+0.18%; `#[inline]` on `Decision::fill_keys`: unchanged.
//! - Why the engine runs slower in the batch: branch prediction, not
//!   memory. `examples/batch_bench.rs interleaved` steps 256 random
//!   playouts round robin with the engine alone (no batch work): per CPU
//!   second against one playout at a time (2 s, 256 games) chess 0.79-0.80,
//!   breakthrough 0.93, reversi 0.91, hex 0.96, englishDraughts 0.96,
//!   ticTacToe 0.98, connect4 1.04. The same 256 games all drawing the same
//!   moves (one seed: 256 copies of one playout, each in its own memory)
//!   ran chess faster than one playout (370-424K against 314-336K states
//!   per second): a playout's next walk repeats most of the branches of
//!   its last (the board changed by one move), interleaved games' walks do
//!   not. Memory is the smaller part: callgrind's cache simulation of the
//!   interleaved loop (`--cache-sim=yes --toggle-collect='*interleaved*'`,
//!   `batch_bench chess 0 N 1 interleaved`) counts 27 data L1 misses per
//!   state with 1 game and 66 with 16 (L2 hits; none beyond), a few per
//!   cent of chess's ~3 us per state. So chess's batch cannot pass about 0.8 of
//!   playouts with 256 games whatever the batch does; against interleaved
//!   playouts the fused batch reaches chess 0.80, reversi 0.96, connect4
//!   0.81, hex 0.80, ticTacToe 0.76, breakthrough 0.69, englishDraughts
//!   0.64 (its own work: multi-action moves and large masks).
//! - Where breakthrough's batch time goes (`perf record -e cpu-clock`,
//!   `batch_bench 3 256 1 batch fused`): engine 61% (rules 57%), run_chunk
//!   14.5% (filter, random candidate, masks: mostly first reads of the
//!   game's keys, alive and moves, cold since the other games ran),
//!   fill_keys 9.3%, apply_raw 4.8%, planes 2.7%, memset 2%. Callgrind
//!   (`0 64 1 batch fused`): 1.17K of 3.2K instructions per action are
//!   the batch's, spread thin (keys 270, planes 130, mask memset 57, the
//!   prefix state's clone and apply 100); `keys_at` is 18 instructions per
//!   move, branch free. Tried and dropped: writing the mask before the
//!   observation, so that its cold lines are fetched while the planes are
//!   computed: alternated batch rates new/old (4 x 2 s, 256 games)
//!   englishDraughts 0.98-1.06, breakthrough 0.95-1.00; prefetching the
//!   exact mask lines the next game will clear (its `mask_set` entries,
//!   large masks only): englishDraughts 0.93-1.12, median 0.97. Callgrind's
//!   branch simulation (`--branch-sim=yes`, same run) puts about 8 of the
//!   26 mispredicted branches per action in the batch's own code: loop
//!   exits over keys, `Decision::distinct` (turn starts and mid-move
//!   decisions alternate between games) and `gen_range`'s rejection test
//!   (rand 0.8 accepts 50-100%; changing the draw would change outputs).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use rbg_agents::playout::Normaliser;

use crate::decision::{Decision, StepError};
use crate::spec::Spec;
use gg_core::Turn;

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
}

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
    rng: SmallRng,
    moves: u64,
    games: u64,
}

/// `n` games of one kind.
pub struct Batch<G: Spec> {
    game: G,
    initial: Decision<G>,
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
}

/// Sizes a chunk of games works on.
#[derive(Clone, Copy)]
struct Sizes {
    obs: usize,
    actions: usize,
    players: usize,
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
            slots,
            workers,
            chunk,
            picks: Vec::new(),
            pool,
            obs_len,
            num_actions,
            norm: Normaliser::new(game),
        })
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
        };
        let known = f.prepare(n, sizes);
        let c = self.chunk;
        let mut taken = vec![0; n];
        let (game, initial, norm) = (&self.game, &self.initial, &self.norm);
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
        let work = |t: Task<G>| run_chunk(game, initial, norm, sizes, t);
        let results: Vec<Result<(), StepError<G::Error>>> = match &self.pool {
            Some(pool) => pool.install(|| tasks.into_par_iter().map(work).collect()),
            None => tasks.into_iter().map(work).collect(),
        };
        if results.iter().any(|r| r.is_err()) {
            // Games after the failing one were not written.
            f.mask_set.clear();
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
    rewards: &'a mut [f32],
    dones: &'a mut [bool],
    players: &'a mut [i32],
    /// The actions taken.
    taken: &'a mut [u32],
}

/// Plays chance moves (uniformly among the legal moves) until a player or
/// the end is to move.
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

/// Resets or steps one chunk of games and writes their part of the frame.
fn run_chunk<G: Spec>(
    game: &G,
    initial: &Decision<G>,
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
    let mut scores = vec![0.0f64; z.players];
    for (i, s) in slots.iter_mut().enumerate() {
        match actions {
            None => restart(initial, r, s)?,
            Some(step) => {
                let j = match step {
                    Step::Candidates(c) => c[i] as usize,
                    Step::Random => random_candidate(s),
                };
                out.taken[i] = s.d.candidate_action(j);
                s.d.apply_candidate(r, j)?;
                if s.d.at_turn_start() {
                    s.moves += 1;
                    draw_chance(r, s)?;
                }
                if s.d.turn() == Turn::Over {
                    norm.scores(game, s.d.base(), &mut scores);
                    for (o, &v) in out.rewards[i * z.players..].iter_mut().zip(&scores) {
                        *o = v as f32;
                    }
                    out.dones[i] = true;
                    s.games += 1;
                    restart(initial, r, s)?;
                }
            }
        }
        let Turn::Player(p) = s.d.turn() else {
            unreachable!("restarted games have a player on move")
        };
        out.players[i] = p as i32;
        let obs = &mut out.obs[i * z.obs..(i + 1) * z.obs];
        s.d.observe(game, p, obs, scratch);
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
