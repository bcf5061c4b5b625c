"""Positions of real games that tests start a table from."""
import random

from firmware_py.session import Setup


def one_move_from_the_end(setup: Setup, seed: int, seat: int | None = None):
    """``(game, option)``: a position of ``setup`` played with random options (seeded) where ``option``
    ends the game. With ``seat``, the decision is that seat's: games are played again until it has one."""
    choices = random.Random(seed)
    while True:
        game = setup.new_game()
        while not game.is_over():
            if seat is None or game.current_player == seat:
                for option in game.legal_moves():
                    after = game.copy()
                    after.push(option)
                    if after.is_over():
                        return game, str(option)
            game.push(choices.choice(game.legal_moves()))
