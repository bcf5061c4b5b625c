"""The past-games pages: list, record download and upload, replay on the phone and on the LEDs."""
import io
import json

import pytest

import hardware
from firmware_py.display import TableDisplay
from firmware_py.journal import Journal
from firmware_py.session import Play, Seat, Session, Setup
from web_remote import create_app, history
from web_remote.service import RemoteService

PLAYERS = Setup(game="duel", seats=(Seat(name="Ada"), Seat(name="Bo")), seed=13)


@pytest.fixture
def table(tmp_path):
    journal = Journal(tmp_path)
    session = Session(PLAYERS, journal=journal)
    for _ in range(6):
        session.apply(Play(session.snapshot.current_player, session.snapshot.options[-1]))
    service = RemoteService(session)
    app = create_app(service, {"TESTING": True})
    yield app, session, journal
    service.close()


def test_the_list_shows_date_players_and_decisions(table):
    app, session, journal = table
    page = app.test_client().get("/history/").get_data(as_text=True)
    assert "Azul Duel (playing)" in page and "Ada" in page and "Bo" in page and "6 decisions" in page
    assert journal.games()[0].started[:10] in page


def test_a_downloaded_record_uploads_as_a_new_game_with_the_same_moves(table):
    app, session, journal = table
    client = app.test_client()
    response = client.get("/history/1.json")
    assert response.headers["Content-Disposition"] == 'attachment; filename="azul-game-1.json"'
    record = response.get_json()
    assert record["moves"] == [notation for _, notation in session.snapshot.history]
    upload = client.post("/history/import", data={"record": (io.BytesIO(response.data), "game.json")})
    assert upload.status_code == 302 and upload.headers["Location"].endswith("/history/2?ply=0")
    assert journal.export(2).moves == journal.export(1).moves
    assert "(unfinished)" in client.get("/history/").get_data(as_text=True)


def test_a_bad_upload_says_why_and_stores_nothing(table):
    app, session, journal = table
    client = app.test_client()
    record = json.loads(client.get("/history/1.json").data)
    record["moves"][2] = "S9Q"
    response = client.post("/history/import", data={"record": (io.BytesIO(json.dumps(record).encode()), "x.json")})
    assert response.status_code == 400
    assert "move 3 (S9Q) cannot be played" in response.get_data(as_text=True)
    assert len(journal.games()) == 1


def test_the_replay_steps_through_the_moves_with_a_picture_of_the_table(table):
    app, session, journal = table
    client = app.test_client()
    page = client.get("/history/1?ply=2").get_data(as_text=True)
    assert "move 2 of 6" in page and "ply=1" in page and "ply=3" in page
    first = client.get("/history/1/table.png?ply=0")
    later = client.get("/history/1/table.png?ply=6")
    assert first.mimetype == "image/png" and first.data.startswith(b"\x89PNG")
    assert first.data != later.data
    assert client.get("/history/1?ply=7").status_code == 400
    assert client.get("/history/9").status_code == 404


def test_a_replayed_move_goes_onto_the_leds_and_the_live_game_comes_back(table):
    app, session, journal = table
    hw = hardware.simulate(clock=hardware.ManualClock())
    display = TableDisplay(hw.leds)
    shown = []
    display.update = shown.append  # what the pages hand to the display's render thread
    history.attach_display(app, display)
    client = app.test_client()
    display.draw(session.snapshot)
    live = hw.memory.panels().display
    assert client.post("/history/1/leds?ply=0").status_code == 302
    assert shown[-1].history == () and shown[-1].version < 0
    display.draw(shown[-1])
    assert hw.memory.panels().display != live
    assert client.post("/history/live").status_code == 302
    assert shown[-1] is session.snapshot
    hw.close()


def test_without_attached_leds_the_led_buttons_are_absent_and_refused(table):
    app, session, journal = table
    client = app.test_client()
    assert "Show this move on the table" not in client.get("/history/1").get_data(as_text=True)
    assert client.post("/history/1/leds?ply=0").status_code == 404
