"""Regular Games (``.rg``, ``.hrg``) through the same API: chance nodes for
the ``random`` player, observations of only what a player may see, and the
``VecEnv`` (which draws chance inside) agreeing with the state API."""

import numpy as np
import pytest

import rbg
from conftest import REPO, RG_EXAMPLES

HRG_GAMES = REPO / "games" / "hrg"


def rg_games():
    """The RG examples and the repository's HRG games, sorted."""
    out = []
    for d in (RG_EXAMPLES, HRG_GAMES):
        out += sorted(d.glob("*.rg")) + sorted(d.glob("*.hrg"))
    return out


def expand_chance(states, depth=16):
    """``states`` with every chance node replaced by its outcomes, again
    while chance is on move, up to ``depth`` chance moves in a row (pig
    passes the turn on a 1, and the next roll may be a 1 again)."""
    out, level = [], states
    for _ in range(depth):
        nxt = []
        for s in level:
            if s.is_chance_node():
                nxt += [s.child(a) for a, _ in s.chance_outcomes()]
            else:
                out.append(s)
        level = distinct(nxt)
    return distinct(out)


def distinct(states):
    """``states`` without repeats: states drawn alike (the whole state) with
    the same observations for every player behave alike from then on."""
    out = {}
    for s in states:
        n = s.get_game().num_players()
        key = (str(s), tuple(s.observation_tensor(p).tobytes() for p in range(n)))
        out.setdefault(key, s)
    return list(out.values())


def agrees(state, player, obs, mask):
    """Whether ``state`` shows what the VecEnv showed."""
    return (
        state.current_player() == player
        and np.array_equal(state.legal_actions_mask(), mask)
        and np.array_equal(state.observation_tensor(), obs)
    )


def test_rg_games_are_listed():
    games = [p.name for p in rg_games()]
    assert "goofspiel.hrg" in games and "pig.hrg" in games and "ur.hrg" in games
    if RG_EXAMPLES.is_dir():
        assert "cups.rg" in games and "dicerace.rg" in games


def follow(path, actions=60):
    """A one-game VecEnv stepped with random actions, chance drawn inside:
    after every step some state the state API reaches by the same actions
    and some chance outcomes shows exactly the VecEnv's player, mask and
    observation, and finished games end with the same returns. The states
    are followed as a set (every chance outcome consistent with what the
    VecEnv showed), so the check needs no access to its draws. Returns the
    number of finished games."""
    game = rbg.load_game(str(path))
    assert game.new_initial_state().action_perft(2) == game.perft(2)
    env = rbg.VecEnv(game, 1, seed=3, threads=1)
    obs, masks = env.reset()
    start = expand_chance([game.new_initial_state()])
    here = [s for s in start if agrees(s, env.current_players()[0], obs[0], masks[0])]
    assert here, path.name
    rng = np.random.default_rng(4)
    dones = 0
    for _ in range(actions):
        a = int(rng.choice(np.flatnonzero(masks[0])))
        obs, masks, rewards, done = env.step(np.array([a]))
        after = expand_chance([s.child(a) for s in here])
        if done[0]:
            dones += 1
            ended = [s for s in after if s.is_terminal()]
            assert any(np.allclose(s.returns(), rewards[0]) for s in ended), path.name
            after = expand_chance([game.new_initial_state()])
        else:
            assert not rewards.any()
        player = env.current_players()[0]
        here = distinct([s for s in after if agrees(s, player, obs[0], masks[0])])
        assert here, path.name
    return dones


def test_vecenv_agrees_with_the_state_api():
    """``follow`` on every RG and HRG game (games with chance, hidden moves,
    moves of several actions); some games end in the run."""
    dones = {p.name: follow(p) for p in rg_games()}
    assert len(dones) >= 14
    assert dones["pig.hrg"] > 0 and dones["ticTacToe.hrg"] > 0 and dones["goofspiel.hrg"] > 0


def test_hidden_bids_in_goofspiel():
    """Goofspiel (HRG, a ``random`` player reveals the prizes, bids hidden):
    in a VecEnv, after alice's bid bob's observation depends only on the
    prize, not on the bid, and equals the state API's; alice sees her own
    bid."""
    game = rbg.load_game(str(HRG_GAMES / "goofspiel.hrg"))
    assert not game.perfect_information()
    alice, bob = 0, 1
    env = rbg.VecEnv(game, 64, seed=2, threads=1)
    start, _ = env.reset()
    assert (env.current_players() == alice).all()
    bids = env.random_actions()
    after, _, _, _ = env.step(bids)
    assert (env.current_players() == bob).all()
    # The prize each game drew, from alice's first observation.
    root = game.new_initial_state()
    assert root.is_chance_node()
    prizes = {a: root.child(a) for a, _ in root.chance_outcomes()}
    seen = {}
    for i in range(64):
        (prize,) = [a for a, s in prizes.items() if np.array_equal(s.observation_tensor(alice), start[i])]
        s = prizes[prize].child(int(bids[i]))
        assert np.array_equal(s.observation_tensor(bob), after[i])
        seen.setdefault(prize, set()).add((int(bids[i]), after[i].tobytes()))
        others = [prizes[prize].child(b) for b in prizes[prize].legal_actions() if b != bids[i]]
        assert all(np.array_equal(o.observation_tensor(bob), after[i]) for o in others)
        assert all(not np.array_equal(o.observation_tensor(alice), s.observation_tensor(alice)) for o in others)
    # Some prize came with different bids: bob's observations still agree.
    assert any(len({b for b, _ in v}) > 1 and len({o for _, o in v}) == 1 for v in seen.values())
