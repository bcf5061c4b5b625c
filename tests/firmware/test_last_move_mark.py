"""The LEDs' last-move mark comes from the rules core's events of the last decision (the ones the
phones word), read back from the simulated LEDs: worked examples of both games, and random walks
in which the marked LEDs are exactly where the layout shows those events."""
import dataclasses
import random

import hardware
from firmware_py import palette
from firmware_py.display import BLINK_PERIOD_S, TableDisplay
from firmware_py.layouts import duel as duel_layout
from firmware_py.layouts import pavilion as pavilion_layout
from firmware_py.painter import Painter
from firmware_py.session import Play, Seat, Session, Setup

LAYOUTS = {"duel": duel_layout, "pavilion": pavilion_layout}
SHOWN_WHERE_THEY_LAND = {"line_filled", "tiles_broken", "tile_laid", "special_laid", "plate_placed", "plate_taken",
                         "sun_taken", "tiles_taken", "bonus_taken", "tile_placed", "tile_kept"}
"""Events whose result always has LEDs of its own (a moon take, say, goes into the hand, which no LED shows)."""


def marked(rgb):
    return tuple((c + 255) // 2 for c in rgb)


def frame(leds, snapshot):
    """Every LED of the position drawn by the game's layout (no highlight): {(panel, x, y): rgb}."""
    leds.clear()
    LAYOUTS[snapshot.setup.game].draw(Painter(leds, snapshot.setup.game), snapshot)
    return {(panel.name, x, y): leds.get(panel.name, x, y)
            for panel in leds.rig.panels for x in range(panel.width) for y in range(panel.height)}


def marks(leds, snapshot):
    """The LEDs the last-move mark lit: those that differ from the same frame drawn without it, each
    exactly the soft white blend of its colour."""
    plain, shown = frame(leds, dataclasses.replace(snapshot, last_events=())), frame(leds, snapshot)
    changed = {pixel for pixel in shown if shown[pixel] != plain[pixel]}
    assert all(shown[pixel] == marked(plain[pixel]) for pixel in changed)
    return changed, plain


def walk_until(session, chooser, wanted, limit=400):
    """Play random options until the last decision's events pass ``wanted``; its snapshot."""
    for _ in range(limit):
        snapshot = session.snapshot
        if snapshot.history and wanted(snapshot.last_events):
            return snapshot
        assert not snapshot.over, "no such decision"
        session.apply(Play(snapshot.current_player, chooser.choice(snapshot.options)))
    raise AssertionError("no such decision")


def kinds(events):
    return {event["event"] for event in events}


def test_a_duel_line_choice_marks_the_line_and_the_broken_tiles_on_the_seat_panel():
    hw = hardware.simulate(clock=hardware.ManualClock(), keep_frames=1)
    display = TableDisplay(hw.leds, clock=lambda: BLINK_PERIOD_S / 2)  # the highlight in its dark phase
    try:
        session = Session(Setup(game="duel", seed=4))
        snapshot = walk_until(session, random.Random(1), lambda events: events[0]["event"] == "line_filled"
                              and events[0]["line"] > 0 and "tiles_broken" in kinds(events) and len(events) == 2)
        display.draw(snapshot)
        filled, broken = snapshot.last_events
        seat, line = filled["player"], filled["line"]
        panel = f"seat{seat}"
        x0, y0 = duel_layout.SEAT["lines"]
        for i in range(line):  # the whole line, right-aligned, on row line - 1
            colour = duel_layout.COLOUR_INDEX[filled["colour"]]
            assert hw.leds.get(panel, x0 + 5 - i, y0 + line - 1) == marked(Painter(hw.leds, "duel").colours[colour].rgb)
        bx, by = duel_layout.SEAT["broken"]
        assert all(hw.leds.get(panel, bx + i, by) != palette.OFF for i in range(4))
        assert hw.leds.get(panel, bx, by) == marked(Painter(hw.leds, "duel").colours[
            duel_layout.COLOUR_INDEX[snapshot.state["players"][seat]["broken"][0]]].rgb)
    finally:
        hw.close()


def test_a_duel_round_end_marks_the_tiles_the_core_laid_for_both_players():
    """The decision was one seat's line; the tiling it set off laid tiles on both domes by itself.
    A mark taken from the move's notation could never show the other seat's tile."""
    hw = hardware.simulate()
    try:
        session = Session(Setup(game="duel", seed=2))
        snapshot = walk_until(session, random.Random(3), lambda events: len(
            {e["player"] for e in events if e["event"] == "tile_laid"}) == 2)
        changed, _ = marks(hw.leds, snapshot)
        x0, y0 = duel_layout.SEAT["dome"]
        for event in snapshot.last_events:
            if event["event"] == "tile_laid":
                row, column = event["cell"]
                assert (f"seat{event['player']}", x0 + column - 1, y0 + row - 1) in changed, event
    finally:
        hw.close()


def test_a_pavilion_take_marks_the_colour_in_hand_and_a_placement_its_space():
    hw = hardware.simulate()
    try:
        session = Session(Setup(game="pavilion", seats=(Seat(),) * 3, seed=6))
        chooser = random.Random(2)
        take = walk_until(session, chooser, lambda events: events[0]["event"] == "tiles_taken")
        changed, _ = marks(hw.leds, take)
        taken = take.last_events[0]
        hx, hy = pavilion_layout.SEAT["hand"]
        colour = pavilion_layout.COLOUR_INDEX[taken["colour"]]
        row = {(f"seat{taken['player']}", hx + i % 4, hy + 2 * colour + i // 4) for i in range(8)}
        assert row <= changed
        assert not any(pixel[0] == "centre" for pixel in changed)  # where they are now, not where they were

        placed = walk_until(session, chooser, lambda events: "tile_placed" in kinds(events))
        changed, _ = marks(hw.leds, placed)
        event = next(e for e in placed.last_events if e["event"] == "tile_placed")
        space = pavilion_layout.space_xy(event["space"][0], int(event["space"][1:]))
        assert (f"seat{event['player']}", *space) in changed
    finally:
        hw.close()


def test_the_marked_leds_are_exactly_where_the_layout_shows_the_last_events():
    hw = hardware.simulate()
    try:
        for game, seats in (("duel", 2), ("pavilion", 2), ("pavilion", 4)):
            chooser = random.Random(game + str(seats))
            session = Session(Setup(game=game, seats=(Seat(),) * seats, seed=seats))
            checked = 0
            while not session.snapshot.over and checked < 80:
                snapshot = session.snapshot
                session.apply(Play(snapshot.current_player, chooser.choice(snapshot.options)))
                snapshot = session.snapshot
                changed, plain = marks(hw.leds, snapshot)
                shown_by_events = {pixel for event in snapshot.last_events
                                   for pixel in LAYOUTS[game].event_pixels(snapshot.state, event)
                                   if pixel in plain and marked(plain[pixel]) != plain[pixel]}
                assert changed == shown_by_events, snapshot.last_events
                if kinds(snapshot.last_events) & SHOWN_WHERE_THEY_LAND:
                    assert changed, snapshot.last_events
                checked += 1
    finally:
        hw.close()
