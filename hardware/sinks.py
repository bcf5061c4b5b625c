"""Simulator sinks: frames kept in memory, drawn as PNG, or streamed to subscribers (the terminal's view is
in :mod:`hardware.terminal`).

Every view decodes the *wire bytes* back to panels through the rig's layout,
exactly as the chained LEDs would, so a mapping mistake shows up in the
simulator and in tests instead of only on the real table. Views show drive
levels through the inverse gamma, so a capped or limited frame looks as much
dimmer on screen as it does on the table.
"""
from __future__ import annotations

import collections
import dataclasses
import io
import os
import tempfile
import threading
from pathlib import Path
from typing import Iterable, Mapping, Optional

from hardware.frame import Colour, Frame, PixelSink, display_table
from hardware.layout import Layout


@dataclasses.dataclass(frozen=True)
class PanelFrame:
    """A frame decoded per panel: RGB bytes row by row, as driven and as shown on a screen."""

    seq: int
    levels: Mapping[str, bytes]
    """Drive levels (after gamma, cap and limiter) per panel."""
    display: Mapping[str, bytes]
    """The same through the inverse gamma: screen colours for a simulator view."""
    widths: Mapping[str, int]

    def pixel(self, panel: str, x: int, y: int, *, display: bool = False) -> Colour:
        """One LED's drive levels (or screen colour) by logical panel coordinates."""
        width = self.widths[panel]
        start = 3 * (y * width + x)
        return tuple((self.display if display else self.levels)[panel][start : start + 3])

    def rows(self, panel: str, *, display: bool = False) -> list[list[Colour]]:
        """A panel as rows of (r, g, b)."""
        data = (self.display if display else self.levels)[panel]
        width = self.widths[panel]
        colours = [tuple(data[i : i + 3]) for i in range(0, len(data), 3)]
        return [colours[row : row + width] for row in range(0, len(colours), width)]


class FrameDecoder:
    """Turns wire frames back into :class:`PanelFrame` values for one layout."""

    def __init__(self, layout: Layout):
        self.layout = layout
        self._display = display_table(layout.rig.gamma)
        self._widths = {panel.name: panel.width for panel in layout.rig.panels}

    def decode(self, frame: Frame) -> PanelFrame:
        levels = self.layout.to_panels(frame.channels)
        display = {name: data.translate(self._display) for name, data in levels.items()}
        return PanelFrame(frame.seq, levels, display, self._widths)


class MemorySink:
    """Keeps the last ``keep`` frames (all of them when None) for tests and replays."""

    def __init__(self, layout: Layout, keep: Optional[int] = None):
        self.decoder = FrameDecoder(layout)
        self.frames: collections.deque[Frame] = collections.deque(maxlen=keep)

    def write(self, frame: Frame) -> None:
        self.frames.append(frame)

    def close(self) -> None:
        pass

    @property
    def last(self) -> Frame:
        if not self.frames:
            raise LookupError("no frame has been shown yet")
        return self.frames[-1]

    def wire(self, channel: int = 0, index: int = -1) -> bytes:
        """Wire bytes of one channel of a kept frame (the last by default)."""
        return self._frame(index).channels[channel]

    def panels(self, index: int = -1) -> PanelFrame:
        """A kept frame (the last by default) decoded per panel."""
        return self.decoder.decode(self._frame(index))

    def _frame(self, index: int) -> Frame:
        return self.frames[index] if self.frames else self.last


