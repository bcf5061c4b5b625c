"""Random whole games for the journal tests, for every game whose rules core is built."""
import importlib
import random

import pytest

from firmware_py import games
from firmware_py.session import Seat, Setup


def game_available(name: str) -> bool:
    try:
        importlib.import_module(f"core_ext.{name}")
    except ImportError:
        return False
    return True


AVAILABLE = tuple(name for name in games.GAMES if game_available(name))

each_game = pytest.mark.parametrize("game", [
    pytest.param(name, marks=pytest.mark.skipif(not game_available(name), reason=f"core_ext.{name} is not built"))
    for name in games.GAMES
])


def random_setup(game: str, seed: int) -> Setup:
    spec = games.spec(game)
    players = random.Random(seed).randint(spec.min_players, spec.max_players)
    return Setup(game=game, seats=tuple(Seat(name=f"P{seat}") for seat in range(players)), seed=seed)


def random_line(setup: Setup, policy_seed: int, limit=None):
    """A game of ``setup`` played with random options: (notations, positions from the start)."""
    choices = random.Random(policy_seed)
    game = setup.new_game()
    positions, moves = [game.copy()], []
    while not game.is_over() and (limit is None or len(moves) < limit):
        move = choices.choice(game.legal_moves())
        game.push(move)
        moves.append(str(move))
        positions.append(game.copy())
    return moves, positions
