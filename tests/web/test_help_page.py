"""The phone page's help: every LED area of the layouts named, on pictures the table's own code draws,
in every language; reachable from the live page, accessible, and no wider than a 320 px phone."""
import re
import xml.etree.ElementTree as ElementTree

import pytest

import hardware
from firmware_py import layouts
from firmware_py.display import TableDisplay
from firmware_py.layouts import pictures
from firmware_py.session import Seat, Session, Setup
from web_remote import create_app, help as help_page, i18n, runner
from web_remote.service import RemoteService

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def client():
    session = Session(Setup(game="pavilion", seats=(Seat(), Seat(), Seat()), seed=2)).start()
    service = RemoteService(session)
    yield create_app(service, {"TESTING": True}).test_client()
    service.close()
    session.stop()


def listed(html, part):
    """(start number, [(area, text)]) of the help's list of ``part``'s areas."""
    block = re.search(rf'<ol class="help-areas" id="help-{part}"(?: start="(\d+)")?>(.*?)</ol>', html, re.S)
    items = re.findall(r'<li data-area="(\w+)">(.*?)</li>', block.group(2), re.S)
    return int(block.group(1) or 1), items


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
@pytest.mark.parametrize("game", ["duel", "pavilion"])
def test_the_help_names_every_area_of_the_layout_in_every_language(client, game, language):
    client.set_cookie(i18n.LANGUAGE_COOKIE, language)
    html = client.get(f"/help/?game={game}").get_data(as_text=True)
    areas = layouts.areas(game)
    centre_start, centre = listed(html, "centre")
    seat_start, seat = listed(html, "seat")
    assert [area for area, _ in centre] == list(areas["centre"]) and centre_start == 1
    assert [area for area, _ in seat] == list(areas["seat"]) and seat_start == len(areas["centre"]) + 1
    for part, items in (("centre", centre), ("seat", seat)):
        for area, text in items:
            assert text.strip() and "help.area" not in text
            if language != "en":  # translated, not left in English
                assert text != i18n.translate("en", f"help.area.{game}.{part}.{area}"), (language, area)
    for view in help_page.VIEWS:
        assert f'src="/help/{game}/{view}.svg"' in html


def test_the_help_follows_the_game_on_the_table_and_refuses_what_it_does_not_know(client):
    html = client.get("/help/").get_data(as_text=True)
    assert 'href="/help/?game=pavilion" aria-current="page"' in html
    for path in ("/help/?game=chess", "/help/chess/centre.svg", "/help/duel/board.svg"):
        answer = client.get(path)
        assert answer.status_code == 400 and answer.json["error"] == "error.invalid_field", path


def circles(svg_text):
    """The LED dots of a picture as {(x, y): '#rrggbb'} by LED position."""
    root = ElementTree.fromstring(svg_text)
    pitch = help_page.PITCH
    return {(int(float(c.get("cx")) // pitch), int(float(c.get("cy")) // pitch)): c.get("fill")
            for c in root.iter(f"{SVG}circle") if c.get("r") == "6"}


@pytest.mark.parametrize("game", ["duel", "pavilion"])
def test_the_pictures_are_the_frames_the_table_draws_with_the_layouts_areas(client, game):
    hw = hardware.simulate(clock=hardware.ManualClock())
    try:
        TableDisplay(hw.leds, clock=lambda: 0.0).draw(pictures.position(help_page.POSITIONS[game]).snapshot)
        frame = hw.memory.panels()
    finally:
        hw.close()
    for view, panel in (("centre", "centre"), ("seat", "seat0")):
        svg = client.get(f"/help/{game}/{view}.svg")
        assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
        expected = {(x, y): "#{:02x}{:02x}{:02x}".format(*colour) if any(colour) else help_page.DARK
                    for y, row in enumerate(frame.rows(panel, display=True)) for x, colour in enumerate(row)}
        assert circles(svg.get_data(as_text=True)) == expected, view
        root = ElementTree.fromstring(svg.get_data(as_text=True))
        outlined = [tuple(round((float(r.get(key)) + 1) / help_page.PITCH) for key in ("x", "y", "width", "height"))
                    for r in root.iter(f"{SVG}rect") if r.get("stroke-dasharray")]
        assert outlined == [tuple(box) for box in layouts.areas(game)[view].values()]
        first = 1 if view == "centre" else len(layouts.areas(game)["centre"]) + 1
        assert [int(t.text) for t in root.iter(f"{SVG}text")] == list(range(first, first + len(outlined)))


def test_the_join_code_picture_outlines_the_code_where_the_table_draws_it(client):
    root = ElementTree.fromstring(client.get("/help/duel/join.svg").get_data(as_text=True))
    (band,) = [r for r in root.iter(f"{SVG}rect") if r.get("stroke-dasharray")]
    box = [(float(band.get(key)) + extra) / help_page.PITCH for key, extra in
           (("x", -0.75), ("y", -0.75), ("width", 1.5), ("height", 1.5))]
    # Azul Duel's first decision takes a plate from the display at the foot: the code goes on top.
    assert box == [0, 0, 32, 7]


# -- in the browser -------------------------------------------------------------------


@pytest.fixture(scope="module")
def served():
    session = Session(Setup(game="duel", seats=(Seat("phone", "Ada"), Seat("phone", "Bo")), seed=2)).start()
    remote = runner.start(RemoteService(session), host="127.0.0.1", port=0)
    yield f"http://127.0.0.1:{remote.port}"
    remote.close()
    session.stop()


def test_the_live_page_leads_to_the_help_which_has_no_serious_accessibility_violation(browser, served):
    from axe_playwright_python.sync_playwright import Axe

    page = browser.new_context(base_url=served, viewport={"width": 390, "height": 844}, is_mobile=True,
                               has_touch=True).new_page()
    page.goto("/")
    page.locator("#help-link").click()
    page.wait_for_url("**/help/")
    page.wait_for_load_state("networkidle")
    assert page.locator("#help-centre li").count() == len(layouts.areas("duel")["centre"])
    assert page.evaluate("[...document.images].every((image) => image.complete && image.naturalWidth > 0)")
    violations = Axe().run(page).response["violations"]
    serious = [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in violations if v["impact"] in ("serious", "critical")]
    assert not serious


def test_the_help_fits_a_320_px_phone_in_every_language(browser, served):
    from tests.web.test_page_checks import OVERFLOW

    context = browser.new_context(base_url=served, viewport={"width": 320, "height": 568})
    page = context.new_page()
    for language in i18n.LANGUAGES:
        context.add_cookies([{"name": i18n.LANGUAGE_COOKIE, "value": language, "url": served}])
        for game in ("duel", "pavilion"):
            page.goto(f"/help/?game={game}")  # "load": the pictures are in
            assert page.locator("html").get_attribute("lang") == language
            layout = page.evaluate(OVERFLOW)
            assert layout["scroll"] <= layout["width"] and not layout["over"], (language, game, layout)
    context.close()


def test_the_legend_explains_each_code_a_refused_press_shows(client):
    from firmware_py.display import OTHER_REFUSAL, REFUSAL_CODES

    page = client.get("/help/", headers={"Accept-Language": "sv"}).get_data(as_text=True)
    for code in {code for _, code in REFUSAL_CODES} | {OTHER_REFUSAL}:
        assert f'data-code="{code}"' in page and i18n.translate("sv", f"help.refusal.{code}") in page
