#!/usr/bin/env python3
"""Flat Monte Carlo of two game files side by side, taking turns in one run.

  scripts/side-by-side.py [--rbg PATH] [--seconds S] [--rounds R] [FIRST SECOND]...

Each pair is benched with `rbg bench --json` alternately (first, second, first, ...,
same seeds); rates are playouts per CPU second of each process (user + sys), which
stays fair on a busy machine. Prints per pair both median rates and the median
ratio second/first with its range. Without pairs: every game of both libraries,
`games/NAME.rbg` against `games/hrg/NAME.hrg`.
"""
import argparse, json, os, resource, statistics, subprocess, sys

BOTH = ["ticTacToe", "connect4", "breakthrough", "reversi", "englishDraughts", "chess", "hex"]


def rate(rbg, game, seconds, seed):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([rbg, "bench", game, "--seconds", str(seconds), "--seed", str(seed), "--json"],
                         capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        sys.exit(f"failed: {game}\n{out.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return json.loads(out.stdout.strip().splitlines()[-1])["playouts"] / max(cpu, 1e-3)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rbg", default="target/release/rbg")
    p.add_argument("--seconds", type=float, default=3)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("games", nargs="*")
    a = p.parse_args()
    games = a.games or [f for n in BOTH for f in (f"games/{n}.rbg", f"games/hrg/{n}.hrg")]
    if len(games) % 2:
        sys.exit("give the games in pairs")
    print("| first | second | first playouts/CPU s | second playouts/CPU s | second/first (range) |")
    print("|---|---|---:|---:|---:|")
    for first, second in zip(games[::2], games[1::2]):
        xs, ys = [], []
        for r in range(a.rounds):
            xs.append(rate(a.rbg, first, a.seconds, r + 1))
            ys.append(rate(a.rbg, second, a.seconds, r + 1))
        ratios = sorted(y / x for x, y in zip(xs, ys))
        print(f"| {os.path.basename(first)} | {os.path.basename(second)} | {statistics.median(xs):.0f} "
              f"| {statistics.median(ys):.0f} | {statistics.median(ratios):.2f} ({ratios[0]:.2f}–{ratios[-1]:.2f}) |",
              flush=True)


if __name__ == "__main__":
    main()
