"""Player pages: who plays at this table and the ratings of each game; each player's results, rating over
time, results against each other player, biggest mistakes and last games; the same as CSV and JSON files.

The figures are read off the journal's game summaries (``Journal.games()``),
each seat counted for the profile it is linked to, so a rename or a merge
changes them everywhere at once. A game counts for a player's results once it
is finished (a stopped game has no final scores); a shared win counts as won.
Ratings are the journal's own (``journal.ratings``). Reading is open to every
phone, as the past games are; the host's changes go through the players' JSON
API, sent by ``static/players.js`` with the host token.
"""
import dataclasses
import functools
from typing import Optional

from flask import Blueprint

from firmware_py import games, ratings
from firmware_py.profiles import COLOURS, SYMBOLS
from web_remote import charts, exports, guards, history, i18n, kept, review
from web_remote.guards import language
from web_remote.pages import page
from web_remote.players import MAX_PLAYER_ID, look_fields
from web_remote.service import AccessDenied

bp = Blueprint("player_pages", __name__)

LAST_GAMES = 10  # listed on a player's page, newest first
REVIEWED_GAMES = 10  # a player's last finished games searched for their biggest mistakes


def finished_games(summaries) -> list:
    """The games with final results, newest first."""
    return [summary for summary in summaries
            if summary.status == "finished" and summary.scores and summary.damaged is None]


def seats_of(player_id: int, summaries) -> list:
    """(game summary, the player's seat) of each game the player sat in, in the order given."""
    return [(summary, summary.profiles.index(player_id)) for summary in summaries if player_id in summary.profiles]


@dataclasses.dataclass(frozen=True)
class Results:
    """A player's finished games of one game at one seat count."""

    game: str
    seats: int
    played: int
    won: int
    mean: float
    best: int


def results(player_id: int, summaries) -> list:
    """The player's results per game and seat count, the games in their usual order, fewer seats first."""
    scored = {}
    for summary, seat in seats_of(player_id, finished_games(summaries)):
        scored.setdefault((summary.game, len(summary.players)), []).append(
            (summary.scores[seat], seat in summary.winners))
    order = list(games.GAMES)
    return [Results(game, seats, len(rows), sum(won for _, won in rows), sum(score for score, _ in rows) / len(rows),
                    max(score for score, _ in rows))
            for (game, seats), rows in sorted(scored.items(), key=lambda item: (order.index(item[0][0]), item[0][1]))]


@dataclasses.dataclass(frozen=True)
class Rival:
    """The finished games a player played with another: how many, won by the player alone, by the other
    alone, and won by both (a shared win); and where the two finished apart (in games of three or four, two
    who both lost still finished one ahead of the other): the player ahead, the other ahead."""

    player: object  # the other's profile
    games: int
    won: int
    lost: int
    shared: int
    ahead: int = 0
    behind: int = 0


def rivals(player_id: int, summaries, profiles: dict) -> list:
    """Each other player met in a finished game, the most often met first."""
    met = {}
    for summary, seat in seats_of(player_id, finished_games(summaries)):
        mine = seat in summary.winners
        place = ratings.places(summary.scores, summary.winners)
        for other, other_id in enumerate(summary.profiles):
            if other == seat or other_id is None or other_id not in profiles:
                continue
            theirs = other in summary.winners
            counted = met.setdefault(other_id, [0, 0, 0, 0, 0, 0])
            counted[0] += 1
            counted[1] += mine and not theirs
            counted[2] += theirs and not mine
            counted[3] += mine and theirs
            counted[4] += place[seat] < place[other]
            counted[5] += place[other] < place[seat]
    return sorted((Rival(profiles[other_id], *counted) for other_id, counted in met.items()),
                  key=lambda rival: (-rival.games, rival.player.name.casefold(), rival.player.id))


@dataclasses.dataclass(frozen=True)
class Mistake:
    """A decision of the player that the computer's review found lost points."""

    game_id: int
    game: str
    ply: int
    played: str
    preferred: str
    loss: float


