"""The journal: every accepted decision is in SQLite before anyone sees it, so a power cut loses nothing.

The session calls :meth:`Journal.record` on its own thread after a decision is
applied and before the new position is published to the LEDs and phones; the
decision's row (with the whole game state after it, RNG included) is
committed before ``record`` returns. The database runs in WAL mode with
``synchronous=FULL``: every commit syncs the write-ahead log to the storage,
so a commit that returned survives a power cut (``NORMAL`` would only protect
against a crash of the program, not of the machine). On start,
:meth:`Journal.resume` hands back the unfinished game exactly as it was.

A database that cannot be read is moved aside (never overwritten) and a new
one started, with :attr:`Journal.notice` saying so; one that cannot be
written raises :class:`JournalError`. See ``docs/journal.md``.
"""
import contextlib
import dataclasses
import datetime
import json
import logging
import os
import pwd
import sqlite3
import threading
from pathlib import Path
from typing import Optional

from firmware_py import games
from firmware_py.credentials import Credentials
from firmware_py.profiles import Players
from firmware_py.ratings import Ratings
from firmware_py.records import Record, RecordError, replay, with_start
from firmware_py.session import CommandRejected, Seat, Setup
from hardware.doctor import Finding

log = logging.getLogger(__name__)

DATA_VARIABLE = "AZUL_TABLE_DATA"
DATABASE_NAME = "journal.sqlite3"

MIGRATIONS = (
    # 1: games with their setup and starting position, decisions with the state after each, settings.
    (
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,
            seats TEXT NOT NULL,
            seed INTEGER,
            flags TEXT NOT NULL,
            start_state TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('running', 'finished', 'stopped')),
            origin TEXT NOT NULL CHECK (origin IN ('table', 'import')),
            started_at TEXT NOT NULL,
            finished_at TEXT,
            scores TEXT,
            winners TEXT
        )""",
        """CREATE TABLE decisions (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            ply INTEGER NOT NULL CHECK (ply >= 1),
            seat INTEGER NOT NULL,
            notation TEXT NOT NULL,
            revealed INTEGER NOT NULL,
            state TEXT NOT NULL,
            decided_at TEXT NOT NULL,
            reverted TEXT CHECK (reverted IN ('back', 'undo')),
            reverted_at TEXT
        )""",
        "CREATE UNIQUE INDEX decisions_line ON decisions(game_id, ply) WHERE reverted IS NULL",
        "CREATE INDEX decisions_by_game ON decisions(game_id, id)",
        "CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
        "CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
    ),
    # 2: a game's credentials (join code, token digests) beside it; decisions that could not be read
    # back on resuming are kept, marked 'damaged'.
    (
        "ALTER TABLE games ADD COLUMN credentials TEXT",
        """CREATE TABLE decisions_2 (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            ply INTEGER NOT NULL CHECK (ply >= 1),
            seat INTEGER NOT NULL,
            notation TEXT NOT NULL,
            revealed INTEGER NOT NULL,
            state TEXT NOT NULL,
            decided_at TEXT NOT NULL,
            reverted TEXT CHECK (reverted IN ('back', 'undo', 'damaged')),
            reverted_at TEXT
        )""",
        "INSERT INTO decisions_2 SELECT * FROM decisions",
        "DROP TABLE decisions",
        "ALTER TABLE decisions_2 RENAME TO decisions",
        "CREATE UNIQUE INDEX decisions_line ON decisions(game_id, ply) WHERE reverted IS NULL",
        "CREATE INDEX decisions_by_game ON decisions(game_id, id)",
    ),
    # 3: the game review: per decision of a human seat, the option the computer prefers and the points
    # the one played lost; a game's reviewed_at is set once each of them has its row.
    (
        """CREATE TABLE reviews (
            decision_id INTEGER PRIMARY KEY REFERENCES decisions(id),
            preferred TEXT NOT NULL,
            loss REAL NOT NULL CHECK (loss >= 0),
            reviewed_at TEXT NOT NULL
        )""",
        "ALTER TABLE games ADD COLUMN reviewed_at TEXT",
    ),
    # 4: player profiles (docs/journal.md, "Players and ratings"): the people and the computer levels, the
    # seats of each game linked to them, whether a game counts for the ratings, and each counted game's
    # ratings before and after it.
    (
        """CREATE TABLE players (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            name_key TEXT UNIQUE,
            kind TEXT NOT NULL CHECK (kind IN ('person', 'computer')),
            level TEXT UNIQUE,
            colour TEXT NOT NULL,
            symbol TEXT NOT NULL,
            languages TEXT NOT NULL,
            created_at TEXT NOT NULL,
            CHECK ((kind = 'person') = (name_key IS NOT NULL AND level IS NULL))
        )""",
        """CREATE TABLE seat_players (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seat INTEGER NOT NULL CHECK (seat >= 0),
            player_id INTEGER NOT NULL REFERENCES players(id),
            PRIMARY KEY (game_id, seat),
            UNIQUE (game_id, player_id)
        )""",
        "CREATE INDEX seat_players_by_player ON seat_players(player_id)",
        "ALTER TABLE games ADD COLUMN rated TEXT NOT NULL DEFAULT 'auto' CHECK (rated IN ('auto', 'yes', 'no'))",
        """CREATE TABLE ratings (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seat INTEGER NOT NULL,
            player_id INTEGER NOT NULL REFERENCES players(id),
            game TEXT NOT NULL,
            position INTEGER NOT NULL,
            mu_before REAL NOT NULL,
            sigma_before REAL NOT NULL,
            mu_after REAL NOT NULL,
            sigma_after REAL NOT NULL,
            PRIMARY KEY (game_id, seat)
        )""",
        "CREATE INDEX ratings_by_player ON ratings(player_id, game, position)",
        *(f"INSERT INTO players(name, kind, level, colour, symbol, languages, created_at) VALUES"
          f" ('', 'computer', '{level}', 'grey', 'cross', '[]', datetime('now'))" for level in ("easy", "normal", "hard")),
    ),
    # 5: the computer player of the expert level.
    (
        "INSERT INTO players(name, kind, level, colour, symbol, languages, created_at)"
        " SELECT '', 'computer', 'expert', 'grey', 'cross', '[]', datetime('now')"
        " WHERE NOT EXISTS (SELECT 1 FROM players WHERE kind = 'computer' AND level = 'expert')",
    ),
)
"""Schema migrations: entry n-1 takes ``PRAGMA user_version`` from n-1 to n, in one transaction."""

SCHEMA_VERSION = len(MIGRATIONS)
SETTINGS = ("brightness", "palette", "hints")
CHOSEN_SETUP = "chosen_setup"  # a settings row: the id of the game last set up on the host's page


class JournalError(CommandRejected):
    """The journal cannot be opened or written; ``str()`` says what failed, where, and what was kept."""


class _Unreadable(Exception):
    """The database file is damaged or not a database at all."""


class DamagedGame(ValueError):
    """A game whose rows in the journal cannot be read back; ``str()`` says what is damaged."""


def data_dir(explicit=None) -> Path:
    """Where the journal lives: ``explicit`` (``--data``), else $AZUL_TABLE_DATA, else the user's data dir."""
    if explicit:
        return Path(explicit)
    if os.environ.get(DATA_VARIABLE):
        return Path(os.environ[DATA_VARIABLE])
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "azul-table"


