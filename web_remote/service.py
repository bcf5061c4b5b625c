"""What the web app knows about the table: the session, and the checks in front of its credentials.

One :class:`RemoteService` lives as long as the table. Request handlers read
snapshots and send commands to the session; they never touch the game. The
credentials themselves (the join code, the seats' and hosts' token digests)
belong to the game and live in the session, which checks every phone's
command against them on its own thread: see
:mod:`firmware_py.credentials`. What this service adds is the guessing limit
in front of the join and host codes, and a limit on each phone's undo
requests.
"""
import asyncio
import concurrent.futures
import ipaddress
import threading
import time
from typing import Callable, Optional

import limits

from firmware_py.credentials import digest, new_token
from firmware_py.session import (
    HostLogin, Join, NewGame, NotAllowed, ReleaseSeat, Session, Setup, WrongCode,
)

COMMAND_TIMEOUT_S = 10.0
GUESS_LIMITS = (limits.parse("5/minute"), limits.parse("10/hour"))
"""Wrong codes of one kind (join or host) that one guesser may send: while a window is spent it is refused."""
UNDO_LIMIT = limits.parse("6/minute")
"""Undo requests and answers of one seat's phone: each one redraws the table and reaches every phone."""


def _resolve(future):
    if not future.done():
        future.set_result(None)


class AccessDenied(Exception):
    """A refused credential; ``status`` is the HTTP status, ``key`` the message's translation key."""

    def __init__(self, status: int, key: str, **fields):
        super().__init__(key)
        self.status = status
        self.key = key
        self.fields = fields


