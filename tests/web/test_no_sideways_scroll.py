"""No page of the remote scrolls sideways on a phone 320 or 390 px wide, in any language: each page's width is
the viewport's. The live page shows a 4-player game over (its final scoring table with two computer seats,
whose names are the longest), the past games and player pages a finished Duel and a 4-player Summer Pavilion."""
import os

import pytest

from firmware_py.journal import Journal
from firmware_py.session import Play, Seat, Setup
from tests.web.phones import base_url
from tests.positions import one_move_from_the_end
from tests.web.test_story_charts import finished_record
from web_remote import i18n

pytestmark = pytest.mark.skipif(not os.path.exists("/usr/bin/chromium"),
                                reason="Debian's chromium is not installed (.ci/run installs it)")

WIDTHS = ({"width": 320, "height": 568}, {"width": 390, "height": 844})
WIDTH = "() => ({page: document.documentElement.scrollWidth, viewport: window.innerWidth})"


@pytest.fixture
def table(tmp_path, start_table):
    """A 4-player Summer Pavilion of two people and two computers, just over, with a past Duel and Pavilion."""
    journal = Journal(tmp_path)
    duel = journal.import_record(finished_record("duel", ("Ana", "Bea"), 4))
    pavilion = journal.import_record(finished_record("pavilion", ("Ana", "Bartholomew Kensington", "Chen", "Dee"), 5))
    ana = journal.players.create("Ana", colour="yellow", symbol="heart")
    journal.players.attach("Ana", ana.id)
    computer = next(profile for profile in journal.players.all() if profile.is_computer)
    setup = Setup(game="pavilion", seats=(Seat("phone", "Ana", player=ana.id), Seat("rig", "Bartholomew Kensington"),
                                          Seat("ai", "", level="hard"), Seat("ai", "", level="normal")), seed=6)
    game, last = one_move_from_the_end(setup, 6)
    remote, running = start_table(setup, game=game, journal=journal)
    if running.session.snapshot.current_player in (0, 1):
        running.session.call(Play(running.session.snapshot.current_player, last))
    pages = ["/", "/join", "/host", "/settings", "/history/", f"/history/{duel}", f"/history/{pavilion}",
             "/players/", f"/players/{ana.id}", f"/players/{computer.id}", "/help/", "/help/?game=duel", "/rules/",
             "/rules/duel", "/rules/pavilion"]
    yield remote, pages
    journal.close()


def test_no_page_scrolls_sideways_at_320_or_390_px_in_any_language(table, browser):
    remote, pages = table
    wide = []
    for viewport in WIDTHS:
        context = browser.new_context(base_url=base_url(remote), viewport=viewport, is_mobile=True, has_touch=True)
        page = context.new_page()
        for language in i18n.LANGUAGES:
            context.add_cookies([{"name": i18n.LANGUAGE_COOKIE, "value": language, "url": base_url(remote)}])
            for path in pages:
                page.goto(path)
                if path == "/":
                    page.locator("#breakdown tr").first.wait_for()
                    page.locator("#story-charts figure").first.wait_for()
                measured = page.evaluate(WIDTH)
                if measured["page"] != measured["viewport"]:
                    wide.append((viewport["width"], language, path, measured["page"]))
        context.close()
    assert not wide, wide
