"""The phone remote under load, through its real server on the loopback interface, as ``azul-table`` serves it.

``web.move_to_event_ms``: from sending a move's POST to the moment the last
of eight open event streams has received the new state (median over the
moves). ``web.state_ms_with_8_streams``: a plain GET of the state while those
streams stay open (median).

``web.move_to_event_ms_200_streams`` and ``web.state_ms_200_streams``: the
same from a seated phone's point of view (its move answered and arrived on
its own stream; a GET of the state), 95th percentile, while 200 other event
streams from 50 loopback addresses (127.0.0.2-51) stay open and read, and
100 idle sockets that send nothing are held open (reopened when the server
closes them).

``web.move_to_event_ms_N_picture_clients``: the same seated phone's move
reaching its stream (95th percentile) while N clients in a process of their
own fetch LED pictures and replay pages in a loop, of a finished game and of
the live one; ``web.pictures_and_replays_per_s_N_clients``: how many of those
they got answered meanwhile.
"""
import asyncio
import http.client
import itertools
import json
import multiprocessing
import statistics
import tempfile
import threading
import time

from firmware_py.journal import Journal
from firmware_py.session import NewGame, Play, Seat, Session, Setup
from web_remote import runner
from web_remote.service import RemoteService

STREAMS = 8
MOVES = 60
CROWD_STREAMS = 200
CROWD_ADDRESSES = 50
IDLE_SOCKETS = 100
FLOOD_CLIENTS = (0, 16, 64)
FLOOD_MOVES = 40


class Stream:
    """One phone's event stream, read on its own thread; ``wait_for(version)`` waits for a version to arrive."""

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
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            return  # the stream was closed (AttributeError: by close() while reading)

    def wait_for(self, version: int, timeout: float = 5.0) -> bool:
        with self._arrived:
            return self._arrived.wait_for(lambda: self.version >= version, timeout)

    def close(self):
        self._connection.close()


class _OtherDevices:
    """Clients run by a process of their own (the other devices on the Wi-Fi: they do not share the
    table's interpreter); ``target(*args, ready, stop)`` sets ``ready`` once they are under way."""

    context = multiprocessing.get_context("spawn")

    def _start(self, target, args, failure: str):
        self._ready, self._stop = self.context.Event(), self.context.Event()
        self._process = self.context.Process(target=target, args=(*args, self._ready, self._stop), daemon=True)
        self._process.start()
        if not self._ready.wait(60):
            self.close()
            raise RuntimeError(failure)

    def close(self):
        self._stop.set()
        self._process.join(10)
        if self._process.is_alive():
            self._process.terminate()


class Crowd(_OtherDevices):
    """Event streams from many loopback addresses and idle sockets, held by one asyncio loop."""

    def __init__(self, port: int, streams: int, addresses: int, idle: int):
        self._start(_crowd, (port, streams, addresses, idle), "the crowd's connections did not open")


def _crowd(port, streams, addresses, idle, ready, stop):
    asyncio.run(_hold(port, streams, addresses, idle, ready, stop))


