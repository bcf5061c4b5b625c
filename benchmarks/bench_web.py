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
import contextlib
import http.client
import itertools
import json
import multiprocessing
import socket
import statistics
import tempfile
import threading
import time

import flask

from firmware_py import games
from firmware_py.journal import Journal
from firmware_py.session import NewGame, Play, Seat, Session, Setup
from web_remote import runner, server
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
        self._socket = self._connection.sock
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
        """Shut the socket first: the reading thread then returns at once and lets the stream close (else
        closing waits for the reader's lock until the server's next line, a heartbeat away)."""
        with contextlib.suppress(OSError):
            self._socket.shutdown(socket.SHUT_RDWR)
        self._connection.close()
        self._thread.join(5)


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
    """Clients on other devices that fetch public pages in a loop, each on a connection of its own, going
    through the paths of the aimed-at list of ``targets`` in turn from that list's own address
    (:func:`flood_address`); ``aim`` another list drops what they still wait for and starts afresh, ``aim(None)``
    holds them. ``answers()`` counts what they got, by status."""

    def __init__(self, port: int, clients: int, targets: list, aimed: int = 0):
        self._counts = self.context.Array("l", 600)  # answers by status code
        self._aimed = self.context.Value("i", aimed)
        self._start(_flood, (port, clients, targets, self._aimed, self._counts), "the flood's clients got no answer")

    def aim(self, target):
        """Send the clients after ``targets[target]``; None holds them."""
        self._aimed.value = -1 if target is None else target

    def answers(self) -> dict:
        """{status: answers so far}."""
        return {status: count for status, count in enumerate(self._counts[:]) if count}


def flood_address(target: int) -> str:
    """The loopback address the flood of ``targets[target]`` comes from: a device other than the table's own
    computer, and another for each list, so that each starts as a stranger the table has not seen."""
    return f"127.0.{2 + target // 250}.{2 + target % 250}"


def _flood(port, clients, targets, aimed, counts, ready, stop):
    asyncio.run(_fetch(port, clients, targets, aimed, counts, ready, stop))


async def _answer(reader) -> tuple:
    """(status, whether the server closes the connection) of one answer, its body read whole."""
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").lower()
    if "content-length: " in head:
        await reader.readexactly(int(head.split("content-length: ", 1)[1].split("\r\n", 1)[0]))
    elif "transfer-encoding: chunked" in head:
        while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
            await reader.readexactly(size + 2)
        await reader.readuntil(b"\r\n")
    return int(head.split(" ", 2)[1]), "connection: close" in head


