//! Performance notes of [`crate::batch`] (the `VecEnv`'s core): what was
//! measured, kept and dropped, newest last. Ratios are of states per
//! processor second against `rbg bench`'s playouts unless said otherwise.
//!
//! - Each game's observation is written whole (`Spec::observe` writes every
//!   value; RBG's piece planes compare the board with each piece,
//!   vectorised). Keeping each game's observation and updating the planes
//!   where the board changed, then copying it out, took fewer instructions
//!   but was slower on hex (-14%) and chess: twice the memory per step.
//! - A game's mask is cleared just before it is written: clearing the whole
//!   frame first wrote it to memory twice. A frame stepped into again
//!   clears only the entries it set there before ([`Frame::mask_set`](crate::batch::Frame::mask_set); the
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
//!   ([`Decision::candidate_taking`](crate::Decision::candidate_taking)), which the step applies: one search
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
//! - Tried and dropped (session 18; `examples/batch_bench.rs` `batch fused`,
//!   256 games, new/old binaries alternated, 4 x 2 s, load 6-9): repeats
//!   told by a bit set on the stack instead of reading the mask just
//!   cleared (perf put 18% of ticTacToe's `run_chunk` samples on that
//!   read; glibc clears short masks with a masked store, which a load
//!   cannot be forwarded from): ticTacToe 0.955, hex 0.956, breakthrough
//!   0.925, connect4 0.954. Stepping the games at a turn start first and
//!   those in the middle of a move after them (an index list split without
//!   a branch; digests identical): breakthrough 0.948 (0.945-0.955),
//!   englishDraughts 1.006, hex 0.959. Player 0's games first, then the
//!   others: chess 1.05 (1.02-1.38), reversi 1.02, breakthrough 0.92; with
//!   a prefetch of the next game's slot, observation and mask rows: chess
//!   1.03, breakthrough 0.96, hex 0.98 (the prefetch alone in index order:
//!   breakthrough 1.02 (0.97-1.045), chess 0.98). Grouping games helps the
//!   engine's branch predictors where a move costs much (chess), but short
//!   steps lose more when games are taken out of index order (the
//!   hardware's streaming of slots and frame rows). Each game's move list,
//!   keys and candidates allocated again in game order with room to spare
//!   (after 200 steps): breakthrough 0.985, englishDraughts 0.995, chess
//!   0.994: where the heap put them does not matter.
//! - Where breakthrough stands (session 18): callgrind per state
//!   (`batch_bench 0 64 1 fused`) batch 10.3K instructions, playouts 8.0K
//!   (the engine's 7.9K in both): the batch's own work is a quarter of its
//!   instructions, spread thin (keys 640, planes and values 400, prefix
//!   state 250, masks 250, the rest control); instruction ratio 0.78, time
//!   ratio 0.59-0.66 with 256 games, 0.62-0.68 with 16, interleaved
//!   playouts over playouts 0.86-1.0. ticTacToe: 2,678 against 2,080
//!   instructions per state (0.78), time 0.69-0.73; a Python
//!   `step_random` call with one game takes 1.46 us in all (the Python
//!   layer and the step), 2.6% of a 256-game ticTacToe step (55 us). So 0.8 on these games needs the
//!   batch's own instructions per state cut several fold, not moved.
//! - Session 19: how to time these changes on the shared machine:
//!   `batch_bench GAME 0 256 1 batch fused` (a fixed 1000 steps after
//!   the warm-up) for each binary in turn, 10-16 rounds, the best rate of
//!   each: two such runs of the same pair agree within about 1.5%, where
//!   medians of timed runs spread 0.86-1.18 under load 5-7.
//! - `Decision::keep_taking` compares a turn's keys eight at a time into a
//!   bit mask (`match_mask8`, SSE2) instead of a branch per key: callgrind
//!   batch instructions per state (`batch_bench 0 64 1 fused`) breakthrough
//!   10,341 -> 10,245 (-0.9%), hex -0.3%, the others within 0.2%; time
//!   (best of 16, new/old) breakthrough 1.000, hex 1.011, chess 1.015.
//! - `RbgIds::keys_at` of nine moves or more lists the keys eight moves at
//!   a time with AVX2 gathers (`keys_avx2`): batch instructions per state
//!   breakthrough 10,245 -> 9,941 (-3.0%), hex 14,614 -> 13,703 (-6.2%),
//!   chess 38,387 -> 37,961 (-1.1%), the others within 0.1%; time new/old
//!   (best of 12-16) breakthrough 0.988 and 1.000, hex 0.969 and 1.011,
//!   chess 1.029, englishDraughts 0.997: no change in time shows, as for
//!   every instruction cut of this size before it. Reverted in session 20:
//!   with and without it alternated in one process (`batch_bench GAME 0.5
//!   256 12-16 fused ab`, ABBA, 0.5 s each) the scalar loop was faster:
//!   breakthrough 1.012-1.016 (best/best 1.012-1.014), hex 1.029-1.034,
//!   englishDraughts 1.014, chess 1.011, connect4 1.010, reversi 0.982
//!   (best/best 0.989); perf put 6.5% of breakthrough's batch time in
//!   `keys_avx2` (1.9% of its instructions): the gathers stall on this
//!   Zen 4.
//! - Tried and dropped: `Decision::distinct` given up, so that
//!   `write_mask` only stores (perf put 39% of englishDraughts' own
//!   batch-loop samples and 12% of breakthrough's on the store after
//!   the read of a mask entry) and every action goes through the filter:
//!   instructions ticTacToe +3.0%, connect4 +1.7%, breakthrough 0;
//!   time ticTacToe 0.961, englishDraughts 0.956, chess 0.965,
//!   breakthrough 0.973-1.001 (best of 8-15): the read is not what stalls.
//! - With no observation and no mask written at all (a test hack, `batch_bench
//!   GAME 2 256 2 fused`, under load 5-7): breakthrough 0.75-0.76 of
//!   playouts, englishDraughts 0.71-0.77; with both written 0.62-0.70 and
//!   0.59-0.68 in the same runs. So even a batch writing no outputs stays
//!   under 0.8 on these games: the decision's own work (keys, candidates,
//!   random draws, prefix states) and the engine running slower between
//!   it are the larger part, and cutting their instructions by 4-6% did
//!   not show in time.
//! - Where the bar stands after these (session 19, `scripts/vec-vs-bench.py
//!   [--fused] --seconds 3 --rounds 3`, 256 games, load 5-6): fused
//!   ticTacToe 0.72, connect4 0.86, breakthrough 0.62, chess 0.64, reversi
//!   0.84, englishDraughts 0.56, hex 0.74, geomean 0.71 (0.69 before);
//!   `step(actions)` geomean 0.68 (0.66): within the runs' noise.
//! - Session 20, timing in one process: a switch read by the code under
//!   test (a `static AtomicU32`, not kept) and `batch_bench` running the
//!   batch alone (fused, 256 games) 0.3-0.5 s with it off and on in turn
//!   (ABBA, 12-30 pairs), the median and best/best of the pairs' ratios.
//!   An A/A run (both halves the same code) read 0.98-1.013 (median) and
//!   0.986-1.003 (best/best) under load 5-8: steps of 2% show, unlike
//!   runs of two binaries.
//! - Whether work between engine calls slows the engine (`batch_bench
//!   GAME 0 256 2 rows`: interleaved playouts with each game's observation
//!   and mask rows written after its move, against the playouts alone and
//!   the writes alone, alternated in blocks): (both - writes) / playouts
//!   breakthrough 1.012-1.025, englishDraughts 1.02-1.09, chess 1.08-1.19,
//!   hex 1.05-1.17 (load 5-8): the frame's writes evict some of the
//!   engine's data, a few per cent of the batch's time. perf (`batch 4 256
//!   1 batch fused`, breakthrough, 660 ns per state): the rules' code 56%,
//!   about 370 ns per state, as in playouts (~390 ns); the batch's own code
//!   38% (250 ns per state, 2.3K of 7.65K instructions per state against
//!   5.38K in playouts). 0.8 of playouts needs the own part at about
//!   90 ns per state: a rewrite, not a trim.
//! - What each output costs (test hacks, one process, 16 pairs): no
//!   observation at all: breakthrough 1.117, englishDraughts 1.145, chess
//!   1.175 (0.996-1.288); the observation but no mask: 1.055, 1.096,
//!   1.074; the observation of the turn's state (no prefix state copied
//!   and applied): 1.015, 1.035, 1.033 (chess 0.92-1.10). So the
//!   observation is 11-15% of the time, the mask 5-10%, the prefix state
//!   1.5-3.5%; the rest is the decision's own work (keys: perf puts 8.7%
//!   of breakthrough's time and 11% of hex's in `fill_keys`).
//! - Tried and dropped (session 20, one process): prefetching the next
//!   game's keys, candidates and move list (up to 16 lines): breakthrough
//!   1.010 (best/best 0.997), englishDraughts 1.013, chess 1.026 (0.970),
//!   hex 1.003; small masks cleared with plain 16-byte stores instead of
//!   `memset` (its masked tail stores cannot forward to the loads of the
//!   repeat test): ticTacToe 1.006, breakthrough 1.002, hex 1.004,
//!   connect4 1.001, so the read after the clear is no forwarding stall;
//!   an atom's key as `min(base + vertex, end)` from one `u32` table
//!   instead of `base + (vertex & mask)`: hex 0.986, breakthrough 0.985,
//!   ticTacToe 1.007, englishDraughts 0.991.
//! - Where the bar stands at the end of session 20 (`scripts/vec-vs-bench.py
//!   [--fused] --seconds 3 --rounds 3`, 256 games, load 6.5-8, two runs
//!   of the fused table): fused ticTacToe 0.52/0.55, connect4 0.51/0.57,
//!   breakthrough 0.53/0.53, chess 0.68/0.45, reversi 0.75/0.78,
//!   englishDraughts 0.52/0.55, hex 0.59/0.66, geomean 0.58 both times;
//!   `step(actions)` 0.56. Session 19 read 0.71 / 0.68 at load 5-6 with
//!   the same step code but for the keys loop (measured faster in one
//!   process): the 256 games' data lose more to the processes sharing the
//!   core than one playout's do, so this table reads lower the busier the
//!   machine is; `batch_bench GAME 2 256 1 fused` in the same hour:
//!   ticTacToe 0.71, connect4 0.68, breakthrough 0.49, chess 0.62, reversi
//!   0.87, englishDraughts 0.60, hex 0.60.
//! - Session 21: the observation of a move in progress is patched in the
//!   frame that holds this turn's earlier observation
//!   ([`Frame::obs_tag`](crate::Frame::obs_tag) tells which step wrote a
//!   frame; Python's observations are read-only, as its masks are): the
//!   pieces the new atoms put and their vertices in the move plane
//!   ([`Spec::patch_observation`](crate::Spec::patch_observation)),
//!   without copying the state, applying the prefix or writing the planes
//!   whole; assignments fall back to the whole observation. Callgrind
//!   batch instructions (`batch_bench GAME 0 64 1 batch fused`)
//!   breakthrough -4.9%, englishDraughts -4.1%, chess -2.0%; time (one
//!   process, 16-30 ABBA pairs) median breakthrough 1.027-1.049,
//!   englishDraughts 1.023-1.028, chess 0.999, hex (no moves in progress)
//!   1.018. Tried and dropped before it: each game keeping the board its
//!   row shows and rewriting the planes where the board differs, turn
//!   starts included (a second board per game): breakthrough 0.959,
//!   englishDraughts 0.961, hex 0.929, chess 1.054 (medians of 16 pairs).
//! - Session 21: the A/B switch of session 20 is kept, behind the feature
//!   `ab` ([`crate::batch::ab`], always `false` without it; `batch_bench
//!   GAME 0.25 256 20 fused ab`, built with `--features ab`): an A/A run
//!   (nothing reads it) under load 9 read medians 1.011-1.021, best/best
//!   0.987-1.003.
//! - Tried and dropped (session 21): patching a turn start's observation
//!   too, from what the row showed before the move was played (the
//!   worker's copy of the board with the prefix's pieces, taken before an
//!   action that may complete the move, then the planes rewritten where
//!   the new board differs): callgrind batch instructions breakthrough
//!   +1.3%, chess +0.5%, hex -0.1%, ticTacToe -2.6%: the copy and the
//!   comparison cost about what writing the planes whole does.
//! - Where the bar stands at the end of session 21 (`scripts/vec-vs-bench.py
//!   --fused --seconds 3 --rounds 3`, 256 games, load 8-10): ticTacToe
//!   0.64, connect4 0.62, breakthrough 0.54, chess 0.58, reversi 0.84,
//!   englishDraughts 0.53, hex 0.59, geomean 0.61 (0.62 at the start of
//!   the session at load 1.1-1.3). Still open: keys written by the move
//!   generator (`fill_keys` is 6-8% of the batch's time on breakthrough,
//!   englishDraughts and ticTacToe in perf), which needs a keyed
//!   `NativeWalker::legal_moves` in rbg-engine and a branch per recorded
//!   move in rbg-jit (or a second rules function) so that playouts do not
//!   pay for it; masks of large action spaces (englishDraughts 3,201,
//!   chess 5,505) miss the cache on each entry set or cleared (perf puts
//!   a fifth of englishDraughts' own batch-loop samples on those stores).
//! - Session 22: the piece planes of boards whose number of vertices is
//!   not a multiple of eight are written eight vertices at a time with a
//!   last chunk overlapping the one before it (`rbg::planes_by_chunk`):
//!   the compiler's loop ended each plane with a branch per leftover
//!   vertex on the board's piece, which the interleaved games mispredict
//!   (perf put a tenth of tic-tac-toe's batch loop on it). Callgrind batch
//!   instructions ticTacToe -2.1%, connect4 -2.5%, hex -0.2%; time (one
//!   process, 16 ABBA pairs) ticTacToe 1.06, connect4 1.08-1.09, hex
//!   1.01. Boards of 64 vertices keep the compiler's loop (no leftover;
//!   the chunked loop took +0.4..+0.6% instructions there, chess 0.99).
//!   Tried and dropped: the variables multiplied by their bound's inverse
//!   instead of divided (perf put 9% of tic-tac-toe's batch loop after the
//!   division; skid): time 0.997 ticTacToe, 0.994 connect4.
//! - Tried and dropped (session 22): keys written by the generated code
//!   as it records each move (a `RunMode::CollectKeyed` of rbg-jit, the
//!   record and the first atom's key in a block of its own at each
//!   switch, so that playouts run the same code; a keyed
//!   `NativeWalker::legal_moves` and `Spec::legal_moves_keyed`, settle
//!   skipping the listing at a turn's start). The first atom's action is
//!   not known where a move is recorded, so the generated key takes the
//!   same two dependent loads as [`Numbering::keys_at`](crate::Numbering::keys_at), and the
//!   unoptimised Cranelift code reloads the workspace's fields: batch
//!   instructions ticTacToe +0.2%, breakthrough +0.1%, hex +2.3%; time
//!   (one process, 16 ABBA pairs, load 9) ticTacToe 0.968 (best/best
//!   1.007), hex 1.017 (1.021), breakthrough 1.005 (1.010), connect4
//!   1.011 (1.015): not worth a second record per switch. Also dropped:
//!   `settle` reusing the keys `apply` listed when they are all the same
//!   (instead of listing them again): -0.006% instructions.
//! - Where the time goes that is left (perf, session 22): on tic-tac-toe
//!   and englishDraughts the batch loop's hottest instructions are the
//!   mask's `*m = true` after reading the entry (a fifth to a quarter of
//!   the loop's samples; on englishDraughts' 3.2 KB masks, lines missed
//!   since the game's last step), then the first reads of each game's
//!   slot (its generator); `fill_keys` is 6% of the time on both.
//! - Where the time goes (session 23; callgrind `batch_bench GAME 0 64 1
//!   [batch] fused`, per state over the 1000 measured steps): ticTacToe
//!   batch 1,711 instructions against playouts' 1,014 (ratio 0.59; time
//!   0.62: on the small games instructions are the cost), the engine 839
//!   of them (restarts clone the initial turn instead of listing it); the
//!   batch's own 872 are spread over some twenty items of 10-150 each:
//!   keys 146 (`fill_keys`, 17 instructions per move in `keys_at`'s
//!   loop plus the call), piece planes 119, the rest of the observation
//!   ~75, masks ~55, restarts 45, the loop's own indexing and glue ~250.
//!   breakthrough: 7,350 against 5,380 (ratio 0.73, time 0.55: there the
//!   cost is the rate, not the count); `--branch-sim=yes` counts 64
//!   against 46 mispredicted conditional branches per state (the batch's
//!   own ~19: loop exits over keys in `fill_keys` and the step loop, the
//!   turn start / mid-move tests), and `--cache-sim=yes` ~15 L1 misses per
//!   action on ticTacToe (each game's slot, keys, moves, board and rows,
//!   evicted by the other 255 games; L2 hits).
//! - Tried and dropped (session 23): masks of at most `WHOLE_MASK` actions
//!   written whole from a bit set of the keys (one register up to 64
//!   actions, else eight words on the stack; 32 bits spread to 32 bytes
//!   with AVX2, 16 for shorter masks, the last chunk overlapping; repeats
//!   told by a popcount), no `memset` and no entry read (perf put 15% of
//!   ticTacToe's step-loop samples on the store after that read):
//!   digests identical, batch instructions ticTacToe +4.7%, time (one
//!   process, 16 ABBA pairs, load 10-11) ticTacToe 0.978, connect4 0.944,
//!   breakthrough 0.966, hex 0.949, reversi 0.988: the read is not where
//!   the time goes (as with session 18's bit set). Also dropped: the
//!   planes of boards whose vertex count is not a multiple of eight in
//!   one loop of eight-vertex chunks (no 32-vertex unrolling): batch
//!   instructions ticTacToe -0.34%, connect4 +0.15%, hex -0.14%; the step
//!   loop taking each game's rows from zipped iterators
//!   (`chunks_exact_mut`) instead of indexing them: ticTacToe +3.4%,
//!   connect4 +2.5%, hex +1.5%, breakthrough +1.4%.
//! - The Python layer (session 23): `step_random` on a one-game ticTacToe
//!   `VecEnv` takes 1.45 us per call; perf puts 14% of it (~0.2 us, 0.5%
//!   of a 256-game ticTacToe step) in rust-numpy's borrow tracking
//!   (`try_readwrite` to make the arrays read-only), the rest in creating
//!   the five arrays and their owners: not where the bar is lost.
//! - Tried and dropped (session 23): prefetching the next game's engine
//!   state (its board, piece counts, variables and piece lists, a
//!   `State::prefetch` hint through a `Spec` hook) before stepping each
//!   game, which the earlier prefetches (moves, keys, rows) left out:
//!   digests identical; time (one process, 30 ABBA pairs, 0.2 s each, load
//!   6-7) breakthrough 1.032 (best/best 1.018), hex 1.020 (1.016),
//!   englishDraughts 0.992 (0.992), ticTacToe 0.984 (0.985); 16 pairs:
//!   chess 1.029 (0.902), connect4 1.045 (1.018): within the noise.
//! - Tried and dropped (session 23): `RbgIds::keys_at` reading the keys
//!   at a fixed stride when every move of the list is equally long
//!   (checked over `ends` in one pass; then no `ends` read or clamp per
//!   move, `atoms[d..].iter().step_by(len)`): digests identical, batch
//!   instructions ticTacToe +2.9%, connect4 +2.5%, hex +1.2%,
//!   breakthrough +1.1% (the check and the strided iterator cost more
//!   than the clamped loop saves).
//! - Tried and dropped (session 24): the keys and the mask of a turn's
//!   start in one pass (`Numbering::keys_mask_at`; the batch zeroing a
//!   short mask before the step and passing it down `apply_candidate` ->
//!   `play` -> `start_turn` -> `settle` -> `fill_keys`, mid-move keys
//!   writing it after listing, the batch's `write_mask` only where the
//!   step did not): digests identical, batch instructions (`batch_bench
//!   GAME 0 64 1 batch fused`) ticTacToe +1.9%, connect4 +1.4%,
//!   breakthrough +1.3%. The separate mask loop it removes costs ~4
//!   instructions per key, but the fused loop took ~6 more per move than
//!   `keys_at`'s (register pressure; the same loop over a pre-sized
//!   `out` instead of `extend` was worse, ticTacToe +3.6%), and the mask
//!   argument added ~10 per state to `play` and `settle`. Time (two
//!   binaries, 6 ABBA pairs of 1 s, 256 games, load 6-7) ticTacToe 0.986
//!   (best/best 1.011), connect4 0.974 (0.984).
//! - Session 24: `draw_chance` and `Decision::prefix` inlined (each step
//!   called both out of line: ~18 and ~8 instructions per call in games
//!   without chance): digests identical, batch instructions ticTacToe
//!   -0.84%, connect4 -0.56%, breakthrough -0.14%; time (two binaries,
//!   8 ABBA pairs of 1 s, 256 games, load 6-8) medians 0.992-1.001
//!   (ticTacToe, connect4, hex, breakthrough): within the noise.
//! - Session 25: a turn start's observation is patched from the move just
//!   played ([`Spec::patch_turn_start`](crate::Spec::patch_turn_start)):
//!   the row shows the last turn with part of that move, so only the
//!   vertices of the move's atoms change in the piece planes (rewritten
//!   from the new board, a column of `pieces` values each) and in the move
//!   plane (cleared); the variables and the player on move are written
//!   again. Where the keeper may put pieces away from the move's last
//!   vertex ([`choosable::keeper_puts_away`](crate::choosable::keeper_puts_away):
//!   connect4's drop, reversi's flips) the row is written whole. The move
//!   is kept inline in the decision (at most four atoms): kept in a `Vec`
//!   of its own, or as the last turn's move list with the buffers swapped
//!   (no copy), tic-tac-toe ran 0.93-0.95 of the old time (callgrind's
//!   cache simulation: +30% data L1 write misses, the engine writing its
//!   next list into the colder buffer). Callgrind batch instructions
//!   (`batch_bench GAME 0 64 1 batch fused`, the suite's games)
//!   ticTacToe 108.70M -> 105.13M (-3.3%), hex 522.5M -> 500.7M (-4.2%),
//!   breakthrough -0.9%, englishDraughts +0.2%, chess +0.03%; time (two
//!   binaries alternated, `batch_bench GAME 0.7 256 1 batch fused`, 6-8
//!   ABBA pairs, load 4-6, medians new/old) hex 1.045-1.066, chess 1.10,
//!   breakthrough 1.04-1.06, ticTacToe 1.01, englishDraughts 0.96-1.03,
//!   connect4 0.99 (not patched).
//! - Tried and dropped (session 25): constant assignments patched in
//!   moves in progress (`RbgIds` keeping each `[$ v = c]`'s shown value,
//!   the atom no longer a fallback) and a turn start whose atoms every move
//!   shares (chess's `[$ enPassant = 0]`, tic-tac-toe's lone last move)
//!   patched as a turn start and then as a move in progress: digests
//!   identical, batch instructions chess +0.06%, ticTacToe +1.6%; time
//!   chess 0.98-1.07 (5-6 pairs, noise).
//! - Session 26 (python/src/vec.rs): a step returns the last step's
//!   arrays again, rewritten in place, when Python holds none of them
//!   (reference counts of each array and of its buffer, which views hold:
//!   numpy collapses bases), `step_random`'s actions too: no new arrays,
//!   buffer objects or read-only flags per call. A `step_random` call on
//!   a one-game ticTacToe `VecEnv` 1.73-1.94 -> 0.82-1.04 us (three
//!   alternated runs of 20,000 calls), about 2% of a 256-game ticTacToe
//!   step (~45 us); Python digests of 300 steps on the seven games equal.
//! - Tried and dropped (session 26): turn starts of games whose keeper
//!   puts pieces away from the move (connect4's drop, reversi's flips)
//!   patched too, without any engine change: the worker copied the board
//!   before each action (`Spec::keep_before`), and after a move the
//!   vertices where the new board differs (eight compared at a time,
//!   SSE2) had their columns rewritten, besides the move's own vertices.
//!   Digests identical (connect4, reversi, ticTacToe, breakthrough, hex).
//!   Callgrind (`batch_bench connect4 0 256 1 batch fused`): batch
//!   instructions 617.8M -> 644.3M (+4.3%: the copy, the diff and the
//!   per-vertex column writes cost more than the vectorised whole planes
//!   save), data L1 misses 6.79M -> 5.69M (write misses 3.56M -> 2.74M).
//!   Time (one process, `ab`, 16 ABBA pairs of 0.4 s, load 5) old/new
//!   connect4 median 1.165 (best/best 1.055), reversi 1.039 (1.024): the
//!   whole planes are faster. An engine report of the vertices the keeper
//!   changed would save the copy and the diff (~60 instructions per
//!   state), not the scattered column writes (a line per piece plane per
//!   vertex), so it is not worth an `rbg-engine` API.
//! - Session 26, where ticTacToe's misses are (callgrind `--cache-sim=yes`,
//!   `batch_bench 0 256 1 batch fused`, per state): ~15 data L1 misses
//!   (9.6 reads, 5.3 writes), against none in playouts. Six reads are the
//!   slot's six cache lines (384 bytes: `all`, `turn`, the state's
//!   header, `game` and vector pointers, the keys' pointer), one each of
//!   the keys, the move list's atoms and ends, the board; writes are the
//!   row (two per state for the patched columns), the mask's memset and
//!   the keeper's board writes. Instructions per state: batch 1,626
//!   (engine 840), playouts 1,013 (ratio 0.62). Tried: the slot aligned to
//!   64 bytes (`repr(align(64))`, size unchanged at 384): misses 3.832M ->
//!   3.828M, no change (the slots' vector was already line-aligned or the
//!   lines are touched either way). Five lines a slot would need ~64 bytes
//!   off (`turn` as a `u32`, `depth` and `shows` as `u32`, `last` without
//!   its `usize`, the counters moved to arrays of the batch): not tried;
//!   the connect4 result above (fewer misses, slower) says misses are not
//!   what these games pay for.
//! - Session 27: a turn start's patch writes each vertex's column once
//!   (a move's atoms often repeat a vertex: a piece put, then the switch
//!   where it stands) and plane by plane (`chunks_exact_mut`, a bounds
//!   check per plane) instead of through `iter_mut().skip(v).step_by(nv)`.
//!   Callgrind batch instructions (`batch_bench GAME 0 64 1 batch fused`,
//!   the suite's games) ticTacToe 105.13M -> 104.26M (-0.83%),
//!   englishDraughts -0.58%, breakthrough -0.41%, hex -0.20%; the repo's
//!   `games/` versions (a put and a switch per move) ticTacToe -2.5%,
//!   breakthrough -1.0%. Digests identical on the seven suite games.
//! - Tried and dropped (session 27): masks of at most 64 entries cleared
//!   by two overlapping fixed-size stores (one from each end, no loop: a
//!   loop of eight-byte stores was turned back into a `memset` call by
//!   the compiler) and their `mask_set` entry no longer touched: batch
//!   instructions ticTacToe -0.5%, but connect4 +0.35%, breakthrough
//!   +0.17%, hex +0.1% (the step loop's code around it grew).
//! - Session 27: the step notes the prefix's length
//!   ([`Decision::prefix_len`](crate::Decision::prefix_len)) instead of
//!   finding the first candidate's move to slice it: callgrind batch
//!   instructions (`batch_bench GAME 0 16 1 batch fused`) englishDraughts
//!   -0.46%, breakthrough -0.40%, ticTacToe -0.22%, connect4 -0.16%,
//!   chess -0.12%, hex -0.05%, reversi -0.03%. Tried and dropped:
//!   `#[inline(always)]` on `Decision::fill_keys` (its prologue saves six
//!   registers per call): +0.1..+0.3% on the same five games.
//! - Where the suite's ticTacToe stands (session 27, callgrind `batch_bench
//!   GAME 0 64 1 batch fused`, per state): batch 1,629 instructions, the
//!   engine 840 of them (apply 457, listing 377), playouts ~1,013. The
//!   batch's own ~790: `settle` 181 (`fill_keys` 146, of which `keys_at`'s
//!   loop ~16 instructions per move over ~4.5 moves), the observation patch
//!   and values ~70, restarts ~61 (~330 per restart: nine buffer copies),
//!   the mask ~57 (a `memset` call for ten bytes and the entry reads), the
//!   loop's slicing and bounds ~45, and some thirty items of 3-10 each
//!   (function prologues of `play`, `settle`, `fill_keys` ~15 each). At
//!   256 games `--branch-sim=yes --cache-sim=yes` counts ~23 mispredicted
//!   branches (engine ~7) and ~16 data L1 misses per state (reads: the
//!   slot, keys, move list, board, counts; writes: the row, the keeper's
//!   board writes). `scripts/vec-vs-bench.py --fused --seconds 3 --rounds
//!   3` on the suite (load 4-5): ticTacToe 0.65, connect4 0.79,
//!   breakthrough 0.62, chess 0.69, reversi 0.79, englishDraughts 0.58,
//!   hex 0.74, geomean 0.69.
//! - Session 28: `Decision::settle` of a lone candidate (a turn with one
//!   legal move) finds the move's last choice in one pass over its atoms
//!   instead of listing its keys at every depth (three `fill_keys` calls
//!   or more per lone move: englishDraughts' forced captures made it ~1.9
//!   calls per turn start). Callgrind batch instructions (`batch_bench
//!   GAME 0 64 1 batch fused`, the suite's games) englishDraughts
//!   205,433,006 -> 201,083,906 (-2.12%), ticTacToe -0.47%, connect4
//!   +0.27% (the `n == 1` test, ~2 per turn start, and code moved),
//!   breakthrough +0.06%, hex +0.05%, reversi -0.04%, chess 0.00%.
//! - Tried and dropped (session 28): a restart that draws no chance move
//!   copying the initial decision's observation (kept by the batch) into
//!   the row instead of observing the state (a restart ~254 -> ~221
//!   instructions, its observation ~130 -> a 160-byte copy on
//!   ticTacToe), with `GameModel::observe` forced inline (the compiler
//!   stopped inlining it beside the copy: connect4 +1.3%): batch
//!   instructions ticTacToe -1.42%, but breakthrough +0.46%,
//!   englishDraughts +0.46%, hex +0.13%, connect4 +0.10%, reversi and
//!   chess +0.09% (the step loop's code around the flag grew; long games
//!   restart rarely). Branch `py-restart-try` of session 28 holds it
//!   with a test comparing every row of a batch with a decision stepped
//!   alone.
//! - Session 29 (`perf record -e cpu-clock`, `batch_bench GAME 3 256 1
//!   batch fused`): two stalls that instruction counts do not show.
//!   `Decision::play` kept the last move's atoms by writing them to the
//!   stack one by one and reading them back as 16-byte values (a failed
//!   store forwarding on every move: a third of `play`'s samples on
//!   tic-tac-toe, 29% on breakthrough, 22% on englishDraughts); now each
//!   is read at a fixed, clamped index into place. A turn start's patch
//!   made `chunks_exact_mut(nv)` for every vertex of the move, a division
//!   by `nv` each (5% of tic-tac-toe's step-loop samples after the `div`);
//!   the planes are now split off one by one (`planes_body` too). A first
//!   version indexing `p * nv + v` was unrolled by the compiler with ~40
//!   instructions of set-up (ticTacToe +1.6%, breakthrough +0.7%). Digests
//!   identical on the seven suite games; callgrind batch instructions
//!   (`batch_bench GAME 0 64 1 batch fused`) ticTacToe 103,528,976 ->
//!   102,666,569 (-0.83%), englishDraughts 201,078,934 -> 199,634,789
//!   (-0.72%), connect4 -0.41%, breakthrough 251,176,038 -> 250,223,397
//!   (-0.38%), hex -0.18%, reversi -0.13%, chess -0.05%; time (two
//!   binaries alternated, `batch_bench GAME 0.7 256 1 batch fused`, 8 ABBA
//!   pairs, load 6-9) new/old medians englishDraughts 1.035 and 1.050
//!   (best/best 1.071, 1.046), breakthrough 1.064 and 1.017 (1.004,
//!   0.983), ticTacToe 0.991 and 1.043 (1.002, 0.991): within the noise
//!   but for englishDraughts.
//! - Where the bar stands at the start of session 29 (`scripts/vec-vs-bench.py
//!   --fused --seconds 3 --rounds 3`, main at 4eb3a70, load 6): ticTacToe
//!   0.66, connect4 0.61, breakthrough 0.68, chess 0.65, reversi 0.86,
//!   englishDraughts 0.58, hex 0.74, geomean 0.68; with the two changes
//!   above, an hour later (load 5.5, both sides' rates ~30% lower than in
//!   the first run): 0.76, 0.62, 0.59, 0.81, 0.79, 0.61, 0.89, geomean
//!   0.72 (the table moves by up to 0.15 per game between runs). Per state (callgrind,
//!   `0 64 1 fused`, batch against playouts): ticTacToe 1,618 against
//!   1,014 instructions (the engine ~840 of the batch's), breakthrough
//!   7,222 against 5,380 (engine ~5,230; `fill_keys` 640), englishDraughts
//!   4,463 against 3,192 (engine ~3,080). perf (256 games): the batch's
//!   own code is 31% of breakthrough's time (step loop 18%, `fill_keys`
//!   8.5%), 40% of tic-tac-toe's; a fifth of the step loop's samples sit
//!   on the first store into the mask row after its clear (session 22's
//!   finding), the next on the first read of the game's keys. Upper bounds
//!   of the levers named for this session: keys free of charge would cut
//!   breakthrough's batch instructions by 8.9% (time 8.5%), tic-tac-toe's
//!   by 8.3%, englishDraughts' by 4.7%: not 0.8 alone (session 22's keys
//!   written by rbg-jit at each record cost as much as `keys_at`; a key
//!   computed once where a move's first modifier is pushed, stored at each
//!   record, is the untried form). Restarts free of charge (the clone of
//!   the initial decision and the observation written whole) would cut
//!   tic-tac-toe's by at most ~4% (2.7% the restart, 1.5% its observation),
//!   the other games' by under 1% (breakthrough restarts once in 51
//!   states): a single-buffer `rbg_engine::State` would save three of the
//!   restart's nine buffer copies, about 1% on tic-tac-toe.
//! - Session 30 (the machine is now an Intel Xeon with AVX-512, L2 2 MB
//!   per core, not the Zen 4 of sessions 20-29): where a step's time goes
//!   beyond `rbg bench`'s per move, per game (main at 8d664bf). Callgrind
//!   per state (`batch_bench GAME 0 256 1 fused`, `--toggle-collect` of
//!   `batch_steps` and of `playouts_for`, 1000 measured steps):
//!   breakthrough 7,155 against 5,388 instructions (ratio 0.75; the
//!   engine's ~5,230 the same in both), the batch's own ~1,920: keys of a
//!   turn's start ~530 (`keys_at`, ~29 moves at 18 each), the step loop
//!   ~1,170 (mask `memset` and entries ~180, the observation patches, the
//!   random draw, `keep_taking`, slicing and control), `play`/`settle`
//!   ~100; connect4 2,387 against 1,532 (0.64; own ~950: the observation
//!   written whole at every turn start ~340, keys ~220 for 7 moves, the
//!   mask ~100); englishDraughts (64 games) 4,431 against 3,192 (0.72).
//!   perf (`-e cpu-clock`, `batch_bench GAME 3 256 1 batch fused`): the
//!   batch's own code is 35% of breakthrough's time (step loop 20%,
//!   `fill_keys` 8%, `play` 2%, `memset` 2%), 36% of connect4's (step
//!   loop 14%, planes 7%, `fill_keys` 7%, `play` 4%, `memset` 3%), ~29%
//!   of englishDraughts'; the engine's share of time matches its share of
//!   instructions (breakthrough: rules and apply ~65% of 1.54x the
//!   playouts' time, about the playouts' own), so the gap is the own
//!   code, running at ~1.45x the engine's cycles per instruction (a
//!   quarter of the step loop's samples on breakthrough at the first
//!   mask entry read after its `memset`, then the first read of the
//!   game's keys). For 0.8 the own code must take at most ~0.25 of the
//!   playouts' time per state; it takes ~0.54 (breakthrough) and ~0.59
//!   (connect4): no single lever below comes near.
//! - Session 30, upper bound of a turn start's observation for games whose
//!   keeper puts pieces away (connect4, reversi): with none written at all
//!   (a test hack, `ab`) connect4's batch instructions -14.1% (154.2M ->
//!   132.5M, `0 64 1 batch fused`), time (one process, 20 ABBA pairs of
//!   0.3 s, load 6-7) connect4 1.105 (best/best 1.129), reversi 1.064
//!   (1.040). Tried and dropped: patching it from a snapshot of the board
//!   taken before each action (`Spec::patch_snapshot`, the worker's
//!   buffer; the columns of the vertices where the new board differs,
//!   found eight at a time with SSE2, besides the move's own): digests
//!   identical on the seven games, but batch instructions connect4 +2.7%
//!   (154.0M -> 158.2M), reversi +1.8%, ticTacToe +3.0% (the step loop
//!   grew; the copy, the diff and the columns cost ~400 instructions per
//!   state against the whole observation's ~340). Branch
//!   `py-keeper-snapshot` holds it. Taken instead only by the action that
//!   completes a move (in `Decision::play`, before the engine's `apply`;
//!   branch `py-keeper-snapshot-play`): connect4 +3.0% (158.7M), reversi
//!   +1.9%, ticTacToe +3.2%, breakthrough +1.2% (games without the
//!   snapshot pay for the step loop's new shape): dropped too.
//! - Tried and dropped (session 30): masks of at most `WHOLE_MASK` actions
//!   cleared by their entries (the `mask_set` lists) instead of a
//!   `memset`, on this machine: one process, 16 ABBA pairs of 0.3 s,
//!   load 6-9: breakthrough 0.859 (best/best 0.886), connect4 0.936,
//!   ticTacToe 0.917, hex 1.012 (0.879); the candidates' keys in a move
//!   in progress listed by a branch-free `Numbering::keys_of` (as
//!   `keys_at`) instead of slicing each move: batch instructions
//!   breakthrough +0.27%, englishDraughts +0.22% (`fill_keys` was then
//!   inlined into its callers and `keys_at` called out of line); glibc's
//!   huge pages for the heap (`GLIBC_TUNABLES=glibc.malloc.hugetlb=1`,
//!   breakthrough `batch_bench 1.5 256 1 fused`, three alternated pairs):
//!   0.66/0.69, 0.56/0.63, 0.67/0.64, no effect shown.
//! - Where the bar stands at the start of session 30 (`scripts/vec-vs-bench.py
//!   --fused --seconds 3 --rounds 3`, main at 8d664bf, load 4.5-6):
//!   ticTacToe 0.69, connect4 0.82, breakthrough 0.64, chess 0.67, reversi
//!   0.83, englishDraughts 0.60, hex 0.73, geomean 0.71; `batch_bench GAME
//!   2 256 1 fused` in the same hour: breakthrough 0.65, connect4 0.62,
//!   englishDraughts 0.67.
//! - Session 31: a turn's first keys are written by the engine while it
//!   generates the moves (`Spec::legal_moves_keyed`; for RBG a keyed copy
//!   of rbg-jit's rules function, [`crate::keyed`] /
//!   `rbg_jit::compile_keyed`, which the Python package loads): the key
//!   is computed where a move's first modifier is pushed (its action's
//!   table entry as constants plus the vertex) or at the switch when the
//!   prefix is empty, and stored beside the move's end; `settle` then
//!   only tests whether they are all the same (and reuses the keys
//!   `apply` listed when it settles mid-move). The plain walk, which
//!   playouts run, is unchanged. Callgrind batch instructions
//!   (`batch_bench GAME 0 64 1 batch fused`; chess 16 games) against main
//!   585fa43: hex 498,803,767 -> 432,712,974 (-13.25%), ticTacToe
//!   102,666,569 -> 96,535,956 (-5.97%), connect4 153,833,067 ->
//!   144,950,780 (-5.77%), breakthrough 250,210,357 -> 237,554,485
//!   (-5.06%), reversi -1.27%, englishDraughts -0.54%, chess -0.50%; the
//!   generated code's own cost ~140 instructions per breakthrough state
//!   against ~480 saved in `fill_keys`. Time (one binary, keyed against
//!   `plain`, `batch_bench GAME 0 256 1 batch fused`, 10 ABBA pairs, load
//!   4-7): median keyed/plain breakthrough 1.135 and 1.064, ticTacToe
//!   1.085, connect4 1.125, hex 1.057. Digests identical on the seven
//!   suite games. The keyed compile generates the rules function twice
//!   (load time, not the measured loops).
//!   `scripts/vec-vs-bench.py --fused --seconds 3 --rounds 3` with it (the
//!   Python package, load 8-11, other builds running): ticTacToe 0.65,
//!   connect4 0.62, breakthrough 0.61, chess 0.55, reversi 0.84,
//!   englishDraughts 0.50, hex 0.61, geomean 0.62 (this table reads lower
//!   the busier the machine; 0.71 at load 4.5-6 in session 30). Left
//!   open by it: games whose moves all share their first atoms (chess's
//!   `[$ enPassant = 0]`) still list their keys at the first depth where
//!   moves differ (`fill_keys` over every move); a keyed walk writing the
//!   key at a depth the generator proves shared-before would serve them.
//! - Session 32: `Decision::settle` takes the atom at a depth as shared
//!   without comparing every candidate's atom when their actions are the
//!   same and the numbering's ids tell atoms
//!   ([`Numbering::IDS_ARE_ATOMS`](crate::Numbering::IDS_ARE_ATOMS): RBG,
//!   not RG's tags). Chess's moves nearly all start with `[$
//!   pawnDoubleMove = 0]`: a pass over every move at each turn start.
//!   Callgrind batch instructions (`batch_bench GAME 0 64 1 batch fused`,
//!   chess 16 games) chess 361,705,278 -> 355,814,788 (-1.63%),
//!   ticTacToe -0.31%, englishDraughts -0.28%, connect4 -0.22%,
//!   breakthrough -0.12%, hex -0.09%, reversi -0.04%; time (chess, two
//!   binaries, 5 pairs of 1.5 s, 256 games, load 6) new/old median 1.02.
//! - Where the bar stands at the start of session 32
//!   (`scripts/vec-vs-bench.py --fused --seconds 3 --rounds 3`, main at
//!   cc31286, load 5.5-6): ticTacToe 0.66, connect4 0.65, breakthrough
//!   0.63, chess 0.62, reversi 0.92, englishDraughts 0.63, hex 0.90,
//!   geomean 0.71. Per state (callgrind, `0 64 1 batch fused` against
//!   `playouts_for`, same number of states): ticTacToe 1,506 against 999
//!   instructions (engine 849 against 895: restarts clone the initial
//!   turn; the batch's own ~657 against ~103, of which the step loop's
//!   inlined glue ~390, `play`'s own ~108, `settle` ~49, restarts ~43),
//!   connect4 2,263 against 1,517, breakthrough 6,833 against 5,366,
//!   englishDraughts 4,406 against 3,184, chess (16 games) 37.9K against
//!   35.3K (0.93: chess's gap is all in the rate, its keyed walk 307.7M
//!   against the plain walk's 314.1M for the same 9,399 states). perf
//!   (`batch_bench breakthrough 3 256 1 batch fused` against `rbg bench`):
//!   `rules_keyed` 65.5% of the batch's time against `rules` 87% of the
//!   playouts' (~915 against ~770 ns per state), the step loop 18% (a
//!   fifth of it on the mask's first store after its `memset`, as in
//!   sessions 22-30). Upper bounds of the levers named for this session:
//!   the keyed walk costs breakthrough 4,896 against the plain walk's
//!   4,831 instructions per state (+1.3%, so trimming it gains at most
//!   that); keys written at the first differing depth would save chess's
//!   `fill_keys` at depth 1 (4.6M of 355.8M, 1.3%) and no other suite
//!   game's (only chess's moves share a first atom).
//! - Tried and dropped (session 32): a short mask's `mask_set` list left
//!   untouched (not indexed and cleared per game; a batch's masks are all
//!   short or all long): batch instructions ticTacToe -0.11%, connect4,
//!   breakthrough, hex -0.01..-0.03%, englishDraughts +0.16%.
//! - Where the bar stands at the end of session 32 (the same table, main
//!   at b36d24d, load 6-7): ticTacToe 0.67, connect4 0.69, breakthrough
//!   0.61, chess 0.69, reversi 0.91, englishDraughts 0.66, hex 0.68
//!   (0.90 at the start: this table's noise), geomean 0.70.
//! - Session 33: a finished game's returns and restart moved out of the
//!   step loop (`end_game`, cold), and a restart that lands on the
//!   initial decision (a player on move there: no chance drawn) copies
//!   the initial observation, kept from the first reset's frame
//!   (`Batch::start_obs`), instead of observing the game (tic-tac-toe
//!   restarts once in ~7.6 states); the player-on-move values of two
//!   players written by two stores instead of a `memset` call and a
//!   store. Callgrind batch instructions (`batch_bench GAME 0 64 1 batch
//!   fused`, chess 16 games) ticTacToe 96,066,580 -> 93,806,501 (-2.35%),
//!   connect4 144,489,931 -> 143,851,795 (-0.44%), englishDraughts
//!   -0.29%, breakthrough -0.22%, hex -0.21%, reversi -0.05%, chess
//!   +0.08%. The compiler's inlining decides these more than the work
//!   saved: the initial observation made in `Batch::new` (a second call
//!   site of `GameModel::observe`) put `observe` and `patch_turn_start`
//!   out of line (connect4 +0.54..+2.4%, breakthrough +0.3..+0.6%), so
//!   it is taken from the reset and `patch_turn_start` is
//!   `#[inline(always)]`; the player-on-move values as a loop over the
//!   players cost connect4 ~8 instructions per state more than the
//!   `memset`. Tried and dropped: `Decision::start_turn` skipping the
//!   `settle` call when a keyed turn start's first two keys differ:
//!   ticTacToe -0.55%, connect4 -0.40%, but englishDraughts +0.52%,
//!   breakthrough +0.39% (their first two keys are often the same piece).
//! - Where the bar stands at the end of session 33
//!   (`scripts/vec-vs-bench.py --fused --seconds 3 --rounds 3 --rbg
//!   /work/base/rbg`, the Python package built from main at 53a4798, load
//!   5-7): ticTacToe 0.71, connect4 0.67, breakthrough 0.70, chess 0.61,
//!   reversi 1.00, englishDraughts 0.65, hex 0.77, geomean 0.72 (0.70 at
//!   the end of session 32, load 6-7: within this table's noise). Per
//!   state (callgrind, as above) ticTacToe's batch is ~1,466 instructions
//!   against the playouts' ~999, its own ~617 spread over the step loop
//!   (~360: the random draw ~45, the turn-start patch ~110, the mask ~70
//!   with its `memset`, slicing and control), `play`'s own ~108 and
//!   `settle` ~46: 0.8 needs ~250 of them gone, no single item is that.
//! - Where the bar stands at the start of session 34
//!   (`scripts/vec-vs-bench.py --fused --seconds 3 --rounds 3 --rbg
//!   /work/base/rbg`, main at 8d4795c, load 2-3): ticTacToe 0.63,
//!   connect4 0.66, breakthrough 0.66, chess 0.73, reversi 0.88,
//!   englishDraughts 0.67, hex 0.84, geomean 0.72. Where tic-tac-toe's
//!   time goes (`perf record -e cpu-clock`, `batch_bench 3 256 1 batch
//!   fused`, 147 ns per state against the playouts' 103 in the same
//!   process): the engine (generated code 46%, its Rust glue ~15%) ~88
//!   ns, within ~5% of the playouts' engine time per state; the batch's
//!   own code ~36% (step loop 23%, `play` 5%, `settle` 2.5%, `end_game`,
//!   `memset`, `memcpy` ~5%), ~53-59 ns. 0.8 needs the own part at ~41
//!   ns: a third of it gone. A sixth of the step loop's samples sit on
//!   the mask's first store after its `memset` (as in sessions 22-33),
//!   a tenth on the variables' division. `rbg bench` itself spends ~5%
//!   of its time in `clock_gettime` (vdso).
//! - Tried and dropped (session 34): a turn start of games whose keeper
//!   puts pieces away (connect4, reversi) patched by reading the planes
//!   instead of writing them whole: eight vertices at a time, each
//!   vertex's piece plane gathered (`_mm256_i32gather_ps` at
//!   `piece * nv + v`) and compared with 1, the columns that differ rewritten (exact
//!   for any board the row shows, one-hot planes; no copy of the board,
//!   no engine report). Callgrind batch instructions (`batch_bench GAME
//!   0 64 1 batch fused`) connect4 143.71M -> 145.61M (+1.3%: ~20
//!   instructions per eight vertices against the whole write's ~7 per
//!   eight values and plane), reversi +1.6%, ticTacToe +0.6% (code moved);
//!   time (two binaries, 8 ABBA pairs, `0.7 256 1 batch fused`, load 4)
//!   connect4 new/old median 0.85 (best/best 0.83): the gathers are slow
//!   here. With the move plane folded into the planes' loop as a zero
//!   plane (no `memset` call) the loop's control per plane (~50
//!   instructions for connect4's 42 vertices) costs what the `memset`
//!   saves: not built. `#[inline(always)]` on `Decision::play`: batch
//!   instructions ticTacToe +0.42%, connect4 +0.40%, breakthrough +0.11%.
//! - Upper bound of the outputs on the single-action games (session 34,
//!   a test hack: with `ab` on, a step writes no observation and no mask
//!   and takes every turn start's keys as distinct, which they are on
//!   these games; one process, `batch_bench GAME 0.3 256 12 fused ab`,
//!   load 6): on/off median ticTacToe 1.174 (best/best 1.174), connect4
//!   1.248 (1.223); against playouts (`2 256 1 fused [on]`, alternated,
//!   noisy) ticTacToe 0.80-0.86 without outputs against 0.60-0.63 with,
//!   hex 0.87-0.91 against 0.77-0.80. So even a batch writing nothing
//!   reaches only about 0.8 on tic-tac-toe: the observation and mask are a
//!   sixth of its time, and the decision's and step loop's own work
//!   (draw, `play`, `settle`, restarts, control: ~35 ns per state) must
//!   shrink too.
//! - Session 35: steps where every candidate takes an action of its own
//!   ([`Decision::single_action`](crate::Decision::single_action): the keys
//!   found pairwise distinct by the last mask write; every turn start of
//!   tic-tac-toe, connect4, hex and reversi, and the last choice of most
//!   moves of breakthrough, draughts and chess) take a path of their own,
//!   [`Decision::play_single`](crate::Decision::play_single): the candidate's
//!   move played straight (no `apply_candidate` / `apply_taken_by` tests),
//!   the next turn listed by the engine and settled only where its keys do
//!   not settle it already (engine-listed, two moves or more, the first two
//!   different: `settle` would do nothing else), and the step loop's tail
//!   told that a player is on move (no chance drawn, no end, the turn
//!   start's patch). Shared with the general path: `Decision::play_move`
//!   and `list_turn` (which `play` and `start_turn` are made of), the
//!   random draw (the same `gen_range` over the candidates: the stream of
//!   draws and every output are unchanged), the observation and mask
//!   writes. `Batch::single_path(false)` turns it off; the test
//!   `single_action_steps_equal_the_general_path` compares the two on the
//!   seven games (keyed native and interpreted; it fails with the keys'
//!   test flipped). Digests identical to main on the seven games.
//!   Callgrind batch instructions (`batch_bench GAME 0 64 1 batch fused`,
//!   chess 16 games) against main 5456932: ticTacToe 93,806,560 ->
//!   88,509,845 (-5.65%), connect4 143,837,520 -> 138,287,329 (-3.86%),
//!   hex -1.35%, englishDraughts -0.95%, reversi -0.69%, breakthrough
//!   -0.47%, chess -0.06%. A first version for turn starts only (keys
//!   distinct and no action taken) gave ticTacToe -3.7%, connect4 -2.6%,
//!   hex -0.95%: the last choices of two-action moves gain too. Time (one
//!   process, `ab` on the path, 20 ABBA pairs of 0.3 s, 256 games, load
//!   7-8) on/off median ticTacToe 1.026 (best/best 1.027), connect4 1.071
//!   (1.014), hex 1.016 (1.020), breakthrough 0.999 (1.002); two binaries
//!   alternated (8 pairs of 0.7 s, load 8) new/main ticTacToe 0.995,
//!   connect4 0.988, hex 0.959 (noise at this load).
//!   `scripts/vec-vs-bench.py --fused --seconds 2 --rounds 3 --rbg
//!   /work/base/rbg`, the Python package of main and of this change
//!   alternated game by game, two passes (main first, then this first),
//!   load 5-8: ticTacToe 0.70/0.65 -> 0.71/0.70, connect4 0.58/0.74 ->
//!   0.67/0.66, breakthrough 0.69/0.74 -> 0.67/0.70, hex 0.79/0.81 ->
//!   0.82/0.86, chess 0.65/0.55 -> 0.66/0.67, reversi 0.89/0.85 ->
//!   0.90/0.83, englishDraughts 0.60/0.61 -> 0.57/0.62 (the table moves
//!   by ±0.1 per game between runs). Where tic-tac-toe stands with it
//!   (callgrind, per state): batch ~1,383 instructions against the
//!   playouts' ~999, the engine's ~830 (its Rust glue ~230 of them, the
//!   same as in playouts); the batch's own ~550: the step loop's inlined
//!   code ~400 (the turn-start patch and values ~55, the random draw ~45,
//!   slicing and bounds ~90, the mask ~45 with its `memset`), restarts
//!   ~60 (`end_game`, a clone of the initial decision once in ~7.6
//!   states), `play_single`'s bookkeeping (`last`, the turn, the lists'
//!   clears) ~40. So the structural path takes out what `settle`, the
//!   candidates' tests and the general tail cost (~80 instructions per
//!   state on tic-tac-toe), and what is left is the outputs and the
//!   loop's own work, about what session 34's upper bound without outputs
//!   (0.80-0.86) said: 0.8 on tic-tac-toe needs ~130 more instructions per
//!   state gone from work every step must do (draw, rows, restarts).
//!   Tried and dropped: `play_single` out of line (`#[inline(never)]`,
//!   so that the step loop stays as it was): batch instructions ticTacToe
//!   88.51M -> 90.40M (+2.1%), connect4 +1.4%, hex +0.5%, breakthrough
//!   +0.4% against it inlined.
//! - Session 36, whether the table compares like with like: both sides
//!   play the same engine (rbg-jit's native code; the `VecEnv`'s walk is
//!   its keyed copy) and count a state per player move; `rbg bench`'s
//!   `play_random` is the trait's default (every move listed, then one
//!   applied: no shortcut the batch could not take), and callgrind counts
//!   the same work on both (`rbg bench ticTacToe --playouts 8400` ~1,020
//!   instructions per state, `batch_bench`'s `playouts_for` 999). `rbg
//!   bench` times its loop by the thread's processor time and drops its
//!   last, unfinished playout (its time counted, its states not: a point
//!   in the batch's favour); the `VecEnv` times its loop by the process's,
//!   and with one thread it runs no pool. So the table is fair; what it
//!   does not hold still is the machine: `rbg bench ticTacToe --seconds
//!   2` read 6.2M to 9.7M states per processor second in runs minutes
//!   apart (load 3-6), and two passes of the table in a row read hex
//!   0.64 and 0.86. Engine work shared by both sides cannot help the
//!   ratio: taking `x` off both, `(P - x) / (B - x)` is below `P / B`
//!   while the batch costs more; only the batch's own work counts.
//! - Where the single-action path of tic-tac-toe stands (session 36,
//!   callgrind `--dump-instr=yes`, `batch_bench GAME 0 64 1 fused`, per
//!   state): batch 1,383 instructions against 999, the engine ~850 of
//!   them (its generated code ~583, its Rust glue ~265: `Reasoner::apply`
//!   70, `keeper_move` 56, `apply_raw` 51, `legal_moves_keyed` 88, as in
//!   playouts), the inlined step loop ~433, restarts ~60 (`end_game`, ~357
//!   per restart). Read off the step loop's assembly: the random draw ~25
//!   (a rejection in 4 of 10 draws for 9 moves, as in playouts), the
//!   candidate's action and the `taken` write ~10, `play_move`'s glue
//!   around the engine's `apply` ~35 (`last` ~20), `list_turn` ~40, the
//!   turn start's patch ~70 (three planes' column, the variables' division
//!   loop ~20, the player on move), the mask ~55 (a `memset` call for ten
//!   bytes, then 7.5 instructions per key), the rows' slicing and bounds
//!   ~30. Each item is about the few instructions its work needs; a kernel
//!   of its own for single-action steps would save the path's tests (~20-30
//!   per state, 2%), not the ~130 that 0.8 needs. Elsewhere (same runs):
//!   breakthrough 6,784 against 5,365 instructions per state (0.79; the
//!   step loop ~1,006, of which the mask's keys ~200: 27 per state),
//!   englishDraughts 4,340 against 3,176 (0.73; the step loop ~768, spread
//!   over planes, patches and masks), connect4 2,161 against 1,517 (0.70;
//!   the planes written whole at every turn start ~175).
//! - Tried and dropped (session 36): connect4's and reversi's turn starts
//!   patched from a copy of the board each game's row shows (kept per game,
//!   emptied whenever the row is written otherwise; a parameter of
//!   `Spec::patch_turn_start`), the columns of the vertices where the new
//!   board differs found eight at a time with AVX2 (no copy before each
//!   action, unlike sessions 26 and 30), out of line. Digests of the
//!   frames equal (`reused_frames_equal_fresh_ones` and the suite tests
//!   pass). Callgrind batch instructions (`batch_bench GAME 0 64 1 batch
//!   fused`) connect4 138.29M -> 134.47M (-2.76%; the patch ~150 per state
//!   against ~220 for the planes, the move plane's `memset` and the
//!   observation's glue), reversi 777.72M -> 781.55M (+0.49%: its flips
//!   change several vertices, and its 64-vertex planes are the compiler's
//!   cheap loop), ticTacToe +0.26%; time (one process, `ab` on = the whole
//!   write, 256 games, 0.3 s pairs, load 7-8) connect4 on/off median 1.035
//!   and 1.025 (best/best 1.050, 1.052): slower, as the snapshots were;
//!   reversi 0.983. The copy's reads (three cold lines per connect4 game)
//!   cost more than the planes' writes, which only store. A first version comparing four vertices at a time through
//!   checked slices cost more than the whole write (connect4 +1.6%).
//! - Where the bar stands (session 36, `scripts/vec-vs-bench.py`
//!   `--fused --seconds 2 --rounds 3 --rbg /work/base/rbg`, main's package at
//!   5d4e544, two passes in a row, load 7-8): ticTacToe 0.72/0.78,
//!   connect4 0.70/0.68, breakthrough 0.61/0.65, hex 0.64/0.86, chess
//!   0.65/0.63, reversi 0.95/0.90, englishDraughts 0.72/0.61, geomean
//!   0.71/0.72.