class FrameStream:
    """Latest-frame broadcast: the writer never waits, each subscriber sees the newest frame.

    A slow subscriber skips frames rather than holding the renderer up; the web
    simulator page reads one of these.
    """

    def __init__(self, layout: Layout):
        self.decoder = FrameDecoder(layout)
        self._changed = threading.Condition()
        self._latest: Optional[PanelFrame] = None
        self._closed = False

    def write(self, frame: Frame) -> None:
        decoded = self.decoder.decode(frame)
        with self._changed:
            self._latest = decoded
            self._changed.notify_all()

    def close(self) -> None:
        """Ends the stream: waiting subscribers wake up and get None."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    @property
    def latest(self) -> Optional[PanelFrame]:
        return self._latest

    def subscribe(self) -> Subscription:
        return Subscription(self)


class Subscription:
    """One reader of a :class:`FrameStream`; iterate it, or call :meth:`next` with a timeout."""

    def __init__(self, stream: FrameStream):
        self._stream = stream
        self._seen = 0

    def next(self, timeout: Optional[float] = None) -> Optional[PanelFrame]:
        """The newest frame not seen yet; waits up to ``timeout`` seconds, None on timeout or close."""
        stream = self._stream
        with stream._changed:
            fresh = stream._changed.wait_for(
                lambda: stream._closed or (stream._latest is not None and stream._latest.seq > self._seen), timeout
            )
            if not fresh or stream._closed:
                return None
            self._seen = stream._latest.seq
            return stream._latest

    def __iter__(self):
        while (frame := self.next()) is not None:
            yield frame


class SinkGroup:
    """Several sinks fed the same frames, in order."""

    def __init__(self, sinks: Iterable[PixelSink]):
        self.sinks = tuple(sinks)

    def write(self, frame: Frame) -> None:
        for sink in self.sinks:
            sink.write(frame)

    def close(self) -> None:
        for sink in self.sinks:
            sink.close()


TABLE_COLOUR = (38, 34, 30)
BOARD_COLOUR = (8, 8, 8)
SEAM_COLOUR = (110, 110, 110)
DARK_LED = (28, 28, 28)
"""How an LED that is off looks: the package is faintly visible, so the grid shows."""


def table_colours(layout: Layout, panels: Mapping[str, bytes]) -> dict[tuple[int, int], Colour]:
    """Screen colour of every LED by table position; dark LEDs (and missing panels) as DARK_LED."""
    colours = {}
    for (tx, ty), (name, x, y) in layout.table_cells():
        data = panels.get(name)
        start = 3 * (y * layout.rig.panel(name).width + x)
        colour = tuple(data[start : start + 3]) if data is not None else (0, 0, 0)
        colours[tx, ty] = colour if any(colour) else DARK_LED
    return colours


def render_png(layout: Layout, panels: Mapping[str, bytes], path: Optional[str | Path] = None, *, led_pixels: int = 12) -> bytes:
    """Draw the table: each LED a round dot in its screen colour, panels on dark boards, module seams outlined.

    ``panels`` maps panel names to RGB bytes row by row (missing panels are dark);
    returns the PNG bytes and also writes them to ``path`` when given.
    """
    from PIL import Image, ImageDraw

    margin = led_pixels
    width, height = layout.rig.table_size
    image = Image.new("RGB", (width * led_pixels + 2 * margin, height * led_pixels + 2 * margin), TABLE_COLOUR)
    draw = ImageDraw.Draw(image)

    def box(panel: str, x0: int, y0: int, x1: int, y1: int) -> tuple[int, int, int, int]:
        """Screen rectangle of the panel cells from (x0, y0) to (x1, y1) inclusive."""
        corners = [layout.panel_to_table(panel, x, y) for x, y in ((x0, y0), (x1, y1))]
        left, right = sorted(c[0] for c in corners)
        top, bottom = sorted(c[1] for c in corners)
        return (margin + left * led_pixels, margin + top * led_pixels, margin + (right + 1) * led_pixels - 1, margin + (bottom + 1) * led_pixels - 1)

    for panel in layout.rig.panels:
        draw.rectangle(box(panel.name, 0, 0, panel.width - 1, panel.height - 1), fill=BOARD_COLOUR)
    inset = max(1, led_pixels // 6)
    for (tx, ty), colour in table_colours(layout, panels).items():
        left, top = margin + tx * led_pixels, margin + ty * led_pixels
        draw.ellipse((left + inset, top + inset, left + led_pixels - 1 - inset, top + led_pixels - 1 - inset), fill=colour)
    for panel in layout.rig.panels:
        for module in panel.modules:
            (ox, oy), (w, h) = module.offset, module.size
            draw.rectangle(box(panel.name, ox, oy, ox + w - 1, oy + h - 1), outline=SEAM_COLOUR)

    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False)
    data = buffer.getvalue()
    if path is not None:
        _write_atomically(Path(path), data)
    return data


def _write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` in one step, so a viewer never reads half a picture."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.chmod(temporary, 0o644)  # mkstemp makes it private; the picture is meant to be read
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


class PngSink:
    """Draws every frame to a PNG file (replaced atomically) and keeps the last picture."""

    def __init__(self, layout: Layout, path: str | Path, *, led_pixels: int = 12):
        self.layout = layout
        self.path = Path(path)
        self.led_pixels = led_pixels
        self.decoder = FrameDecoder(layout)
        self.last_png: Optional[bytes] = None

    def write(self, frame: Frame) -> None:
        self.last_png = render_png(self.layout, self.decoder.decode(frame).display, self.path, led_pixels=self.led_pixels)

    def close(self) -> None:
        pass
