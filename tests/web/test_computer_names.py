"""A computer seat is named by its level in the phone's language wherever a game's seats are shown: the
game-over view's seats, winner line and rating changes (the state), the past games, the replay and the charts."""
import json
import urllib.request

import pytest

from firmware_py.journal import Journal
from firmware_py.session import Play, Seat, Setup
from tests.positions import one_move_from_the_end
from tests.web.phones import base_url
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
