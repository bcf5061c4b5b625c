"""The phone remote's HTTP server: hypercorn's asyncio loop in front of the Flask app.

Why not a thread per connection: an open event stream (every phone's live
view, every watcher, anyone on the Wi-Fi) would hold its thread for as long
as it stays open, and a few dozen of them would leave none for moves. Here
one asyncio loop (hypercorn, a well-kept ASGI server from the Flask
maintainers) holds every connection:

- an idle connection, or one that sends its request slowly, costs a little
  memory and is closed after ``KEEP_ALIVE_S``;
- a request body is read on the loop, at most its route's limit
  (``guards.body_limit``) and within ``BODY_TIMEOUT_S``, before a thread
  sees it; a request answered without its whole body closes its connection;
- the Flask app then runs on a small pool of ``WORKERS`` threads (the routes
  marked ``guards.renders``, past games' pictures and replays, on
  ``RENDER_WORKERS`` of their own, so that they queue for each other and never
  hold a thread a move needs), its answer sent back on the loop (a client
  that stops reading is dropped after ``SEND_TIMEOUT_S``);
- the event streams (:func:`guards.event_stream`) are coroutines on the loop:
  the Flask view checks the request as usual and hands over the stream, which
  then waits for changes without any thread;
- what anyone may read without a credential (a GET or HEAD without a seat's or
  the host's token) from another device is paced per address (:class:`Pace`): a page and all it
  loads come at once, but a device asking again and again waits on the loop,
  at no cost, and its answers never take more than ``PUBLIC_SHARE`` of a core
  over time: a stranger's reads cannot take the CPU the moves need.

:func:`start` serves an app on a thread of its own and returns at once.
"""
import asyncio
import concurrent.futures
import contextlib
import encodings.idna  # noqa: F401 - loaded now: out of descriptors, its lazy import for a host name could not open its file
import io
import logging
import resource
import socket
import threading
import time

from a2wsgi.wsgi import build_environ

from web_remote import guards

log = logging.getLogger(__name__)

WORKERS = 8  # threads for ordinary requests: each is short (a move waits for the session at most 10 s)
RENDER_WORKERS = 1  # threads for the routes marked guards.renders (pictures, replays), which queue for them
KEEP_ALIVE_S = 10.0  # an idle connection (or a request line and headers still arriving) is closed then
BODY_TIMEOUT_S = 10.0  # the whole body must arrive within this
SEND_TIMEOUT_S = 10.0  # a client that does not take a chunk for this long is dropped
PUBLIC_RATE = 20.0  # credential-less reads answered per second to one address, once its burst is spent
PUBLIC_BURST = 60  # ... and at once: a page with all it loads, several times over
PUBLIC_SHARE = 0.25  # the part of a core one address's credential-less reads may take over time
PUBLIC_AT_ONCE = 2  # one address's credential-less reads in progress at once (the others wait their turn)
STOP_TIMEOUT_S = 3.0
FORCED_STOP_MARGIN_S = 0.5  # after hypercorn's grace, this long before the server ends what is still open
OPEN_FILES = 8192  # the open-file limit the remote asks for (the service unit's LimitNOFILE)
REFUSED_LOG_INTERVAL_S = 60.0  # accepts failing for want of descriptors are logged at most this often
_TIMEOUT_BODY = b'{"error":"error.timeout","message":"The request body did not arrive in time."}'


class _Gone(Exception):
    """The client went away or stopped reading."""


