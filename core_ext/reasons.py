"""Why a move is not legal now: the answer of both rules cores' ``Game.why_not``.

A phone or the table can say "line 3 already holds red" instead of only
"not legal": each game explains a refused move with one :class:`Reason`, the
most specific one that is true. Codes and their fields are documented in
docs/notation.md ("Why a move is not legal", under each game); each game
module lists its codes as ``REASONS``. The explanations read the game through
its public API (``pending``, ``current_player``, ``to_dict()``) and never
change it.
"""
from dataclasses import dataclass

COMMON = ("game_over", "not_your_turn", "other_decision")
"""The codes both games share."""


@dataclass(frozen=True)
class Reason:
    """``code``: one of the game's ``REASONS``; ``fields``: plain values in the notation's numbering
    (1-based lines, positions, slots and ring positions, colour and star letters, cells [row, column])."""

    code: str
    fields: dict


def turn_reason(game, seat):
    """``game_over``, or ``not_your_turn`` when ``seat`` is given and another seat decides; else None."""
    if seat is not None and (isinstance(seat, bool) or seat not in range(game.players)):
        raise ValueError(f"seat must be None or a seat from 0 to {game.players - 1}, not {seat!r}")
    if game.is_over():
        return Reason("game_over", {})
    if seat is not None and seat != game.current_player:
        return Reason("not_your_turn", {"seat": seat, "current": game.current_player})
    return None


def other_decision(pending, kind, kinds):
    """``other_decision`` when a move of ``kind`` answers none of the pending decision's ``kinds[pending]``."""
    if kind in kinds[pending]:
        return None
    return Reason("other_decision", {"pending": pending, "kind": kind})


def why_not(game, move, seat, explain):
    """``Game.why_not`` of both games: ``turn_reason``, then, for a move that is no option now, the
    game's own ``explain(game, move)``; None when ``move`` can be played."""
    reason = turn_reason(game, seat)
    if reason is None and move.code not in game.legal_codes():
        reason = explain(game, move)
    return reason