async def _hold(port, streams, addresses, idle, ready, stop):
    opened = []

    async def stream(address):
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
        writer.write(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        status = await reader.readline()
        if b" 200 " not in status:
            raise RuntimeError(f"a crowd stream was refused: {status!r}")
        opened.append(address)
        try:
            while await reader.read(65536):
                pass
        finally:
            writer.close()

    async def silent():
        while True:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            try:
                await reader.read(1)  # returns when the server gives up on the silent socket
            finally:
                writer.close()

    tasks = [asyncio.ensure_future(stream(f"127.0.0.{2 + n % addresses}")) for n in range(streams)]
    tasks += [asyncio.ensure_future(silent()) for _ in range(idle)]
    while len(opened) < streams:
        await asyncio.sleep(0.05)
    await _run_until(stop, ready, tasks)


async def _run_until(stop, ready, tasks):
    """Say the clients are under way, keep them going until ``stop``, then end them."""
    ready.set()
    while not stop.is_set():
        await asyncio.sleep(0.1)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def post(connection, path, body, token):
    connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json", "X-Seat-Token": token})
    response = connection.getresponse()
    return response.status, json.loads(response.read())


def measure(streams: int = STREAMS, crowd=None, summary=statistics.median):
    """(move to event ms, state ms) over the moves of a Duel between two phones; ``crowd`` = (streams,
    addresses, idle sockets) of extra load, with the phones' own stream as the one timed."""
    session = Session(Setup(game="duel", seats=(Seat(kind="phone"), Seat(kind="phone")), seed=3)).start()
    service = RemoteService(session)
    remote = runner.start(service, host="127.0.0.1", port=0)
    tokens = [service.join(service.join_code, seat, "bench") for seat in (0, 1)]
    load = Crowd(remote.port, *crowd) if crowd else None
    timed = [Stream(remote.port) for _ in range(streams)]
    connection = http.client.HTTPConnection("127.0.0.1", remote.port, timeout=30)
    try:
        for stream in timed:
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
            if not all(stream.wait_for(answer["version"]) for stream in timed):
                raise RuntimeError("a stream missed a move")
            move_ms.append(1000 * (time.perf_counter() - start))
            start = time.perf_counter()
            connection.request("GET", "/api/state")
            connection.getresponse().read()
            state_ms.append(1000 * (time.perf_counter() - start))
        return summary(move_ms), summary(state_ms)
    finally:
        connection.close()
        for stream in timed:
            stream.close()
        if load is not None:
            load.close()
        remote.close()
        session.stop()


def p95(values):
    return statistics.quantiles(values, n=20)[-1]


class Flood(_OtherDevices):
    """Clients that fetch public pages in a loop (each on a connection of its own, the next of ``paths``
    every time); ``answers()`` counts what they got, by status."""

    def __init__(self, port: int, clients: int, paths: list):
        self._counts = self.context.Array("l", 600)  # answers by status code
        self._start(_flood, (port, clients, paths, self._counts), "the flood's clients got no answer")

    def answers(self) -> dict:
        """{status: answers so far}."""
        return {status: count for status, count in enumerate(self._counts[:]) if count}


def _flood(port, clients, paths, counts, ready, stop):
    asyncio.run(_fetch(port, clients, paths, counts, ready, stop))


async def _fetch(port, clients, paths, counts, ready, stop):
    answered = set()

    async def client(number):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            for turn in itertools.count(number):
                request = f"GET {paths[turn % len(paths)]} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                writer.write(request.encode())
                head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").lower()
                length = int(head.split("content-length: ", 1)[1].split("\r\n", 1)[0])
                await reader.readexactly(length)
                counts[int(head.split(" ", 2)[1])] += 1
                answered.add(number)
                if "connection: close" in head:
                    writer.close()
                    reader, writer = await asyncio.open_connection("127.0.0.1", port)
        finally:
            writer.close()

    tasks = [asyncio.ensure_future(client(n)) for n in range(clients)]
    while len(answered) < clients:
        await asyncio.sleep(0.05)
        failed = [task for task in tasks if task.done()]
        if failed:
            failed[0].result()
    await _run_until(stop, ready, tasks)


def flood_paths(moves: int) -> list:
    """What the flood fetches: pictures and replay pages of the finished game 1 at plies spread over its
    moves (so a cache of recent answers does not hold them all), and of the live game 2 as it stands."""
    paths = []
    for ply in range(0, moves + 1, 5):
        paths += [f"/history/1/table.png?ply={ply}", f"/history/1?ply={ply}"]
    return paths + ["/history/2/table.png", "/history/2"]


def measure_flood(clients: int, moves: int = FLOOD_MOVES):
    """(p95 of move to event ms, flood answers by status, flood answers per second): a seated phone's
    moves, each waited for on its own event stream, while ``clients`` fetch pictures and replays."""
    with tempfile.TemporaryDirectory() as data:
        journal = Journal(data)
        session = Session(Setup(game="duel", seed=13), journal=journal)
        while not session.snapshot.over:
            session.apply(Play(session.snapshot.current_player, session.snapshot.options[-1]))
        finished_moves = len(session.snapshot.history)
        session.start()
        session.call(NewGame(Setup(game="duel", seats=(Seat(kind="phone"), Seat(kind="phone")), seed=3)))
        service = RemoteService(session)
        remote = runner.start(service, host="127.0.0.1", port=0)
        tokens = [service.join(service.join_code, seat, "bench") for seat in (0, 1)]
        flood = Flood(remote.port, clients, flood_paths(finished_moves)) if clients else None
        own = Stream(remote.port)
        connection = http.client.HTTPConnection("127.0.0.1", remote.port, timeout=60)
        try:
            own.wait_for(session.snapshot.version)
            before, started = flood.answers() if flood else {}, time.perf_counter()
            move_ms = []
            for _ in range(moves):
                snapshot = session.snapshot
                start = time.perf_counter()
                status, answer = post(connection, "/api/move", {"option": snapshot.options[-1]},
                                      tokens[snapshot.current_player])
                if status != 200:
                    raise RuntimeError(f"move refused: {answer}")
                if not own.wait_for(answer["version"], timeout=60):
                    raise RuntimeError("the phone's stream missed a move")
                move_ms.append(1000 * (time.perf_counter() - start))
            took = time.perf_counter() - started
            after = flood.answers() if flood else {}
            served = {status: after[status] - before.get(status, 0) for status in after}
            return p95(move_ms), served, sum(served.values()) / took
        finally:
            connection.close()
            own.close()
            if flood is not None:
                flood.close()
            remote.close()
            session.stop()
            journal.close()


def run():
    move_ms, state_ms = measure()
    yield "web.move_to_event_ms", move_ms, "ms"
    yield "web.state_ms_with_8_streams", state_ms, "ms"
    move_ms, state_ms = measure(1, (CROWD_STREAMS, CROWD_ADDRESSES, IDLE_SOCKETS), p95)
    yield "web.move_to_event_ms_200_streams", move_ms, "ms"
    yield "web.state_ms_200_streams", state_ms, "ms"
    for clients in FLOOD_CLIENTS:
        move_ms, _, per_second = measure_flood(clients)
        yield f"web.move_to_event_ms_{clients}_picture_clients", move_ms, "ms"
        if clients:
            yield f"web.pictures_and_replays_per_s_{clients}_clients", per_second, "answers/s"
