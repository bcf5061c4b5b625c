"""One game at the table, owned by one thread.

Buttons, phones and the AI never touch the game: they send commands through a
queue and the session thread applies them one at a time, so no lock guards
the rules core. After every change the session builds an immutable
:class:`Snapshot` and hands it to its subscribers (the LED renderer, the web
page's event streams). A command that is stale, out of turn or illegal is
rejected with a reason and changes nothing.
"""
import concurrent.futures
import dataclasses
import itertools
import logging
import queue
import secrets
import threading
import time
from typing import Callable, Optional

from firmware_py import games
from firmware_py import controls
from firmware_py.controls import HostMenu, SeatControls
from firmware_py.credentials import HOST_CODE_DIGITS, Credentials, new_code, same_code
from firmware_py.players import HINT_LEVEL, Thinker

log = logging.getLogger(__name__)

SEAT_KINDS = ("rig", "phone", "ai")
MAX_NAME = 24  # characters of a player's name: the setup page's limit, and a record's
AI_LEVELS = ("easy", "normal", "hard", "expert")
LEARNING_LEVEL = "easy"  # the strongest level the computer plays at while someone learns the game
UNDO_REQUEST_S = 60.0  # an unanswered undo request lapses after this
HOST_CODE_S = 600.0  # a host code shown at the rig works (once) for this long
JOIN_GUESSES_PER_CODE = 10  # wrong join codes a code takes before the table draws a new one...
JOIN_CODE_MIN_S = 90.0  # ...but a code lives this long at least, for a player to read and type it


class CommandRejected(ValueError):
    """A command the session refused; ``str()`` is the reason, for the player."""


class WrongCode(CommandRejected):
    """A join or host code that does not match (not flashed on the LEDs: guesses are no one's input).

    ``counts``: the code was judged against a live one, so it counts as a guess.
    """

    quiet = True
    counts = True


class NoHostCode(WrongCode):
    """A host code sent while none is live: there was nothing to guess, so it costs the sender nothing."""

    counts = False


class NotAllowed(CommandRejected):
    """A credential that does not hold this seat, or the host role, in the game being played now."""

    quiet = True


@dataclasses.dataclass(frozen=True)
class Seat:
    """Who plays a seat: at the rig's buttons, on a phone, or the computer."""

    kind: str = "rig"
    name: str = ""
    level: str = "normal"
    player: Optional[int] = None  # the player profile in the journal (firmware_py.profiles) who plays it
    learning: bool = False  # a first game: the phone explains each decision, the computer plays to be beaten

    def __post_init__(self):
        if not isinstance(self.learning, bool):
            raise ValueError(f"learning must be true or false, not {self.learning!r}")
        if self.kind not in SEAT_KINDS:
            raise ValueError(f"seat kind must be one of {', '.join(SEAT_KINDS)}, not {self.kind!r}")
        if self.level not in AI_LEVELS:
            raise ValueError(f"AI level must be one of {', '.join(AI_LEVELS)}, not {self.level!r}")


@dataclasses.dataclass(frozen=True)
class Setup:
    """Everything needed to start (or restart) a game."""

    game: str = "duel"
    seats: tuple = (Seat(), Seat())
    seed: Optional[int] = None
    flags: tuple = ()  # (name, value) rules flags passed to the game's constructor

    def __post_init__(self):
        spec = games.spec(self.game)
        if not spec.min_players <= len(self.seats) <= spec.max_players:
            raise ValueError(
                f"{spec.title} is for {spec.min_players}-{spec.max_players} players, not {len(self.seats)}"
            )
        unknown = {name for name, _ in self.flags} - set(spec.flags)
        if unknown:
            raise ValueError(f"unknown rules flag for {spec.title}: {', '.join(sorted(unknown))}")

    def new_game(self):
        return games.spec(self.game).new(len(self.seats), self.seed, dict(self.flags))

    def name_of(self, seat: int) -> str:
        return self.seats[seat].name or f"Player {seat + 1}"


# Commands -----------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Play:
    """Play ``move`` (a Move or its notation) for ``seat``; ``version`` guards against stale screens."""

    seat: int
    move: object
    version: Optional[int] = None
    credential: Optional[str] = None  # token digest of a phone; None for the rig and the console


@dataclasses.dataclass(frozen=True)
class Press:
    """A button event from the rig: ``seat`` None is the HOST button; ``kind`` is 'press' or 'hold'."""

    seat: Optional[int]
    button: str
    kind: str = "press"