def guesser(address: str) -> str:
    """Whose guesses a client address makes: the address itself, or for IPv6 its /64 network, any
    address of which one device on the Wi-Fi can take."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


def _seconds_to_wait(limiter, window, *keys) -> int:
    """Whole seconds until ``window`` of ``keys`` frees a place (at least 1)."""
    reset, _ = limiter.get_window_stats(window, *keys)
    return max(1, int(reset - time.time()) + 1)


class GuessLimit:
    """Wrong join and host codes, counted for each guesser alone: see GUESS_LIMITS.

    Only a guesser's own wrong codes can refuse it, so nobody's guesses keep a
    phone at the table out; what bounds an attacker is the guesses each of
    their addresses gets, and the join code the table draws anew once guesses
    pile up (see the session). Testing the windows, judging the code and
    counting a wrong one are one step under one lock, so concurrent guesses
    cannot all pass the test before the first of them is counted. The
    windows are moving windows of ``limits``.
    """

    def __init__(self):
        self._limiter = limits.strategies.MovingWindowRateLimiter(limits.storage.MemoryStorage())
        self._lock = threading.Lock()

    def judge(self, kind: str, client: str, attempt: Callable[[], object]):
        """``attempt()``, which sends a code to the session, if ``client`` may guess now; counts the
        :class:`WrongCode` it raises when that code was judged against a live one.

        :raise AccessDenied: 429 with the seconds to wait while a window is spent.
        """
        keys = (kind, guesser(client))
        with self._lock:
            for window in GUESS_LIMITS:
                if not self._limiter.test(window, *keys):
                    raise AccessDenied(429, "error.locked_out", seconds=_seconds_to_wait(self._limiter, window, *keys))
            try:
                return attempt()
            except WrongCode as wrong:
                if wrong.counts:
                    for window in GUESS_LIMITS:
                        self._limiter.hit(window, *keys)
                raise


class RemoteService:
    """The table as the phones see it: snapshots, credential checks and a change signal for event streams.

    ``hardware`` is the simulated rig when there is one (it enables the
    simulator page); ``language`` is the table's default language;
    ``on_credentials(service)`` is called when a game starts and whenever its join code changes.
    """

    def __init__(self, session: Session, *, hardware=None, language: str = "en",
                 on_credentials: Optional[Callable[["RemoteService"], None]] = None):
        self.session = session
        self.hardware = hardware
        self.language = language
        self._on_credentials = on_credentials
        self._changed = threading.Condition()
        self._waiters = set()  # (loop, future) of every event stream waiting for a change
        self._closing = False
        self._guesses = GuessLimit()
        self._undos = limits.strategies.MovingWindowRateLimiter(limits.storage.MemoryStorage())
        self._snapshot = session.snapshot
        self._announced = None
        session.subscribe(self._session_changed)

    # -- change signal ---------------------------------------------------------

    def _session_changed(self, snapshot):
        """Session-thread callback: remember the snapshot, wake every event stream, announce a new join code."""
        with self._changed:
            self._snapshot = snapshot
            self._changed.notify_all()
            self._wake_streams()
        shown = (snapshot.credentials.key, snapshot.credentials.join_code)
        if self._on_credentials is not None and shown != self._announced:
            self._announced = shown
            self._on_credentials(self)

    def current(self):
        """The snapshot as of now."""
        with self._changed:
            return self._snapshot

    def _wake_streams(self):
        """Resolve every waiting stream's future on its own loop (called with ``_changed`` held)."""
        for loop, future in self._waiters:
            try:
                loop.call_soon_threadsafe(_resolve, future)
            except RuntimeError:  # that loop has closed; its stream is gone
                pass

    async def next_change(self, version: int, timeout: float):
        """Wait, without holding a thread, until the snapshot's version passes ``version`` or ``timeout``
        passes: the latest snapshot then, or None once closing (what event streams wait with)."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        waiter = (loop, future)
        with self._changed:
            waiting = not (self._closing or self._snapshot.version > version)
            if waiting:
                self._waiters.add(waiter)
        try:
            if waiting:
                await asyncio.wait((future,), timeout=timeout)
        finally:
            with self._changed:
                self._waiters.discard(waiter)
        with self._changed:
            return None if self._closing else self._snapshot

    def close(self):
        """End every event stream (the server is stopping)."""
        with self._changed:
            self._closing = True
            self._changed.notify_all()
            self._wake_streams()

    @property
    def closing(self) -> bool:
        return self._closing

    @property
    def join_code(self) -> str:
        return self.current().credentials.join_code

    @property
    def game_id(self) -> str:
        """The public name of the game being played (changes with every game, not with a restart)."""
        return self.current().credentials.key

    # -- credentials -----------------------------------------------------------

    def command(self, command):
        """Send ``command`` to the session and wait: the new version.

        :raise CommandRejected: refused; :raise AccessDenied: 403 for a credential
        that does not hold the seat or host role in this game, 504 when the table does not answer.
        """
        try:
            return self.session.call(command, COMMAND_TIMEOUT_S)
        except NotAllowed:
            raise AccessDenied(403, "error.host_or_seat_changed") from None
        except concurrent.futures.TimeoutError:
            raise AccessDenied(504, "error.timeout") from None

    def _with_code(self, kind: str, client: str, command):
        """Run a command that carries a code, behind the guessing limit."""
        try:
            self._guesses.judge(kind, client, lambda: self.command(command))
        except WrongCode:
            raise AccessDenied(403, f"error.wrong_{kind}_code") from None

    def undo(self, command):
        """Send a phone's undo request or answer (``command`` carries its token's digest): the new version.

        :raise AccessDenied: 429 beyond UNDO_LIMIT for that phone; see :meth:`command`.
        """
        if not self._undos.hit(UNDO_LIMIT, "undo", command.credential):
            raise AccessDenied(429, "error.too_many_undos",
                               seconds=_seconds_to_wait(self._undos, UNDO_LIMIT, "undo", command.credential))
        return self.command(command)

    def join(self, code, seat, client: str, player=None, new_player=None, learning=None) -> str:
        """Give a phone the free phone seat ``seat``, played by the known ``player`` or by a ``new_player``
        (profile fields) if one is given, in a first game if ``learning``: returns its token.

        :raise AccessDenied: no such seat (400), wrong code (403), not a phone seat or taken (409), limit (429).
        """
        setup = self.current().setup
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(setup.seats):
            raise AccessDenied(400, "error.no_such_seat")
        if setup.seats[seat].kind != "phone":
            raise AccessDenied(409, "error.not_a_phone_seat")
        if seat in self.current().credentials.taken:
            raise AccessDenied(409, "error.seat_taken")
        token = new_token()
        self._with_code("join", client, Join(seat, code, digest(token), player, new_player, learning))
        return token

    def host_login(self, code, client: str) -> str:
        """A host token for the holder of the host code shown at the rig. :raise AccessDenied: 403, 429."""
        token = new_token()
        self._with_code("host", client, HostLogin(code, digest(token)))
        return token

    def seat_of(self, token) -> Optional[int]:
        """The seat a token holds in the game being played, or None."""
        return self.current().credentials.seat_of(digest(token)) if isinstance(token, str) else None

    def is_host(self, token) -> bool:
        return isinstance(token, str) and self.current().credentials.is_host(digest(token))

    # -- host actions ------------------------------------------------------------

    def release(self, seat: int, host_token: str):
        """Free a seat (its phone was lost or handed to someone else); the old token stops working."""
        self.command(ReleaseSeat(seat, digest(host_token)))

    def new_game(self, setup: Setup, language: str, host_token: str) -> str:
        """Start ``setup`` on the table with fresh credentials; returns the host's token for the new game.

        :raise CommandRejected: the session refused the setup.
        """
        token = new_token()
        self.command(NewGame(setup, credential=digest(host_token), host=digest(token)))
        self.language = language
        return token

