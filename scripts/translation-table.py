#!/usr/bin/env python3
"""The RBG -> RG translation table over the RBG suite (issue 13, item 4-5).

    scripts/translation-table.py [--seconds S] [--rounds R] [--perft-log LOG] [--no-build] [GAME...]

For every suite game (or the GAMEs named): whether `rbg translate GAME --to rg`
succeeds and its CPU time, and the RG engine's speed on the translation relative
to the RBG engines on the original: `rbg bench` of the `.rg` and of the `.rbg`,
each with `--engine interp` and with `--engine native`, alternated R
rounds of S seconds each, rates in playouts per CPU second of the bench loop
(`playouts_per_cpu_s`, so a loaded machine does not skew the ratio).
A ratio is the rounds' total; with more than one round, the range of the
single rounds' ratios follows it in parentheses.

The perft column comes from the translation's perft test, whose output
(`--nocapture`) is LOG:
    cargo test -p rbg-to-rg --test suite -- --include-ignored --nocapture \\
        2>&1 | tee perft.log
(`RG_PERFT_MAX_SECONDS=X` leaves out the lines above X reference seconds).
Prints a markdown table.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import resource

import benchlib
from benchlib import RBG, ROOT

SUITE = os.environ.get("RBG_SUITE", os.path.join(ROOT, "..", "shared", "rbg-suite"))


def games():
    with open(os.path.join(SUITE, "perft.tsv")) as f:
        names = [line.split("\t")[0] for line in f.read().splitlines()[1:] if line]
    return list(dict.fromkeys(names))


def perft_results(log):
    """{game: [(depth, ok, ref_seconds)]} from the test's output."""
    out = {}
    if not log:
        return out
    pat = re.compile(r"^perft (\S+) depth (\d+): (\d+) leaves, expected (\d+) \(reference ([\d.]+) s\)")
    with open(log) as f:
        for line in f:
            m = pat.match(line)
            if m:
                g, d, got, want, ref = m.groups()
                out.setdefault(g, []).append((int(d), got == want, float(ref)))
    return out


def bench(engine, path, seconds):
    """(playouts, cpu seconds) of one bench run, or None with the error."""
    try:
        j = benchlib.bench(RBG, path, seconds, engine=engine, prefix=["nice"], timeout=300)
    except benchlib.BenchError as e:
        return None, str(e)
    return (j["playouts"], j["cpu_seconds"] or j["seconds"]), None


def perft_cell(rows):
    if not rows:
        return "not run"
    bad = [d for d, ok, _ in rows if not ok]
    quick = sorted(d for d, _, r in rows if r <= 2)
    slow = sorted(d for d, _, r in rows if r > 2)
    text = f"1-{max(quick)}" if quick else ""
    if slow:
        text += f" (+{','.join(map(str, slow))})"
    return ("DIFFERS at " + ",".join(map(str, bad)) + "; " if bad else "equal ") + text


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--perft-log")
    ap.add_argument("--no-build", action="store_true", help="use target/release/rbg as it is")
    ap.add_argument("games", nargs="*")
    a = ap.parse_args()
    if not a.no_build:
        subprocess.run(["nice", "cargo", "build", "--release", "-q", "-p", "rbg-cli"], cwd=ROOT, check=True)
    perft = perft_results(a.perft_log)
    tmp = tempfile.mkdtemp()
    print("| game | translates (s) | perft equal (depths) | RG/RBG interp | RG interp/RBG native | RG/RBG native | RG playouts/CPU s |")
    print("|---|---|---|---:|---:|---:|---:|")
    for g in a.games or games():
        src = os.path.join(SUITE, "games", g)
        rg = os.path.join(tmp, os.path.basename(g)[:-4] + ".rg")
        t = resource.getrusage(resource.RUSAGE_CHILDREN)
        with open(rg, "w") as out:
            p = subprocess.run(["nice", RBG, "translate", src, "--to", "rg"], stdout=out, stderr=subprocess.PIPE, text=True)
        u = resource.getrusage(resource.RUSAGE_CHILDREN)
        took = u.ru_utime + u.ru_stime - t.ru_utime - t.ru_stime
        if p.returncode != 0:
            print(f"| {g} | no: {p.stderr.strip()} | | | | | |", flush=True)
            continue
        runs = {"rg": [0, 0.0], "rg-native": [0, 0.0], "interp": [0, 0.0], "native": [0, 0.0]}
        per_round = {k: [] for k in runs}
        errors = {}
        for _ in range(a.rounds):
            for key, args, path in [
                ("rg", "interp", rg),
                ("rg-native", "native", rg),
                ("interp", "interp", src),
                ("native", "native", src),
            ]:
                if key in errors:
                    continue
                r, err = bench(args, path, a.seconds)
                if r is None:
                    errors[key] = err
                else:
                    runs[key][0] += r[0]
                    runs[key][1] += r[1]
                    per_round[key].append(r[0] / r[1] if r[1] > 0 else 0.0)
        rate = {k: (v[0] / v[1] if v[1] > 0 and v[0] > 0 else None) for k, v in runs.items()}

        def ratio(k, rg="rg"):
            if rg in errors:
                return "RG error: " + errors[rg]
            if k in errors:
                return "error: " + errors[k]
            if rate[rg] is None or rate[k] is None:
                return "no playout"
            # Each round's ratio (its two runs alternated): their range shows
            # how much one round could have decided.
            rounds = [a / b for a, b in zip(per_round[rg], per_round[k]) if b > 0]
            spread = f" ({min(rounds):.2f}-{max(rounds):.2f})" if len(rounds) > 1 else ""
            return f"{rate[rg] / rate[k]:.2f}{spread}"

        rg_rate = f"{rate['rg']:.1f}" if rate["rg"] else "-"
        cells = [ratio("interp"), ratio("native"), ratio("native", "rg-native")]
        print(f"| {g} | yes ({took:.2f}) | {perft_cell(perft.get(g))} | {' | '.join(cells)} | {rg_rate} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
