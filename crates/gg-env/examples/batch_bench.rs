//! States per second of a [`Batch`] stepped with random actions next to
//! flat Monte Carlo playouts ([`Playouts`], what `rbg bench` runs), in one
//! process on one thread, alternating, per second of the thread's
//! processor time (fair on a busy machine); for profiling the batch without
//! Python (`scripts/vec-vs-bench.py` compares the Python `VecEnv`).
//!
//! `cargo run --release -p gg-env --example batch_bench -- GAME [SECONDS] [ENVS] [ROUNDS] [batch] [fused] [interp] [plain] [interleaved] [digest] [rows] [ab] [on]`
//! (`batch`: the batch alone, for profiles; `fused`: stepped by
//! `step_random_into`, as `VecEnv.step_random()` does; `interp`: both
//! played by the interpreter instead of the default engine; `plain`:
//! native code without keys ([`gg_env::keyed`], which the Python package
//! uses);
//! `interleaved`: also `ENVS` random playouts stepped round robin, a move
//! of each in turn, with the engine alone (no actions, observations or
//! masks): the rate the batch's engine calls allow, see [`interleaved`];
//! `digest`: no timing, a hash of every output of `ROUNDS` x 1000 steps
//! (seeds 0..), both ways of stepping, for comparing two builds' outputs;
//! `rows`: whether writing the frame's rows between engine calls slows
//! the engine, see [`rows_between`]; with `--features ab`: `ab`, the batch
//! timed with `gg_env::batch::ab()` off and on in turn, `ROUNDS` pairs, see
//! `ab`; `on`, the other modes with it on, e.g. for callgrind or `digest`).
//!
//! The batch is warmed up first until its games have ended once on
//! average (300 steps when `SECONDS` = 0). With `SECONDS` = 0 it runs a fixed amount of work instead (1000 steps of
//! the batch, then as many playout states as the batch made), for
//! instruction counts under `valgrind --tool=callgrind` (the measured loops
//! are the functions `batch_steps` and `playouts_for`).

use std::time::Instant;

use gg_core::playout::Playouts;
use gg_core::{Game, MoveList, Reasoner, Turn};
use gg_env::{Batch, Frame, Spec};
use gg_games::{with_game, AnyGame, Language};
use jit_support::cpu_time;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: batch_bench GAME [SECONDS] [ENVS] [ROUNDS]");
        std::process::exit(2);
    };
    let num = |i: usize, d: f64| args.get(i).map_or(d, |s| s.parse().expect("a number"));
    let (seconds, envs, rounds) = (num(2, 2.0), num(3, 256.0) as usize, num(4, 3.0) as usize);
    let bytes = std::fs::read(path).expect("readable game");
    let game = AnyGame::from_text(Language::of_path(path), path, &bytes).expect("valid game");
    let flag = |f: &str| args[5.min(args.len())..].iter().any(|a| a == f);
    let engine = flag("interp").then_some(rbg_jit::Engine::Interp);
    let (game, note) = rbg_cli::cmd::with_engine(path, game, engine).expect("an engine");
    if let Some(note) = note {
        eprintln!("{note}");
    }
    // Native RBG code keyed, as the Python package loads it (`plain`: not).
    let game = match game {
        AnyGame::Rbg(g) if g.engine_name() == "native" && !flag("plain") => {
            AnyGame::Rbg(gg_env::keyed(&g).expect("keyed native code"))
        }
        g => g,
    };
    let (only_batch, fused, inter) = (flag("batch"), flag("fused"), flag("interleaved"));
    if flag("rows") {
        with_game!(&game, g => rows_between(g, envs, rounds));
        return;
    }
    if flag("ab") {
        #[cfg(feature = "ab")]
        with_game!(&game, g => ab(g, seconds, envs, rounds, fused));
        #[cfg(not(feature = "ab"))]
        eprintln!("ab: build with --features ab");
        return;
    }
    #[cfg(feature = "ab")]
    if flag("on") {
        gg_env::batch::AB.store(true, std::sync::atomic::Ordering::Relaxed);
    }
    if flag("digest") {
        with_game!(&game, g => digest(g, envs, rounds));
        return;
    }
    let how = How {
        only_batch,
        fused,
        inter,
    };
    with_game!(&game, g => run(g, seconds, envs, rounds, how));
}

