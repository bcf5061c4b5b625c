"""Python-side pieces of the ``Game`` API that every game module shares: reading a
pushed move, explaining why a move is illegal, and naming a single winner."""
from core_ext.errors import InvalidMoveError

OPTIONS_SHOWN = 12
"""How many options an illegal-move message lists before "..."."""


def move_of(move, move_type, game_title):
    """``move`` as a ``move_type`` instance: itself, or parsed from its notation string."""
    if isinstance(move, str):
        return move_type.parse(move)
    if not isinstance(move, move_type):
        raise InvalidMoveError(f"expected {game_title} Move or its notation, not {type(move).__name__}")
    return move


def move_code(move, move_type, game_title):
    """The code of ``move``: a ``move_type`` instance or its notation string."""
    return move_of(move, move_type, game_title).code


def illegal_message(text, game):
    """Why the move written ``text`` cannot be pushed on ``game`` now, with the options it has."""
    if game.is_over():
        return f"{text} is not legal: the game is over"
    options = [str(m) for m in game.legal_moves()]
    shown = ", ".join(options[:OPTIONS_SHOWN]) + (", ..." if len(options) > OPTIONS_SHOWN else "")
    return (f"{text} is not legal now: player {game.current_player} has a {game.pending!r} "
            f"decision pending, with options {shown}")


def single_winner(winners):
    """The one winning seat, or None while the game runs or on a shared victory."""
    return winners[0] if len(winners) == 1 else None