async def _fetch(port, clients, targets, aimed, counts, ready, stop):
    answered = set()
    now = {"target": aimed.value, "moved": asyncio.Event()}  # what the clients are after; set when it changes

    async def follow():
        while True:
            await asyncio.sleep(0.02)
            if aimed.value != now["target"]:
                moved = now["moved"]
                now.update(target=aimed.value, moved=asyncio.Event())
                moved.set()

    async def client(number):
        connection, awaited = None, ()
        try:
            for turn in itertools.count(number):
                target, moved = now["target"], now["moved"]
                if target < 0:
                    await moved.wait()
                    continue
                if connection is None:
                    connection = await asyncio.open_connection("127.0.0.1", port, local_addr=(flood_address(target), 0))
                reader, writer = connection
                paths = targets[target]
                writer.write(f"GET {paths[turn % len(paths)]} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
                awaited = answer, changed = asyncio.ensure_future(_answer(reader)), asyncio.ensure_future(moved.wait())
                await asyncio.wait(awaited, return_when=asyncio.FIRST_COMPLETED)
                changed.cancel()
                if not answer.done() or answer.exception() is not None:  # aimed elsewhere, or closed by the server
                    answer.cancel()
                    writer.close()
                    connection = None
                    continue
                status, closes = answer.result()
                counts[status] += 1
                answered.add(number)
                if closes:
                    writer.close()
                    connection = None
        finally:
            for task in awaited:  # the clients stopped while waiting: the answer is no longer wanted
                task.cancel()
            if connection is not None:
                connection[1].close()

    tasks = [asyncio.ensure_future(client(n)) for n in range(clients)] + [asyncio.ensure_future(follow())]
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
        flood = Flood(remote.port, clients, [flood_paths(finished_moves)]) if clients else None
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


ROUTE_FLOOD_CLIENTS = 64
ROUTE_FLOOD_MOVES = 60  # the first 60 decisions of the same Duel each time (one lasts some 260)
ROUTE_FLOOD_PROFILES = 1000
ROUTE_FLOOD_SETTLE_S = float(server.PUBLIC_BURST) / server.PUBLIC_RATE
"""How long a route's flood runs at most before the moves are timed (less once its first burst of answers is
in; then until ROUTE_FLOOD_STEADY_ANSWERS more came, at most ROUTE_FLOOD_STEADY_S): a stranger's first burst of
reads is answered at once, what a phone sees while the flood goes on at its steady pace is what counts."""
ROUTE_FLOOD_STEADY_S = 1.0
ROUTE_FLOOD_STEADY_ANSWERS = int(server.PUBLIC_RATE / 4)
"""After the burst, the answers that show the flood going on at its pace (a quarter of a second's worth)."""
ROUTE_FLOOD_QUIET_S = 0.5
"""After a route's flood is held, the longest wait for the table's process to finish the flood's work (its
threads using under ROUTE_FLOOD_IDLE_SHARE of a core over ROUTE_FLOOD_IDLE_S) before the moves without a
flood are timed."""
ROUTE_FLOOD_IDLE_S = 0.05
ROUTE_FLOOD_IDLE_SHARE = 0.1
STREAMED_ROUTES = {"api.events"}
"""Left out of the route floods: an event stream stays open (200 of them: ``web.move_to_event_ms_200_streams``)."""
ROUTE_SAMPLES = {"game_id": 1, "number": 1, "game": "duel", "view": "centre", "lang": "it", "filename": "remote.css"}
"""The arguments the flooded paths are built with (``player_id`` and ``kind`` are added where they are known)."""


def public_get_routes(app, samples: dict) -> dict:
    """{endpoint: path} of every GET route of ``app`` that answers a client holding no credential (no seat's or
    host's token), its arguments from ``samples``; event streams left out (:data:`STREAMED_ROUTES`).
    A refusal of what the table's state does not allow (a review of the game still being played: 409) is what
    a stranger gets, and counts. :raise ValueError: a route answers 400, 404 or 5xx: its sample arguments name
    nothing."""
    client = app.test_client()
    found = {}
    for rule in sorted(app.url_map.iter_rules(), key=lambda rule: rule.rule):
        if "GET" not in rule.methods or rule.endpoint in STREAMED_ROUTES:
            continue
        with app.test_request_context():
            path = flask.url_for(rule.endpoint, **{name: samples[name] for name in rule.arguments})
        with client.get(path) as answer:
            status = answer.status_code
        if status in (401, 403):
            continue  # it needs a credential
        if status in (400, 404) or status >= 500:
            raise ValueError(f"GET {path} answers {status}: its sample arguments name nothing")
        found[rule.endpoint] = path
    return found


class _Phones:
    """The two seated phones of a Duel making its moves in turn, each timed from its POST to its arrival on the
    phones' event stream. Each timing starts a new game of the same setup and deal, so that every flood is
    timed on the same moves as the others and the baseline."""

    def __init__(self, remote, setup: Setup):
        self.remote, self.setup, self.session = remote, setup, remote.service.session
        self.stream = Stream(remote.port)
        self.connection = http.client.HTTPConnection("127.0.0.1", remote.port, timeout=60)

    def new_game(self):
        """The same game again from its start, both seats joined by a phone."""
        service = self.remote.service
        self.session.call(NewGame(self.setup))
        self.tokens = [service.join(service.join_code, seat, "bench") for seat in range(len(self.setup.seats))]
        self.stream.wait_for(self.session.snapshot.version)

    def moves_ms(self, count: int) -> list:
        """The first ``count`` moves of a game just started (:meth:`new_game`), in ms each: shorter than a game."""
        taken = []
        for _ in range(count):
            snapshot = self.session.snapshot
            if snapshot.over:
                raise ValueError(f"the game ended before {count} moves were timed")
            start = time.perf_counter()
            status, answer = post(self.connection, "/api/move", {"option": snapshot.options[-1]},
                                  self.tokens[snapshot.current_player])
            if status != 200:
                raise RuntimeError(f"move refused: {answer}")
            if not self.stream.wait_for(answer["version"], timeout=60):
                raise RuntimeError("the phone's stream missed a move")
            taken.append(1000 * (time.perf_counter() - start))
        return taken

    def close(self):
        self.connection.close()
        self.stream.close()


def _settle(flood: Flood):
    """Wait while the flood's first burst is answered (at most ROUTE_FLOOD_SETTLE_S), and until it goes on at
    its steady pace: ROUTE_FLOOD_STEADY_ANSWERS more answers (at most ROUTE_FLOOD_STEADY_S)."""
    _more_answers(flood, server.PUBLIC_BURST, ROUTE_FLOOD_SETTLE_S)
    _more_answers(flood, ROUTE_FLOOD_STEADY_ANSWERS, ROUTE_FLOOD_STEADY_S)


def _more_answers(flood: Flood, count: int, longest: float):
    """Wait until the flood has had ``count`` answers more than now, or ``longest`` seconds have passed."""
    before, deadline = sum(flood.answers().values()), time.monotonic() + longest
    while sum(flood.answers().values()) - before < count and time.monotonic() < deadline:
        time.sleep(0.02)


def _quiet(longest: float):
    """Wait until this process (the table and its server: the flood's clients run in another) has done what the
    held flood left it, at most ``longest`` seconds."""
    deadline = time.monotonic() + longest
    while time.monotonic() < deadline:
        used = time.process_time()
        time.sleep(ROUTE_FLOOD_IDLE_S)
        if time.process_time() - used < ROUTE_FLOOD_IDLE_SHARE * ROUTE_FLOOD_IDLE_S:
            return


def measure_route_floods(clients: int = ROUTE_FLOOD_CLIENTS, moves: int = ROUTE_FLOOD_MOVES,
                         profiles: int = ROUTE_FLOOD_PROFILES, only=None):
    """(baseline, {endpoint: (path, flooded, the flood's answers by status)}): the 95th percentile in ms of a
    seated phone's move reaching its stream while ``clients`` on one address fetch one public route in a loop,
    route after route (those of the endpoints ``only``, default all), at a table that knows ``profiles``
    people and has a finished and reviewed game in its journal; the baseline, the same moves timed without a
    flood before each route's, all together (so that the machine's own pace at each moment counts)."""
    with tempfile.TemporaryDirectory() as data:
        journal = Journal(data)
        people = [journal.players.create(f"Person {n}").id for n in range(profiles)]
        session = Session(Setup(game="duel", seed=13), journal=journal)
        while not session.snapshot.over:
            session.apply(Play(session.snapshot.current_player, session.snapshot.options[-1]))
        for decision, _, _, notation, _, _ in journal.review_rows(journal.current_game):
            journal.keep_review(decision, notation, 0.0)  # reviewed already: no review runs beside the moves
        journal.finish_review(journal.current_game)
        session.start()
        setup = Setup(game="duel", seats=(Seat(kind="phone"), Seat(kind="phone")), seed=3)
        session.call(NewGame(setup))
        service = RemoteService(session)
        remote = runner.start(service, host="127.0.0.1", port=0)
        phones = flood = None
        try:
            samples = {**ROUTE_SAMPLES, "player_id": people[0], "kind": games.spec("duel").module.PENDING[0]}
            routes = {endpoint: path for endpoint, path in public_get_routes(remote.app, samples).items()
                      if only is None or endpoint in only}
            phones = _Phones(remote, setup)
            flood = Flood(remote.port, clients, [[path] for path in routes.values()])
            alone, flooded = [], {}
            for target, (endpoint, path) in enumerate(routes.items()):
                flood.aim(None)
                _quiet(ROUTE_FLOOD_QUIET_S)
                phones.new_game()
                alone += phones.moves_ms(moves)
                phones.new_game()
                before = flood.answers()
                flood.aim(target)
                _settle(flood)
                move_ms = phones.moves_ms(moves)
                after = flood.answers()
                flooded[endpoint] = (path, p95(move_ms), {status: count - before.get(status, 0)
                                                          for status, count in after.items() if count > before.get(status, 0)})
            return p95(alone), flooded
        finally:
            if flood is not None:
                flood.close()
            if phones is not None:
                phones.close()
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
    baseline, flooded = measure_route_floods()
    yield "web.move_to_event_ms_between_route_floods", baseline, "ms"
    for endpoint, (_, move_ms, _) in flooded.items():
        yield f"web.route_flood_ratio.{endpoint}", move_ms / baseline, "x"