@dataclasses.dataclass(frozen=True)
class RequestUndo:
    """``seat`` asks to take back the last decision (see :meth:`Session._request_undo` for who must agree)."""

    seat: int
    credential: Optional[str] = None


@dataclasses.dataclass(frozen=True)
class StepBack:
    """Take back one's own last decision within the turn, as BACK does at the rig (nobody is asked)."""

    seat: int
    credential: Optional[str] = None


@dataclasses.dataclass(frozen=True)
class AnswerUndo:
    seat: int
    accept: bool
    credential: Optional[str] = None


@dataclasses.dataclass(frozen=True)
class RequestHint:
    """Ask the computer for the best option of ``seat``'s pending decision."""

    seat: int
    credential: Optional[str] = None


@dataclasses.dataclass(frozen=True)
class Join:
    """A phone takes the free phone seat ``seat`` with the game's join code; ``credential`` is its new token's digest."""

    seat: int
    code: object
    credential: str
    player: Optional[int] = None  # the known player who sits down, or...
    new_player: Optional[dict] = None  # ...a new profile's name (and colour, symbol, languages)
    learning: Optional[bool] = None  # this is the player's first game (None: as the host set the seat up)


@dataclasses.dataclass(frozen=True)
class HostLogin:
    """A phone becomes a host of this game with the host code shown at the rig."""

    code: object
    credential: str


@dataclasses.dataclass(frozen=True)
class ReleaseSeat:
    """The host frees ``seat``: the phone holding it can no longer act."""

    seat: int
    credential: Optional[str] = None


@dataclasses.dataclass(frozen=True)
class _Answer:
    """A search result coming back from the thinker, for the position it was asked about."""

    seat: int
    notation: str
    position: tuple
    hint: bool


@dataclasses.dataclass(frozen=True)
class NewGame:
    """Start ``setup``; ``host`` (a new token's digest) becomes the new game's host."""

    setup: Setup
    credential: Optional[str] = None
    host: Optional[str] = None


@dataclasses.dataclass(frozen=True)
class Rematch:
    """At game over, the same game again for the same players in the same seats, on a new deal.

    The phones keep their seats and the hosts their role; only the host may ask."""

    credential: Optional[str] = None


@dataclasses.dataclass(frozen=True)
class ChangeSettings:
    """Table settings that are not rules: brightness (0-1), palette, and whether hints are allowed."""

    brightness: Optional[float] = None
    palette: Optional[str] = None
    hints: Optional[bool] = None
    credential: Optional[str] = None


@dataclasses.dataclass(frozen=True)
class _Stop:
    pass


# State published to subscribers -------------------------------------------


@dataclasses.dataclass(frozen=True)
class UndoRequest:
    """An open request to take back the last decision(s), and whose consent it still needs."""

    seat: int  # who asks
    decision: tuple  # (seat, notation) of the last decision it would take back
    ply: int  # the number in the game of the first decision it would take back
    waiting: tuple  # the seats asked to agree
    any_one: bool  # one of ``waiting`` is enough (the decisions were the computer's)
    expires: float  # session clock time when the request lapses
    agreed: tuple = ()
    decisions: tuple = ()  # (seat, notation) of every decision it takes back, oldest first


@dataclasses.dataclass(frozen=True)
class UndoPlan:
    """What an undo asked by one seat would take back now, or why it cannot."""

    decisions: tuple  # (seat, notation) of each decision it takes back, oldest first
    waiting: tuple  # the seats that would be asked to agree
    any_one: bool  # one of ``waiting`` is enough
    refusal: Optional[str] = None  # why nothing can be undone now

    @property
    def possible(self) -> bool:
        return self.refusal is None


