"""A small policy-gradient learner (numpy only) against random play.

A one-hidden-layer network maps the observation tensor to action logits
(illegal actions masked out); REINFORCE with a running baseline trains it on
batches of games stepped by ``rbg.VecEnv``, playing either side against
uniformly random moves. Prints the learner's results against random play
before and after training.

    python examples/learn_tictactoe.py --seconds 60
"""

import argparse
import pathlib
import time

import numpy as np

import rbg

DEFAULT = pathlib.Path(__file__).resolve().parents[1] / "games" / "ticTacToe.rbg"


class Policy:
    """Masked softmax policy: tanh hidden layer, Adam updates."""

    def __init__(self, n_in, n_out, hidden, rng):
        """Random weights for ``n_in`` inputs and ``n_out`` actions."""
        self.p = {
            "w1": rng.normal(0, 1 / np.sqrt(n_in), (n_in, hidden)),
            "b1": np.zeros(hidden),
            "w2": rng.normal(0, 0.01, (hidden, n_out)),
            "b2": np.zeros(n_out),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    def forward(self, obs, masks):
        """Hidden activations and action probabilities."""
        h = np.tanh(obs @ self.p["w1"] + self.p["b1"])
        logits = h @ self.p["w2"] + self.p["b2"]
        logits = np.where(masks, logits, -1e9)
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits) * masks
        return h, e / e.sum(axis=1, keepdims=True)

    def act(self, obs, masks, rng, greedy=False):
        """One action per row."""
        _, probs = self.forward(obs, masks)
        if greedy:
            return probs.argmax(axis=1)
        u = rng.random((len(probs), 1))
        return (probs.cumsum(axis=1) < u).sum(axis=1).clip(0, probs.shape[1] - 1)

    def update(self, obs, masks, actions, advantages, lr=0.01):
        """One Adam step on -advantage * log pi(action)."""
        h, probs = self.forward(obs, masks)
        g_logits = probs.copy()
        g_logits[np.arange(len(actions)), actions] -= 1.0
        g_logits *= advantages[:, None] / len(actions)
        g_h = (g_logits @ self.p["w2"].T) * (1 - h**2)
        grads = {
            "w2": h.T @ g_logits,
            "b2": g_logits.sum(axis=0),
            "w1": obs.T @ g_h,
            "b1": g_h.sum(axis=0),
        }
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g**2
            mh = self.m[k] / (1 - 0.9**self.t)
            vh = self.v[k] / (1 - 0.999**self.t)
            self.p[k] -= lr * mh / (np.sqrt(vh) + 1e-8)


def evaluate(path, policy, games, seed):
    """Wins, draws and losses of the greedy policy against random play, half
    the games as each side."""
    env = rbg.VecEnv(path, games, seed=seed, threads=1)
    seat = np.arange(games) % 2
    obs, masks = env.reset()
    rng = np.random.default_rng(seed)
    result = np.full(games, -1.0)
    while (result < 0).any():
        players = env.current_players()
        acts = env.random_actions()
        mine = players == seat
        if mine.any():
            acts[mine] = policy.act(obs[mine], masks[mine], rng, greedy=True)
        obs, masks, rewards, dones = env.step(acts)
        for i in np.flatnonzero(dones & (result < 0)):
            result[i] = rewards[i, seat[i]]
    return (result == 1).mean(), (result == 0.5).mean(), (result == 0).mean()


def train(path, seconds=None, batch=256, seed=0, updates=None):
    """Trains until ``seconds`` have passed or ``updates`` updates are done
    (whichever comes first; with only ``updates`` the result depends on
    ``seed`` alone); returns the policy and the games played."""
    if seconds is None and updates is None:
        raise ValueError("give seconds or updates")
    rng = np.random.default_rng(seed)
    env = rbg.VecEnv(path, batch, seed=seed, threads=1)
    game = rbg.load_game(path)
    policy = Policy(game.observation_tensor_size(), game.num_distinct_actions(), 64, rng)
    seat = np.arange(batch) % 2
    obs, masks = env.reset()
    traj = [[] for _ in range(batch)]
    buf_obs, buf_masks, buf_acts, buf_ret = [], [], [], []
    baseline, games, done = 0.0, 0, 0
    start = time.perf_counter()
    while (seconds is None or time.perf_counter() - start < seconds) and (
        updates is None or done < updates
    ):
        players = env.current_players()
        acts = env.random_actions()
        mine = np.flatnonzero(players == seat)
        if len(mine):
            chosen = policy.act(obs[mine], masks[mine], rng)
            acts[mine] = chosen
            for i, a in zip(mine, chosen):
                traj[i].append((obs[i], masks[i], a))
        obs, masks, rewards, dones = env.step(acts)
        for i in np.flatnonzero(dones):
            ret = 2.0 * rewards[i, seat[i]] - 1.0  # win 1, draw 0, loss -1
            for o, m, a in traj[i]:
                buf_obs.append(o)
                buf_masks.append(m)
                buf_acts.append(a)
                buf_ret.append(ret)
            traj[i] = []
            games += 1
        if len(buf_acts) >= 2048:
            ret = np.array(buf_ret)
            baseline = 0.9 * baseline + 0.1 * ret.mean()
            policy.update(
                np.array(buf_obs), np.array(buf_masks), np.array(buf_acts), ret - baseline
            )
            buf_obs, buf_masks, buf_acts, buf_ret = [], [], [], []
            done += 1
    return policy, games


def main():
    """Command line: evaluates, trains, evaluates again and prints both."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default=str(DEFAULT))
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--eval-games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    game = rbg.load_game(args.game)
    untrained = Policy(
        game.observation_tensor_size(), game.num_distinct_actions(), 64, np.random.default_rng(args.seed)
    )
    before = evaluate(args.game, untrained, args.eval_games, args.seed + 1)
    policy, games = train(args.game, args.seconds, args.batch, args.seed)
    after = evaluate(args.game, policy, args.eval_games, args.seed + 1)
    fmt = "wins {:.1%}, draws {:.1%}, losses {:.1%}"
    print(f"before training, against random: {fmt.format(*before)}")
    print(f"after {args.seconds:.0f} s ({games} games): {fmt.format(*after)}")
    return before, after


if __name__ == "__main__":
    main()
