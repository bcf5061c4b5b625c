"""Azul Duel: why a well-formed move is not an option of the pending decision (``duel.Game.why_not``).

Each check below is called only for a move of a kind the pending decision
takes and that the core's move generation refused, so the last reason of each
is the one left when the others are not true. The checks' order puts what
holds for every move of the kind (the final round, the seat's limits) before
what holds for one component (a display position, a factory, a chip).
"""
from collections import Counter

from core_ext.reasons import COMMON, Reason, other_decision

REASONS = COMMON + (
    "no_plates_final_round", "plate_limit", "display_empty", "stack_empty",
    "sun_empty", "colour_not_in_sun", "moons_empty", "moon_colour_buried", "moon_colour_absent",
    "chip_limit", "chip_already_taken", "chip_not_revealed",
    "plate_not_drawn", "plate_kept", "slot_taken",
    "order_wrong_count", "order_wrong_tiles",
    "line_full", "line_other_colour",
    "chips_not_held", "payment_short", "payment_wasteful",
    "cell_outside_row", "cell_no_plate", "cell_taken", "cell_special", "cell_other_colour",
)
"""Every code ``duel.Game.why_not`` can answer with."""

KINDS = {
    "setup": ("display",),
    "action": ("display", "draw", "sun", "moon", "chip"),
    "draw": ("draw", "stop"),
    "keep": ("keep",),
    "return": ("under",),
    "place": ("place",),
    "order": ("order",),
    "line": ("line",),
    "pay": ("nopay", "pay"),
    "tile": ("tile",),
}
"""The move kinds that answer each pending decision."""

PLATES_PER_ROUND = 2
CHIPS_PER_ROUND = 2


def explain(game, move):
    """The reason ``move``, which the pending decision does not offer, is refused (the caller has
    checked the game is on and the seat)."""
    from core_ext import duel  # duel imports this module at its own import

    reason = other_decision(game.pending, move.kind, KINDS)
    if reason is not None:
        return reason
    state = game.to_dict()
    return _CHECKS[move.kind](state, state["players"][state["current_player"]], move, duel)


def _plate_rule(state, player, duel):
    """A Phase 1 plate: none in the final round, 2 a round (the starting plates of setup are free)."""
    if state["pending"] != "action":
        return None
    if state["round"] == duel.ROUNDS:
        return Reason("no_plates_final_round", {"round": state["round"]})
    if player["plates_taken"] >= PLATES_PER_ROUND:
        return Reason("plate_limit", {"taken": player["plates_taken"]})
    return None


def _display(state, player, move, duel):
    return _plate_rule(state, player, duel) or Reason("display_empty", {"position": move.display})


def _draw(state, player, move, duel):
    return _plate_rule(state, player, duel) or Reason("stack_empty", {})


def _small(state, factory):
    return state["small_factories"][factory - 1]


def _sun(state, player, move, duel):
    factory, colour = move.factory, duel.COLOURS[move.colour]
    sun = state["large_factory"]["sun"] if factory == 0 else _small(state, factory)["sun"]
    if not any(sun):
        return Reason("sun_empty", {"factory": factory})
    return Reason("colour_not_in_sun", {"factory": factory, "colour": colour})


def _moon(state, player, move, duel):
    """Only the top tile of a small moon can be taken (D2); the large moon's tiles all can."""
    colour = duel.COLOURS[move.colour]
    stacks = [factory["moon"] for factory in state["small_factories"]]
    if not any(state["large_factory"]["moon"]) and not any(stacks):
        return Reason("moons_empty", {})
    buried = [f for f, stack in enumerate(stacks, start=1) if colour in stack[:-1]]
    if buried:
        return Reason("moon_colour_buried", {"colour": colour, "factories": buried})
    return Reason("moon_colour_absent", {"colour": colour})


def _chip(state, player, move, duel):
    if player["chips_taken"] >= CHIPS_PER_ROUND:
        return Reason("chip_limit", {"taken": player["chips_taken"]})
    if not _small(state, move.factory)["chip"]:
        return Reason("chip_already_taken", {"factory": move.factory})
    return Reason("chip_not_revealed", {"factory": move.factory})


