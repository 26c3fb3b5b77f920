"""What the speed scripts share: running `rbg bench --json` and summarising rounds.

Every script compares rates side by side: runs alternate between the things
compared, round by round, and rates are per CPU second (`playouts_per_cpu_s`,
the processor time of bench's playout loop), which stays fair on a busy machine.
"""
import json
import os
import resource
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
"""The repository's root."""

RBG = os.path.join(ROOT, "target", "release", "rbg")
"""The `rbg` binary the scripts use unless told otherwise."""


class BenchError(Exception):
    """`rbg bench` failed; the message is the last line of its error output."""


def bench(rbg, game, seconds, seed=None, engine=None, prefix=(), timeout=None):
    """Runs `rbg [--engine E] bench GAME --seconds S [--seed N] --json`.

    `prefix` goes before the command (e.g. `["nice"]`). Returns bench's JSON
    object with one more key, `process_cpu_s`: the CPU seconds of the whole
    process (start-up included). Raises BenchError.
    """
    argv = list(prefix) + [rbg] + (["--engine", engine] if engine else [])
    argv += ["bench", game, "--seconds", str(seconds), "--json"]
    if seed is not None:
        argv += ["--seed", str(seed)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise BenchError(f"timed out after {timeout} s: {' '.join(argv)}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        lines = out.stderr.strip().splitlines()
        raise BenchError(lines[-1] if lines else f"exit {out.returncode}: {' '.join(argv)}")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    result["process_cpu_s"] = max(cpu, 1e-3)
    return result


def bench_or_exit(*args, **kwargs):
    """`bench`, but a failure ends the script with the error."""
    try:
        return bench(*args, **kwargs)
    except BenchError as e:
        sys.exit(f"failed: {args[1]}: {e}")


def median_span(xs, fmt="{:.2f}"):
    """'median (min-max)' of a list of numbers."""
    return f"{fmt.format(statistics.median(xs))} ({fmt.format(min(xs))}-{fmt.format(max(xs))})"
