"""The players' JSON API: the table's profiles and ratings, and the host's changes to them.

Reading is open to every phone, as the past games are: the join page offers
the known players, and the pages show their ratings. Creating, renaming,
recolouring, merging profiles, attaching old games to them and saying whether
a game counts for the ratings are host actions (the host token in a header).
A phone makes a profile of its own only by joining a seat as someone new
(``POST /api/join`` with ``new_player``). Every refusal is a 4xx in the phone's
language and changes nothing.
"""
from flask import Blueprint, jsonify

from firmware_py import games
from firmware_py.profiles import COLOURS, MAX_LANGUAGES, SYMBOLS, ProfileError
from firmware_py.ratings import CHOICES, Rating
from firmware_py.session import MAX_NAME
from web_remote import guards, i18n, kept
from web_remote.guards import BadRequest, error_response, field, json_body, service
from web_remote.service import AccessDenied

bp = Blueprint("players", __name__, url_prefix="/api")

MAX_PLAYER_ID = 2 ** 31 - 1


@bp.app_errorhandler(ProfileError)
def refused(error):
    """A refused profile change, wherever it was asked for (joining, the setup page, the host's pages)."""
    return error_response(error.status, error.key, **error.fields)


def journal():
    """The table's journal. :raise AccessDenied: 404 when the table keeps no journal (and so no players)."""
    kept = service().session.journal
    if kept is None:
        raise AccessDenied(404, "players.no_journal")
    return kept


def profile_fields(body: dict, *, name_required: bool) -> dict:
    """The profile fields of a form: ``name``, ``colour``, ``symbol``, ``languages`` (the phone's codes).

    :raise BadRequest: a field of the wrong type or an unknown choice (names are checked by the profiles).
    """
    fields = {}
    if name_required or "name" in body:
        fields["name"] = field(body, "name", str)
        if len(fields["name"]) > MAX_NAME * 4:
            raise BadRequest("players.long_name", n=MAX_NAME)
    for name, choices in (("colour", COLOURS), ("symbol", SYMBOLS)):
        if name in body:
            fields[name] = field(body, name, str, choices=choices)
    if "languages" in body:
        languages = field(body, "languages", list)
        if len(languages) > MAX_LANGUAGES or not all(
                isinstance(code, str) and code in i18n.LANGUAGES for code in languages):
            raise BadRequest("error.invalid_field", field="languages")
        fields["languages"] = languages
    return fields


