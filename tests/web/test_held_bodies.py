"""Requests answered before their body is read, against the real server under the rig's descriptor limit.

A stranger on the Wi-Fi sends ``POST /api/move`` without a token, declares a
10 MB body and keeps sending it. The table refuses the request from its
headers alone; the connection must then be closed (never left waiting for a
body nobody reads), so that however many such requests arrive, the phones at
the table are served once the sender stops.

The server runs in a process of its own under a 1,024 descriptor limit (the
default of a systemd service), as on the rig; the attacker is this process.
"""
import asyncio
import logging
import os
import pathlib
import re
import resource
import socket
import subprocess
import sys
import textwrap
import time

import pytest

from tests.patience import patient
from web_remote import server

DESCRIPTOR_LIMIT = 1024
HELD = 1_100  # more than the limit: on a server that kept them, the phones would be locked out
DECLARED = 10_000_000
SENT_EACH = 1024 * 1024

SERVER = textwrap.dedent("""
    import sys
    from firmware_py.session import Seat, Session, Setup
    from web_remote import runner
    from web_remote.service import RemoteService

    session = Session(Setup(game="duel", seats=(Seat(kind="phone"), Seat(kind="phone")), seed=3)).start()
    remote = runner.start(RemoteService(session), host="127.0.0.1", port=0)
    print(remote.port, flush=True)
    sys.stdin.read()
    remote.close()
    session.stop()
""")


def _limited():
    resource.setrlimit(resource.RLIMIT_NOFILE, (DESCRIPTOR_LIMIT, DESCRIPTOR_LIMIT))


@pytest.fixture
def limited_server():
    """(process, port): the remote served by a process limited to 1,024 open descriptors."""
    process = subprocess.Popen([sys.executable, "-c", SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               preexec_fn=_limited, cwd=pathlib.Path(__file__).parents[2])
    port = int(process.stdout.readline())
    yield process, port
    process.stdin.close()
    process.stdout.close()
    try:
        process.wait(patient(10))
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def descriptors(process) -> int:
    return len(os.listdir(f"/proc/{process.pid}/fd"))


def phone_is_served(port: int, timeout: float) -> bool:
    """Whether a plain GET of the state gets its whole answer within ``timeout``."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
    except OSError:
        return False
    return answer.startswith(b"HTTP/1.1 200")


def hold_body(port: int) -> socket.socket:
    """Open a connection, send a tokenless move that declares a 10 MB body, and push part of the body."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=patient(10))
    sock.sendall(b"POST /api/move HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Content-Length: %d\r\n\r\n" % DECLARED)
    sock.setblocking(False)
    try:
        sock.send(b"x" * SENT_EACH)
    except (BlockingIOError, ConnectionError):
        pass  # the server closed it or stopped reading: both are fine
    return sock


def wait_for_descriptors(process, at_most: int, timeout: float) -> int:
    """The server's open descriptors once they are ``at_most`` or ``timeout`` has passed."""
    deadline = time.monotonic() + timeout
    while (count := descriptors(process)) > at_most and time.monotonic() < deadline:
        time.sleep(0.2)
    return count


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts descriptors through /proc")
def test_bodies_sent_to_a_refused_request_never_lock_the_phones_out(limited_server):
    process, port = limited_server
    assert phone_is_served(port, patient(10))
    before = descriptors(process)
    held = []
    try:
        for _ in range(HELD):
            try:
                held.append(hold_body(port))
            except OSError:
                break  # a refused connection is the server protecting itself
        # Every refused request's connection is closed by the server itself after its answer, even
        # while the sender still holds its end open, and the phones are served meanwhile.
        assert wait_for_descriptors(process, before + 5, patient(30)) <= before + 5
        assert phone_is_served(port, patient(5))
    finally:
        for sock in held:
            sock.close()
    assert phone_is_served(port, patient(5))


def test_a_refused_request_is_answered_and_its_connection_closed(limited_server):
    _, port = limited_server
    sock = hold_body(port)
    sock.setblocking(True)
    sock.settimeout(patient(10))
    answer = b""
    try:
        while chunk := sock.recv(65536):
            answer += chunk
    except ConnectionResetError:
        pass  # closed with unread body bytes in flight: also closed
    finally:
        sock.close()
    assert answer.startswith(b"HTTP/1.1 401"), answer[:200]
    assert b"connection: close" in answer.lower()


def test_connections_refused_for_want_of_descriptors_are_logged_once_a_minute(caplog):
    clock = [1000.0]
    handler = server.RefusedAccepts(clock=lambda: clock[0])
    loop = asyncio.new_event_loop()
    refused = {"message": server.RefusedAccepts.MESSAGE, "exception": OSError(24, "Too many open files")}
    try:
        with caplog.at_level(logging.WARNING, logger=server.log.name):
            for _ in range(500):
                handler(loop, refused)
            clock[0] += server.REFUSED_LOG_INTERVAL_S
            for _ in range(3):
                handler(loop, refused)
            handler(loop, {"message": "something else went wrong"})
    finally:
        loop.close()
    lines = [record.getMessage() for record in caplog.records]
    assert lines[0].startswith("1 connection(s) refused")
    assert lines[1].startswith("500 connection(s) refused")  # the 499 since the first and the one that logs
    assert lines[2] == "something else went wrong"
    assert len(lines) == 3


def test_the_service_unit_lifts_the_open_file_limit_above_systemds_default():
    unit = (pathlib.Path(__file__).parents[2] / "deploy" / "azul-table.service").read_text()
    limits = re.findall(r"^LimitNOFILE=(\d+)$", unit, re.MULTILINE)
    assert limits and int(limits[0]) >= 4 * DESCRIPTOR_LIMIT
