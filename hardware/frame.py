"""The frame buffer: what the table should show, turned into safe wire bytes.

Callers draw RGB colours by (panel, x, y) or by table coordinates; ``show()``
then applies gamma and the brightness cap (one lookup table), scales the frame
down if its estimated current exceeds the power budget, permutes the bytes to
each chain's wire order and hands the resulting :class:`Frame` to the sink.
All of it is byte-table work (``bytes.translate``, ``itemgetter``), which is
what keeps a 1,536-LED frame well under the wire time of the chains.

A FrameBuffer belongs to one thread (the renderer); sinks may be read from others.
"""
from __future__ import annotations

import dataclasses
from typing import Optional, Protocol

from hardware.layout import Layout
from hardware.rig import Rig

Colour = tuple[int, int, int]


@dataclasses.dataclass(frozen=True)
class Frame:
    """One frame as sent: wire bytes per channel plus the limiter's figures."""

    seq: int
    channels: tuple[bytes, ...]
    """Per data pin, three bytes per LED in the rig's colour order, in chain order."""
    estimated_milliamps: float
    """Estimated LED current of this frame, after limiting."""
    limiter_scale: float
    """1.0 when the frame fitted the budget, else the factor it was scaled by."""


class PixelSink(Protocol):
    """Anything that takes finished frames: LED hardware or a simulator view."""

    def write(self, frame: Frame) -> None: ...

    def close(self) -> None: ...


def level_table(gamma: float, cap: float) -> bytes:
    """Colour value to drive level: gamma-corrected, then scaled by the brightness cap."""
    return bytes(round(255 * cap * (value / 255) ** gamma) for value in range(256))


def display_table(gamma: float) -> bytes:
    """Drive level back to a screen colour value (the inverse gamma), for simulator views."""
    return bytes(round(255 * (level / 255) ** (1 / gamma)) for level in range(256))


