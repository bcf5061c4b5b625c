"""The running table: hardware, session, LED display and the button feed, started and stopped together."""
import queue
import threading

from firmware_py.display import TableDisplay
from firmware_py.session import Press, Session


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
