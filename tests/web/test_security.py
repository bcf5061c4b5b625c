"""The remote on a shared Wi-Fi, tried as an attacker on the same network would try it (docs/remote.md, Security).

Each test is one line of the threat model: hidden information stays hidden
during a game, the simulator is a local tool, foreign host names and other
sites' pages are refused, crafted records and bodies are refused without
changing anything, and no request makes the table answer 500.
"""
import dataclasses
import json
import threading
import time

import pytest

import hardware
from firmware_py import jsonlimits
from firmware_py.display import TableDisplay
from firmware_py.journal import Journal
from firmware_py.session import Play, Seat, Session, Setup
from firmware_py.table import Table
from web_remote import create_app, guards, network
from web_remote.service import RemoteService
from tests.web.conftest import host_code

DUEL = Setup(game="duel", seats=(Seat(kind="phone", name="Ada"), Seat(kind="phone", name="Bo")), seed=11)
LAN_PHONE = {"REMOTE_ADDR": "192.168.1.50"}


def play(session, moves, act=None):
    """Play ``moves`` decisions through ``act`` (``session.call`` once the session runs; else applied here)."""
    for _ in range(moves):
        snapshot = session.snapshot
        (act or session.apply)(Play(snapshot.current_player,
                                    snapshot.options[len(snapshot.history) % len(snapshot.options)]))


def finish(session, act=None):
    while not session.snapshot.over:
        play(session, 1, act)


@pytest.fixture
def kept(tmp_path):
    """(client, session, journal, service): a Duel with a journal, 26 decisions in."""
    journal = Journal(tmp_path)
    session = Session(DUEL, journal=journal)
    play(session, 26)
    service = RemoteService(session.start())
    yield create_app(service, {"TESTING": True}).test_client(), session, journal, service
    service.close()
    session.stop()
    journal.close()


def unchanged(session, before):
    return session.snapshot.state == before.state and session.snapshot.history == before.history


# -- finding 1: nothing tells the future of a game in progress ---------------------------


def test_no_page_record_or_stream_of_a_game_in_progress_carries_its_random_generator(kept):
    client, session, journal, _ = kept
    secret = session.snapshot.state["rng"]
    stack = json.dumps(session.snapshot.state["stack"])
    refused = client.get("/history/1.json")
    assert refused.status_code == 409 and refused.json["error"] == "history.unfinished_record"
    assert secret not in refused.get_data(as_text=True)
    answers = [client.get(path) for path in (
        "/api/state", "/", "/history/", "/history/1", "/history/1?ply=0", "/history/1?ply=26")]
    events = client.get("/api/events", buffered=False)
    chunks = iter(events.response)
    answers_text = [answer.get_data(as_text=True) for answer in answers] + [next(chunks).decode(), next(chunks).decode()]
    events.close()
    for text in answers_text:
        assert secret not in text and stack not in text
    assert 'download>' not in answers_text[3]  # the replay page offers no record to download


def test_a_finished_game_is_exported_in_full(kept):
    client, session, journal, _ = kept
    finish(session, session.call)
    record = client.get("/history/1.json")
    assert record.status_code == 200
    assert json.loads(record.get_data())["start"]["state"]["rng"] == json.loads(journal.export(1).start)["state"]["rng"]


# -- finding 2: the simulator is a local tool, foreign names are refused -------------------


@pytest.fixture
def simulated(session):
    hw = hardware.simulate(clock=hardware.ManualClock())
    table = Table(hw, session).start()
    remote = RemoteService(session, hardware=hw)
    app = create_app(remote, {"TESTING": True})
    yield app, table, session
    remote.close()
    table.close()


def test_the_simulator_refuses_other_computers_by_default(simulated):
    app, table, session = simulated
    client = app.test_client()
    before = session.snapshot
    for method, path in (("post", "/simulator/press"), ("get", "/simulator/frames"), ("get", "/simulator/layout")):
        answer = getattr(client, method)(path, json={"seat": None, "button": "HOST"}, environ_base=LAN_PHONE)
        assert answer.status_code == 403 and answer.json["error"] == "error.simulator_local"
    assert client.get("/simulator/", environ_base=LAN_PHONE).status_code == 403  # a page saying why
    time.sleep(0.1)
    assert session.snapshot.menu is None and unchanged(session, before)
    assert client.get("/simulator/layout").status_code == 200  # this computer itself


