"""The LED view of a session: renders every snapshot, blinks the highlight, shows the HOST menu.

The session thread hands snapshots over with :meth:`TableDisplay.update`; a
render thread owns the frame buffer and draws the newest one at once, then
again on every blink phase, so a button press reaches the LEDs without
waiting for the blink timer. Nothing a snapshot holds can stop the render
thread: a frame that fails to draw is logged and the thread goes on with the
next one.
"""
import logging
import threading
import time

from firmware_py import font, layouts, palette
from firmware_py.painter import Painter
from firmware_py.session import UNDO_REQUEST_S

BLINK_PERIOD_S = 0.5
FLASH_S = 0.6
CODE_S = 2.5  # how long a refused press's code stays on its panel: long enough to read
REFUSAL_CODES = (
    ("'s decision, not", "TRN"),
    ("the game is over", "END"),
    ("only one option", "ONE"),
    ("hold HOST", "HLD"),
    ("step back", "BCK"),
    ("undo", "UND"),
)
"""The short code a refused press at the rig shows on its panel, by the table's reason for refusing it:
another seat's turn, the game is over, nothing to step through, HOST must be held, nothing to step back
to, an undo that cannot be asked or answered. The help page's legend explains each."""
OTHER_REFUSAL = "NO"


def refusal_code(reason: str) -> str:
    """The code :data:`REFUSAL_CODES` gives the refusal ``reason`` (the table's message), else ``NO``."""
    return next((code for found, code in REFUSAL_CODES if found in reason), OTHER_REFUSAL)
PIN_SHOWN_S = 90.0
PIN_BAND_ROWS = 7

log = logging.getLogger(__name__)


