"""A Gymnasium environment: one learner against a fixed opponent
(``rbg.gym_env(path, opponent=...)``)."""

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from . import Agent
from ._common import draw_chance, load, observation_box, render_state


class GymEnv(gym.Env):
    """One learner (player ``player``) against ``opponent`` in a game.

    ``opponent``: ``None`` (uniformly random legal actions), an agent spec
    such as ``"mcts:iterations=200"`` (a Rust agent, re-seeded at every
    ``reset``), or a function ``state -> action``. Observations are the
    learner's observation tensors; ``info["action_mask"]`` holds the legal
    actions. The reward is the learner's return (score normalised to 0..1)
    when the game ends. An illegal action ends the game with reward -1
    (``illegal="lose"``) or is replaced by a random legal one
    (``illegal="random"``). ``max_actions`` truncates long games.
    """

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(
        self, game, opponent=None, player=0, illegal="lose", max_actions=None, render_mode=None, engine=None
    ):
        """See the class docstring; ``engine`` as for ``rbg.load_game`` (for
        a path or a description)."""
        self.game = load(game, engine)
        if not 0 <= player < self.game.num_players():
            raise ValueError(f"no player {player}")
        if illegal not in ("lose", "random"):
            raise ValueError("illegal must be 'lose' or 'random'")
        self.player = player
        self.opponent = opponent
        self.illegal = illegal
        self.max_actions = max_actions
        self.render_mode = render_mode
        self.observation_space = observation_box(self.game)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions())
        self.state = None
        self._policy = None

    def _opponent_action(self):
        """The opponent's action in the current state."""
        if callable(self._policy):
            return int(self._policy(self.state))
        legal = self.state.legal_actions()
        return int(self.np_random.choice(legal))

    def _advance(self):
        """Chance and the opponent move until the learner chooses or the
        game is over."""
        while True:
            draw_chance(self.state, self.np_random)
            if self.state.is_terminal() or self.state.current_player() == self.player:
                return
            self.state.apply_action(self._opponent_action())

    def _observation(self):
        """The learner's observation and ``info`` with the action mask."""
        mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        if self.state.current_player() == self.player:
            mask[self.state.legal_actions()] = 1
        obs = self.state.observation_tensor(self.player)
        return obs, {"action_mask": mask}

    def reset(self, *, seed=None, options=None):
        """Starts a new game; the opponent moves first if it is on move."""
        super().reset(seed=seed)
        if isinstance(self.opponent, str):
            agent = Agent(self.game, self.opponent, seed=int(self.np_random.integers(2**63)))
            self._policy = agent
        else:
            self._policy = self.opponent
        self.state = self.game.new_initial_state()
        self._actions = 0
        self._advance()
        return self._observation()

    def step(self, action):
        """The learner's action, then the opponent's until the learner's next
        decision: ``(obs, reward, terminated, truncated, info)``."""
        if self.state is None or self.state.is_terminal():
            raise RuntimeError("call reset() first: the game is over")
        action = int(action)
        if action not in self.state.legal_actions():
            if self.illegal == "lose":
                obs, info = self._observation()
                info["illegal_action"] = True
                return obs, -1.0, True, False, info
            action = int(self.np_random.choice(self.state.legal_actions()))
        self.state.apply_action(action)
        self._actions += 1
        self._advance()
        obs, info = self._observation()
        terminated = self.state.is_terminal()
        reward = float(self.state.returns()[self.player]) if terminated else 0.0
        truncated = (
            not terminated and self.max_actions is not None and self._actions >= self.max_actions
        )
        if self.render_mode == "human":
            self.render()
        return obs, reward, terminated, truncated, info

    def render(self):
        """The board as text (``ansi``) or printed (``human``)."""
        return render_state(self.state, self.render_mode)

    def action_masks(self):
        """The legal actions as a bool array (for maskable learners)."""
        return self._observation()[1]["action_mask"].astype(bool)
