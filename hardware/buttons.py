"""Arcade buttons: gpiozero Buttons in, debounced press and hold events out on a queue.

gpiozero reports raw edges (on the Pi from lgpio's thread, in simulation
synchronously from ``MockPin.drive_low()``); this layer timestamps them with
an injectable clock and turns them into events. MockPin ignores gpiozero's
``bounce_time``, which is why debouncing lives here, where tests can drive it
with a manual clock.

Plain buttons (PREV, NEXT, OK) report ``press`` on the very first closing
edge, so the table answers a press at once; the debounce time then works as
a lockout: the contact's bounces, and a release, count only once the level
has been stable that long, and a new press needs the button released for the
debounce time first. A bouncing contact therefore gives one press.

Buttons listed in the rig's ``long_press`` (BACK and HOST on the reference rig)
report ``hold`` once held for ``hold_ms``, and a short ``press`` on release;
their levels count only once stable for the debounce time (:meth:`ButtonInput.tick`).
"""
from __future__ import annotations

import contextlib
import dataclasses
import queue
import threading
import time
from typing import Optional

from hardware.rig import HOST, Rig

PRESS = "press"
HOLD = "hold"
TIME_TOLERANCE = 1e-9
"""Seconds of float rounding forgiven when comparing clock differences with the debounce and hold times."""


@dataclasses.dataclass(frozen=True)
class ButtonEvent:
    """A button event: ``seat`` is None for HOST, ``kind`` is ``"press"`` or ``"hold"``."""

    seat: Optional[int]
    button: str
    kind: str
    time: float
    """Clock time of the edge that began the press (for a hold: when the hold time was reached)."""


