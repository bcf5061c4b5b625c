"""A computer seat is named by its level in the phone's language wherever a game's seats are shown: the
game-over view's seats, winner line and rating changes (the state), the past games, the replay and the charts."""
import json
import urllib.request

import pytest

from firmware_py.journal import Journal
from firmware_py.session import Play, Seat, Setup
from tests.positions import one_move_from_the_end
from tests.web.phones import base_url, seated_phone
from web_remote import i18n


@pytest.fixture
def finished(tmp_path, start_table):
    """Ana (a phone) against the hard computer, a Duel the phone has just ended: (remote, journal)."""
    journal = Journal(tmp_path)
    ana = journal.players.create("Ana")
    setup = Setup(game="duel", seats=(Seat(kind="phone", name="Ana", player=ana.id),
                                      Seat(kind="ai", name="", level="hard")), seed=3)
    game, last = one_move_from_the_end(setup, 3, seat=0)
    remote, running = start_table(setup, game=game, journal=journal)
    running.session.call(Play(0, last))
    yield remote, journal
    journal.close()


def fetched(remote, path: str, language: str) -> str:
    asked = urllib.request.Request(f"{base_url(remote)}{path}", headers={"Accept-Language": language})
    with urllib.request.urlopen(asked) as answer:
        return answer.read().decode()


@pytest.mark.parametrize("language", ["it", "zh"])
def test_the_game_over_view_and_the_past_games_name_the_computer_by_its_level(finished, language):
    remote, journal = finished
    computer = i18n.seat_name(language, 1, "", "hard")
    state = json.loads(fetched(remote, "/api/state", language))
    assert state["over"]
    assert [seat["name"] for seat in state["seats"]] == ["Ana", computer]
    rated = {change["seat"]: change["words"] for change in state["ratings"]}
    assert rated[1].startswith(computer), rated
    past = fetched(remote, "/history/", language)
    assert computer in past and i18n.translate(language, "seat.default", n=2) not in past
    game_id = state["journal_game"]
    replay = fetched(remote, f"/history/{game_id}", language)
    assert computer in replay
    assert computer in fetched(remote, f"/history/{game_id}/story", language)


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_three_computers_names_head_the_4_player_score_table_whole_on_a_phone(browser, start_table, language):
    """Four seats share a phone's width: a computer's name ("Computador (especialista)") runs down its column
    of the score table rather than breaking mid-word, the seats' tabs show every name and score whole, and the
    page never scrolls sideways."""
    from playwright.sync_api import expect

    from tests.web.test_finger_games import CUT_WORDS

    setup = Setup(game="pavilion", seats=(Seat("phone", "Ana"), *(Seat("ai", "", level=level)
                                                                  for level in ("easy", "expert", "hard"))), seed=5)
    game, last = one_move_from_the_end(setup, 5, seat=0)
    remote, running = start_table(setup, game=game)
    running.session.call(Play(0, last))
    token = remote.service.join(remote.service.join_code, 0, "test")
    for width in (320, 390):
        page = seated_phone(browser, remote, 0, {"width": width, "height": 700}, token=token, language=language)
        names = page.locator("#breakdown tr").first.locator("th:not(:first-child)")
        expect(names).to_have_text(["Ana", *(i18n.seat_name(language, seat, "", level)
                                                 for seat, level in enumerate(("easy", "expert", "hard"), 1))])
        assert page.evaluate(CUT_WORDS, "#breakdown th, #breakdown td") == [], (language, width)
        # Each seat's tab above the board shows its name and score whole, no word of them cut.
        expect(page.locator(".seat-tab")).to_have_count(4)
        assert page.evaluate(CUT_WORDS, ".seat-tab") == [], (language, width)
        clipped = page.evaluate("""() => [...document.querySelectorAll('.seat-tab, .seat-tab > span')]
            .filter((part) => part.scrollHeight > part.clientHeight + 1 || part.scrollWidth > part.clientWidth + 1)
            .map((part) => part.textContent)""")
        assert clipped == [], (language, width)
        assert page.evaluate("document.documentElement.scrollWidth") == width, (language, width)
        page.context.close()
