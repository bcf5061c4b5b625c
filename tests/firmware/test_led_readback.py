"""The LEDs show the whole public position: a reader that knows only the layout's legend
(docs/layouts.md, the layout files' coordinates and the palette) reads a Summer Pavilion position
back from a drawn frame, for thousands of random positions of every seat count and both sides,
and gets the game's own state.

The frame is read as drawn, with the highlight in its dark phase and the last move's soft white
mark on (the reader looks through it).
"""
import dataclasses
import random

import pytest
from hypothesis import settings

import hardware
from core_ext import duel, pavilion
from firmware_py import font, layouts, palette
from firmware_py.display import BLINK_PERIOD_S, TableDisplay
from firmware_py.layouts import duel as duel_layout
from firmware_py.layouts import pavilion as layout
from firmware_py.painter import Painter
from firmware_py.session import Play, Seat, Session, Setup

POSITIONS_PER_CASE = settings().max_examples * 5 // 2  # with the default hypothesis profile 250: 1,500 positions in all
CENTRE, SEAT, PANEL = layout.CENTRE, layout.SEAT, layout.PANEL
HAND_SHOWN = 8  # LEDs per colour in a hand
POOL_SHOWN = 2 * CENTRE["centre_pool_height"]


class Reader:
    """Reads one frame of ``game``: which colour each LED is, through the last-move mark."""

    def __init__(self, leds, game="pavilion", palette_name="standard"):
        self.leds = leds
        self.painter = painter = Painter(leds, game, palette_name)
        self.colours = pavilion.COLOURS if game == "pavilion" else duel.COLOURS
        self.full, self.faint = {}, {}
        for index, tile in enumerate(painter.colours):
            for table, rgb in ((self.full, tile.rgb), (self.faint, painter.faint(tile.rgb))):
                table[rgb] = table[_marked(rgb)] = index
        self.frame = {painter.frame, _marked(painter.frame)}
        self.white = {palette.CURSOR}
        self.glyphs = {i: tile.glyph for i, tile in enumerate(painter.colours)}
        self.levels = hardware.frame.level_table(leds.rig.gamma, leds.rig.max_brightness * leds.brightness)

    def level(self, rgb):
        """The drive level of the brightest channel of ``rgb``, as the LED gets it."""
        return max(self.levels[c] for c in rgb)

    def rgb(self, panel, x, y):
        return self.leds.get(panel, x, y)

    def tile(self, panel, x, y):
        """A 2x2 glyph's colour (its lit quarters in the glyph's shape, the rest faint), None if dark."""
        quarters = [self.rgb(panel, x + dx, y + dy) for dy in range(2) for dx in range(2)]
        if all(q in (palette.OFF, EMPTIED) for q in quarters):  # dark, or just emptied by the last move
            return None
        colour = next((self.full[q] for q in quarters if q in self.full), None)
        assert colour is not None, f"no tile colour in {quarters} at {panel} ({x}, {y})"
        glyph = tuple(tuple(int(quarters[2 * dy + dx] in self.full) for dx in range(2)) for dy in range(2))
        assert glyph == self.glyphs[colour], f"glyph {glyph} at {panel} ({x}, {y})"
        assert all(self.full.get(q, self.faint.get(q)) == colour for q in quarters)
        return colour

    def counts(self, tiles):
        found = [0] * len(self.glyphs)
        for colour in tiles:
            if colour is not None:
                found[colour] += 1
        return found

    def number(self, panel, x, y, digits=3):
        text = ""
        for d in range(digits):
            lit = frozenset((dx, dy) for dx in range(3) for dy in range(5)
                            if self.rgb(panel, x + 4 * d + dx, y + dy) != palette.OFF)
            text += font.read_glyph(lit)
        return int(text)