/// Prints a hash of every frame and action of `rounds` runs of 1000 steps,
/// stepped by `step_random_into` and by `step_into` in turn, into two
/// frames used in turn.
fn digest<G: Spec>(g: &G, envs: usize, rounds: usize) {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for round in 0..rounds.max(1) {
        let mut b = Batch::new(g, envs, round as u64, 1).expect("batch");
        let mut frames = [Frame::default(), Frame::default()];
        b.reset_into(&mut frames[0]).expect("reset");
        for step in 0..1000 {
            let f = &mut frames[(step / 3) % 2];
            let acts = if step % 2 == 0 {
                b.step_random_into(f).expect("step")
            } else {
                let a = b.random_actions();
                b.step_into(&a, f).expect("step");
                a
            };
            acts.hash(&mut h);
            f.obs.iter().for_each(|x| x.to_bits().hash(&mut h));
            (&f.masks, &f.dones, &f.players).hash(&mut h);
            f.rewards.iter().for_each(|x| x.to_bits().hash(&mut h));
        }
        b.counts().hash(&mut h);
    }
    println!("digest {:016x}", h.finish());
}

/// What `run` measures.
#[derive(Clone, Copy)]
struct How {
    /// The batch alone.
    only_batch: bool,
    /// The batch stepped by `step_random_into`.
    fused: bool,
    /// Interleaved playouts too.
    inter: bool,
}

/// States per second of the batch, then of playouts (and of interleaved
/// playouts), `rounds` times.
fn run<G: Spec>(g: &G, seconds: f64, envs: usize, rounds: usize, how: How) {
    let How {
        only_batch,
        fused,
        inter,
    } = how;
    for round in 0..rounds.max(1) {
        let mut b = Batch::new(g, envs, round as u64, 1).expect("batch");
        // One frame reused, as the Python `VecEnv` reuses its buffers.
        let mut f = Frame::default();
        b.reset_into(&mut f).expect("reset");
        // Warm up until every game has ended once on average, so that the
        // games are spread over their lengths as in a long run (playouts
        // measure whole games; starts of games can cost more or less).
        // With `SECONDS` = 0 (counting instructions) a fixed 300 steps, so
        // that runs of two builds count the same work.
        let warm = Instant::now();
        let mut warm_steps = 0;
        while if seconds > 0.0 {
            b.counts().1 < envs as u64 && warm.elapsed().as_secs_f64() < 30.0
        } else {
            warm_steps < 300
        } {
            warm_steps += 1;
            let a = b.random_actions();
            b.step_into(&a, &mut f).expect("step");
        }
        let (states0, _) = b.counts();
        let start = cpu_time();
        let steps = batch_steps(&mut b, &mut f, seconds, fused);
        let batch_secs = (cpu_time() - start).as_secs_f64();
        let states = b.counts().0 - states0;
        if only_batch {
            println!(
                "batch {:.0} states/s ({states} states)",
                states as f64 / batch_secs
            );
            continue;
        }
        let mut p = Playouts::new(g, round as u64 + 1).expect("playouts");
        let start = cpu_time();
        playouts_for(&mut p, seconds, states);
        let play_secs = (cpu_time() - start).as_secs_f64();
        let (b_rate, p_rate) = (
            states as f64 / batch_secs,
            p.stats.states as f64 / play_secs,
        );
        println!(
            "batch {b_rate:.0} states/s ({:.2} actions per state, {states} states), playouts {p_rate:.0} states/s ({} states), ratio {:.2}",
            (steps * envs) as f64 / states as f64,
            p.stats.states,
            b_rate / p_rate
        );
        if inter {
            let start = cpu_time();
            let i_states = interleaved(g, envs, round as u64 + 1, seconds, states);
            let i_rate = i_states as f64 / (cpu_time() - start).as_secs_f64();
            println!(
                "  interleaved playouts {i_rate:.0} states/s ({i_states} states): over playouts {:.2}, batch over them {:.2}",
                i_rate / p_rate,
                b_rate / i_rate
            );
        }
    }
}

