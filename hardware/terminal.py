"""The simulator's terminal view: the LEDs drawn with half blocks, and lines of text beneath them.

A screen has two parts: the drawing, and *notes*, lines the table program
keeps on show under it (where phones join, the join code, the keys). The
drawing takes the form that fits the terminal: the whole table as it lies,
one character per LED column and two LED rows per line, or where that does not
fit (an 80 x 24 terminal) a compact form: the same panels side by side in
rows, each turned as on the table and labelled, so that the notes stay on
screen. A note of several lines (the QR code of :func:`qr_text`) goes beside
the drawing, or under it, where there is room.
The screen never ends in a newline, so a terminal just as tall as it does not
scroll and lose its top row.
"""
from __future__ import annotations

import os
import re
import shutil
import sys
import threading
import unicodedata
from typing import Callable, Mapping, Optional, Sequence, TextIO

from hardware.frame import Colour, Frame
from hardware.layout import Layout
from hardware.sinks import FrameDecoder, table_colours

RESET = "\x1b[0m"
PANEL_GAP = 1  # columns between panels in the compact drawing
BLOCK_GAP = 2  # columns between the drawing and a block note beside it
_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def display_width(text: str) -> int:
    """Columns ``text`` takes on a terminal: escape sequences take none, wide characters two."""
    plain = _ESCAPE.sub("", text)
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in plain)


def half_blocks(colours: Mapping[tuple[int, int], Colour], width: int, height: int) -> list[str]:
    """Rows of LEDs two by two as lines of upper half blocks: the upper LED in the text colour, the
    lower one as the background. Cells without an LED stay blank; every line ends with the colours reset."""
    lines = []
    for top in range(0, height, 2):
        cells = []
        for x in range(width):
            upper, lower = colours.get((x, top)), colours.get((x, top + 1))
            if upper is None and lower is None:
                cells.append(RESET + " ")
            elif upper is None:
                cells.append("\x1b[49m\x1b[38;2;{};{};{}m▄".format(*lower))
            else:
                background = "\x1b[49m" if lower is None else "\x1b[48;2;{};{};{}m".format(*lower)
                cells.append(background + "\x1b[38;2;{};{};{}m▀".format(*upper))
        lines.append("".join(cells) + RESET)
    return lines


