"""What the web app knows about the table: the session, who holds which seat, the host PIN.

One :class:`RemoteService` lives as long as the table. Request handlers read
snapshots and send commands to the session; they never touch the game. Seat
tokens, host tokens and the PIN are random and renewed for every game started
from the setup page, so a phone from the last game cannot act in this one.
"""
import dataclasses
import secrets
import threading
import time
from typing import Callable, Optional

from firmware_py.session import NewGame, Session, Setup

PIN_DIGITS = 6
MAX_PIN_FAILURES = 5
LOCKOUT_S = 60.0


class AccessDenied(Exception):
    """A refused credential; ``status`` is the HTTP status, ``key`` the message's translation key."""

    def __init__(self, status: int, key: str, **fields):
        super().__init__(key)
        self.status = status
        self.key = key
        self.fields = fields


@dataclasses.dataclass(frozen=True)
class Roster:
    """Which seats are taken by a phone; its ``version`` changes with every join or release."""

    version: int
    taken: frozenset


class RemoteService:
    """The table as the phones see it: snapshots, credentials and a change signal for event streams.

    ``hardware`` is the simulated rig when there is one (it enables the
    simulator page); ``language`` is the table's default language.
    """

    def __init__(self, session: Session, *, hardware=None, language: str = "en", clock: Callable = time.monotonic,
                 on_credentials: Optional[Callable[["RemoteService"], None]] = None):
        self.session = session
        self.hardware = hardware
        self.language = language
        self._clock = clock
        self._on_credentials = on_credentials
        self._changed = threading.Condition()
        self._closing = False
        self._failures = {}  # client address -> (count, locked until)
        self._roster_versions = 0
        self._snapshot = session.snapshot
        self._new_credentials()
        session.subscribe(self._session_changed)

    # -- change signal ---------------------------------------------------------

    def _session_changed(self, snapshot):
        """Session-thread callback: remember the snapshot and wake every event stream."""
        with self._changed:
            self._snapshot = snapshot
            self._changed.notify_all()

    def _roster_changed(self):
        with self._changed:
            self._roster_versions += 1
            self.roster = Roster(self._roster_versions, frozenset(self._seat_tokens.values()))
            self._changed.notify_all()

    def current(self):
        """(snapshot, roster) as of now."""
        with self._changed:
            return self._snapshot, self.roster

    def wait_for_change(self, seen: tuple, timeout: float):
        """Block until (snapshot version, roster version) differs from ``seen``; None once closing."""
        def moved():
            return self._closing or (self._snapshot.version, self.roster.version) != seen

        with self._changed:
            self._changed.wait_for(moved, timeout)
            if self._closing:
                return None
            return self._snapshot, self.roster

    def close(self):
        """End every event stream (the server is stopping)."""
        with self._changed:
            self._closing = True
            self._changed.notify_all()

    @property
    def closing(self) -> bool:
        return self._closing

    # -- credentials -----------------------------------------------------------

    def _new_credentials(self):
        self.pin = f"{secrets.randbelow(10 ** PIN_DIGITS):0{PIN_DIGITS}d}"
        self.game_id = secrets.token_hex(4)
        self._seat_tokens = {}  # token -> seat
        self._host_tokens = set()
        self._roster_changed()
        if self._on_credentials is not None:
            self._on_credentials(self)

    def _check_pin(self, pin, client: str):
        """Compare ``pin`` in constant time; too many failures from one client lock it out for a while.

        :raise AccessDenied: 429 while locked out, 403 for a wrong PIN.
        """
        now = self._clock()
        count, locked_until = self._failures.get(client, (0, 0.0))
        if now < locked_until:
            raise AccessDenied(429, "error.locked_out", seconds=int(locked_until - now) + 1)
        if isinstance(pin, str) and secrets.compare_digest(pin.strip().encode(), self.pin.encode()):
            self._failures.pop(client, None)
            return
        count += 1
        self._failures[client] = (0, now + LOCKOUT_S) if count >= MAX_PIN_FAILURES else (count, 0.0)
        raise AccessDenied(403, "error.wrong_pin")

    def join(self, pin, seat, client: str) -> str:
        """Give a phone the free seat ``seat``: returns its token.

        :raise AccessDenied: wrong PIN (403), lockout (429), no such phone seat (400), seat taken (409).
        """
        with self._changed:
            self._check_pin(pin, client)
            return self._take_seat(seat)

    def _take_seat(self, seat) -> str:
        setup = self._snapshot.setup
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(setup.seats):
            raise AccessDenied(400, "error.no_such_seat")
        if setup.seats[seat].kind != "phone":
            raise AccessDenied(409, "error.not_a_phone_seat")
        if seat in self._seat_tokens.values():
            raise AccessDenied(409, "error.seat_taken")
        token = secrets.token_urlsafe(24)
        self._seat_tokens[token] = seat
        self._roster_changed()
        return token

    def release(self, seat: int):
        """Free a seat (its phone was lost or handed to someone else); the old token stops working."""
        with self._changed:
            self._seat_tokens = {token: held for token, held in self._seat_tokens.items() if held != seat}
            self._roster_changed()

    def seat_of(self, token) -> Optional[int]:
        """The seat a token acts for, or None."""
        if not isinstance(token, str):
            return None
        for known, seat in self._seat_tokens.items():
            if secrets.compare_digest(known.encode(), token.encode()):
                return seat
        return None

    def host_login(self, pin, client: str) -> str:
        """A host token for the holder of the PIN. :raise AccessDenied: as for :meth:`join`."""
        with self._changed:
            self._check_pin(pin, client)
            token = secrets.token_urlsafe(24)
            self._host_tokens.add(token)
            return token

    def is_host(self, token) -> bool:
        return isinstance(token, str) and any(
            secrets.compare_digest(known.encode(), token.encode()) for known in self._host_tokens
        )

    # -- host actions ------------------------------------------------------------

    def new_game(self, setup: Setup, language: str) -> str:
        """Start ``setup`` on the table with fresh credentials; returns a host token for the new game.

        :raise CommandRejected: the session refused the setup.
        """
        self.session.call(NewGame(setup))
        with self._changed:
            self.language = language
            self._new_credentials()
            token = secrets.token_urlsafe(24)
            self._host_tokens.add(token)
            return token