class SystemClock:
    """Real time: ``time.monotonic`` and ``time.sleep``."""

    def now(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


class ManualClock:
    """Time that moves only when told: ``sleep`` and ``advance`` move it forward instantly."""

    def __init__(self, start: float = 0.0):
        self._now = start

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError(f"time cannot go back ({seconds} s)")
        self._now += seconds

    sleep = advance


@dataclasses.dataclass
class _ButtonState:
    """What one button is doing: its raw level and since when, and the debounced level."""

    seat: Optional[int]
    name: str
    long_press: bool
    raw_pressed: bool = False
    raw_since: float = 0.0
    pressed: bool = False
    pressed_since: float = 0.0
    released_since: float = float("-inf")
    held: bool = False

    def settling(self) -> bool:
        """Whether the raw level differs from the debounced one: it counts once stable for the debounce time."""
        return self.raw_pressed != self.pressed

    def holding(self) -> bool:
        """Whether a long-press button is down and has not yet reported its hold."""
        return self.long_press and self.pressed and self.raw_pressed and not self.held


class ButtonInput:
    """Every button of a rig as gpiozero ``Button`` devices, feeding :class:`ButtonEvent` values to ``events``.

    ``pin_factory`` is gpiozero's (None: its default, lgpio on a Pi; a
    ``MockFactory`` in simulation). Call :meth:`tick` regularly, or
    :meth:`start` a thread that does.
    """

    def __init__(self, rig: Rig, *, pin_factory=None, clock=None, events: Optional[queue.Queue] = None):
        from gpiozero import Button

        self.rig = rig
        self.clock = clock if clock is not None else SystemClock()
        self.events: queue.Queue = events if events is not None else queue.Queue()
        self._lock = threading.RLock()  # a simulated pin calls back in the thread that drives it
        self._edge_time: Optional[float] = None  # set inside :meth:`stamped`
        self._devices: dict[tuple[Optional[int], str], Button] = {}
        self._states: list[_ButtonState] = []
        self._ticker: Optional[threading.Thread] = None
        self._stop = threading.Event()
        self._edged = threading.Event()
        try:
            for (seat, name), pin in rig.button_pins().items():
                device = Button(pin, pull_up=True, pin_factory=pin_factory)
                pressed, now = device.is_pressed, self.clock.now()
                state = _ButtonState(seat, name, name in rig.long_press, pressed, now, pressed, now)
                device.when_pressed = lambda state=state: self._edge(state, True)
                device.when_released = lambda state=state: self._edge(state, False)
                self._devices[seat, name] = device
                self._states.append(state)
        except Exception:
            self.close()
            raise

    def device(self, seat: Optional[int], button: str):
        """The gpiozero ``Button`` of (seat, button); seat None for HOST."""
        try:
            return self._devices[seat, button]
        except KeyError:
            seats = f"seats 0 to {len(self.rig.seats) - 1}"
            raise ValueError(f"no button {button!r} at seat {seat!r}; this rig has {seats} with PREV, NEXT, OK, BACK and seat None with {HOST}") from None

    def _edge(self, state: _ButtonState, pressed: bool) -> None:
        with self._lock:
            now = self.clock.now() if self._edge_time is None else self._edge_time
            # What the level before this edge settled into counts first, though no tick saw it: a ticker held
            # up on a busy machine must not turn a release and a new press into no press at all.
            self._advance(state, now)
            state.raw_pressed = pressed
            state.raw_since = now
            released_long_enough = now - state.released_since >= self.rig.debounce_s
            if pressed and not state.pressed and not state.long_press and released_long_enough:
                state.pressed = True
                state.pressed_since = now
                self._emit(state, PRESS, now)
        self._edged.set()

    @contextlib.contextmanager
    def stamped(self):
        """Inside, no tick runs and the edges this thread makes count at the time last given to the function it
        yields, whenever the thread gets to make them: the simulator's tap stays a tap on a busy machine."""
        def at(time: float) -> None:
            self._edge_time = time

        with self._lock:
            try:
                yield at
            finally:
                self._edge_time = None

    def tick(self) -> None:
        """Confirm levels stable for the debounce time and fire holds that are due."""
        now = self.clock.now()
        with self._lock:
            for state in self._states:
                self._advance(state, now)

    def _advance(self, state: _ButtonState, now: float) -> None:
        """What time alone has made of ``state`` by ``now``: a level stable for the debounce time counts, a hold
        that is due fires. Called with the lock held."""
        if state.settling() and now - state.raw_since >= self.rig.debounce_s - TIME_TOLERANCE:
            state.pressed = state.raw_pressed
            if state.pressed:
                state.pressed_since = state.raw_since
                state.held = False
                if not state.long_press:
                    self._emit(state, PRESS, state.raw_since)
            else:
                state.released_since = state.raw_since
                if state.long_press and not state.held:
                    self._emit(state, PRESS, state.pressed_since)
        if state.holding() and now - state.pressed_since >= self.rig.hold_s - TIME_TOLERANCE:
            state.held = True
            self._emit(state, HOLD, state.pressed_since + self.rig.hold_s)

    def _emit(self, state: _ButtonState, kind: str, at: float) -> None:
        self.events.put(ButtonEvent(state.seat, state.name, kind, at))

    def _waiting(self) -> bool:
        """Whether a level waits for its debounce time or a held button for its hold time: only then does
        time alone change anything."""
        with self._lock:
            return any(state.settling() or state.holding() for state in self._states)

    def start(self, period: float = 0.005) -> None:
        """Tick on a daemon thread until :meth:`close`: every ``period`` seconds while something waits for
        its time (see :meth:`_waiting`), else at the next edge, so that idle buttons cost no CPU."""
        if self._ticker is None:
            self._ticker = threading.Thread(target=self._run, args=(period,), name="button-ticker", daemon=True)
            self._ticker.start()

    def _run(self, period: float) -> None:
        while not self._stop.is_set():
            self._edged.wait(period if self._waiting() else None)
            self._edged.clear()
            if not self._stop.is_set():
                self.tick()

    def close(self) -> None:
        """Stop ticking and release the pins; safe to call twice."""
        self._stop.set()
        self._edged.set()
        if self._ticker is not None and self._ticker is not threading.current_thread():
            self._ticker.join()
        self._ticker = None
        # Each gpiozero Button joins its own hold thread on close (up to its hold
        # time while pressed); closing them side by side keeps shutdown short.
        closers = [threading.Thread(target=device.close) for device in self._devices.values()]
        for closer in closers:
            closer.start()
        for closer in closers:
            closer.join()
        self._devices.clear()
