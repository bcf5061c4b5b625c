"""Generated requests against every JSON endpoint: no answer is a 5xx, and a refused request changes nothing.

Two generators: our own hypothesis strategy (any method, path, headers and
body, valid credentials mixed with wrong ones) and schemathesis over the
OpenAPI description that the remote serves (``web_remote/openapi.json``),
which also checks that every answer matches the description. Both are
bounded in examples so that the suite stays quick.
"""
import dataclasses
import json
import re
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import checks

from firmware_py.journal import Journal
from firmware_py.session import Seat, Session, Setup
from web_remote import create_app
from web_remote.service import AccessDenied, RemoteService
from tests.web.conftest import host_code

PHONES = Setup(game="duel", seats=(Seat(kind="phone", name="Ada"), Seat(kind="phone", name="Bo")), seed=7)
STREAMS = ("/api/events", "/simulator/frames")  # endless answers: tested on their own
JSON_PATHS = ["/api/state", "/api/me", "/api/join", "/api/move", "/api/undo", "/api/undo/answer", "/api/hint",
              "/api/host/login", "/api/host/join-code", "/api/host/setup", "/api/host/settings", "/api/host/release",
              "/history/1.json", "/history/import", "/history/1/leds", "/history/live", "/simulator/press",
              "/simulator/layout", "/api/openapi.json", "/review/current", "/review/1", "/api/players", "/api/players/1",
              "/api/ratings/duel", "/api/games/1/ratings", "/api/host/players", "/api/host/players/1",
              "/api/host/players/merge", "/api/host/players/unlinked", "/api/host/players/attach",
              "/api/host/games/1/rated", "/players.json", "/players/1.json", "/history/games.json",
              "/history/games.json?player=1&game=duel", "/history/games.json?game=chess"]


@pytest.fixture
def table(tmp_path):
    """A phone Duel with a journal behind the app; (app, session, service), shared by one test's examples."""
    journal = Journal(tmp_path)
    session = Session(PHONES, journal=journal).start()
    service = RemoteService(session)
    yield create_app(service, {"TESTING": True}), session, service
    service.close()
    session.stop()
    journal.close()


def observed(session, service):
    """What a refused request must leave as it was: the game, its setup and settings, its seats and hosts
    (not the join code: wrong ones piling up draw a new one, see docs/remote.md)."""
    snapshot = session.snapshot
    return (snapshot.setup, snapshot.state, snapshot.history, snapshot.settings,
            dataclasses.replace(snapshot.credentials, join_code=None))


def json_values():
    scalars = st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.floats(allow_nan=False) | st.text(max_size=30)
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                          max_size=4), max_leaves=12)


FIELDS = st.sampled_from(["code", "seat", "option", "version", "accept", "game", "seats", "flags", "brightness",
                          "palette", "hints", "language", "record", "button", "hold", "kind", "name", "player",
                          "new_player", "keep", "merge", "counts", "colour", "symbol", "languages"])
BODIES = st.one_of(
    st.dictionaries(FIELDS, json_values(), max_size=5).map(json.dumps),
    json_values().map(json.dumps),
    st.integers(1, 5000).map(lambda depth: "[" * depth + "]" * depth),
    st.binary(max_size=64),
    st.text(max_size=64),
)
PATHS = st.one_of(
    st.sampled_from(JSON_PATHS),
    st.integers(-2 ** 70, 2 ** 70).map(lambda n: f"/history/{n}.json"),
    st.integers(0, 2 ** 70).map(lambda n: f"/history/1?ply={n}"),
    st.integers(-2 ** 70, 2 ** 70).map(lambda n: f"/history/{n}/story"),
    st.integers(-2 ** 70, 2 ** 70).map(lambda n: f"/players/{n}.json"),
    st.text(max_size=12).map(lambda text: f"/history/games.json?player={text}"),
    st.text(st.characters(codec="ascii", exclude_characters="?#"), max_size=20).map(lambda text: "/api/" + text),
)


