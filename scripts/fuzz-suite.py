#!/usr/bin/env python3
"""Mutation fuzzing of `rbg` over the suite (issue 12): mutants of the suite's
games (tokens dropped, duplicated or swapped; `*` put after actions, keeper
loops, endless games, extreme numbers) are run through check, expand, perft
and bench under a time limit, with each engine. A finding is a run that
panics (exit 101), dies of a signal (abort, stack overflow) or passes the
time limit; the mutant is saved under the output directory.

    nice python3 scripts/fuzz-suite.py --minutes 20 [--rbg target/debug/rbg]
        [--suite ../shared/rbg-suite/games] [--out /tmp/rbg-fuzz] [--seed N]
"""
import argparse
import os
import random
import re
import subprocess
import sys
import time

TOKEN = re.compile(r"->>|->|\$|[A-Za-z_][A-Za-z0-9_]*|\d+|\S")
INSERTS = ["*", "[e]*", "(->> [e])*", "(->a)*", "99999999999", "-1", "0", "^30",
           "{? [w]*}", "[$ v = v + 1]*", "(", ")", "->>", "~", "#x = [y] [z]"]


def mutate(text, rng):
    toks = [(m.start(), m.end()) for m in TOKEN.finditer(text)]
    if not toks:
        return text
    out = text
    for _ in range(rng.randint(1, 3)):
        toks = [(m.start(), m.end()) for m in TOKEN.finditer(out)]
        a, b = toks[rng.randrange(len(toks))]
        k = rng.randrange(6)
        if k == 0:  # drop a token
            out = out[:a] + out[b:]
        elif k == 1:  # duplicate a span of tokens
            c = toks[min(len(toks) - 1, toks.index((a, b)) + rng.randint(0, 6))][1]
            out = out[:c] + " " + out[a:c] + out[c:]
        elif k == 2:  # star after a token (modifiers under `*`)
            out = out[:b] + "*" + out[b:]
        elif k == 3:  # a number made extreme
            nums = [m for m in re.finditer(r"\d+", out)]
            if nums:
                m = rng.choice(nums)
                out = out[:m.start()] + rng.choice(["0", "1", "99999999999", "2147483648", "200"]) + out[m.end():]
        elif k == 4:  # an insertion
            out = out[:b] + " " + rng.choice(INSERTS) + " " + out[b:]
        else:  # swap two tokens
            c, d = toks[rng.randrange(len(toks))]
            if c > b:
                out = out[:a] + out[c:d] + out[b:c] + out[a:b] + out[d:]
    return out


def commands(path):
    return [["check", path], ["expand", path], ["perft", path, "1"],
            ["bench", path, "--seconds", "0.3", "--max-length", "2000"]]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--minutes", type=float, default=20)
    p.add_argument("--rbg", default="target/debug/rbg")
    p.add_argument("--suite", default="../shared/rbg-suite/games")
    p.add_argument("--out", default="/tmp/rbg-fuzz")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--limit", type=float, default=30, help="seconds per run")
    a = p.parse_args()
    rng = random.Random(a.seed)
    games = sorted(os.path.join(a.suite, f) for f in os.listdir(a.suite) if f.endswith(".rbg"))
    texts = [open(g).read() for g in games]
    os.makedirs(a.out, exist_ok=True)
    end = time.time() + a.minutes * 60
    mutants = runs = 0
    findings = []
    codes = {}
    while time.time() < end:
        i = rng.randrange(len(games))
        text = mutate(texts[i], rng)
        path = os.path.join(a.out, "mutant.rbg")
        with open(path, "w") as f:
            f.write(text)
        mutants += 1
        for engine in ["interp", "native"]:
            for cmd in commands(path):
                if time.time() >= end:
                    break
                runs += 1
                t = time.time()
                try:
                    r = subprocess.run([a.rbg, "--engine", engine] + cmd, capture_output=True,
                                       timeout=a.limit, stdin=subprocess.DEVNULL)
                    code = r.returncode
                    err = r.stderr.decode("utf-8", "replace")
                except subprocess.TimeoutExpired:
                    code, err = "timeout", ""
                codes[code] = codes.get(code, 0) + 1
                if code not in (0, 1, 2):
                    name = os.path.join(a.out, "finding-%d.rbg" % len(findings))
                    with open(name, "w") as f:
                        f.write(text)
                    line = "%s: rbg --engine %s %s -> %s after %.1f s (from %s)\n%s" % (
                        name, engine, " ".join(cmd[:1] + cmd[2:]), code, time.time() - t,
                        os.path.basename(games[i]), err[-400:])
                    findings.append(line)
                    print(line, flush=True)
            if text.count("#") == 0:
                break
    print("mutants %d, runs %d, exit codes %s, findings %d" % (mutants, runs, codes, len(findings)))
    sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()
