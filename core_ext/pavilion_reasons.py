"""Azul: Summer Pavilion: why a well-formed move is not an option of the pending decision
(``pavilion.Game.why_not``).

Each check below is called only for a move of a kind the pending decision
takes and that the core's move generation refused, so the last reason of each
is the one left when the others are not true. What holds whatever the hand
(the space, the star, the cost) comes before what the hand lacks.
"""
from core_ext.reasons import COMMON, Reason, other_decision

REASONS = COMMON + (
    "drafting_over", "no_such_factory", "factory_empty", "colour_not_in_factory", "wild_with_other_colours",
    "space_covered", "star_other_colour", "star_single_coloured", "colour_on_star",
    "needs_natural_tile", "cost_too_high",
    "payment_over_cost", "payment_all_wild", "payment_wilds_not_held", "payment_naturals_not_held",
    "bonus_not_in_supply", "keep_not_in_hand",
)
"""Every code ``pavilion.Game.why_not`` can answer with."""

KINDS = {
    "draft": ("take",),
    "place": ("place", "pass"),
    "pay": ("pay",),
    "bonus": ("bonus",),
    "keep": ("keep", "discard"),
}
"""The move kinds that answer each pending decision."""


def explain(game, move):
    """The reason ``move``, which the pending decision does not offer, is refused (the caller has
    checked the game is on and the seat)."""
    from core_ext import pavilion  # pavilion imports this module at its own import

    if move.kind == "take" and game.pending != "draft":
        return Reason("drafting_over", {"round": game.round})
    reason = other_decision(game.pending, move.kind, KINDS)
    if reason is not None:
        return reason
    state = game.to_dict()
    return _CHECKS[move.kind](state, state["seats"][state["current_player"]], move, pavilion)


def _take(state, seat, move, pavilion):
    """A take is every tile of a colour a source holds, the wild colour only when nothing else is left."""
    factory, colour = move.factory, pavilion.COLOURS[move.colour]
    if factory > len(state["factories"]):
        return Reason("no_such_factory", {"factory": factory, "factories": len(state["factories"])})
    tiles = state["centre"] if factory == 0 else state["factories"][factory - 1]
    if not any(tiles):
        return Reason("factory_empty", {"factory": factory})
    if tiles[move.colour] == 0:
        return Reason("colour_not_in_factory", {"factory": factory, "colour": colour})
    return Reason("wild_with_other_colours", {"factory": factory, "colour": colour})


def _star_refusal(pavilion, side, star, colour, board):
    """Why the star cannot take ``colour``, or None: a coloured-side outer star takes its own colour;
    the centre star, and a monochrome star whose first two tiles differ, take each colour once; a
    monochrome star whose first two tiles match takes only that colour."""
    letter, star_colour = pavilion.BOARD["stars"][star][:2]
    tiles = board.replace(".", "")
    if side == "coloured" and star_colour is not None:
        if colour == star_colour:
            return None
        return Reason("star_other_colour", {"star": letter, "colour": colour, "takes": star_colour})
    if side == "monochrome" and len(tiles) < 2:
        return None
    if side == "monochrome" and len(set(tiles)) == 1:
        if colour == tiles[0]:
            return None
        return Reason("star_single_coloured", {"star": letter, "colour": colour, "takes": tiles[0]})
    if colour in tiles:
        return Reason("colour_on_star", {"star": letter, "colour": colour})
    return None


def _place(state, seat, move, pavilion):
    """A tile goes on an empty space its star can take, paid with one natural tile and wild ones (5.2)."""
    colour, space = pavilion.COLOURS[move.colour], f"{pavilion.STARS[move.star]}{move.space}"
    board = seat["board"][move.star]
    if board[move.space - 1] != ".":
        return Reason("space_covered", {"space": space, "colour": board[move.space - 1]})
    refusal = _star_refusal(pavilion, state["side"], move.star, colour, board)
    if refusal is not None:
        return refusal
    hand, wild = seat["hand"], pavilion.COLOURS.index(state["wild"])
    wilds = hand[wild] if move.colour != wild else 0
    if move.colour != wild and hand[move.colour] == 0:
        return Reason("needs_natural_tile", {"space": space, "colour": colour, "wilds": wilds})
    return Reason("cost_too_high", {"space": space, "cost": pavilion.space_cost(move.star, move.space, state["side"]),
                                    "colour": colour, "have": hand[move.colour], "wilds": wilds})


def _pay(state, seat, move, pavilion):
    """Wild tiles stand in for all but one natural tile of the cost; both kinds come from the hand."""
    placing = pavilion.Move.parse(state["placing"])
    price = pavilion.space_cost(placing.star, placing.space, state["side"])
    hand, wild, wilds = seat["hand"], pavilion.COLOURS.index(state["wild"]), move.wilds
    fields = {"space": state["placing"].split("@")[1], "wilds": wilds, "cost": price}
    if wilds > price:
        return Reason("payment_over_cost", fields)
    if wilds == price:
        return Reason("payment_all_wild", fields)
    if wilds > hand[wild]:
        return Reason("payment_wilds_not_held", {**fields, "have": hand[wild]})
    return Reason("payment_naturals_not_held",
                  {**fields, "colour": pavilion.COLOURS[placing.colour], "have": hand[placing.colour]})


def _bonus(state, seat, move, pavilion):
    return Reason("bonus_not_in_supply", {"colour": pavilion.COLOURS[move.colour]})


def _keep(state, seat, move, pavilion):
    """The decision ends by itself once 4 tiles are kept, so a pending keep always has room."""
    return Reason("keep_not_in_hand", {"colour": pavilion.COLOURS[move.colour]})


_CHECKS = {"take": _take, "place": _place, "pay": _pay, "bonus": _bonus, "keep": _keep}
