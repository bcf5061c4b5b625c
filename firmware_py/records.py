"""Game records: one JSON file per game that anyone can keep, share and replay.

A record holds the setup (game, players, seed, rules flags), the exact
starting position (RNG state included, so a game dealt from a random seed
replays too), the line of play in notation and, once the game is over, the
final scores. Replaying it from the start reproduces every position; loading
checks every move and the final scores, so a damaged or edited record is
refused with a message naming what is wrong. The format is documented in
``docs/notation.md`` (section "Game records").
"""
import dataclasses
import datetime
import json
from typing import Optional

from firmware_py import games, jsonlimits
from firmware_py.profiles import ProfileError, clean_name
from firmware_py.session import MAX_NAME, Play, Seat, Session, Setup, Snapshot

FORMAT = "azul-table-record"
VERSION = 1
MAX_MOVES = 2000  # far beyond any real game (a 4-player Summer Pavilion takes about 200 decisions)
MAX_NOTATION = 40
MAX_TIME_TEXT = 40
SEED_RANGE = (-2 ** 63, 2 ** 63)  # what the journal's INTEGER column holds
_KEYS = {"format", "version", "game", "players", "seed", "flags", "start", "moves",
         "final_scores", "winners", "started", "finished", "ratings"}


class RecordError(ValueError):
    """A record file that cannot be read or does not replay; ``str()`` says what is wrong."""


@dataclasses.dataclass(frozen=True)
class Record:
    """One game as a record: its setup, starting position, moves and (once over) final scores."""

    setup: Setup
    start: str  # the game's to_json() before the first decision
    moves: tuple  # notation of every decision in the line of play
    final_scores: Optional[tuple] = None  # None while the game is running
    winners: tuple = ()
    started: Optional[str] = None  # ISO 8601 times, UTC
    finished: Optional[str] = None
    ratings: tuple = ()  # the table's ratings.RatedSeat rows of the game: what it did to each rated player

    def to_json(self) -> str:
        """The record file's text (docs/notation.md, "Game records"), compact: its size follows the game's."""
        return json.dumps({
            "format": FORMAT,
            "version": VERSION,
            "game": self.setup.game,
            "players": [{"name": s.name, "kind": s.kind, "level": s.level} for s in self.setup.seats],
            "seed": self.setup.seed,
            "flags": dict(self.setup.flags),
            "start": json.loads(self.start),
            "moves": list(self.moves),
            "final_scores": None if self.final_scores is None else list(self.final_scores),
            "winners": list(self.winners),
            "started": self.started,
            "finished": self.finished,
            **({"ratings": [{"seat": row.seat, "before": row.before.to_dict(), "after": row.after.to_dict()}
                            for row in self.ratings]} if self.ratings else {}),
        }, separators=(",", ":"))

    @classmethod
    def from_json(cls, text) -> "Record":
        """Read a record file and replay it to check it; raises :class:`RecordError`.

        Only what the record format and the rules core know is kept: the start
        position is the one the core read, written by the core again.
        """
        record = _parse(text)
        return with_start(record, replay(record)[0])


def with_start(record: Record, start) -> Record:
    """``record`` whose start position is the core's own text of ``start`` (its replayed first position).

    A saved game's envelope may hold keys the core never reads; written again,
    only the position itself is left, so nothing else is kept or handed out.
    """
    return dataclasses.replace(record, start=start.to_json())


def replay(record: Record) -> list:
    """Every position of ``record``: the start, then the game after each move.

    Checks everything a replay relies on: the start position loads and is a
    game for exactly the players the record lists with its rules flags, every
    move is legal in turn, and the final scores and winners (when given) are
    the ones the moves reach. The start position is outside input, so any
    error the rules core raises while loading or playing it is a bad record.
    """
    spec = games.spec(record.setup.game)
    try:
        game = spec.from_json(record.start)
        players = len(game.scores())
        state = game.to_dict()
    except Exception as error:  # noqa: BLE001 - see above: whatever the core refuses, the record is bad
        raise RecordError(f"the record's start position cannot be loaded: {error}") from None
    if players != len(record.setup.seats):
        raise RecordError(f"the start position is for {players} players but the record lists {len(record.setup.seats)}")
    for name, value in record.setup.flags:
        if name in state and _flag_value(state[name]) != value:
            raise RecordError(f"the record says {name} {value!r} but its start position has {state[name]!r}")
    positions = [game]
    for ply, notation in enumerate(record.moves, 1):
        if game.is_over():
            raise RecordError(f"move {ply} ({notation}) comes after the end of the game")
        game = game.copy()
        try:
            game.push(notation)
        except Exception as error:  # noqa: BLE001 - illegal moves raise ValueError; a crafted start may raise more
            raise RecordError(f"move {ply} ({notation}) cannot be played: {error}") from None
        positions.append(game)
    if record.final_scores is not None:
        if not game.is_over():
            raise RecordError(f"the record gives final scores but its {len(record.moves)} moves do not finish the game")
        if tuple(game.scores()) != record.final_scores:
            raise RecordError(f"the moves end with scores {list(game.scores())}, "
                              f"not the recorded final scores {list(record.final_scores)}")
        if record.winners and tuple(game.winners()) != record.winners:
            raise RecordError(f"the moves end with winners {list(game.winners())}, "
                              f"not the recorded winners {list(record.winners)}")
    return positions


def _flag_value(value):
    """A rules flag as the setup keeps it (lists become tuples, so they compare and hash)."""
    return tuple(value) if isinstance(value, list) else value


