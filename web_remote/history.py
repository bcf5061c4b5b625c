"""Past games: the list with dates, players and scores, record export and import, move-by-move replays.

The games come from the session's journal (``service().session.journal``).
A replay is drawn on the phone as a picture of the LED table at that move,
made by the same display code as the rig's frames; when the table's display
is attached (:func:`attach_display`), the host can also put the replayed
position on the real LEDs until the live game is shown again.

Reading is open to every phone, like the live view. Importing, the LEDs and
whether a game counts for the ratings change the table, so they are host
actions: sent by ``history.js`` with the host token in a header and refused
without it, as in the API. The list is chosen by player and by game
(``?player=ID&game=duel``) with a form that needs no script, and downloads as
CSV or JSON (:mod:`web_remote.exports`) with the same choice.

A record holds the whole starting position, random generator included, so
only a finished game's record is handed out: during a game it would tell
every future draw. Replay pages show only what the table showed (the LED
picture, scores, moves), a page of moves at a time, so their size stays
bounded whatever the record.
"""
import dataclasses
import datetime
import functools
import itertools
import re

from flask import Blueprint, Response, current_app, jsonify, request, url_for
from werkzeug.exceptions import RequestEntityTooLarge

import hardware
from firmware_py import games
from firmware_py.display import TableDisplay
from firmware_py.journal import DamagedGame
from firmware_py.profiles import ProfileError
from firmware_py.records import Record, RecordError, position_snapshot
from firmware_py.records import replay as replay_positions
from firmware_py.session import MAX_NAME
from firmware_py.story import story
from web_remote import charts, exports, guards, i18n, kept, rules
from web_remote.guards import BadRequest, error_response, field, json_body, language, service
from web_remote.pages import page
from web_remote.service import AccessDenied

bp = Blueprint("history", __name__, url_prefix="/history")

MAX_RECORD_BYTES = 2_000_000  # an import request; real records are a few hundred kB at most
MOVES_PER_PAGE = 50  # moves listed on one replay page
PICTURES_KEPT = 256  # LED pictures of replayed positions kept drawn (a few kB each)
MAX_GAME_ID = 2 ** 31 - 1
_replay_versions = itertools.count(-1, -1)  # negative: never mistaken for a live snapshot's version


def attach_display(app, display: TableDisplay):
    """Let the replay page show positions on the table's LEDs (``display`` is the running table's)."""
    app.extensions["azul_display"] = display


def attached_display():
    """The table's display, or None when the web remote runs without the LEDs."""
    return current_app.extensions.get("azul_display")


