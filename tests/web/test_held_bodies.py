"""Requests answered before their body is read, against the real server under the rig's descriptor limit.

A stranger on the Wi-Fi sends ``POST /api/move`` without a token, declares a
10 MB body and keeps sending it. The table refuses the request from its
headers alone; the connection must then be closed (never left waiting for a
body nobody reads), so that however many such requests arrive, the phones at
the table are served once the sender stops.

The server runs in a process of its own under a 1,024 descriptor limit (the
default of a systemd service), as on the rig; the attacker is this process.
The same holds for a client that stops reading its answers, and for the log
when the process does run out of descriptors.
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
import tempfile
import textwrap
import time

import pytest

from tests.patience import patient
from web_remote import server

pytestmark = pytest.mark.serial  # servers at their limits of descriptors and threads, timed

DESCRIPTOR_LIMIT = 1024
HELD = 1_100  # more than the limit: on a server that kept them, the phones would be locked out
DECLARED = 10_000_000
SENT_EACH = 1024 * 1024

SERVER = textwrap.dedent("""
    import logging
    import sys
    from firmware_py.session import Seat, Session, Setup
    from web_remote import runner, server
    from web_remote.service import RemoteService

    logging.basicConfig(format="%(levelname)s %(name)s: %(message)s")
    for setting in sys.argv[1:]:  # NAME=seconds: one of the server's timeouts, shortened for a test
        name, seconds = setting.split("=")
        setattr(server, name, float(seconds))
    session = Session(Setup(game="duel", seats=(Seat(kind="phone"), Seat(kind="phone")), seed=3)).start()
    remote = runner.start(RemoteService(session), host="127.0.0.1", port=0)
    print(remote.port, flush=True)
    sys.stdin.read()
    remote.close()
    session.stop()
