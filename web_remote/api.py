"""The JSON API the page scripts call: state and its event stream, joining, moves, undo, host actions.

Reads are public (observers watch without a seat). Every action names no
seat: the seat comes from the ``X-Seat-Token`` header, so a phone can act only
for its own seat. The session decides legality; a refused command changes
nothing and comes back as 409 with the reason in the phone's language.
"""
import dataclasses
from pathlib import Path

from flask import Blueprint, Response, current_app, g, jsonify

from core_ext import envelope
from firmware_py import games, records
from firmware_py.controls import HostMenu
from firmware_py.profiles import ProfileError, clean_name
from firmware_py.session import (
    AI_LEVELS, MAX_NAME, SEAT_KINDS, AnswerUndo, ChangeSettings, CommandRejected, Play, Rematch, RequestHint, RequestUndo,
    Seat, Setup, StepBack,
)
from web_remote import guards, history, i18n, payload, players
from web_remote.guards import BadRequest, field, json_body, language, service

bp = Blueprint("api", __name__, url_prefix="/api")

HEARTBEAT_S = 15.0


def payload_cache():
    return current_app.extensions["azul_payloads"]


def _command(command):
    """Send ``command`` to the session and wait: the new version. :raise CommandRejected: refused."""
    return service().command(command)


@bp.errorhandler(CommandRejected)
def refused(error):
    if isinstance(error, ProfileError):
        return players.refused(error)
    return jsonify(error="error.refused", message=i18n.refusal(language(), str(error))), 409


# -- reading -------------------------------------------------------------------


OPENAPI = Path(__file__).with_name("openapi.json")


@bp.get("/openapi.json")
def openapi():
    """The OpenAPI description of this JSON API (kept in the repository as ``web_remote/openapi.json``)."""
    return Response(OPENAPI.read_bytes(), mimetype="application/json")



@bp.get("/state")
def state():
    """The public state now (the polling fallback of the event stream)."""
    return Response(payload_cache().encoded(service().current(), language()), mimetype="application/json")


@bp.get("/events")
def events():
    """Server-sent events: the state now, then again after every change; a comment line as heartbeat.

    503 beyond the stream caps (see :class:`guards.StreamSlots`): the page polls ``/state`` instead."""
    remote, cache, lang = service(), payload_cache(), language()

    async def stream():
        yield "retry: 2000\n\n"
        snapshot = remote.current()
        while snapshot is not None:
            yield f"data: {cache.encoded(snapshot, lang)}\n\n"
            seen = snapshot.version
            snapshot = await remote.next_change(seen, HEARTBEAT_S)
            while snapshot is not None and snapshot.version == seen:
                yield ": keep-alive\n\n"
                snapshot = await remote.next_change(seen, HEARTBEAT_S)

    return guards.event_stream(stream())


@bp.get("/me")
@guards.seat_required
def me():
    """Which seat this token holds (a page checks its stored token with this)."""
    return jsonify(seat=g.seat, game_id=service().game_id)


# -- joining and playing -------------------------------------------------------------


@bp.post("/join")
def join():
    """Take a free phone seat with the game's join code: ``{code, seat, player? | new_player?, learning?}`` ->
    ``{token, seat, game_id, run}``; ``player`` is a known profile's id, ``new_player`` a new profile's ``{name,
    colour?, symbol?, languages?}``, ``learning`` whether this is the player's first game (``run``: this run of
    the table, so the phone can tell a later restart from its own joining)."""
    body = json_body()
    code = field(body, "code", str)
    seat = field(body, "seat", int)
    player = field(body, "player", int, required=False)
    new_player = field(body, "new_player", dict, required=False)
    learning = field(body, "learning", bool, required=False)
    if player is not None and new_player is not None:
        raise BadRequest("players.one_or_new")
    token = service().join(code, seat, guards.client_address(), None if player is None else players.checked_id(player),
                           None if new_player is None else players.profile_fields(new_player, name_required=True),
                           learning)
    snapshot = service().current()
    return jsonify(token=token, seat=seat, game_id=snapshot.credentials.key, run=snapshot.run), 201


