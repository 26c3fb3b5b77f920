"""States per second of ``rbg.VecEnv`` stepped with random actions, to put
next to ``rbg bench`` (``scripts/vec-vs-bench.py`` runs the two alternately).

A *state* is a player move, as ``rbg bench`` counts them; a move may take
several actions (split moves). Rates are per wall-clock second and per CPU
second of this process (all its threads). ``--fused`` steps with
``VecEnv.step_random()`` (the same random actions, drawn and applied in one
call) instead of ``step(random_actions())``. ``--engine`` chooses the engine
(``native`` or ``interp``; by default the one ``rbg.load_game`` picks).

    python examples/vec_throughput.py games/ticTacToe.rbg --envs 256 --threads 1 --seconds 10
"""

import argparse
import json
import time

import rbg


def measure(game, envs=256, threads=1, seconds=10.0, seed=1, warmup=60.0, fused=False, engine=None):
    """Steps ``envs`` games with random actions for ``seconds``; returns a
    dict of counts (``states``, ``actions``, ``games``) and the wall-clock
    and CPU seconds they took. First warms up (at most ``warmup`` seconds)
    until the games have ended once on average, so that they are spread
    over their lengths as in a long run (``rbg bench`` plays whole games;
    openings can cost more or less than the rest)."""
    env = rbg.VecEnv(game, envs, seed=seed, threads=threads, engine=engine)
    env.reset()
    step = env.step_random if fused else (lambda: env.step(env.random_actions()))
    start = time.perf_counter()
    while env.counts()[1] < envs and time.perf_counter() - start < warmup:
        step()
    moves0, games0 = env.counts()
    steps = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall0 < seconds:
        for _ in range(10):
            step()
        steps += 10
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    moves, games = env.counts()
    return {
        "states": moves - moves0,
        "actions": steps * envs,
        "games": games - games0,
        "seconds": wall,
        "cpu_seconds": cpu,
    }


def main():
    """Command line: prints the rates (or one JSON object with ``--json``)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--envs", type=int, default=256)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--fused", action="store_true", help="step with VecEnv.step_random()")
    ap.add_argument("--engine", default=None, help="native or interp (default: load_game's)")
    args = ap.parse_args()
    r = measure(args.game, args.envs, args.threads, args.seconds, args.seed, fused=args.fused, engine=args.engine)
    if args.json:
        print(json.dumps(r))
        return
    print(
        f"vecenv {args.game}: {args.envs} envs, {args.threads} thread(s): "
        f"{r['states'] / r['seconds']:.0f} states/s, "
        f"{r['states'] / r['cpu_seconds']:.0f} states per CPU second "
        f"({r['actions'] / r['seconds']:.0f} actions/s, {r['games'] / r['seconds']:.1f} games/s)"
    )


if __name__ == "__main__":
    main()