def lit(frame_event, panel, rows, width):
    import base64

    data = base64.b64decode(json.loads(frame_event.removeprefix("data: "))["panels"][panel])
    return any(data[3 * (y * width):3 * (y + 1) * width].strip(b"\0") for y in rows)


def test_opened_to_the_network_the_simulator_never_streams_the_pin_to_another_computer(simulated):
    from web_remote import history

    app, table, session = simulated
    app.config["SIMULATOR_NETWORK"] = True
    history.attach_display(app, table.display)
    table.display.show_pin("406813")
    centre = table.hardware.rig.panel("centre")
    band = range(1, 6)  # the join code sits on top: the Duel plate display at the foot is the first decision
    time.sleep(0.3)
    for environ, shown in (({}, True), (LAN_PHONE, False)):
        frames = app.test_client().get("/simulator/frames", buffered=False, environ_base=environ)
        chunks = iter(frames.response)
        next(chunks)
        assert lit(next(chunks).decode(), "centre", band, centre.width) is shown
        frames.close()
    assert app.test_client().post("/simulator/press", json={"seat": 0, "button": "NEXT"},
                                  environ_base=LAN_PHONE).status_code == 200


def test_the_areas_a_non_local_frame_blanks_cover_the_host_code_and_the_join_code():
    hw = hardware.simulate(clock=hardware.ManualClock())
    display = TableDisplay(hw.leds)
    snapshot = Session(Setup(game="duel", seed=2)).snapshot
    centre = hw.rig.panel("centre")
    try:
        assert display.secret_areas() == []
        display.draw(dataclasses.replace(snapshot, host_code="12345678"))
        display.draw(snapshot)  # the code was asked for a moment ago: its frames may still be on their way
        assert display.secret_areas(margin=2.0) == [("centre", 0, 0, centre.width, centre.height)]
        display.show_pin("406813")
        assert ("centre", 0, centre.height - 7, centre.width, 7) in display.secret_areas()
    finally:
        hw.close()


@pytest.mark.parametrize("host", ["rebind.attacker.example:8080", "attacker.example", "10.9.8.7:8080", ""])
def test_a_foreign_host_name_is_refused_even_with_a_matching_origin(client, session, phones, host):
    phones.join(session.snapshot.current_player)
    before = session.snapshot
    origin = {"Origin": f"http://{host}"} if host else {}
    for method, path in (("get", "/api/state"), ("get", "/history/"), ("post", "/api/move")):
        answer = getattr(client, method)(path, json={"option": before.options[0]}, headers={
            "Host": host, **origin, "X-Seat-Token": phones.tokens[before.current_player]})
        assert answer.status_code == 421 and answer.json["error"] == "error.bad_host"
    assert unchanged(session, before)


@pytest.mark.parametrize("host", ["localhost:8080", "127.0.0.1:8080", "127.0.0.42", "[::1]:8080", "azul.local",
                                  "192.0.2.7:8080"])
