"""Azul Duel on the rig: factories, plates and round on the centre, each player's board on its seat panel.

Coordinates come from ``duel.toml``. Besides the position itself this module
knows which LEDs each option of a pending decision concerns, so the seat's
highlight can show the tiles a take would pick, the line they would go to,
the slot and turn of a plate, the dome space, or the chips a payment spends.
"""
from core_ext import duel

from firmware_py import layouts, palette
from firmware_py.layouts import seat_panel

DATA = layouts.load("duel")
CENTRE = DATA["centre"]
SEAT = DATA["seat"]
PANEL = CENTRE["panel"]
COLOUR_INDEX = {letter: i for i, letter in enumerate(duel.COLOURS)}
FACE_DOWN = (40, 30, 20)
SQUARE = ((0, 0), (1, 0), (0, 1), (1, 1))


def _at(origin, offset):
    return origin[0] + offset[0], origin[1] + offset[1]


# -- the position --------------------------------------------------------------


def draw(painter, snapshot):
    state = snapshot.state
    _draw_small_factories(painter, state)
    _draw_large_factory(painter, state)
    _draw_plates(painter, state, _focus_plate(snapshot))
    painter.bar(PANEL, *CENTRE["rounds"], 5, state["round"], palette.CURSOR, vertical=True)
    for seat, player in enumerate(state["players"]):
        _draw_seat(painter, snapshot, seat, player)
    layouts.mark_last_move(painter, snapshot, event_pixels)


def _draw_small_factories(painter, state):
    for index, factory in enumerate(state["small_factories"]):
        origin = CENTRE["small_factories"][index]
        tiles = [c for c, n in enumerate(factory["sun"]) for _ in range(n)]
        for spot, colour in zip(CENTRE["small_sun"], tiles):
            painter.tile(PANEL, *_at(origin, spot), colour, size=2)
        for spot, letter in zip(CENTRE["small_moon"], factory["moon"]):
            painter.tile(PANEL, *_at(origin, spot), COLOUR_INDEX[letter], size=2)
        _draw_chip(painter, _at(origin, CENTRE["small_chip"]), factory)


def _draw_chip(painter, at, factory):
    """A revealed chip shows its colours on its two halves; a face-down one is brown; a taken one is gone."""
    if not factory["chip"]:
        return
    if not factory["chip_revealed"]:
        painter.rect(PANEL, at[0], at[1], 4, 2, painter.lit(FACE_DOWN))
        return
    halves = factory["chip"] * 2 if len(factory["chip"]) == 1 else factory["chip"]
    for half, letter in enumerate(halves):
        painter.rect(PANEL, at[0] + 2 * half, at[1], 2, 2, painter.colours[COLOUR_INDEX[letter]].rgb)


def _draw_large_factory(painter, state):
    origin = CENTRE["large_factory"]
    large = state["large_factory"]
    for key, spots in (("sun", CENTRE["large_sun"]), ("moon", CENTRE["large_moon"])):
        tiles = [c for c, n in enumerate(large[key]) for _ in range(n)]
        for spot, colour in zip(spots, tiles):
            painter.tile(PANEL, *_at(origin, spot), colour, size=2)
    if large["start_tile"]:
        painter.rect(PANEL, *_at(origin, CENTRE["start_tile"]), 1, 2, palette.CURSOR)


def _plate_rgb(painter, space):
    if space == "W":
        return palette.WILD_SPACE
    if space == "S":
        return palette.SPECIAL
    return painter.colours[COLOUR_INDEX[space]].rgb


