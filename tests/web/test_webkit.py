"""The phone page in WebKit, the engine of every browser on an iPhone: a whole game of each game played
on it to the end (Debian's WebKitGTK through its WebDriver, on a virtual screen), with no script error.

The one browser of the suite that is not the worker's shared Chromium: one WebKit per test module.
.ci/run installs ``webkit2gtk-driver`` and ``xvfb``; where they are missing the tests skip and say so."""
import glob
import json
import os
import random
import shutil
import subprocess
import time
import warnings

import pytest

from firmware_py.session import Play, Seat, Setup
from tests.web.phones import base_url

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.wait import WebDriverWait  # noqa: E402

DRIVER = shutil.which("WebKitWebDriver")
BROWSER = next(iter(sorted(glob.glob("/usr/lib/*/webkit2gtk-4.*/MiniBrowser"))), None)
SCREEN = shutil.which("Xvfb")
pytestmark = pytest.mark.skipif(
    not (DRIVER and BROWSER and SCREEN),
    reason="WebKitGTK's WebDriver, MiniBrowser or Xvfb is missing (.ci/run installs webkit2gtk-driver and xvfb)")

WAIT_S = 30
ERRORS = """window.scriptErrors = [];
window.addEventListener("error", (event) => window.scriptErrors.push(String(event.message)));
window.addEventListener("unhandledrejection", (event) => window.scriptErrors.push(String(event.reason)));"""
"""Collects what the page's scripts throw from the moment it runs (WebDriver has no script for every new page)."""


def virtual_screen():
    """An X server of its own on the first free display number (Xvfb picks it and says which)."""
    reading, writing = os.pipe()
    server = subprocess.Popen([SCREEN, "-displayfd", str(writing), "-screen", "0", "1024x900x24", "-nolisten", "tcp"],
                              pass_fds=(writing,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(writing)
    with os.fdopen(reading) as answer:
        display = answer.readline().strip()
    if not display:
        server.kill()
        server.wait()
        pytest.skip("Xvfb could not start a virtual screen here")
    return server, f":{display}"


@pytest.fixture(scope="module")
def webkit():
    from selenium.webdriver.webkitgtk.options import Options
    from selenium.webdriver.webkitgtk.service import Service

    server, display = virtual_screen()
    options = Options()
    options.binary_location = BROWSER
    options.add_argument("--automation")
    service = Service(executable_path=DRIVER, env={**os.environ, "DISPLAY": display})
    try:
        with warnings.catch_warnings():  # Selenium's WebKitGTK driver still sets an address the old way
            warnings.filterwarnings("ignore", message="setting remote_server_addr", category=DeprecationWarning)
            driver = webdriver.WebKitGTK(options=options, service=service)
    except WebDriverException as error:  # a machine whose WebKit cannot start at all: say why rather than fail
        server.kill()
        server.wait()
        pytest.skip(f"WebKitGTK did not start: {error.msg}")
    driver.set_window_size(390, 844)
    yield driver
    driver.quit()
    server.terminate()
    server.wait()


def shown(driver, version):
    WebDriverWait(driver, WAIT_S).until(
        lambda page: page.execute_script("return document.body.dataset.version") == str(version))


def seat_the_phone(driver, remote, seat):
    """The phone holds ``seat`` as the join page leaves it (its token stored), on the live page."""
    token = remote.service.join(remote.service.join_code, seat, "webkit")
    held = {"token": token, "seat": seat, "game_id": remote.service.game_id, "run": remote.service.current().run}
    driver.get(f"{base_url(remote)}/help/")
    driver.execute_script("localStorage.setItem('azul.seat', arguments[0]);", json.dumps(held))
    driver.get(f"{base_url(remote)}/")
    driver.execute_script(ERRORS)


def play_to_the_end(driver, running, seat, seed):
    """Plays ``seat``'s decisions on the page (its list of options, each a button) and the others' at the
    table, all at random, until the game is over; returns how many the page played."""
    session = running.session
    chooser = random.Random(seed)
    played = 0
    while not session.snapshot.over:
        snapshot = session.snapshot
        notation = chooser.choice(snapshot.options)
        if snapshot.current_player != seat:
            session.call(Play(snapshot.current_player, notation))
            continue
        shown(driver, snapshot.version)
        driver.execute_script("document.getElementById('options-list').open = true;")
        button = driver.find_element(By.CSS_SELECTOR, f"#options button[data-option='{notation}']")
        driver.execute_script("arguments[0].scrollIntoView({ block: 'center' });", button)
        button.click()
        deadline = time.monotonic() + WAIT_S
        while session.snapshot.version == snapshot.version:
            assert time.monotonic() < deadline, f"the page's {notation} did not reach the table"
            time.sleep(0.02)
        played += 1
    return played


@pytest.mark.long
@pytest.mark.parametrize("game, seats", [("duel", 2), ("pavilion", 3)])
def test_a_whole_game_plays_to_the_end_on_the_phone_page_in_webkit(webkit, start_table, game, seats):
    setup = Setup(game=game, seats=tuple(Seat("phone", name) for name in ("Ada", "Bo", "Cy")[:seats]), seed=7)
    remote, running = start_table(setup)
    seat_the_phone(webkit, remote, 0)
    started = time.monotonic()
    played = play_to_the_end(webkit, running, 0, seed=seats)
    shown(webkit, running.session.snapshot.version)
    assert webkit.find_element(By.ID, "over").is_displayed()
    assert webkit.execute_script("return window.scriptErrors;") == []
    assert played > 10
    print(f"{game}: {played} decisions played on the page in WebKit in {time.monotonic() - started:.1f} s")