class TableDisplay:
    """Draws snapshots of one session on a :class:`hardware.FrameBuffer`."""

    def __init__(self, leds, *, clock=time.monotonic):
        self.leds = leds
        self._clock = clock
        self._wake = threading.Condition()
        self._snapshot = None
        self._drawn_version = None
        self._flash_until = 0.0
        self._code_until = 0.0
        self._pin = None
        self._pin_until = 0.0
        self._host_code_until = float("-inf")  # when a frame last showed a code over the centre panel
        self._pin_band = None  # (panel, top row) where the join code was last drawn
        self.address = ""  # where phones join, for the HOST menu's "address" (set by the phone remote)
        self._thread = None
        self._running = False
        self.frames_drawn = 0
        self.frames_failed = 0
        self._failed_version = None

    # -- session side --------------------------------------------------------

    def update(self, snapshot):
        """Take a new snapshot (called on the session thread); the render thread draws it at once."""
        with self._wake:
            if snapshot.flash is not None:
                self._flash_until = self._clock() + FLASH_S
                self._code_until = self._clock() + CODE_S
            self._snapshot = snapshot
            self._wake.notify_all()

    def show_pin(self, pin: str, seconds: float = PIN_SHOWN_S):
        """Show the phone remote's join code along the bottom of the centre panel for ``seconds``."""
        with self._wake:
            self._pin = pin
            self._pin_until = self._clock() + seconds
            self._drawn_version = None  # draw again now, even without a new snapshot
            self._wake.notify()

    # -- render thread -------------------------------------------------------

    def start(self):
        if self._thread is None:
            self._running = True
            self._thread = threading.Thread(target=self._run, name="leds", daemon=True)
            self._thread.start()
        return self

    def stop(self):
        """Stop rendering and darken every LED."""
        with self._wake:
            self._running = False
            self._wake.notify_all()
        if self._thread is not None:
            self._thread.join(2.0)
            self._thread = None
        self.leds.clear()
        self.leds.show()

    def _run(self):
        while True:
            with self._wake:
                if not self._running:
                    return
                snapshot = self._snapshot
                if snapshot is None or snapshot.version == self._drawn_version:
                    self._wake.wait(self._until_next_phase())
                    snapshot = self._snapshot
                if not self._running:
                    return
            if snapshot is not None:
                self._draw_or_log(snapshot)

    def _draw_or_log(self, snapshot):
        """Draw ``snapshot``; a failure is logged once per version and the version counts as drawn (the
        thread then waits for the next blink phase or snapshot instead of spinning on the same failure)."""
        try:
            self.draw(snapshot)
        except Exception:  # noqa: BLE001 - the LEDs must outlive any bad frame
            with self._wake:
                if self._failed_version != snapshot.version:
                    log.exception("the LEDs could not draw version %s; going on with the next frame", snapshot.version)
                self._failed_version = snapshot.version
                self._drawn_version = snapshot.version
                self.frames_failed += 1
                self._wake.notify_all()

    def _until_next_phase(self):
        half = BLINK_PERIOD_S / 2
        return half - (self._clock() % half) + 0.001

    def blink_on(self) -> bool:
        return int(self._clock() / (BLINK_PERIOD_S / 2)) % 2 == 0

    def draw(self, snapshot):
        """Compose the whole table for ``snapshot`` and write it to the LEDs."""
        leds = self.leds
        leds.brightness = snapshot.setting("brightness")
        leds.clear()
        painter = Painter(leds, snapshot.setup.game, snapshot.setting("palette"))
        layout = layouts.for_game(snapshot.setup.game)
        layout.draw(painter, snapshot)
        if snapshot.host_code is not None:
            layouts.draw_host_code(painter, snapshot.host_code)
            self._host_code_until = self._clock()
        elif snapshot.showing == "address":
            layouts.draw_address(painter, self.address, snapshot.credentials.join_code, self._scroll_step())
            self._host_code_until = self._clock()  # the join code is on it too
        elif snapshot.showing == "legend":
            layouts.draw_legend(painter)
        elif snapshot.menu is not None:
            layouts.draw_menu(painter, snapshot.menu)
        elif snapshot.over:
            layouts.draw_winners(painter, snapshot.winners)
        else:
            self._draw_highlights(painter, layout, snapshot)
        if snapshot.undo_request is not None:
            remaining = snapshot.undo_request.expires - self._clock()
            layouts.draw_undo_request(painter, snapshot.undo_request, remaining, UNDO_REQUEST_S,
                                      needed_pixels(layout, snapshot))
        self._draw_flash(painter, snapshot)
        self._draw_pin(painter, layout, snapshot)
        leds.show()
        with self._wake:
            self._drawn_version = snapshot.version
            self.frames_drawn += 1
            self._wake.notify_all()

    def wait_drawn(self, version: int, timeout: float = 5.0) -> bool:
        """Block until a frame of ``version`` (or later) has been written; False on timeout."""
        with self._wake:
            return self._wake.wait_for(
                lambda: self._drawn_version is not None and self._drawn_version >= version, timeout
            )

    def _draw_highlights(self, painter, layout, snapshot):
        """The blinking highlight of the option under the current seat's cursor."""
        seat = snapshot.current_player
        if seat is None or snapshot.cursors[seat] is None or not snapshot.options:
            return
        layout.draw_highlight(painter, snapshot, snapshot.options[snapshot.cursors[seat]], self.blink_on())

    def secret_areas(self, margin: float = 0.0) -> list:
        """Where the LEDs show a code now, or did up to ``margin`` seconds ago: [(panel, x, y, width, height)].

        The host code (and the HOST menu's JOIN) fills the centre panel while it
        is asked for; the join code lies on its band (see :func:`free_band`). The
        simulator page blanks these areas in the frames it sends to any computer
        but the table's own.
        """
        size = self._centre_size()
        if size is None:
            return []
        width, height = size
        now, areas = self._clock(), []
        if now <= self._host_code_until + margin:
            areas.append(("centre", 0, 0, width, height))
        if self._pin is not None and now <= self._pin_until + margin:
            panel, top = self._pin_band or ("centre", height - PIN_BAND_ROWS)  # before its first frame: the foot
            areas.append((panel, 0, top, width, PIN_BAND_ROWS))
        return areas

    def _centre_size(self):
        for panel in self.leds.layout.rig.panels:
            if panel.name == "centre":
                return panel.width, panel.height
        return None

    def _scroll_step(self) -> int:
        """How far scrolling text has moved: one LED per blink phase, so every redraw moves it."""
        return int(self._clock() / (BLINK_PERIOD_S / 2))

    def _draw_pin(self, painter, layout, snapshot):
        """The join code on a dark band while it is being shown, where it hides nothing the pending
        decision needs (see :func:`free_band`) and, while the HOST menu fills the centre panel, none of
        its items; not at all when there is no such place (JOIN in the menu shows it)."""
        if self._pin is None or self._clock() > self._pin_until:
            return
        spot = free_band(painter, layout, snapshot, PIN_BAND_ROWS, centre=snapshot.menu is None)
        if spot is None:
            return
        panel, top = spot
        self._pin_band = spot
        width, _ = painter.panel_size(panel)
        painter.rect(panel, 0, top, width, PIN_BAND_ROWS, palette.OFF)
        painter.text(panel, max(0, (width - 4 * len(self._pin)) // 2), top + 1, self._pin, palette.CURSOR)


    def _draw_flash(self, painter, snapshot):
        """A red frame round the seat whose input was refused (the centre for the HOST button), and the
        refusal's code in the panel's middle a little longer."""
        if snapshot.flash is None or self._clock() > self._code_until:
            return
        seat = snapshot.flash[0]
        panel = "centre" if seat is None else layouts.seat_panel(seat)
        width, height = painter.panel_size(panel)
        code = refusal_code(snapshot.flash[1])
        left, top = (width - font.text_width(code)) // 2, (height - font.GLYPH_HEIGHT) // 2
        painter.rect(panel, left - 1, top - 1, font.text_width(code) + 2, font.GLYPH_HEIGHT + 2, palette.OFF)
        painter.text(panel, left, top, code, palette.ERROR)
        if self._clock() > self._flash_until:
            return
        for x in range(width):
            painter.pixel(panel, x, 0, palette.ERROR)
            painter.pixel(panel, x, height - 1, palette.ERROR)
        for y in range(height):
            painter.pixel(panel, 0, y, palette.ERROR)
            painter.pixel(panel, width - 1, y, palette.ERROR)


def needed_pixels(layout, snapshot) -> set:
    """The LEDs (panel, x, y) the options of the pending decision concern: nothing may cover them."""
    return {pixel for option in snapshot.options for pixel in layout.option_pixels(snapshot, option)}


def free_band(painter, layout, snapshot, rows: int, centre: bool = True):
    """(panel, top row) of a full-width band of ``rows`` that covers no LED an option of the pending
    decision concerns: the foot of the centre panel, else its top (only if ``centre``), else the panel
    of a seat the game leaves empty; None when there is none."""
    needed = {(panel, y) for panel, _, y in needed_pixels(layout, snapshot)}
    _, height = painter.panel_size("centre")
    candidates = [("centre", height - rows), ("centre", 0)] if centre else []
    candidates += [(layouts.seat_panel(seat), 0) for seat in range(len(snapshot.setup.seats), layouts.MAX_SEATS)]
    for panel, top in candidates:
        if painter.has_panel(panel) and not any(p == panel and top <= y < top + rows for p, y in needed):
            return panel, top
    return None
