"""The OpenSpiel-style game and state API."""

import copy
import pickle

import numpy as np
import pytest

import rbg
from conftest import REPO, RG_EXAMPLES, suite_games, suite_perft


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


def moves_by_actions(state, limit):
    """The number of complete moves reachable from ``state`` (a turn's
    start) action by action, or ``None`` past ``limit`` decisions."""
    count, visited = 0, 0
    stack = [state]
    while stack:
        s = stack.pop()
        visited += 1
        if visited > limit:
            return None
        for a in s.legal_actions():
            c = s.child(a)
            if c.move_number() > s.move_number():
                count += 1
            else:
                stack.append(c)
    return count


def test_masks_agree_with_the_engine_on_every_suite_game():
    """Along a random game of every suite game: the action sequences of each
    turn are exactly as many as the engine's legal moves, and a one-game
    ``VecEnv`` given the same actions shows the same masks, observations
    and end (its masks come from another code path than
    ``legal_actions()``)."""
    paths = suite_games()
    if not paths:
        pytest.skip("RBG suite not found")
    assert len(paths) == 65
    rng = np.random.default_rng(3)
    enumerated = 0
    for path in paths:
        game = rbg.load_game(str(path))
        n = game.num_distinct_actions()
        size = game.observation_tensor_size()
        state = game.new_initial_state()
        env = rbg.VecEnv(game, 1, seed=0, threads=1)
        obs, masks = env.reset()
        moves_before = -1
        # 30 actions: long enough to leave the opening, short of the paper
        # soccer positions whose move lists grow past millions.
        for _ in range(30):
            legal = state.legal_actions()
            mask = state.legal_actions_mask()
            assert mask.dtype == np.bool_ and mask.shape == (n,)
            assert list(np.flatnonzero(mask)) == legal, path.name
            assert list(np.flatnonzero(masks[0])) == legal, path.name
            obs_here = state.observation_tensor()
            assert obs_here.dtype == np.float32 and obs_here.shape == (size,)
            assert np.array_equal(obs[0], obs_here), path.name
            assert env.current_players()[0] == state.current_player()
            moves = state.num_legal_moves()
            assert moves >= len(legal) > 0, path.name
            turn_start = state.move_number() != moves_before
            if turn_start and moves <= 60 and len(legal) > 1:
                assert len(state.legal_moves()) == moves
                assert moves_by_actions(state, 1000) == moves, path.name
                enumerated += 1
            moves_before = state.move_number()
            a = int(rng.choice(legal))
            assert state.string_to_action(state.action_to_string(a)) == a
            state.apply_action(a)
            obs, masks, rewards, dones = env.step(np.array([a]))
            if state.is_terminal():
                assert dones[0] and list(rewards[0]) == pytest.approx(state.returns())
                assert state.legal_actions() == [] and state.legal_moves() == []
                assert not state.legal_actions_mask().any()
                break
            assert not dones[0] and not rewards.any()
    print(f"{enumerated} turns enumerated")
    assert enumerated > 500


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


def round_trip_games():
    """Games for the round trips: tic-tac-toe, suite games with moves of
    several actions, and RG games with chance and hidden moves."""
    games = {p.name: p for p in suite_games()}
    out = [REPO / "games" / "ticTacToe.rbg"]
    out += [games[n] for n in ("chess.rbg", "amazons.rbg", "go.rbg") if n in games]
    out += [RG_EXAMPLES / n for n in ("dicerace.rg", "cups.rg", "connect3.hrg")]
    return [p for p in out if p.exists()]


def same_state(a, b, game):
    """Whether two states agree on everything the API shows."""
    return (
        a.history() == b.history()
        and a.serialize() == b.serialize()
        and a.current_player() == b.current_player()
        and a.legal_actions() == b.legal_actions()
        and a.num_legal_moves() == b.num_legal_moves()
        and a.move_number() == b.move_number()
        and a.returns() == b.returns()
        and str(a) == str(b)
        and all(
            np.array_equal(a.observation_tensor(p), b.observation_tensor(p))
            for p in range(game.num_players())
        )
    )