@bp.errorhandler(RequestEntityTooLarge)
def too_large(error):
    """An oversized import, refused in the phone's language like every other error of the remote."""
    return error_response(413, "history.too_large", mb=MAX_RECORD_BYTES // 1_000_000)


def journal():
    """The table's journal. :raise AccessDenied: 404 when the table keeps no journal."""
    kept = service().session.journal
    if kept is None:
        raise AccessDenied(404, "history.no_journal")
    return kept


def record_of(game_id: int) -> Record:
    """Game ``game_id`` as a record. :raise AccessDenied: 404 if there is no such game, 409 if it is damaged."""
    if game_id > MAX_GAME_ID:
        raise AccessDenied(404, "history.no_game", n=game_id)
    try:
        return journal().export(game_id)
    except KeyError:
        raise AccessDenied(404, "history.no_game", n=game_id) from None
    except DamagedGame:
        raise AccessDenied(409, "history.damaged_game", n=game_id) from None


def finished(game_id: int) -> bool:
    """Whether game ``game_id`` is over (only then may its hidden parts be shown)."""
    found = journal().status(game_id)
    return found is not None and found[0] == "finished"


def replay_ply(record: Record) -> int:
    """The ``ply`` query argument (0 = before the first move, default: the last). :raise BadRequest: out of range."""
    ply = request.args.get("ply", default=len(record.moves), type=int)
    if not 0 <= ply <= len(record.moves):
        raise BadRequest("history.no_move", last=len(record.moves), ply=ply)
    return ply


def replayed(record: Record, ply: int):
    """The snapshot after move ``ply``, in the live table's brightness and palette.

    :raise BadRequest: 422 when the stored game does not replay (a damaged journal row).
    """
    settings = dict(service().session.snapshot.settings)
    snapshot = replayable(position_snapshot, record, ply, brightness=settings["brightness"],
                          palette=settings["palette"])
    return dataclasses.replace(snapshot, version=next(_replay_versions))


def replayable(build, record: Record, *args, **kwargs):
    """``build(record, ...)``, a stored game that does not replay (a damaged row) answering 422."""
    try:
        return build(record, *args, **kwargs)
    except (RecordError, ValueError, IndexError, KeyError, TypeError) as error:
        raise BadRequest("history.bad_record", status=422, reason=str(error)) from None


def seat_names(record: Record, lang: str) -> list:
    """The players' names of a record as the pages show them."""
    return i18n.seat_names(lang, record.setup.seats)


def shown_names(names, lang: str, levels=()) -> list:
    """Seats' names as the pages show them (:func:`i18n.seat_name`); ``levels`` as in a GameSummary."""
    return [i18n.seat_name(lang, index, name, levels[index] if index < len(levels) else None)
            for index, name in enumerate(names)]


def move_page(ply: int, moves: int) -> range:
    """The moves (1-based) listed on the replay page of ``ply``: the page of MOVES_PER_PAGE that holds it."""
    first = max(0, ply - 1) // MOVES_PER_PAGE * MOVES_PER_PAGE + 1
    return range(first, min(moves, first + MOVES_PER_PAGE - 1) + 1)


def refusals_as_pages(view):
    """A page view whose refusals (no such player, a bad choice in a form) answer as a page in the phone's
    language with their status: a browser shows it, where it would show the API's JSON as code."""

    @functools.wraps(view)
    def shown(*args, **kwargs):
        try:
            return view(*args, **kwargs)
        except (AccessDenied, BadRequest, ProfileError) as error:
            message = i18n.translate(language(), error.key, **error.fields)
            return page("history/refused.html", message=message), error.status

    return shown


def player_name(lang: str, profile) -> str:
    """A profile's name as the pages show it: a computer player is named by its level."""
    return i18n.seat_name(lang, 0, profile.name, profile.level if profile.is_computer else None)


def chosen_games() -> dict:
    """The list's choice from the query, each only when given: ``player`` and ``opponent`` (profile ids: the
    games they sat at together), ``game``, ``seats`` (2-4) and the days the games ended ``since`` and ``until``
    (``YYYY-MM-DD``, both included).

    :raise BadRequest: not a number, a game, a seat count or a day, or an opponent who is the player;
    :raise ProfileError: 404 for no such player.
    """
    chosen = {}
    for name in ("player", "opponent"):
        value = request.args.get(name, "")
        if value:
            if not re.fullmatch(r"[0-9]{1,10}", value) or not 0 < int(value) <= MAX_GAME_ID:
                raise BadRequest("history.bad_filter")
            chosen[name] = journal().players.get(int(value)).id
    if "opponent" in chosen and chosen["opponent"] == chosen.get("player"):
        raise BadRequest("history.bad_filter")
    game, seats = request.args.get("game", ""), request.args.get("seats", "")
    if game:
        if game not in games.GAMES:
            raise BadRequest("history.bad_filter")
        chosen["game"] = game
    if seats:
        if seats not in SEAT_COUNTS:
            raise BadRequest("history.bad_filter")
        chosen["seats"] = int(seats)
    for name in ("since", "until"):
        value = request.args.get(name, "")
        if value:
            try:
                chosen[name] = datetime.date.fromisoformat(value).isoformat() if re.fullmatch(
                    r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value) else None
            except ValueError:
                chosen[name] = None
            if chosen[name] is None:
                raise BadRequest("history.bad_filter")
    return chosen


SEAT_COUNTS = ("2", "3", "4")  # the seat counts the list can be chosen by


def ended(summary) -> str:
    """When a game ended (a running or stopped one: when it started), as a UTC ISO time that sorts: an imported
    game by its record's own times, whatever their offset."""
    for text in (summary.finished, summary.started):
        try:
            moment = datetime.datetime.fromisoformat(text)
        except (TypeError, ValueError):
            continue
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=datetime.timezone.utc)
        return moment.astimezone(datetime.timezone.utc).isoformat(timespec="seconds")
    return ""