class Pace:
    """When each address's next credential-less read is answered: ``burst`` of them at once, then one every
    1/``rate`` s, and never more than ``share`` of a core on that address's answers over time (a read whose
    answer took 0.1 s of a worker's time holds the address's next one 0.1/``share`` s longer). A leaky bucket
    per address, kept as the moment it is empty again; used on the loop's thread only."""

    def __init__(self, rate: float = PUBLIC_RATE, burst: int = PUBLIC_BURST, share: float = PUBLIC_SHARE,
                 at_once: int = PUBLIC_AT_ONCE, remembered: int = 4096):
        self.interval = 1.0 / rate
        self.allowance = (burst - 1) * self.interval
        self.share = share
        self.at_once = at_once
        self.remembered = remembered
        self._empty_at = {}  # address -> the moment its bucket is empty again
        self._places = {}  # address -> [its places for reads in progress, how many reads hold or wait for one]

    @contextlib.asynccontextmanager
    async def turn(self, address: str):
        """Hold one of ``address``'s ``at_once`` places for reads in progress, once the wait its pace asks is
        over: what a read costs is charged before more of that address's reads start than it may have at once."""
        places = self._places.setdefault(address, [asyncio.Semaphore(self.at_once), 0])
        places[1] += 1
        try:
            async with places[0]:
                waited = self.wait(address, asyncio.get_running_loop().time())
                if waited:
                    await asyncio.sleep(waited)
                yield
        finally:
            places[1] -= 1
            if not places[1]:
                del self._places[address]

    def _emptied(self, address: str, now: float) -> float:
        if len(self._empty_at) >= self.remembered:  # forget the addresses whose buckets are empty
            self._empty_at = {known: at for known, at in self._empty_at.items() if at > now}
        return max(self._empty_at.get(address, now), now)

    def wait(self, address: str, now: float) -> float:
        """Seconds the read of ``address`` arriving at ``now`` waits before it is answered."""
        empty_at = self._emptied(address, now)
        self._empty_at[address] = empty_at + self.interval
        return max(0.0, empty_at - self.allowance - now)

    def charge(self, address: str, now: float, seconds: float):
        """Count the ``seconds`` of a worker's time an answer to ``address`` took."""
        self._empty_at[address] = self._emptied(address, now) + seconds / self.share


def _stranger(scope):
    """The address of the device asking, or None for the table's own computer (a connection whose two ends
    have one address: its own browser, the simulator, the service's checks)."""
    client = (scope.get("client") or ("",))[0]
    return None if client == (scope.get("server") or ("",))[0] else client


def _credential_less_read(scope) -> bool:
    """A GET or HEAD carrying no seat's or host's token: what a stranger on the Wi-Fi can ask."""
    if scope["method"] not in ("GET", "HEAD"):
        return False
    names = {name.lower() for name, _ in scope["headers"]}
    return guards.SEAT_HEADER.lower().encode() not in names and guards.HOST_HEADER.lower().encode() not in names


class TableServer:
    """The ASGI app around a Flask ``app``: bodies and streams on the loop, the app on a thread pool."""

    def __init__(self, app, workers: int = WORKERS, render_workers: int = RENDER_WORKERS):
        self.app = app
        self.pool = concurrent.futures.ThreadPoolExecutor(workers, thread_name_prefix="web")
        self.renderers = concurrent.futures.ThreadPoolExecutor(render_workers, thread_name_prefix="web-render")
        self.pace = Pace()

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "http":
            await self._http(scope, receive, send)

    @staticmethod
    async def _lifespan(receive, send):
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _http(self, scope, receive, send):
        paced = _stranger(scope) if _credential_less_read(scope) else None
        limit = guards.body_limit(self.app, scope["method"], scope["path"])
        reading = _BodyReader(receive, limit)
        try:
            body = await asyncio.wait_for(reading.read(scope), BODY_TIMEOUT_S)
        except (asyncio.TimeoutError, _Gone):
            body = None
        # A body left unread (too large, too slow) must not hold the connection: hypercorn queues what
        # still arrives for the app and, with nobody reading, would wait for ever. It is discarded
        # until the answer has gone out, and the answer closes the connection.
        draining = None if reading.ended else asyncio.ensure_future(_discard(receive))
        try:
            await self._respond(scope, body, reading.ended, send, receive, paced)
        except _Gone:
            pass
        finally:
            if draining is not None:
                draining.cancel()
                await asyncio.gather(draining, return_exceptions=True)

    async def _respond(self, scope, body, ended: bool, send, receive, paced=None):
        """Run the app on ``body`` (None: it did not arrive in time) and send its answer or stream; the time
        the app took is charged to the ``paced`` address (:class:`Pace`)."""
        closing = [] if ended else [(b"connection", b"close")]
        if body is None:
            await _answer(send, 408, [(b"content-type", b"application/json"), *closing], _TIMEOUT_BODY)
            return
        environ = build_environ(_with_length(scope, body), io.BytesIO(body))
        environ[guards.ASYNC_STREAMS] = None
        loop = asyncio.get_running_loop()
        pool = self.renderers if guards.renders_route(self.app, scope["method"], scope["path"]) else self.pool
        if paced is None:
            status, headers, chunks, _ = await loop.run_in_executor(pool, _call_wsgi, self.app, environ)
        else:
            left = asyncio.ensure_future(_discard(receive))  # done when the client has gone
            try:
                async with self.pace.turn(paced):
                    if left.done():
                        raise _Gone  # it went away while it waited: nothing is worked out for nobody
                    status, headers, chunks, took = await loop.run_in_executor(pool, _call_wsgi, self.app, environ)
                    self.pace.charge(paced, loop.time(), took)
            finally:
                left.cancel()
                await asyncio.gather(left, return_exceptions=True)
        stream = environ[guards.ASYNC_STREAMS]
        if stream is None:
            await _answer(send, status, headers + closing, b"".join(chunks))
        else:
            headers = [(name, value) for name, value in headers if name != b"content-length"]
            await _stream(stream, status, headers, receive, send)

    def close(self):
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.renderers.shutdown(wait=False, cancel_futures=True)