@bp.post("/move")
@guards.seat_required
def move():
    """Play one option of the pending decision for the token's seat: ``{option, version?}``."""
    body = json_body()
    option = field(body, "option", str)
    if not 0 < len(option) <= records.MAX_NOTATION:
        raise BadRequest("error.invalid_field", field="option")
    version = field(body, "version", int, required=False)
    return jsonify(version=_command(Play(g.seat, option, version, g.credential)))


@bp.post("/why")
@guards.seat_required
def why():
    """Why ``{option}`` cannot be played now by the token's seat: ``{legal: true}``, or ``{legal: false, code,
    fields, text}`` with the rules core's reason (docs/notation.md, "Why a move is not legal") and its
    sentence in the phone's language. Asked of the position the phones see, nothing is changed."""
    body = json_body()
    option = field(body, "option", str)
    if not 0 < len(option) <= records.MAX_NOTATION:
        raise BadRequest("error.invalid_field", field="option")
    snapshot = service().current()
    spec = games.spec(snapshot.setup.game)
    position = spec.from_json(envelope.dump(spec.name, spec.module.FORMAT_VERSION, snapshot.state))
    try:
        reason = position.why_not(option, g.seat)
    except ValueError:  # notation that does not parse
        raise BadRequest("error.invalid_field", field="option") from None
    if reason is None:
        return jsonify(legal=True)
    names = i18n.seat_names(language(), snapshot.setup.seats)
    return jsonify(legal=False, code=reason.code, fields=reason.fields,
                   text=i18n.why_text(language(), spec.name, reason, names))


@bp.post("/back")
@guards.seat_required
def step_back():
    """Take back the seat's own last decision within its turn (as BACK at the rig): nobody is asked."""
    return jsonify(version=_command(StepBack(g.seat, g.credential)))


@bp.post("/undo")
@guards.seat_required
def request_undo():
    """Ask to take back the last decision (whoever made it must agree); limited for each phone, as answers are."""
    return jsonify(version=service().undo(RequestUndo(g.seat, g.credential)))


@bp.post("/undo/answer")
@guards.seat_required
def answer_undo():
    """Allow or refuse the open undo request: ``{accept}``."""
    accept = field(json_body(), "accept", bool)
    return jsonify(version=service().undo(AnswerUndo(g.seat, accept, g.credential)))


@bp.get("/hint")
@guards.seat_required
def hint():
    """The computer's suggestion for the token's seat (only that phone sees it): ``{hint}``, null while none."""
    return jsonify(hint=payload.hint(service().current(), g.seat, language()))


@bp.post("/hint")
@guards.seat_required
def request_hint():
    """Ask the computer for the best option of the token's seat (unless the host turned hints off)."""
    return jsonify(version=_command(RequestHint(g.seat, g.credential)))


# -- the host ---------------------------------------------------------------------


@bp.post("/host/login")
def host_login():
    """``{code}`` (the host code shown at the rig on request) -> ``{host_token}`` for the setup and settings pages."""
    code = field(json_body(), "code", str)
    return jsonify(host_token=service().host_login(code, guards.client_address()))


@bp.get("/host/join-code")
@guards.host_required
def host_join_code():
    """The join code to tell the other players."""
    return jsonify(join_code=service().join_code, game_id=service().game_id)


def _seat(item, index) -> Seat:
    if not isinstance(item, dict):
        raise BadRequest("error.invalid_field", field=f"seats[{index}]")
    name = field(item, "name", str, required=False, default="")
    if len(name) > MAX_NAME * 4:
        raise BadRequest("players.long_name", n=MAX_NAME)
    kept = service().session.journal
    name = clean_name(name, empty=True, others=kept.players.names() if kept is not None else ())
    kind = field(item, "kind", str, choices=SEAT_KINDS)
    level = field(item, "level", str, choices=AI_LEVELS, required=False, default="normal")
    player = field(item, "player", int, required=False)
    learning = kind != "ai" and field(item, "learning", bool, required=False, default=False)
    if player is None or kind == "ai":
        return Seat(kind=kind, name=name, level=level, learning=learning)
    profile = players.journal().players.get(players.checked_id(player, f"seats[{index}].player"))
    if profile.is_computer:
        raise BadRequest("players.person_needed")
    return Seat(kind=kind, name=profile.name, level=level, player=profile.id, learning=learning)


