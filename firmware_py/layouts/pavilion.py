"""Azul: Summer Pavilion on the rig: factories, centre, supply, wild colour and round on the centre
panel; each player's seven stars, hand and score on its seat panel.

Coordinates come from ``pavilion.toml``; the stars' space directions come
from the rules core's board table, so each star's spaces sit where they
point on the printed board.
"""
from core_ext import pavilion

from firmware_py import layouts, palette
from firmware_py.layouts import seat_panel

DATA = layouts.load("pavilion")
CENTRE = DATA["centre"]
SEAT = DATA["seat"]
PANEL = CENTRE["panel"]
COLOUR_INDEX = {letter: i for i, letter in enumerate(pavilion.COLOURS)}
SQUARE = ((0, 0), (1, 0), (0, 1), (1, 1))
CENTRE_STAR = (90, 90, 90)
_DIRECTIONS = {star[0]: star[4] for star in pavilion.BOARD["stars"]}
_STAR_COLOUR = {star[0]: star[1] for star in pavilion.BOARD["stars"]}


def _at(origin, offset):
    return origin[0] + offset[0], origin[1] + offset[1]


def _tiles(counts):
    """Per-colour counts as a list of colour indices."""
    return [colour for colour, n in enumerate(counts) for _ in range(n)]


def space_xy(star: str, space: int):
    """Seat-panel (x, y) of ring position ``space`` (1-6) of ``star``."""
    direction = _DIRECTIONS[star][space - 1]
    return _at(SEAT["stars"][star], SEAT["space_offsets"][direction])


# -- the position --------------------------------------------------------------


def draw(painter, snapshot):
    state = snapshot.state
    for origin, counts in zip(CENTRE["factories"], state["factories"]):
        for spot, colour in zip(CENTRE["factory_tiles"], _tiles(counts)):
            painter.tile(PANEL, *_at(origin, spot), colour, size=2)
    painter.tile(PANEL, *CENTRE["wild"], COLOUR_INDEX[state["wild"]], size=2)
    painter.bar(PANEL, *CENTRE["rounds"], 6, state["round"], palette.CURSOR, vertical=True)
    _draw_centre_pool(painter, state)
    for spot, colour in zip(CENTRE["supply"], _tiles(state["supply"])):
        painter.tile(PANEL, *spot, colour, size=2)
    for seat, player in enumerate(state["seats"]):
        _draw_seat(painter, snapshot, seat, player)
    layouts.mark_last_move(painter, snapshot, event_pixels)