def check_data_dir(path: Path) -> Finding:
    """Whether the journal can live in ``path`` (the doctor's line): a writable directory, or one that can be made."""
    existing = path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if existing == path and not path.is_dir():
        return Finding("data directory", False, f"{path} is not a directory: choose another with --data or ${DATA_VARIABLE}")
    if not os.access(existing, os.W_OK | os.X_OK):
        user = pwd.getpwuid(os.geteuid()).pw_name
        return Finding("data directory", False, (
            f"{existing} is not writable by {user}: sudo chown -R {user} {existing}, or choose another with --data"))
    return Finding("data directory", True, f"{path} ({'exists' if existing == path else 'will be created'}), writable")


def utc_now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


@dataclasses.dataclass(frozen=True)
class Resumed:
    """The unfinished game found on start; pass ``setup`` and ``game`` to the new :class:`Session`."""

    game_id: int
    setup: Setup
    game: object
    decisions: int


@dataclasses.dataclass(frozen=True)
class GameSummary:
    """One line of the list of past games."""

    id: int
    game: str
    title: str
    players: tuple  # the seats' names, "" where a seat has none (each page says "Player N" in its language)
    started: str
    finished: Optional[str]
    status: str  # running, finished or stopped (left unfinished)
    origin: str  # table or import
    scores: Optional[tuple]
    winners: tuple
    decisions: int
    undone: int  # decisions taken back (steps back and agreed undos)
    damaged: Optional[str] = None  # what of the game's rows cannot be read back, if anything
    profiles: tuple = ()  # each seat's player profile id, None where the seat is linked to none
    levels: tuple = ()  # each seat's computer level, None for a person's seat (pages name a computer by it)


