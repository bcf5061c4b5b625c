"""The running table: hardware, session, LED display and the button feed, started and stopped together."""
import queue
import sys
import threading

from firmware_py.display import TableDisplay
from firmware_py.session import Press, Session


def tell(text, *, note=None, terminal=None):
    """A line for the person at this computer, on standard error after the program's name (a text of
    several lines, a picture such as a QR code, as it is).

    Where the simulator draws the LEDs in this terminal (``terminal``, a
    :class:`hardware.TerminalSink`), a line given a ``note`` name stays on show
    under the drawing instead (a later line of the same name replaces it, None
    removes it): printed, it would scroll the drawing and be drawn over at the
    next frame.
    """
    if note is not None and terminal is not None:
        terminal.note(note, text)
        if sys.stderr.isatty():
            return
    if text is not None:
        print(text if "\n" in text else f"azul-table: {text}", file=sys.stderr, flush=True)


class Table:
    """Wires a session to a rig: button events in, LED frames out.

    ``hardware`` is a :class:`hardware.Hardware` (or the simulator). Closing the
    table stops every thread and darkens the LEDs.
    """

    def __init__(self, hardware, session: Session, *, clock=None):
        self.hardware = hardware
        self.session = session
        self.display = TableDisplay(hardware.leds, **({"clock": clock} if clock else {}))
        self._stop = threading.Event()
        self._feeder = threading.Thread(target=self._feed_buttons, name="buttons", daemon=True)

    def start(self):
        self.session.subscribe(self.display.update)
        self.display.start()
        self.session.start()
        self._feeder.start()
        return self

    def tell(self, text, *, note=None):
        """:func:`tell` on this table's terminal drawing, if it has one."""
        tell(text, note=note, terminal=getattr(self.hardware, "terminal", None))

    def _feed_buttons(self):
        """Turn the hardware's button events into session commands, in order."""
        events = self.hardware.events
        while not self._stop.is_set():
            try:
                event = events.get(timeout=0.1)
            except queue.Empty:
                continue
            self.session.submit(Press(event.seat, event.button, event.kind))

    def close(self):
        """Stop the threads, darken the LEDs and release the hardware; safe to call twice."""
        if self._stop.is_set():
            return
        self._stop.set()
        if self._feeder.is_alive():
            self._feeder.join(1.0)
        self.session.stop()
        self.display.stop()
        self.hardware.close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc_info):
        self.close()