def position_snapshot(record: Record, ply: int, *, brightness=1.0, palette="standard") -> Snapshot:
    """The table as it stood after move ``ply`` of ``record``, as the session showed it (LEDs, pages).

    The snapshot is built by the same code as a live game's: a session of its
    own plays the last of the moves. The moves before it are played on the
    bare game: a session works out every option's preview after each move,
    in a long game a hundred times the work of the moves themselves.
    """
    if not 0 <= ply <= len(record.moves):
        raise RecordError(f"the game has moves 0-{len(record.moves)}, not {ply}")
    game = games.spec(record.setup.game).from_json(record.start)
    history = []
    for notation in record.moves[:max(0, ply - 1)]:
        history.append((game.current_player, notation))
        game.push(notation)
    session = Session(record.setup, game=game, brightness=brightness, palette=palette)
    if ply:
        session.apply(Play(session.snapshot.current_player, record.moves[ply - 1]))
    return dataclasses.replace(session.snapshot, history=tuple(history) + session.snapshot.history)


# Reading ------------------------------------------------------------------


def _parse(text) -> Record:
    try:
        doc = jsonlimits.loads(text)
    except jsonlimits.JSONRefused as error:
        raise RecordError(f"the record is not valid JSON: {error}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise RecordError(f'not a game record (missing "format": "{FORMAT}")')
    if doc.get("version") != VERSION:
        raise RecordError(f"record version {doc.get('version')!r} is not supported (expected {VERSION})")
    unknown = set(doc) - _KEYS
    if unknown:
        raise RecordError(f"unknown record fields: {', '.join(sorted(unknown))}")
    setup = _setup(doc)
    start = doc.get("start")
    if start is None:
        if setup.seed is None:
            raise RecordError('a record needs a "start" position or a "seed" to deal from')
        start_text = setup.new_game().to_json()
    elif isinstance(start, dict):
        start_text = json.dumps(start, separators=(",", ":"), sort_keys=True)
    else:
        raise RecordError('"start" must be a saved-game object')
    ratings = doc.get("ratings", [])  # what the game did to the ratings where it was played: read, not kept
    if not isinstance(ratings, list) or len(ratings) > len(setup.seats) or not all(isinstance(r, dict) for r in ratings):
        raise RecordError('"ratings" must be a list of objects, one per rated seat at most')
    moves = doc.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) and 0 < len(m) <= MAX_NOTATION for m in moves):
        raise RecordError('"moves" must be a list of moves in notation')
    if len(moves) > MAX_MOVES:
        raise RecordError(f"the record has {len(moves)} moves; a game has far fewer than {MAX_MOVES}")
    return Record(
        setup=setup,
        start=start_text,
        moves=tuple(moves),
        final_scores=_ints_or_none(doc, "final_scores", len(setup.seats)),
        winners=tuple(_ints_or_none(doc, "winners", None) or ()),
        started=_text_or_none(doc, "started"),
        finished=_text_or_none(doc, "finished"),
    )


def _setup(doc) -> Setup:
    game = doc.get("game")
    if not isinstance(game, str) or game not in games.GAMES:
        raise RecordError(f"unknown game {str(game)[:40]!r} (games: {', '.join(games.GAMES)})")
    spec = games.spec(game)
    players = doc.get("players")
    if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
        raise RecordError('"players" must be a list of objects with "name", "kind" and "level"')
    for player in players:
        name, kind, level = player.get("name", ""), player.get("kind", "rig"), player.get("level", "normal")
        if not (isinstance(name, str) and isinstance(kind, str) and isinstance(level, str)):
            raise RecordError('a player\'s "name", "kind" and "level" must be texts')
        if len(name) > MAX_NAME:
            raise RecordError(f"player names are at most {MAX_NAME} characters")
        try:
            player["name"] = clean_name(name, empty=True)
        except ProfileError as error:
            raise RecordError(f"a player's name: {error}") from None
    flags = doc.get("flags", {})
    if not isinstance(flags, dict):
        raise RecordError('"flags" must be an object of rules flags')
    for name, value in flags.items():
        if name not in spec.flags or _flag_value(value) not in spec.flags[name]:
            raise RecordError(f"{spec.title} has no rules flag {name} {str(value)[:60]}")
    seed = doc.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                             or not SEED_RANGE[0] <= seed < SEED_RANGE[1]):
        raise RecordError(f'"seed" must be an integer of at most 64 bits or null, not {str(seed)[:40]}')
    try:
        seats = tuple(Seat(kind=p.get("kind", "rig"), name=p.get("name", ""), level=p.get("level", "normal"))
                      for p in players)
        return Setup(game=game, seats=seats, seed=seed,
                     flags=tuple(sorted((name, _flag_value(value)) for name, value in flags.items())))
    except ValueError as error:
        raise RecordError(f"the record's setup is not valid: {error}") from None


def _ints_or_none(doc, key, length):
    value = doc.get(key)
    if value is None:
        return None
    if (not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            or (length is not None and len(value) != length)):
        size = f"{length} " if length is not None else ""
        raise RecordError(f'"{key}" must be a list of {size}integers or null')
    return tuple(value)


def _text_or_none(doc, key):
    value = doc.get(key)
    if value is None:
        return None
    try:
        if not isinstance(value, str) or len(value) > MAX_TIME_TEXT:
            raise ValueError
        datetime.datetime.fromisoformat(value)
    except ValueError:
        raise RecordError(f'"{key}" must be an ISO 8601 date-time text or null') from None
    return value
