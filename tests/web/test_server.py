"""The remote's real server on the loopback interface: open streams, idle sockets and odd bodies cannot stall it.

These go through hypercorn exactly as ``azul-table`` serves the remote: a
crowd of event streams from many loopback addresses and silent sockets
(``benchmarks.bench_web.Crowd``, in a process of its own like other devices
on the Wi-Fi), and raw sockets that send what no browser would.
"""
import http.client
import json
import socket
import time

import pytest

from benchmarks.bench_web import Crowd, Stream, post
from firmware_py.session import Seat, Session, Setup
from web_remote import guards, runner, server
from web_remote.service import RemoteService


@pytest.fixture
def served():
    """(remote, session, tokens): a phone Duel served on a free port, both seats joined."""
    session = Session(Setup(game="duel", seats=(Seat(kind="phone"), Seat(kind="phone")), seed=3)).start()
    service = RemoteService(session)
    remote = runner.start(service, host="127.0.0.1", port=0)
    tokens = [service.join(service.join_code, seat, "test") for seat in (0, 1)]
    yield remote, session, tokens
    remote.close()
    session.stop()


def raw(port, request: bytes, timeout=10.0) -> bytes:
    """Send ``request`` on a fresh socket and read until the server closes it or ``timeout``."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(request)
        answer = b""
        try:
            while chunk := sock.recv(65536):
                answer += chunk
                if b"\r\n\r\n" in answer and b"content-length: " in answer.lower():
                    head, _, rest = answer.partition(b"\r\n\r\n")
                    length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
                    if len(rest) >= length:
                        break
        except TimeoutError:
            pass
    return answer


@pytest.mark.serial
def test_a_seated_phone_plays_while_a_crowd_holds_streams_and_silent_sockets(served):
    remote, session, tokens = served
    crowd = Crowd(remote.port, streams=60, addresses=20, idle=40)  # far past the 24 threads that once held them
    own = Stream(remote.port)
    connection = http.client.HTTPConnection("127.0.0.1", remote.port, timeout=10)
    try:
        for _ in range(3):
            snapshot = session.snapshot
            status, answer = post(connection, "/api/move", {"option": snapshot.options[-1]},
                                  tokens[snapshot.current_player])
            assert status == 200
            assert own.wait_for(answer["version"], timeout=10)
            connection.request("GET", "/api/state")
            assert json.loads(connection.getresponse().read())["version"] == answer["version"]
    finally:
        connection.close()
        own.close()
        crowd.close()


def test_beyond_the_cap_of_one_address_a_stream_is_refused_at_once(served):
    remote = served[0]
    held = []
    try:
        for _ in range(guards.MAX_STREAMS_PER_ADDRESS):
            connection = http.client.HTTPConnection("127.0.0.1", remote.port, timeout=10, source_address=("127.0.0.9", 0))
            connection.request("GET", "/api/events")
            assert connection.getresponse().status == 200
            held.append(connection)
        refused = http.client.HTTPConnection("127.0.0.1", remote.port, timeout=10, source_address=("127.0.0.9", 0))
        refused.request("GET", "/api/events")
        response = refused.getresponse()
        assert response.status == 503 and json.loads(response.read())["error"] == "error.busy"
        refused.close()
    finally:
        for connection in held:
            connection.close()


@pytest.fixture
def quick_keep_alive(monkeypatch):
    monkeypatch.setattr(server, "KEEP_ALIVE_S", 0.5)


def test_a_silent_socket_is_closed_after_the_keep_alive_time(quick_keep_alive, served):
    remote = served[0]
    with socket.create_connection(("127.0.0.1", remote.port), timeout=10) as sock:
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHo")  # and never the rest
        assert sock.recv(1024) == b""


def test_a_huge_declared_body_is_refused_before_it_is_sent(served):
    remote, session, tokens = served
    before = session.snapshot.history
    answer = raw(remote.port, b"POST /api/join HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                              b"Content-Length: 200000000\r\n\r\n{")
    assert answer.startswith(b"HTTP/1.1 413") and b"error.too_large" in answer
    assert session.snapshot.history == before


def test_a_chunked_body_past_the_limit_is_refused(served):
    remote = served[0]
    chunk = b"x" * 8192
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(4)) + b"0\r\n\r\n"
    answer = raw(remote.port, b"POST /api/host/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                              b"Transfer-Encoding: chunked\r\n\r\n" + body)
    assert answer.startswith(b"HTTP/1.1 413")


def test_a_body_that_does_not_arrive_in_time_is_answered_408(served, monkeypatch):
    remote = served[0]
    monkeypatch.setattr(server, "BODY_TIMEOUT_S", 0.3)
    answer = raw(remote.port, b"POST /api/host/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                              b"Content-Length: 100\r\n\r\n{\"pin\"")
    assert answer.startswith(b"HTTP/1.1 408")


def test_a_foreign_host_name_is_refused_by_the_real_server_too(served):
    answer = raw(served[0].port, b"GET /api/state HTTP/1.1\r\nHost: rebind.attacker.example:8080\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 421") and b"error.bad_host" in answer


def test_a_server_closed_before_its_thread_runs_stops_cleanly(monkeypatch):
    """A stop signal can come while a slow machine is still starting the web thread (seen under emulation)."""
    session = Session(Setup(game="duel", seats=(Seat(kind="phone"), Seat(kind="phone")), seed=3)).start()
    service = RemoteService(session)
    serve = server.RunningServer._run

    def late(self):
        time.sleep(server.STOP_TIMEOUT_S + 1)  # longer than the server ever waits for its thread
        serve(self)

    monkeypatch.setattr(server.RunningServer, "_run", late)
    try:
        remote = runner.start(service, host="127.0.0.1", port=0)
        remote.close()
        assert not remote.server._thread.is_alive()
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", remote.port), timeout=5).close()
    finally:
        session.stop()


def test_close_ends_the_open_event_streams_within_the_stop_time(served):
    """A phone's event stream never ends by itself: closing the server must end it (on Python 3.12 and
    later hypercorn alone would wait for it for ever, and go on serving it)."""
    remote = served[0]
    with socket.create_connection(("127.0.0.1", remote.port), timeout=10) as stream:
        stream.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{remote.port}\r\n\r\n".encode())
        assert stream.recv(65536).startswith(b"HTTP/1.1 200")
        started = time.monotonic()
        remote.server.close()
        assert not remote.server._thread.is_alive()
        stream.settimeout(server.STOP_TIMEOUT_S + 2)
        while stream.recv(65536):
            pass  # what was still on its way; then the end of the stream
        assert time.monotonic() - started < server.STOP_TIMEOUT_S + 2
