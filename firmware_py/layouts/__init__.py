"""Where each game's state goes on the reference rig's panels.

One module per game (``duel``, ``pavilion``) with ``draw(painter, snapshot)``
and ``option_pixels(snapshot, option)``; the coordinates they use live in a
TOML file beside each module, so the layout can be moved without touching code.
"""
import importlib
import math
import tomllib
from pathlib import Path

from firmware_py import font, palette

HERE = Path(__file__).parent
MAX_SEATS = 4  # seat panels of the reference rig
TROPHY_COLOUR = (255, 190, 0)
TROPHY = (  # 9 x 9: a cup with two handles on a foot
    ".#######.",
    "#.#####.#",
    "#.#####.#",
    ".#.###.#.",
    "...###...",
    "....#....",
    "....#....",
    "...###...",
    "..#####..",
)


def load(name: str) -> dict:
    """The layout data of ``name`` (``duel.toml``, ``pavilion.toml``)."""
    with open(HERE / f"{name}.toml", "rb") as handle:
        return tomllib.load(handle)


def areas(game: str) -> dict:
    """The named areas of ``game``'s layout: {"centre": {name: (x, y, width, height)}, "seat": {...}}, in
    the layout file's order; the seat's are the same on every seat panel."""
    data = load(game)
    return {part: {name: tuple(box) for name, box in data[part]["areas"].items()} for part in ("centre", "seat")}


def for_game(game: str):
    """The layout module of ``game``."""
    return importlib.import_module(f"firmware_py.layouts.{game}")


def seat_panel(seat: int) -> str:
    return f"seat{seat}"


