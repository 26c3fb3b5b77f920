"""Helpers shared by the adapters."""

import numpy as np


def load(game, engine=None):
    """The ``rbg.Game`` an adapter plays: ``game`` itself, or loaded from a
    path or a description with ``engine`` (as ``rbg.load_game`` takes it;
    a ``Game`` keeps the engine it was loaded with, so ``engine`` with a
    ``Game`` is a ``ValueError``)."""
    from . import Game, load_game

    if isinstance(game, Game):
        if engine is not None:
            raise ValueError("engine= is for a path or a description: a Game keeps the engine it was loaded with")
        return game
    return load_game(game, engine=engine)


def draw_chance(state, rng):
    """Plays chance actions (by their probabilities, from ``rng``) until a
    player is to choose or the game is over."""
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        actions = [a for a, _ in outcomes]
        probs = np.array([p for _, p in outcomes])
        state.apply_action(int(rng.choice(actions, p=probs / probs.sum())))


def observation_box(game):
    """The Gymnasium ``Box`` of a game's observation tensors: values in
    0..1, except counts of seen tags (RG games of imperfect information)."""
    from gymnasium import spaces

    size = game.observation_tensor_size()
    unbounded = any(name == "seen" for name, _ in game.observation_layout())
    high = np.inf if unbounded else 1.0
    return spaces.Box(0.0, high, (size,), dtype=np.float32)


def render_state(state, mode):
    """An adapter's ``render()``: the board of ``state`` as text (mode
    ``ansi``) or printed (mode ``human``, returns ``None``); ``None``
    before the first reset."""
    if state is None:
        return None
    text = str(state)
    if mode == "human":
        print(text)
        return None
    return text
