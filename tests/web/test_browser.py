"""End to end in real headless Chromium: phones set up, join and play a Duel; the simulator's buttons.

The table runs as ``azul-table`` runs it: simulated rig, session, LED display
and the remote on its server, all in this process; each phone is its own
browser context with a phone-sized touch viewport.
"""
import re
import time

import pytest

from firmware_py.session import Play, Seat, Session, Setup
from firmware_py.table import Table
from tests.web.conftest import host_code
from web_remote import i18n, runner
from web_remote.service import RemoteService

pytest.importorskip("playwright")

from playwright.sync_api import expect  # noqa: E402

from tests.patience import patient  # noqa: E402
from tests.web.phones import PHONE, base_url  # noqa: E402

# Lets a test hold back a page's live updates, as a stalled phone connection would.
FREEZABLE = """
const NativeEventSource = window.EventSource;
window.EventSource = class extends NativeEventSource {
  set onmessage(handler) { super.onmessage = (event) => { if (!window.frozen) handler(event); }; }
};
"""


@pytest.fixture
def table():
    """A whole table with its remote on a free port; yields (remote, table)."""
    import hardware

    hw = hardware.simulate()
    session = Session(Setup(game="duel", seats=(Seat(), Seat()), seed=5))
    running = Table(hw, session).start()
    remote = runner.start(RemoteService(session, hardware=hw), host="127.0.0.1", port=0)
    yield remote, running
    remote.close()
    running.close()


def wait_until(condition, timeout=30.0):
    """Wait for ``condition``; the timeout only guards against a hang (on a machine running the suite on every
    core a button's press can take seconds to reach the table)."""
    deadline = time.monotonic() + patient(timeout)
    while not condition():
        assert time.monotonic() < deadline, "the table did not get there in time"
        time.sleep(0.01)


def phone(browser, remote, freezable=False):
    context = browser.new_context(base_url=base_url(remote), **PHONE)
    if freezable:
        context.add_init_script(FREEZABLE)
    return context.new_page()


def host_sets_up_a_duel(browser, remote):
    page = phone(browser, remote)
    page.goto("/host")
    page.fill("#host-code", host_code(remote.service.session))
    page.tap("#login-button")
    expect(page.locator("#host-tools")).to_be_visible()
    page.select_option("#game", "duel")
    page.select_option("#seat-count", "2")
    names = page.locator(".seat-name")
    names.nth(0).fill("Ada")
    names.nth(1).fill("Bo")
    for seat in range(2):  # the form starts from the game on the table, played at the rig
        page.locator(".seat-kind").nth(seat).select_option("phone")
    page.select_option("#stack-reveal", "each")
    old_game = remote.service.game_id
    page.tap("#start-button")
    wait_until(lambda: remote.service.game_id != old_game)
    expect(page.locator("#message")).to_contain_text(remote.service.join_code)
    return page


def join(browser, remote, seat, name, freezable=False):
    page = phone(browser, remote, freezable)
    page.goto("/join")
    page.fill("#join-code", remote.service.join_code)
    page.locator(f"#seat-{seat}").check()
    page.tap("#join-button")
    expect(page.locator("#who")).to_contain_text(name)
    expect(page.locator("#connection")).to_have_class(re.compile("live"))
    return page


def test_phones_set_up_join_and_play_a_duel_by_tapping(browser, table):
    remote, running = table
    session = running.session
    host_sets_up_a_duel(browser, remote)
    snapshot = session.snapshot
    assert [seat.name for seat in snapshot.setup.seats] == ["Ada", "Bo"]
    assert dict(snapshot.setup.flags) == {"stack_reveal": "each"}
    pages = [join(browser, remote, 0, "Ada", freezable=True), join(browser, remote, 1, "Bo", freezable=True)]

    for _ in range(8):
        before = session.snapshot
        mover = before.current_player
        watcher = pages[1 - mover]
        pages[mover].evaluate("document.getElementById('options-list').open = true")  # collapsed below the board
        options = pages[mover].locator("#options .option")
        expect(options.first).to_be_visible()
        expect(options).to_have_count(len(before.options))
        expect(watcher.locator("#options-section")).to_be_hidden()
        chosen = options.first.get_attribute("data-option")
        options.first.tap()
        wait_until(lambda: len(session.snapshot.history) == len(before.history) + 1)
        after = session.snapshot
        assert after.history[-1] == (mover, chosen)
        expect(watcher.locator("#history li").first).to_contain_text(i18n.option_label("en", after.setup.game, chosen))
        for seat, score in enumerate(after.scores):
            expect(watcher.locator(f"#scoreboard tr[data-seat='{seat}'] .score")).to_have_text(str(score))
        if after.current_player is not None:
            expect(watcher.locator(f"#scoreboard tr[data-seat='{after.current_player}']")).to_have_class("turn")

    # A phone whose screen went stale taps after the turn has passed: refused, nothing changes.
    seat = session.snapshot.current_player
    stale = pages[seat]
    stale.evaluate("document.getElementById('options-list').open = true")
    expect(stale.locator("#options .option").first).to_be_visible()
    stale.evaluate("window.frozen = true")
    while session.snapshot.current_player == seat:
        session.call(Play(seat, session.snapshot.options[0]))
    before = session.snapshot
    stale.locator("#options .option").first.tap()
    expect(stale.locator("#action-bar #feedback")).to_contain_text("Not your turn")  # by the finger
    assert session.snapshot.history == before.history
    assert session.snapshot.state == before.state


def test_the_simulator_page_buttons_move_the_led_highlight(browser, table):
    remote, running = table
    session = running.session
    page = browser.new_context(base_url=base_url(remote)).new_page()
    page.goto("/simulator/")
    canvas = page.locator("#leds")
    expect(canvas).not_to_have_attribute("data-seq", "0")
    seat = session.snapshot.current_player
    assert session.snapshot.cursors[seat] == 0
    page.click(f".sim-button[data-seat='{seat}'][data-button='NEXT']")
    wait_until(lambda: session.snapshot.cursors[seat] == 1)
    shown = running.display.frames_drawn
    wait_until(lambda: running.display.frames_drawn > shown)
    seq_after_press = running.hardware.stream.latest.seq
    wait_until(lambda: int(canvas.get_attribute("data-seq")) >= seq_after_press)
    page.click(f".sim-button[data-seat='{seat}'][data-button='OK']")
    wait_until(lambda: len(session.snapshot.history) == 1)
    assert session.snapshot.history[0] == (seat, "P2")


def test_beyond_the_stream_caps_the_live_page_follows_the_game_by_polling(browser, table):
    remote, running = table
    session = running.session
    remote.app.extensions["azul_streams"].total = 0  # every stream is refused at once, as when the caps are reached
    page = phone(browser, remote)
    page.goto("/")
    expect(page.locator("#connection")).to_have_class(re.compile("polling"))
    seat = session.snapshot.current_player
    option = session.snapshot.options[0]
    session.call(Play(seat, option))
    expect(page.locator("#history li").first).to_contain_text(i18n.option_label("en", session.snapshot.setup.game, option))
    expect(page.locator("#connection")).to_have_class(re.compile("polling"))
