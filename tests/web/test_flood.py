"""Public pages that take work (LED pictures, replays, records) never hold up the game being played.

A crowd of clients in a process of their own (``benchmarks.bench_web.Flood``)
fetches past games' pictures and replay pages in a loop through the table's
real server, while a seated phone plays and waits for each move on its own
event stream.
"""
import concurrent.futures
import http.client
import threading
import time

import pytest

import hardware
from benchmarks.bench_web import ROUTE_FLOOD_MOVES, ROUTE_FLOOD_PROFILES, measure_flood, measure_route_floods, post
from firmware_py.journal import Journal
from firmware_py.session import Play, Seat, Session, Setup
from tests.patience import patient
from web_remote import create_app, guards, runner, server
from web_remote.service import RemoteService

CLIENTS = 64
MOVES = 30
P95_MS = 150.0


@pytest.mark.serial
def test_a_phone_plays_in_time_while_64_clients_fetch_pictures_and_replays():
    move_ms, served, _ = measure_flood(CLIENTS, MOVES)
    assert served and set(served) == {200}, f"the flood was not answered while the phone played: {served}"
    assert move_ms < patient(P95_MS), f"a move reached the phone's stream in {move_ms:.0f} ms (95th percentile)"


@pytest.mark.serial
def test_no_public_route_flooded_by_64_clients_slows_a_phones_moves_past_twice_their_pace():
    """Every GET route a device without a credential can call, flooded in turn from an address of its own at a
    table that knows 1,000 people: the phone's moves keep within twice their pace without a flood. A route
    found over it is flooded once more: a moment when something else on the machine took its cores is not a
    route that slows play, a route that does so does it both times."""
    baseline, flooded = measure_route_floods(CLIENTS, ROUTE_FLOOD_MOVES, ROUTE_FLOOD_PROFILES)
    unanswered = [path for path, _, answers in flooded.values()
                  if not answers or any(status >= 500 for status in answers)]
    assert len(flooded) >= 30 and not unanswered, f"routes whose flood was not answered, or failed: {unanswered}"
    slowed = slower_than_twice(baseline, flooded)
    if slowed:
        baseline, again = measure_route_floods(CLIENTS, ROUTE_FLOOD_MOVES, ROUTE_FLOOD_PROFILES, only=set(slowed))
        slowed = {endpoint: (first, ratio) for endpoint, ratio in slower_than_twice(baseline, again).items()
                  if (first := slowed.get(endpoint))}
    assert not slowed, f"moves slowed past twice their pace, twice (ratios to the moves without a flood): {slowed}"


def slower_than_twice(baseline: float, flooded: dict) -> dict:
    """{endpoint: "ratio"} of the routes whose flood slowed the moves past twice the ``baseline``."""
    return {endpoint: f"{move_ms / baseline:.1f}x ({path})" for endpoint, (path, move_ms, _) in flooded.items()
            if move_ms > 2 * baseline}


def test_the_past_games_pages_run_on_the_renderers_and_the_game_on_the_other_threads():
    session = Session(Setup(game="duel", seats=(Seat(kind="phone"), Seat(kind="phone")), seed=3))
    service = RemoteService(session)
    app = create_app(service)
    try:
        for path in ("/history/", "/history/1", "/history/1.json", "/history/1/table.png", "/review/1",
                     "/review/current"):
            assert guards.renders_route(app, "GET", path), path
        for method, path in (("GET", "/api/state"), ("GET", "/api/events"), ("POST", "/api/move"),
                             ("POST", "/history/import"), ("GET", "/no/such/page")):
            assert not guards.renders_route(app, method, path), path
    finally:
        service.close()


def test_pictures_that_take_long_never_hold_the_threads_a_move_needs(tmp_path, monkeypatch):
    drawn, release = threading.Semaphore(0), threading.Event()
    draw = hardware.render_png

    def slow(*args, **kwargs):
        drawn.release()
        release.wait(patient(60))
        return draw(*args, **kwargs)

    monkeypatch.setattr(hardware, "render_png", slow)
    session = Session(Setup(game="duel", seats=(Seat(kind="phone"), Seat(kind="phone")), seed=3),
                      journal=Journal(tmp_path)).start()
    service = RemoteService(session)
    remote = runner.start(service, host="127.0.0.1", port=0)
    token = service.join(service.join_code, 0, "test")
    pictures = concurrent.futures.ThreadPoolExecutor(server.WORKERS + 4)
    try:
        fetched = [pictures.submit(get, remote.port, "/history/1/table.png") for _ in range(server.WORKERS + 4)]
        assert drawn.acquire(timeout=patient(10)), "no picture was being drawn"
        time.sleep(patient(0.5))  # the other requests reach the server and wait for a thread
        connection = http.client.HTTPConnection("127.0.0.1", remote.port, timeout=patient(5))
        status, answer = post(connection, "/api/move", {"option": session.snapshot.options[-1]}, token)
        connection.close()
        assert status == 200, answer
        release.set()
        assert [future.result(patient(30)) for future in fetched] == [200] * len(fetched)
    finally:
        release.set()
        pictures.shutdown()
        remote.close()
        session.stop()


def get(port: int, path: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=patient(60))
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def test_a_picture_is_drawn_once_however_often_it_is_fetched(tmp_path, monkeypatch):
    drawn = []
    draw = hardware.render_png
    monkeypatch.setattr(hardware, "render_png", lambda *args, **kwargs: drawn.append(1) or draw(*args, **kwargs))
    session = Session(Setup(game="duel", seats=(Seat(name="Cy"), Seat(name="Di")), seed=21), journal=Journal(tmp_path))
    for _ in range(4):
        session.apply(Play(session.snapshot.current_player, session.snapshot.options[-1]))
    service = RemoteService(session.start())
    client = create_app(service, {"TESTING": True}).test_client()
    try:
        first = client.get("/history/1/table.png?ply=2")
        assert [client.get("/history/1/table.png?ply=2").data for _ in range(3)] == [first.data] * 3
        assert len(drawn) == 1
        assert client.get("/history/1/table.png?ply=3").data != first.data and len(drawn) == 2
        latest = client.get("/history/1/table.png").data
        session.call(Play(session.snapshot.current_player, session.snapshot.options[-1]))
        assert client.get("/history/1/table.png").data != latest and len(drawn) == 4
    finally:
        service.close()
        session.stop()
