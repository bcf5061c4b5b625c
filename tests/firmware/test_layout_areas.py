"""The layouts' named areas (what the phone page's help labels on its picture) hold everything the LEDs
show of a game: every LED a position lights lies in one area, and every area is lit."""
import random

import pytest

import hardware
from firmware_py import layouts
from firmware_py.display import TableDisplay
from firmware_py.session import Play, Seat, Session, Setup


def inside(box, x, y):
    left, top, width, height = box
    return left <= x < left + width and top <= y < top + height


@pytest.mark.parametrize("game,seats", [("duel", 2), ("pavilion", 2), ("pavilion", 3), ("pavilion", 4)])
def test_every_lit_led_of_a_game_lies_in_a_named_area(game, seats):
    named = layouts.areas(game)
    lit = {(part, name): set() for part, boxes in named.items() for name in boxes}
    hw = hardware.simulate(clock=hardware.ManualClock())
    try:
        display = TableDisplay(hw.leds, clock=lambda: 0.0)  # the highlight in its lit phase
        session = Session(Setup(game=game, seats=(Seat(),) * seats, seed=seats))
        choices = random.Random(seats)
        while not session.snapshot.over:
            snapshot = session.snapshot
            display.draw(snapshot)
            frame = hw.memory.panels()
            panels = {"centre": "centre", **{layouts.seat_panel(seat): "seat" for seat in range(seats)}}
            for panel, part in panels.items():
                for y, row in enumerate(frame.rows(panel)):
                    for x, colour in enumerate(row):
                        if not any(colour):
                            continue
                        where = [name for name, box in named[part].items() if inside(box, x, y)]
                        assert where, f"{panel} ({x}, {y}) is lit outside every named area"
                        lit[part, where[0]].add((x, y))
            session.apply(Play(snapshot.current_player, choices.choice(snapshot.options)))
    finally:
        hw.close()
    assert all(lit.values()), [name for name, leds in lit.items() if not leds]
