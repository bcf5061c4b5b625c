"""The simulator's terminal at a game: in 80 x 24 the LEDs, where phones join, the join code and a QR
code of the address all fit; a big terminal gets the whole table as it lies, with the QR code beside it."""
import os
import pty
import random
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from fcntl import ioctl
from pathlib import Path

import pytest
import qrcode

import hardware
from firmware_py.display import TableDisplay
from firmware_py.keyboard import KEYS
from firmware_py.session import Play, Seat, Session, Setup
from hardware.sinks import table_colours
from hardware.terminal import display_width, panel_label, qr_text, screen
from tests.hardware.terminal_cells import led_colours, plain
from tests.patience import patient

AZUL_TABLE = Path(sys.executable).with_name("azul-table")
ADDRESS = "http://192.168.1.20:8080/join"
# What the table program keeps under the drawing at most: two addresses, the name, a host code on show.
NOTES = [
    "join code 406813",
    f"phones join at {ADDRESS} (also http://10.0.0.7:8080/join)",
    qr_text(ADDRESS).rstrip("\n"),
    "simulator page at http://192.168.1.20:8080/simulator/",
    KEYS,
    "phones also find the table at http://azul-table.local:8080/join",
    "host code 48213377 (for the phone's host page; works once, within 10 minutes)",
]
GAMES = [("duel", 2), ("pavilion", 2), ("pavilion", 3), ("pavilion", 4)]


@pytest.fixture(scope="module")
def drawn():
    """(game, seats) -> (layout, screen colours per panel) of a position a few random decisions in."""
    hw = hardware.simulate(clock=hardware.ManualClock())
    frames = {}
    try:
        display = TableDisplay(hw.leds, clock=lambda: 0.0)
        for game, seats in GAMES:
            session = Session(Setup(game=game, seats=(Seat(),) * seats, seed=seats))
            choices = random.Random(seats)
            for _ in range(12):
                session.apply(Play(session.snapshot.current_player, choices.choice(session.snapshot.options)))
            display.draw(session.snapshot)
            frames[game, seats] = hw.memory.panels().display
        yield hw.layout, frames
    finally:
        hw.close()


@pytest.mark.parametrize("game,seats", GAMES)
def test_in_80_by_24_the_leds_the_address_the_join_code_and_the_qr_code_fit(drawn, game, seats):
    layout, frames = drawn
    lines = screen(layout, frames[game, seats], NOTES, 80, 24)
    assert len(lines) <= 24
    assert all(display_width(line) <= 80 for line in lines)
    shown = [plain(line) for line in lines]
    for note in NOTES:
        if "\n" not in note:
            assert note in shown
    modules = library_modules(ADDRESS)
    assert read_qr(shown, len(modules)) == modules  # beside the compact drawing
    # Every panel is drawn whole under its label, LED for LED as it lies on the table.
    colours = table_colours(layout, frames[game, seats])
    for panel in layout.rig.panels:
        label = panel_label(layout, panel.name)
        row, left = next((index, found.start()) for index, line in enumerate(shown)
                         if (found := re.search(rf"(?<!\S){label}(?!\S)", line)))
        width, height = panel.footprint
        x0, y0 = panel.position
        expected = {(x, y): colours[x0 + x, y0 + y] for x in range(width) for y in range(height)}
        assert led_colours(lines[row + 1 :], left, width, height) == expected, panel.name


def read_qr(shown, size):
    """The ``size`` x ``size`` QR code at the right end of the screen's top lines, read back from its
    half blocks as rows of light modules."""
    rows = []
    for line in shown[: (size + 1) // 2]:
        part = line[-size:]
        assert len(line) >= size and not set(part) - set("▀▄█ "), line
        rows += [[c in "▀█" for c in part], [c in "▄█" for c in part]]
    return rows[:size]


def library_modules(data):
    """The light modules of the qrcode library's own code for ``data`` at the size the terminal uses, with a
    one-module quiet zone."""
    code = qrcode.QRCode(border=1, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(data)
    code.make(fit=True)
    return [[not dark for dark in row] for row in code.get_matrix()]


def test_a_join_address_is_a_version_2_code_of_27_columns_and_14_lines():
    for address in (ADDRESS, "http://192.168.178.100:8080/join", "http://10.0.0.7:8080/join"):
        lines = qr_text(address).splitlines()
        assert (max(map(len, lines)), len(lines)) == (27, 14)
        modules = library_modules(address)
        assert read_qr(lines, len(modules)) == modules


def test_a_big_terminal_shows_the_table_as_it_lies_with_the_qr_code_beside_it(drawn):
    layout, frames = drawn
    panels = frames["pavilion", 4]
    lines = screen(layout, panels, NOTES, 120, 40)
    whole = hardware.render_ansi(layout, panels)
    qr = NOTES[2].splitlines()
    assert [line[: len(drawing)] for line, drawing in zip(lines, whole)] == whole
    assert [plain(line)[66:] for line in lines[: len(qr)]] == qr
    assert [plain(line) for line in lines[len(whole):]] == [note for note in NOTES if "\n" not in note]


def screen_lines(output: str) -> list:
    """The lines of the last full drawing in what the program wrote to its terminal."""
    drawing = output.rsplit("\x1b[H", 1)[1]
    return drawing.split("\x1b[J", 1)[0].replace("\r\n", "\n").split("\n")  # the terminal sends \r\n


def test_the_table_program_in_an_80_by_24_terminal_keeps_the_address_and_code_on_screen(tmp_path):
    """``make run`` on a simulated rig in a terminal of 80 x 24: the screen it draws fits, with the
    phone page's address and the join code under the LEDs and its QR code beside them."""
    leader, follower = pty.openpty()
    ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    process = subprocess.Popen(
        [str(AZUL_TABLE), "--host", "127.0.0.1", "--port", "0", "--data", str(tmp_path), "--game", "pavilion",
         "--seats", "4", "--seed", "3"],
        stdin=follower, stdout=follower, stderr=follower, env={**os.environ, "TERM": "xterm-256color"},
    )
    os.close(follower)
    output = b""

    def read():
        nonlocal output
        if select.select([leader], [], [], 0.2)[0]:
            try:
                output += os.read(leader, 1 << 16)
            except OSError:  # the program has gone and its terminal with it
                pass

    try:
        deadline = time.monotonic() + patient(30)
        while time.monotonic() < deadline:
            read()
            last = output.decode(errors="replace").rsplit("\x1b[H", 1)[-1]
            if "simulator page at" in last and "\x1b[J" in last:  # told after the address and its QR code
                break
        lines = screen_lines(output.decode(errors="replace"))
    finally:
        process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + patient(30)
        while process.poll() is None and time.monotonic() < deadline:
            read()  # the program must not block on a full terminal while it stops
        process.kill()
        process.wait()
        os.close(leader)
    shown = [plain(line) for line in lines]
    assert len(lines) <= 24 and all(display_width(line) <= 80 for line in lines), shown
    assert shown[0].startswith("centre")  # the compact drawing, its top row on screen
    assert any(re.fullmatch(r"join code \d{6}", line) for line in shown), shown
    url = next(line for line in shown if line.startswith("phones join at ")).split()[3]
    assert url.startswith("http://127.0.0.1:"), shown
    modules = library_modules(url)
    assert read_qr(shown, len(modules)) == modules, shown
    assert KEYS in shown
