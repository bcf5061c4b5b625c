"""Hardware layer: LED matrices, arcade buttons, the rig file and the simulator. Knows nothing about games.

The table runtime needs only this package's top level::

    hw = hardware.open_hardware()          # real rig on a Pi, simulator elsewhere
    hw.leds["centre", 3, 4] = (255, 96, 0)
    hw.leds.show()
    event = hw.events.get()                # ButtonEvent(seat=0, button="OK", kind="press", ...)

See docs/rig.md for the rig file, the backends and the wiring.
"""
from hardware.backends import BACKEND_VARIABLE, HARDWARE_BACKENDS, BackendUnavailable, resolve_backend
from hardware.doctor import Finding, check_hardware
from hardware.buttons import HOLD, PRESS, ButtonEvent, ButtonInput, ManualClock, SystemClock
from hardware.frame import Frame, FrameBuffer, PixelSink
from hardware.layout import Layout
from hardware.rig import BUTTON_NAMES, HOST, SEAT_BUTTONS, Rig, RigError, load_rig, parse_rig
from hardware.sinks import FrameStream, MemorySink, PanelFrame, PngSink, SinkGroup, render_png
from hardware.terminal import TerminalSink, render_ansi
from hardware.table import Hardware, SimulatedHardware, open_hardware, simulate

__all__ = [
    "BACKEND_VARIABLE",
    "BUTTON_NAMES",
    "HARDWARE_BACKENDS",
    "HOLD",
    "HOST",
    "PRESS",
    "SEAT_BUTTONS",
    "BackendUnavailable",
    "ButtonEvent",
    "ButtonInput",
    "Frame",
    "Finding",
    "FrameBuffer",
    "FrameStream",
    "Hardware",
    "Layout",
    "ManualClock",
    "MemorySink",
    "PanelFrame",
    "PixelSink",
    "PngSink",
    "Rig",
    "RigError",
    "SimulatedHardware",
    "SinkGroup",
    "SystemClock",
    "TerminalSink",
    "check_hardware",
    "load_rig",
    "open_hardware",
    "parse_rig",
    "render_ansi",
    "render_png",
    "resolve_backend",
    "simulate",
]