def _marked(rgb):
    return tuple((c + 255) // 2 for c in rgb)


EMPTIED = _marked(palette.OFF)


def read_position(reader, players):
    """The public state the frame shows, in the game's own terms."""
    factories = []
    for origin in CENTRE["factories"][: 2 * players + 1]:
        factories.append(reader.counts(reader.tile(PANEL, origin[0] + dx, origin[1] + dy)
                                       for dx, dy in CENTRE["factory_tiles"]))
    x0, y0 = CENTRE["centre_pool"]
    bottom = y0 + CENTRE["centre_pool_height"] - 1
    centre = [sum(reader.rgb(PANEL, x0 + 2 * c + i % 2, bottom - i // 2) in reader.full for i in range(POOL_SHOWN))
              for c in range(6)]
    rounds = sum(reader.rgb(PANEL, CENTRE["rounds"][0], CENTRE["rounds"][1] + i) in reader.white | {_marked(palette.CURSOR)}
                 for i in range(6))
    seats = [read_seat(reader, seat) for seat in range(players)]
    return {
        "factories": factories,
        "centre": centre,
        "token_in_centre": reader.rgb(PANEL, *CENTRE["start_token"]) == palette.CURSOR,
        "supply": reader.counts(reader.tile(PANEL, *spot) for spot in CENTRE["supply"]),
        "wild": pavilion.COLOURS[reader.tile(PANEL, *CENTRE["wild"])],
        "round": rounds,
        "seats": [s for s, _ in seats],
        "current": [seat for seat, (_, deciding) in enumerate(seats) if deciding],
    }


def read_seat(reader, seat):
    panel = f"seat{seat}"
    board = []
    for star in pavilion.STARS:
        row = ""
        for space in range(1, 7):
            rgb = reader.rgb(panel, *layout.space_xy(star, space))
            assert reader.level(rgb) >= palette.FAINT_LEVEL, (seat, star, space)
            row += pavilion.COLOURS[reader.full[rgb]] if rgb in reader.full else "."
        board.append(row)
    hx, hy = SEAT["hand"]
    hand = [sum(reader.rgb(panel, hx + i % 4, hy + 2 * c + i // 4) in reader.full for i in range(HAND_SHOWN))
            for c in range(6)]
    cx, cy = SEAT["corners"]
    corners = reader.counts(reader.full.get(reader.rgb(panel, cx, cy + i)) for i in range(4))
    tx, ty = SEAT["turn"]
    seat_colour = palette.SEAT_COLOURS[seat]
    deciding = reader.rgb(panel, tx, ty) == seat_colour
    painter_faint = reader.rgb(panel, tx, ty + 3)
    return {
        "board": board,
        "hand": hand,
        "corners": corners,
        "score": reader.number(panel, *SEAT["score"]),
        "token": reader.rgb(panel, *SEAT["token"]) == palette.CURSOR,
        "passed": not deciding and painter_faint != palette.OFF,
    }, deciding


def expected(state, current):
    return {
        "factories": state["factories"],
        "centre": [min(n, POOL_SHOWN) for n in state["centre"]],
        "token_in_centre": state["token_holder"] < 0,
        "supply": state["supply"],
        "wild": state["wild"],
        "round": state["round"],
        "seats": [{
            "board": seat["board"],
            "hand": [min(n, HAND_SHOWN) for n in seat["hand"]],
            "corners": seat["corners"],
            "score": seat["score"],
            "token": state["token_holder"] == p,
            "passed": seat["passed"] and p != current,
        } for p, seat in enumerate(state["seats"])],
        "current": [] if current is None else [current],
    }


def _play_on(session, chooser):
    """Play 1 to 11 random options: the position then, or None once the game is over (the
    winners' marks stand where the turn was, a picture of its own)."""
    for _ in range(chooser.randrange(1, 12)):
        snapshot = session.snapshot
        if snapshot.over:
            break
        session.apply(Play(snapshot.current_player, chooser.choice(snapshot.options)))
    snapshot = session.snapshot
    return None if snapshot.over else snapshot


@pytest.mark.parametrize("side", pavilion.SIDES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_whole_pavilion_position_reads_back_from_the_leds(players, side):
    hw = hardware.simulate(clock=hardware.ManualClock(), keep_frames=1)
    display = TableDisplay(hw.leds, clock=lambda: BLINK_PERIOD_S / 2)  # the highlight's dark phase
    chooser = random.Random(f"{players}{side}")
    try:
        for _ in range(POSITIONS_PER_CASE // 25):
            session = Session(Setup(game="pavilion", seats=(Seat(),) * players, seed=chooser.randrange(2**32),
                                    flags=(("side", side),)))
            for _ in range(25):
                snapshot = _play_on(session, chooser)
                if snapshot is None:
                    break
                display.draw(snapshot)
                reader = Reader(hw.leds)
                assert read_position(reader, players) == expected(snapshot.state, snapshot.current_player)
    finally:
        hw.close()


# -- Azul Duel ------------------------------------------------------------------

DUEL = duel_layout.DATA
DC, DS = DUEL["centre"], DUEL["seat"]
CHIPS_SHOWN = 9


class DuelReader(Reader):
    """Reads an Azul Duel frame: tiles, plates' printed spaces, chips and counters."""

    def __init__(self, leds, palette_name="standard"):
        super().__init__(leds, "duel", palette_name)

    def letter(self, rgb):
        return self.colours[self.full[rgb]] if rgb in self.full else None

    def lit(self, panel, x, y, rgb):
        return self.rgb(panel, x, y) in (rgb, _marked(rgb))

    def plate_space(self, panel, x, y):
        """One 2x2 space of a plate in the display: its printed colour, S (special) or W (wild)."""
        cells = [self.rgb(panel, x + dx, y + dy) for dy in range(2) for dx in range(2)]
        if all(c == cells[0] for c in cells):
            return "S" if cells[0] in (palette.SPECIAL, _marked(palette.SPECIAL)) else self.letter(cells[0])
        assert [self.full.get(c) for c in cells] == [0, 1, 2, 3]
        return "W"


def read_duel(reader, players=2):
    small = []
    for origin in DC["small_factories"]:
        sun = reader.counts(reader.tile(PANEL, origin[0] + dx, origin[1] + dy) for dx, dy in DC["small_sun"])
        moon = ""
        for dx, dy in DC["small_moon"]:
            colour = reader.tile(PANEL, origin[0] + dx, origin[1] + dy)
            if colour is None:
                break
            moon += duel.COLOURS[colour]
        cx, cy = origin[0] + DC["small_chip"][0], origin[1] + DC["small_chip"][1]
        left, right = reader.rgb(PANEL, cx, cy), reader.rgb(PANEL, cx + 2, cy)
        if left in (palette.OFF, EMPTIED):
            chip = ""
        elif left in (reader.painter.lit(duel_layout.FACE_DOWN), _marked(reader.painter.lit(duel_layout.FACE_DOWN))):
            chip = "?"
        else:
            chip = reader.letter(left) if left == right else reader.letter(left) + reader.letter(right)
            assert chip, f"an unreadable chip {left} {right}"
        small.append({"sun": sun, "moon": moon, "chip": chip})
    lx, ly = DC["large_factory"]
    large = {
        "sun": reader.counts(reader.tile(PANEL, lx + dx, ly + dy) for dx, dy in DC["large_sun"]),
        "moon": reader.counts(reader.tile(PANEL, lx + dx, ly + dy) for dx, dy in DC["large_moon"]),
        "start_tile": reader.lit(PANEL, lx + DC["start_tile"][0], ly + DC["start_tile"][1], palette.CURSOR),
    }
    display = []
    for x, y in DC["display"]:
        spaces = "".join(str(reader.plate_space(PANEL, x + 2 * (i % 2), y + 2 * (i // 2)) or "") for i in range(4))
        display.append(spaces if len(spaces) == 4 else "")
    sx, sy = DC["stack_top"]
    top = reader.rgb(PANEL, sx, sy)
    stack_count = sum(reader.lit(PANEL, DC["stack_count"][0] + i, DC["stack_count"][1], reader.painter.neutral)
                      for i in range(16))
    rounds = sum(reader.lit(PANEL, DC["rounds"][0], DC["rounds"][1] + i, palette.CURSOR) for i in range(5))
    seats = [read_duel_seat(reader, seat) for seat in range(players)]
    return {
        "small": small, "large": large, "display": display,
        "stack_top": "" if top in (palette.OFF, EMPTIED) else "S" if top in (palette.SPECIAL, _marked(palette.SPECIAL)) else "plain",
        "stack_count": stack_count, "round": rounds,
        "seats": [s for s, _ in seats],
        "current": [seat for seat, (_, deciding) in enumerate(seats) if deciding],
    }


def read_duel_seat(reader, seat):
    panel = f"seat{seat}"
    x0, y0 = DS["lines"]
    lines = []
    for line in range(1, 7):
        tiles = ""
        for i in range(line):
            rgb = reader.rgb(panel, x0 + 5 - i, y0 + line - 1)
            assert reader.letter(rgb) or (rgb in reader.frame and reader.level(rgb) >= palette.FAINT_LEVEL)
            tiles += reader.letter(rgb) or ""
        lines.append(tiles)
    dome = []
    dx0, dy0 = DS["dome"]
    for row in range(6):
        cells = ""
        for column in range(6):
            rgb = reader.rgb(panel, dx0 + column, dy0 + row)
            if rgb == palette.OFF:
                cells += " "  # no plate here
            elif rgb in reader.full:
                cells += duel.COLOURS[reader.full[rgb]]
            elif rgb in (palette.SPECIAL, _marked(palette.SPECIAL)):
                cells += "S"
            else:
                assert reader.level(rgb) >= palette.FAINT_LEVEL, (seat, row, column)
                cells += "."
        dome.append(cells)
    bx, by = DS["broken"]
    broken = "".join(reader.letter(reader.rgb(panel, bx + i, by)) or "" for i in range(4))
    cx, cy = DS["chips"]
    chips = []
    for i in range(CHIPS_SHOWN):
        top, bottom = reader.letter(reader.rgb(panel, cx + i, cy)), reader.letter(reader.rgb(panel, cx + i, cy + 1))
        if top:
            chips.append(top if top == bottom else top + bottom)
    seat_colour = palette.SEAT_COLOURS[seat]
    tx, ty = DS["tokens"]
    return {
        "lines": lines, "dome": dome, "broken": broken, "chips": chips,
        "tokens": sum(reader.lit(panel, tx + i, ty, seat_colour) for i in range(2)),
        "chips_taken": sum(reader.lit(panel, DS["chips_taken"][0] + i, DS["chips_taken"][1], reader.painter.neutral)
                           for i in range(2)),
        "start_tile": reader.lit(panel, *DS["start_tile"], palette.CURSOR),
        "score": reader.number(panel, *DS["score"]),
    }, reader.rgb(panel, *DS["turn"]) == seat_colour


def expected_duel(state, current, shown_plates):
    def dome(player):
        rows = [[" "] * 6 for _ in range(6)]
        for slot, (plate, rotation) in enumerate(zip(player["plates"], player["rotations"])):
            if plate < 0:
                continue
            for index, _ in enumerate(duel.plate_spaces(plate, rotation)):
                row, column = 2 * (slot // 3) + index // 2, 2 * (slot % 3) + index % 2
                rows[row][column] = player["dome"][row][column]
        return ["".join(r) for r in rows]

    stack = state["stack"]
    return {
        "small": [{"sun": f["sun"], "moon": f["moon"], "chip": f["chip"] if f["chip_revealed"] or not f["chip"] else "?"}
                  for f in state["small_factories"]],
        "large": {"sun": state["large_factory"]["sun"], "moon": state["large_factory"]["moon"],
                  "start_tile": state["large_factory"]["start_tile"]},
        "display": ["".join(duel.plate_spaces(p, 0)) if p >= 0 else "" for p in shown_plates]
                   + [""] * (3 - len(shown_plates)),
        "stack_top": "" if not stack else "S" if "S" in duel.plate_spaces(stack[0], 0) else "plain",
        "stack_count": min(len(stack), 16),
        "round": state["round"],
        "seats": [{
            "lines": player["lines"], "dome": dome(player), "broken": player["broken"][:4],
            "chips": player["chips"][:CHIPS_SHOWN],
            "tokens": 2 - player["plates_taken"] if state["round"] < 5 else 0,
            "chips_taken": player["chips_taken"],
            "start_tile": state["start_tile_holder"] == p,
            "score": player["score"],
        } for p, player in enumerate(state["players"])],
        "current": [] if current is None else [current],
    }


def test_the_whole_duel_position_reads_back_from_the_leds():
    hw = hardware.simulate(clock=hardware.ManualClock(), keep_frames=1)
    display = TableDisplay(hw.leds, clock=lambda: BLINK_PERIOD_S / 2)
    chooser = random.Random("duel")
    positions = 0
    try:
        while positions < 3 * POSITIONS_PER_CASE:
            session = Session(Setup(game="duel", seed=chooser.randrange(2**32)))
            while positions < 3 * POSITIONS_PER_CASE:
                snapshot = _play_on(session, chooser)
                if snapshot is None:
                    break
                display.draw(snapshot)
                shown = duel_layout._shown_plates(snapshot.state, duel_layout._focus_plate(snapshot))
                assert read_duel(DuelReader(hw.leds)) == expected_duel(snapshot.state, snapshot.current_player, shown)
                positions += 1
    finally:
        hw.close()


# -- Game over --------------------------------------------------------------------


def read_text(reader, panel, x, y, length):
    """Text in the 3x5 font at (x, y), and the colour of its lit LEDs (None when they differ or none is lit)."""
    text, colours = "", set()
    for index in range(length):
        lit = frozenset((dx, dy) for dx in range(3) for dy in range(5)
                        if reader.rgb(panel, x + 4 * index + dx, y + dy) != palette.OFF)
        text += font.read_glyph(lit)
        colours |= {reader.rgb(panel, x + 4 * index + dx, y + dy) for dx, dy in lit}
    return text, colours.pop() if len(colours) == 1 else None


def read_game_over(reader, players, seat_layout):
    """The winners the centre panel names, whether it shows the trophy, and per seat its score and mark."""
    trophy = {(x, y) for y, row in enumerate(layouts.TROPHY) for x, cell in enumerate(row) if cell == "#"}
    top = (16 - len(layouts.TROPHY)) // 2
    winners = []
    for index in range(players):
        name, colour = read_text(reader, PANEL, *layouts.winner_spot(index), 2)
        if name.strip():
            assert name[0] == "P" and colour == reader.painter.lit(palette.SEAT_COLOURS[int(name[1]) - 1])
            winners.append(int(name[1]) - 1)
    return {
        "trophy": all(reader.rgb(PANEL, x, top + y) == reader.painter.lit(layouts.TROPHY_COLOUR) for x, y in trophy),
        "banner": read_text(reader, PANEL, layouts.WINNERS_LEFT, 0, 3)[0],
        "winners": winners,
        "seats": [(reader.number(f"seat{seat}", *seat_layout["score"]), marked_winner(reader, seat, seat_layout))
                  for seat in range(players)],
    }


def marked_winner(reader, seat, seat_layout):
    """The seat panel's turn area shows a ``W`` in the seat's colour (Summer Pavilion's a row higher)."""
    x, y = seat_layout["turn"][0], seat_layout["turn"][1] - (seat_layout is SEAT)
    colour = reader.painter.lit(palette.SEAT_COLOURS[seat])
    return all(reader.rgb(f"seat{seat}", x + dx, y + dy) == colour for dx, dy in font.text_pixels("W"))


def finished(setup):
    session = Session(setup)
    while not session.snapshot.over:
        snapshot = session.snapshot
        session.apply(Play(snapshot.current_player, snapshot.options[len(snapshot.history) % len(snapshot.options)]))
    return session.snapshot


@pytest.mark.parametrize("game,players,shared", [
    ("duel", 2, None), ("duel", 2, (0, 1)), ("pavilion", 2, None), ("pavilion", 3, None), ("pavilion", 4, None),
    ("pavilion", 3, (0, 2)), ("pavilion", 4, (0, 1, 2, 3)),
])
def test_game_over_names_the_winners_on_the_leds(game, players, shared):
    snapshot = finished(Setup(game=game, seats=(Seat(),) * players, seed=players))
    if shared is not None:  # a shared win, as the game would report it
        snapshot = dataclasses.replace(snapshot, winners=shared)
    hw = hardware.simulate(clock=hardware.ManualClock(), keep_frames=1)
    try:
        TableDisplay(hw.leds, clock=lambda: BLINK_PERIOD_S / 2).draw(snapshot)
        shown = read_game_over(Reader(hw.leds, game), players, SEAT if game == "pavilion" else DS)
    finally:
        hw.close()
    assert shown == {
        "trophy": True, "banner": "WIN", "winners": list(snapshot.winners),
        "seats": [(score, seat in snapshot.winners) for seat, score in enumerate(snapshot.scores)],
    }
