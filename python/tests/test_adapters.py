"""The PettingZoo and Gymnasium adapters pass those libraries' own checks."""

import pytest

import rbg
from conftest import RG_EXAMPLES, suite_games


def test_pettingzoo_api(ttt_path):
    """PettingZoo's api_test on tic-tac-toe, chess (truncated), dice race
    (chance) and cups (hidden moves)."""
    api = pytest.importorskip("pettingzoo.test")
    api.api_test(rbg.aec_env(ttt_path), num_cycles=200)
    games = {p.name: p for p in suite_games()}
    if "chess.rbg" in games:
        api.api_test(rbg.aec_env(str(games["chess.rbg"]), max_actions=60), num_cycles=100)
    for name in ("dicerace.rg", "cups.rg"):
        if (RG_EXAMPLES / name).exists():
            api.api_test(rbg.aec_env(str(RG_EXAMPLES / name)), num_cycles=100)


def test_gymnasium_check_env(ttt_path):
    """Gymnasium's check_env against random, MCTS and a function as the
    opponent, and on dice race (chance)."""
    checker = pytest.importorskip("gymnasium.utils.env_checker")
    checker.check_env(rbg.gym_env(ttt_path), skip_render_check=True)
    checker.check_env(
        rbg.gym_env(ttt_path, opponent="mcts:iterations=20", player=1), skip_render_check=True
    )
    first = rbg.gym_env(ttt_path, opponent=lambda s: s.legal_actions()[0])
    checker.check_env(first, skip_render_check=True)
    dice = RG_EXAMPLES / "dicerace.rg"
    if dice.exists():
        checker.check_env(rbg.gym_env(str(dice), player=1), skip_render_check=True)


def test_gym_env_plays_whole_games(ttt_path):
    """Whole games end with the learner's return as the reward."""
    env = rbg.gym_env(ttt_path, opponent="random")
    obs, info = env.reset(seed=3)
    rewards = []
    for _ in range(20):
        done = False
        while not done:
            mask = info["action_mask"]
            action = int(mask.nonzero()[0][0])
            obs, reward, term, trunc, info = env.step(action)
            done = term or trunc
        rewards.append(reward)
        obs, info = env.reset()
    assert all(0.0 <= r <= 1.0 for r in rewards)


def test_adapters_take_an_engine(ttt_path):
    """`engine=` chooses the adapters' engine for a path, as for
    `load_game`; with a `Game` (which keeps its engine) it is an error."""
    pytest.importorskip("pettingzoo")
    assert rbg.aec_env(ttt_path, engine="interp").game.engine == "interp"
    assert rbg.gym_env(ttt_path, engine="interp").game.engine == "interp"
    default = rbg.load_game(ttt_path).engine
    assert rbg.aec_env(ttt_path).game.engine == default
    with pytest.raises(ValueError, match="unknown engine"):
        rbg.gym_env(ttt_path, engine="fast")
    game = rbg.load_game(ttt_path)
    for make in (rbg.aec_env, rbg.gym_env):
        assert make(game).game is game
        with pytest.raises(ValueError, match="engine="):
            make(game, engine="interp")