""")


class Served:
    """The remote served by a process of its own under an open-file limit: ``process``, ``port``, ``errors()``.

    ``settings`` are ``NAME=seconds`` for the server's timeouts (``SEND_TIMEOUT_S=2``).
    """

    def __init__(self, descriptors: int, *settings: str):
        def limited():
            resource.setrlimit(resource.RLIMIT_NOFILE, (descriptors, descriptors))

        self._log = tempfile.TemporaryFile()
        self.process = subprocess.Popen([sys.executable, "-c", SERVER, *settings], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=self._log, preexec_fn=limited,
                                        cwd=pathlib.Path(__file__).parents[2])
        self.port = int(self.process.stdout.readline())

    def errors(self) -> str:
        """What the server has logged so far."""
        self._log.seek(0)
        return self._log.read().decode(errors="replace")

    def stop(self):
        self.process.stdin.close()
        self.process.stdout.close()
        try:
            self.process.wait(patient(10))
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._log.close()


@pytest.fixture
def serve():
    """``serve(descriptors, *settings)``: a :class:`Served` remote, stopped after the test."""
    started = []

    def start(descriptors: int, *settings: str) -> Served:
        started.append(Served(descriptors, *settings))
        return started[-1]

    yield start
    for served in started:
        served.stop()


@pytest.fixture
def limited_server(serve):
    """(process, port): the remote served by a process limited to 1,024 open descriptors."""
    served = serve(DESCRIPTOR_LIMIT)
    return served.process, served.port


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


class TimerLoop:
    """Enough of an event loop for the accept handler: timers run when the test says, errors are kept."""

    def __init__(self):
        self.timers = []
        self.errors = []

    def call_later(self, delay, callback, *args):
        self.timers.append((delay, callback, args))

    def run_timers(self):
        due, self.timers = self.timers, []
        for _, callback, args in due:
            callback(*args)

    def default_exception_handler(self, context):
        self.errors.append(context["message"])


def test_failed_accepts_are_logged_at_once_then_counted_once_an_interval(caplog):
    handler = server.RefusedAccepts()
    loop = TimerLoop()
    failed = {"message": server.RefusedAccepts.MESSAGE, "exception": OSError(24, "Too many open files")}
    with caplog.at_level(logging.WARNING, logger=server.log.name):
        for _ in range(500):
            handler(loop, failed)
        assert [delay for delay, _, _ in loop.timers] == [server.REFUSED_LOG_INTERVAL_S]
        loop.run_timers()  # the interval ends, with 499 failures in it
        for _ in range(3):
            handler(loop, failed)
        loop.run_timers()  # another interval: 3 failures
        loop.run_timers()  # a quiet interval: nothing to say, and the next failure is news again
        handler(loop, failed)
        handler(loop, {"message": "something else went wrong"})
        handler(loop, {"message": "Exception in callback", "exception": asyncio.CancelledError()})  # a stop
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 4, lines
    assert "Too many open files" in lines[0] and "LimitNOFILE" in lines[0]
    assert lines[1].startswith("499 more accepts failed")
    assert lines[2].startswith("3 more accepts failed")
    assert "Too many open files" in lines[3]
    assert loop.errors == ["something else went wrong"]


DESCRIPTORS_FOR_A_FEW = 48  # the server's own descriptors and a few dozen connections
SHORT_KEEP_ALIVE_S = 2.0  # the server's KEEP_ALIVE_S for the test: idle connections go sooner than after 10 s


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts descriptors through /proc")
def test_a_server_out_of_descriptors_logs_one_line_and_serves_again_once_they_free(serve):
    served = serve(DESCRIPTORS_FOR_A_FEW, f"KEEP_ALIVE_S={SHORT_KEEP_ALIVE_S}")
    assert phone_is_served(served.port, patient(10))
    idle = []
    try:
        for _ in range(DESCRIPTORS_FOR_A_FEW + 20):  # those the server cannot take wait in its backlog
            idle.append(socket.create_connection(("127.0.0.1", served.port), timeout=patient(10)))
        deadline = time.monotonic() + patient(10)
        while descriptors(served.process) < DESCRIPTORS_FOR_A_FEW and time.monotonic() < deadline:
            time.sleep(0.05)
        assert descriptors(served.process) == DESCRIPTORS_FOR_A_FEW
        time.sleep(1.5)  # asyncio retries the accept every second, each time for every waiting connection
    finally:
        for sock in idle:
            sock.close()
    log = served.errors()
    assert "Traceback" not in log and "out of system resource" not in log, log[:2000]
    assert len(re.findall(r"^WARNING web_remote\.server: Cannot accept connections", log, re.MULTILINE)) == 1, log
    assert phone_is_served(served.port, patient(4 * SHORT_KEEP_ALIVE_S + 5))


STOP_READING_SEND_TIMEOUT_S = 2.0  # the server's SEND_TIMEOUT_S for the test, instead of 10 s
STOPS_READING = 8
PIPELINED = 1000  # requests for a 22 kB script on one connection: megabytes of answers, beyond any socket buffer


def kernel_ends_stalled_connections() -> bool:
    """Whether TCP_USER_TIMEOUT also ends a connection whose peer keeps its window shut (Linux 5.11 and later)."""
    if not hasattr(socket, "TCP_USER_TIMEOUT"):
        return False
    with socket.create_server(("127.0.0.1", 0)) as listener, socket.socket() as peer:
        listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, 300)
        peer.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        peer.connect(listener.getsockname())
        sender, _ = listener.accept()
        with sender:
            sender.setblocking(False)
            try:
                while True:
                    sender.send(bytes(65536))
            except BlockingIOError:
                pass
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                if sender.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
                    return True
                time.sleep(0.1)
    return False


def stop_reading(port: int) -> socket.socket:
    """A connection that asks for megabytes of answers in one go and never reads them."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    sock.settimeout(patient(10))
    sock.connect(("127.0.0.1", port))
    sock.sendall(b"GET /static/board.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * PIPELINED)
    return sock


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts descriptors through /proc")
def test_a_client_that_stops_reading_is_dropped_though_it_holds_its_end_open(serve):
    if not kernel_ends_stalled_connections():
        pytest.skip("this kernel keeps a connection whose peer stopped reading open despite TCP_USER_TIMEOUT")
    served = serve(DESCRIPTOR_LIMIT, f"SEND_TIMEOUT_S={STOP_READING_SEND_TIMEOUT_S}")
    assert phone_is_served(served.port, patient(10))
    before = descriptors(served.process)
    readers = [stop_reading(served.port) for _ in range(STOPS_READING)]
    try:
        deadline = time.monotonic() + patient(10)
        while descriptors(served.process) < before + STOPS_READING and time.monotonic() < deadline:
            time.sleep(0.05)
        assert descriptors(served.process) >= before + STOPS_READING  # the server holds them: they wait for readers
        assert wait_for_descriptors(served.process, before + 2, patient(30)) <= before + 2
        assert phone_is_served(served.port, patient(5))
    finally:
        for sock in readers:
            sock.close()


def test_the_service_unit_lifts_the_open_file_limit_above_systemds_default():
    unit = (pathlib.Path(__file__).parents[2] / "deploy" / "azul-table.service").read_text()
    limits = re.findall(r"^LimitNOFILE=(\d+)$", unit, re.MULTILINE)
    assert limits and int(limits[0]) >= 4 * DESCRIPTOR_LIMIT


LIFTED = textwrap.dedent("""
    import resource, sys
    from web_remote import server
    resource.setrlimit(resource.RLIMIT_NOFILE, (512, int(sys.argv[1])))
    print(server.raise_open_file_limit(), resource.getrlimit(resource.RLIMIT_NOFILE)[0])
""")


@pytest.mark.parametrize("hard,lifted", [(4096, 4096), (server.OPEN_FILES * 2, server.OPEN_FILES)])
def test_the_remote_lifts_a_low_open_file_limit_as_far_as_the_hard_limit_allows(hard, lifted):
    hard_here = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if hard_here != resource.RLIM_INFINITY and hard_here < hard:
        pytest.skip(f"this machine's hard open-file limit is below {hard}")
    answer = subprocess.run([sys.executable, "-c", LIFTED, str(hard)], capture_output=True, text=True,
                            cwd=pathlib.Path(__file__).parents[2], timeout=patient(30), check=True)
    assert answer.stdout.split() == [str(lifted), str(lifted)]
