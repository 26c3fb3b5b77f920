"""Self-play rollouts spread over a Ray cluster: each worker (a Ray actor)
owns a ``rbg.VecEnv`` and plays its games with random actions, returning
training samples (observation, action mask, action, player, final return)
for a learner to consume. On one machine it starts a local Ray instance; on a
cluster pass ``--address auto`` (or the head's address).

    pip install ray
    python examples/ray_selfplay.py games/ticTacToe.rbg --workers 2 --iterations 5
"""

import argparse
import time

import numpy as np
import ray

import rbg


@ray.remote
class RolloutWorker:
    """A batch of games on one Ray worker."""

    def __init__(self, path, envs, seed):
        """``envs`` games of ``path`` seeded by ``seed``."""
        self.env = rbg.VecEnv(path, envs, seed=seed, threads=1)
        self.obs, self.masks = self.env.reset()
        self.open = [[] for _ in range(envs)]

    def rollout(self, steps):
        """Steps every game ``steps`` times; returns the samples of the games
        that finished, each labelled with the final return of the player who
        acted, and the player moves made."""
        env = self.env
        done_samples = []
        before, _ = env.counts()
        for _ in range(steps):
            players = env.current_players()
            acts = env.random_actions()
            for i in range(len(acts)):
                self.open[i].append((self.obs[i], self.masks[i], acts[i], players[i]))
            self.obs, self.masks, rewards, dones = env.step(acts)
            for i in np.flatnonzero(dones):
                for o, m, a, p in self.open[i]:
                    done_samples.append((o, m, a, p, rewards[i, p]))
                self.open[i] = []
        after, _ = env.counts()
        if not done_samples:
            return {"samples": 0, "moves": after - before}
        obs, masks, acts, players, returns = map(np.array, zip(*done_samples))
        return {
            "samples": len(acts),
            "moves": after - before,
            "obs": obs,
            "masks": masks,
            "actions": acts,
            "players": players,
            "returns": returns,
        }


def run(path, workers=2, envs=64, iterations=3, steps=50, address=None, seed=0):
    """Runs the rollouts; returns totals (samples, moves, seconds)."""
    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    try:
        pool = [RolloutWorker.remote(path, envs, seed + 1000 * k) for k in range(workers)]
        totals = {"samples": 0, "moves": 0}
        start = time.perf_counter()
        for it in range(iterations):
            results = ray.get([w.rollout.remote(steps) for w in pool])
            for r in results:
                totals["samples"] += r["samples"]
                totals["moves"] += r["moves"]
                if r["samples"]:
                    assert r["obs"].shape[0] == r["samples"]
            print(f"iteration {it + 1}: {sum(r['samples'] for r in results)} samples")
        totals["seconds"] = time.perf_counter() - start
        return totals
    finally:
        if started:
            ray.shutdown()


def main():
    """Command line: runs the rollouts and prints the totals."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--envs", type=int, default=64)
    ap.add_argument("--iterations", type=int, default=5)
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--address", default=None)
    args = ap.parse_args()
    t = run(args.game, args.workers, args.envs, args.iterations, args.steps, args.address)
    print(
        f"{t['samples']} samples, {t['moves']} moves in {t['seconds']:.1f} s "
        f"({t['moves'] / t['seconds']:.0f} moves/s over {args.workers} workers)"
    )


if __name__ == "__main__":
    main()