def mistakes(player_id: int, summaries) -> tuple:
    """(the player's biggest mistakes in their last REVIEWED_GAMES finished games, the biggest first, the
    number of those games whose review is complete): only a complete review says which are the biggest."""
    kept = history.journal()
    last = seats_of(player_id, finished_games(summaries))[:REVIEWED_GAMES]
    reviewed = [(summary, seat) for summary, seat in last if kept.review_complete(summary.id)]
    found = []
    for summary, seat in reviewed:
        for _, ply, row_seat, notation, preferred, loss in kept.review_rows(summary.id):
            if row_seat == seat and loss is not None and loss >= review.MIN_LOSS:
                found.append(Mistake(summary.id, summary.game, ply, notation, preferred, loss))
    found.sort(key=lambda mistake: (-mistake.loss, -mistake.game_id, mistake.ply))
    return found[:review.MISTAKES_SHOWN], len(reviewed)


def rating_series(profile, lang: str) -> dict:
    """game -> (its series: (rated game number, rating after it), its rating rows), for each game the player
    is rated in."""
    series = {}
    for index, game in enumerate(games.GAMES):
        rows = history.journal().ratings.history(profile.id, game)
        if rows:
            points = tuple((number, row.after.mu) for number, row in enumerate(rows, 1))
            series[game] = (charts.Series(i18n.translate(lang, f"game.{game}"), points, profile.colour,
                                          profile.symbol, charts.DASHES[index % len(charts.DASHES)]), rows)
    return series


def rating_chart(profile, lang: str) -> Optional[charts.Chart]:
    """The player's rating after each rated game, a line per game; None before their first rated game."""
    series = list(rating_series(profile, lang).values())
    if not series:
        return None
    t = functools.partial(i18n.translate, lang)
    longest = max(len(rows) for _, rows in series)
    description = "; ".join(t("chart.series", name=line.name,
                              values=", ".join(i18n.rating_text(lang, row.after) for row in rows))
                            for line, rows in series)
    title = t("player.rating_chart")
    return charts.Chart("chart-rating", title, charts.line_chart(
        "chart-rating", title, [line for line, _ in series], lang, x_name=t("player.rated_games"),
        y_name=t("host.ratings.rating"), x_ticks=charts.whole_ticks(0, longest),
        x_label=lambda x: i18n.format_number(lang, x), description=description))


def profile_or_404(player_id: int):
    """:raise AccessDenied: 404 for an id no profile can have; ProfileError 404 for one none has."""
    if player_id > MAX_PLAYER_ID:
        raise AccessDenied(404, "players.unknown", n=player_id)
    return history.journal().players.get(player_id)


def standings(profiles: dict) -> dict:
    """Per game, its ratings table: [(rank, profile, rating, games)], the highest cautious estimate first."""
    tables = {}
    for game in games.GAMES:
        rows = [(player, rating, played) for player, rating, played in history.journal().ratings.standings(game)
                if player in profiles]  # a profile merged away between the two reads is left out
        tables[game] = [(rank, profiles[player], rating, played) for rank, (player, rating, played)
                        in enumerate(rows, 1)]
    return tables


def everyone() -> dict:
    """id -> profile of everyone, the most recently played first (people, then the computer levels)."""
    listed = history.journal().players.all()
    return {profile.id: profile for profile in sorted(listed, key=lambda profile: profile.is_computer)}


def games_played(summaries) -> dict:
    """profile id -> (finished games, won)."""
    counted = {}
    for summary in finished_games(summaries):
        for seat, player in enumerate(summary.profiles):
            if player is not None:
                played, won = counted.get(player, (0, 0))
                counted[player] = (played + 1, won + (seat in summary.winners))
    return counted


@dataclasses.dataclass(frozen=True)
class Record:
    """A record of the table: the highest score of one game at one seat count (``seats`` None: the longest
    run of won games in a row, any game), its value and the profile who holds it."""

    game: Optional[str]
    seats: Optional[int]
    value: int
    player: object


def records(summaries, profiles: dict) -> list:
    """The table's records from its finished games: the highest score per game and seat count (the first to
    reach it holds it), then the longest winning streak (the games of each player in the order they ended;
    a shared win counts)."""
    best, streaks, runs = {}, {}, {}
    for summary in sorted(finished_games(summaries), key=lambda summary: (history.ended(summary), summary.id)):
        for seat, player in enumerate(summary.profiles):
            if player not in profiles:
                continue
            key = (summary.game, len(summary.players))
            if key not in best or summary.scores[seat] > best[key][0]:
                best[key] = (summary.scores[seat], player)
            runs[player] = runs.get(player, 0) + 1 if seat in summary.winners else 0
            if runs[player] > streaks.get(player, 0):
                streaks[player] = runs[player]
    order = list(games.GAMES)
    found = [Record(game, seats, value, profiles[player]) for (game, seats), (value, player)
             in sorted(best.items(), key=lambda item: (order.index(item[0][0]), item[0][1]))]
    if streaks:
        player, longest = max(streaks.items(), key=lambda item: (item[1], -item[0]))
        found.append(Record(None, None, longest, profiles[player]))
    return found


