"""``rbg.VecEnv``: shapes, resets, determinism."""

import numpy as np

import rbg


def run(path, seed, threads, steps=80):
    env = rbg.VecEnv(path, 16, seed=seed, threads=threads)
    obs, masks = env.reset()
    out = [(obs, masks)]
    for _ in range(steps):
        obs, masks, rewards, dones = env.step(env.random_actions())
        out.append((obs, masks, rewards, dones))
    return env, out


def test_shapes_and_resets(ttt_path):
    game = rbg.load_game(ttt_path)
    env, frames = run(ttt_path, 1, 1)
    obs, masks = frames[0]
    assert obs.shape == (16, game.observation_tensor_size()) and obs.dtype == np.float32
    assert masks.shape == (16, game.num_distinct_actions()) and masks.dtype == np.bool_
    total_dones = 0
    for obs, masks, rewards, dones in frames[1:]:
        assert rewards.shape == (16, 2) and dones.shape == (16,)
        assert masks.any(axis=1).all()  # finished games restart at once
        for i in np.flatnonzero(dones):
            assert rewards[i].sum() == np.float32(1.0)
        assert not rewards[~dones].any()
        total_dones += dones.sum()
    moves, games = env.counts()
    assert games == total_dones > 0 and moves >= 5 * games
    assert len(env) == 16 and env.num_players == 2
    assert set(env.current_players()) <= {0, 1}


def test_same_seed_same_games_whatever_the_threads(ttt_path):
    _, a = run(ttt_path, 7, 1)
    _, b = run(ttt_path, 7, 2)
    _, c = run(ttt_path, 8, 1)
    same = all(all(np.array_equal(x, y) for x, y in zip(fa, fb)) for fa, fb in zip(a, b))
    assert same
    differ = any(not np.array_equal(fa[0], fc[0]) for fa, fc in zip(a, c))
    assert differ


def test_illegal_actions_are_refused(ttt_path):
    env = rbg.VecEnv(ttt_path, 2, seed=0, threads=1)
    env.reset()
    try:
        env.step(np.array([0, 0]))
    except ValueError as e:
        assert "not legal" in str(e)
    else:
        raise AssertionError("illegal action accepted")
    try:
        env.step(np.array([9]))
    except ValueError:
        pass
    else:
        raise AssertionError("wrong number of actions accepted")