def mark_last_move(painter, snapshot, event_pixels):
    """Give the LEDs of what the last decision did a soft white mark until the next decision.

    The marks come from the rules core's events of that decision (docs/notation.md), the same
    ones the phones word and mark, so what the game resolved by itself (broken tiles, a tile laid
    on its only space, a round's tiling) is marked too. ``event_pixels(state, event)`` are the
    LEDs where the game's layout shows one event's result in ``state``, the position after it.
    """
    marked = set()
    for event in snapshot.last_events:
        for pixel in event_pixels(snapshot.state, event):
            if pixel in marked or not painter.has_panel(pixel[0]):
                continue
            marked.add(pixel)
            colour = painter.leds.get(*pixel)
            painter.pixel(*pixel, tuple((c + 255) // 2 for c in colour))


def draw_menu(painter, menu):
    """The HOST menu on the centre panel: one item per line, the chosen one highlighted."""
    items, index = menu
    painter.rect("centre", 0, 0, 32, 16, palette.OFF)
    labels = {"new game": "NEW", "host code": "HOST", "address": "JOIN", "legend": "LEGEND",
              "brightness": "LIGHT", "palette": "COLOUR"}
    top = max(0, min(index - 1, len(items) - 2)) if len(items) > 2 else 0
    for row, item in enumerate(items[top : top + 2]):
        y = 1 + row * 8
        chosen = top + row == index
        if chosen:
            painter.text("centre", 0, y, ">", palette.CURSOR)
        painter.text("centre", 4, y, labels[item][:7], palette.CURSOR if chosen else painter.neutral)


def draw_address(painter, address: str, join_code: str, step: int):
    """Where phones join, on the centre panel in place of the menu: the address scrolling along the
    top rows (``step`` LEDs on), the join code below it."""
    width, _ = painter.panel_size("centre")
    painter.rect("centre", 0, 0, width, 16, palette.OFF)
    text = f"{address}   " if address else "NO REMOTE   "
    span = font.text_width(text) + 1
    offset = step % span
    for start in (-offset, span - offset):
        if start < width:
            painter.text("centre", start, 1, text, palette.CURSOR)
    painter.text("centre", 0, 9, join_code, palette.CURSOR)


def draw_legend(painter):
    """Each tile colour as its 2x2 glyph with its notation letter beside it, four to a row."""
    painter.rect("centre", 0, 0, 32, 16, palette.OFF)
    for index, tile in enumerate(painter.colours):
        x, y = 8 * (index % 4), 1 + 8 * (index // 4)
        painter.tile("centre", x, y + 1, index, size=2)
        painter.text("centre", x + 3, y, tile.letter, tile.rgb)


def draw_host_code(painter, code: str):
    """The host code on the centre panel, in place of the menu, while it is asked for at the rig."""
    painter.rect("centre", 0, 0, 32, 16, palette.OFF)
    painter.text("centre", 0, 1, "HOST", palette.CURSOR)
    painter.text("centre", 0, 9, code, palette.CURSOR)


UNDO_BANNER = (0, 0, 16, 12)  # x, y, width, height on a seat panel: UNDO, P<n>? and the time bar
UNDO_CORNER = (0, 11, 12, 5)  # where P<n>? and an upright time bar go when the pending decision needs the top


def draw_undo_request(painter, request, remaining: float, total: float, needed=frozenset()):
    """An undo request on the panel of each seat whose consent it waits for.

    The top twelve rows read ``UNDO`` and ``P<n>?`` (the seat that asks), with
    a bar of the time left below; the decision it would take back is the one
    with the last-move mark. Where that would hide an LED of ``needed`` (the
    pending decision's options, as (panel, x, y)), only ``P<n>?`` and an
    upright bar are drawn, over the score in the panel's lower left. Hold OK to
    agree, hold BACK to refuse.
    """
    for seat in request.waiting:
        if seat in request.agreed:
            continue
        panel = seat_panel(seat)
        corner = _covers(UNDO_BANNER, panel, needed) and not _covers(UNDO_CORNER, panel, needed)
        x, y, width, height = UNDO_CORNER if corner else UNDO_BANNER
        length = height if corner else width
        left = max(0, min(length, math.ceil(length * remaining / total)))
        painter.rect(panel, x, y, width, height, palette.OFF)
        if corner:
            painter.text(panel, x, y, f"P{request.seat + 1}?", palette.CURSOR)
            painter.bar(panel, x + width - 1, y, length, left, palette.CURSOR, vertical=True, empty=palette.OFF)
        else:
            painter.text(panel, x, y, "UNDO", palette.CURSOR)
            painter.text(panel, x, y + 6, f"P{request.seat + 1}?", palette.CURSOR)
            painter.bar(panel, x, y + 11, length, left, palette.CURSOR, empty=palette.OFF)


def _covers(box, panel, pixels) -> bool:
    x0, y0, width, height = box
    return any(p == panel and x0 <= x < x0 + width and y0 <= y < y0 + height for p, x, y in pixels)


def draw_winners(painter, winners):
    """Game over on the centre panel, in place of the emptied game: a trophy, ``WIN`` and each winner
    as ``P<n>`` in that seat's colour, two to a row (a shared win names every winner); the scores stay
    upright on the seat panels, each winner's marked ``W``."""
    width, height = painter.panel_size("centre")
    painter.rect("centre", 0, 0, width, height, palette.OFF)
    top = (height - len(TROPHY)) // 2
    for y, row in enumerate(TROPHY):
        for x, cell in enumerate(row):
            if cell == "#":
                painter.pixel("centre", x, top + y, TROPHY_COLOUR)
    painter.text("centre", WINNERS_LEFT, 0, "WIN", TROPHY_COLOUR)
    for index, seat in enumerate(winners):
        x, y = winner_spot(index)
        painter.text("centre", x, y, f"P{seat + 1}", palette.SEAT_COLOURS[seat])


WINNERS_LEFT = len(TROPHY[0]) + 2  # where the words begin, right of the trophy


def winner_spot(index: int) -> tuple:
    """(x, y) on the centre panel of the ``index``-th winner's name: two to a row under ``WIN``."""
    return WINNERS_LEFT + 8 * (index % 2), 6 + 5 * (index // 2)
