"""The phone remote: a Flask app factory for setup, joining, live scores and move entry.

``create_app(service)`` takes the running table's
:class:`~web_remote.service.RemoteService` (tests pass one over a session of
their own). :mod:`web_remote.server` serves it in the table's process, with
the event streams on an asyncio loop so that they hold no thread.

Flask and the pages load when an app is built, not with the package: the table
without its remote (``--no-web``, ``--console``) and the doctor start without them.
"""
from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask

    from web_remote.service import RemoteService


def create_app(service: RemoteService, test_config=None) -> Flask:
    """Build the app around ``service``; ``test_config`` replaces the instance config in tests.

    Config keys of the table: ``TABLE_HOST_NAMES`` (names besides its addresses
    and localhost that it answers to), ``SIMULATOR_NETWORK`` (let other
    computers use the simulator page).
    """
    from flask import Flask
    from flask_babel import Babel

    from web_remote.payload import PayloadCache

    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(SECRET_KEY=secrets.token_hex(16), JSON_SORT_KEYS=False)
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    app.extensions["azul_remote"] = service
    app.extensions["azul_payloads"] = PayloadCache()

    from web_remote import api, guards, help, history, pages, player_pages, players, review, rules, simulator

    guards.init_app(app)
    Babel(app, locale_selector=guards.language)  # templates' gettext calls follow the phone's language
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(players.bp)
    if service.hardware is not None:
        app.register_blueprint(simulator.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(player_pages.bp)
    app.register_blueprint(review.bp)
    app.register_blueprint(help.bp)
    app.register_blueprint(rules.bp)
    return app
