"""What the table shows over the game: the join code never covers what the pending decision needs
nor a menu item, the HOST menu shows where phones join (with the join code) and a legend of the tile
colours, and whatever it shows goes by itself after a while and at every new game."""
import random
import time

import pytest

import hardware
from firmware_py import font, layouts, palette
from firmware_py.controls import MENU_IDLE_S, SHOWN_S, HostMenu
from firmware_py.display import BLINK_PERIOD_S, TableDisplay
from firmware_py.session import AnswerUndo, NewGame, Play, Press, Rematch, RequestUndo, Seat, Session, Setup
from tests.firmware.test_undo import Clock, read_text
from tests.patience import patient


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


@pytest.mark.parametrize("setup", [
    Setup(game="duel", seed=3),  # the first decision lies at the foot: the code would go to the top
    Setup(game="pavilion", seed=3),
    Setup(game="pavilion", seats=(Seat(),) * 4, seed=4),
], ids=lambda setup: f"{setup.game}-{len(setup.seats)}")
@pytest.mark.parametrize("item", HostMenu.ITEMS)
def test_the_join_code_hides_no_menu_item(setup, item):
    session = Session(setup)
    session.apply(Press(None, "HOST", "hold"))
    while session.snapshot.menu[1] != HostMenu.ITEMS.index(item):
        session.apply(Press(None, "HOST"))
    plain, with_code = frame(session), frame(session, pin="406813")
    assert with_code.rows("centre") == plain.rows("centre")
    if len(setup.seats) < 4:  # shown on the panel of a seat the game leaves empty
        panel = layouts.seat_panel(len(setup.seats))
        assert with_code.rows(panel) != plain.rows(panel)


def wait_until(session, done, timeout=10.0):
    """Wait for the session thread to publish a snapshot for which ``done`` holds (the timeout guards against a
    hang only)."""
    snapshot = session.snapshot
    while not done(snapshot):
        later = session.wait_for_change(snapshot.version, patient(timeout))
        assert later.version > snapshot.version, "nothing changed"
        snapshot = later
    return snapshot


@pytest.mark.parametrize("item", [None, *HostMenu.SHOWN])
def test_the_menu_and_what_it_shows_close_by_themselves(item):
    """The session's clock runs on by hand; its thread closes the menu when the item's time is up."""
    clock = Clock()
    session = Session(Setup(game="duel", seed=3), clock=clock).start()
    try:
        session.call(Press(None, "HOST", "hold"))
        if item is not None:
            while session.snapshot.menu[0][session.snapshot.menu[1]] != item:
                session.call(Press(None, "HOST"))
            session.call(Press(0, "OK"))
        seconds = MENU_IDLE_S if item is None else SHOWN_S[item]
        clock.now += seconds - 1
        time.sleep(1.2)  # the thread looks at the clock at least once a second
        assert session.snapshot.menu is not None and session._menu.showing == item
        clock.now += 1
        snapshot = wait_until(session, lambda snapshot: snapshot.menu is None)
        assert snapshot.host_code is None and snapshot.showing is None
    finally:
        session.stop()


def test_the_times_on_show_are_what_the_rig_doc_says():
    assert (MENU_IDLE_S, SHOWN_S) == (30.0, {"host code": 60.0, "address": 60.0, "legend": 30.0})


def finish(session):
    while not session.snapshot.over:
        session.apply(Play(session.snapshot.current_player, session.snapshot.options[0]))


@pytest.mark.parametrize("item", HostMenu.SHOWN)
@pytest.mark.parametrize("how", ["new game from a phone", "rematch", "NEW in the menu"])
def test_a_new_game_clears_what_the_menu_shows(item, how):
    session = Session(Setup(game="duel", seed=3))
    finish(session)
    session.apply(Press(None, "HOST", "hold"))
    while session.snapshot.menu[0][session.snapshot.menu[1]] != item:
        session.apply(Press(None, "HOST"))
    session.apply(Press(0, "OK"))
    assert session._menu.showing == item
    if how == "new game from a phone":
        session.apply(NewGame(Setup(game="pavilion", seed=4)))
    elif how == "rematch":
        session.apply(Rematch())
    else:
        session.apply(Press(0, "BACK"))
        while session.snapshot.menu[1] != 0:
            session.apply(Press(0, "PREV"))
        session.apply(Press(0, "OK"))
    snapshot = session.snapshot
    assert not snapshot.over and not snapshot.history
    assert snapshot.menu is None and snapshot.host_code is None and snapshot.showing is None


def asked_while_deciding(setup, choices):
    """A session where an undo request waits for the seat whose decision is pending, with options on the
    top of its own panel (seat 0 asks to undo the decision that seat just made), or None."""
    session = Session(setup)
    while not session.snapshot.over:
        snapshot = session.snapshot
        last = session._decisions[-1] if session._decisions else None
        panel = layouts.seat_panel(snapshot.current_player)
        if last is not None and last.seat == snapshot.current_player != 0 and not last.revealed and any(
                p == panel and y < 12 for p, _, y in needed_pixels(session)):
            session.apply(RequestUndo(0))
            if session.snapshot.undo_request is not None:
                return session
        session.apply(Play(snapshot.current_player, choices.choice(snapshot.options)))
    return None


@pytest.mark.parametrize("setup", [Setup(game="duel", seed=5), Setup(game="pavilion", seats=(Seat(),) * 3, seed=4)],
                         ids=lambda setup: setup.game)
def test_an_undo_request_hides_nothing_the_asked_players_decision_needs(setup):
    choices = random.Random(setup.game)
    session = asked_while_deciding(setup, choices)
    assert session is not None
    asked = session.snapshot.current_player
    panel = layouts.seat_panel(asked)
    shown = frame(session)
    session.apply(AnswerUndo(asked, False))
    plain = frame(session)
    for pixel in needed_pixels(session):
        assert shown.pixel(*pixel) == plain.pixel(*pixel), pixel
    assert read_rows(shown.rows(panel), *layouts.UNDO_CORNER[:2], 3) == "P1?"  # the request is on show
