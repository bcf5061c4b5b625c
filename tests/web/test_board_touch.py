"""The board is the controller, in real headless Chromium at 390 x 844: whole games played only by
touching the drawing, golden pictures of every decision kind, stepping back, refused touches.

Golden pictures live in ``tests/web/golden/``; after a deliberate change of the drawing,
regenerate them with ``make golden`` and look at them before committing.
"""
import json
import os
import random

import pytest
from PIL import Image, ImageChops, ImageStat

from firmware_py.session import Seat, Session, Setup
from firmware_py.table import Table
from web_remote import runner
from web_remote.service import RemoteService
from tests.web.conftest import host_code

CHROMIUM = "/usr/bin/chromium"
pytest.importorskip("playwright")
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed (.ci/run installs it)")

from playwright.sync_api import expect  # noqa: E402

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
GOLDEN = os.path.join(os.path.dirname(__file__), "golden")
UPDATE_GOLDEN = os.environ.get("UPDATE_GOLDEN") == "1"
TOLERANCE = 2.0  # mean difference per channel (0-255) a golden picture may show
DUEL_KINDS = {"setup", "action", "draw", "keep", "return", "place", "order", "line", "pay", "tile"}
PAVILION_KINDS = {"draft", "place", "pay", "bonus", "keep"}


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM}


@pytest.fixture
def start_table():
    """Starts a table with ``setup`` and its remote on a free port; closes whatever it started."""
    started = []

    def start(setup):
        import hardware

        hw = hardware.simulate()
        running = Table(hw, Session(setup)).start()
        remote = runner.start(RemoteService(running.session, hardware=hw), host="127.0.0.1", port=0)
        started.append((remote, running))
        return remote, running

    yield start
    for remote, running in started:
        remote.close()
        running.close()


def seated_phone(browser, remote, seat):
    """A phone holding ``seat`` (its token in storage, as the join page leaves it), on the live page."""
    token = remote.service.join(remote.service.join_code, seat, "test")
    held = json.dumps({"token": token, "seat": seat, "game_id": remote.service.game_id})
    context = browser.new_context(base_url=f"http://127.0.0.1:{remote.port}", **PHONE)
    context.add_init_script(f"localStorage.setItem('azul.seat', {json.dumps(held)})")
    page = context.new_page()
    page.goto("/")
    return page


def shown(page, version):
    expect(page.locator("body")).to_have_attribute("data-version", str(version))


def part(page, seat, key):
    """The board part (its first shape) or panel button with ``key`` that the deciding ``seat`` may touch."""
    button = page.locator(f'#controls [data-hit="{key}"]')
    if button.count():
        return button.first
    mine = page.locator(f'#board [data-seat="{seat}"] [data-hit="{key}"]')
    if mine.count():
        return mine.first.locator("rect").first
    return page.locator(f'#board .centre [data-hit="{key}"]').first.locator("rect").first


def touch_option(page, game, seat, notation):
    """Play ``notation`` by touching its parts of the board, then Confirm."""
    path = page.evaluate("([game, notation]) => Touch.PATHS[game](notation)", [game, notation])
    for key in path:
        if page.locator("#confirm").is_visible():
            break
        target = part(page, seat, key)
        assert page.locator(f'[data-hit="{key}"].legal, #controls [data-hit="{key}"]').count(), key
        target.tap(force=True)  # at the centre of the part's first shape: its own group's, whatever lies on top
    expect(page.locator("#confirm-label")).to_be_visible()
    page.locator("#confirm").tap()


def check_golden(page, name):
    """The board with this decision's highlights against its golden picture (small tolerance)."""
    path = os.path.join(GOLDEN, f"{name}.png")
    picture = page.locator("#board").screenshot(animations="disabled")
    if UPDATE_GOLDEN or not os.path.exists(path):
        assert UPDATE_GOLDEN, f"no golden picture {path}: run `make golden` and look at it"
        os.makedirs(GOLDEN, exist_ok=True)
        with open(path, "wb") as out:
            out.write(picture)
        return
    import io

    got = Image.open(io.BytesIO(picture)).convert("RGB")
    want = Image.open(path).convert("RGB")
    assert got.size == want.size, (name, got.size, want.size)
    difference = sum(ImageStat.Stat(ImageChops.difference(got, want)).mean) / 3
    assert difference <= TOLERANCE, f"{name} differs from its golden picture by {difference:.1f}"


def play_by_touch(browser, remote, running, game, kinds):
    """Every decision by touching the mover's phone, options chosen at random from the seed; returns
    the decision kinds seen. Each kind's first board goes against its golden picture."""
    session = running.session
    seats = len(session.snapshot.setup.seats)
    pages = [seated_phone(browser, remote, seat) for seat in range(seats)]
    chooser = random.Random(0)
    seen = set()
    while not session.snapshot.over:
        snapshot = session.snapshot
        mover = snapshot.current_player
        page = pages[mover]
        shown(page, snapshot.version)
        if snapshot.pending not in seen:
            seen.add(snapshot.pending)
            check_golden(page, f"{game}-{snapshot.pending}")
        notation = chooser.choice(snapshot.options)
        touch_option(page, game, mover, notation)
        expect(page.locator("body")).not_to_have_attribute("data-version", str(snapshot.version))
        assert session.snapshot.history[-1] == (mover, notation) or session.snapshot.over
    for page in pages:
        shown(page, session.snapshot.version)
        expect(page.locator("#over")).to_be_visible()
        expect(page.locator("#breakdown tr")).not_to_have_count(0)
    assert seen == kinds
    return pages


