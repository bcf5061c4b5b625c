"""The phone remote under load: eight phones hold event streams open while moves are posted.

``web.move_to_event_ms``: from sending a move's POST to the moment the last of
the eight streams has received the new state (median over the moves), through
waitress on the loopback interface exactly as ``azul-table`` serves it.
``web.state_ms_with_8_streams``: a plain GET of the state while the streams
stay open (it must not queue behind them).
"""
import http.client
import json
import statistics
import threading
import time

from firmware_py.session import Seat, Session, Setup
from web_remote import runner
from web_remote.service import RemoteService

STREAMS = 8
MOVES = 60


class Stream:
    """One phone's event stream, read on its own thread; ``seen(version)`` waits for a version to arrive."""

    def __init__(self, port: int):
        self._arrived = threading.Condition()
        self.version = 0
        self._connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self._connection.request("GET", "/api/events")
        self._response = self._connection.getresponse()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self):
        try:
            for line in self._response:
                if line.startswith(b"data: "):
                    version = json.loads(line[6:])["version"]
                    with self._arrived:
                        self.version = version
                        self._arrived.notify_all()
        except (OSError, ValueError, http.client.HTTPException):
            return  # the server closed the stream

    def wait_for(self, version: int, timeout: float = 5.0) -> bool:
        with self._arrived:
            return self._arrived.wait_for(lambda: self.version >= version, timeout)

    def close(self):
        self._connection.close()


def post(connection, path, body, token):
    connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json", "X-Seat-Token": token})
    response = connection.getresponse()
    return response.status, json.loads(response.read())


def measure():
    session = Session(Setup(game="duel", seats=(Seat(kind="phone"), Seat(kind="phone")), seed=3)).start()
    service = RemoteService(session)
    remote = runner.start(service, host="127.0.0.1", port=0)
    tokens = [service.join(service.join_code, seat, "bench") for seat in (0, 1)]
    streams = [Stream(remote.port) for _ in range(STREAMS)]
    connection = http.client.HTTPConnection("127.0.0.1", remote.port, timeout=30)
    try:
        for stream in streams:
            stream.wait_for(session.snapshot.version)
        move_ms, state_ms = [], []
        for _ in range(MOVES):
            snapshot = session.snapshot
            if snapshot.over:
                break
            start = time.perf_counter()
            status, answer = post(connection, "/api/move", {"option": snapshot.options[-1]}, tokens[snapshot.current_player])
            if status != 200:
                raise RuntimeError(f"move refused: {answer}")
            if not all(stream.wait_for(answer["version"]) for stream in streams):
                raise RuntimeError("a stream missed a move")
            move_ms.append(1000 * (time.perf_counter() - start))
            start = time.perf_counter()
            connection.request("GET", "/api/state")
            connection.getresponse().read()
            state_ms.append(1000 * (time.perf_counter() - start))
        return statistics.median(move_ms), statistics.median(state_ms)
    finally:
        connection.close()
        for stream in streams:
            stream.close()
        remote.close()
        session.stop()


def run():
    move_ms, state_ms = measure()
    yield "web.move_to_event_ms", move_ms, "ms"
    yield "web.state_ms_with_8_streams", state_ms, "ms"
