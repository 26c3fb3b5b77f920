"""Random rollouts through the Python API: plays games with uniformly random
legal actions and prints the average returns and game lengths.

    python examples/random_rollouts.py games/ticTacToe.rbg --games 1000
"""

import argparse
import time

import numpy as np

import rbg


def rollout(game, rng):
    """One game of random actions (chance by its probabilities); returns the
    final state."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def main():
    """Command line: plays the games and prints the averages."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    game = rbg.load_game(args.game)
    rng = np.random.default_rng(args.seed)
    start = time.perf_counter()
    returns = np.zeros(game.num_players())
    moves = 0
    for _ in range(args.games):
        state = rollout(game, rng)
        returns += state.returns()
        moves += state.move_number()
    secs = time.perf_counter() - start
    names = [game.player_name(p) for p in range(game.num_players())]
    print(f"{args.games} games in {secs:.2f} s, {moves / args.games:.1f} moves per game")
    print("average returns:", dict(zip(names, np.round(returns / args.games, 3))))


if __name__ == "__main__":
    main()