@dataclasses.dataclass(frozen=True)
class Snapshot:
    """Everything a view needs, frozen at one version of the session."""

    version: int
    setup: Setup
    state: dict  # the game's to_dict()
    pending: str
    current_player: Optional[int]
    options: tuple  # notation of each legal option, in the game's order
    previews: tuple  # per option: the events it would make (docs/notation.md), for showing before choosing
    reversible: tuple  # per option: its seat could step back from it within the turn (phones play it unconfirmed)
    cursors: tuple  # per seat: index of the highlighted option, or None
    history: tuple  # (seat, notation) of every decision so far
    last_events: tuple  # what the last decision did: the core's events (docs/notation.md), () before the first
    scores: tuple
    progress: tuple  # Duel: (objective, points per seat) toward the final scoring so far
    over: bool
    winners: tuple
    breakdown: tuple  # final scoring parts per seat, once over
    flash: Optional[tuple]  # (seat or None, message) of the last rejected input
    undo_request: Optional[UndoRequest]
    undo_plans: tuple  # per seat: the UndoPlan of its undo now, None for a computer seat
    step_back: bool  # the current player may take back its last decision (BACK, StepBack)
    hint: Optional[tuple]  # (seat, notation) of the computer's suggestion for the pending decision
    menu: Optional[tuple]  # (items, index) while the HOST menu is open
    settings: tuple  # (("brightness", b), ("hints", h), ("palette", p))
    credentials: Credentials  # secret: the join code and token digests never go to phones
    host_code: Optional[str]  # secret: the host code while the HOST menu shows it at the rig
    showing: Optional[str]  # "address" or "legend" while the HOST menu shows it
    resumed: bool  # this game was resumed from the journal when the table started
    run: str  # names this run of the session: versions count from 1 again after a restart
    journal_game: Optional[int] = None  # the game's id in the journal (its past-games pages), None without one
    ratings: tuple = ()  # once over: the ratings.RatedSeat rows of the game (none when it does not count)

    def setting(self, name):
        return dict(self.settings)[name]


@dataclasses.dataclass
class _Decision:
    """One accepted decision, with the position before it (for step-back and undo)."""

    seat: int
    notation: str
    before: object
    revealed: bool  # it drew from the bag or uncovered something hidden: never undone