def listing() -> dict:
    """What the players' page and its files show: everyone with their games, and each game's ratings."""
    profiles = everyone()
    return {"profiles": profiles, "played": games_played(history.journal().games()),
            "standings": standings(profiles)}


@bp.get("/players/")
@guards.renders
@kept.until_results_change
@history.refusals_as_pages
def index():
    """The people (most recently played first), the computer levels, and each game's ratings table."""
    lang = language()
    shown = listing()
    profiles = list(shown["profiles"].values())
    people = [profile for profile in profiles if not profile.is_computer]
    return page("players/index.html", people=people, computers=[p for p in profiles if p.is_computer],
                records=records(history.journal().games(), shown["profiles"]),
                played=shown["played"], standings=shown["standings"], **_shown_with(lang),
                rating_text=functools.partial(i18n.rating_text, lang),
                uncertainty_text=functools.partial(i18n.uncertainty_text, lang),
                settled=i18n.settled_uncertainty_text(lang),
                new_look=look_fields(history.journal().players.next_look()))


def _shown_with(lang: str) -> dict:
    """What the players' templates draw names, marks and numbers with, and the profile choices they offer."""
    return {"name_of": functools.partial(history.player_name, lang), "mark": charts.mark,
            "number": functools.partial(i18n.format_number, lang), "colours": COLOURS, "symbols": SYMBOLS,
            "max_name": history.MAX_NAME}


def listed_rows(lang: str) -> list:
    """Everyone as the players' files list them, with their games and each game's rating and rank."""
    shown = listing()
    ranks = {game: {profile.id: (rank, rating, played) for rank, profile, rating, played in rows}
             for game, rows in shown["standings"].items()}
    rows = []
    for profile in shown["profiles"].values():
        played, won = shown["played"].get(profile.id, (0, 0))
        ratings = {}
        for game in games.GAMES:
            rank, rating, rated = ranks[game].get(profile.id, (None, None, 0))
            ratings[game] = {"rank": rank, "rating": None if rating is None else round(rating.mu, 1),
                             "mu": None if rating is None else round(rating.mu, 3),
                             "sigma": None if rating is None else round(rating.sigma, 3), "games": rated}
        rows.append({"id": profile.id, "name": history.player_name(lang, profile), "kind": profile.kind,
                     "level": profile.level, "colour": profile.colour, "symbol": profile.symbol,
                     "last_played": profile.last_played, "games": played, "won": won, "ratings": ratings})
    return rows


@bp.get("/players.json")
@guards.renders
@kept.until_results_change
def index_json():
    """Everyone with their games and ratings: ``{players: [...]}``."""
    return exports.json_file("azul-players", {"players": listed_rows(language())})


@bp.get("/players.csv")
@guards.renders
@kept.until_results_change
def index_csv():
    """Everyone with their games and ratings, one a line; a game's rank and rating are empty when unrated."""
    rows = listed_rows(language())
    fields = ("id", "name", "kind", "level", "colour", "symbol", "last_played", "games", "won")
    parts = ("rank", "rating", "games")
    header = [*fields, *(f"{game}_{part}" for game in games.GAMES for part in parts)]
    return exports.csv_file("azul-players", header, [
        [row[name] for name in fields] + [row["ratings"][game][part] for game in games.GAMES for part in parts]
        for row in rows])


def player_figures(player_id: int, lang: str) -> dict:
    """Everything a player's page and files show. :raise AccessDenied, ProfileError: 404 for no such player."""
    profile = profile_or_404(player_id)
    summaries = history.journal().games()
    profiles = everyone()
    found, reviewed = mistakes(profile.id, summaries) if not profile.is_computer else ([], 0)
    return {"profile": profile, "name": history.player_name(lang, profile), "summaries": summaries,
            "results": results(profile.id, summaries), "rivals": rivals(profile.id, summaries, profiles),
            "mistakes": found, "reviewed": reviewed, "games": seats_of(profile.id, summaries),
            "others": mergeable(profile, summaries, profiles)}


