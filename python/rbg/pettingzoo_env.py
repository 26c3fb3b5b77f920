"""A PettingZoo AEC environment for any game (``rbg.aec_env(path)``)."""

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ._common import draw_chance, load, observation_box, render_state


class AecEnv(AECEnv):
    """Agent-environment-cycle environment of a game.

    Agents are named after the game's players (``cross_0``, ``nought_1``). An agent's observation is a
    dict: ``observation`` (the game's observation tensor of that player)
    and ``action_mask`` (int8, the legal actions when it is that agent's
    turn, else zeros). A move may take several actions in a row by the same
    agent (split moves). Chance moves are drawn inside from the generator
    seeded by ``reset(seed=...)``. Rewards are the returns (scores
    normalised to 0..1) when the game ends; ``max_actions`` truncates
    longer games.
    """

    metadata = {"render_modes": ["human", "ansi"], "name": "rbg_v0", "is_parallelizable": False}

    def __init__(self, game, render_mode=None, max_actions=None, engine=None):
        """``game``: a ``rbg.Game``, a path or a description; ``engine`` as
        for ``rbg.load_game`` (for a path or a description)."""
        super().__init__()
        self.game = load(game, engine)
        names = [f"{self.game.player_name(p)}_{p}" for p in range(self.game.num_players())]
        self.possible_agents = names
        self.render_mode = render_mode
        self.max_actions = max_actions
        n = self.game.num_distinct_actions()
        box = observation_box(self.game)
        self.observation_spaces = {
            a: spaces.Dict(
                {"observation": box, "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8)}
            )
            for a in names
        }
        self.action_spaces = {a: spaces.Discrete(n) for a in names}
        self.state = None

    def observation_space(self, agent):
        """The observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent):
        """The action space of ``agent``."""
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        """Starts a new game."""
        if seed is not None or not hasattr(self, "_rng"):
            self._rng = np.random.default_rng(seed)
        self.agents = list(self.possible_agents)
        self.state = self.game.new_initial_state()
        draw_chance(self.state, self._rng)
        self._actions = 0
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._finish_if_over()
        self.agent_selection = self._selected()

    def _selected(self):
        """The agent to act (the first when chance or nobody is to move)."""
        p = self.state.current_player()
        return self.agents[p] if p >= 0 else self.agents[0]

    def _finish_if_over(self):
        """Sets the rewards and terminations at the end, truncations past
        ``max_actions``."""
        if self.state.is_terminal():
            for a, r in zip(self.possible_agents, self.state.returns()):
                self.rewards[a] = float(r)
                self.terminations[a] = True
        elif self.max_actions is not None and self._actions >= self.max_actions:
            for a in self.possible_agents:
                self.truncations[a] = True

    def observe(self, agent):
        """``agent``'s observation and action mask."""
        p = self.possible_agents.index(agent)
        obs = self.state.observation_tensor(p)
        mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        if self.state.current_player() == p:
            mask[self.state.legal_actions()] = 1
        return {"observation": obs, "action_mask": mask}

    def step(self, action):
        """Applies the selected agent's action (``None`` for finished agents)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_action(int(action))
        self._actions += 1
        draw_chance(self.state, self._rng)
        self.rewards = {a: 0.0 for a in self.agents}
        self._finish_if_over()
        if not self.state.is_terminal():
            self.agent_selection = self._selected()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        """The board as text (``ansi``) or printed (``human``)."""
        return render_state(self.state, self.render_mode)

    def close(self):
        """Nothing to release."""