@st.composite
def requests(draw, tokens):
    headers = {}
    if draw(st.booleans()):
        headers["Content-Type"] = draw(st.sampled_from(["application/json", "text/plain", "application/json; charset=x"]))
    if draw(st.booleans()):
        headers["X-Seat-Token"] = draw(st.sampled_from([tokens["seat"], "guess", ""]))
    if draw(st.booleans()):
        headers["X-Host-Token"] = draw(st.sampled_from([tokens["host"], "guess"]))
    if draw(st.booleans()):
        headers["Origin"] = draw(st.sampled_from(["http://localhost", "http://elsewhere.example", "null"]))
    if draw(st.booleans()):
        headers["Host"] = draw(st.sampled_from(["localhost", "127.0.0.1:8080", "rebind.example", "[::1]"]))
    return draw(st.sampled_from(["GET", "POST", "PUT", "DELETE"])), draw(PATHS), headers, draw(BODIES)


def test_no_generated_request_is_answered_with_a_5xx_and_a_refused_one_changes_nothing(table):
    app, session, service = table
    client = app.test_client()
    tokens = {"seat": service.join(service.join_code, 0, "fuzz"),
              "host": service.host_login(host_code(session), "fuzz")}

    @settings(max_examples=settings().max_examples * 12, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(requests(tokens))
    def one(request):
        method, path, headers, body = request
        before = observed(session, service)
        answer = client.open(path, method=method, headers=headers, data=body)
        assert answer.status_code < 500, (request, answer.get_data(as_text=True)[:300])
        if answer.status_code >= 400:
            assert answer.is_json and answer.json["message"], request
            assert observed(session, service) == before, request

    one()


DESCRIPTION = Path(__file__).parents[2] / "web_remote" / "openapi.json"
SCHEMA = schemathesis.openapi.from_path(DESCRIPTION).exclude(path=list(STREAMS))


def credentials(service, held):
    """A seat token and a host token, valid unless a generated setup started a new game (then one more try:
    after the generated wrong codes the guessing limit may refuse even the right one, which is fine)."""
    try:
        if service.seat_of(held.get("seat")) is None:
            seat = next((seat for seat, kind in enumerate(service.current().setup.seats)
                         if kind.kind == "phone" and seat not in service.current().credentials.taken), None)
            held["seat"] = service.join(service.join_code, seat, "schema") if seat is not None else ""
        if not service.is_host(held.get("host")):
            held["host"] = service.host_login(host_code(service.session), "schema")
    except AccessDenied:
        pass
    return {"X-Seat-Token": held.get("seat", ""), "X-Host-Token": held.get("host", "")}


@pytest.fixture
def held(table):
    tokens = {}
    credentials(table[2], tokens)
    return tokens


@SCHEMA.parametrize()
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck), database=None)
def test_every_answer_matches_the_openapi_description(case, table, held):
    app, session, service = table
    headers = credentials(service, held)
    if case.headers:
        headers = {**headers, **{name: value for name, value in case.headers.items() if name.startswith("X-")}}
    case.call_and_validate(app=app, headers=headers, checks=[checks.not_a_server_error, checks.status_code_conformance,
                                                    checks.content_type_conformance, checks.response_schema_conformance])


def test_the_served_description_is_the_one_in_the_repository_and_names_every_json_route(table):
    app = table[0]
    served = app.test_client().get("/api/openapi.json").json
    kept = json.loads(DESCRIPTION.read_text())
    assert served == kept
    described = {re.sub(r"\{(\w+_id)\}", r"<int:\1>", path).replace("{game}", "<game>") for path in kept["paths"]}
    routes = {rule.rule for rule in app.url_map.iter_rules()
              if rule.rule.startswith(("/api/", "/history/import", "/history/live", "/review/")) or rule.rule.endswith((".json", "/leds"))}
    assert routes <= described, routes - described