def chosen_summaries(chosen: dict) -> list:
    """The journal's games of the choice (:func:`chosen_games`), the last to end first."""
    return sorted((summary for summary in journal().games()
                   if all(chosen[name] in summary.profiles for name in ("player", "opponent") if name in chosen)
                   and ("game" not in chosen or summary.game == chosen["game"])
                   and ("seats" not in chosen or len(summary.players) == chosen["seats"])
                   and ("since" not in chosen or ended(summary)[:10] >= chosen["since"])
                   and ("until" not in chosen or ended(summary)[:10] <= chosen["until"])),
                  key=lambda summary: (ended(summary), summary.id), reverse=True)


@bp.get("/")
@guards.renders
@kept.until_results_change
@refusals_as_pages
def index():
    """The journal's games, newest first (of one player, of one game), and the record import form."""
    chosen = chosen_games()
    kept, lang = journal(), language()
    everyone = sorted(kept.players.all(), key=lambda profile: (profile.is_computer, profile.name.casefold(),
                                                               profile.level or ""))
    listed = [(summary, shown_names(summary.players, lang, summary.levels), ended(summary))
              for summary in chosen_summaries(chosen)]
    return page("history/index.html", games=listed, leds=attached_display() is not None,
                chosen=chosen, people=[(profile.id, player_name(lang, profile)) for profile in everyone],
                game_names=list(games.GAMES), seat_counts=[int(count) for count in SEAT_COUNTS],
                counts=kept.ratings.choices(), max_rows=i18n.format_number(lang, exports.MAX_GAMES))


def exported_games(chosen: dict, lang: str) -> tuple:
    """(the chosen games as the export writes them, newest first, how many were left out beyond its bound)."""
    shown, left_out = exports.bounded(chosen_summaries(chosen))
    outcomes = journal().ratings.outcomes()
    rows = []
    for summary in shown:
        names = shown_names(summary.players, i18n.SOURCE_LANGUAGE, summary.levels)
        counts, ended, scores, winners = outcomes.get(summary.id, (False, None, None, None))
        rows.append({"id": summary.id, "game": summary.game, "started": summary.started,
                     "finished": summary.finished, "ended": ended, "status": summary.status, "origin": summary.origin,
                     "counts": counts, "decisions": summary.decisions, "undone": summary.undone,
                     "damaged": summary.damaged is not None,
                     "seats": [{"name": name, "player": summary.profiles[seat],
                                "score": scores[seat] if scores and seat < len(scores) else None,
                                "won": seat in (winners or ())} for seat, name in enumerate(names)]})
    return rows, left_out


def export_name(chosen: dict) -> str:
    """The file name of the list as chosen: ``azul-games``, ``azul-games-duel-player-3``."""
    return "-".join(["azul-games", *([chosen["game"]] if "game" in chosen else []),
                     *([f"player-{chosen['player']}"] if "player" in chosen else [])])


@bp.get("/games.json")
@guards.renders
@kept.until_results_change
def games_json():
    """The list as JSON: ``{games, left_out, limit}``, the games as summaries (never a record)."""
    chosen = chosen_games()
    rows, left_out = exported_games(chosen, language())
    return exports.json_file(export_name(chosen), {"games": rows, "limit": exports.MAX_GAMES, "left_out": left_out})


@bp.get("/games.csv")
@guards.renders
@kept.until_results_change
def games_csv():
    """The list as CSV: one game a line, each seat's name, player id, score and win in columns of its own."""
    chosen = chosen_games()
    rows, _ = exported_games(chosen, language())
    seats = max((len(row["seats"]) for row in rows), default=2)
    fields = ("id", "game", "started", "finished", "ended", "status", "origin", "counts", "decisions", "undone",
              "damaged")
    parts = ("name", "player", "score", "won")
    header = [*fields, *(f"{part}_{seat}" for seat in range(1, seats + 1) for part in parts)]
    lines = []
    for row in rows:
        line = [int(row[name]) if name in ("damaged", "counts") else row[name] for name in fields]
        for seat in range(seats):
            held = row["seats"][seat] if seat < len(row["seats"]) else None
            line += [held["name"], held["player"], held["score"], int(held["won"])] if held else ["", "", "", ""]
        lines.append(line)
    return exports.csv_file(export_name(chosen), header, lines)


