"""Ratings: a Weng-Lin rating per player and per game, from the games in the journal.

openskill's Plackett-Luce model rates games of any number of players, shared
places included, so Azul Duel has one rating and Summer Pavilion one for all
its seat counts. A game counts once it is finished at this table, unless the
host says otherwise: a stopped or imported game counts only when the host says
so (``games.rated``: 'auto', 'yes' or 'no'). Only seats linked to a profile
are rated, and a game needs two of them.

Each counted game keeps every rated seat's rating before and after it
(``ratings`` rows). Ratings follow the order the games ended in, so any change
to the past (a merge, games attached to a profile, a game counted or not) works
them all out again from the journal, in the same transaction; a finished game,
the newest, only adds its own rows.
"""
import dataclasses
import json
from typing import Optional

from openskill.models import PlackettLuce

from firmware_py import games

MODEL = PlackettLuce()
CHOICES = ("auto", "yes", "no")
SETTLED_SIGMA = 7.0
"""A rating is new (the pages mark it so) while its uncertainty is at least this: from the starting 8.3, about
six two-player games, fewer in games of three or four."""


@dataclasses.dataclass(frozen=True)
class Rating:
    """A player's skill estimate: ``mu`` (shown, rounded to a tenth) and its uncertainty ``sigma``."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    def to_dict(self) -> dict:
        return {"mu": round(self.mu, 3), "sigma": round(self.sigma, 3)}

    @property
    def ordinal(self) -> float:
        """The cautious estimate the ratings tables are ordered by (openskill's ordinal, mu - 3 sigma): a
        rating from a few lucky games, still uncertain, does not rank above one that many games settled."""
        return MODEL.rating(mu=self.mu, sigma=self.sigma).ordinal()

    @property
    def new(self) -> bool:
        """Whether the rating is still too uncertain to trust (:data:`SETTLED_SIGMA`)."""
        return self.sigma >= SETTLED_SIGMA


@dataclasses.dataclass(frozen=True)
class RatedSeat:
    """One seat of a counted game: who played it and their rating before and after the game."""

    game_id: int
    seat: int
    player_id: int
    game: str
    before: Rating
    after: Rating


def counts(status: str, origin: str, choice: str) -> bool:
    """Whether a game changes the ratings: the host's yes or no, else finished at this table."""
    return choice == "yes" or (choice == "auto" and status == "finished" and origin == "table")


def places(scores, winners) -> list:
    """Each seat's place, 0 the best: the winners share first place (the rules' tie-break decided the rest),
    then the others by score, equal scores sharing a place."""
    others = [score for seat, score in enumerate(scores) if seat not in winners]
    return [0 if seat in winners else 1 + sum(other > score for other in others) for seat, score in enumerate(scores)]


def rate(before: list, scores, winners) -> list:
    """The ratings after one game of the seats rated ``before``, with their ``scores`` and ``winners``
    (seat indexes into that list)."""
    result = MODEL.rate([[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before], ranks=places(scores, winners))
    return [Rating(team[0].mu, team[0].sigma) for team in result]


def replay(counted) -> list:
    """Rate ``counted`` games in order, each ``(game_id, game, {seat: player_id}, scores, winners)``: the
    :class:`RatedSeat` of every rated seat."""
    current, rows = {}, []
    for game_id, game, seats, scores, winners in counted:
        rows.extend(_rate_game(current, game_id, game, seats, scores, winners))
    return rows


def _rate_game(current: dict, game_id, game, seats, scores, winners) -> list:
    """Rate one game from ``current`` ((player, game) -> Rating, updated); its rows, none with fewer than two
    rated seats."""
    rated = sorted(seats)
    if len(rated) < 2:
        return []
    before = [current.get((seats[seat], game), Rating()) for seat in rated]
    after = rate(before, [scores[seat] for seat in rated], [rated.index(seat) for seat in winners if seat in seats])
    rows = []
    for seat, old, new in zip(rated, before, after):
        current[seats[seat], game] = new
        rows.append(RatedSeat(game_id, seat, seats[seat], game, old, new))
    return rows


class Ratings:
    """The ratings of one journal: ``journal.ratings``."""

    def __init__(self, journal):
        self._journal = journal

    # -- reading ---------------------------------------------------------------------

    def current(self, player_id: int, game: str) -> tuple:
        """(rating, games rated) of a player in ``game``; a player who never played it has the starting rating."""
        with self._journal.reading() as db:
            row = db.execute("SELECT mu_after, sigma_after, (SELECT COUNT(*) FROM ratings WHERE player_id = ?"
                             " AND game = ?) FROM ratings WHERE player_id = ? AND game = ? ORDER BY position DESC"
                             " LIMIT 1", (player_id, game, player_id, game)).fetchone()
        return (Rating(), 0) if row is None else (Rating(row[0], row[1]), row[2])

    def standings(self, game: str) -> list:
        """(player id, rating, games rated) of everyone rated in ``game``, the highest cautious estimate
        (:attr:`Rating.ordinal`) first."""
        with self._journal.reading() as db:
            rows = db.execute(
                "SELECT r.player_id, r.mu_after, r.sigma_after, c.n FROM ratings r"
                " JOIN (SELECT player_id, MAX(position) AS last, COUNT(*) AS n FROM ratings WHERE game = ?"
                " GROUP BY player_id) c ON c.player_id = r.player_id AND c.last = r.position"
                " WHERE r.game = ?", (game, game)).fetchall()
        return sorted(((player, Rating(mu, sigma), n) for player, mu, sigma, n in rows),
                      key=lambda row: (-row[1].ordinal, -row[1].mu, row[0]))

    def history(self, player_id: int, game: str) -> list:
        """The player's rated games in ``game``, in order: :class:`RatedSeat` rows."""
        return self._rows("WHERE player_id = ? AND game = ?", (player_id, game))

    def of_game(self, game_id: int) -> list:
        """The rated seats of one game (none when it does not count)."""
        return self._rows("WHERE game_id = ?", (game_id,))

    def choices(self) -> dict:
        """game id -> what the host said about counting it: 'auto', 'yes' or 'no' (the past-games list shows it)."""
        with self._journal.reading() as db:
            return dict(db.execute("SELECT id, rated FROM games"))

    def outcomes(self) -> dict:
        """game id -> (counts, ended, scores, winners) as the ratings take every game: whether it counts, when
        it ended (the rating order, with the id), and its final scores or, left unfinished, those it stood at
        (None where there are none). The exports write them so that the ratings can be worked out from a file."""
        with self._journal.reading() as db:
            rows = db.execute(f"SELECT g.id, g.game, g.status, g.origin, g.rated, g.scores, g.winners, {_ENDED}"
                              " FROM games g").fetchall()
            return {game_id: (counts(status, origin, choice), ended,
                              *(_result(db, game_id, game, scores, winners) or (None, None)))
                    for game_id, game, status, origin, choice, scores, winners, ended in rows}

    def stored(self) -> list:
        """Every stored row, in rating order (what :meth:`worked_out` must equal)."""
        return self._rows("", ())

    def worked_out(self) -> list:
        """The ratings worked out again from the journal's games, without storing them."""
        with self._journal.reading() as db:
            return replay(_counted(db))

    def _rows(self, where: str, values: tuple) -> list:
        with self._journal.reading() as db:
            rows = db.execute("SELECT game_id, seat, player_id, game, mu_before, sigma_before, mu_after, sigma_after"
                              f" FROM ratings {where} ORDER BY position, seat", values).fetchall()
        return [RatedSeat(game_id, seat, player, game, Rating(mu0, s0), Rating(mu1, s1))
                for game_id, seat, player, game, mu0, s0, mu1, s1 in rows]

    # -- changing ----------------------------------------------------------------------

    def set_counted(self, game_id: int, choice: str):
        """The host says whether a game counts ('yes', 'no', or 'auto': finished at this table)."""
        if choice not in CHOICES:
            raise ValueError(f"a game counts 'yes', 'no' or 'auto', not {choice!r}")
        with self._journal.writing("change whether the game counts") as db:
            if db.execute("UPDATE games SET rated = ? WHERE id = ?", (choice, game_id)).rowcount != 1:
                raise KeyError(f"there is no game {game_id} in the journal")
            self.recompute_in(db)

    def recompute_in(self, db):
        """Work every rating out again and store it, inside the caller's transaction."""
        db.execute("DELETE FROM ratings")
        _store(db, replay(_counted(db)), start=0)

    def game_finished_in(self, db, game_id: int):
        """Rate a game that just ended, inside the transaction that marks it finished: it is the newest to
        count, so only its own rows are added (unless a crafted import claims a later end; then all again)."""
        counted = _counted(db)
        if not counted or counted[-1][0] != game_id:
            if any(row[0] == game_id for row in counted):
                self.recompute_in(db)
            return
        current = {}
        _, game, seats, scores, winners = counted[-1]
        for seat, player in seats.items():
            row = db.execute("SELECT mu_after, sigma_after FROM ratings WHERE player_id = ? AND game = ?"
                             " ORDER BY position DESC LIMIT 1", (player, game)).fetchone()
            if row is not None:
                current[player, game] = Rating(*row)
        last = db.execute("SELECT COALESCE(MAX(position), -1) FROM ratings").fetchone()[0]
        _store(db, _rate_game(current, game_id, game, seats, scores, winners), start=last + 1)

    def game_reopened_in(self, db, game_id: int):
        """A finished game's last decisions were taken back: it no longer counts until it ends again."""
        if db.execute("SELECT 1 FROM ratings WHERE game_id = ?", (game_id,)).fetchone() is not None:
            self.recompute_in(db)


def _store(db, rows: list, start: int):
    """Insert rating rows; ``position`` numbers the games in rating order from ``start``."""
    positions, inserted = {}, []
    for row in rows:
        position = positions.setdefault(row.game_id, start + len(positions))
        inserted.append((row.game_id, row.seat, row.player_id, row.game, position, row.before.mu, row.before.sigma,
                         row.after.mu, row.after.sigma))
    db.executemany("INSERT INTO ratings(game_id, seat, player_id, game, position, mu_before, sigma_before, mu_after,"
                   " sigma_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", inserted)


_ENDED = ("COALESCE(g.finished_at, (SELECT MAX(d.decided_at) FROM decisions d WHERE d.game_id = g.id"
          " AND d.reverted IS NULL), g.started_at)")
"""When a game ended, as the ratings order the games: its end, else its last standing decision, else its start."""


def _counted(db) -> list:
    """The games that count, in the order they ended: (game_id, game, {seat: player}, scores, winners).

    A stopped game the host counts is rated by the scores it stood at when it stopped."""
    links = {}
    for game_id, seat, player in db.execute("SELECT game_id, seat, player_id FROM seat_players"):
        links.setdefault(game_id, {})[seat] = player
    counted = []
    rows = db.execute(
        f"SELECT g.id, g.game, g.status, g.origin, g.rated, g.scores, g.winners, {_ENDED} AS ended"
        " FROM games g WHERE g.rated != 'no' ORDER BY ended, g.id")
    for game_id, game, status, origin, choice, scores, winners, _ in rows.fetchall():
        if not counts(status, origin, choice) or len(links.get(game_id, ())) < 2:
            continue
        result = _result(db, game_id, game, scores, winners)
        if result is not None:
            counted.append((game_id, game, links[game_id], *result))
    return counted


def _result(db, game_id: int, game: str, scores: Optional[str], winners: Optional[str]) -> Optional[tuple]:
    """(scores, winners) of a game: the final ones, else those of its last position (None if unreadable)."""
    try:
        if scores:
            return json.loads(scores), json.loads(winners or "[]")
        state = db.execute("SELECT state FROM decisions WHERE game_id = ? AND reverted IS NULL ORDER BY ply DESC"
                           " LIMIT 1", (game_id,)).fetchone()
        if state is None:
            return None
        position = games.spec(game).from_json(state[0])
        standing = list(position.scores())
        return standing, [seat for seat, score in enumerate(standing) if score == max(standing)]
    except (ValueError, TypeError, KeyError, AttributeError, IndexError):
        return None
