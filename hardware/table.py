"""The whole rig in one object: LEDs and buttons, real or simulated.

:func:`open_hardware` is what the table runtime calls: it resolves the backend
(rig file, ``AZUL_LED_BACKEND``, the board) and returns real hardware on a Pi
or the simulator elsewhere. :func:`simulate` always builds the simulator:
gpiozero ``MockFactory`` pins driven with ``drive_low()``/``drive_high()``, so
the same gpiozero code runs as on the Pi, and LED frames kept in memory and
streamed (plus, on request, drawn to a PNG file or a terminal).
"""
from __future__ import annotations

import os
import queue
from pathlib import Path
from typing import Optional, TextIO

from hardware.backends import BACKEND_VARIABLE, BackendUnavailable, open_led_sink, resolve_backend
from hardware.buttons import ButtonInput, ManualClock
from hardware.frame import FrameBuffer
from hardware.layout import Layout
from hardware.rig import Rig, load_rig
from hardware.sinks import FrameStream, MemorySink, PngSink, SinkGroup
from hardware.terminal import TerminalSink


class Hardware:
    """LEDs (``leds``, a :class:`FrameBuffer`) and buttons (events on ``events``) of one rig."""

    def __init__(self, rig: Rig, layout: Layout, leds: FrameBuffer, buttons: ButtonInput, backend: str):
        self.rig = rig
        self.layout = layout
        self.leds = leds
        self.buttons = buttons
        self.events: queue.Queue = buttons.events
        self.backend = backend

    def close(self) -> None:
        """Release the buttons and darken and release the LEDs; safe to call twice."""
        self.buttons.close()
        self.leds.sink.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()


class SimulatedHardware(Hardware):
    """The simulator: everything :class:`Hardware` has, plus virtual hands on the buttons.

    ``memory`` keeps the frames shown, ``stream`` broadcasts them, ``terminal``
    draws them in a terminal (None when not asked for), ``clock`` is the
    buttons' clock (a :class:`ManualClock` makes timing deterministic: then
    the press helpers tick the buttons themselves).
    """

    def __init__(self, rig, layout, leds, buttons, *, memory: MemorySink, stream: FrameStream, pin_factory,
                 terminal: Optional[TerminalSink] = None):
        super().__init__(rig, layout, leds, buttons, "simulator")
        self.memory = memory
        self.stream = stream
        self.terminal = terminal
        self.pin_factory = pin_factory
        self.clock = buttons.clock
        self._manual = isinstance(self.clock, ManualClock)

    def pin(self, seat: Optional[int], button: str):
        """The gpiozero ``MockPin`` behind (seat, button); seat None for HOST."""
        return self.buttons.device(seat, button).pin

    def press(self, seat: Optional[int], button: str) -> None:
        """Push a button down (the pin goes low, as the switch grounds it)."""
        self.pin(seat, button).drive_low()
        self._settle()

    def release(self, seat: Optional[int], button: str) -> None:
        self.pin(seat, button).drive_high()
        self._settle()

    def wait(self, seconds: float) -> None:
        """Let time pass for the buttons (instantly with a manual clock)."""
        self.clock.sleep(seconds)
        self._settle()

    def tap(self, seat: Optional[int], button: str) -> None:
        """A short press: down, then up twice the debounce time later on the buttons' clock, then that long again
        for the release to count. The release is stamped with its time rather than waited for: a thread that woke
        up late on a busy machine would make the tap last longer, a long press (a hint) for OK."""
        kept = 2 * self.rig.debounce_s
        pressed_at = self.clock.now()
        with self.buttons.stamped() as at:
            at(pressed_at)
            self.press(seat, button)
            at(pressed_at + kept)
            self.release(seat, button)
        self.wait(max(0.0, pressed_at + 2 * kept - self.clock.now()))

    def hold(self, seat: Optional[int], button: str, seconds: Optional[float] = None) -> None:
        """A long press: down for ``seconds`` (default just past the rig's hold time), then up."""
        self.press(seat, button)
        self.wait(self.rig.hold_s + self.rig.debounce_s if seconds is None else seconds)
        self.release(seat, button)
        self.wait(2 * self.rig.debounce_s)

    def _settle(self) -> None:
        if self._manual:
            self.buttons.tick()

    def close(self) -> None:
        super().close()
        self.stream.close()
        self.pin_factory.close()


def simulate(
    rig: Optional[Rig] = None,
    *,
    png_path: Optional[str | Path] = None,
    terminal: Optional[TextIO] = None,
    clock=None,
    events: Optional[queue.Queue] = None,
    keep_frames: Optional[int] = 100,
    brightness: float = 1.0,
) -> SimulatedHardware:
    """Build the simulated rig: frame buffer, simulator sinks and buttons on a gpiozero MockFactory.

    Frames go to memory (the last ``keep_frames``) and to a stream, and also to
    ``png_path`` and ``terminal`` when given. Without a ``clock`` buttons run on
    real time with a ticking thread; pass a :class:`ManualClock` for tests.
    """
    from gpiozero.pins.mock import MockFactory

    rig = rig if rig is not None else load_rig()
    layout = Layout(rig)
    memory = MemorySink(layout, keep=keep_frames)
    stream = FrameStream(layout)
    sinks = [memory, stream]
    if png_path is not None:
        sinks.append(PngSink(layout, png_path))
    drawn = TerminalSink(layout, terminal) if terminal is not None else None
    if drawn is not None:
        sinks.append(drawn)
    leds = FrameBuffer(layout, SinkGroup(sinks), brightness=brightness)
    factory = MockFactory()
    buttons = ButtonInput(rig, pin_factory=factory, clock=clock, events=events)
    if not isinstance(buttons.clock, ManualClock):
        buttons.start()
    return SimulatedHardware(rig, layout, leds, buttons, memory=memory, stream=stream, pin_factory=factory,
                             terminal=drawn)


def open_hardware(
    rig: Optional[Rig] = None,
    *,
    backend: Optional[str] = None,
    events: Optional[queue.Queue] = None,
    brightness: float = 1.0,
    **simulator_options,
) -> Hardware:
    """The rig's hardware, or the simulator where the backend resolves to ``simulator``.

    ``backend`` overrides the rig file and ``AZUL_LED_BACKEND``. On hardware,
    buttons use gpiozero's default pin factory (lgpio on a Pi) and tick on a
    thread. ``simulator_options`` go to :func:`simulate`.

    :raises BackendUnavailable: the backend cannot run here (the message says why).
    """
    rig = rig if rig is not None else load_rig()
    backend = resolve_backend(rig, {BACKEND_VARIABLE: backend} if backend else os.environ)
    if backend == "simulator":
        return simulate(rig, events=events, brightness=brightness, **simulator_options)
    layout = Layout(rig)
    sink = open_led_sink(rig, backend)
    try:
        buttons = ButtonInput(rig, events=events)
    except Exception as error:
        sink.close()
        from gpiozero.exc import BadPinFactory

        if isinstance(error, BadPinFactory):
            raise BackendUnavailable(f"gpiozero found no pin factory for the buttons ({error}); install lgpio") from error
        raise
    buttons.start()
    return Hardware(rig, layout, FrameBuffer(layout, sink, brightness=brightness), buttons, backend)