class _BodyReader:
    """Reads a request body up to its route's limit; ``ended`` says whether the whole body was read."""

    def __init__(self, receive, limit: int):
        self._receive = receive
        self._limit = limit
        self.ended = False

    async def read(self, scope) -> bytes:
        """The body, or its first ``limit + 1`` bytes: Flask then refuses it (413) without more.

        :raise _Gone: the client left.
        """
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self._limit):
            return b""  # Flask answers 413 from the header alone
        body = bytearray()
        while len(body) <= self._limit:
            message = await self._receive()
            if message["type"] == "http.disconnect":
                raise _Gone
            body += message.get("body", b"")
            if not message.get("more_body", False):
                self.ended = True
                break
        return bytes(body[: self._limit + 1])


async def _discard(receive):
    """Take and drop what the client still sends, until it or the server ends the connection."""
    while (await receive())["type"] != "http.disconnect":
        pass


def _with_length(scope, body: bytes):
    """``scope`` whose Content-Length is the body read (a chunked body becomes a counted one)."""
    headers = [(name, value) for name, value in scope["headers"] if name not in (b"content-length", b"transfer-encoding")]
    declared = dict(scope["headers"]).get(b"content-length")
    headers.append((b"content-length", declared if declared is not None and not body else str(len(body)).encode()))
    return {**scope, "headers": headers}


def _call_wsgi(app, environ):
    """Run the Flask app on a worker thread: (status, headers, body chunks, the thread's CPU seconds)."""
    began = time.thread_time()
    started = {}

    def start_response(status, headers, exc_info=None):
        started["status"] = int(status.split(" ", 1)[0])
        started["headers"] = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers]

    body = app(environ, start_response)
    try:
        chunks = list(body)
    finally:
        getattr(body, "close", lambda: None)()
    return started["status"], started["headers"], chunks, time.thread_time() - began


async def _send(send, message):
    try:
        await asyncio.wait_for(send(message), SEND_TIMEOUT_S)
    except (asyncio.TimeoutError, OSError) as error:
        raise _Gone from error


async def _answer(send, status, headers, body: bytes):
    await _send(send, {"type": "http.response.start", "status": status, "headers": headers})
    await _send(send, {"type": "http.response.body", "body": body})


async def _stream(stream: guards.EventStream, status, headers, receive, send):
    """Send ``stream``'s events until it ends, the client leaves or stops reading, or the server stops."""

    async def pump():
        await _send(send, {"type": "http.response.start", "status": status, "headers": headers})
        async for text in stream.events:
            await _send(send, {"type": "http.response.body", "body": text.encode(), "more_body": True})
        await _send(send, {"type": "http.response.body", "body": b""})

    sending = asyncio.ensure_future(pump())
    leaving = asyncio.ensure_future(_discard(receive))
    try:
        await asyncio.wait((sending, leaving), return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (sending, leaving):
            task.cancel()
        await asyncio.gather(sending, leaving, return_exceptions=True)
        await stream.close()


class RefusedAccepts:
    """The loop's exception handler: ``accept()`` failing for want of descriptors, logged once per interval.

    asyncio reports every failed ``accept()`` with a traceback and retries each
    waiting connection many times a second: under a flood, megabytes of log a
    minute. The first failure is logged at once; the failures of each interval
    after it, in one line with their count at its end, until an interval passes
    without any. A connection cancelled as the server stops is no fault and is not
    logged (Python 3.11's streams report one with a traceback each). Everything
    else goes to the loop's default handler.
    """

    MESSAGE = "socket.accept() out of system resource"

    def __init__(self, interval: float = REFUSED_LOG_INTERVAL_S):
        self.interval = interval
        self._counting = False  # an interval runs: failures are counted, and told at its end
        self._failed = 0

    def __call__(self, loop, context):
        if isinstance(context.get("exception"), asyncio.CancelledError):
            return
        if context.get("message") != self.MESSAGE:
            loop.default_exception_handler(context)
        elif self._counting:
            self._failed += 1
        else:
            log.warning("Cannot accept connections: %s. They wait until open ones close; if this recurs, "
                        "raise the open-file limit (LimitNOFILE in the service unit, ulimit -n)",
                        context.get("exception"))
            self._count_for_an_interval(loop)

    def _count_for_an_interval(self, loop):
        self._counting = True
        loop.call_later(self.interval, self._interval_ended, loop)

    def _interval_ended(self, loop):
        if self._failed:
            log.warning("%d more accepts failed for want of descriptors in the last %g s", self._failed, self.interval)
            self._failed = 0
            self._count_for_an_interval(loop)
        else:
            self._counting = False


def _drop_stalled_connections(listener: socket.socket):
    """Let the kernel end any accepted connection whose data waits ``SEND_TIMEOUT_S`` to be taken.

    A client that stops reading (or vanishes from the Wi-Fi) leaves an answer
    in asyncio's buffer, and asyncio closes such a connection only once the
    buffer is sent: without this it would hold its descriptor for as long as
    the client holds its end. Accepted sockets inherit the option (Linux).
    """
    if hasattr(socket, "TCP_USER_TIMEOUT"):
        listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, int(SEND_TIMEOUT_S * 1000))


