"""The game-over view tells each rated player what the game did to their rating, in the phone's language."""
import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect

from firmware_py.journal import Journal
from firmware_py.session import Play, Seat, Session, Setup
from tests.positions import one_move_from_the_end
from tests.web.phones import PHONE, base_url, seated_phone


@pytest.fixture
def finished_table(tmp_path, start_table):
    """A Duel of Ana on a phone and Bea at the rig, rated as its last decision ends it: (remote, journal)."""
    journal = Journal(tmp_path)
    ana, bea = journal.players.create("Ana"), journal.players.create("Bea")
    setup = Setup(game="duel", seats=(Seat(kind="phone", name="Ana", player=ana.id),
                                      Seat(kind="rig", name="Bea", player=bea.id)), seed=3)
    game, last = one_move_from_the_end(setup, 3)
    remote, running = start_table(setup, game=game, journal=journal)
    running.session.call(Play(game.current_player, last))
    yield remote, journal
    journal.close()


def test_the_state_says_each_rated_players_change_in_the_phones_language(finished_table):
    remote, journal = finished_table
    rows = journal.ratings.of_game(journal.current_game)
    assert len(rows) == 2
    asked = urllib.request.Request(f"{base_url(remote)}/api/state", headers={"Accept-Language": "it"})
    with urllib.request.urlopen(asked) as answer:
        state = json.load(answer)
    assert state["journal_game"] == journal.current_game
    words = [change["words"] for change in state["ratings"]]
    before, after = (f"{rows[0].before.mu:.1f}".replace(".", ","), f"{rows[0].after.mu:.1f}".replace(".", ","))
    assert words[0] == f"Ana: valutazione {before} → {after}"
    assert [change["player"] for change in state["ratings"]] == [row.player_id for row in rows]


@pytest.mark.parametrize("viewport", [PHONE["viewport"], {"width": 320, "height": 568}])
def test_the_game_over_view_lists_the_rating_changes(finished_table, browser, viewport):
    remote, journal = finished_table
    page = seated_phone(browser, remote, 0, viewport)
    changes = page.locator("#rating-list li")
    expect(changes).to_have_count(2)
    expect(changes.nth(0)).to_have_text(re.compile(r"^Ana: rating \d+\.\d → \d+\.\d$"))
    expect(changes.nth(1)).to_have_text(re.compile(r"^Bea: rating "))
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"]
    page.context.close()
