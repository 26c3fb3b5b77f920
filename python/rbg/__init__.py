"""Regular Boardgames (and Regular Games) as reinforcement-learning environments.

Every game the ``rbg`` command runs is an environment with an OpenSpiel-style
API::

    import rbg
    game = rbg.load_game("games/ticTacToe.rbg")
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(rbg.mcts(state, iterations=200))
    print(state)             # the board, as `rbg play` draws it
    print(state.returns())   # scores normalised to 0..1

Actions: a move is a sequence of (modifier, vertex) atoms; it is chosen by
one action per point where the legal moves differ (split moves). Only
modifiers a player can apply are choices; ranked in textual order, action
``r * vertices + v`` picks atom (modifier of rank ``r``, vertex ``v``);
the last id, ``num_distinct_actions() - 1``, ends a move that others
continue (never needed in RBG). See the README's Python section.

``VecEnv`` steps many games in Rust threads; ``aec_env`` and ``gym_env``
adapt a game to PettingZoo and Gymnasium (installed separately).
"""

from ._rbg import (  # noqa: F401
    CHANCE,
    TERMINAL,
    Agent,
    Game,
    State,
    flat_mc,
    load_game,
    mcts,
    random_action,
)
from ._rbg import VecEnv as _VecEnv

import numpy as _np

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Agent",
    "Game",
    "State",
    "VecEnv",
    "aec_env",
    "flat_mc",
    "gym_env",
    "load_game",
    "mcts",
    "random_action",
]


class VecEnv(_VecEnv):
    """``n`` games stepped together in Rust threads (the GIL is released).

    ``VecEnv(game_or_path, n, seed=0, threads=None)``. ``reset()`` returns
    ``(observations, masks)``; ``step(actions)`` returns ``(observations,
    masks, rewards, dones)``. Observations are of the player to choose
    (``current_players()``); rewards hold every player's return in games
    that ended in this step; finished games restart at once. Observations
    and masks are read-only: once Python drops them their memory is
    reused, and a step clears only the mask entries it set before and
    patches the observations of moves in progress (copy one to change it).
    """

    def step(self, actions):
        """Applies one action per game; see the class docstring."""
        return super().step(_np.ascontiguousarray(actions, dtype=_np.int64))


def aec_env(path, **kwargs):
    """A PettingZoo AEC environment of a game (needs ``pettingzoo``)."""
    from .pettingzoo_env import AecEnv

    return AecEnv(path, **kwargs)


def gym_env(path, opponent=None, **kwargs):
    """A Gymnasium environment: one learner against ``opponent`` (needs
    ``gymnasium``); ``opponent`` is a function ``state -> action``, default
    uniformly random."""
    from .gymnasium_env import GymEnv

    return GymEnv(path, opponent=opponent, **kwargs)
