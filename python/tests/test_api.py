"""The OpenSpiel-style game and state API."""

import copy
import pickle

import numpy as np
import pytest

import rbg
from conftest import RG_EXAMPLES, suite_games, suite_perft


def perft_by_actions(state, depth):
    """Complete moves reachable in ``depth`` moves, chosen action by action
    (no chance in RBG)."""
    if depth == 0:
        return 1
    total = 0
    stack = [state]
    while stack:
        s = stack.pop()
        for a in s.legal_actions():
            c = s.child(a)
            if c.move_number() > s.move_number():
                total += perft_by_actions(c, depth - 1)
            else:
                stack.append(c)
    return total


PERFT_GAMES = [
    "ticTacToe.rbg",
    "connect4.rbg",
    "chess.rbg",
    "breakthrough.rbg",
    "reversi.rbg",
    "englishDraughts.rbg",
    "amazons_split3.rbg",
    "theMillGame.rbg",
    "hex_7x7.rbg",
    "paperSoccer.rbg",
]


@pytest.mark.parametrize("name", PERFT_GAMES)
def test_perft_through_actions_equals_rbg_perft(name):
    games = {p.name: p for p in suite_games()}
    if name not in games:
        pytest.skip("RBG suite not found")
    game = rbg.load_game(str(games[name]))
    want = suite_perft()[(name, 2)]
    assert game.perft(2) == want
    assert perft_by_actions(game.new_initial_state(), 2) == want


def test_masks_agree_with_legal_actions_on_every_suite_game():
    paths = suite_games()
    if not paths:
        pytest.skip("RBG suite not found")
    rng = np.random.default_rng(3)
    for path in paths:
        game = rbg.load_game(str(path))
        n = game.num_distinct_actions()
        size = game.observation_tensor_size()
        state = game.new_initial_state()
        # 30 actions: long enough to leave the opening, short of the paper
        # soccer positions whose move lists the engine cannot hold.
        for _ in range(30):
            if state.is_terminal():
                assert state.legal_actions() == []
                assert not state.legal_actions_mask().any()
                break
            legal = state.legal_actions()
            mask = state.legal_actions_mask()
            assert mask.dtype == np.bool_ and mask.shape == (n,)
            assert list(np.flatnonzero(mask)) == legal, path.name
            obs = state.observation_tensor()
            assert obs.dtype == np.float32 and obs.shape == (size,)
            a = int(rng.choice(legal))
            assert state.string_to_action(state.action_to_string(a)) == a
            state.apply_action(a)


def test_play_to_the_end(ttt_path):
    game = rbg.load_game(ttt_path)
    assert game.num_players() == 2
    state = game.new_initial_state()
    assert state.current_player() == 0
    assert len(state.legal_actions()) == 9
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.current_player() == rbg.TERMINAL
    assert sum(state.returns()) == pytest.approx(1.0)
    assert "game over" in str(state)


def test_clone_and_serialize_round_trips(ttt_path):
    game = rbg.load_game(ttt_path)
    state = game.new_initial_state()
    for a in [4, 0, 8]:
        state.apply_action(state.legal_actions()[a % len(state.legal_actions())])
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history() != state.history()
    again = game.deserialize_state(state.serialize())
    assert again.history() == state.history()
    assert str(again) == str(state)
    assert np.array_equal(again.observation_tensor(1), state.observation_tensor(1))
    assert pickle.loads(pickle.dumps(state)).serialize() == state.serialize()
    assert copy.deepcopy(state).serialize() == state.serialize()
    g2 = pickle.loads(pickle.dumps(game))
    assert g2.num_distinct_actions() == game.num_distinct_actions()
    with pytest.raises(ValueError):
        game.deserialize_state("4 4")
    with pytest.raises(ValueError):
        game.deserialize_state("x")


def test_split_moves_in_chess():
    games = {p.name: p for p in suite_games()}
    if "chess.rbg" not in games:
        pytest.skip("RBG suite not found")
    state = rbg.load_game(str(games["chess.rbg"])).new_initial_state()
    first = state.legal_actions()
    assert len(first) == 10  # eight pawns and two knights can move
    state.apply_action(first[0])
    assert state.current_player() == 0 and state.move_number() == 0
    assert "move so far" in str(state)
    state.apply_action(state.legal_actions()[0])
    assert state.current_player() == 1 and state.move_number() == 1


def test_bad_input_is_answered():
    with pytest.raises(ValueError, match=r"<text>:1:"):
        rbg.load_game("#players = ")
    with pytest.raises(ValueError, match="language"):
        rbg.load_game("x", language="cobol")
    game = rbg.load_game(
        "#players = a(1)\n#pieces = e\n#variables =\n#board = v[e]{}\n#rules = ->a ->> {}"
    )
    state = game.new_initial_state()
    with pytest.raises(ValueError):
        state.apply_action(10**6)
    with pytest.raises(ValueError):
        state.apply_action(-1)
    with pytest.raises(ValueError):
        state.string_to_action("no such move")
    with pytest.raises(ValueError):
        state.observation_tensor(7)


def test_rg_games_with_chance():
    paths = sorted(RG_EXAMPLES.glob("*.rg")) + sorted(RG_EXAMPLES.glob("*.hrg"))
    if not paths:
        pytest.skip("RG examples not found")
    rng = np.random.default_rng(1)
    saw_chance = False
    for path in paths:
        game = rbg.load_game(str(path))
        state = game.new_initial_state()
        assert state.action_perft(2) == game.perft(2)
        while not state.is_terminal():
            if state.is_chance_node():
                saw_chance = True
                assert state.current_player() == rbg.CHANCE
                outcomes = state.chance_outcomes()
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                state.apply_action(outcomes[rng.integers(len(outcomes))][0])
            else:
                obs = state.observation_tensor()
                assert obs.shape == (game.observation_tensor_size(),)
                state.apply_action(int(rng.choice(state.legal_actions())))
        assert len(state.returns()) == game.num_players()
    assert saw_chance


def test_agents(ttt_path):
    game = rbg.load_game(ttt_path)
    # MCTS (as either player) never loses to random play in tic-tac-toe.
    for mcts_player in (0, 1):
        for seed in range(3):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.current_player() == mcts_player:
                    a = rbg.mcts(state, iterations=400, seed=seed)
                else:
                    a = rbg.random_action(state, seed=seed + 100 * state.move_number())
                state.apply_action(a)
            assert state.returns()[mcts_player] >= 0.5
    state = game.new_initial_state()
    assert rbg.flat_mc(state, iterations=100, seed=0) in state.legal_actions()
    agent = rbg.Agent(game, "mcts:iterations=50", seed=1)
    assert agent(state) in state.legal_actions()
    with pytest.raises(ValueError):
        rbg.Agent(game, "nonsense")