def test_a_whole_duel_played_by_touching_the_board_then_the_host_taps_rematch(browser, start_table):
    remote, running = start_table(Setup(game="duel", seats=(Seat("phone", "Ada"), Seat("phone", "Bo")), seed=0))
    pages = play_by_touch(browser, remote, running, "duel", DUEL_KINDS)
    expect(pages[0].locator("#winners")).not_to_be_empty()

    # Ada's phone is also the host's (its tab holds the host token): one tap starts the rematch there only.
    host = remote.service.host_login(host_code(running.session), "test")
    pages[0].evaluate("token => sessionStorage.setItem('azul.host', token)", host)
    pages[0].reload()
    expect(pages[0].locator("#rematch")).to_be_visible()
    expect(pages[1].locator("#rematch")).to_be_hidden()
    finished = remote.service.game_id
    pages[0].locator("#rematch").tap()
    for seat, page in enumerate(pages):
        expect(page.locator("#over")).to_be_hidden()
        expect(page.locator("#who")).to_have_text(f"You play {('Ada', 'Bo')[seat]}")
    rematch = running.session.snapshot
    assert remote.service.game_id != finished and rematch.setup.seats == (Seat("phone", "Ada"), Seat("phone", "Bo"))
    mover = pages[rematch.current_player]
    shown(mover, rematch.version)
    touch_option(mover, "duel", rematch.current_player, rematch.options[0])  # the kept seat plays on at once
    expect(mover.locator("body")).not_to_have_attribute("data-version", str(rematch.version))
    assert running.session.snapshot.history == ((rematch.current_player, rematch.options[0]),)


def test_a_whole_three_player_pavilion_played_by_touching_the_board(browser, start_table):
    setup = Setup(game="pavilion", seats=(Seat("phone", "Ada"), Seat("phone", "Bo"), Seat("phone", "Cy")), seed=0)
    remote, running = start_table(setup)
    play_by_touch(browser, remote, running, "pavilion", PAVILION_KINDS)


def test_touches_step_back_and_refused_touches_change_nothing(browser, start_table):
    remote, running = start_table(Setup(game="duel", seats=(Seat("phone", "Ada"), Seat("phone", "Bo")), seed=0))
    session = running.session
    pages = [seated_phone(browser, remote, seat) for seat in range(2)]
    while session.snapshot.pending == "setup" or session.snapshot.state["kept"] >= 0:
        snapshot = session.snapshot
        shown(pages[snapshot.current_player], snapshot.version)
        touch_option(pages[snapshot.current_player], "duel", snapshot.current_player, snapshot.options[0])
        expect(pages[snapshot.current_player].locator("body")).not_to_have_attribute("data-version", str(snapshot.version))
    snapshot = session.snapshot
    mover, watcher = pages[snapshot.current_player], pages[1 - snapshot.current_player]
    shown(mover, snapshot.version)
    shown(watcher, snapshot.version)

    # Not your turn: the watcher's touch on a source does nothing, and nothing is highlighted there.
    take = next(option for option in snapshot.options if option.startswith("S0"))
    colour = take[2]
    assert watcher.locator("#board .legal").count() == 0
    watcher.locator(f'#board .centre [data-hit="sun:0:{colour}"] rect').first.tap(force=True)
    expect(watcher.locator("#controls")).to_be_hidden()
    assert watcher.locator("#board .chosen").count() == 0

    # A touch on a part that is no option now (the other player's pattern line) changes nothing.
    panel = mover.locator("#controls").inner_html()
    mover.locator(f'#board [data-seat="{1 - snapshot.current_player}"] [data-hit="line:1"] rect').first.tap(force=True)
    assert mover.locator("#controls").inner_html() == panel and mover.locator("#board .chosen").count() == 0
    assert session.snapshot.version == snapshot.version

    # Take from the large sun (it reveals nothing), then step back within the turn.
    touch_option(mover, "duel", snapshot.current_player, take)
    expect(mover.locator("#step-back")).to_be_visible()
    taken = session.snapshot
    assert taken.pending == "line" and taken.step_back
    shown(mover, taken.version)
    mover.locator("#board [data-hit].legal rect").first.tap(force=True)  # a line chosen, not yet confirmed
    expect(mover.locator("#confirm")).to_be_visible()
    mover.locator("#step-back").tap()  # back to choosing the line
    expect(mover.locator("#confirm")).to_be_hidden()
    assert session.snapshot.history == taken.history
    mover.locator("#step-back").tap()  # back before the take: the table steps back too
    expect(mover.locator("body")).not_to_have_attribute("data-version", str(taken.version))
    assert session.snapshot.history == snapshot.history and session.snapshot.state == snapshot.state
