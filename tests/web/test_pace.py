"""What anyone on the Wi-Fi may read without a credential is paced per device: a page and all it loads at
once, then a steady rate, and never more than a share of a core over time; the table's own computer and the
seated phones' and host's requests are never held; a device that leaves while it waits costs no work."""
import asyncio
import concurrent.futures
import http.client
import socket
import time

import pytest

from firmware_py.session import Seat, Session, Setup
from tests.patience import patient
from web_remote import runner, server
from web_remote.server import Pace
from web_remote.service import RemoteService

STRANGER = "127.0.0.2"


def test_a_burst_is_answered_at_once_then_the_reads_come_at_the_rate():
    pace = Pace(rate=10, burst=5, share=0.5)
    assert [pace.wait("10.0.0.7", 100.0) for _ in range(5)] == [0.0] * 5
    assert [round(pace.wait("10.0.0.7", 100.0), 6) for _ in range(3)] == [0.1, 0.2, 0.3]
    assert pace.wait("10.0.0.8", 100.0) == 0.0  # another device has its own
    assert pace.wait("10.0.0.7", 101.0) == 0.0  # a second later the bucket has room again


def test_what_an_answer_took_holds_the_devices_next_reads_by_its_share_of_a_core():
    pace = Pace(rate=10, burst=2, share=0.25)
    assert pace.wait("10.0.0.7", 50.0) == 0.0
    pace.charge("10.0.0.7", 50.0, 0.5)  # half a second of a worker: two seconds at a quarter of a core
    assert round(pace.wait("10.0.0.7", 50.0), 6) == round(0.1 + 2.0 - 0.1, 6)
    assert pace.wait("10.0.0.8", 50.0) == 0.0


def test_devices_whose_buckets_are_empty_again_are_forgotten():
    pace = Pace(rate=10, burst=1, remembered=3)
    for number in range(3):
        pace.wait(f"10.0.0.{number}", 0.0)
    pace.wait("10.0.0.9", 5.0)  # the others' buckets have long been empty
    assert set(pace._empty_at) == {"10.0.0.9"}


def test_one_device_has_at_most_its_places_in_progress_and_the_others_wait_their_turn():
    pace = Pace(rate=1000, burst=100, at_once=2)
    inside, most = [0], [0]

    async def read():
        async with pace.turn("10.0.0.7"):
            inside[0] += 1
            most[0] = max(most[0], inside[0])
            await asyncio.sleep(0.01)
            inside[0] -= 1

    async def crowd():
        await asyncio.gather(*(read() for _ in range(7)))

    # On a thread of its own: a worker that drove a browser before has Playwright's loop running on this one.
    with concurrent.futures.ThreadPoolExecutor(1) as loop_thread:
        loop_thread.submit(asyncio.run, crowd()).result(timeout=patient(30))
    assert most[0] == 2
    assert pace._places == {}  # nothing kept for a device with no read in progress


@pytest.fixture
def table():
    session = Session(Setup(game="duel", seats=(Seat(kind="phone"), Seat(kind="phone")), seed=3)).start()
    service = RemoteService(session)
    remote = runner.start(service, host="127.0.0.1", port=0)
    remote.server.front.pace = Pace(rate=4, burst=2, share=1.0)
    yield remote
    remote.close()
    session.stop()


def read(port, path, source="127.0.0.1", headers=None):
    """(status, seconds) of one GET of ``path`` from ``source``, on a connection of its own."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=patient(30), source_address=(source, 0))
    started = time.perf_counter()
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        response.read()
        return response.status, time.perf_counter() - started
    finally:
        connection.close()


def test_a_stranger_reading_again_and_again_waits_its_turn_the_table_and_the_seats_do_not(table):
    started = time.perf_counter()
    assert {read(table.port, "/settings", STRANGER)[0] for _ in range(2 + 6)} == {200}
    assert time.perf_counter() - started >= 6 / 4 - 0.1  # two at once, then four a second
    pace = table.server.front.pace
    stranger = pace._empty_at[STRANGER]
    token = table.service.join(table.service.join_code, 0, "test")
    assert {read(table.port, "/settings")[0] for _ in range(8)} == {200}  # the table's own computer
    assert {read(table.port, "/api/me", STRANGER, {"X-Seat-Token": token})[0] for _ in range(8)} == {200}
    assert set(pace._empty_at) == {STRANGER} and pace._empty_at[STRANGER] == stranger, "neither was paced"


def test_a_stranger_that_leaves_while_it_waits_costs_the_table_no_work(table, monkeypatch):
    answered = []
    call = server._call_wsgi

    def counted(app, environ):
        answered.append(environ["PATH_INFO"])
        return call(app, environ)

    monkeypatch.setattr(server, "_call_wsgi", counted)
    table.server.front.pace = Pace(rate=2, burst=2, share=1.0)
    left = []
    for _ in range(8):
        sent = socket.create_connection(("127.0.0.1", table.port), timeout=patient(5), source_address=(STRANGER, 0))
        sent.sendall(b"GET /players/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        left.append(sent)
    deadline = time.monotonic() + patient(10)
    while len(answered) < 2 and time.monotonic() < deadline:  # the first two are answered at once
        time.sleep(0.01)
    for sent in left:
        sent.close()
    at_close = len(answered)
    assert 2 <= at_close < 8, answered
    time.sleep(8 / 2 + patient(0.5))  # every turn has come by now
    assert len(answered) <= at_close + 1, answered  # one may have begun as the sockets closed
    status, _ = read(table.port, "/settings")
    assert status == 200 and answered[-1] == "/settings"
