"""The past-games pages: list, records, replays on the phone and the LEDs, languages, actions only for the host."""
import json
import re
import time

import pytest
from markupsafe import escape

import hardware
from firmware_py.display import TableDisplay
from firmware_py.journal import Journal
from firmware_py.records import position_snapshot
from firmware_py.session import NewGame, Play, Seat, Session, Setup
from web_remote import create_app, history, i18n
from tests.patience import patient
from tests.web.conftest import host_code
from web_remote.service import RemoteService

PLAYERS = Setup(game="duel", seats=(Seat(name="Ada"), Seat(name="Bo")), seed=13)


@pytest.fixture
def table(tmp_path):
    """(test client, session, journal, service) after six decisions of a Duel."""
    journal = Journal(tmp_path)
    session = Session(PLAYERS, journal=journal)
    for _ in range(6):
        session.apply(Play(session.snapshot.current_player, session.snapshot.options[-1]))
    service = RemoteService(session.start())
    app = create_app(service, {"TESTING": True})
    yield app.test_client(), session, journal, service
    service.close()
    session.stop()


@pytest.fixture
def host(table):
    """The headers of the host's page scripts."""
    service = table[3]
    return {"X-Host-Token": service.host_login(host_code(service.session), "127.0.0.1")}


@pytest.fixture
def shown(table):
    """What the pages hand to the attached LED display's render thread, in order."""
    client = table[0]
    hw = hardware.simulate(clock=hardware.ManualClock())
    display = TableDisplay(hw.leds)
    handed = []
    display.update = handed.append
    history.attach_display(client.application, display)
    yield handed
    hw.close()


def html(response) -> str:
    """The page without the catalogue it embeds for its scripts, so only what it shows is searched."""
    return re.sub(r'<script type="application/json" id="strings">.*?</script>', "", response.get_data(as_text=True),
                  flags=re.S)


def record_text(client, game_id=1):
    """The game's record as the journal holds it (the pages hand out only finished games' records)."""
    return client.application.extensions["azul_remote"].session.journal.export(game_id).to_json()


def finish(session):
    while not session.snapshot.over:
        session.call(Play(session.snapshot.current_player, session.snapshot.options[-1]))


def test_the_list_shows_date_players_and_decisions_once_the_game_ends(table):
    client, session, journal, _ = table
    page = html(client.get("/history/"))
    assert "Azul Duel (playing)" in page and "Ada" in page and "Bo" in page and "Decisions:" not in page
    assert journal.games()[0].started[:10] in page
    finish(session)
    page = html(client.get("/history/"))
    decisions = journal.games()[0].decisions
    assert decisions > 6 and f"Decisions: {decisions}<" in page and "(playing)" not in page


def test_unnamed_players_are_named_in_the_phones_language(table):
    client, session, _, _ = table
    session.call(NewGame(Setup(game="duel", seed=2)))
    page = html(client.get("/history/", headers={"Accept-Language": "it"}))
    assert "Giocatore 1" in page and "Giocatore 2" in page and "Player 1" not in page


def in_html(language):
    """``t(key, **fields)`` as a page shows it in ``language`` (HTML-escaped)."""
    return lambda key, **fields: str(escape(i18n.translate(language, key, **fields)))


@pytest.mark.parametrize("language", ["zh", "sv"])
def test_the_list_speaks_the_phones_language(table, language):
    client = table[0]
    page = html(client.get("/history/", headers={"Accept-Language": language}))
    t = in_html(language)
    assert f'<html lang="{language}">' in page and f"<h1>{t('history.title')}</h1>" in page
    assert f"{t('game.duel')} {t('history.playing')}" in page and t("history.decisions", n=6) not in page
    assert t("history.import") in page and t("nav.history") in page and "Azul Duel (playing)" not in page
    finish(table[1])
    page = html(client.get("/history/", headers={"Accept-Language": language}))
    assert t("history.decisions", n=table[2].games()[0].decisions) in page and t("history.playing") not in page