/// Random playouts of `envs` games stepped round robin, one move of each
/// game in turn (as a batch steps its games), by the engine alone, for
/// `seconds` (or until `states` states when 0); the number of states (player
/// moves). The engine runs slower this way than one playout at a time
/// (256 games: chess about 0.8, breakthrough 0.93, others 0.91-1.04):
/// consecutive calls walk unrelated boards, where a playout's next board
/// differs by one move (`gg_env::batch`'s performance notes).
#[inline(never)]
fn interleaved<G: Game>(g: &G, envs: usize, seed: u64, seconds: f64, states: u64) -> u64 {
    use rand::SeedableRng;
    let mut r = g.reasoner();
    let initial = g.initial_state().expect("initial state");
    let mut games: Vec<(G::State, MoveList<G::Atom>, rand::rngs::SmallRng)> = (0..envs.max(1))
        .map(|i| {
            let rng = rand::rngs::SmallRng::seed_from_u64(seed.wrapping_add(i as u64));
            (initial.clone(), MoveList::default(), rng)
        })
        .collect();
    let (start, mut done) = (Instant::now(), 0u64);
    while if seconds > 0.0 {
        start.elapsed().as_secs_f64() < seconds
    } else {
        done < states
    } {
        for (s, moves, rng) in &mut games {
            let turn = g.turn(s);
            if turn == Turn::Over {
                s.clone_from(&initial);
                continue;
            }
            if r.play_random(s, moves, rng).expect("playout") == 0 {
                s.clone_from(&initial);
            } else if turn != Turn::Chance {
                done += 1;
            }
        }
    }
    done
}

/// The measured steps of the batch (`SECONDS`, or 1000 steps when 0): the
/// number of steps. Not inlined, so that callgrind can count it alone
/// (`--toggle-collect='*batch_steps*'`).
#[inline(never)]
fn batch_steps<G: Spec>(b: &mut Batch<G>, f: &mut Frame, seconds: f64, fused: bool) -> usize {
    let start = Instant::now();
    let mut steps = 0;
    while if seconds > 0.0 {
        start.elapsed().as_secs_f64() < seconds
    } else {
        steps < 1000
    } {
        if fused {
            b.step_random_into(f).expect("step");
        } else {
            let a = b.random_actions();
            b.step_into(&a, f).expect("step");
        }
        steps += 1;
    }
    steps
}

/// The measured playouts: for `seconds`, or (when 0) until `states` states
/// (`--toggle-collect='*playouts_for*'`).
#[inline(never)]
fn playouts_for<G: Spec>(p: &mut Playouts<G>, seconds: f64, states: u64) {
    let start = Instant::now();
    while if seconds > 0.0 {
        start.elapsed().as_secs_f64() < seconds
    } else {
        p.stats.states < states
    } {
        p.run_one().expect("playout");
    }
}

