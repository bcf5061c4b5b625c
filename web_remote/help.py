"""The help page: how to read the table's LEDs, on pictures of real frames with every area numbered.

The pictures are drawn by the table's own layout code (a real position from
:mod:`firmware_py.layouts.pictures`, the join code and the HOST menu drawn by
:class:`~firmware_py.display.TableDisplay`), and the numbered outlines are the
areas of the layout files (``[centre.areas]``, ``[seat.areas]``), so the help
moves with the layouts and cannot drift from them. The pictures carry only
numbers; the page names each area in the phone's language.
"""
import functools

from flask import Blueprint, Response, request

import hardware
from firmware_py import games, layouts
from firmware_py.display import OTHER_REFUSAL, REFUSAL_CODES, TableDisplay
from firmware_py.layouts import pictures
from firmware_py.session import Press, Session, Setup
from web_remote.guards import BadRequest, service
from web_remote.pages import page

bp = Blueprint("help", __name__, url_prefix="/help")

POSITIONS = {"duel": "duel_round2", "pavilion": "pavilion_4p"}  # documented positions the pictures show
REFUSAL_LEGEND = tuple(dict.fromkeys(code for _, code in REFUSAL_CODES)) + (OTHER_REFUSAL,)
VIEWS = ("centre", "seat", "join", "menu")
SAMPLE_CODE = "406813"
PITCH = 16  # pixels per LED
MARGIN = 8
DARK = "#1c1c1c"


def _game(name: str) -> str:
    if name not in games.GAMES:
        raise BadRequest("error.invalid_field", field="game")
    return name


@bp.get("/")
def help_page():
    """The LED areas of the game on the table (or ``?game=``), named and numbered as on its pictures."""
    game = _game(request.args.get("game", service().current().setup.game))
    named = {part: [(area, f"help.area.{game}.{part}.{area}") for area in areas]
             for part, areas in layouts.areas(game).items()}
    return page("help/help.html", game=game, games=games.GAMES, centre_areas=named["centre"],
                seat_areas=named["seat"], refusal_codes=REFUSAL_LEGEND)


@bp.get("/<game>/<view>.svg")
def picture(game: str, view: str):
    """``centre``, ``seat``: that panel during a game with its areas numbered; ``join``: the panel the
    join code is drawn on at a game's start, the code outlined; ``menu``: the HOST menu on the centre."""
    if view not in VIEWS:
        raise BadRequest("error.invalid_field", field="view")
    return Response(_svg(_game(game), view), mimetype="image/svg+xml", headers={"Cache-Control": "max-age=3600"})


@functools.cache
def _svg(game: str, view: str) -> str:
    frame, panel, boxes = _frame(game, view)
    width, height = frame.widths[panel] * PITCH, len(frame.rows(panel)) * PITCH
    outer = f'viewBox="{-MARGIN} {-MARGIN} {width + 2 * MARGIN} {height + 2 * MARGIN}"'
    return "".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" {outer} width="{width + 2 * MARGIN}" height="{height + 2 * MARGIN}">',
        f'<rect x="{-MARGIN}" y="{-MARGIN}" width="{width + 2 * MARGIN}" height="{height + 2 * MARGIN}" rx="6" fill="#080808"/>',
        _dots(frame, panel),
        _outlines(boxes),
        "</svg>",
    ])


def _frame(game: str, view: str):
    """(frame, panel shown, [(number or None, (x, y, width, height))] to outline) of ``view``, as the
    table draws it."""
    hw = hardware.simulate(clock=hardware.ManualClock())
    try:
        display = TableDisplay(hw.leds, clock=lambda: 0.0)  # the highlight in its lit phase
        if view == "join":  # the start of a game, when the table shows the code
            session = Session(Setup(game=game, seed=3))
            display.show_pin(SAMPLE_CODE)
        else:
            session = pictures.position(POSITIONS[game])
        if view == "menu":
            session.apply(Press(None, "HOST", "hold"))
        display.draw(session.snapshot)
        if view == "join":
            (panel, *band), = display.secret_areas()
            return hw.memory.panels(), panel, [(None, tuple(band))]
        if view in ("centre", "seat"):
            first = 1 if view == "centre" else len(layouts.areas(game)["centre"]) + 1
            boxes = list(enumerate(layouts.areas(game)[view].values(), first))
            return hw.memory.panels(), "centre" if view == "centre" else layouts.seat_panel(0), boxes
        return hw.memory.panels(), "centre", []
    finally:
        hw.close()


def _dots(frame, panel: str) -> str:
    """A panel's LEDs as dots in their screen colours (dark ones faintly, as on the simulator page)."""
    dots = []
    for y, row in enumerate(frame.rows(panel, display=True)):
        for x, colour in enumerate(row):
            fill = "#{:02x}{:02x}{:02x}".format(*colour) if any(colour) else DARK
            dots.append(f'<circle cx="{x * PITCH + PITCH / 2}" cy="{y * PITCH + PITCH / 2}" r="6" fill="{fill}"/>')
    return "".join(dots)


def _outlines(boxes) -> str:
    """Each area outlined, with its number (if it has one) in a badge at its top-left corner."""
    marks, badges = [], []
    for number, (x, y, width, height) in boxes:
        left, top = x * PITCH, y * PITCH
        centre = (left + 8, top + 8)
        while any(abs(centre[0] - a) < 20 and abs(centre[1] - b) < 16 for a, b in badges):
            centre = (centre[0], centre[1] + 16)  # below a neighbour's badge, still in the area
        badges.append(centre)
        marks.append(f'<rect x="{left + 0.75}" y="{top + 0.75}" width="{width * PITCH - 1.5}" '
                     f'height="{height * PITCH - 1.5}" fill="none" stroke="#ffffff" stroke-width="1.5" '
                     'stroke-dasharray="4 3"/>')
        if number is not None:
            cx, cy = centre
            marks.append(f'<circle cx="{cx}" cy="{cy}" r="8" fill="#ffffff" stroke="#000000"/>'
                         f'<text x="{cx}" y="{cy + 3.5}" font-family="sans-serif" font-size="{11 if number < 10 else 9.5}" '
                         f'font-weight="bold" text-anchor="middle" fill="#000000">{number}</text>')
    return "".join(marks)