def raise_open_file_limit(wanted: int = OPEN_FILES) -> int:
    """Lift this process's soft open-file limit to ``wanted`` (at most the hard limit): the new soft limit.

    Every phone, watcher and event stream holds a descriptor, and a shell or
    a systemd service without ``LimitNOFILE`` starts the table with 1,024.
    Raising the soft limit up to the hard one needs no privilege.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return soft


class RunningServer:
    """A started server: ``port``, ``close()``."""

    def __init__(self, app, host: str, port: int):
        from hypercorn.asyncio import serve
        from hypercorn.config import Config

        listener = socket.create_server((host, port), reuse_port=False, backlog=256)
        _drop_stalled_connections(listener)
        self.port = listener.getsockname()[1]
        self.front = TableServer(app)
        config = Config()
        config.bind = [f"fd://{listener.detach()}"]
        config.keep_alive_timeout = KEEP_ALIVE_S
        config.graceful_timeout = STOP_TIMEOUT_S
        config.accesslog = None
        config.errorlog = log
        config.include_server_header = False
        self._config = config
        self._serve = serve
        self._loop = asyncio.new_event_loop()
        # Made here, not on the thread, so that a close() that comes before the thread runs (a stop
        # signal during start-up on a slow machine) still finds it; it binds to the loop when awaited.
        self._stop = asyncio.Event()
        self._thread = threading.Thread(target=self._run, name="web", daemon=True)
        self._thread.start()

    def _run(self):
        asyncio.set_event_loop(self._loop)
        self._loop.set_exception_handler(RefusedAccepts())
        try:
            self._loop.run_until_complete(self._serve_until_closed())
        finally:
            self._loop.close()

    async def _serve_until_closed(self):
        """Serve until :meth:`close`; the connections still open when hypercorn's grace (:data:`STOP_TIMEOUT_S`) is over are ended here.

        hypercorn ends them itself only before Python 3.12: from 3.12 on its
        shutdown waits for every open connection however long (``Server.wait_closed``
        waits for them; hypercorn issue 308), and a phone's event stream never
        ends by itself, so the server would go on serving it after close().
        """
        serving = asyncio.ensure_future(self._serve(self.front, self._config, shutdown_trigger=self._stop.wait))
        stopping = asyncio.ensure_future(self._stop.wait())
        await asyncio.wait((serving, stopping), return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        if not serving.done():  # hypercorn's own grace first, where it keeps to it
            await asyncio.wait((serving,), timeout=STOP_TIMEOUT_S + FORCED_STOP_MARGIN_S)
        if serving.done():
            serving.result()
            return
        for task in asyncio.all_tasks():  # the connections ended here are no fault to log (RefusedAccepts)
            if task is not serving and task is not asyncio.current_task():
                task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await serving

    def close(self):
        """Stop accepting, end the open connections, and wait for the loop thread (at most a few seconds)."""
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._stop.set)
            self._thread.join(STOP_TIMEOUT_S + FORCED_STOP_MARGIN_S + 2)
        self.front.close()


def start(app, host: str = "0.0.0.0", port: int = 8080) -> RunningServer:
    """Serve ``app`` on ``host:port`` (0: a free port) on a daemon thread. :raise OSError: cannot listen there."""
    return RunningServer(app, host, port)
