"""The game review on the phone: each player's three biggest mistakes, once the game is over.

``GET /review/<id>`` (and ``/review/current``, the game at the table now)
answer the JSON that ``static/review.js`` draws on the live page's game-over
view: per human seat, the decisions whose option lost the most points against
the computer's preferred one (``firmware_py.reviewer`` computes them in the
background), each with the public position before the decision for the board
drawing. A game still being played is refused (409): its review would show
what the computer thinks of positions that are still in play.
"""
from flask import Blueprint, jsonify

from firmware_py import games
from firmware_py.records import replay as replay_positions
from firmware_py.reviewer import HUMAN_KINDS
from web_remote import guards, history, i18n, kept
from web_remote.guards import language
from web_remote.service import AccessDenied

bp = Blueprint("review", __name__, url_prefix="/review")

MISTAKES_SHOWN = 3  # per player
MIN_LOSS = 0.5  # points: a smaller loss is within the estimate's noise, not a mistake worth showing


@bp.get("/current")
@guards.renders
@kept.until_results_change
def current():
    """The review of the game at the table now (refused while it is being played)."""
    game_id = history.journal().current_game
    if game_id is None:
        raise AccessDenied(404, "review.no_current")
    return _review(game_id)


@bp.get("/<int:game_id>")
@guards.renders
@kept.until_the_game_changes
def review(game_id):
    """The review of game ``game_id`` of the journal, once it is over."""
    return _review(game_id)


def _review(game_id: int):
    """``{game_id, complete, reviewed, decisions, players: [{seat, name, mistakes}]}``; the mistakes only once
    the review is complete (the biggest so far may not be the biggest, and none so far is no verdict).

    :raise AccessDenied: 404 no such game, 409 damaged, still being played, or never reviewed (imported).
    """
    record = history.record_of(game_id)
    journal = history.journal()
    status, origin = journal.status(game_id)
    if status != "finished":
        raise AccessDenied(409, "review.unfinished", n=game_id)
    if origin != "table":
        raise AccessDenied(409, "review.imported", n=game_id)
    positions = history.replayable(replay_positions, record)
    lang, game = language(), record.setup.game
    names = history.seat_names(record, lang)
    humans = [seat for seat, setup in enumerate(record.setup.seats) if setup.kind in HUMAN_KINDS]
    rows = [row for row in journal.review_rows(game_id) if row[2] in humans]
    done = [row for row in rows if row[4] is not None]
    spec = games.spec(game)

    def option(notation):
        return {"notation": notation, "label": i18n.option_label(lang, game, notation)}

    def mistake(ply, seat, notation, preferred, loss):
        return {"ply": ply, "played": option(notation), "preferred": option(preferred), "loss": round(loss, 1),
                "board": {"game": game, "state": spec.public(positions[ply - 1].to_dict()),
                          "seats": [{"name": name} for name in names], "current_player": seat, "pending": positions[ply - 1].pending, "last": None}}

    complete = journal.review_complete(game_id)
    players = []
    for seat in humans:
        worst = sorted((row for row in done if row[2] == seat and row[5] >= MIN_LOSS), key=lambda row: -row[5])
        shown = worst[:MISTAKES_SHOWN] if complete else []
        players.append({"seat": seat, "name": names[seat], "mistakes": [mistake(*row[1:]) for row in shown]})
    answer = jsonify(game_id=game_id, complete=complete, reviewed=len(done), decisions=len(rows), players=players)
    if not complete:
        answer.headers["Cache-Control"] = "no-store"  # it grows as the review goes on
    return answer