/// Whether writing the frame between engine calls slows the engine:
/// `envs` random playouts stepped round robin (as [`interleaved`]) with
/// each game's observation and mask rows written after its move (a fill,
/// as many bytes as the batch writes), the same playouts without the
/// writes, and the writes alone, alternated in blocks of 10 calls per game
/// (60 blocks each, after 300 calls per game). Prints the time per call of
/// each and (both - writes) / playouts: above 1 when the writes slow the
/// engine (its data evicted from the caches).
fn rows_between<G: Spec>(g: &G, envs: usize, rounds: usize) {
    use rand::SeedableRng;
    type Playout<G> = (
        <G as Game>::State,
        MoveList<<G as Game>::Atom>,
        rand::rngs::SmallRng,
    );
    let b = Batch::new(g, envs, 1, 1).expect("batch");
    let (obs_len, acts) = (b.obs_len(), b.num_actions());
    let (mut obs, mut masks) = (vec![0f32; envs * obs_len], vec![false; envs * acts]);
    let initial = g.initial_state().expect("initial state");
    let mut r = g.reasoner();
    for round in 0..rounds.max(1) {
        let mut games: Vec<Playout<G>> = (0..envs.max(1))
            .map(|i| {
                let rng = rand::rngs::SmallRng::seed_from_u64((round * envs + i) as u64);
                (initial.clone(), MoveList::default(), rng)
            })
            .collect();
        let mut x = 0.0f32;
        // Mode 0: playouts; 1: playouts and writes; 2: writes.
        let mut run = |mode: usize, calls: usize, games: &mut [Playout<G>]| {
            let mut done = 0;
            while done < calls {
                for (i, (s, moves, rng)) in games.iter_mut().enumerate() {
                    done += 1;
                    if mode != 2
                        && (g.turn(s) == Turn::Over
                            || r.play_random(s, moves, rng).expect("playout") == 0)
                    {
                        s.clone_from(&initial);
                    }
                    if mode != 0 {
                        x += 1.0;
                        obs[i * obs_len..(i + 1) * obs_len].fill(x);
                        masks[i * acts..(i + 1) * acts].fill((x as u32) & 1 == 0);
                    }
                }
            }
            std::hint::black_box((&obs, &masks));
        };
        run(0, 300 * envs, &mut games);
        let (calls, blocks) = (10 * envs, 60);
        let mut times = [0.0; 3];
        for k in 0..blocks {
            for j in 0..3 {
                let mode = if k % 2 == 0 { j } else { 2 - j };
                let start = cpu_time();
                run(mode, calls, &mut games);
                times[mode] += (cpu_time() - start).as_secs_f64();
            }
        }
        let ns = |t: f64| t / (calls * blocks) as f64 * 1e9;
        let [alone, both, writes] = times;
        println!(
            "playouts {:.0} ns per call, writes {:.0}, both {:.0}: (both - writes) / playouts {:.3}",
            ns(alone),
            ns(writes),
            ns(both),
            (both - writes) / alone
        );
    }
}

/// In-process A/B (feature `ab`): the batch (fused or not) stepped for
/// `seconds` of CPU time with `gg_env::batch::AB` off and on in turn
/// (ABBA), `rounds` pairs, after its games have ended once on average;
/// prints the median of the pairs' on/off rate ratios, best/best, the
/// extremes and the best rate off.
#[cfg(feature = "ab")]
fn ab<G: Spec>(g: &G, seconds: f64, envs: usize, rounds: usize, fused: bool) {
    use std::sync::atomic::Ordering;
    let mut b = Batch::new(g, envs, 1, 1).expect("batch");
    let mut f = Frame::default();
    b.reset_into(&mut f).expect("reset");
    while b.counts().1 < envs as u64 {
        b.step_random_into(&mut f).expect("step");
    }
    let rate = |on: bool, b: &mut Batch<G>, f: &mut Frame| {
        gg_env::batch::AB.store(on, Ordering::Relaxed);
        let (s0, _) = b.counts();
        let start = cpu_time();
        while (cpu_time() - start).as_secs_f64() < seconds {
            for _ in 0..10 {
                if fused {
                    b.step_random_into(f).expect("step");
                } else {
                    let a = b.random_actions();
                    b.step_into(&a, f).expect("step");
                }
            }
        }
        (b.counts().0 - s0) as f64 / (cpu_time() - start).as_secs_f64()
    };
    let (mut ratios, mut best) = (Vec::new(), [0.0f64; 2]);
    for k in 0..rounds.max(1) {
        let order = if k % 2 == 0 {
            [false, true]
        } else {
            [true, false]
        };
        let mut r = [0.0; 2];
        for on in order {
            r[on as usize] = rate(on, &mut b, &mut f);
            best[on as usize] = best[on as usize].max(r[on as usize]);
        }
        ratios.push(r[1] / r[0]);
    }
    ratios.sort_by(|a, b| a.total_cmp(b));
    println!(
        "on/off median {:.3} best/best {:.3} (min {:.3} max {:.3}; off best {:.0} states/s)",
        ratios[ratios.len() / 2],
        best[1] / best[0],
        ratios[0],
        ratios[ratios.len() - 1],
        best[0]
    );
}
