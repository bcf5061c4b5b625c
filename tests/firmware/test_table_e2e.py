"""Whole games played only with the simulated rig's buttons, checked against the rules core and the LEDs."""
import pytest

from core_ext import duel, pavilion
from firmware_py.layouts import duel as duel_layout
from firmware_py.layouts import pavilion as pavilion_layout
from firmware_py.session import Seat, Setup


def test_a_whole_duel_played_with_buttons_matches_the_core(table_driver):
    driver = table_driver(Setup(game="duel", seed=21))
    reference = duel.Game(seed=21)
    driver.play_randomly(policy_seed=5, reference=reference)
    snapshot = driver.snapshot
    assert reference.is_over() and snapshot.over
    assert snapshot.scores == reference.scores()
    assert snapshot.state == reference.to_dict()
    for seat in range(2):
        x, y = duel_layout.SEAT["score"]
        assert driver.read_number(f"seat{seat}", x, y) == reference.scores()[seat]


def test_the_highlight_moves_on_the_leds_and_a_refused_press_flashes(table_driver):
    driver = table_driver(Setup(game="duel", seed=8))
    seat = driver.snapshot.current_player
    assert driver.snapshot.options[:3] == ("P1", "P2", "P3")
    display = [tuple(xy) for xy in duel_layout.CENTRE["display"]]

    def lit_white(spot):
        rows = driver.panel_rows("centre")
        x, y = spot
        return all(rows[y + dy][x + dx] == rows[y][x] and min(rows[y][x]) > 100 for dx in range(4) for dy in range(4))

    driver.table.display.blink_on = lambda: True  # freeze the blink in its lit phase
    driver.tap(seat, "NEXT")
    assert lit_white(display[1]) and not lit_white(display[0])
    other = 1 - seat
    before = driver.snapshot.state
    snapshot = driver.tap(other, "OK")
    assert snapshot.flash[0] == other and snapshot.state == before
    rows = driver.panel_rows(f"seat{other}")
    assert rows[0][0][0] > 100 and rows[0][0][1] == 0  # the red frame round the seat's panel


@pytest.mark.parametrize("players", [2, 4])
def test_a_whole_summer_pavilion_played_with_buttons_matches_the_core(table_driver, players):
    seats = tuple(Seat() for _ in range(players))
    driver = table_driver(Setup(game="pavilion", seats=seats, seed=30 + players))
    reference = pavilion.Game(players=players, seed=30 + players)
    driver.play_randomly(policy_seed=players, reference=reference)
    snapshot = driver.snapshot
    assert reference.is_over() and snapshot.over
    assert snapshot.scores == reference.scores()
    assert snapshot.state == reference.to_dict()
    for seat in range(players):
        x, y = pavilion_layout.SEAT["score"]
        assert driver.read_number(f"seat{seat}", x, y) == reference.scores()[seat]


def test_monochrome_stars_glow_neutral_where_coloured_stars_show_their_colour(table_driver):
    tints = {}
    for side in ("coloured", "monochrome"):
        driver = table_driver(Setup(game="pavilion", seed=3, flags=(("side", side),)))
        x, y = pavilion_layout.space_xy("O", 1)
        assert driver.table.display.wait_drawn(driver.snapshot.version)
        tints[side] = driver.panel_rows("seat0")[y][x]
    red, green, blue = tints["coloured"]
    assert red > blue  # the orange star's empty space glows orange
    assert len(set(tints["monochrome"])) == 1  # grey: any colour may go there


def test_more_than_three_drawn_plates_scroll_with_the_highlight(table_driver):
    driver = table_driver(Setup(game="duel", seed=9))
    while driver.snapshot.pending != "action":
        driver.choose(0)
    for _ in range(5):
        driver.choose(driver.snapshot.options.index("P+"))  # draw from the stack, five times
    driver.table.display.blink_on = lambda: True  # freeze the blink in its lit phase for every frame from here
    driver.choose(driver.snapshot.options.index("P="))
    snapshot = driver.snapshot
    assert snapshot.pending == "keep" and len(snapshot.state["drawn"]) == 5
    for index in range(5):
        if index:
            driver.tap(snapshot.current_player, "NEXT")
        rows = driver.panel_rows("centre")
        middle_or_edge = {0: 0, 4: 2}.get(index, 1)  # the highlighted plate sits in the middle spot when it can
        sx, sy = duel_layout.CENTRE["display"][middle_or_edge]
        assert all(min(rows[sy + dy][sx + dx]) > 100 for dx in range(4) for dy in range(4)), index
