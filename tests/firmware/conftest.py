"""Fixtures for the table runtime: a simulated rig with a manual clock, and a running table on it."""
import random

import pytest

import hardware
from firmware_py import font
from firmware_py.session import Session, Setup
from firmware_py.table import Table


class TableDriver:
    """Plays through the simulated rig's buttons and waits for each press to reach the LEDs."""

    def __init__(self, setup: Setup):
        self.hw = hardware.simulate(clock=hardware.ManualClock())
        self.session = Session(setup)
        self.table = Table(self.hw, self.session).start()

    @property
    def snapshot(self):
        return self.session.snapshot

    def tap(self, seat, button, hold=False):
        """Press a button on its mock pin and wait until the resulting frame is on the LEDs."""
        version = self.session.snapshot.version
        (self.hw.hold if hold else self.hw.tap)(seat, button)
        snapshot = self.session.wait_for_change(version, 5.0)
        assert snapshot.version > version, f"{button} at seat {seat} changed nothing"
        assert self.table.display.wait_drawn(snapshot.version), "no frame was drawn"
        return snapshot

    def choose(self, index):
        """Walk the current seat's highlight to option ``index`` (the short way round) and press OK."""
        snapshot = self.snapshot
        seat = snapshot.current_player
        count = len(snapshot.options)
        forward = (index - snapshot.cursors[seat]) % count
        button, steps = ("NEXT", forward) if forward <= count - forward else ("PREV", count - forward)
        for _ in range(steps):
            self.tap(seat, button)
        assert self.snapshot.cursors[seat] == index
        return self.tap(seat, "OK")

    def play_randomly(self, policy_seed, reference):
        """Finish the game with random choices made by button presses, pushing the same moves into ``reference``."""
        choices = random.Random(policy_seed)
        while not self.snapshot.over:
            snapshot = self.snapshot
            index = choices.randrange(len(snapshot.options))
            reference.push(snapshot.options[index])
            self.choose(index)

    def panel_rows(self, panel):
        return self.hw.memory.panels().rows(panel)

    def read_number(self, panel, x, y, digits=3):
        """The number written in the 3x5 font at (x, y) on ``panel``, read back from the last frame."""
        rows = self.panel_rows(panel)
        text = ""
        for d in range(digits):
            lit = frozenset(
                (dx, dy) for dy in range(5) for dx in range(3) if sum(rows[y + dy][x + 4 * d + dx]) > 60
            )
            text += font.read_glyph(lit)
        return int(text.strip() or "0")

    def close(self):
        self.table.close()


@pytest.fixture
def table_driver():
    drivers = []

    def start(setup):
        driver = TableDriver(setup)
        drivers.append(driver)
        return driver

    yield start
    for driver in drivers:
        driver.close()
