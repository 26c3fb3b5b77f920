#!/usr/bin/env python3
"""HRG against RBG in `rbg bench`, side by side (issue 14, item 4).

  scripts/hrg-vs-rbg.py [--rbg PATH] [--seconds S] [--rounds R] [--hrg-engine E] [NAME...]

For every game in both libraries (games/NAME.rbg and games/hrg/NAME.hrg;
or the NAMEs given), each round runs the HRG version (RG engine), the RBG
version with `--engine interp` and with `--engine native`, one after the
other (the HRG version with `--hrg-engine`: `interp`, the default, or
`native`, rg-jit). Rates are playouts per CPU second of bench's playout loop (fair on a
busy machine); a round's ratio compares the runs of that round. Prints a
markdown table of the medians: HRG / RBG >= 1 means HRG is at least as fast.
"""
import argparse, glob, os, statistics

from benchlib import RBG, ROOT, bench_or_exit, median_span


def bench(rbg, game, seconds, seed, engine=None):
    return bench_or_exit(rbg, game, seconds, seed, engine)["playouts_per_cpu_s"]


def main():
    root = ROOT
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("names", nargs="*")
    p.add_argument("--rbg", default=RBG)
    p.add_argument("--seconds", type=float, default=5)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--hrg-engine", choices=["interp", "native"], default="interp")
    a = p.parse_args()
    hrg = {os.path.splitext(os.path.basename(f))[0] for f in glob.glob(os.path.join(root, "games/hrg/*.hrg"))}
    rbg = {os.path.splitext(os.path.basename(f))[0] for f in glob.glob(os.path.join(root, "games/*.rbg"))}
    names = a.names or sorted(hrg & rbg)
    rows = {n: {"hrg": [], "interp": [], "native": [], "r_interp": [], "r_native": []} for n in names}
    for r in range(a.rounds):
        for n in names:
            row = rows[n]
            h = bench(a.rbg, os.path.join(root, "games/hrg", n + ".hrg"), a.seconds, r + 1, a.hrg_engine)
            i = bench(a.rbg, os.path.join(root, "games", n + ".rbg"), a.seconds, r + 1, "interp")
            nat = bench(a.rbg, os.path.join(root, "games", n + ".rbg"), a.seconds, r + 1, "native")
            row["hrg"].append(h)
            row["interp"].append(i)
            row["native"].append(nat)
            row["r_interp"].append(h / i)
            row["r_native"].append(h / nat)
    med = statistics.median
    print("| game | HRG (RG engine) | RBG interp | RBG native | HRG / interp | HRG / native |")
    print("|---|---:|---:|---:|---:|---:|")
    for n in names:
        row = rows[n]
        print(f"| {n} | {med(row['hrg']):,.1f} | {med(row['interp']):,.1f} | {med(row['native']):,.1f} | "
              f"{median_span(row['r_interp'])} | {median_span(row['r_native'])} |")
    print(f"\nplayouts per CPU second, medians of {a.rounds} rounds of {a.seconds} s; ratios per round: median (range)")


if __name__ == "__main__":
    main()