def _draw_plate(painter, panel, at, plate, rotation=0):
    """A plate as 2 x 2 spaces of 2 x 2 LEDs, in its printed colours; a wild space shows four colours."""
    for index, space in enumerate(duel.plate_spaces(plate, rotation)):
        x, y = at[0] + 2 * (index % 2), at[1] + 2 * (index // 2)
        if space == "W":
            for colour, (dx, dy) in enumerate(SQUARE):
                painter.pixel(panel, x + dx, y + dy, painter.colours[colour].rgb)
        else:
            painter.rect(panel, x, y, 2, 2, _plate_rgb(painter, space))


def _shown_plates(state, focus=None):
    """The plates in the display spots: drawn plates while a stack draw is being resolved,
    three at a time around ``focus`` (the plate under the highlight) when more were drawn."""
    if not (state["drawn"] and state["drawn_revealed"]):
        return state["display"]
    drawn = state["drawn"]
    start = 0
    if focus in drawn and len(drawn) > 3:
        start = min(max(drawn.index(focus) - 1, 0), len(drawn) - 3)
    return drawn[start : start + 3]


def _focus_plate(snapshot):
    """The drawn plate the deciding seat's highlight is on, if it is choosing among drawn plates."""
    seat = snapshot.current_player
    if seat is None or snapshot.cursors[seat] is None or not snapshot.options:
        return None
    return duel.Move.parse(snapshot.options[snapshot.cursors[seat]]).plate


def _draw_plates(painter, state, focus):
    for at, plate in zip(CENTRE["display"], _shown_plates(state, focus)):
        if plate >= 0:
            _draw_plate(painter, PANEL, at, plate)
    x, y = CENTRE["stack_top"]
    if state["stack"]:
        top = duel.plate_spaces(state["stack"][0], 0)
        painter.rect(PANEL, x, y, 1, 4, palette.SPECIAL if "S" in top else painter.neutral)
    painter.bar(PANEL, *CENTRE["stack_count"], 16, len(state["stack"]), painter.neutral, empty=palette.OFF)


def _draw_seat(painter, snapshot, seat, player):
    panel = seat_panel(seat)
    if not painter.has_panel(panel):
        return
    x0, y0 = SEAT["lines"]
    for line, tiles in enumerate(player["lines"], start=1):
        for i in range(line):
            colour = painter.frame if i >= len(tiles) else painter.colours[COLOUR_INDEX[tiles[i]]].rgb
            painter.pixel(panel, x0 + 5 - i, y0 + line - 1, colour)
    _draw_dome(painter, panel, player)
    state = snapshot.state
    if state["round"] < 5:
        painter.bar(panel, *SEAT["tokens"], 2, 2 - player["plates_taken"], palette.SEAT_COLOURS[seat])
    painter.bar(panel, *SEAT["chips_taken"], 2, player["chips_taken"], painter.neutral)
    bx, by = SEAT["broken"]
    for i in range(4):
        colour = painter.colours[COLOUR_INDEX[player["broken"][i]]].rgb if i < len(player["broken"]) else painter.frame
        painter.pixel(panel, bx + i, by, colour)
    if state["start_tile_holder"] == seat:
        painter.pixel(panel, *SEAT["start_tile"], palette.CURSOR)
    cx, cy = SEAT["chips"]
    for i, chip in enumerate(player["chips"][:9]):
        halves = chip * 2 if len(chip) == 1 else chip
        for half, letter in enumerate(halves):
            painter.pixel(panel, cx + i, cy + half, painter.colours[COLOUR_INDEX[letter]].rgb)
    seat_colour = palette.SEAT_COLOURS[seat]
    painter.number(panel, *SEAT["score"], player["score"], seat_colour)
    if snapshot.current_player == seat:
        painter.rect(panel, *SEAT["turn"], 3, 5, seat_colour)
    elif seat in snapshot.winners:
        painter.text(panel, *SEAT["turn"], "W", seat_colour)


def _draw_dome(painter, panel, player):
    """Placed plates show their empty spaces dimly in the printed colour; laid tiles shine."""
    x0, y0 = SEAT["dome"]
    for slot, (plate, rotation) in enumerate(zip(player["plates"], player["rotations"])):
        if plate < 0:
            continue
        for index, space in enumerate(duel.plate_spaces(plate, rotation)):
            row, column = 2 * (slot // 3) + index // 2, 2 * (slot % 3) + index % 2
            tile = player["dome"][row][column]
            if tile == ".":
                colour = painter.faint(_plate_rgb(painter, space))
            elif tile == "S":
                colour = palette.SPECIAL
            else:
                colour = painter.colours[COLOUR_INDEX[tile]].rgb
            painter.pixel(panel, x0 + column, y0 + row, colour)


# -- options -------------------------------------------------------------------


def draw_highlight(painter, snapshot, option: str, on: bool):
    """The blinking highlight of ``option``: a preview where one helps, white LEDs otherwise."""
    state = snapshot.state
    seat = snapshot.current_player
    move = duel.Move.parse(option)
    if on and move.kind == "place":
        plate = state["kept"]
        x0, y0 = SEAT["dome"]
        slot = move.slot - 1
        _draw_plate_cells(painter, seat_panel(seat), (x0 + 2 * (slot % 3), y0 + 2 * (slot // 3)), plate, move.rotation)
        return
    if on and move.kind == "line":
        _preview_line(painter, state, seat, move.line)
        return
    if on and move.kind == "order":
        origin = CENTRE["small_factories"][state["order_factory"] - 1]
        for spot, colour in zip(CENTRE["small_moon"], move.order):
            painter.tile(PANEL, *_at(origin, spot), colour, size=2)
        return
    if not on:
        return
    for panel, x, y in option_pixels(snapshot, option):
        painter.pixel(panel, x, y, palette.CURSOR)


def _draw_plate_cells(painter, panel, at, plate, rotation):
    """A plate at one LED per space: the preview of a placement on the dome."""
    for index, space in enumerate(duel.plate_spaces(plate, rotation)):
        painter.pixel(panel, at[0] + index % 2, at[1] + index // 2, _plate_rgb(painter, space))


def _preview_line(painter, state, seat, line):
    """The tiles in hand shown where they would land: the line first, the rest broken."""
    panel = seat_panel(seat)
    hand = [COLOUR_INDEX[c] for c in state["hand"]]
    player = state["players"][seat]
    bx, by = SEAT["broken"]
    free_broken = [(bx + i, by) for i in range(len(player["broken"]), 4)]
    spots = []
    if line:
        x0, y0 = SEAT["lines"]
        spots = [(x0 + 5 - i, y0 + line - 1) for i in range(len(player["lines"][line - 1]), line)]
    for (x, y), colour in zip(spots + free_broken, hand):
        painter.pixel(panel, x, y, painter.colours[colour].rgb)
    if not spots and not free_broken:
        painter.pixel(panel, bx + 3, by, palette.CURSOR)


def option_pixels(snapshot, option: str):
    """The LEDs (panel, x, y) an option concerns."""
    return _target_pixels(snapshot.state, snapshot.current_player, duel.Move.parse(option))


def _target_pixels(state, seat, move):
    kind = move.kind
    panel = seat_panel(seat)
    if kind in ("display", "keep", "under"):
        shown = _shown_plates(state, move.plate)
        if kind == "display":
            spot = move.display - 1
        else:
            spot = shown.index(move.plate) if move.plate in shown else None
        if spot is None:
            return []
        x, y = CENTRE["display"][spot]
        return [(PANEL, x + dx, y + dy) for dx in range(4) for dy in range(4)]
    if kind in ("draw", "stop"):
        x, y = CENTRE["stack_top"]
        return [(PANEL, x, y + dy) for dy in range(4)]
    if kind == "sun":
        return _sun_pixels(state, move.factory, move.colour)
    if kind == "moon":
        return _moon_pixels(state, move.colour)
    if kind == "chip":
        x, y = _at(CENTRE["small_factories"][move.factory - 1], CENTRE["small_chip"])
        return [(PANEL, x + dx, y + dy) for dx in range(4) for dy in range(2)]
    if kind == "order":
        origin = CENTRE["small_factories"][state["order_factory"] - 1]
        return [(PANEL, *_at(_at(origin, spot), d)) for spot in CENTRE["small_moon"][: len(move.order)] for d in SQUARE]
    if kind == "place":
        x0, y0 = SEAT["dome"]
        slot = move.slot - 1
        return [(panel, x0 + 2 * (slot % 3) + dx, y0 + 2 * (slot // 3) + dy) for dx in range(2) for dy in range(2)]
    if kind == "line":
        if move.line == 0:
            bx, by = SEAT["broken"]
            return [(panel, bx + i, by) for i in range(4)]
        x0, y0 = SEAT["lines"]
        return [(panel, x0 + 5 - i, y0 + move.line - 1) for i in range(move.line)]
    if kind == "tile":
        row, column = move.cell
        return [(panel, SEAT["dome"][0] + column - 1, SEAT["dome"][1] + row - 1)]
    if kind == "nopay":
        x0, y0 = SEAT["lines"]
        line = state["tiling_line"]
        return [(panel, x0 + 5 - i, y0 + line - 1) for i in range(line)]
    if kind == "pay":
        return _chip_pixels(state, seat, move.chips)
    return []


def event_pixels(state, event):
    """The LEDs that show what one of the core's events did, in ``state`` (the position after it)."""
    kind, seat = event["event"], event["player"]
    if kind in ("plate_taken", "display_refilled"):
        x, y = CENTRE["display"][event["position"] - 1]
        return [(PANEL, x + dx, y + dy) for dx in range(4) for dy in range(4)]
    if kind in ("plate_drawn", "plate_returned"):
        x, y = CENTRE["stack_top"]
        return [(PANEL, x, y + dy) for dy in range(4)]
    if kind == "plate_placed":
        return _target_pixels(state, seat, duel.Move.parse(f"@{event['slot']}r{event['rotation']}"))
    if kind == "sun_taken":
        return _emptied_sun_pixels(state, event["factory"], event["count"])
    if kind == "large_sun_to_moon":
        return [(PANEL, *_at(_at(CENTRE["large_factory"], spot), d)) for spot in CENTRE["large_moon"][: event["count"]]
                for d in SQUARE]
    if kind == "moon_stacked" and event["order"]:
        height = len(state["small_factories"][event["factory"] - 1]["moon"])
        spots = CENTRE["small_moon"][max(0, height - len(event["order"])) : height]
        return [(PANEL, *_at(_at(CENTRE["small_factories"][event["factory"] - 1], spot), d)) for spot in spots for d in SQUARE]
    if kind in ("chip_revealed", "chip_taken"):
        x, y = _at(CENTRE["small_factories"][event["factory"] - 1], CENTRE["small_chip"])
        pixels = [(PANEL, x + dx, y + dy) for dx in range(4) for dy in range(2)]
        if kind == "chip_taken":
            cx, cy = SEAT["chips"]
            column = min(len(state["players"][seat]["chips"]), 9) - 1
            pixels += [(seat_panel(seat), cx + column, cy + dy) for dy in range(2)] if column >= 0 else []
        return pixels
    if kind == "start_tile_taken":
        return [(seat_panel(seat), *SEAT["start_tile"])]
    if kind in ("line_filled", "line_broken"):
        return _target_pixels(state, seat, duel.Move.parse(f"L{event['line'] or 'F'}"))
    if kind == "tiles_broken":
        return _target_pixels(state, seat, duel.Move.parse("LF"))
    if kind in ("tile_laid", "special_laid"):
        row, column = event["cell"]
        return [(seat_panel(seat), SEAT["dome"][0] + column - 1, SEAT["dome"][1] + row - 1)]
    return []


def _emptied_sun_pixels(state, factory, count):
    """The sun spots a take has just emptied: after the tiles still there, ``count`` of them."""
    if factory == 0:
        origin, spots, left = CENTRE["large_factory"], CENTRE["large_sun"], sum(state["large_factory"]["sun"])
    else:
        origin, spots = CENTRE["small_factories"][factory - 1], CENTRE["small_sun"]
        left = sum(state["small_factories"][factory - 1]["sun"])
    return [(PANEL, *_at(_at(origin, spot), d)) for spot in spots[left : left + count] for d in SQUARE]


def _sun_pixels(state, factory, colour):
    if factory == 0:
        origin, spots, counts = CENTRE["large_factory"], CENTRE["large_sun"], state["large_factory"]["sun"]
    else:
        origin, spots = CENTRE["small_factories"][factory - 1], CENTRE["small_sun"]
        counts = state["small_factories"][factory - 1]["sun"]
    tiles = [c for c, n in enumerate(counts) for _ in range(n)]
    return [(PANEL, *_at(_at(origin, spot), d)) for spot, c in zip(spots, tiles) if c == colour for d in SQUARE]


def _moon_pixels(state, colour):
    pixels = []
    for index, factory in enumerate(state["small_factories"]):
        stack = factory["moon"]
        if stack and COLOUR_INDEX[stack[-1]] == colour:
            spot = CENTRE["small_moon"][len(stack) - 1]
            pixels.append(_at(CENTRE["small_factories"][index], spot))
    large = state["large_factory"]["moon"]
    tiles = [c for c, n in enumerate(large) for _ in range(n)]
    pixels += [_at(CENTRE["large_factory"], spot) for spot, c in zip(CENTRE["large_moon"], tiles) if c == colour]
    return [(PANEL, *_at(spot, d)) for spot in pixels for d in SQUARE]


def _chip_pixels(state, seat, faces):
    """The seat's unused chips a payment would spend (the first matching ones)."""
    cx, cy = SEAT["chips"]
    remaining = list(faces)
    pixels = []
    for i, chip in enumerate(state["players"][seat]["chips"][:9]):
        if chip in remaining:
            remaining.remove(chip)
            pixels += [(seat_panel(seat), cx + i, cy), (seat_panel(seat), cx + i, cy + 1)]
    return pixels
