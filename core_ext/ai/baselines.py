"""Reference opponents for measuring the search: random, greedy, heuristic and lookahead play.

Each is a function ``(game, rng) -> Move`` (``rng`` is a ``random.Random``).
Every one that tries options does so on a redetermined copy, so chance events
inside a move never reveal anything the seat could not know.
"""
from core_ext import ai
from core_ext.ai import _pavilion_knowledge


def random_move(game, rng):
    """A uniformly random legal option."""
    return rng.choice(game.legal_moves())


def greedy_move(game, rng):
    """An option with the best immediate change of the deciding seat's own score; ties at random."""
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


def _move_of(game, code):
    return next(move for move in game.legal_moves() if move.code == code)


def heuristic_move(game, rng):
    """The hand-written heuristic's option: the best change of the seat's estimated final score.

    The estimate and the option scores are the game's knowledge module
    (:func:`core_ext.ai.knowledge_of`); ties at random.
    """
    view = game.redetermine(rng.getrandbits(64), game.current_player)
    return _move_of(game, ai.knowledge_of(game).heuristic_code(view, rng.getrandbits(64)))


def lookahead_move(game, rng):
    """The heuristic one turn deeper: each option, then heuristic play by every seat to the end
    of the round (or the game), judged by the estimated final margin over the best opponent."""
    knowledge = ai.knowledge_of(game)
    seat = game.current_player
    view = game.redetermine(rng.getrandbits(64), seat)
    best, best_margin = None, None
    for move in game.legal_moves():
        after = view.copy()
        after.push_code(move.code)
        if not after.is_over():
            knowledge.playout(after, rng.getrandbits(64), 0, 1)
        values = knowledge.value(after)
        margin = values[seat] - max(v for other, v in enumerate(values) if other != seat)
        if best_margin is None or margin > best_margin:
            best, best_margin = move, margin
    return best


def planner_move(game, rng):
    """Summer Pavilion: the option after which the seat's own placement plan is worth most.

    The plan (``_pavilion_knowledge.planned_values``) lays the hand tile by tile where it
    gains most (ring runs, star and number bonuses, structures' bonus tiles, the tiles kept
    for the next round), so drafting takes what the board can use and placing follows the plan.
    """
    view = game.redetermine(rng.getrandbits(64), game.current_player)
    return _move_of(game, _pavilion_knowledge.planner_code(view, rng.getrandbits(64)))
