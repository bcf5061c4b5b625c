"""Cross-cutting rules of every request: which name it was sent to, from which page, with what body.

- The ``Host`` must be one of the table's own names (localhost, a loopback or
  interface address, the names in ``app.config["TABLE_HOST_NAMES"]``): a page
  that rebinds its own domain name to the table's address is refused.
- Credentials travel in headers (``X-Seat-Token``, ``X-Host-Token``), never in
  cookies, so a page from another site cannot borrow them; the custom header
  and the JSON body also force a CORS preflight that this app never approves.
  A state-changing request from another site (its ``Origin``, else its
  ``Sec-Fetch-Site``, else its ``Referer``) is refused outright.
- Bodies are bounded before they are read (``accepts_body`` raises a route's
  limit), JSON is parsed with bounded nesting, numbers are checked against
  ranges, and any error becomes a JSON answer with a message: never a 500
  with a traceback.
"""
import asyncio
import collections
import functools
import ipaddress
import logging
import threading
import time
from urllib.parse import urlsplit

from flask import Response, current_app, g, jsonify, request
from werkzeug.exceptions import HTTPException

from firmware_py import jsonlimits
from firmware_py.credentials import digest
from web_remote import i18n, network
from web_remote.service import AccessDenied

log = logging.getLogger(__name__)

SEAT_HEADER = "X-Seat-Token"
HOST_HEADER = "X-Host-Token"
MAX_BODY_BYTES = 16_384  # every route's body, unless it says otherwise (imports: see history.py)
MAX_NUMBER = 2 ** 31 - 1  # no count, seat, ply or version of a game comes near it
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
ADDRESSES_KEPT_S = 10.0  # how long the interface addresses are trusted before they are read again
_HTTP_ERRORS = {400: "error.bad_request", 404: "error.not_found", 405: "error.method", 413: "error.too_large"}


class BadRequest(Exception):
    """Invalid input: 400 (or ``status``) with a translated message naming the field."""

    def __init__(self, key: str, status: int = 400, **fields):
        super().__init__(key)
        self.key = key
        self.status = status
        self.fields = fields


def service():
    """The app's :class:`~web_remote.service.RemoteService`."""
    return current_app.extensions["azul_remote"]


def language() -> str:
    """This request's language (cached on ``g``)."""
    if "language" not in g:
        g.language = i18n.pick_language(request, service().language)
    return g.language


def error_response(status: int, key: str, **fields):
    """A JSON error with a message in the phone's language and the key for scripts and tests."""
    return jsonify(error=key, message=i18n.translate(language(), key, **fields)), status


# -- where a request comes from ---------------------------------------------------


_addresses = {"read": float("-inf"), "known": frozenset()}


def interface_addresses() -> frozenset:
    """This machine's own addresses (read again every ADDRESSES_KEPT_S: DHCP may change them)."""
    now = time.monotonic()
    if now - _addresses["read"] > ADDRESSES_KEPT_S:
        _addresses["known"] = frozenset(network.interface_addresses())
        _addresses["read"] = now
    return _addresses["known"]


def _ip(text):
    """``text`` as an address (an IPv4 address mapped into IPv6 as the IPv4 one), or None."""
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    return address.ipv4_mapped or address if address.version == 6 else address


def from_this_machine() -> bool:
    """Whether this request comes from the table's own computer, whichever of its addresses it was sent to.

    Loopback peers are; so is a peer whose address is the connection's own
    local address (a connection from this machine to its LAN address has the
    same address at both ends) or any of this machine's interface addresses.
    """
    peer = _ip(client_address())
    if peer is None:
        return False
    if peer.is_loopback:
        return True
    server = request.environ.get("asgi.scope", {}).get("server")
    if server and peer == _ip(server[0]):
        return True
    return str(peer) in interface_addresses()


def table_answers_to(hostname: str) -> bool:
    """Whether ``hostname`` (of a Host header) names this table: localhost, its addresses or its names."""
    name = hostname.rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return name in {known.rstrip(".").lower() for known in current_app.config.get("TABLE_HOST_NAMES", ())}
    return address.is_loopback or str(address) in interface_addresses()


def check_host():
    """Refuse a request sent to a name that is not the table's (DNS rebinding), before every request."""
    try:
        hostname = urlsplit(f"//{request.host}").hostname
    except ValueError:
        hostname = None
    if not hostname or not table_answers_to(hostname):
        return error_response(421, "error.bad_host")
    return None


def _same_origin(url: str) -> bool:
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and parts.netloc == request.host


def check_origin():
    """Refuse a state-changing request that a page of another site sent (before every request).

    Browsers send ``Origin`` with every POST from a script; a missing one is
    judged by ``Sec-Fetch-Site`` (only "same-origin", or "none" for a typed
    address, pass), then by the ``Referer``. A request with none of the three
    comes from a tool, not from a page, so it carries no ambient credential.
    """
    if request.method in SAFE_METHODS:
        return None
    origin = request.headers.get("Origin")
    if origin is not None:
        allowed = _same_origin(origin)
    elif (site := request.headers.get("Sec-Fetch-Site")) is not None:
        allowed = site in ("same-origin", "none")
    else:
        referer = request.headers.get("Referer")
        allowed = referer is None or _same_origin(referer)
    return None if allowed else error_response(403, "error.bad_origin")