def estimate_milliamps(rig: Rig, levels: bytes) -> float:
    """Estimated current of drive levels: each channel in proportion to its level, plus the idle draw."""
    return sum(levels) * rig.milliamps_per_channel / 255 + (len(levels) // 3) * rig.idle_milliamps


class FrameBuffer:
    """RGB pixels of every panel, shown on a sink with gamma, cap, limiter and wire mapping.

    Usage: ``leds["centre", 0, 0] = (255, 128, 0)`` (or ``leds.set_table(16, 16, ...)``),
    then ``leds.show()``. :func:`hardware.simulate` and :func:`hardware.open_hardware`
    build one wired to the right sinks.
    """

    def __init__(self, layout: Layout, sink: PixelSink, *, brightness: float = 1.0):
        self.layout = layout
        self.rig = layout.rig
        self.sink = sink
        self._pixels = bytearray(3 * layout.led_count)
        self._panels = {
            panel.name: (3 * layout.panel_start[panel.name], panel.width, panel.height) for panel in self.rig.panels
        }
        self._budget_milliamps = self.rig.budget_amps * 1000
        self._idle_milliamps = layout.led_count * self.rig.idle_milliamps
        self._seq = 0
        self._levels = b""
        self.brightness = brightness

    @property
    def brightness(self) -> float:
        """The brightness setting, 0 to 1, as a share of the rig's ``max_brightness`` cap."""
        return self._brightness

    @brightness.setter
    def brightness(self, value: float) -> None:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
            raise ValueError(f"brightness must be a number from 0 to 1, not {value!r}")
        self._brightness = float(value)
        self._levels = level_table(self.rig.gamma, self.rig.max_brightness * self._brightness)

    def lowest_value(self, level: int) -> int:
        """The smallest colour value that the LEDs drive at ``level`` (of 255) or more after gamma and
        the brightness cap, 255 when none reaches it: what a faint but visible colour needs."""
        return next((value for value in range(256) if self._levels[value] >= level), 255)

    def _panel(self, name: str) -> tuple[int, int, int]:
        """(first byte, width, height) of a panel; the rig's ValueError for an unknown name."""
        found = self._panels.get(name)
        return found if found is not None else self._panels[self.rig.panel(name).name]

    def _index(self, panel: str, x: int, y: int) -> int:
        start, width, height = self._panel(panel)
        if not (0 <= x < width and 0 <= y < height):
            raise ValueError(f"({x}, {y}) is outside panel {panel!r} ({width}x{height})")
        return start + 3 * (y * width + x)

    def set(self, panel: str, x: int, y: int, colour: Colour) -> None:
        """Colour one LED by its panel's logical coordinates."""
        self[panel, x, y] = colour

    def get(self, panel: str, x: int, y: int) -> Colour:
        index = self._index(panel, x, y)
        return tuple(self._pixels[index : index + 3])

    def __setitem__(self, key: tuple[str, int, int], colour: Colour) -> None:
        # The renderer's hot path: one dictionary look-up and one slice assignment per LED.
        panel, x, y = key
        found = self._panels.get(panel)
        if found is None or not (0 <= x < found[1] and 0 <= y < found[2]):
            self._index(panel, x, y)  # raises the error that names the problem
        index = found[0] + 3 * (y * found[1] + x)
        self._pixels[index : index + 3] = _colour_bytes(colour)

    def __getitem__(self, key: tuple[str, int, int]) -> Colour:
        return self.get(*key)

    def _table_key(self, x: int, y: int) -> tuple[str, int, int]:
        key = self.layout.table_to_panel(x, y)
        if key is None:
            raise ValueError(f"table position ({x}, {y}) has no LED")
        return key

    def set_table(self, x: int, y: int, colour: Colour) -> None:
        """Colour the LED at table coordinates (x right, y down, seen from seat 0)."""
        self.set(*self._table_key(x, y), colour)

    def get_table(self, x: int, y: int) -> Colour:
        return self.get(*self._table_key(x, y))

    def set_panel(self, panel: str, pixels: bytes) -> None:
        """Replace a whole panel with RGB bytes, row by row (``width * height * 3`` of them)."""
        start, width, height = self._panel(panel)
        if len(pixels) != 3 * width * height:
            raise ValueError(f"panel {panel!r} needs {3 * width * height} bytes (RGB, row by row), not {len(pixels)}")
        self._pixels[start : start + len(pixels)] = pixels

    def get_panel(self, panel: str) -> bytes:
        """A panel's RGB bytes, row by row."""
        start, width, height = self._panel(panel)
        return bytes(self._pixels[start : start + 3 * width * height])

    def fill(self, colour: Colour, panel: Optional[str] = None) -> None:
        """Colour every LED of one panel, or of the whole table."""
        rgb = _colour_bytes(colour)
        if panel is None:
            self._pixels[:] = rgb * self.layout.led_count
        else:
            _, width, height = self._panel(panel)
            self.set_panel(panel, rgb * (width * height))

    def clear(self) -> None:
        self.fill((0, 0, 0))

    def render(self) -> Frame:
        """The frame ``show()`` would send now, without sending it."""
        levels = bytes(self._pixels).translate(self._levels)
        estimate = estimate_milliamps(self.rig, levels)
        scale = 1.0
        if estimate > self._budget_milliamps:
            scale = (self._budget_milliamps - self._idle_milliamps) / (estimate - self._idle_milliamps)
            # Rounding every level down keeps the scaled estimate under the budget.
            levels = levels.translate(bytes(int(level * scale) for level in range(256)))
            estimate = estimate_milliamps(self.rig, levels)
        self._seq += 1
        return Frame(self._seq, self.layout.to_wire(levels), estimate, scale)

    def show(self) -> Frame:
        """Send the current pixels to the sink; returns the frame that was sent."""
        frame = self.render()
        self.sink.write(frame)
        return frame


def _colour_bytes(colour: Colour) -> bytes:
    """Three bytes for an (r, g, b) colour; ValueError for anything else, before any pixel changes."""
    try:
        rgb = bytes(colour)
    except (TypeError, ValueError):
        rgb = b""
    if len(rgb) != 3 or isinstance(colour, int):
        raise ValueError(f"a colour must be (r, g, b) with each from 0 to 255, not {colour!r}")
    return rgb
