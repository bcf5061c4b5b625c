"""What the table shows over the game: the join code never covers what the pending decision needs,
and the HOST menu shows where phones join (with the join code) and a legend of the tile colours."""
import pytest

import hardware
from firmware_py import font, layouts, palette
from firmware_py.controls import HostMenu
from firmware_py.display import BLINK_PERIOD_S, TableDisplay
from firmware_py.session import Play, Press, Seat, Session, Setup
from tests.firmware.test_undo import read_text


def frame(session, pin=None, address=""):
    """The LEDs (levels per panel) for the session's position, the highlight dark, ``pin`` on show."""
    hw = hardware.simulate(clock=hardware.ManualClock(), keep_frames=1)
    try:
        display = TableDisplay(hw.leds, clock=lambda: BLINK_PERIOD_S / 2)
        display.address = address
        if pin is not None:
            display.show_pin(pin)
        display.draw(session.snapshot)
        return hw.memory.panels()
    finally:
        hw.close()


def needed_pixels(session):
    snapshot = session.snapshot
    layout = layouts.for_game(snapshot.setup.game)
    return {pixel for option in snapshot.options for pixel in layout.option_pixels(snapshot, option)}


@pytest.mark.parametrize("setup, decisions", [
    (Setup(game="duel", seed=3), 0),  # the first decision: a starting plate from the display
    (Setup(game="duel", seed=5), 7),
    (Setup(game="pavilion", seed=3), 0),
    (Setup(game="pavilion", seats=(Seat(),) * 3, seed=4), 30),
    (Setup(game="pavilion", seats=(Seat(),) * 4, seed=4), 0),
])
def test_the_join_code_hides_nothing_the_pending_decision_needs(setup, decisions):
    session = Session(setup)
    for index in range(decisions):
        snapshot = session.snapshot
        session.apply(Play(snapshot.current_player, snapshot.options[index % len(snapshot.options)]))
    plain, with_code = frame(session), frame(session, pin="406813")
    for panel, x, y in needed_pixels(session):
        assert with_code.pixel(panel, x, y) == plain.pixel(panel, x, y), (panel, x, y)
    assert plain.levels != with_code.levels or len(setup.seats) == 4  # shown somewhere, where there is room


def read_rows(rows, x, y, length):
    """Text in the 3x5 font at (x, y) of a panel's rows."""
    return "".join(font.read_glyph(frozenset((dx, dy) for dy in range(5) for dx in range(3)
                                             if sum(rows[y + dy][x + 4 * i + dx]) > 0))
                   for i in range(length))


def choose(driver, item):
    """Hold HOST, walk to ``item`` of the menu, choose it."""
    driver.tap(None, "HOST", hold=True)
    for _ in range(layouts_items().index(item)):
        driver.tap(None, "HOST")
    driver.tap(0, "OK")


def layouts_items():
    return HostMenu.ITEMS


def test_the_host_menu_shows_the_join_code_and_the_address_scrolling(table_driver):
    driver = table_driver(Setup(game="duel", seed=3))
    driver.table.display.address = "192.168.1.20:8080/join"
    choose(driver, "address")
    snapshot = driver.snapshot
    assert snapshot.showing == "address"
    assert read_text(driver, "centre", 0, 9, 6) == snapshot.credentials.join_code
    driver.tap(0, "NEXT")  # any press moves on
    assert driver.snapshot.showing is None


def test_the_address_scrolls_through_its_whole_text():
    session = Session(Setup(game="duel", seed=3))
    for press in (Press(None, "HOST", "hold"), Press(None, "HOST"), Press(None, "HOST"), Press(0, "OK")):
        session.apply(press)
    assert session.snapshot.showing == "address"
    hw = hardware.simulate(clock=hardware.ManualClock(), keep_frames=1)
    seen = []
    try:
        for step in range(80):
            display = TableDisplay(hw.leds, clock=lambda: step * BLINK_PERIOD_S / 2 + 0.01)
            display.address = "10.0.0.7:8080/join"
            display.draw(session.snapshot)
            seen.append(hw.memory.panels().rows("centre"))
    finally:
        hw.close()
    assert len({str(rows[:7]) for rows in seen}) == 80  # it moves at every redraw, one LED a step
    # the address reads from the left at the start, and 4 LEDs (one character) later it starts a character on
    assert read_rows(seen[0], 0, 1, 8) == "10.0.0.7" and read_rows(seen[4], 0, 1, 7) == "0.0.0.7"
    assert read_rows(seen[0], 0, 9, 6) == session.snapshot.credentials.join_code


def test_the_legend_shows_every_colour_with_its_glyph_and_letter(table_driver):
    driver = table_driver(Setup(game="pavilion", seed=3))
    choose(driver, "legend")
    assert driver.snapshot.showing == "legend"
    rows = driver.panel_rows("centre")
    for index, tile in enumerate(palette.tile_colours("pavilion")):
        x, y = 8 * (index % 4), 1 + 8 * (index // 4)
        quarters = [[sum(rows[y + 1 + dy][x + dx]) for dx in range(2)] for dy in range(2)]
        brightest = max(map(max, quarters))
        assert tuple(tuple(int(q > brightest // 2) for q in row) for row in quarters) == tile.glyph, tile
        assert read_rows(rows, x + 3, y, 1) == tile.letter