def _flags(spec, given) -> tuple:
    """The rules flags of the setup form, checked against the game's allowed values."""
    if not isinstance(given, dict):
        raise BadRequest("error.invalid_field", field="flags")
    flags = []
    for name, value in given.items():
        if name not in spec.flags:
            raise BadRequest("error.invalid_field", field=name)
        if name == "objectives":
            if value == "random":
                continue
            if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
                raise BadRequest("error.invalid_field", field=name)
            value = tuple(sorted(value, key=_objective_order))
        if value not in spec.flags[name]:
            raise BadRequest("error.invalid_field", field=name)
        flags.append((name, value))
    return tuple(flags)


def _objective_order(objective):
    """Objectives sort by tablet; the allowed combinations are listed in that order."""
    from core_ext.duel import OBJECTIVES

    return OBJECTIVES.index(objective) if objective in OBJECTIVES else len(OBJECTIVES)


@bp.get("/host/setup")
@guards.host_required
def host_last_setup():
    """The setup the setup page starts from: the one the host chose last (kept in the journal, so it
    outlives restarts), else the game on the table's."""
    session = service().session
    setup = (session.journal.last_setup() if session.journal is not None else None) or session.snapshot.setup
    return jsonify(
        game=setup.game,
        seats=[{"name": seat.name, "kind": seat.kind, "level": seat.level,
                **({"player": seat.player} if seat.player is not None and seat.kind != "ai" else {}),
                **({"learning": True} if seat.learning else {})}
               for seat in setup.seats],
        flags={name: list(value) if isinstance(value, tuple) else value for name, value in setup.flags},
    )


@bp.post("/host/setup")
@guards.host_required
def host_setup():
    """Start a new game from the setup wizard; answers its join code and the host's token for it."""
    body = json_body()
    game = field(body, "game", str, choices=tuple(games.GAMES))
    spec = games.spec(game)
    items = field(body, "seats", list)
    if not spec.min_players <= len(items) <= spec.max_players:
        raise BadRequest("error.seat_count", min=spec.min_players, max=spec.max_players)
    seats = tuple(_seat(item, index) for index, item in enumerate(items))
    chosen = [seat.player for seat in seats if seat.player is not None]
    if len(chosen) != len(set(chosen)):
        raise BadRequest("players.seated_twice_setup")
    flags = _flags(spec, field(body, "flags", dict, required=False, default={}))
    settings = _settings_change(body)
    lang = field(body, "language", str, choices=tuple(i18n.LANGUAGES), required=False, default=service().language)
    setup = Setup(game=game, seats=seats, flags=flags)
    _command(dataclasses.replace(settings, credential=g.credential))
    token = service().new_game(setup, lang, g.token)
    return jsonify(host_token=token, join_code=service().join_code, game_id=service().game_id), 201


@bp.post("/host/rematch")
@guards.host_required
def host_rematch():
    """At game over, the same players in the same seats again on a new deal: phones keep their seats."""
    version = _command(Rematch(g.credential))
    return jsonify(version=version, join_code=service().join_code, game_id=service().game_id), 201


@bp.post("/host/settings")
@guards.host_required
def host_settings():
    """Change the brightness cap, the palette or whether hints are allowed: ``{brightness?, palette?, hints?}``."""
    return jsonify(version=_command(dataclasses.replace(_settings_change(json_body()), credential=g.credential)))


def _settings_change(body) -> ChangeSettings:
    """The brightness cap (5-100 %), palette and hints switch of a form, as a session command."""
    brightness = field(body, "brightness", (int, float), required=False, bounds=None)
    palette = field(body, "palette", str, choices=HostMenu.PALETTES, required=False)
    hints = field(body, "hints", bool, required=False)
    if brightness is not None and (isinstance(brightness, bool) or not 0.05 <= brightness <= 1.0):
        raise BadRequest("error.brightness")
    return ChangeSettings(brightness=None if brightness is None else float(brightness), palette=palette, hints=hints)


@bp.post("/host/release")
@guards.host_required
def host_release():
    """Free a phone seat: ``{seat}``; its old token stops working."""
    seat = field(json_body(), "seat", int)
    if not 0 <= seat < len(service().session.snapshot.setup.seats):
        raise BadRequest("error.invalid_field", field="seat")
    service().release(seat, g.token)
    return jsonify(released=seat)
