#!/usr/bin/env python3
"""VecEnv throughput next to `rbg bench`, per CPU second, in one run.

  scripts/vec-vs-bench.py [--rbg PATH] [--python PATH] [--seconds S] [--rounds R]
                          [--envs N] [--core C] [--fused] [--engine E] GAME...

For every game the two take turns (rbg bench, VecEnv, rbg bench, ...), each
in its own process on one thread (pinned to core C with --core):
`rbg [--engine E] bench GAME --seconds S --json` (flat Monte Carlo: random
playouts) and
`examples/vec_throughput.py GAME --envs N --threads 1 [--engine E] --json` (N games
stepped by `rbg.VecEnv` with random actions, driven from Python; with
`--fused`, by `VecEnv.step_random()`: the same actions drawn and applied in
one call). Both play with engine E (`native` or `interp`; by default each
with its own default, the same one: native where the host has it). Both count
states as player moves. Rates are per CPU second of the measured loops
(`rbg bench`'s `cpu_seconds`, VecEnv's loop in its process), which stays fair on a busy machine.
Prints a markdown table of the medians and their ratio (VecEnv / bench).

Per core (issue 16's bar): each side runs on one thread, so its rate per CPU
second is its rate per core (a VecEnv on more threads would be divided by
their number). Both count a state per player move, play uniformly random
moves (a random legal action per game is drawn with the probability that a
random candidate move takes it) with the same engine, and time only their
measured loops. The VecEnv's side includes what a Python user pays: the
Python loop, the call and the numpy arrays (about 1.5 us per call, 2-3% of a
256-game ticTacToe step). Left to the machine: 256 games keep far more data
in cache than one playout, so other processes sharing a core evict more of
the VecEnv's; on a loaded machine the ratio may read lower than on an idle
one (not measured here).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

import benchlib

REPO = benchlib.ROOT


def run(argv, core):
    """Runs a command; returns its last output line."""
    cmd = (["taskset", "-c", str(core)] if core is not None else []) + argv
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"failed ({out.returncode}): {' '.join(argv)}\n{out.stderr[-2000:]}")
    return out.stdout.strip().splitlines()[-1]


def bench(a, game, seed):
    """`rbg bench`: states per CPU second."""
    taskset = ["taskset", "-c", str(a.core)] if a.core is not None else []
    j = benchlib.bench_or_exit(a.rbg, game, a.seconds, seed, engine=a.engine, prefix=taskset)
    # The playouts' own CPU time: the process's would add parsing and the
    # native engine's code generation (chess: 0.2 s), which the VecEnv's
    # measured loop leaves out too.
    return j["states"] / j.get("cpu_seconds", j["process_cpu_s"])


def vecenv(a, game, seed):
    """VecEnv with random actions: states per CPU second."""
    script = os.path.join(REPO, "examples", "vec_throughput.py")
    argv = [a.python, script, game, "--envs", str(a.envs), "--threads", "1",
            "--seconds", str(a.seconds), "--seed", str(seed), "--json"]
    if a.fused:
        argv.append("--fused")
    if a.engine:
        argv += ["--engine", a.engine]
    line = run(argv, a.core)
    r = json.loads(line)
    return r["states"] / r["cpu_seconds"]


def main():
    """Command line."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="+")
    ap.add_argument("--rbg", default=benchlib.RBG)
    ap.add_argument("--python", default=sys.executable, help="a Python with the rbg package")
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--envs", type=int, default=256)
    ap.add_argument("--core", type=int, default=None)
    ap.add_argument("--fused", action="store_true", help="VecEnv.step_random() instead of step(random_actions())")
    ap.add_argument("--engine", default=None, help="both sides' engine (interp or native; default: each one's default)")
    a = ap.parse_args()
    engine = a.engine or "the default engine"
    print(f"{a.envs} envs, {a.seconds:g} s per run, {a.rounds} rounds, {engine}, median of states per CPU second\n")
    print("| game | rbg bench | VecEnv | VecEnv / bench |")
    print("|---|---:|---:|---:|")
    ratios = []
    for game in a.games:
        b, v = [], []
        for r in range(a.rounds):
            b.append(bench(a, game, r + 1))
            v.append(vecenv(a, game, r + 1))
        ratio = statistics.median(x / y for x, y in zip(v, b))
        ratios.append(ratio)
        name = os.path.basename(game)
        print(f"| {name} | {statistics.median(b):,.0f} | {statistics.median(v):,.0f} | {ratio:.2f} |", flush=True)
    geo = statistics.geometric_mean(ratios)
    print(f"\ngeometric mean of the ratios: {geo:.2f}")


if __name__ == "__main__":
    main()
