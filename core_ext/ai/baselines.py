"""Reference opponents for measuring the search: uniformly random and greedy play."""


def random_move(game, rng):
    """A uniformly random legal option (``rng`` is a ``random.Random``)."""
    return rng.choice(game.legal_moves())


def greedy_move(game, rng):
    """An option with the best immediate change of the deciding seat's own score; ties at random.

    Options are tried on a redetermined copy, so chance events inside a move
    never reveal anything the seat could not know.
    """
    seat = game.current_player
    view = game.redetermine(rng.getrandbits(64), seat)
    before = view.scores()[seat]
    best_gain = None
    best = []
    for move in game.legal_moves():
        after = view.copy()
        after.push_code(move.code)
        gain = after.scores()[seat] - before
        if best_gain is None or gain > best_gain:
            best_gain, best = gain, [move]
        elif gain == best_gain:
            best.append(move)
    return rng.choice(best)