@pytest.mark.parametrize("language", ["it", "pt"])
def test_the_replay_speaks_the_phones_own_choice(table, language):
    client, session, journal, _ = table
    client.set_cookie(i18n.LANGUAGE_COOKIE, language)
    page = html(client.get("/history/1?ply=2", headers={"Accept-Language": "en"}))
    t = in_html(language)
    record = journal.export(1)
    assert t("history.position", game=i18n.translate(language, "game.duel"), ply=2, moves=6) in page
    assert str(escape(i18n.option_label(language, "duel", record.moves[2]))) in page and t("history.previous") in page
    replayed = position_snapshot(record, 2)
    assert t("live.turn", name=("Ada", "Bo")[replayed.current_player],
             decision=i18n.pending_label(language, "duel", replayed.pending)) in page
    assert "move 2 of 6" not in page


def test_the_pages_run_their_script_from_a_file_under_the_strict_content_policy(table):
    client = table[0]
    for path in ("/history/", "/history/1"):
        response = client.get(path)
        assert "script-src 'self'" in response.headers["Content-Security-Policy"]
        scripts = re.findall(r"<script([^>]*)>(.*?)</script>", response.get_data(as_text=True), re.S)
        assert all("src=" in attributes or 'type="application/json"' in attributes for attributes, _ in scripts)
        assert any("/static/history.js" in attributes for attributes, _ in scripts)
    with client.get("/static/history.js") as script:
        assert script.status_code == 200


def test_the_host_uploads_a_downloaded_record_as_a_new_game_with_the_same_moves(table, host):
    client, session, journal, _ = table
    finish(session)
    response = client.get("/history/1.json")
    assert response.headers["Content-Disposition"] == 'attachment; filename="azul-game-1.json"'
    assert response.get_json()["moves"] == [notation for _, notation in session.snapshot.history]
    upload = client.post("/history/import", json={"record": response.get_data(as_text=True)}, headers=host)
    assert upload.status_code == 201 and upload.json["url"].endswith("/history/2?ply=0")
    assert journal.export(2).moves == journal.export(1).moves
    assert journal.games()[0].status == "finished" and journal.games()[0].origin == "import"


def test_an_unfinished_record_is_imported_and_listed_as_unfinished(table, host):
    client, session, journal, _ = table
    upload = client.post("/history/import", json={"record": record_text(client)}, headers=host)
    assert upload.status_code == 201
    assert journal.export(2).moves == journal.export(1).moves
    assert "(unfinished)" in html(client.get("/history/"))


def test_a_bad_upload_says_why_in_the_phones_language_and_stores_nothing(table, host):
    client, session, journal, _ = table
    record = json.loads(record_text(client))
    record["moves"][2] = "S9Q"
    response = client.post("/history/import", json={"record": json.dumps(record)},
                           headers={**host, "Accept-Language": "pt"})
    assert response.status_code == 400 and response.json["error"] == "history.bad_record"
    assert response.json["message"].startswith("Este registro não pode ser importado: move 3 (S9Q) cannot be played")
    assert len(journal.games()) == 1


def test_an_oversized_upload_is_refused_before_it_is_read(table, host):
    client, session, journal, _ = table
    padded = record_text(client) + " " * history.MAX_RECORD_BYTES
    response = client.post("/history/import", json={"record": padded}, headers={**host, "Accept-Language": "sv"})
    assert response.status_code == 413
    assert response.json["message"] == i18n.translate("sv", "history.too_large", mb=2)
    assert len(journal.games()) == 1


@pytest.mark.serial
def test_a_record_padded_with_megabytes_costs_its_pages_no_more_than_the_game_it_holds(table, host):
    client, session, journal, _ = table
    finish(session)
    doc = json.loads(record_text(client))
    doc["start"]["padding"] = [[[[[[[[[[[[[0] * 420] * 2] * 2] * 2] * 2] * 2] * 2] * 2] * 2] * 2] * 2] * 2]
    padded = json.dumps(doc, separators=(",", ":"))
    assert len(padded) > 1_500_000
    assert client.post("/history/import", json={"record": padded}, headers=host).status_code == 201
    for path in ("/history/2", "/history/2?ply=10", "/history/2.json", "/history/2/table.png",
                 "/history/2/table.png?ply=10"):
        started = time.perf_counter()
        response = client.get(path)
        took = time.perf_counter() - started
        assert response.status_code == 200 and b"padding" not in response.data, path
        assert took < patient(0.5), f"{path} took {took:.2f} s"
    assert len(client.get("/history/2.json").data) < 2 * len(client.get("/history/1.json").data) < 40_000