# -- what a request carries -------------------------------------------------------


def accepts_body(max_bytes: int):
    """A view decorator: this route takes bodies up to ``max_bytes`` instead of MAX_BODY_BYTES.

    The server reads no more than the route's limit (see :func:`body_limit`);
    Flask refuses a longer declared body with 413 before reading it.
    """

    def decorator(view):
        view.max_body_bytes = max_bytes
        return view

    return decorator


def renders(view):
    """A view decorator: this route draws, replays or reads past games, work that grows with what it shows.

    The table's server runs such routes on a small pool of threads of their
    own (see :func:`renders_route`), so however many are asked for at once,
    the threads that carry moves and the event streams stay free.
    """
    view.renders = True
    return view


def _view_for(app, method: str, path: str):
    """The view function the route ``method path`` would reach, None for unknown routes."""
    try:
        endpoint, _ = app.url_map.bind("table").match(path, method=method)
    except HTTPException:
        return None
    return app.view_functions.get(endpoint)


def body_limit(app, method: str, path: str) -> int:
    """The body limit of the route ``method path`` would reach (MAX_BODY_BYTES for unknown routes)."""
    return getattr(_view_for(app, method, path), "max_body_bytes", MAX_BODY_BYTES)


def renders_route(app, method: str, path: str) -> bool:
    """Whether the route ``method path`` would reach is marked :func:`renders`."""
    return getattr(_view_for(app, method, path), "renders", False)


def limit_body():
    """Give this request its route's body limit (before every request, before anything reads the body)."""
    view = current_app.view_functions.get(request.endpoint)
    request.max_content_length = getattr(view, "max_body_bytes", MAX_BODY_BYTES)


def json_body() -> dict:
    """The request's JSON object (parsed once). :raise BadRequest: no JSON object was sent, or too deep."""
    if "json_body" not in g:
        if not request.is_json:
            raise BadRequest("error.json_required")
        try:
            body = jsonlimits.loads(request.get_data(cache=True))
        except jsonlimits.JSONRefused:
            raise BadRequest("error.bad_json", n=jsonlimits.MAX_DEPTH) from None
        if not isinstance(body, dict):
            raise BadRequest("error.json_required")
        g.json_body = body
    return g.json_body


def field(body: dict, name: str, kind, *, choices=None, required=True, default=None, bounds=(0, MAX_NUMBER)):
    """``body[name]`` checked against ``kind``, ``choices`` and, for numbers, ``bounds`` (inclusive; None: the
    caller checks the range with a message of its own).

    :raise BadRequest: missing or invalid.
    """
    if name not in body:
        if required:
            raise BadRequest("error.missing_field", field=name)
        return default
    value = body[name]
    if kind is int and isinstance(value, bool) or not isinstance(value, kind):
        raise BadRequest("error.invalid_field", field=name)
    if bounds is not None and isinstance(value, (int, float)) and not isinstance(value, bool) \
            and not bounds[0] <= value <= bounds[1]:
        raise BadRequest("error.invalid_field", field=name)
    if choices is not None and value not in choices:
        raise BadRequest("error.invalid_field", field=name)
    return value


def _token_required(header: str, missing: str, invalid: str, resolve, name: str):
    """A view decorator: the token in ``header`` must resolve to a value, kept as ``g.<name>``.

    The token is kept as ``g.token`` and its digest as ``g.credential``: the
    commands carry the digest, so the session checks it again against the game
    it acts in. :raise AccessDenied: 401 (``missing``) without the header, 403
    (``invalid``) for an unknown token.
    """

    def decorator(view):
        @functools.wraps(view)
        def wrapped(*args, **kwargs):
            token = request.headers.get(header)
            if not token:
                raise AccessDenied(401, missing)
            value = resolve(token)
            if value is None:
                raise AccessDenied(403, invalid)
            setattr(g, name, value)
            g.token, g.credential = token, digest(token)
            return view(*args, **kwargs)

        return wrapped

    return decorator


seat_required = _token_required(SEAT_HEADER, "error.no_token", "error.bad_token",
                                lambda token: service().seat_of(token), "seat")
"""Run the view with ``g.seat`` set from the seat token."""

host_required = _token_required(HOST_HEADER, "error.not_host", "error.bad_host_token",
                                lambda token: True if service().is_host(token) else None, "host")
"""Run the view only for the holder of a host token."""


# -- event streams -----------------------------------------------------------------

ASYNC_STREAMS = "azul_table.async_streams"
"""WSGI environ key: set by the table's server (``web_remote.server``), which drives streams on its loop;
a stream view leaves its :class:`EventStream` there instead of a body."""
MAX_STREAMS = 400  # open event streams in all: far more than a table's phones and watchers
MAX_STREAMS_PER_ADDRESS = 16  # a phone keeps one or two; a PC's tabs a few more