def test_the_table_answers_to_its_own_names_and_addresses(app, monkeypatch, host):
    monkeypatch.setattr(network, "interface_addresses", lambda: ["192.0.2.7"])
    monkeypatch.setitem(guards._addresses, "read", float("-inf"))
    app.config["TABLE_HOST_NAMES"] = ("azul.local", "azul")
    assert app.test_client().get("/api/state", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize("headers", [
    {"Origin": "http://elsewhere.example"},
    {"Origin": "null"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
    {"Referer": "http://elsewhere.example/page"},
])
def test_a_move_sent_by_another_sites_page_is_refused_with_or_without_an_origin(client, session, phones, headers):
    seat = session.snapshot.current_player
    phones.join(seat)
    before = session.snapshot
    answer = client.post("/api/move", json={"option": before.options[0]},
                         headers={**headers, "X-Seat-Token": phones.tokens[seat]})
    assert answer.status_code == 403 and answer.json["error"] == "error.bad_origin"
    assert unchanged(session, before)


@pytest.mark.parametrize("headers", [
    {"Origin": "http://localhost"}, {"Sec-Fetch-Site": "same-origin"}, {"Referer": "http://localhost/"}, {}])
def test_the_tables_own_pages_and_tools_still_act(client, session, phones, headers):
    seat = session.snapshot.current_player
    phones.join(seat)
    answer = client.post("/api/move", json={"option": session.snapshot.options[0]},
                         headers={**headers, "X-Seat-Token": phones.tokens[seat]})
    assert answer.status_code == 200


# -- finding 5: a crafted record cannot reach the LEDs, and the LEDs survive a bad frame -------


def pavilion_record(start_players: int, listed: int) -> str:
    from core_ext import pavilion

    start = json.loads(pavilion.Game(players=start_players, seed=3).to_json())
    return json.dumps({"format": "azul-table-record", "version": 1, "game": "pavilion",
                       "players": [{"name": f"P{n}", "kind": "rig", "level": "normal"} for n in range(listed)],
                       "seed": None, "flags": {}, "start": start, "moves": []})


@pytest.fixture
def host(kept):
    service = kept[3]
    return {"X-Host-Token": service.host_login(host_code(service.session), "127.0.0.1")}


def test_a_record_whose_start_has_other_players_than_it_lists_is_refused(kept, host):
    client, session, journal, _ = kept
    answer = client.post("/history/import", json={"record": pavilion_record(4, 2)}, headers=host)
    assert answer.status_code == 400 and "is for 4 players but the record lists 2" in answer.json["message"]
    assert len(journal.games()) == 1
    assert client.post("/history/import", json={"record": pavilion_record(3, 3)}, headers=host).status_code == 201


def test_the_led_thread_logs_a_frame_it_cannot_draw_and_goes_on(caplog):
    from core_ext import pavilion

    hw = hardware.simulate()
    good = Session(Setup(game="pavilion", seats=(Seat(), Seat()), seed=3)).snapshot
    crafted = Session(good.setup, game=pavilion.Game(players=4, seed=3))  # what finding 5's record replayed to
    play(crafted, 1)  # seat 2 of 2 listed players is to move: the highlight indexes past the seats
    broken = dataclasses.replace(crafted.snapshot, version=good.version + 1)
    display = TableDisplay(hw.leds).start()
    try:
        display.update(broken)
        deadline = time.monotonic() + 5
        while display.frames_failed == 0:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        drawn = display.frames_drawn
        display.update(dataclasses.replace(good, version=good.version + 2))
        assert display.wait_drawn(good.version + 2) and display.frames_drawn > drawn
        assert display._thread.is_alive()
        assert "could not draw" in caplog.text
    finally:
        display.stop()
        hw.close()


# -- findings 6 and 10: bounded input, clear refusals, never a 500 -----------------------


def test_a_replay_page_lists_one_page_of_moves_whatever_the_record(tmp_path):
    journal = Journal(tmp_path)
    session = Session(Setup(game="pavilion", seats=(Seat(name="N" * 24),) * 4, seed=1), journal=journal)
    finish(session)
    total = len(session.snapshot.history)
    client = create_app(RemoteService(session), {"TESTING": True}).test_client()
    from web_remote.history import MOVES_PER_PAGE

    sizes = []
    for ply in (0, MOVES_PER_PAGE + 1, total):
        page = client.get(f"/history/1?ply={ply}").get_data(as_text=True)
        sizes.append(len(page))
        assert page.count('<li') <= MOVES_PER_PAGE + 5
    assert 'id="later"' in client.get("/history/1?ply=1").get_data(as_text=True)
    assert 'id="earlier"' in client.get(f"/history/1?ply={total}").get_data(as_text=True)
    assert max(sizes) < 60_000
    journal.close()


def test_a_record_with_a_long_player_name_is_refused(kept, host):
    client, session, journal, _ = kept
    record = json.loads(pavilion_record(2, 2))
    record["players"][0]["name"] = "N" * 100_000
    answer = client.post("/history/import", json={"record": json.dumps(record)}, headers=host)
    assert answer.status_code == 400 and "at most 24 characters" in answer.json["message"]


DEEP = "[" * 7_000 + "]" * 7_000  # within the body limit, far past Python's recursion limit
JSON_ROUTES = ["/api/join", "/api/move", "/api/undo/answer", "/api/host/login", "/api/host/setup",
               "/api/host/settings", "/api/host/release", "/history/import", "/simulator/press"]


LONE_SURROGATES = ['{"code": "\\udfff"}', '{"code": "\\ud800"}', '{"\\udc00": 1}', '{"name": ["ok", "\\ud83d"]}']
REFUSED_JSON = {"deep": DEEP, **{f"surrogate-{n}": body for n, body in enumerate(LONE_SURROGATES)}}


@pytest.mark.parametrize("path", JSON_ROUTES)
@pytest.mark.parametrize("body", REFUSED_JSON.values(), ids=REFUSED_JSON.keys())
def test_json_nested_too_deep_or_with_a_lone_surrogate_is_refused_on_every_json_route(client, session, phones,
                                                                                         path, body):
    phones.join(0)
    headers = {"Content-Type": "application/json", "X-Seat-Token": phones.tokens[0],
               "X-Host-Token": phones.host_token()}
    before = session.snapshot
    answer = client.post(path, data=body, headers=headers)
    assert answer.status_code in (400, 404), answer.json  # 404: this table has no journal, or no simulator
    assert answer.json["message"] and unchanged(session, before)


def test_a_surrogate_pair_escape_is_text_and_is_accepted():
    assert jsonlimits.loads('{"name": "\\ud83d\\ude00"}') == {"name": "\U0001f600"}


def test_a_body_larger_than_its_route_takes_is_refused_before_it_is_read(client, session):
    big = json.dumps({"code": "0" * (guards.MAX_BODY_BYTES + 1), "seat": 0})
    answer = client.post("/api/join", data=big, content_type="application/json")
    assert answer.status_code == 413 and answer.json["error"] == "error.too_large"


@pytest.mark.parametrize("path", ["/history/99999999999999999999.json", "/history/99999999999999999999",
                                  "/history/99999999999999999999/table.png", "/history/1?ply=99999999999999999999"])
def test_huge_numbers_in_paths_and_queries_are_refused_not_crashed_on(kept, path):
    answer = kept[0].get(path)
    assert answer.status_code in (400, 404) and answer.json["message"]


@pytest.mark.parametrize("change, reason", [
    ({"game": ["duel"]}, "unknown game"),
    ({"seed": 2 ** 70, "start": None}, '"seed" must be'),
    ({"flags": {"stack_reveal": ["end"]}}, "no rules flag"),
    ({"flags": []}, '"flags" must be'),
    ({"start": {"format": "azul-duel", "version": 1, "players": "two"}}, "start position"),
    ({"moves": [["S1Q"]]}, '"moves" must be'),
    ({"started": "yesterday"}, "ISO 8601"),
    ({"final_scores": [10 ** 30, 1]}, "final scores"),
])
def test_crafted_records_are_refused_with_the_reason(kept, host, change, reason):
    client, session, journal, _ = kept
    finish(session, session.call)
    record = {**json.loads(journal.export(1).to_json()), **change}
    answer = client.post("/history/import", json={"record": json.dumps(record)}, headers=host)
    assert answer.status_code == 400 and reason in answer.json["message"], answer.json
    assert len(journal.games()) == 1


def test_an_unknown_route_or_method_answers_with_a_message(client):
    assert client.get("/api/nothing").json["error"] == "error.not_found"
    assert client.delete("/api/state").json["error"] == "error.method"
