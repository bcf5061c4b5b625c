"""Seats survive restarts (issue 13): two phones in real Chromium and a rig seat play on after SIGTERM and
after SIGKILL of the table program, and no one joins again."""
import json
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.web.phones import PHONE
from tests.web.test_browser import wait_until

pytest.importorskip("playwright")

from playwright.sync_api import expect  # noqa: E402

AZUL_TABLE = Path(sys.executable).with_name("azul-table")
STARTED = re.compile(r"phones join at http://")
JOIN_CODE = re.compile(r"join code (\d{6})")


def free_port() -> int:
    """A port free now; the table is started on it twice, so the phones' pages keep their origin."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class TableProcess:
    """``azul-table`` on the simulated rig, its output in a file."""

    def __init__(self, directory: Path, port: int):
        self.directory, self.port, self.runs = directory, port, 0
        self.process = None

    def start(self) -> str:
        self.runs += 1
        self.log = self.directory / f"run{self.runs}.log"
        with open(self.log, "w") as out:
            self.process = subprocess.Popen(
                [str(AZUL_TABLE), "--no-terminal", "--host", "127.0.0.1", "--port", str(self.port),
                 "--data", str(self.directory / "data"), "--game", "pavilion", "--seats", "phone,phone,rig",
                 "--seed", "4"], stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, text=True)
        wait_until(lambda: STARTED.search(self.log.read_text()) or self.process.poll() is not None, 60)
        assert self.process.poll() is None, self.log.read_text()
        return self.log.read_text()

    def stop(self, how):
        self.process.send_signal(how)
        self.process.wait(30)

    def state(self) -> dict:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/state", timeout=10) as answer:
            return json.loads(answer.read())

    def press(self, seat: int, button: str):
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/simulator/press", method="POST",
                                         data=json.dumps({"seat": seat, "button": button}).encode(),
                                         headers={"Content-Type": "application/json"})
        urllib.request.urlopen(request, timeout=10).close()


@pytest.fixture
def table(tmp_path):
    running = TableProcess(tmp_path, free_port())
    yield running
    if running.process is not None and running.process.poll() is None:
        running.process.kill()
        running.process.wait(10)


def play(table, pages, decisions):
    """``decisions`` decisions: the phones tap their first option, the rig seat presses OK."""
    for _ in range(decisions):
        before = table.state()
        seat = before["current_player"]
        if seat == 2:
            table.press(2, "OK")
        else:
            # The phone taps only once it shows the table as it is now: a list drawn before the last
            # decision (the same seat's, within its turn) would name a position that is gone.
            wait_until(lambda: int(pages[seat].get_attribute("body", "data-version") or 0) >= before["version"], 10)
            pages[seat].evaluate("document.getElementById('options-list').open = true")  # the list under the board
            expect(pages[seat].locator("#options .option").first).to_be_visible(timeout=10_000)
            pages[seat].locator("#options .option").first.tap()
        try:
            wait_until(lambda: table.state()["moves"] > before["moves"], 10)
        except AssertionError:
            said = "" if seat == 2 else pages[seat].locator("#feedback").text_content()
            raise AssertionError(f"seat {seat}'s decision was not played (the phone said {said!r}); "
                                 f"the table's output:\n{table.log.read_text()[-3000:]}") from None


def test_two_phones_and_a_rig_seat_play_on_after_sigterm_and_sigkill(browser, table):
    output = table.start()
    code = JOIN_CODE.search(output).group(1)
    pages = []
    for seat in (0, 1):
        context = browser.new_context(base_url=f"http://127.0.0.1:{table.port}", **PHONE)
        page = context.new_page()
        page.goto("/join")
        page.fill("#join-code", code)
        page.locator(f"#seat-{seat}").check()
        page.tap("#join-button")
        expect(page.locator("#who")).to_contain_text(f"Player {seat + 1}")
        pages.append(page)
    play(table, pages, 4)
    for how in (signal.SIGTERM, signal.SIGKILL):
        moves = table.state()["moves"]
        table.stop(how)
        output = table.start()
        assert "resuming game" in output and JOIN_CODE.search(output).group(1) == code
        assert table.state()["moves"] == moves
        for seat, page in enumerate(pages):
            expect(page.locator("#restarted")).to_be_visible(timeout=15_000)
            expect(page.locator("#who")).to_contain_text(f"Player {seat + 1}")
            expect(page.locator("#connection")).to_have_class(re.compile("live"), timeout=15_000)
        play(table, pages, 4)
    assert table.state()["moves"] == 12
    assert all(seat["taken"] for seat in table.state()["seats"][:2])