def qr_text(data: str) -> str:
    """``data`` as a QR code of half-block characters, two module rows a line, scannable from a terminal.

    The light modules (and a one-module quiet zone) are the lit half blocks, for
    a terminal of light text on a dark background. The smallest version that
    holds ``data`` at the lowest error correction is chosen (a screen does not
    smudge): a join address such as ``http://192.168.178.100:8080/join`` is a
    version 2 code, 27 columns by 14 lines, which fits beside the compact
    drawing of an 80 x 24 terminal.
    """
    import qrcode  # here, so ``python -m hardware`` (the installer's backend check) needs only the standard library

    code = qrcode.QRCode(border=1, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(data)
    code.make(fit=True)
    light = [[not dark for dark in row] for row in code.get_matrix()]
    if len(light) % 2:
        light.append([False] * len(light[0]))
    cells = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
    return "\n".join("".join(cells[pair] for pair in zip(upper, lower)) for upper, lower in zip(light[::2], light[1::2]))


def render_ansi(layout: Layout, panels: Mapping[str, bytes]) -> list[str]:
    """The whole table as it lies, in truecolor ANSI lines: one character per LED column, two LED rows per line."""
    width, height = layout.rig.table_size
    return half_blocks(table_colours(layout, panels), width, height)


def panel_label(layout: Layout, panel: str) -> str:
    """What the compact drawing writes over a panel: the seat in front of it (counted from 1), else its name."""
    for index, seat in enumerate(layout.rig.seats):
        if seat.panel == panel:
            return f"seat {index + 1}"
    return panel


def compact_drawing(layout: Layout, panels: Mapping[str, bytes], columns: int) -> list[str]:
    """The panels side by side in rows no wider than ``columns``, each turned as on the table, under a label."""
    colours = table_colours(layout, panels)
    pieces = []  # (label, width, lines) per panel, in the rig file's order
    for panel in layout.rig.panels:
        left, top = panel.position
        width, height = panel.footprint
        own = {(x, y): colours[left + x, top + y] for x in range(width) for y in range(height)}
        pieces.append((panel_label(layout, panel.name)[:width], width, half_blocks(own, width, height)))
    rows, row, used = [], [], 0
    for piece in pieces:
        needed = piece[1] + (PANEL_GAP if row else 0)
        if row and used + needed > columns:
            rows.append(row)
            row, used, needed = [], 0, piece[1]
        row.append(piece)
        used += needed
    rows.append(row)
    gap = " " * PANEL_GAP
    lines = []
    for row in rows:
        lines.append(gap.join(label.ljust(width) for label, width, _ in row).rstrip())
        for index in range(max(len(drawn) for _, _, drawn in row)):
            lines.append(gap.join(drawn[index] if index < len(drawn) else " " * width for _, width, drawn in row))
    return lines


def _fit(line: str, columns: int) -> str:
    """A plain text line cut to ``columns``, ending in an ellipsis where it was cut."""
    if display_width(line) <= columns:
        return line
    while display_width(line) > columns - 1:
        line = line[:-1]
    return line + "…"


def screen(layout: Layout, panels: Mapping[str, bytes], notes: Sequence[str], columns: int, lines: int) -> list[str]:
    """The lines of a terminal of ``columns`` x ``lines``: a drawing of the LEDs, then ``notes``.

    One-line notes are always shown (cut to the width if need be); a note of
    several lines (the QR code) goes beside the drawing where there is room,
    else under it, else it is left out. The whole table is drawn where it fits
    with the notes, else the compact drawing: narrowed, where that keeps it as
    tall as the notes allow, so that a block note fits beside it (an 80 x 24
    terminal shows the QR code so), else as wide as the terminal; a terminal
    smaller still gets only a line that says so.
    """
    texts = [_fit(note, columns) for note in notes if "\n" not in note]
    blocks = [note.splitlines() for note in notes if "\n" in note]
    room = lines - len(texts)
    width = layout.rig.table_size[0]
    whole = render_ansi(layout, panels)
    if width <= columns and len(whole) <= room:
        drawing, blocks = _beside(whole, blocks, columns, room)
    else:
        drawing, blocks = _compact_beside(layout, panels, blocks, columns, room)
        if len(drawing) > room or max(map(display_width, drawing)) > columns:
            drawing = [_fit("(the terminal is too small to draw the LEDs)", columns)]
    shown = drawing + texts
    for block in blocks:
        if len(shown) + len(block) <= lines and max(map(display_width, block)) <= columns:
            shown += block
    return shown[:lines]


def _compact_beside(layout, panels, blocks, columns, room):
    """The compact drawing with the first block note that fits beside it in ``columns`` x ``room``
    (the drawing narrowed for it), else the drawing as wide as the terminal; and the blocks left over."""
    for index, block in enumerate(blocks):
        narrowed = compact_drawing(layout, panels, columns - BLOCK_GAP - max(map(display_width, block)))
        drawing, left = _beside(narrowed, [block], columns, room)
        if not left and len(drawing) <= room:
            return drawing, blocks[:index] + blocks[index + 1:]
    return compact_drawing(layout, panels, columns), blocks


def _beside(drawing: list[str], blocks: list[list[str]], columns: int, room: int) -> tuple[list[str], list[list[str]]]:
    """``drawing`` with the first block that fits put to its right (no wider than ``columns``, no taller
    than the drawing or ``room``), and the blocks left over."""
    width = max(map(display_width, drawing))
    for index, block in enumerate(blocks):
        if width + BLOCK_GAP + max(map(display_width, block)) <= columns and len(block) <= max(len(drawing), room):
            height = max(len(drawing), len(block))
            drawn = drawing + [""] * (height - len(drawing))
            padded = block + [""] * (height - len(block))
            beside = [line + " " * (width - display_width(line) + BLOCK_GAP) + extra if extra else line
                      for line, extra in zip(drawn, padded)]
            return beside, blocks[:index] + blocks[index + 1:]
    return drawing, blocks


def terminal_size(stream: TextIO) -> os.terminal_size:
    """The size of the terminal ``stream`` writes to (else the one shutil finds, 80 x 24 if none)."""
    try:
        return os.get_terminal_size(stream.fileno())
    except (AttributeError, ValueError, OSError):
        return shutil.get_terminal_size()


class TerminalSink:
    """Redraws the screen (LEDs and notes) in a truecolor terminal on every frame, a note's change and a resize.

    ``size`` gives the terminal's size (default: asked of ``stream`` at each drawing).
    """

    def __init__(self, layout: Layout, stream: Optional[TextIO] = None, *,
                 size: Optional[Callable[[], os.terminal_size]] = None):
        self.layout = layout
        self.stream = stream if stream is not None else sys.stdout
        self.size = size if size is not None else lambda: terminal_size(self.stream)
        self.decoder = FrameDecoder(layout)
        self._notes: dict[str, str] = {}
        self._panels: Optional[Mapping[str, bytes]] = None
        self._drawn_size = None
        self._cleared = False
        self._lock = threading.Lock()

    def write(self, frame: Frame) -> None:
        panels = self.decoder.decode(frame).display
        with self._lock:
            self._panels = panels
            self._draw()

    def note(self, key: str, text: Optional[str]) -> None:
        """Keep ``text`` on show under the drawing as note ``key`` (in the order first given); None removes it."""
        with self._lock:
            if text is None:
                self._notes.pop(key, None)
            else:
                self._notes[key] = text
            self._draw()

    def notes(self) -> list[str]:
        with self._lock:
            return list(self._notes.values())

    def refit(self) -> None:
        """Draw again if the terminal changed size since the last drawing."""
        with self._lock:
            if self.size() != self._drawn_size:
                self._draw()

    def _draw(self) -> None:
        if self._panels is None:
            return
        self._drawn_size = size = self.size()
        lines = screen(self.layout, self._panels, list(self._notes.values()), size.columns, size.lines)
        # Home, each line cleared to its end, everything below cleared; the cursor stays hidden.
        prefix = "\x1b[H" if self._cleared else "\x1b[?25l\x1b[2J\x1b[H"
        self._cleared = True
        self.stream.write(prefix + "\x1b[K\n".join(lines) + "\x1b[K\x1b[J")
        self.stream.flush()

    def close(self) -> None:
        """Show the cursor again, on a line of its own below the screen."""
        with self._lock:
            if self._cleared:
                self.stream.write("\x1b[?25h\n")
                self.stream.flush()