@bp.get("/<int:game_id>.json")
@guards.renders
@kept.until_the_game_changes
def export(game_id):
    """Download the game's record file, once the game is over. :raise AccessDenied: 409 before that."""
    record = record_of(game_id)
    if not finished(game_id):
        raise AccessDenied(409, "history.unfinished_record", n=game_id)
    response = Response(record.to_json(), mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="azul-game-{game_id}.json"'
    return response


@bp.post("/import")
@guards.accepts_body(MAX_RECORD_BYTES)
@guards.host_required
def import_record():
    """Store a record file's text, ``{record}``, as a past game (it is replayed and checked first)."""
    text = field(json_body(), "record", str)
    try:
        game_id = journal().import_record(Record.from_json(text))
    except RecordError as error:
        raise BadRequest("history.bad_record", reason=str(error)) from None
    return jsonify(game_id=game_id, url=url_for("history.replay", game_id=game_id, ply=0)), 201


@bp.get("/<int:game_id>")
@guards.renders
@kept.until_the_game_changes
def replay(game_id):
    """The game at one move: picture of the table, scores, the move list with the current move marked."""
    record = record_of(game_id)
    ply = replay_ply(record)
    lang, game = language(), record.setup.game
    names = seat_names(record, lang)
    shown = move_page(ply, len(record.moves))
    positions = replayable(replay_positions, record)
    snapshot = _position(positions[ply])
    moves = [(number, record.moves[number - 1], names[positions[number - 1].current_player],
              i18n.option_label(lang, game, record.moves[number - 1])) for number in shown]
    return page("history/replay.html", game_id=game_id, game=game, ply=ply, snapshot=snapshot, names=names,
                moves=moves, total=len(record.moves), shown=shown, downloadable=finished(game_id),
                winners=", ".join(names[seat] for seat in snapshot.winners),
                decision=i18n.pending_label(lang, game, snapshot.pending), leds=attached_display() is not None,
                board=_board(record, positions, ply, snapshot, names, lang))


@bp.get("/<int:game_id>/story")
@guards.renders
@kept.until_the_game_changes
def story_fragment(game_id):
    """The game's charts alone, for the replay page and the live page's game-over view to show (a finished
    game's do not change: the phone may keep them for a while)."""
    record = record_of(game_id)
    lang = language()
    names = seat_names(record, lang)
    response = Response(page("history/story.html", charts=story_charts(
        game_id, record, replayable(replay_positions, record), names, lang)))
    if finished(game_id):
        response.headers["Cache-Control"] = "private, max-age=600"
    return response


@bp.get("/<int:game_id>/rounds/<int:number>")
@guards.renders
@kept.until_the_game_changes
def round_fragment(game_id, number):
    """What scored in round ``number`` of the game, and why: each player's points with a sentence per
    scoring event, then the rule behind each kind of event (after the last round, the final scoring too).
    A first game's phone shows it as each round ends."""
    record = record_of(game_id)
    lang, game = language(), record.setup.game
    names = seat_names(record, lang)
    told = story(game, replayable(replay_positions, record), record.moves)
    rounds_ended = len(told.scored) - (1 if told.final else 0)  # a finished game's last entry: the final scoring
    if not 1 <= number <= (rounds_ended if told.final else len(told.scored)):
        raise AccessDenied(404, "history.no_round", n=number)
    shown = [(None, told.scored[number - 1])]
    if told.final and number == rounds_ended:
        shown.append((i18n.translate(lang, "learn.final_scoring"), told.scored[number]))
    parts = [(title, [(name, i18n.format_points(lang, sum(e["points"] for e in events if e["player"] == seat)),
                       i18n.decision_words(lang, game, [e for e in events if e["player"] == seat], names))
                      for seat, name in enumerate(names)])
             for title, events in shown]
    kinds = dict.fromkeys(event["event"] for _, events in shown for event in events)
    return page("history/round.html", round=number, parts=parts, reasons=[rules.why(game, kind, lang) for kind in kinds])


def story_charts(game_id: int, record: Record, positions: list, names: list, lang: str) -> list:
    """The charts of game ``game_id``'s story so far, each seat in its player's colour and symbol."""
    players = journal().players
    linked = players.of_game(game_id)
    profiles = [players.get(linked[seat]).to_dict() if seat in linked else None for seat in range(len(names))]
    return charts.story_charts(story(record.setup.game, positions, record.moves), names, profiles, lang)


@dataclasses.dataclass(frozen=True)
class _Position:
    """What the replay page shows of one position (the LED picture and the LEDs get a whole
    session snapshot from :func:`replayed`; one page needs only this, from a single replay)."""

    state: dict
    pending: str
    current_player: object
    scores: tuple
    over: bool
    winners: tuple


def _position(game) -> _Position:
    over = game.is_over()
    return _Position(game.to_dict(), game.pending, None if over else game.current_player, tuple(game.scores()), over,
                     tuple(game.winners()) if over else ())


def _board(record, positions, ply, snapshot, names, lang) -> dict:
    """What the page's board drawing needs: the public position after ``ply`` and what that move did."""
    game = record.setup.game
    board = {"game": game, "state": games.spec(game).public(snapshot.state), "seats": [{"name": n} for n in names],
             "current_player": snapshot.current_player, "last": None}
    if ply:
        events = positions[ply - 1].copy().push(record.moves[ply - 1])
        board["last"] = {"events": events, "words": i18n.decision_words(lang, game, events, names)}
    return board


@bp.get("/<int:game_id>/table.png")
@guards.renders
@kept.until_the_game_changes
def picture(game_id):
    """The LED table as it looked after move ``ply``, as a PNG."""
    record = record_of(game_id)
    ply = replay_ply(record)
    settings = dict(service().session.snapshot.settings)
    line = dataclasses.replace(record, moves=record.moves[:ply], final_scores=None, winners=(), started=None,
                               finished=None)
    return Response(drawn_pictures()(line, settings["brightness"], settings["palette"]), mimetype="image/png")


def drawn_pictures():
    """This app's LED pictures, ``(line, brightness, palette) -> PNG``: each is drawn once while it is
    among the PICTURES_KEPT fetched last (an app draws for one rig, its table's)."""
    pictures = current_app.extensions.get("azul_pictures")
    if pictures is None:
        rig = getattr(service().hardware, "rig", None) or hardware.load_rig()
        pictures = current_app.extensions.setdefault(
            "azul_pictures", functools.lru_cache(maxsize=PICTURES_KEPT)(functools.partial(_draw, rig)))
    return pictures


def _draw(rig, line: Record, brightness: float, palette: str) -> bytes:
    """The LED picture of the position at the end of ``line`` (a record cut after the move shown).

    It depends only on its arguments (the highlight is drawn in its lit phase),
    so it can be kept: a move of a running game that is undone changes ``line``.
    """
    snapshot = replayable(position_snapshot, line, len(line.moves), brightness=brightness, palette=palette)
    layout = hardware.Layout(rig)
    memory = hardware.MemorySink(layout, keep=1)
    TableDisplay(hardware.FrameBuffer(layout, memory), clock=lambda: 0.0).draw(snapshot)
    return hardware.render_png(layout, memory.panels().display, led_pixels=8)


def led_display():
    """The table's display for a host action. :raise AccessDenied: 404 when the LEDs are not attached."""
    display = attached_display()
    if display is None:
        raise AccessDenied(404, "history.no_leds")
    return display


@bp.post("/<int:game_id>/leds")
@guards.host_required
def show_on_leds(game_id):
    """Put the replayed position on the table's LEDs (the live game comes back with its next change)."""
    display = led_display()
    record = record_of(game_id)
    ply = replay_ply(record)
    display.update(replayed(record, ply))
    return jsonify(game_id=game_id, ply=ply)


@bp.post("/live")
@guards.host_required
def show_live():
    """Show the live game on the LEDs again."""
    snapshot = service().session.snapshot
    led_display().update(snapshot)
    return jsonify(version=snapshot.version)
