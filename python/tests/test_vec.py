"""``rbg.VecEnv``: shapes, resets, determinism."""

import numpy as np
import pytest

import rbg
from conftest import RG_EXAMPLES, suite_games


def run(path, seed, threads, steps=80, n=16):
    """Steps ``n`` games with the VecEnv's random actions; returns the
    VecEnv and every frame."""
    env = rbg.VecEnv(path, n, seed=seed, threads=threads)
    obs, masks = env.reset()
    out = [(obs, masks)]
    for _ in range(steps):
        obs, masks, rewards, dones = env.step(env.random_actions())
        out.append((obs, masks, rewards, dones))
    return env, out


def test_shapes_and_resets(ttt_path):
    """Array shapes and types; finished games report returns and restart."""
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


def same_frames(a, b):
    """Whether two runs gave equal frames."""
    return all(all(np.array_equal(x, y) for x, y in zip(fa, fb)) for fa, fb in zip(a, b))


def determinism_games(ttt_path):
    """Tic-tac-toe, chess (moves of two actions) and dice race (chance)."""
    games = {p.name: str(p) for p in suite_games()}
    out = [ttt_path, games.get("chess.rbg")]
    dice = RG_EXAMPLES / "dicerace.rg"
    out.append(str(dice) if dice.exists() else None)
    return [g for g in out if g]


def test_same_seed_same_games_whatever_the_threads(ttt_path):
    """A seed fixes the games (chance included), whatever the threads."""
    for path in determinism_games(ttt_path):
        env, a = run(path, 7, 1, n=13)
        _, b = run(path, 7, 3, n=13)
        _, again = run(path, 7, 2, n=13)
        _, c = run(path, 8, 1, n=13)
        assert same_frames(a, b) and same_frames(a, again), path
        assert not same_frames(a, c), path
        assert env.counts()[1] > 0 or "chess" in path


def test_illegal_actions_are_refused(ttt_path):
    """An illegal action or a wrong number of actions raises ValueError and
    changes nothing."""
    env = rbg.VecEnv(ttt_path, 2, seed=0, threads=1)
    env.reset()
    end = env.num_actions - 1  # the end action: never legal in RBG
    try:
        env.step(np.array([end, end]))
    except ValueError as e:
        assert "not legal" in str(e)
    else:
        raise AssertionError("illegal action accepted")
    try:
        env.step(np.array([end]))
    except ValueError:
        pass
    else:
        raise AssertionError("wrong number of actions accepted")
    with pytest.raises(ValueError):
        rbg.VecEnv(ttt_path, 0)


def test_step_random_is_step_of_random_actions(ttt_path):
    """``step_random()`` plays what ``step(random_actions())`` plays for the
    same seed, and returns those actions (legal in the masks before)."""
    for path in determinism_games(ttt_path):
        a = rbg.VecEnv(path, 5, seed=3, threads=1)
        b = rbg.VecEnv(path, 5, seed=3, threads=2)
        _, masks = a.reset()
        b.reset()
        for _ in range(40):
            acts = a.random_actions()
            fa = a.step(acts)
            *fb, taken = b.step_random()
            assert np.array_equal(acts, taken), path
            assert masks[np.arange(5), taken].all(), path
            assert all(np.array_equal(x, y) for x, y in zip(fa, fb)), path
            masks = fa[1]
        assert a.counts() == b.counts()


def engine_games(ttt_path):
    """Games for comparing the engines: tic-tac-toe and, from the suite,
    chess, draughts and hex."""
    games = {p.name: str(p) for p in suite_games()}
    names = ["chess.rbg", "englishDraughts.rbg", "hex.rbg"]
    return [ttt_path] + [games[n] for n in names if n in games]


def test_native_and_interpreter_give_the_same_frames(ttt_path):
    """For a seed, the VecEnv played by native code and by the interpreter
    give identical observations, masks, rewards, dones and actions."""
    for path in engine_games(ttt_path):
        native = rbg.VecEnv(path, 6, seed=5, threads=1, engine="native")
        interp = rbg.VecEnv(path, 6, seed=5, threads=2, engine="interp")
        assert all(np.array_equal(x, y) for x, y in zip(native.reset(), interp.reset()))
        for step in range(60):
            a, b = native.step_random(), interp.step_random()
            assert all(np.array_equal(x, y) for x, y in zip(a, b)), (path, step)
            acts = interp.random_actions()
            assert np.array_equal(native.random_actions(), acts)
            a, b = native.step(acts), interp.step(acts)
            assert all(np.array_equal(x, y) for x, y in zip(a, b)), (path, step)
        assert native.counts() == interp.counts()


def test_engines_are_chosen_and_named(ttt_path):
    """`engine=` picks the engine; the default is native (on hosts with code
    generation; for RG, games of at most 5,000 edges)."""
    assert rbg.load_game(ttt_path, engine="interp").engine == "interp"
    default = rbg.load_game(ttt_path)
    assert default.engine in ("native", "interp")
    if default.engine == "interp":
        assert default.engine_note
    else:
        assert default.engine_note is None
    with pytest.raises(ValueError, match="unknown engine"):
        rbg.load_game(ttt_path, engine="fast")
    with pytest.raises(ValueError, match="engine="):
        rbg.VecEnv(default, 2, engine="interp")
    dice = RG_EXAMPLES / "dicerace.rg"
    if dice.exists():
        chosen = rbg.load_game(str(dice), engine="native").engine
        assert rbg.load_game(str(dice)).engine == chosen
        assert rbg.load_game(str(dice), engine="interp").engine == "rg-engine"


def test_reused_buffers_hold_what_fresh_ones_hold(ttt_path):
    """Arrays dropped at once (their memory reused by the next steps, masks
    cleared only where they were set) hold what arrays kept alive (fresh
    memory each step) hold; masks are read-only and stay so."""
    for path in engine_games(ttt_path):
        a = rbg.VecEnv(path, 5, seed=9, threads=1)
        b = rbg.VecEnv(path, 5, seed=9, threads=1)
        a.reset()
        kept = [b.reset()]
        for step in range(60):
            if step % 4 == 0:
                frame = a.step_random()  # kept one step: two buffers in turn
            else:
                frame = tuple(x.copy() for x in a.step_random())
            kept.append(b.step_random())
            assert all(np.array_equal(x, y) for x, y in zip(frame, kept[-1])), (path, step)
        obs, masks = kept[-1][:2]
        for x in (obs, masks):
            assert not x.flags.writeable
            with pytest.raises(ValueError):
                x[0, 0] = 1
            with pytest.raises(ValueError):
                x.flags.writeable = True


def test_unheld_arrays_are_returned_again_held_ones_kept(ttt_path):
    """A step returns the last step's arrays again (rewritten) when Python
    holds none of them, and never writes into arrays Python holds, or
    holds a view of: those keep the values they were returned with."""
    env = rbg.VecEnv(ttt_path, 4, seed=5, threads=1)
    env.reset()
    first = env.step_random()
    ids = [id(x) for x in first]
    del first
    again = env.step_random()
    assert [id(x) for x in again] == ids
    held_obs, copy_obs = again[0], again[0].copy()
    row = again[1][0]  # a view: its base is the buffer, not the array
    copy_row = row.copy()
    acts, copy_acts = again[4], again[4].copy()
    del again
    for _ in range(20):
        frame = env.step_random()
        assert not np.shares_memory(frame[0], held_obs)
        assert not np.shares_memory(frame[1], row)
        assert not np.shares_memory(frame[4], acts)
    assert np.array_equal(held_obs, copy_obs)
    assert np.array_equal(row, copy_row)
    assert np.array_equal(acts, copy_acts)