def mergeable(profile, summaries, profiles: dict) -> list:
    """The profiles the merge form offers to merge into ``profile``: the other people, less those who sat at a
    game with them (one person cannot have played themselves; the merge would be refused), by name."""
    met = {other for summary in summaries if profile.id in summary.profiles for other in summary.profiles}
    return sorted((other for other in profiles.values() if not other.is_computer and other.id != profile.id
                   and other.id not in met), key=lambda other: (other.name.casefold(), other.id))


@bp.get("/players/<int:player_id>")
@guards.renders
@kept.until_results_change
@history.refusals_as_pages
def player(player_id):
    """One player: results per game and seat count, rating over time, results against each other player,
    biggest mistakes of their last games, their last games; the host's changes to the profile."""
    lang = language()
    figures = player_figures(player_id, lang)
    return page("players/player.html", **figures, **_shown_with(lang), last=figures["games"][:LAST_GAMES],
                chart=rating_chart(figures["profile"], lang), label=functools.partial(i18n.option_label, lang),
                reviewed_games=REVIEWED_GAMES)


def player_games(figures: dict, lang: str) -> tuple:
    """(the player's games as their files list them, newest first, how many were left out beyond the bound)."""
    profile = figures["profile"]
    rated = {row.game_id: row for game in games.GAMES for row in history.journal().ratings.history(profile.id, game)}
    shown, left_out = exports.bounded(figures["games"])
    rows = []
    for summary, seat in shown:
        rating = rated.get(summary.id)
        rows.append({"game_id": summary.id, "game": summary.game, "started": summary.started,
                     "finished": summary.finished, "status": summary.status, "origin": summary.origin,
                     "seats": len(summary.players), "seat": seat + 1,
                     "score": summary.scores[seat] if summary.scores else None,
                     "won": seat in summary.winners if summary.scores else None,
                     "opponents": [name for other, name in enumerate(
                         history.shown_names(summary.players, i18n.SOURCE_LANGUAGE, summary.levels)) if other != seat],
                     "rating_before": None if rating is None else round(rating.before.mu, 3),
                     "rating_after": None if rating is None else round(rating.after.mu, 3)})
    return rows, left_out


@bp.get("/players/<int:player_id>.json")
@guards.renders
@kept.until_results_change
def player_json(player_id):
    """The player's page as JSON: ``{player, results, ratings, head_to_head, mistakes, games, limit, left_out}``."""
    lang = language()
    figures = player_figures(player_id, lang)
    profile = figures["profile"]
    rows, left_out = player_games(figures, lang)
    ratings = {game: [{"game_id": row.game_id, "number": number, "before": round(row.before.mu, 3),
                       "after": round(row.after.mu, 3)} for number, row in enumerate(rated, 1)]
               for game, (_, rated) in rating_series(profile, lang).items()}
    return exports.json_file(f"azul-player-{profile.id}", {
        "player": {**profile.to_dict(), "name": figures["name"]},
        "results": [dataclasses.asdict(row) | {"mean": round(row.mean, 2)} for row in figures["results"]],
        "ratings": {game: ratings.get(game, []) for game in games.GAMES},
        "head_to_head": [{"player": rival.player.id, "name": history.player_name(lang, rival.player),
                          "games": rival.games, "won": rival.won, "lost": rival.lost, "shared": rival.shared,
                          "ahead": rival.ahead, "behind": rival.behind}
                         for rival in figures["rivals"]],
        "mistakes": [dataclasses.asdict(mistake) | {"loss": round(mistake.loss, 1)} for mistake in figures["mistakes"]],
        "games": rows, "limit": exports.MAX_GAMES, "left_out": left_out})


@bp.get("/players/<int:player_id>.csv")
@guards.renders
@kept.until_results_change
def player_csv(player_id):
    """The player's games, one a line: their seat, score, whether they won, the others, their rating before and
    after (empty where the game did not count)."""
    lang = language()
    figures = player_figures(player_id, lang)
    rows, _ = player_games(figures, lang)
    header = ("game_id", "game", "started", "finished", "status", "origin", "seats", "seat", "score", "won",
              "opponents", "rating_before", "rating_after")
    return exports.csv_file(f"azul-player-{figures['profile'].id}", header, [
        [", ".join(row[name]) if name == "opponents" else (None if row[name] is None else int(row[name]))
         if name == "won" else row[name] for name in header] for row in rows])