def test_the_replay_steps_through_the_moves_with_a_picture_of_the_table(table):
    client = table[0]
    page = html(client.get("/history/1?ply=2"))
    assert "move 2 of 6" in page and "ply=1" in page and "ply=3" in page
    first = client.get("/history/1/table.png?ply=0")
    later = client.get("/history/1/table.png?ply=6")
    assert first.mimetype == "image/png" and first.data.startswith(b"\x89PNG")
    assert first.data != later.data
    beyond = client.get("/history/1?ply=7", headers={"Accept-Language": "zh"})
    assert beyond.status_code == 400 and beyond.json["message"] == i18n.translate("zh", "history.no_move", last=6, ply=7)
    missing = client.get("/history/9")
    assert missing.status_code == 404 and missing.json["error"] == "history.no_game"


def test_the_host_puts_a_replayed_move_onto_the_leds_and_brings_the_live_game_back(table, host, shown):
    client, session, journal, _ = table
    hw = hardware.simulate(clock=hardware.ManualClock())
    display = TableDisplay(hw.leds)
    display.draw(session.snapshot)
    live = hw.memory.panels().display
    response = client.post("/history/1/leds?ply=0", headers=host)
    assert response.status_code == 200 and response.json == {"game_id": 1, "ply": 0}
    assert shown[-1].history == () and shown[-1].version < 0
    display.draw(shown[-1])
    assert hw.memory.panels().display != live
    assert client.post("/history/live", headers=host).status_code == 200
    assert shown[-1] is session.snapshot
    hw.close()


def import_request(client):
    return "/history/import", {"json": {"record": record_text(client)}}


GUARDED = {
    "import": import_request,
    "leds": lambda client: ("/history/1/leds?ply=0", {}),
    "live": lambda client: ("/history/live", {}),
}


@pytest.mark.parametrize("action", GUARDED)
@pytest.mark.parametrize("headers, status, error", [
    ({}, 401, "error.not_host"),
    ({"X-Host-Token": "not-the-host"}, 403, "error.bad_host_token"),
    ({"X-Seat-Token": "a-seat"}, 401, "error.not_host"),
])
def test_host_actions_are_refused_without_the_host_token_and_change_nothing(table, shown, action, headers, status,
                                                                           error):
    client, session, journal, _ = table
    path, body = GUARDED[action](client)
    response = client.post(path, headers={**headers, "Accept-Language": "it"}, **body)
    assert response.status_code == status and response.json["error"] == error
    assert response.json["message"] == i18n.translate("it", error)
    assert shown == [] and len(journal.games()) == 1


@pytest.mark.parametrize("action", GUARDED)
def test_host_actions_from_another_site_are_refused_even_with_the_token(table, host, shown, action):
    client, session, journal, _ = table
    path, body = GUARDED[action](client)
    response = client.post(path, headers={**host, "Origin": "http://elsewhere.example"}, **body)
    assert response.status_code == 403 and response.json["error"] == "error.bad_origin"
    assert shown == [] and len(journal.games()) == 1


def test_with_attached_leds_the_pages_offer_them_to_the_host(table, shown):
    client = table[0]
    for path, button in (("/history/", "history.show_live"), ("/history/1", "history.show_move")):
        page = html(client.get(path, headers={"Accept-Language": "sv"}))
        assert f">{in_html('sv')(button)}</button>" in page
        assert f'<p id="needs-host">{in_html("sv")("settings.needs_host")}' in page


def test_without_attached_leds_the_led_buttons_are_absent_and_refused(table, host):
    client = table[0]
    assert 'id="show-on-leds"' not in html(client.get("/history/1"))
    assert 'id="show-live"' not in html(client.get("/history/"))
    for path in ("/history/1/leds?ply=0", "/history/live"):
        response = client.post(path, headers=host)
        assert response.status_code == 404 and response.json["error"] == "history.no_leds"
