#!/usr/bin/env python3
"""RG engine speed against the reference RG interpreter (issue 13, item 5).

  scripts/rg-speed.py [--rbg PATH] [--seconds S] [--rounds R] [GAME...]

Runs `rbg bench GAME --json` R times per game (games taking turns, round by
round) and takes the median of the playouts per CPU second that bench
reports (processor time of its playout loop: fair on a busy machine). The
reference interpreter's rates (playouts per CPU second on this kind of
machine, the upper end of the ranges given in the issue) are matched by the
game's name; the goal is 20x. Default games: every `.rg` and `.hrg` of
../shared/rg/examples, and our HRG versions of the games the issue names.
Prints a markdown table.
"""
import argparse, glob, os, statistics

from benchlib import RBG, ROOT, bench_or_exit

# Upper ends of the reference interpreter's rates (playouts per CPU second).
REFERENCE = {"tictactoe": 30000, "connect4": 9500, "breakthrough": 400, "reversi": 270, "chess": 6}


def reference_of(game):
    stem = os.path.splitext(os.path.basename(game))[0].lower()
    return REFERENCE.get(stem)


def main():
    root = ROOT
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("games", nargs="*")
    p.add_argument("--rbg", default=RBG)
    p.add_argument("--seconds", type=float, default=5)
    p.add_argument("--rounds", type=int, default=3)
    a = p.parse_args()
    games = a.games or (sorted(glob.glob(os.path.join(root, "../shared/rg/examples/*.rg")))
                        + sorted(glob.glob(os.path.join(root, "../shared/rg/examples/*.hrg")))
                        + [os.path.join(root, "games/hrg", g + ".hrg")
                           for g in ["ticTacToe", "connect4", "breakthrough", "reversi", "chess"]])
    rates = {g: [] for g in games}
    for r in range(a.rounds):
        for g in games:
            j = bench_or_exit(a.rbg, g, a.seconds, r + 1)
            rates[g].append(j["playouts_per_cpu_s"])
    print("| game | playouts per CPU s (median) | range | reference (upper) | ours / reference |")
    print("|---|---:|---:|---:|---:|")
    for g in games:
        med = statistics.median(rates[g])
        ref = reference_of(g)
        ratio = f"{med / ref:.1f}x" if ref else "-"
        name = os.path.relpath(os.path.normpath(g), root)
        print(f"| {name} | {med:,.0f} | {min(rates[g]):,.0f}-{max(rates[g]):,.0f} | "
              f"{ref if ref else '-'} | {ratio} |")


if __name__ == "__main__":
    main()