class StreamSlots:
    """Counts open event streams, in total and per client address, and refuses one beyond the caps."""

    def __init__(self, total: int = MAX_STREAMS, per_address: int = MAX_STREAMS_PER_ADDRESS):
        self.total = total
        self.per_address = per_address
        self._lock = threading.Lock()
        self._open = collections.Counter()

    def take(self, address: str):
        """Hold a slot for ``address``: returns the function that gives it back (safe to call twice).

        :raise AccessDenied: 503 when either cap is reached (the page then polls the state instead).
        """
        with self._lock:
            if sum(self._open.values()) >= self.total or self._open[address] >= self.per_address:
                raise AccessDenied(503, "error.busy")
            self._open[address] += 1
        released = threading.Event()

        def release():
            with self._lock:
                if not released.is_set():
                    released.set()
                    self._open[address] -= 1
                    if not self._open[address]:
                        del self._open[address]

        return release

    def count(self) -> int:
        with self._lock:
            return sum(self._open.values())


class EventStream:
    """An open server-sent event stream: the async generator of its event texts and the slot it holds."""

    def __init__(self, events, release):
        self.events = events
        self._release = release

    async def close(self):
        """End the generator (its ``finally`` runs) and give the slot back."""
        try:
            await self.events.aclose()
        finally:
            self._release()

    def blocking(self):
        """The stream as a plain generator of bytes for any WSGI server (Flask's test client).

        The async generator runs on a loop of its own on a thread of its own,
        so it works whatever loop the calling thread may already run.
        """
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name="stream", daemon=True)
        thread.start()
        try:
            while (text := asyncio.run_coroutine_threadsafe(_next_event(self.events), loop).result()) is not None:
                yield text.encode()
        finally:
            asyncio.run_coroutine_threadsafe(self.close(), loop).result()
            loop.call_soon_threadsafe(loop.stop)
            thread.join()
            loop.close()


async def _next_event(events):
    """The next text of ``events``, None at its end."""
    try:
        return await anext(events)
    except StopAsyncIteration:
        return None


STREAM_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def event_stream(events) -> Response:
    """A server-sent event response over the async generator ``events`` of event texts.

    Under the table's server the generator runs on the server's event loop
    and holds no thread while it waits; elsewhere it runs on the request's
    thread. Each stream takes a slot of the app's :class:`StreamSlots`.
    :raise AccessDenied: 503 when the caps are reached.
    """
    stream = EventStream(events, current_app.extensions["azul_streams"].take(client_address()))
    if ASYNC_STREAMS in request.environ:
        request.environ[ASYNC_STREAMS] = stream
        return Response(b"", mimetype="text/event-stream", headers=STREAM_HEADERS)
    return Response(stream.blocking(), mimetype="text/event-stream", headers=STREAM_HEADERS)


def client_address() -> str:
    return request.remote_addr or "unknown"


def wants_page() -> bool:
    """Whether the request is a browser's for a page (it prefers HTML to JSON): outside the API it is answered
    with a page, where JSON would show as code."""
    return not request.path.startswith("/api/") and \
        request.accept_mimetypes.best_match(("application/json", "text/html")) == "text/html"


def http_error(error: HTTPException):
    """Flask's own refusals (no such route, wrong method, body too large) as JSON with a message, or as a page
    in the phone's language for a browser asking for one (``/players/abc``)."""
    status, key = error.code or 400, _HTTP_ERRORS.get(error.code, "error.bad_request")
    if wants_page():
        from web_remote.pages import page  # the pages import this module

        return page("history/refused.html", message=i18n.translate(language(), key)), status
    return error_response(status, key)


NOT_HELD = {"error.bad_token": "seat_not_held", "error.bad_host_token": "host_not_held"}
"""Refused tokens, by message key, and the ``code`` that tells a script what it lost."""


def access_denied(error: AccessDenied):
    """A refused credential, on any route; a token that no longer holds its seat (the host freed it, a new game
    began) or the host role says so in ``code``, so the phone can go back to joining."""
    code = NOT_HELD.get(error.key)
    if error.key == "error.host_or_seat_changed":
        code = "seat_not_held" if "seat" in g else "host_not_held"
    body = {"error": error.key, "message": i18n.translate(language(), error.key, **error.fields)}
    if code is not None:
        body["code"] = code
    return jsonify(body), error.status


def unexpected_error(error: Exception):
    """A bug: logged with its traceback; the phone gets a message, never the traceback."""
    log.exception("unexpected error answering %s %s", request.method, request.path)
    return error_response(500, "error.internal")


def init_app(app):
    """Wire the host, origin and body checks, the error handlers and the security headers into ``app``."""
    app.config.setdefault("MAX_CONTENT_LENGTH", MAX_BODY_BYTES)
    app.extensions["azul_streams"] = StreamSlots()
    app.config.setdefault("TABLE_HOST_NAMES", ())
    app.before_request(check_host)
    app.before_request(check_origin)
    app.before_request(limit_body)
    app.register_error_handler(AccessDenied, access_denied)
    app.register_error_handler(BadRequest, lambda e: error_response(e.status, e.key, **e.fields))
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(Exception, unexpected_error)

    @app.after_request
    def security_headers(response):
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'",
        )
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        return response
