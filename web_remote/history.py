"""Past games: the list with dates, players and scores, record export and import, move-by-move replays.

The games come from the session's journal (``service().session.journal``).
A replay is drawn on the phone as a picture of the LED table at that move,
made by the same display code as the rig's frames; when the table's display
is attached (:func:`attach_display`), the host can also put the replayed
position on the real LEDs until the live game is shown again.
"""
import dataclasses
import itertools

from flask import Blueprint, Response, abort, current_app, redirect, render_template, request, url_for

import hardware
from firmware_py.display import TableDisplay
from firmware_py.records import Record, RecordError, position_snapshot
from firmware_py.records import replay as replay_positions
from web_remote.guards import service

bp = Blueprint("history", __name__, url_prefix="/history")

MAX_RECORD_BYTES = 2_000_000
_replay_versions = itertools.count(-1, -1)  # negative: never mistaken for a live snapshot's version


def attach_display(app, display: TableDisplay):
    """Let the replay page show positions on the table's LEDs (``display`` is the running table's)."""
    app.extensions["azul_display"] = display


def journal():
    """The table's journal. :raise 404: when the table keeps no journal."""
    kept = service().session.journal
    if kept is None:
        abort(404, "this table keeps no journal of its games")
    return kept


def record_of(game_id: int) -> Record:
    """Game ``game_id`` as a record. :raise 404: if there is no such game."""
    try:
        return journal().export(game_id)
    except KeyError:
        abort(404, f"there is no game {game_id}")


def replay_ply(record: Record) -> int:
    """The ``ply`` query argument (0 = before the first move, default: the last move). :raise 400: out of range."""
    ply = request.args.get("ply", default=len(record.moves), type=int)
    if not 0 <= ply <= len(record.moves):
        abort(400, f"this game has moves 0-{len(record.moves)}, not {ply}")
    return ply


def replayed(record: Record, ply: int):
    """The snapshot after move ``ply``, in the live table's brightness and palette."""
    settings = dict(service().session.snapshot.settings)
    snapshot = position_snapshot(record, ply, brightness=settings["brightness"], palette=settings["palette"])
    return dataclasses.replace(snapshot, version=next(_replay_versions))


@bp.get("/")
def index():
    """Every game the journal holds, newest first, and the record import form."""
    return render_template("history/index.html", games=journal().games(), message=request.args.get("message"),
                           leds=current_app.extensions.get("azul_display") is not None)


@bp.get("/<int:game_id>.json")
def export(game_id):
    """Download the game's record file."""
    response = Response(record_of(game_id).to_json(), mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="azul-game-{game_id}.json"'
    return response


@bp.post("/import")
def import_record():
    """Store an uploaded record file as a past game (it is replayed and checked first)."""
    upload = request.files.get("record")
    if upload is None or not upload.filename:
        return render_template("history/index.html", games=journal().games(), error="choose a record file to import",
                               leds=False), 400
    data = upload.read(MAX_RECORD_BYTES + 1)
    try:
        if len(data) > MAX_RECORD_BYTES:
            raise RecordError(f"the file is larger than {MAX_RECORD_BYTES // 1_000_000} MB; it is not a game record")
        game_id = journal().import_record(Record.from_json(data))
    except RecordError as error:
        return render_template("history/index.html", games=journal().games(), error=str(error), leds=False), 400
    return redirect(url_for("history.replay", game_id=game_id, ply=0))


@bp.get("/<int:game_id>")
def replay(game_id):
    """The game at one move: picture of the table, scores, the move list with the current move marked."""
    record = record_of(game_id)
    ply = replay_ply(record)
    snapshot = replayed(record, ply)
    names = [record.setup.name_of(seat) for seat in range(len(record.setup.seats))]
    movers = [position.current_player for position in replay_positions(record)[:-1]]
    return render_template("history/replay.html", game_id=game_id, record=record, ply=ply, snapshot=snapshot,
                           names=names, movers=movers, title=next(g.title for g in journal().games() if g.id == game_id),
                           leds=current_app.extensions.get("azul_display") is not None)


@bp.get("/<int:game_id>/table.png")
def picture(game_id):
    """The LED table as it looked after move ``ply``, as a PNG."""
    record = record_of(game_id)
    snapshot = replayed(record, replay_ply(record))
    rig = getattr(service().hardware, "rig", None) or hardware.load_rig()
    layout = hardware.Layout(rig)
    memory = hardware.MemorySink(layout, keep=1)
    TableDisplay(hardware.FrameBuffer(layout, memory)).draw(snapshot)
    return Response(hardware.render_png(layout, memory.panels().display, led_pixels=8), mimetype="image/png")


@bp.post("/<int:game_id>/leds")
def show_on_leds(game_id):
    """Put the replayed position on the table's LEDs (the live game comes back with its next change)."""
    display = current_app.extensions.get("azul_display")
    if display is None:
        abort(404, "the LEDs of this table are not attached to the web remote")
    record = record_of(game_id)
    ply = replay_ply(record)
    display.update(replayed(record, ply))
    return redirect(url_for("history.replay", game_id=game_id, ply=ply))


@bp.post("/live")
def show_live():
    """Show the live game on the LEDs again."""
    display = current_app.extensions.get("azul_display")
    if display is None:
        abort(404, "the LEDs of this table are not attached to the web remote")
    display.update(service().session.snapshot)
    return redirect(url_for("history.index"))
