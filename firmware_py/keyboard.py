"""Keyboard control of the simulated rig's buttons, for playing at a PC's terminal.

Each key taps a simulated button through its gpiozero mock pin, so the
table goes through exactly the code path of the real buttons. Upper-case
letters hold instead of tap (OK held agrees to an undo request, or with none waiting
asks for a hint; BACK held asks for an undo or refuses one; HOST held opens the menu).
"""
import os
import select
import sys
import termios
import threading
import tty

KEYMAP = {
    "q": (0, "PREV"), "w": (0, "NEXT"), "e": (0, "OK"), "r": (0, "BACK"),
    "u": (1, "PREV"), "i": (1, "NEXT"), "o": (1, "OK"), "p": (1, "BACK"),
    "z": (2, "PREV"), "x": (2, "NEXT"), "c": (2, "OK"), "v": (2, "BACK"),
    "b": (3, "PREV"), "n": (3, "NEXT"), "m": (3, "OK"), ",": (3, "BACK"),
    "h": (None, "HOST"),
}

HELP = (
    "keys: seat 1 q/w/e/r, seat 2 u/i/o/p, seat 3 z/x/c/v, seat 4 b/n/m/, = PREV/NEXT/OK/BACK; "
    "h HOST; Shift holds (E/O/C/M agree to an undo, else a hint; R/P/V/< ask for or refuse an undo; "
    "H menu); Ctrl-C quits"
)

KEYS = "keys: seats 1-4 qwer uiop zxcv bnm, = PREV NEXT OK BACK; h HOST; Shift holds"
"""The keys in one line, kept under the terminal's drawing of the LEDs."""


def key_action(key: str):
    """(seat, button, hold) for ``key``, or None when the key means nothing."""
    lower = {"<": ","}.get(key, key.lower())
    if lower not in KEYMAP:
        return None
    seat, button = KEYMAP[lower]
    return seat, button, key != lower or key == "<"


class KeyboardButtons:
    """Reads single keys from a terminal on a thread and presses the simulated buttons."""

    def __init__(self, hardware, stream=None):
        self.hardware = hardware
        self.stream = stream if stream is not None else sys.stdin
        self._stop = threading.Event()
        self._thread = None
        self._saved = None

    def start(self):
        if not self.stream.isatty():
            return self
        fd = self.stream.fileno()
        self._saved = termios.tcgetattr(fd)
        tty.setcbreak(fd)
        self._thread = threading.Thread(target=self._run, name="keyboard", daemon=True)
        self._thread.start()
        return self

    def _run(self):
        fd = self.stream.fileno()
        while not self._stop.is_set():
            ready, _, _ = select.select([fd], [], [], 0.1)
            if not ready:
                continue
            action = key_action(os.read(fd, 1).decode(errors="ignore"))
            if action is None:
                continue
            seat, button, hold = action
            if seat is not None and seat >= len(self.hardware.rig.seats):
                continue
            (self.hardware.hold if hold else self.hardware.tap)(seat, button)

    def stop(self):
        self._stop.set()
        if self._thread is not None:
            self._thread.join(1.0)
        if self._saved is not None:
            termios.tcsetattr(self.stream.fileno(), termios.TCSADRAIN, self._saved)
            self._saved = None
