"""The phone remote: a Flask app factory for setup, joining, live scores and move entry.

``create_app(service)`` takes the running table's
:class:`~web_remote.service.RemoteService` (tests pass one over a session of
their own). Serve it with waitress in the table's process, with a worker
thread for every open event stream: see :func:`serve`.
"""
import secrets

from flask import Flask
from flask_babel import Babel

from web_remote.payload import PayloadCache
from web_remote.service import RemoteService

STREAMS_PER_PHONE = 2  # the live view and, on a PC, the simulator page
SERVER_THREADS = 8 * STREAMS_PER_PHONE + 8  # eight phones' streams, and room for their requests


def create_app(service: RemoteService, test_config=None) -> Flask:
    """Build the app around ``service``; ``test_config`` replaces the instance config in tests."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(SECRET_KEY=secrets.token_hex(16), JSON_SORT_KEYS=False)
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    app.extensions["azul_remote"] = service
    app.extensions["azul_payloads"] = PayloadCache()

    from web_remote import api, guards, history, pages, simulator

    guards.init_app(app)
    Babel(app, locale_selector=guards.language)  # templates' gettext calls follow the phone's language
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(simulator.bp)
    app.register_blueprint(history.bp)
    return app


def serve(app: Flask, host: str = "0.0.0.0", port: int = 8080, threads: int = SERVER_THREADS):
    """A waitress server for ``app`` (not yet running): call ``.run()``, and ``.close()`` to stop.

    Each open event stream holds one worker thread, so ``threads`` must exceed
    the streams the phones keep open; ``port`` 0 picks a free port
    (``server.effective_port``).
    """
    from waitress.server import create_server

    return create_server(app, host=host, port=port, threads=threads, channel_timeout=120, ident="azul-table")