def test_clone_and_serialize_round_trips():
    """At every action of random games (mid-move, chance, hidden moves and
    the end included): clones, deserialized and unpickled states equal the
    original, and a clone is independent of it."""
    rng = np.random.default_rng(5)
    for path in round_trip_games():
        game = rbg.load_game(str(path))
        g2 = pickle.loads(pickle.dumps(game))
        assert g2.num_distinct_actions() == game.num_distinct_actions()
        assert g2.observation_layout() == game.observation_layout()
        state = game.new_initial_state()
        for _ in range(60):
            for copy_ in (
                state.clone(),
                game.deserialize_state(state.serialize()),
                g2.deserialize_state(state.serialize()),
                pickle.loads(pickle.dumps(state)),
                copy.deepcopy(state),
                copy.copy(state),
            ):
                assert same_state(copy_, state, game), path.name
            if state.is_terminal():
                break
            legal = state.legal_actions()
            before = state.serialize()
            clone = state.clone()
            clone.apply_action(legal[-1])
            assert state.serialize() == before  # the clone is another state
            assert state.child(legal[0]).history() == state.history() + [legal[0]]
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=np.array(probs) / sum(probs))))
            else:
                state.apply_action(int(rng.choice(legal)))
    game = rbg.load_game(str(REPO / "games" / "ticTacToe.rbg"))
    first = game.new_initial_state().legal_actions()[0]
    with pytest.raises(ValueError, match="action 2"):
        game.deserialize_state(f"{first} {first}")
    with pytest.raises(ValueError, match="not a number"):
        game.deserialize_state("x")
    text = (REPO / "games" / "ticTacToe.rbg").read_text()
    from_text = pickle.loads(pickle.dumps(rbg.load_game(text)))
    assert from_text.num_distinct_actions() == game.num_distinct_actions()


def test_hidden_moves_are_not_observed():
    """Cups (RG with ``visible``): the seeker cannot tell where the hider put
    the coin, in ``observation_tensor``, in a VecEnv and in the PettingZoo
    adapter; the hider can."""
    path = RG_EXAMPLES / "cups.rg"
    if not path.exists():
        pytest.skip("RG examples not found")
    game = rbg.load_game(str(path))
    assert not game.perfect_information()
    assert [name for name, _ in game.observation_layout()] == ["seen", "move", "on_move"]
    hider, seeker = 0, 1
    after = []
    for a in game.new_initial_state().legal_actions():
        s = game.new_initial_state().child(a)
        assert s.current_player() == seeker
        after.append(s)
    assert len(after) == 2
    left, right = after
    assert np.array_equal(left.observation_tensor(seeker), right.observation_tensor(seeker))
    assert not np.array_equal(left.observation_tensor(hider), right.observation_tensor(hider))
    # The seeker's first observation is the same in every game of a VecEnv
    # (the hider chooses at random there).
    env = rbg.VecEnv(game, 32, seed=1, threads=1)
    obs, _ = env.reset()
    obs, _, _, _ = env.step(env.random_actions())
    assert (env.current_players() == seeker).all()
    assert (obs == obs[0]).all()
    assert np.array_equal(obs[0], left.observation_tensor(seeker))


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


def test_native_and_interpreter_states_agree(ttt_path):
    """Along random plays, states of both engines show the same legal
    actions, masks, observations and returns."""
    games = {p.name: str(p) for p in suite_games()}
    for path in [ttt_path] + [games[n] for n in ("chess.rbg", "reversi.rbg") if n in games]:
        a = rbg.load_game(path, engine="native").new_initial_state()
        b = rbg.load_game(path, engine="interp").new_initial_state()
        rng = np.random.default_rng(3)
        for _ in range(200):
            assert a.legal_actions() == b.legal_actions()
            assert np.array_equal(a.legal_actions_mask(), b.legal_actions_mask())
            for p in range(2):
                assert np.array_equal(a.observation_tensor(p), b.observation_tensor(p))
            assert a.returns() == b.returns()
            if a.is_terminal():
                break
            action = int(rng.choice(a.legal_actions()))
            a.apply_action(action)
            b.apply_action(action)
        assert str(a) == str(b)