def _draw_centre_pool(painter, state):
    """Per colour a column two LEDs wide growing up from the bottom, one LED per tile."""
    x0, y0 = CENTRE["centre_pool"]
    bottom = y0 + CENTRE["centre_pool_height"] - 1
    for colour, count in enumerate(state["centre"]):
        rgb = painter.colours[colour].rgb
        for i in range(min(count, 2 * CENTRE["centre_pool_height"])):
            painter.pixel(PANEL, x0 + 2 * colour + i % 2, bottom - i // 2, rgb)
    if state["token_holder"] < 0:
        painter.rect(PANEL, *CENTRE["start_token"], 1, 2, palette.CURSOR)


def _draw_seat(painter, snapshot, seat, player):
    panel = seat_panel(seat)
    if not painter.has_panel(panel):
        return
    coloured_side = snapshot.state["side"] == "coloured"
    for star, spaces in zip(pavilion.STARS, player["board"]):
        colour = _STAR_COLOUR[star] if coloured_side else None  # monochrome stars take any colour
        tint = CENTRE_STAR if colour is None else painter.colours[COLOUR_INDEX[colour]].rgb
        for space, tile in enumerate(spaces, start=1):
            rgb = painter.faint(tint) if tile == "." else painter.colours[COLOUR_INDEX[tile]].rgb
            painter.pixel(panel, *space_xy(star, space), rgb)
    hx, hy = SEAT["hand"]
    for colour, count in enumerate(player["hand"]):
        rgb = painter.colours[colour].rgb
        for i in range(8):
            lit = i < count
            painter.pixel(panel, hx + i % 4, hy + 2 * colour + i // 4, rgb if lit else painter.frame)
    cx, cy = SEAT["corners"]
    kept = _tiles(player["corners"])
    for i in range(4):
        painter.pixel(panel, cx, cy + i, painter.colours[kept[i]].rgb if i < len(kept) else painter.frame)
    if snapshot.state["token_holder"] == seat:
        painter.pixel(panel, *SEAT["token"], palette.CURSOR)
    seat_colour = palette.SEAT_COLOURS[seat]
    painter.number(panel, *SEAT["score"], player["score"], seat_colour)
    tx, ty = SEAT["turn"]
    if snapshot.current_player == seat:
        painter.rect(panel, tx, ty, 3, 4, seat_colour)
    elif seat in snapshot.winners:
        painter.text(panel, tx, ty - 1, "W", seat_colour)
    elif player["passed"]:
        painter.rect(panel, tx, ty + 3, 3, 1, painter.faint(seat_colour))


# -- options -------------------------------------------------------------------


def draw_highlight(painter, snapshot, option: str, on: bool):
    """The blinking highlight of ``option``: a placement previews its tile, the rest light up white."""
    if not on:
        return
    move = pavilion.Move.parse(option)
    seat = snapshot.current_player
    if move.kind == "place":
        painter.pixel(seat_panel(seat), *space_xy(pavilion.STARS[move.star], move.space),
                      painter.colours[move.colour].rgb)
        return
    for panel, x, y in option_pixels(snapshot, option):
        painter.pixel(panel, x, y, palette.CURSOR)


def option_pixels(snapshot, option: str):
    """The LEDs (panel, x, y) an option concerns."""
    return _target_pixels(snapshot.state, snapshot.current_player, pavilion.Move.parse(option))


def _target_pixels(state, seat, move):
    kind = move.kind
    panel = seat_panel(seat)
    if kind == "take":
        return _take_pixels(state, move.factory, move.colour)
    if kind == "place":
        return [(panel, *space_xy(pavilion.STARS[move.star], move.space))]
    if kind == "bonus":
        spots = [spot for spot, colour in zip(CENTRE["supply"], _tiles(state["supply"])) if colour == move.colour]
        return [(PANEL, *_at(spots[0], d)) for d in SQUARE] if spots else []
    if kind in ("keep", "pay"):
        colour = COLOUR_INDEX[state["wild"]] if kind == "pay" else move.colour
        hx, hy = SEAT["hand"]
        return [(panel, hx + i % 4, hy + 2 * colour + i // 4) for i in range(8)]
    if kind in ("pass", "discard"):
        hx, hy = SEAT["hand"]
        return [(panel, hx + i % 4, hy + row) for row in range(12) for i in range(4)]
    return []


def event_pixels(state, event):
    """The LEDs that show what one of the core's events did, in ``state`` (the position after it)."""
    kind, seat = event["event"], event["player"]
    if kind in ("tiles_taken", "wild_taken", "bonus_taken"):
        return _target_pixels(state, seat, pavilion.Move.parse(f"K{event['colour']}"))  # that colour in hand
    if kind == "start_token_taken":
        return [(seat_panel(seat), *SEAT["token"])]
    if kind in ("space_chosen", "tile_placed"):
        return [(seat_panel(seat), *space_xy(event["space"][0], int(event["space"][1:])))]
    if kind == "tile_kept":
        cx, cy = SEAT["corners"]
        kept = _tiles(state["seats"][seat]["corners"])[:4]
        spots = [i for i, colour in enumerate(kept) if colour == COLOUR_INDEX[event["colour"]]]
        return [(seat_panel(seat), cx, cy + spots[-1])] if spots else []
    return []


def _take_pixels(state, factory, colour):
    """A take: the chosen colour's tiles and one wild tile, from a factory or the centre."""
    wild = COLOUR_INDEX[state["wild"]]
    if factory == 0:
        x0, y0 = CENTRE["centre_pool"]
        bottom = y0 + CENTRE["centre_pool_height"] - 1
        pixels = []
        for c in (colour, wild):
            count = state["centre"][c] if c == colour else min(1, state["centre"][c])
            pixels += [(PANEL, x0 + 2 * c + i % 2, bottom - i // 2) for i in range(count)]
        return pixels
    origin = CENTRE["factories"][factory - 1]
    tiles = _tiles(state["factories"][factory - 1])
    chosen = [spot for spot, c in zip(CENTRE["factory_tiles"], tiles) if c == colour]
    wilds = [spot for spot, c in zip(CENTRE["factory_tiles"], tiles) if c == wild and c != colour][:1]
    return [(PANEL, *_at(_at(origin, spot), d)) for spot in chosen + wilds for d in SQUARE]
