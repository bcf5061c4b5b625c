"""The simulator page in real headless Chromium: buttons only for the game's seats, following a new game
with another seat count, and every LED panel under its name."""

import pytest

from firmware_py.session import Seat, Setup
from tests.web.conftest import host_code
from tests.web.phones import base_url
from tests.web.test_browser import table  # noqa: F401 (the fixture)

pytest.importorskip("playwright")

from playwright.sync_api import expect  # noqa: E402


def panel_names(page):
    return {name.get_attribute("data-panel"): name.inner_text() for name in page.locator(".sim-panel-name").all()}


def test_the_simulator_shows_the_games_seats_and_names_its_panels(browser, table):  # noqa: F811
    remote, running = table
    page = browser.new_context(base_url=base_url(remote)).new_page()
    page.goto("/simulator/")
    expect(page.locator(".sim-panel-name")).to_have_count(5)
    assert panel_names(page) == {
        "centre": "Centre panel: factories, dome plates", "seat0": "Seat 1: Player 1", "seat1": "Seat 2: Player 2",
        "seat2": "Seat 3: not in this game", "seat3": "Seat 4: not in this game"}
    seats = page.locator(".sim-seat")
    expect(seats).to_have_count(2)
    assert page.locator(".sim-button[data-seat='2'], .sim-button[data-seat='3']").count() == 0
    expect(page.locator(".sim-button[data-button='HOST']")).to_have_count(1)

    # Each name sits just above its panel's LEDs, over the panel's width, and no two overlap.
    canvas = page.locator("#leds").bounding_box()
    layout = page.evaluate("fetch('/simulator/layout').then((answer) => answer.json())")["layout"]
    scale = canvas["width"] / layout["table"]["width"]
    boxes = {name: page.locator(f".sim-panel-name[data-panel='{name}']").bounding_box() for name in panel_names(page)}
    for panel in layout["panels"]:
        box = boxes[panel["name"]]
        width = panel["height"] if panel["facing"] % 180 else panel["width"]
        assert abs(box["x"] - (canvas["x"] + panel["x"] * scale)) < 1.5
        assert abs(box["width"] - width * scale) < 1.5
    for first in boxes.values():
        for second in boxes.values():
            if first is not second:
                apart = (first["x"] + first["width"] <= second["x"] + 0.5 or second["x"] + second["width"] <= first["x"] + 0.5
                         or first["y"] + first["height"] <= second["y"] + 0.5 or second["y"] + second["height"] <= first["y"] + 0.5)
                assert apart, (first, second)

    # The host starts a Summer Pavilion for four: the page follows with no reload.
    service = remote.service
    token = service.host_login(host_code(service.session), "127.0.0.1")
    token = service.new_game(Setup(game="pavilion", seats=(Seat("phone", "Ada"), Seat(), Seat(), Seat("ai", "Cy"))),
                             "en", token)
    expect(seats).to_have_count(4)
    expect(page.locator(".sim-panel-name[data-panel='centre']")).to_have_text("Centre panel: factories, centre, supply")
    expect(page.locator(".sim-panel-name[data-panel='seat0']")).to_have_text("Seat 1: Ada")
    expect(page.locator(".sim-panel-name[data-panel='seat3']")).to_have_text("Seat 4: Computer (normal)")

    # Back to two seats: the buttons of seats 3 and 4 go again.
    service.new_game(Setup(game="pavilion", seats=(Seat(), Seat())), "en", token)
    expect(seats).to_have_count(2)
    expect(page.locator(".sim-panel-name[data-panel='seat2']")).to_have_text("Seat 3: not in this game")
