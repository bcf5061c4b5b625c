"""Cross-cutting rules of the API: who is asking, from where, with what body.

Credentials travel in headers (``X-Seat-Token``, ``X-Host-Token``), never in
cookies, so a page from another site cannot borrow them; the custom header and
the JSON body also force a CORS preflight that this app never approves. A
request that still arrives with a foreign ``Origin`` is refused outright.
"""
import functools
from urllib.parse import urlsplit

from flask import Response, current_app, g, jsonify, request

from firmware_py.credentials import digest
from web_remote import i18n
from web_remote.service import AccessDenied

SEAT_HEADER = "X-Seat-Token"
HOST_HEADER = "X-Host-Token"


class BadRequest(Exception):
    """Invalid input: 400 with a translated message naming the field."""

    def __init__(self, key: str, **fields):
        super().__init__(key)
        self.key = key
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


def check_origin():
    """Refuse state-changing requests whose Origin is not this server (before every request)."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return None
    origin = request.headers.get("Origin")
    if origin is None:
        return None  # not a browser page: tools and tests, which carry no ambient credentials
    if urlsplit(origin).netloc != request.host:
        return error_response(403, "error.bad_origin")
    return None


def json_body() -> dict:
    """The request's JSON object. :raise BadRequest: no JSON object was sent."""
    body = request.get_json(silent=True) if request.is_json else None
    if not isinstance(body, dict):
        raise BadRequest("error.json_required")
    return body


def field(body: dict, name: str, kind, *, choices=None, required=True, default=None):
    """``body[name]`` checked against ``kind`` (and ``choices``). :raise BadRequest: missing or invalid."""
    if name not in body:
        if required:
            raise BadRequest("error.missing_field", field=name)
        return default
    value = body[name]
    if kind is int and isinstance(value, bool) or not isinstance(value, kind):
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


def event_stream(events) -> Response:
    """A server-sent event response over the generator ``events`` (no caching, no proxy buffering)."""
    return Response(events, mimetype="text/event-stream", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def client_address() -> str:
    return request.remote_addr or "unknown"


def init_app(app):
    """Wire the origin check, the error handlers and the security headers into ``app``."""
    app.before_request(check_origin)
    app.register_error_handler(AccessDenied, lambda e: error_response(e.status, e.key, **e.fields))
    app.register_error_handler(BadRequest, lambda e: error_response(400, e.key, **e.fields))

    @app.after_request
    def security_headers(response):
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'",
        )
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        return response
