"""Pages of results are worked out once and kept until the journal's results change (web_remote/kept.py):
the moves of a game being played leave them, a finished game, a new profile or other table settings change
them, a seated phone's or the host's requests and a review still under way are never kept, and a phone
asking again with the ETag gets a 304."""
import pytest

from firmware_py.journal import Journal
from firmware_py.session import ChangeSettings, Play, Seat, Session, Setup
from tests.web.test_player_pages import played_at_the_table, reviewed
from web_remote import create_app, guards, history, kept, player_pages
from web_remote.service import RemoteService


@pytest.fixture
def table(tmp_path):
    """A journal with a finished game of Ana's and a Duel of two phones being played: (client, session,
    journal)."""
    journal = Journal(tmp_path)
    ana = journal.players.create("Ana")
    played_at_the_table(journal, "duel", (Seat(name="Ana", player=ana.id), Seat(name="Bo")), seed=5)
    session = Session(Setup(game="duel", seats=(Seat(kind="phone"), Seat(kind="phone")), seed=3), journal=journal)
    session.start()
    service = RemoteService(session)
    app = create_app(service)
    yield app.test_client(), session, journal
    service.close()
    session.stop()
    journal.close()


def counted(monkeypatch, module, name):
    """Count the calls of ``module.name`` (what a page is worked out from): a list that grows by one each."""
    calls = []
    work = getattr(module, name)

    def counting(*args, **kwargs):
        calls.append(1)
        return work(*args, **kwargs)

    monkeypatch.setattr(module, name, counting)
    return calls


def play(session, moves):
    for _ in range(moves):
        session.call(Play(session.snapshot.current_player, session.snapshot.options[-1]))


def test_the_players_page_is_worked_out_once_while_a_game_goes_on_and_again_for_a_new_profile(table, monkeypatch):
    client, session, journal = table
    worked = counted(monkeypatch, player_pages, "listing")
    first = client.get("/players/")
    play(session, 3)
    again = client.get("/players/")
    assert first.status_code == again.status_code == 200 and again.data == first.data and len(worked) == 1
    journal.players.create("Dora")
    changed = client.get("/players/")
    assert "Dora" in changed.get_data(as_text=True) and "Dora" not in first.get_data(as_text=True)
    assert len(worked) == 2


def test_the_past_games_list_shows_a_game_once_it_ends(table):
    client, session, journal = table
    playing = client.get("/history/").get_data(as_text=True)
    assert "game-2" in playing and "(playing)" in playing
    while not session.snapshot.over:
        play(session, 1)
    ended = client.get("/history/").get_data(as_text=True)
    assert "(playing)" not in ended and f"Decisions: {journal.games()[0].decisions}<" in ended


def test_each_language_and_path_has_an_answer_of_its_own(table, monkeypatch):
    client, _, _ = table
    worked = counted(monkeypatch, history, "page")
    english = client.get("/history/1?ply=2").get_data(as_text=True)
    italian = client.get("/history/1?ply=2", headers={"Accept-Language": "it"}).get_data(as_text=True)
    other_move = client.get("/history/1?ply=3").get_data(as_text=True)
    assert len(worked) == 3 and 'lang="en"' in english and 'lang="it"' in italian and other_move != english
    assert client.get("/history/1?ply=2", headers={"Accept-Language": "it"}).get_data(as_text=True) == italian
    assert len(worked) == 3


def test_the_replays_picture_follows_the_tables_brightness(table):
    client, session, _ = table
    bright = client.get("/history/1/table.png")
    session.call(ChangeSettings(brightness=0.1))
    dim = client.get("/history/1/table.png")
    assert bright.status_code == dim.status_code == 200 and dim.data != bright.data


def test_a_phone_asking_again_with_the_etag_gets_a_304_until_the_results_change(table):
    client, _, journal = table
    first = client.get("/api/players")
    etag = first.headers["ETag"]
    assert client.get("/api/players", headers={"If-None-Match": etag}).status_code == 304
    journal.players.create("Dora")
    changed = client.get("/api/players", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert "Dora" in [player["name"] for player in changed.get_json()["players"]]


def test_a_request_with_a_seats_or_the_hosts_token_is_worked_out_each_time(table, monkeypatch):
    client, _, _ = table
    worked = counted(monkeypatch, player_pages, "listing")
    for header in (guards.SEAT_HEADER, guards.HOST_HEADER):
        client.get("/players/", headers={header: "anything"})
        client.get("/players/", headers={header: "anything"})
    assert len(worked) == 4


def test_a_review_under_way_is_never_kept_and_a_complete_one_is(table, monkeypatch):
    client, _, journal = table
    rows = journal.review_rows(1)
    journal.keep_review(rows[0][0], rows[1][3], 2.0)
    under_way = client.get("/review/1")
    assert under_way.get_json()["reviewed"] == 1 and "no-store" in under_way.headers["Cache-Control"]
    journal.keep_review(rows[2][0], rows[3][3], 3.0)
    assert client.get("/review/1").get_json()["reviewed"] == 2
    reviewed(journal, 1, {0: [4.0]})
    worked = counted(monkeypatch, journal, "review_rows")
    complete = [client.get("/review/1").get_json() for _ in range(3)]
    assert complete[0]["complete"] and complete[0] == complete[2] and len(worked) == 1


def test_the_replay_of_the_game_being_played_follows_its_moves(table):
    client, session, _ = table
    before = client.get("/history/2").get_data(as_text=True)
    assert client.get("/history/2").get_data(as_text=True) == before
    play(session, 1)
    after = client.get("/history/2").get_data(as_text=True)
    moves = len(session.snapshot.history)
    assert after != before and f'href="/history/2?ply={moves}"' in after and f'?ply={moves}"' not in before


def test_refusals_are_not_kept(table):
    client, session, _ = table
    assert client.get("/history/2.json").status_code == 409  # the game being played
    while not session.snapshot.over:
        play(session, 1)
    assert client.get("/history/2.json").status_code == 200


def test_no_more_answers_are_kept_than_the_bound(table):
    client, _, _ = table
    for ply in range(kept.KEPT_ANSWERS + 10):
        assert client.get(f"/history/1/table.png?ply={ply % 20}&n={ply}").status_code == 200
    assert len(client.application.extensions["azul_kept_answers"].kept) == kept.KEPT_ANSWERS