class Session:
    """Owns one game and applies commands to it on its own thread."""

    def __init__(self, setup: Setup, *, game=None, journal=None, brightness=1.0, palette="standard", hints=True,
                 thinker=None, clock=time.monotonic):
        self._clock = clock
        self._commands = queue.Queue()
        self._thinker = thinker if thinker is not None else Thinker()
        self._serial = itertools.count()
        self._changes = itertools.count()
        self._subscribers = []
        self._changed = threading.Condition()
        self._thread = None
        self._journal = journal
        self._versions = itertools.count(1)
        self._run_name = secrets.token_hex(4)
        self._settings = {"brightness": brightness, "palette": palette, "hints": hints}
        self._flash = None
        self._menu = HostMenu()
        self._host_code = None  # (code, expires) once the HOST menu showed one
        self._start(setup, game)
        self._resumed = game is not None and journal is not None  # the page says the table was restarted
        self._snapshot = self._build_snapshot()
        self._position_version = self._snapshot.version
        self._position_moved = False

    # -- life cycle -------------------------------------------------------

    def start(self):
        """Start the session thread (idempotent)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="session", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout=5.0):
        self._thinker.cancel_all()
        if self._thread is not None:
            self._commands.put((_Stop(), None))
            self._thread.join(timeout)
            self._thread = None

    # -- the outside world's side ----------------------------------------

    def submit(self, command) -> concurrent.futures.Future:
        """Queue ``command``; the future resolves to the new version or fails with :class:`CommandRejected`."""
        future = concurrent.futures.Future()
        self._commands.put((command, future))
        return future

    def call(self, command, timeout=10.0):
        """Submit and wait: returns the new version, raises :class:`CommandRejected`."""
        return self.submit(command).result(timeout)

    def apply(self, command):
        """Apply ``command`` on the calling thread, for a session whose thread is not running
        (building positions, replays, tests): returns the new version, raises :class:`CommandRejected`."""
        if self._thread is not None:
            raise RuntimeError("the session thread owns this game; use submit() or call()")
        future = concurrent.futures.Future()
        self._handle(command, future)
        return future.result(0)

    def subscribe(self, callback: Callable[[Snapshot], None]):
        """Call ``callback(snapshot)`` on the session thread after every change (and once now)."""
        self._subscribers.append(callback)
        callback(self._snapshot)

    @property
    def snapshot(self) -> Snapshot:
        return self._snapshot

    @property
    def journal(self):
        """The journal keeping this session's games (None when nothing is kept), for the history pages."""
        return self._journal

    def wait_for_change(self, version: int, timeout: float) -> Snapshot:
        """Block until the published version passes ``version`` or ``timeout`` runs out; the latest snapshot."""
        with self._changed:
            self._changed.wait_for(lambda: self._snapshot.version > version, timeout)
            return self._snapshot

    # -- the session thread ----------------------------------------------

    def _run(self):
        self._engage_computer()
        self._publish()
        while True:
            try:
                command, future = self._commands.get(timeout=self._until_deadline())
            except queue.Empty:
                if self._expire():
                    self._engage_computer()  # a lapsed undo request lets the computer play on
                    self._publish()
                continue
            if isinstance(command, _Stop):
                return
            self._handle(command, future)

    def _until_deadline(self):
        """Seconds until the open undo request lapses, a new join code is due or the HOST menu closes by
        itself (None: nothing to wait for)."""
        deadlines = [] if self._menu.closes_at is None else [self._menu.closes_at]
        if self._undo_request is not None:
            deadlines.append(self._undo_request.expires)
        if self._join_guesses >= JOIN_GUESSES_PER_CODE:
            deadlines.append(self._join_code_drawn + JOIN_CODE_MIN_S)
        if not deadlines:
            return None
        return min(1.0, max(0.0, min(deadlines) - self._clock()))

    def _expire(self) -> bool:
        """Drop an undo request whose time is up, draw a join code that is due, close the HOST menu when
        its time is up; True if any happened."""
        lapsed = self._undo_request is not None and self._clock() >= self._undo_request.expires
        if lapsed:
            self._undo_request = None
        closed = self._menu.expire(self._clock())
        return self._renew_join_code_when_due() or lapsed or closed

    def _handle(self, command, future):
        """Apply one command; a refusal flashes on the seat and fails the command's future."""
        self._expire()
        try:
            self._apply(command)
        except CommandRejected as refusal:
            if not getattr(refusal, "quiet", False):
                self._flash = (getattr(command, "seat", None), str(refusal))
            self._publish()
            if future is not None:
                future.set_exception(refusal)
            return
        except Exception as error:  # a defect must not kill the table's only game thread
            log.exception("session command %r failed", command)
            if future is not None:
                future.set_exception(error)
            return
        self._flash = None
        if self._thread is not None:
            self._engage_computer()
        self._publish()
        if future is not None:
            future.set_result(self._snapshot.version)

    def _apply(self, command):
        """Check the command's credential against the game being played now, then carry it out.

        Both happen here, on the session thread, so a token of an earlier game
        (or of a seat the host freed) can never act once the game has changed.
        """
        if isinstance(command, (Play, StepBack, RequestUndo, AnswerUndo, RequestHint)):
            self._authorise_seat(command.seat, command.credential)
        elif isinstance(command, (NewGame, Rematch, ChangeSettings, ReleaseSeat)):
            self._authorise_host(command.credential)
        if isinstance(command, Play):
            self._play(command.seat, command.move, command.version)
        elif isinstance(command, Press):
            self._press(command)
        elif isinstance(command, StepBack):
            self._step_back(command.seat)
        elif isinstance(command, RequestUndo):
            self._request_undo(command.seat)
        elif isinstance(command, AnswerUndo):
            self._answer_undo(command.seat, command.accept)
        elif isinstance(command, RequestHint):
            self._request_hint(command.seat)
        elif isinstance(command, _Answer):
            self._answer(command)
        elif isinstance(command, NewGame):
            hosts = () if command.host is None else (command.host,)
            self._start(command.setup, None, Credentials.fresh(hosts), chosen=True)
        elif isinstance(command, Rematch):
            self._rematch()
        elif isinstance(command, ChangeSettings):
            self._change_settings(command)
        elif isinstance(command, Join):
            self._join(command)
        elif isinstance(command, HostLogin):
            self._host_login(command)
        elif isinstance(command, ReleaseSeat):
            self._release(command.seat)
        else:
            raise CommandRejected(f"unknown command {type(command).__name__}")

    # -- credentials ------------------------------------------------------

    def _authorise_seat(self, seat, credential):
        """A phone's command must carry the token holding ``seat`` in this game (the rig's carry none)."""
        if credential is None:
            return
        if not isinstance(seat, int) or self._credentials.seat_of(credential) != seat:
            raise NotAllowed("this phone does not hold that seat in the game being played")

    def _authorise_host(self, credential):
        if credential is not None and not self._credentials.is_host(credential):
            raise NotAllowed("only the host of the game being played can do this")

    def _keep_credentials(self, credentials):
        """The new credentials, in the journal first (a phone's seat must survive a restart)."""
        if self._journal is not None:
            self._journal.keep_credentials(credentials)
        self._credentials = credentials

    def _join(self, join: Join):
        if not same_code(join.code, self._credentials.join_code):
            self._count_wrong_join_code()
            raise WrongCode("wrong join code")
        seat = join.seat
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.setup.seats):
            raise CommandRejected(f"there is no seat {seat!r} in this game")
        if self.setup.seats[seat].kind != "phone":
            raise CommandRejected(f"{self.setup.name_of(seat)} is not played on a phone")
        if seat in self._credentials.taken:
            raise CommandRejected(f"{self.setup.name_of(seat)}'s seat is already taken")
        if join.player is not None or join.new_player is not None:
            self._seat_player(seat, join.player, join.new_player)
        if join.learning is not None and join.learning != self.setup.seats[seat].learning:
            self._seat_learning(seat, join.learning)
        self._keep_credentials(self._credentials.with_seat(seat, join.credential))

    def _seat_player(self, seat: int, player, new_player):
        """The joining player's profile on the seat, under its name: in the journal first."""
        if self._journal is None:
            raise CommandRejected("this table keeps no players")
        player, name = self._journal.seat_player(seat, player, new_player)
        seats = list(self.setup.seats)
        seats[seat] = dataclasses.replace(seats[seat], player=player, name=name)
        self.setup = dataclasses.replace(self.setup, seats=tuple(seats))

    def _seat_learning(self, seat: int, learning: bool):
        """Whether the seat's player is learning the game, kept in the journal first (a restart keeps it)."""
        if not isinstance(learning, bool):
            raise CommandRejected("learning must be true or false")
        seats = list(self.setup.seats)
        seats[seat] = dataclasses.replace(seats[seat], learning=learning)
        if self._journal is not None:
            self._journal.seat_learning(seat, learning)
        self.setup = dataclasses.replace(self.setup, seats=tuple(seats))

    def computer_level(self, seat: int) -> str:
        """The level a computer seat plays at: its own, but never above LEARNING_LEVEL while someone at the
        table plays their first game."""
        level = self.setup.seats[seat].level
        if any(played.learning for played in self.setup.seats):
            return min(level, LEARNING_LEVEL, key=AI_LEVELS.index)
        return level

    def _count_wrong_join_code(self):
        self._join_guesses += 1
        self._renew_join_code_when_due()

    def _renew_join_code_when_due(self) -> bool:
        """Once wrong join codes pile up, draw a new code (when the last has lived JOIN_CODE_MIN_S), so
        guesses against the old one are worth nothing; True if it was drawn.

        The phones on seats keep them (their tokens are not the code); the
        new code is published like any change, and the table shows it.
        """
        if self._join_guesses < JOIN_GUESSES_PER_CODE or self._clock() - self._join_code_drawn < JOIN_CODE_MIN_S:
            return False
        try:
            self._keep_credentials(self._credentials.with_new_join_code())
        except CommandRejected as error:  # the journal cannot keep it: the old code stays for another while
            log.warning("no new join code: %s", error)
            self._join_code_drawn = self._clock()
            return False
        self._join_code_drawn, self._join_guesses = self._clock(), 0
        return True

    def _host_login(self, login: HostLogin):
        """A live host code makes the phone a host, once; the code is used up."""
        if self._host_code is None or self._clock() >= self._host_code[1]:
            raise NoHostCode("wrong host code")
        if not same_code(login.code, self._host_code[0]):
            raise WrongCode("wrong host code")
        self._keep_credentials(self._credentials.with_host(login.credential))
        self._host_code = None
        self._menu.stop_showing("host code")  # a used code leaves the centre panel at once

    def _release(self, seat):
        if not isinstance(seat, int) or not 0 <= seat < len(self.setup.seats):
            raise CommandRejected(f"there is no seat {seat!r} in this game")
        self._keep_credentials(self._credentials.without_seat(seat))

    # -- game actions -----------------------------------------------------

    def _start(self, setup: Setup, game, credentials=None, chosen=False):
        """Play ``game`` (None: a new deal of ``setup``) with ``credentials`` (None: fresh ones, no host);
        ``chosen``: the host chose ``setup`` on the setup page."""
        game = game if game is not None else setup.new_game()
        credentials = credentials if credentials is not None else Credentials.fresh()
        # The journal stores a new game, or gives back the decisions and credentials of the game it resumed.
        if self._journal is not None:
            restored, credentials = self._journal.new_game(setup, game, credentials, chosen=chosen)
        else:
            restored = ()
        self._thinker.cancel_all()
        self.setup = setup
        self.game = game
        self._credentials = credentials
        self._join_code_drawn, self._join_guesses = self._clock(), 0
        self._resumed = False
        self._game_serial = next(self._serial)
        self._decisions = [_Decision(*decision) for decision in restored]
        self._undo_request = None
        self._menu.close()  # a new game begins on show, whatever the menu showed
        self._controls = [SeatControls() for _ in setup.seats]
        self._refresh_options()

    def _refresh_options(self):
        """After every change of position: new options, cursors back to the first, no hint."""
        self._position = (self._game_serial, next(self._changes))
        self._position_moved = True
        self._hint = None
        self._options = self.game.legal_moves()
        self._notations = tuple(str(m) for m in self._options)
        previews, reversible = [], []
        for move in self._options:
            after = self.game.copy()
            previews.append(tuple(after.push(move)))
            reversible.append(self._turn_goes_on(after, self.game.current_player)
                              and not games.spec(self.setup.game).revealed(self.game, after))
        self._previews, self._reversible = tuple(previews), tuple(reversible)
        for seat, controls in enumerate(self._controls):
            controls.reset(len(self._options) if seat == self.game.current_player else 0)

    def _rematch(self):
        """A new deal of the finished game's setup; phones and hosts keep their tokens, the join code is new."""
        if not self.game.is_over():
            raise CommandRejected("the game is not over yet")
        self._start(dataclasses.replace(self.setup, seed=None), None, self._credentials.renewed())

    def _check_seat(self, seat):
        if not isinstance(seat, int) or not 0 <= seat < len(self.setup.seats):
            raise CommandRejected(f"there is no seat {seat!r} in this game")
        if self.game.is_over():
            raise CommandRejected("the game is over")
        if seat != self.game.current_player:
            owner = self.setup.name_of(self.game.current_player)
            raise CommandRejected(f"it is {owner}'s decision, not {self.setup.name_of(seat)}'s")

    def _play(self, seat, move, version):
        self._check_seat(seat)
        if version is not None and version < self._position_version:
            raise CommandRejected("the game moved on since this screen was drawn; choose again")
        try:
            move = games.spec(self.setup.game).parse(move) if isinstance(move, str) else move
        except ValueError as error:
            raise CommandRejected(str(error)) from None
        if move not in self._options:
            raise CommandRejected(f"{move} is not an option now")
        before = self.game.copy()
        self.game.push(move)
        decision = _Decision(seat, str(move), before, games.spec(self.setup.game).revealed(before, self.game))
        if self._journal is not None:
            try:
                self._journal.record(self, decision)
            except Exception:
                self.game = before  # a decision the journal could not keep is not played
                raise
        self._decisions.append(decision)
        self._undo_request = None
        self._resumed = False  # the restart notice holds until the game moves on
        self._refresh_options()

    def _turn_goes_on(self, game, seat) -> bool:
        """``game`` is in the middle of ``seat``'s turn: the seat still decides and no new turn began."""
        turn_starts = games.spec(self.setup.game).turn_starts
        return not game.is_over() and game.pending not in turn_starts and game.current_player == seat

    def _can_step_back(self, seat):
        """A seat may take back its own last decision while that turn goes on and nothing was revealed."""
        if not self._decisions:
            return False
        last = self._decisions[-1]
        return last.seat == seat and self._turn_goes_on(self.game, seat) and not last.revealed

    def _step_back(self, seat):
        if not self._can_step_back(seat):
            raise CommandRejected("nothing to step back to")
        self._revert("back", 1)

    def _revert(self, reason, count):
        """Take back the last ``count`` decisions, in the journal first; a search for the old position is dropped."""
        taken_back = self._decisions[-count:]
        if self._journal is not None:
            self._journal.revert(self, taken_back, reason)
        del self._decisions[-count:]
        self.game = taken_back[0].before
        self._undo_request = None
        self._thinker.cancel_all()
        self._refresh_options()

    def _computer_seats(self) -> frozenset:
        return frozenset(i for i, s in enumerate(self.setup.seats) if s.kind == "ai")

    def _undo_span(self, seat) -> list:
        """The decisions an undo asked by ``seat`` takes back, oldest first.

        Against the computer (at its turn, or right after its decisions) the
        undo reaches back to the asker's own last decision, so the asker
        chooses again before the computer replies; otherwise it is the last
        decision alone.
        """
        computer = self._computer_seats()
        at_computers_turn = not self.game.is_over() and self.game.current_player in computer
        if self._decisions[-1].seat not in computer and not at_computers_turn:
            return self._decisions[-1:]
        for start in range(len(self._decisions) - 1, -1, -1):
            if self._decisions[start].seat == seat:
                return self._decisions[start:]
        raise CommandRejected("there is nothing to undo")

    def _undo_plan(self, seat) -> UndoPlan:
        """What an undo asked by ``seat`` would take back now and whose consent it needs.

        A player's own decision needs only their own consent; another
        player's decision waits for that player; the computer's decisions wait
        for one human other than the one asking (with no other human at the
        table, the asking one is enough). Decisions that revealed something
        hidden are never taken back. :raise CommandRejected: nothing may be undone.
        """
        if not isinstance(seat, int) or not 0 <= seat < len(self.setup.seats):
            raise CommandRejected(f"there is no seat {seat!r} in this game")
        if self.setup.seats[seat].kind == "ai":
            raise CommandRejected("the computer does not ask for undos")
        if not self._decisions:
            raise CommandRejected("there is nothing to undo")
        span = self._undo_span(seat)
        if any(decision.revealed for decision in span[1:]):
            raise CommandRejected("your last decision lies behind one that revealed hidden tiles or plates; "
                                  "it cannot be undone")
        if span[0].revealed:
            raise CommandRejected("the last decision revealed hidden tiles or plates; it cannot be undone")
        computer = self._computer_seats()
        makers = {decision.seat for decision in span if decision.seat != seat and decision.seat not in computer}
        if makers:
            waiting, any_one = tuple(sorted(makers)), False
        elif any(decision.seat in computer for decision in span):
            waiting = tuple(i for i, s in enumerate(self.setup.seats) if s.kind != "ai" and i != seat)
            any_one = True
        else:
            waiting, any_one = (), False
        return UndoPlan(tuple((d.seat, d.notation) for d in span), waiting, any_one)

    def _undo_plans(self) -> tuple:
        """Per seat, what its undo would do now (None for the computer's seats)."""
        plans = []
        for seat, kind in enumerate(s.kind for s in self.setup.seats):
            if kind == "ai":
                plans.append(None)
                continue
            try:
                plans.append(self._undo_plan(seat))
            except CommandRejected as refusal:
                plans.append(UndoPlan((), (), False, str(refusal)))
        return tuple(plans)

    def _request_undo(self, seat):
        """Ask to take back what :meth:`_undo_plan` says; done at once when nobody else must agree."""
        if self._undo_request is not None:
            raise CommandRejected("an undo request is already open")
        plan = self._undo_plan(seat)
        if not plan.waiting:
            self._revert("undo", len(plan.decisions))
            return
        self._undo_request = UndoRequest(seat, plan.decisions[-1], len(self._decisions) - len(plan.decisions) + 1,
                                         plan.waiting, plan.any_one, self._clock() + UNDO_REQUEST_S,
                                         decisions=plan.decisions)

    def _answer_undo(self, seat, accept):
        request = self._undo_request
        if request is None:
            raise CommandRejected("nobody asked for an undo")
        if seat not in request.waiting:
            names = ", ".join(self.setup.name_of(i) for i in request.waiting)
            raise CommandRejected(f"the undo request waits for {names}, not {self.setup.name_of(seat)}")
        if not accept:
            self._undo_request = None
            return
        agreed = request.agreed + (seat,)
        if request.any_one or set(agreed) >= set(request.waiting):
            self._revert("undo", len(request.decisions))
        else:
            self._undo_request = dataclasses.replace(request, agreed=agreed)

    # -- buttons ------------------------------------------------------------

    def _press(self, press: Press):
        """A rig button (``seat`` None: HOST): what it does follows the table's mode, as
        :data:`controls.ACTIONS` tells; anything it cannot do is refused, so the seat's panel flashes."""
        seat = press.seat
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < len(self.setup.seats)):
            raise CommandRejected(f"there is no seat {seat}")
        mode = self._menu.mode
        if mode == controls.GAME and seat is not None and self._undo_request is not None \
                and seat in self._undo_request.waiting:
            mode = controls.ASKED
        action = controls.ACTIONS[mode].get(controls.key(press.button, press.kind, seat is None))
        if action is None:
            raise CommandRejected(f"unknown button {press.button!r}")
        if mode in (controls.MENU, controls.SHOWING):
            self._host(self._menu.act(action, self._clock()))
        elif action == "open menu":
            self._menu.open(self._clock())
        elif action == "refuse":
            raise CommandRejected("hold HOST to open the menu")
        elif action in ("previous option", "next option"):
            self._check_seat(seat)
            if len(self._options) < 2:
                raise CommandRejected("there is only one option")
            self._controls[seat].step(-1 if action == "previous option" else 1)
        elif action == "play":
            self._check_seat(seat)
            self._play(seat, self._options[self._controls[seat].index], None)
        elif action == "step back":
            self._step_back(seat)
        elif action == "hint":
            self._request_hint(seat)  # shown by the highlight moving to it
        elif action == "ask undo":
            self._request_undo(seat)
        else:  # a long press answers an undo request; a plain OK never does
            self._answer_undo(seat, action == "agree")

    def _host(self, item):
        """Carry out the HOST menu's item ``item`` just chosen (None: the press only moved the menu)."""
        if item == "host code":
            self._host_code = (new_code(HOST_CODE_DIGITS), self._clock() + HOST_CODE_S)
        elif item == "new game":
            self._start(dataclasses.replace(self.setup, seed=None), None)
        elif item == "brightness":
            self._settings["brightness"] = self._menu.next_brightness(self._settings["brightness"])
        elif item == "palette":
            self._settings["palette"] = self._menu.next_palette(self._settings["palette"])

    # -- the computer ---------------------------------------------------------

    def _request_hint(self, seat):
        self._check_seat(seat)
        if not self._settings["hints"]:
            raise CommandRejected("hints are turned off for this game")
        self._ask_computer(seat, hint=True)

    def _ask_computer(self, seat, hint):
        position = self._position
        level = HINT_LEVEL if hint else self.computer_level(seat)
        self._thinker.think(
            (position, hint),
            self.game.copy(),
            level,
            lambda move: self.submit(_Answer(seat, str(move), position, hint)),
        )

    def _answer(self, answer: _Answer):
        if answer.position != self._position:
            return  # the game moved on while the computer thought
        if not answer.hint and self._undo_request is not None:
            return  # the computer waits for the undo request's answer; it searches again if refused
        if answer.hint:
            self._hint = (answer.seat, answer.notation)
            if self.setup.seats[answer.seat].kind == "rig":  # a phone's hint stays on that phone
                self._controls[answer.seat].index = self._notations.index(answer.notation)
        else:
            self._play(answer.seat, answer.notation, None)

    def _engage_computer(self):
        """Start the search when the pending decision belongs to an AI seat and no undo request is open."""
        if self.game.is_over() or self._undo_request is not None:
            return
        seat = self.game.current_player
        if self.setup.seats[seat].kind == "ai":
            self._ask_computer(seat, hint=False)

    def _change_settings(self, change: ChangeSettings):
        if change.brightness is not None:
            if not 0.05 <= change.brightness <= 1.0:
                raise CommandRejected("brightness must be between 5% and 100% of the rig's cap")
            self._settings["brightness"] = change.brightness
        if change.palette is not None:
            if change.palette not in HostMenu.PALETTES:
                raise CommandRejected(f"palette must be one of {', '.join(HostMenu.PALETTES)}")
            self._settings["palette"] = change.palette
        if change.hints is not None:
            self._settings["hints"] = bool(change.hints)

    # -- publishing ---------------------------------------------------------

    def _build_snapshot(self) -> Snapshot:
        game = self.game
        over = game.is_over()
        return Snapshot(
            version=next(self._versions),
            setup=self.setup,
            state=game.to_dict(),
            pending=game.pending,
            current_player=None if over else game.current_player,
            options=self._notations,
            previews=self._previews,
            reversible=self._reversible,
            cursors=tuple(c.index if c.count else None for c in self._controls),
            history=tuple((d.seat, d.notation) for d in self._decisions),
            last_events=self._last_events(),
            scores=tuple(game.scores()),
            progress=games.spec(self.setup.game).progress(game),
            over=over,
            winners=tuple(game.winners()) if over else (),
            breakdown=tuple(game.final_breakdown()) if over else (),
            flash=self._flash,
            undo_request=self._undo_request,
            undo_plans=self._undo_plans(),
            step_back=not over and self._can_step_back(game.current_player),
            hint=self._hint,
            menu=self._menu.view(),
            settings=tuple(sorted(self._settings.items())),
            credentials=self._credentials,
            host_code=self._host_code[0] if self._menu.showing == "host code" and self._host_code else None,
            showing=self._menu.showing if self._menu.showing in ("address", "legend") else None,
            resumed=self._resumed,
            run=self._run_name,
            journal_game=None if self._journal is None else self._journal.current_game,
            ratings=tuple(self._journal.ratings.of_game(self._journal.current_game))
            if over and self._journal is not None else (),
        )

    def _last_events(self):
        """The events of the last decision, replayed from the position before it (the RNG is in
        the position, so they are the ones the push made, also after a resume)."""
        if not self._decisions:
            return ()
        last = self._decisions[-1]
        return tuple(last.before.copy().push(last.notation))

    def _publish(self):
        """Hand a new snapshot to everyone; screens drawn before the last change of position go stale."""
        snapshot = self._build_snapshot()
        if self._position_moved:
            self._position_version = snapshot.version
            self._position_moved = False
        with self._changed:
            self._snapshot = snapshot
            self._changed.notify_all()
        for callback in self._subscribers:
            callback(snapshot)