def checked_id(value, name: str = "player") -> int:
    """A profile id of a form or path. :raise BadRequest: not a whole number in range."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value <= MAX_PLAYER_ID:
        raise BadRequest("error.invalid_field", field=name)
    return value


def known_game(game_id: int) -> int:
    """:raise AccessDenied: 404 for a game id the journal cannot hold."""
    if game_id > MAX_PLAYER_ID:
        raise AccessDenied(404, "history.no_game", n=game_id)
    return game_id


def look_fields(look: tuple) -> dict:
    """A (colour, symbol) pair as the pages take it."""
    colour, symbol = look
    return {"colour": colour, "symbol": symbol}


def described(profile, standings=None) -> dict:
    """A profile as the pages get it, with its rating and number of rated games in each game (``standings``:
    game -> {player: (rating, games)} of everyone, read once for a list)."""
    shown = profile.to_dict()
    shown["ratings"] = {}
    for game in games.GAMES:
        if standings is None:
            rating, played = journal().ratings.current(profile.id, game)
        else:
            rating, played = standings[game].get(profile.id, (Rating(), 0))
        shown["ratings"][game] = {**rating.to_dict(), "games": played}
    return shown


@bp.get("/players")
@kept.until_results_change
def players():
    """Every profile, the most recently played first: the people, then the computer levels."""
    kept_by = journal()
    everyone = kept_by.players.all()
    standings = {game: {player: (rating, played) for player, rating, played in kept_by.ratings.standings(game)}
                 for game in games.GAMES}
    return jsonify(players=[described(p, standings) for p in everyone if not p.is_computer],
                   computers=[described(p, standings) for p in everyone if p.is_computer],
                   new_look=look_fields(kept_by.players.next_look()),
                   colours=list(COLOURS), symbols=list(SYMBOLS), max_name=MAX_NAME)


@bp.get("/players/<int:player_id>")
def player(player_id):
    """One profile with its ratings."""
    return jsonify(described(journal().players.get(checked_id(player_id))))


@bp.get("/ratings/<game>")
@kept.until_results_change
def standings(game):
    """The ratings table of one game in the order of its cautious estimate: ``{players: [{player, name, kind,
    level, colour, symbol, mu, sigma, games, new, rating_text, uncertainty_text}]}``, each with what a table of
    names shows (``rating_text``: the rating as the phone's language writes it, to a tenth; ``uncertainty_text``:
    its "±" beside it; ``new``: still too uncertain to trust)."""
    if game not in games.GAMES:
        raise BadRequest("error.invalid_field", field="game", status=404)
    language = guards.language()
    rows = journal().ratings.standings(game)
    profiles = {profile.id: profile.to_dict() for profile in journal().players.all()}
    shown = ("name", "kind", "level", "colour", "symbol")
    return jsonify(game=game, players=[  # a profile merged away between the two reads is left out
        {"player": player, **{name: profiles[player][name] for name in shown}, **rating.to_dict(), "games": played,
         "new": rating.new, "rating_text": i18n.rating_text(language, rating),
         "uncertainty_text": i18n.uncertainty_text(language, rating)}
        for player, rating, played in rows if player in profiles])


@bp.get("/games/<int:game_id>/ratings")
def game_ratings(game_id):
    """The ratings before and after one game, per rated seat (none when the game does not count)."""
    game_id = known_game(game_id)
    return jsonify(game_id=game_id, seats=[{"seat": row.seat, "player": row.player_id, "before": row.before.to_dict(),
                                            "after": row.after.to_dict()}
                                           for row in journal().ratings.of_game(game_id)])


@bp.post("/host/players")
@guards.host_required
def create_player():
    """A new profile: ``{name, colour?, symbol?, languages?}``."""
    return jsonify(described(journal().players.create(**profile_fields(json_body(), name_required=True)))), 201


@bp.post("/host/players/<int:player_id>")
@guards.host_required
def change_player(player_id):
    """Rename a profile or change its colour, symbol or languages: ``{name?, colour?, symbol?, languages?}``."""
    fields = profile_fields(json_body(), name_required=False)
    return jsonify(described(journal().players.update(checked_id(player_id), **fields)))


@bp.post("/host/players/merge")
@guards.host_required
def merge_players():
    """Two profiles of one person become one: ``{keep, merge}``; the merged one's games go to the kept one."""
    body = json_body()
    kept = journal().players.merge(checked_id(field(body, "keep", int), "keep"),
                                    checked_id(field(body, "merge", int), "merge"))
    return jsonify(described(kept))


@bp.get("/host/players/unlinked")
@guards.host_required
def unlinked():
    """The names of past games' seats that no profile holds yet, with their number of games."""
    return jsonify(names=[{"name": name, "games": count} for name, count in journal().players.unlinked_names()])


@bp.post("/host/players/attach")
@guards.host_required
def attach():
    """Give a profile the past games' seats of one name: ``{name, player}`` -> ``{attached}`` games."""
    body = json_body()
    attached = journal().players.attach(field(body, "name", str), checked_id(field(body, "player", int)))
    return jsonify(attached=attached)


@bp.post("/host/games/<int:game_id>/rated")
@guards.host_required
def rated(game_id):
    """Whether a game counts for the ratings: ``{counts: 'yes' | 'no' | 'auto'}`` ('auto': finished here)."""
    choice = field(json_body(), "counts", str, choices=CHOICES)
    game_id = known_game(game_id)
    try:
        journal().ratings.set_counted(game_id, choice)
    except KeyError:
        raise AccessDenied(404, "history.no_game", n=game_id) from None
    return jsonify(game_id=game_id, counts=choice)
