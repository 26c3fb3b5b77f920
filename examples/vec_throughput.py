"""States per second of ``rbg.VecEnv`` stepped with random actions, to put
next to ``rbg bench`` (player moves per second; one move may take several
actions).

    python examples/vec_throughput.py games/ticTacToe.rbg --envs 256 --threads 1 --seconds 10
"""

import argparse
import time

import rbg


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--envs", type=int, default=256)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    env = rbg.VecEnv(args.game, args.envs, seed=args.seed, threads=args.threads)
    env.reset()
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        for _ in range(10):
            env.step(env.random_actions())
        steps += 10
    secs = time.perf_counter() - start
    moves, games = env.counts()
    print(
        f"vecenv {args.game}: {args.envs} envs, {args.threads} thread(s): "
        f"{moves / secs:.0f} states/s ({steps * args.envs / secs:.0f} actions/s, "
        f"{games / secs:.1f} games/s)"
    )


if __name__ == "__main__":
    main()
