"""What the web app knows about the table: the session, and the checks in front of its credentials.

One :class:`RemoteService` lives as long as the table. Request handlers read
snapshots and send commands to the session; they never touch the game. The
credentials themselves (the join code, the seats' and hosts' token digests)
belong to the game and live in the session, which checks every phone's
command against them on its own thread: see
:mod:`firmware_py.credentials`. What this service adds is the guessing limit
in front of the join and host codes.
"""
import asyncio
import concurrent.futures
import threading
import time
from typing import Callable, Optional

import limits

from firmware_py.credentials import digest, new_token
from firmware_py.session import (
    HostLogin, Join, NewGame, NotAllowed, ReleaseSeat, Session, Setup, WrongCode,
)

COMMAND_TIMEOUT_S = 10.0
GUESS_LIMITS = {
    # Wrong codes, counted per kind of code in moving windows: one phone, and everyone together.
    "per_address": limits.parse("5/minute"),
    "everyone": (limits.parse("10/minute"), limits.parse("100/hour")),
}


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


class GuessLimit:
    """Wrong join and host codes: at most 5 a minute from one address and 10 a minute, 100 an hour from all.

    Only wrong codes count, and while a window is spent even the right code
    is refused, so the limit bounds the guesses an attacker gets, however
    many addresses they use. The counting windows come from ``limits``.
    """

    def __init__(self):
        self._limiter = limits.strategies.MovingWindowRateLimiter(limits.storage.MemoryStorage())

    def _windows(self, kind: str, client: str):
        yield GUESS_LIMITS["per_address"], (kind, "address", client)
        for window in GUESS_LIMITS["everyone"]:
            yield window, (kind, "everyone")

    def check(self, kind: str, client: str):
        """:raise AccessDenied: 429 with the seconds to wait while a window is spent."""
        for window, keys in self._windows(kind, client):
            if not self._limiter.test(window, *keys):
                reset, _ = self._limiter.get_window_stats(window, *keys)
                raise AccessDenied(429, "error.locked_out", seconds=max(1, int(reset - time.time()) + 1))

    def wrong(self, kind: str, client: str):
        for window, keys in self._windows(kind, client):
            self._limiter.hit(window, *keys)


class RemoteService:
    """The table as the phones see it: snapshots, credential checks and a change signal for event streams.

    ``hardware`` is the simulated rig when there is one (it enables the
    simulator page); ``language`` is the table's default language;
    ``on_credentials(service)`` is called when a game with a new join code starts.
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
        if self._on_credentials is not None and snapshot.credentials.key != self._announced:
            self._announced = snapshot.credentials.key
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
        self._guesses.check(kind, client)
        try:
            self.command(command)
        except WrongCode:
            self._guesses.wrong(kind, client)
            raise AccessDenied(403, f"error.wrong_{kind}_code") from None

    def join(self, code, seat, client: str) -> str:
        """Give a phone the free phone seat ``seat``: returns its token.

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
        self._with_code("join", client, Join(seat, code, digest(token)))
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

