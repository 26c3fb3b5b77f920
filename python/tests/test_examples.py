"""The examples run (Ray on a local instance, skipped where Ray cannot be
installed)."""

import importlib.util
import pathlib
import sys

import pytest

from conftest import REPO

EXAMPLES = REPO / "examples"


def load(name):
    """Imports an example as a module."""
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_random_rollouts(ttt_path, monkeypatch, capsys):
    """The random rollouts example plays the games asked for."""
    monkeypatch.setattr(sys, "argv", ["x", ttt_path, "--games", "50"])
    load("random_rollouts").main()
    assert "50 games" in capsys.readouterr().out


def test_learning_beats_random(ttt_path):
    """A fixed number of updates (so the result depends on the seed only,
    not on the machine's speed) makes the policy clearly better than
    random play."""
    m = load("learn_tictactoe")
    policy, games = m.train(ttt_path, updates=40, batch=256, seed=0)
    wins, draws, losses = m.evaluate(ttt_path, policy, 1000, seed=5)
    # Random play against random play wins about 44% of the games (half as
    # first player); the trained policy must do clearly better.
    assert games > 1000
    assert wins > 0.6 and losses < 0.25, (wins, draws, losses)


def test_ray_selfplay_on_a_local_instance(ttt_path):
    """The Ray example on a local Ray instance (skipped without Ray)."""
    try:
        import ray  # noqa: F401
    except ImportError:
        pytest.skip("Ray is not installed (pip install ray); the Ray example was not run")
    m = load("ray_selfplay")
    totals = m.run(ttt_path, workers=2, envs=16, iterations=2, steps=30)
    assert totals["samples"] > 0 and totals["moves"] > 0
