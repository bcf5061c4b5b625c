"""Where each game's state goes on the reference rig's panels.

One module per game (``duel``, ``pavilion``) with ``draw(painter, snapshot)``
and ``option_pixels(snapshot, option)``; the coordinates they use live in a
TOML file beside each module, so the layout can be moved without touching code.
"""
import importlib
import tomllib
from pathlib import Path

from firmware_py import palette

HERE = Path(__file__).parent


def load(name: str) -> dict:
    """The layout data of ``name`` (``duel.toml``, ``pavilion.toml``)."""
    with open(HERE / f"{name}.toml", "rb") as handle:
        return tomllib.load(handle)


def for_game(game: str):
    """The layout module of ``game``."""
    return importlib.import_module(f"firmware_py.layouts.{game}")


def seat_panel(seat: int) -> str:
    return f"seat{seat}"


def mark_last_move(painter, snapshot, target_pixels, parse):
    """Give the LEDs of the last decision's target a soft white mark until the next decision.

    ``parse`` reads the game's notation; ``target_pixels(state, seat, move)`` are
    the LEDs a move concerns in the game's layout.
    """
    if not snapshot.history:
        return
    seat, text = snapshot.history[-1]
    for panel, x, y in target_pixels(snapshot.state, seat, parse(text)):
        colour = painter.leds.get(panel, x, y)
        painter.pixel(panel, x, y, tuple((c + 255) // 2 for c in colour))


def draw_menu(painter, menu):
    """The HOST menu on the centre panel: one item per line, the chosen one highlighted."""
    items, index = menu
    painter.rect("centre", 0, 0, 32, 16, palette.OFF)
    labels = {"new game": "NEW", "brightness": "LIGHT", "palette": "COLOUR"}
    top = max(0, min(index - 1, len(items) - 2)) if len(items) > 2 else 0
    for row, item in enumerate(items[top : top + 2]):
        y = 1 + row * 8
        chosen = top + row == index
        if chosen:
            painter.text("centre", 0, y, ">", palette.CURSOR)
        painter.text("centre", 4, y, labels[item][:7], palette.CURSOR if chosen else palette.WILD_SPACE)