class Journal:
    """The table's SQLite journal in ``directory``; safe to share between threads.

    ``Session(setup, journal=journal)`` calls :meth:`new_game`, :meth:`record`
    and :meth:`revert`; a refusal to write raises :class:`JournalError`, which
    the session reports to the player as a refused command.
    """

    def __init__(self, directory, *, clock=utc_now):
        self.directory = Path(directory)
        self.path = self.directory / DATABASE_NAME
        self.notice: Optional[str] = None
        self._clock = clock
        self._lock = threading.RLock()
        self._game_id: Optional[int] = None
        self._ply = 0
        self._resuming: Optional[Resumed] = None
        self._saved_settings: Optional[tuple] = None
        self.version = 0  # counts the write transactions: what the pages' caches of journal reads are keyed on
        # counts those that can change who plays here and what they achieved: all but a move of a game that goes
        # on and a review still under way (what the pages of results are kept by: web_remote/kept.py)
        self.results_version = 0
        self._db = self._open()
        self.players = Players(self)
        self.ratings = Ratings(self)

    # -- opening ------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        try:
            self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as error:
            raise JournalError(f"cannot create the data directory {self.directory}: {error.strerror}") from None
        try:
            return self._connect()
        except _Unreadable as problem:
            moved = self._move_aside()
            self.notice = (f"the journal {self.path} could not be read ({problem}); it was moved to {moved} "
                           "and a new, empty journal was started")
            log.warning(self.notice)
            return self._connect()

    def _connect(self) -> sqlite3.Connection:
        """Open, check, migrate and prove writable; raises :class:`_Unreadable` or :class:`JournalError`."""
        db = None
        self._make_private()
        try:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10)
            if db.execute("PRAGMA journal_mode=WAL").fetchone()[0].lower() != "wal":
                raise JournalError(f"the journal {self.path} cannot use write-ahead logging here")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise _Unreadable(f"integrity check: {check}")
            self._migrate(db)
            with _transaction(db):
                db.execute("INSERT OR REPLACE INTO meta(name, value) VALUES ('last_start', ?)", (self._clock(),))
            return db
        except sqlite3.DatabaseError as error:
            if db is not None:
                db.close()
            if getattr(error, "sqlite_errorcode", None) in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
                raise _Unreadable(str(error)) from None
            raise JournalError(f"cannot write the journal {self.path}: {error}; give the table a writable "
                               f"data directory (--data DIR or ${DATA_VARIABLE})") from None
        except (_Unreadable, JournalError):
            if db is not None:
                db.close()
            raise

    def _make_private(self):
        """The journal's files readable by the table's user alone (SQLite gives its WAL files the database's mode).

        They hold the hidden state of a game in progress (the bag, face-down
        plates) and the digests of the seats' and hosts' credentials. Where the
        files cannot be made or changed, SQLite's own error says why.
        """
        with contextlib.suppress(OSError):
            os.close(os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600))
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(OSError):
                os.chmod(f"{self.path}{suffix}", 0o600)

    def _migrate(self, db):
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise JournalError(f"the journal {self.path} has schema version {version}, newer than this "
                               f"program's {SCHEMA_VERSION}; update azul-table or use another --data directory")
        for number in range(version, SCHEMA_VERSION):
            with _transaction(db):
                for statement in MIGRATIONS[number]:
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {number + 1}")

    def _move_aside(self) -> Path:
        """Rename the unreadable database (and its WAL files) to a free ``.unreadable-N`` name."""
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        for attempt in range(1000):
            target = self.path.with_name(f"{self.path.name}.unreadable-{stamp}" + (f"-{attempt}" if attempt else ""))
            if not any(Path(f"{target}{suffix}").exists() for suffix in ("", "-wal", "-shm")):
                break
        try:
            for suffix in ("-wal", "-shm", ""):
                source = Path(f"{self.path}{suffix}")
                if source.exists():
                    os.rename(source, f"{target}{suffix}")
        except OSError as error:
            raise JournalError(f"the journal {self.path} is unreadable and could not be moved aside: "
                               f"{error.strerror}") from None
        return target

    def close(self):
        with self._lock:
            self._db.close()

    @contextlib.contextmanager
    def writing(self, what: str, changes_results: bool = True):
        """One committed transaction; a failure rolls back and raises :class:`JournalError` naming ``what``
        (a :class:`CommandRejected` raised inside rolls back and passes through). ``changes_results``: False
        for what no page of results shows (a move of a game that goes on): :attr:`results_version` stays."""
        with self._lock:
            try:
                with _transaction(self._db):
                    yield self._db
            except sqlite3.Error as error:
                raise JournalError(f"the journal could not {what} ({error}); nothing was changed") from None
            finally:
                self.version += 1  # after a commit or a rollback alike: caches keyed on it are never stale
                if changes_results:
                    self.results_version += 1

    @contextlib.contextmanager
    def reading(self):
        """The database, for reading, while no other thread uses it."""
        with self._lock:
            yield self._db

    def now(self) -> str:
        """The journal's clock: the time it stamps on what it keeps."""
        return self._clock()

    # -- the session's hooks -------------------------------------------------

    def resume(self) -> Optional[Resumed]:
        """The latest unfinished game played at this table, ready to continue, or None.

        The game resumes from the last decision whose saved state reads back
        (with every one before it); later decisions are kept in the journal
        marked ``damaged`` and :attr:`notice` names them. A game whose setup or
        starting position cannot be read is left in the journal, marked
        stopped, and :attr:`notice` says so.
        """
        with self._lock:
            row = self._db.execute(
                "SELECT id FROM games WHERE status = 'running' AND origin = 'table' ORDER BY id DESC LIMIT 1"
            ).fetchone()
            if row is None:
                return None
            game_id = row[0]
            try:
                setup = self._setup(game_id)
                spec = games.spec(setup.game)
                game = _read_state(spec, self._start_state(game_id), "its starting position")
            except DamagedGame as error:
                self.notice = f"game {game_id} cannot be resumed ({error}); it stays in the journal, stopped"
                log.warning(self.notice)
                with self.writing("stop the game it cannot resume") as db:
                    db.execute("UPDATE games SET status = 'stopped' WHERE id = ?", (game_id,))
                return None
            line = self._line(game_id)
            kept = 0
            for ply, (_, notation, _, state) in enumerate(line, 1):
                try:
                    game = _read_state(spec, state, f"decision {ply} ({notation})")
                except DamagedGame as error:
                    self._drop_damaged(game_id, kept, line, str(error))
                    break
                kept = ply
        self._resuming = Resumed(game_id, setup, game, kept)
        return self._resuming

    def _drop_damaged(self, game_id: int, kept: int, line: list, problem: str):
        """Mark every decision after ``kept`` damaged (they stay in the journal) and say so in :attr:`notice`."""
        dropped = ", ".join(f"{ply} ({notation})" for ply, (_, notation, _, _) in enumerate(line[kept:], kept + 1))
        self.notice = (f"game {game_id}: {problem}; it resumes after decision {kept}, and the decisions "
                       f"{dropped} were dropped (kept in the journal, marked damaged)")
        log.warning(self.notice)
        with self.writing("set the damaged decisions aside") as db:
            db.execute("UPDATE decisions SET reverted = 'damaged', reverted_at = ? WHERE game_id = ? AND ply > ?"
                       " AND reverted IS NULL", (self._clock(), game_id, kept))

    def new_game(self, setup: Setup, game, credentials: Credentials, *, chosen: bool = False) -> tuple:
        """Called by the session as a game starts: (decisions so far, credentials).

        The decisions are (seat, notation, before, revealed). For the game
        :meth:`resume` returned they are its restored line of play, with the
        credentials kept for it (``credentials`` only if those cannot be read);
        any other game is a new one: it is stored with its starting position
        and ``credentials``, and an unfinished game before it is marked stopped.
        A game the host ``chosen`` on the setup page becomes the :meth:`last_setup`.
        """
        with self._lock:
            if self._resuming is not None and game is self._resuming.game:
                resumed, self._resuming = self._resuming, None
                self._game_id, self._ply = resumed.game_id, resumed.decisions
                kept = self._credentials(resumed.game_id)
                if kept is None:
                    self.keep_credentials(credentials)
                return self._restore_history(resumed.game_id, setup, resumed.decisions), kept or credentials
        with self.writing("start the new game") as db:
            db.execute("UPDATE games SET status = 'stopped' WHERE status = 'running'")
            game_id = self._insert_game(db, setup, game.to_json(), "table", self._clock())
            db.execute("UPDATE games SET credentials = ? WHERE id = ?", (credentials.to_json(), game_id))
            self._link_seats(db, game_id, setup)
            if chosen:
                db.execute("INSERT OR REPLACE INTO settings(name, value) VALUES (?, ?)", (CHOSEN_SETUP, str(game_id)))
        self._game_id, self._ply = game_id, 0
        return [], credentials

    def _link_seats(self, db, game_id: int, setup: Setup):
        """Link a new game's seats to their players: the computer's to its level, the others as set up."""
        for seat, played in enumerate(setup.seats):
            if played.kind == "ai":
                self.players.link_in(db, game_id, seat, self.players.computer_in(db, played.level), computer=True)
            elif played.player is not None:
                self.players.link_in(db, game_id, seat, played.player)

    def seat_player(self, seat: int, player: Optional[int] = None, new: Optional[dict] = None):
        """Link a seat of the running game to a known ``player``, or to a new profile made from ``new``
        (``name`` and, optionally, ``colour``, ``symbol``, ``languages``): the profile's (id, name).
        :raise ProfileError: an unknown player, a name taken, a player already seated in this game."""
        with self.writing("keep who sits in the seat") as db:
            if new is not None:
                player = self.players.create_in(db, new.get("name"), colour=new.get("colour"),
                                                symbol=new.get("symbol"), languages=new.get("languages", ()))
            self.players.link_in(db, self._game_id, seat, player)
            return player, self.players.name_in(db, player)

    def seat_learning(self, seat: int, learning: bool):
        """Keep whether the running game's ``seat`` plays its first game (the game's setup, as read back)."""
        with self.writing("keep the seat's first-game choice") as db:
            seats = json.loads(db.execute("SELECT seats FROM games WHERE id = ?", (self._game_id,)).fetchone()[0])
            seats[seat]["learning"] = learning
            if not learning:
                del seats[seat]["learning"]
            db.execute("UPDATE games SET seats = ? WHERE id = ?", (json.dumps(seats), self._game_id))

    def keep_credentials(self, credentials: Credentials):
        """Store the running game's credentials (tokens only as digests); raises :class:`JournalError`."""
        with self.writing("keep the seats' phones") as db:
            db.execute("UPDATE games SET credentials = ? WHERE id = ?", (credentials.to_json(), self._game_id))

    def _credentials(self, game_id: int) -> Optional[Credentials]:
        text = self._db.execute("SELECT credentials FROM games WHERE id = ?", (game_id,)).fetchone()[0]
        try:
            return None if text is None else Credentials.from_json(text)
        except ValueError as error:
            log.warning("game %s: its phones' seats cannot be read (%s); phones join again", game_id, error)
            return None

    def record(self, session, decision):
        """Commit ``decision`` with the game state after it (``session.game``); returns once it is durable."""
        game = session.game
        with self.writing(f"save the move {decision.notation}, so it was not played",
                          changes_results=game.is_over()) as db:
            db.execute(
                "INSERT INTO decisions(game_id, ply, seat, notation, revealed, state, decided_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (self._game_id, self._ply + 1, decision.seat, decision.notation, int(decision.revealed),
                 game.to_json(), self._clock()),
            )
            if game.is_over():
                db.execute(
                    "UPDATE games SET status = 'finished', finished_at = ?, scores = ?, winners = ? WHERE id = ?",
                    (self._clock(), json.dumps(list(game.scores())), json.dumps(list(game.winners())), self._game_id),
                )
                self.ratings.game_finished_in(db, self._game_id)
        self._ply += 1

    def revert(self, session, decisions, reason: str):
        """Mark ``decisions``, the last ones played, taken back (``reason`` 'back' or 'undo'), all in one
        transaction, so a power cut keeps all of them or none; they stay in the journal."""
        first = self._ply - len(decisions) + 1
        with self.writing(f"record the {'undo' if reason == 'undo' else 'step back'}") as db:
            changed = db.execute(
                "UPDATE decisions SET reverted = ?, reverted_at = ? WHERE game_id = ? AND ply BETWEEN ? AND ?"
                " AND reverted IS NULL",
                (reason, self._clock(), self._game_id, first, self._ply),
            ).rowcount
            if changed != len(decisions) or not decisions or first < 1:
                raise sqlite3.IntegrityError(f"no decisions {first}-{self._ply} of game {self._game_id} to take back")
            db.execute(
                "UPDATE games SET status = 'running', finished_at = NULL, scores = NULL, winners = NULL,"
                " reviewed_at = NULL WHERE id = ? AND status = 'finished'",
                (self._game_id,),
            )
            self.ratings.game_reopened_in(db, self._game_id)
        self._ply = first - 1

    # -- settings --------------------------------------------------------------

    def settings(self) -> dict:
        """The table settings last kept (brightness, palette, hints), as ``Session`` keyword arguments."""
        with self._lock:
            rows = self._db.execute("SELECT name, value FROM settings").fetchall()
        kept = {}
        for name, value in rows:
            try:
                kept[name] = json.loads(value)
            except ValueError:
                log.warning("the kept setting %s cannot be read (%r); the default is used", name, value)
        return {name: value for name, value in kept.items() if name in SETTINGS}

    def keep_settings(self, snapshot):
        """Session subscriber: store the settings when they change (a failure is logged, the table plays on)."""
        if snapshot.settings == self._saved_settings:
            return
        try:
            with self.writing("keep the settings") as db:
                db.executemany("INSERT OR REPLACE INTO settings(name, value) VALUES (?, ?)",
                               [(name, json.dumps(value)) for name, value in snapshot.settings if name in SETTINGS])
        except JournalError as error:
            log.warning("%s", error)
            return
        self._saved_settings = snapshot.settings

    def last_setup(self) -> Optional[Setup]:
        """What the host's setup page starts from: the setup of the game last chosen there (it outlives
        restarts and the games the command line starts), else of the newest game started at the
        table; None when there is neither (or neither reads back)."""
        with self._lock:
            chosen = self._db.execute("SELECT value FROM settings WHERE name = ?", (CHOSEN_SETUP,)).fetchone()
            newest = self._db.execute("SELECT id FROM games WHERE origin = 'table' ORDER BY id DESC LIMIT 1").fetchone()
            for row in (chosen, newest):
                known = row is not None and self._db.execute("SELECT 1 FROM games WHERE id = ?", row).fetchone()
                if known:
                    try:
                        return self._setup(int(row[0]))
                    except DamagedGame as error:
                        log.warning("the last setup (game %s) cannot be read: %s", row[0], error)
        return None

    # -- past games and records ------------------------------------------------

    def games(self) -> list:
        """Every game in the journal, newest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.game, g.seats, g.started_at, g.finished_at, g.status, g.origin, g.scores, g.winners,"
                " (SELECT COUNT(*) FROM decisions d WHERE d.game_id = g.id AND d.reverted IS NULL),"
                " (SELECT COUNT(*) FROM decisions d WHERE d.game_id = g.id AND d.reverted IN ('back', 'undo'))"
                " FROM games g ORDER BY g.id DESC"
            ).fetchall()
            links = self._links()
        summaries = []
        for game_id, game, seats, started, finished, status, origin, scores, winners, decisions, undone in rows:
            try:
                linked = links.get(game_id, {})
                played = [_linked(Seat(kind=str(seat.get("kind", "rig")), name=str(seat.get("name", "")),
                                       level=str(seat.get("level", "normal"))), linked.get(index))
                          for index, seat in enumerate(json.loads(seats))]
                names = tuple(seat.name for seat in played)
                summaries.append(GameSummary(
                    game_id, game, games.spec(game).title, names, started, finished,
                    status, origin, tuple(json.loads(scores)) if scores else None,
                    tuple(json.loads(winners)) if winners else (), decisions, undone,
                    profiles=tuple(linked.get(index, (None,))[0] for index in range(len(names))),
                    levels=tuple(seat.level if seat.kind == "ai" else None for seat in played),
                ))
            except (ValueError, TypeError, AttributeError, KeyError) as error:
                summaries.append(GameSummary(game_id, str(game), str(game), (), started, finished, status, origin,
                                             None, (), decisions, undone, damaged=f"its list entry ({error})"))
        return summaries

    def status(self, game_id: int) -> Optional[tuple]:
        """(status, origin) of game ``game_id``: one row, for the pages that ask about one game; None if there is none."""
        with self._lock:
            return self._db.execute("SELECT status, origin FROM games WHERE id = ?", (game_id,)).fetchone()

    def undos(self, game_id: int) -> list:
        """Every decision taken back in a game: (ply, seat, notation, 'back' or 'undo', when)."""
        with self._lock:
            return self._db.execute(
                "SELECT ply, seat, notation, reverted, reverted_at FROM decisions"
                " WHERE game_id = ? AND reverted IN ('back', 'undo') ORDER BY id", (game_id,)
            ).fetchall()

    def export(self, game_id: int) -> Record:
        """Game ``game_id`` (finished or running) as a :class:`Record`.

        It is replayed before it is handed out, so every page built from it can trust it.
        :raise KeyError: there is no such game; :raise DamagedGame: its rows cannot be read back or replayed.
        """
        with self._lock:
            row = self._db.execute(
                "SELECT start_state, started_at, finished_at, scores, winners FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if row is None:
                raise KeyError(f"there is no game {game_id} in the journal")
            start, started, finished, scores, winners = row
            setup = self._setup(game_id)
            moves = tuple(notation for _, notation, _, _ in self._line(game_id))
        try:
            record = Record(setup=setup, start=start, moves=moves,
                            final_scores=tuple(json.loads(scores)) if scores else None,
                            winners=tuple(json.loads(winners)) if winners else (), started=started, finished=finished,
                            ratings=tuple(self.ratings.of_game(game_id)))
            record = with_start(record, replay(record)[0])  # also a start kept whole by earlier versions
        except (RecordError, ValueError, TypeError) as error:
            raise DamagedGame(f"game {game_id} cannot be replayed: {error}") from None
        return record

    def import_record(self, record: Record) -> int:
        """Store a record (checked by replaying it) as a past game; returns its id. Never resumed on start."""
        positions = replay(record)
        spec = games.spec(record.setup.game)
        final = positions[-1]
        if final.is_over() and record.final_scores is None:
            raise RecordError("the record's moves finish the game but it gives no final scores")
        started = record.started or self._clock()
        with self.writing("import the record") as db:
            game_id = self._insert_game(db, record.setup, positions[0].to_json(), "import", started)
            db.executemany(
                "INSERT INTO decisions(game_id, ply, seat, notation, revealed, state, decided_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(game_id, ply, before.current_player, notation, int(spec.revealed(before, after)), after.to_json(),
                  started) for ply, (notation, before, after) in
                 enumerate(zip(record.moves, positions, positions[1:]), 1)],
            )
            db.execute(
                "UPDATE games SET status = ?, finished_at = ?, scores = ?, winners = ? WHERE id = ?",
                ("finished" if final.is_over() else "stopped", record.finished,
                 json.dumps(list(final.scores())) if final.is_over() else None,
                 json.dumps(list(final.winners())) if final.is_over() else None, game_id),
            )
        return game_id

    # -- the game review -----------------------------------------------------------

    def games_to_review(self) -> list:
        """Ids of the finished games played at this table whose review is not complete, oldest first."""
        with self._lock:
            return [row[0] for row in self._db.execute(
                "SELECT id FROM games WHERE status = 'finished' AND origin = 'table' AND reviewed_at IS NULL"
                " ORDER BY id")]

    def review_rows(self, game_id: int) -> list:
        """The standing decisions of a game, in order: (decision id, ply, seat, notation, preferred, loss);
        preferred and loss are None for a decision not reviewed yet."""
        with self._lock:
            return self._db.execute(
                "SELECT d.id, d.ply, d.seat, d.notation, r.preferred, r.loss FROM decisions d"
                " LEFT JOIN reviews r ON r.decision_id = d.id"
                " WHERE d.game_id = ? AND d.reverted IS NULL ORDER BY d.ply", (game_id,)).fetchall()

    def review_complete(self, game_id: int) -> bool:
        """Whether the review of a game is complete (every decision of a human seat reviewed)."""
        with self._lock:
            row = self._db.execute("SELECT reviewed_at FROM games WHERE id = ?", (game_id,)).fetchone()
        return row is not None and row[0] is not None

    def keep_review(self, decision_id: int, preferred: str, loss: float) -> bool:
        """Store the review of one decision; False (nothing kept) when it was taken back meanwhile. The results
        show a game's review once :meth:`finish_review` marks it complete, not before."""
        with self.writing("keep the review of a decision", changes_results=False) as db:
            return db.execute(
                "INSERT OR REPLACE INTO reviews(decision_id, preferred, loss, reviewed_at)"
                " SELECT id, ?, ?, ? FROM decisions WHERE id = ? AND reverted IS NULL",
                (preferred, loss, self._clock(), decision_id)).rowcount == 1

    def finish_review(self, game_id: int):
        """Mark a game's review complete, if the game is still finished."""
        with self.writing("mark the review complete") as db:
            db.execute("UPDATE games SET reviewed_at = ? WHERE id = ? AND status = 'finished'",
                       (self._clock(), game_id))

    @property
    def current_game(self) -> Optional[int]:
        """The id of the game at the table now (None before the session started one)."""
        return self._game_id

    # -- reading rows ------------------------------------------------------------

    def _insert_game(self, db, setup: Setup, start_state: str, origin: str, started: str) -> int:
        seats = json.dumps([_seat_row(s) for s in setup.seats])
        return db.execute(
            "INSERT INTO games(game, seats, seed, flags, start_state, status, origin, started_at)"
            " VALUES (?, ?, ?, ?, ?, 'running', ?, ?)",
            (setup.game, seats, setup.seed, json.dumps(dict(setup.flags)), start_state, origin, started),
        ).lastrowid

    def _setup(self, game_id: int) -> Setup:
        """The setup a game was started with. :raise DamagedGame: its row cannot be read back."""
        game, seats, seed, flags = self._db.execute(
            "SELECT game, seats, seed, flags FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        links = self._links(game_id)
        try:
            flags = json.loads(flags)
            if not isinstance(flags, dict):
                raise ValueError(f"flags are {type(flags).__name__}, not an object")
            return Setup(game=game, seats=tuple(_linked(Seat(**seat), links.get(index))
                                                for index, seat in enumerate(json.loads(seats))),
                         seed=seed, flags=tuple(sorted((name, _frozen(value)) for name, value in flags.items())))
        except (ValueError, TypeError, AttributeError, KeyError) as error:
            raise DamagedGame(f"its setup cannot be read: {error}") from None

    def _links(self, game_id=None) -> dict:
        """seat -> (player id, name) of one game's linked seats; with no ``game_id``, game id -> that, for all."""
        rows = self._db.execute(
            "SELECT s.game_id, s.seat, s.player_id, p.name FROM seat_players s JOIN players p ON p.id = s.player_id"
            + ("" if game_id is None else " WHERE s.game_id = ?"), () if game_id is None else (game_id,))
        links = {}
        for game, seat, player, name in rows:
            links.setdefault(game, {})[seat] = (player, name)
        return links if game_id is None else links.get(game_id, {})

    def _start_state(self, game_id: int) -> str:
        return self._db.execute("SELECT start_state FROM games WHERE id = ?", (game_id,)).fetchone()[0]

    def _line(self, game_id: int) -> list:
        """The decisions that stand, in order: (seat, notation, revealed, state after)."""
        return self._db.execute(
            "SELECT seat, notation, revealed, state FROM decisions WHERE game_id = ? AND reverted IS NULL ORDER BY ply",
            (game_id,),
        ).fetchall()

    def _restore_history(self, game_id: int, setup: Setup, decisions: int) -> list:
        """The first ``decisions`` standing decisions, each with the position before it."""
        spec = games.spec(setup.game)
        states = [self._start_state(game_id)]
        history = []
        for seat, notation, revealed, state in self._line(game_id)[:decisions]:
            history.append((seat, notation, spec.from_json(states[-1]), bool(revealed)))
            states.append(state)
        return history


def _read_state(spec, text: str, what: str):
    """A saved game state read back. :raise DamagedGame: naming ``what`` when it cannot be."""
    try:
        return spec.from_json(text)
    except (ValueError, TypeError, KeyError, AttributeError, IndexError, OverflowError) as error:
        raise DamagedGame(f"{what} cannot be read back ({error})") from None


def _seat_row(seat: Seat) -> dict:
    """A seat as the games table keeps it (the profile link is a row of its own)."""
    row = {"kind": seat.kind, "name": seat.name, "level": seat.level}
    if seat.learning:
        row["learning"] = True
    return row


def _linked(seat: Seat, link: Optional[tuple]) -> Seat:
    """A seat as its game shows it now: with its player, under the player's name (a computer keeps the seat's)."""
    if link is None:
        return seat
    player, name = link
    return dataclasses.replace(seat, player=player, name=name or seat.name)


def _frozen(value):
    """A rules flag's value as kept in a setup: lists become tuples, as the setup form makes them."""
    return tuple(value) if isinstance(value, list) else value


@contextlib.contextmanager
def _transaction(db):
    """BEGIN IMMEDIATE ... COMMIT, rolled back if anything in between fails."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
        raise