def _keep(state, player, move, duel):
    return Reason("plate_not_drawn", {"plate": move.plate})


def _under(state, player, move, duel):
    if move.plate == state["kept"]:
        return Reason("plate_kept", {"plate": move.plate})
    return Reason("plate_not_drawn", {"plate": move.plate})


def _place(state, player, move, duel):
    return Reason("slot_taken", {"slot": move.slot, "plate": player["plates"][move.slot - 1]})


def _order(state, player, move, duel):
    factory = state["order_factory"]
    leftovers = "".join(duel.COLOURS[c] * n for c, n in enumerate(_small(state, factory)["sun"]))
    if len(move.order) != len(leftovers):
        return Reason("order_wrong_count", {"factory": factory, "leftovers": leftovers})
    order = "".join(duel.COLOURS[c] for c in move.order)
    return Reason("order_wrong_tiles", {"factory": factory, "leftovers": leftovers, "order": order})


def _line(state, player, move, duel):
    """A pattern line takes tiles while it is not full and empty or of their colour (the dome does
    not matter, 4.1); the broken-tiles area always takes them."""
    line, holds = move.line, player["lines"][move.line - 1]
    if len(holds) == line:
        return Reason("line_full", {"line": line, "holds": holds[0]})
    return Reason("line_other_colour", {"line": line, "colour": state["hand"][0], "holds": holds[0]})


def _completes(chips, colour, missing):
    """Whether ``chips`` buy ``missing`` spaces of a ``colour`` line: 2 chips showing the colour or 3
    of any colour per space (D22). Pairs are the cheaper buy, so as many as the matching chips make."""
    pairs = sum(colour in face for face in chips) // 2
    return pairs + (len(chips) - 2 * pairs) // 3 >= missing


def _pay(state, player, move, duel):
    """A payment spends chips the seat holds, completes the line, and spends none it does not need."""
    line = state["tiling_line"]
    holds = player["lines"][line - 1]
    colour, missing = holds[0], line - len(holds)
    held, spent, lacking = Counter(player["chips"]), Counter(), []
    for face in move.chips:
        spent[face] += 1
        if spent[face] > held[face]:
            lacking.append(face)
    if lacking:
        return Reason("chips_not_held", {"line": line, "chips": lacking})
    if not _completes(move.chips, colour, missing):
        return Reason("payment_short", {"line": line, "colour": colour, "missing": missing})
    spare = [face for face in dict.fromkeys(move.chips) if _completes(_without(move.chips, face), colour, missing)]
    return Reason("payment_wasteful", {"line": line, "missing": missing, "spare": spare})


def _without(chips, face):
    rest = list(chips)
    rest.remove(face)
    return rest


def _tile(state, player, move, duel):
    """A full (or paid) line's tile goes on a free space of its own grid row that takes its colour."""
    line = state["tiling_line"]
    colour = player["lines"][line - 1][0]
    row, column = move.cell
    cell = [row, column]
    if row != line:
        return Reason("cell_outside_row", {"cell": cell, "line": line, "colour": colour})
    slot = (row - 1) // 2 * 3 + (column - 1) // 2
    plate = player["plates"][slot]
    if plate < 0:
        return Reason("cell_no_plate", {"cell": cell, "slot": slot + 1})
    tile = player["dome"][row - 1][column - 1]
    if tile != ".":
        return Reason("cell_taken", {"cell": cell, "tile": tile})
    space = duel.plate_spaces(plate, player["rotations"][slot])[(row - 1) % 2 * 2 + (column - 1) % 2]
    if space == "S":
        return Reason("cell_special", {"cell": cell})
    return Reason("cell_other_colour", {"cell": cell, "colour": colour, "space": space})


_CHECKS = {
    "display": _display, "draw": _draw, "sun": _sun, "moon": _moon, "chip": _chip, "keep": _keep,
    "under": _under, "place": _place, "order": _order, "line": _line, "pay": _pay, "tile": _tile,
}
