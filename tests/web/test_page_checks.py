"""Every page in real headless Chromium: no serious or critical axe-core accessibility violation,
and at 320 px wide nothing overflows in any language (checked by element geometry)."""
import json
import random

import pytest

from firmware_py.journal import Journal
from firmware_py.records import Record
from firmware_py.session import Play, Seat, Session, Setup
from tests.web.conftest import host_code
from web_remote import i18n, runner
from web_remote.service import RemoteService

pytest.importorskip("playwright")

from axe_playwright_python.sync_playwright import Axe  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

PAGES = ("/", "/join", "/host", "/settings", "/history/", "/history/1", "/history/2?ply=200", "/players/", "/players/1")
LONG_GAME = 250  # decisions at least, in the imported record the replay page must carry
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const over = [];
  for (const node of document.querySelectorAll("body *")) {
    const box = node.getBoundingClientRect();
    if (box.width > 0 && (box.right > width + 0.5 || box.left < -0.5)) over.push(`${node.tagName}#${node.id}.${node.className} ${Math.round(box.right)}`);
  }
  return { scroll: document.documentElement.scrollWidth, width, over: over.slice(0, 8) };
}"""


@pytest.fixture(scope="module")
def remote(tmp_path_factory):
    """A Pavilion for three phones a few decisions in, kept in a journal (so the past-games pages have a game)."""
    setup = Setup(game="pavilion", seats=tuple(Seat("phone", name) for name in ("Ada", "Bo", "Cy")), seed=3)
    journal = Journal(tmp_path_factory.mktemp("journal"))
    session = Session(setup, journal=journal).start()
    for _ in range(5):
        session.call(Play(session.snapshot.current_player, session.snapshot.options[0]))
    session.journal.import_record(long_record(LONG_GAME))  # past game 2
    served = runner.start(RemoteService(session), host="127.0.0.1", port=0)
    served.tokens = [served.service.join(served.service.join_code, seat, "test") for seat in range(3)]
    yield served
    served.close()
    session.stop()
    journal.close()


def long_record(decisions):
    """A finished 4-player Summer Pavilion of at least ``decisions`` decisions, as a record file holds it."""
    for seed in range(100):
        setup = Setup(game="pavilion", seats=tuple(Seat("ai", name) for name in ("Ada", "Bo", "Cy", "Di")), seed=seed)
        game = setup.new_game()
        start, chooser, moves = game.to_json(), random.Random(seed), []
        while not game.is_over():
            move = chooser.choice(game.legal_moves())
            moves.append(str(move))
            game.push(move)
        if len(moves) >= decisions:
            return Record(setup, start, tuple(moves), tuple(game.scores()), tuple(game.winners()))
    raise AssertionError(f"no game of {decisions} decisions")


def seated(browser, remote, language, viewport):
    """A phone in ``language`` holding the seat whose turn it is (so the board and controls show)."""
    service = remote.service
    seat = service.session.snapshot.current_player
    token = remote.tokens[seat]
    context = browser.new_context(base_url=f"http://127.0.0.1:{remote.port}", viewport=viewport, is_mobile=True,
                                  has_touch=True, locale=language)
    context.add_cookies([{"name": i18n.LANGUAGE_COOKIE, "value": language, "url": f"http://127.0.0.1:{remote.port}"}])
    held = json.dumps({"token": token, "seat": seat, "game_id": service.game_id})
    context.add_init_script(f"localStorage.setItem('azul.seat', {json.dumps(held)})")
    return context


def visit(context, path):
    """``path`` in a new page, once drawn: the live page with its state, the past games as served;
    the join and settings pages, which fetch the state, once the network is quiet."""
    page = context.new_page()
    page.goto(path)
    if path == "/":
        page.wait_for_selector("body[data-version] #board svg")
    elif not path.startswith("/history/"):
        page.wait_for_load_state("networkidle")
    return page


def test_no_page_has_a_serious_accessibility_violation(browser, remote):
    context = seated(browser, remote, "en", {"width": 390, "height": 844})
    axe = Axe()
    for path in PAGES:
        page = visit(context, path)
        if path == "/":
            page.locator("#options-list summary").tap()
        violations = axe.run(page).response["violations"]
        serious = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in violations
                   if v["impact"] in ("serious", "critical")]
        assert not serious, (path, serious)
    context.close()


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_nothing_overflows_a_320_px_phone_in_any_language(browser, remote, language):
    context = seated(browser, remote, language, {"width": 320, "height": 568})
    for path in PAGES:
        page = visit(context, path)
        if path == "/":
            page.locator("#options-list summary").tap()
        layout = page.evaluate(OVERFLOW)
        assert layout["scroll"] <= layout["width"] and not layout["over"], (language, path, layout)
    context.close()


def test_a_seated_phones_board_and_sources_are_on_the_first_screen(browser, remote):
    for viewport in ({"width": 390, "height": 844}, {"width": 320, "height": 568}):
        context = seated(browser, remote, "en", viewport)
        page = visit(context, "/")
        check_in_reach(page, remote.service.session.snapshot.current_player, viewport)
        context.close()


def check_in_reach(page, seat, where):
    """The deciding seat's board is the one drawn large, and a part to touch next (or the one touched)
    is on the screen, above the action bar: the board is too tall for one screen at finger size."""
    expect(page.locator("#board [data-seat]")).to_have_attribute("data-seat", str(seat))
    box = page.locator("#board .hit.legal > .target, #board .hit.chosen > .target").first.bounding_box()
    bottom = page.evaluate("() => Math.min(innerHeight, ...[...document.querySelectorAll('#action-bar')].map((bar) => bar.getBoundingClientRect().top))")
    assert box["y"] >= 0 and box["y"] + box["height"] <= bottom, (where, box, bottom)


def test_the_replay_page_draws_the_board_with_a_slider_and_play_pause(browser, remote):
    context = seated(browser, remote, "en", {"width": 390, "height": 844})
    page = visit(context, "/history/1?ply=0")
    assert page.locator("#board svg [data-seat]").count() == 1 and page.locator("#board [data-show-seat]").count() == 3
    assert page.locator("#last-decision").count() == 0
    page.locator("#ply-slider").fill("2")
    page.wait_for_url("**/history/1?ply=2")
    expect_last = page.locator("#last-decision")
    assert "took" in expect_last.inner_text()
    # Play/pause on the long game (past game 2), so that playing never runs into the last move.
    page = visit(context, "/history/2?ply=10")
    page.locator("#play").tap()
    page.wait_for_url("**/history/2?ply=11")
    page.wait_for_url("**/history/2?ply=12", timeout=5000)
    for _ in range(3):  # pause; a tap that came as the next move's page was already on its way goes again
        page.locator("#play").tap()
        page.wait_for_timeout(300)
        page.wait_for_load_state()
        if page.locator("#play").get_attribute("aria-pressed") == "false":
            break
    paused = page.url
    page.wait_for_timeout(1800)
    assert page.url == paused and page.locator("#play").get_attribute("aria-pressed") == "false"
    context.close()


def test_the_replay_of_a_long_game_stays_usable_on_a_phone(browser, remote):
    """Past game 2 has 250 decisions or more: the slider reaches any of them, the moves come a page at
    a time, and the page stays small whichever move it shows (its figures: docs/remote.md)."""
    total = len(remote.service.session.journal.export(2).moves)
    assert total >= LONG_GAME
    context = seated(browser, remote, "en", {"width": 390, "height": 844})
    page = visit(context, "/history/2?ply=0")
    slider = page.locator("#ply-slider")
    assert slider.get_attribute("max") == str(total)
    slider.fill("200")
    page.wait_for_url("**/history/2?ply=200")
    page.wait_for_selector("#board svg")
    assert page.locator("#board svg [data-seat]").count() == 1 and page.locator("#board [data-show-seat]").count() == 4
    moves = page.locator("#moves li")
    assert 0 < moves.count() <= 50 and page.locator('#moves li[aria-current="step"]').count() == 1
    assert page.locator('#moves li[aria-current="step"] a').get_attribute("href").endswith("ply=200")
    for link in ("#earlier", "#later"):
        assert page.locator(link).count() == 1
    page.locator("#later").tap()
    page.wait_for_url("**/history/2?ply=201")
    layout = page.evaluate(OVERFLOW)
    assert layout["scroll"] <= layout["width"] and not layout["over"], layout
    sent = page.evaluate("() => performance.getEntriesByType('navigation')[0].decodedBodySize")
    assert sent < 40000, sent  # the moves are paginated: the page does not grow with the game
    context.close()


def played_to(session, stop):
    """Play options (spread over the list, so the game moves on) until ``stop(snapshot)``."""
    while not stop(session.snapshot):
        snapshot = session.snapshot
        session.call(Play(snapshot.current_player, snapshot.options[len(snapshot.history) % len(snapshot.options)]))
    return session.snapshot


def phone(browser, served, language, viewport, seat, host=None):
    """A phone in ``language`` holding ``seat`` (and the host token, when given) on the live page."""
    context = browser.new_context(base_url=f"http://127.0.0.1:{served.port}", viewport=viewport, is_mobile=True,
                                  has_touch=True, locale=language)
    context.add_cookies([{"name": i18n.LANGUAGE_COOKIE, "value": language, "url": f"http://127.0.0.1:{served.port}"}])
    held = json.dumps({"token": served.tokens[seat], "seat": seat, "game_id": served.service.game_id})
    context.add_init_script(f"localStorage.setItem('azul.seat', {json.dumps(held)})")
    if host:
        context.add_init_script(f"sessionStorage.setItem('azul.host', {json.dumps(host)})")
    page = visit(context, "/")
    return context, page


def serious_violations(page):
    violations = Axe().run(page).response["violations"]
    return [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in violations
            if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("game, players", [("duel", 2), ("pavilion", 3)])
def test_the_live_and_game_over_pages_of_both_games_pass_axe_and_fit_320_px(browser, game, players):
    """Azul Duel while a seat chooses its pattern line (its result drawn before Confirm), and both games'
    game-over view with the host's rematch button: no serious or critical axe-core violation at
    390 px, nothing wider than a 320 px phone in any language, the Duel board on the first screen."""
    setup = Setup(game=game, seats=tuple(Seat("phone", name) for name in ("Ada", "Bo", "Cy")[:players]), seed=8)
    session = Session(setup).start()
    served = runner.start(RemoteService(session), host="127.0.0.1", port=0)
    try:
        served.tokens = [served.service.join(served.service.join_code, seat, "test") for seat in range(players)]
        host = served.service.host_login(host_code(session), "test")
        if game == "duel":
            check_live_page(browser, served, host, played_to(session, lambda s: s.pending == "line" and len(s.history) > 8))
        check_live_page(browser, served, host, played_to(session, lambda s: s.over))
    finally:
        served.close()
        session.stop()


def check_live_page(browser, served, host, snapshot):
    """axe-core at 390 px, then every language at 320 x 568: nothing overflows; while a seat decides, its
    board and the factories are on the first screen."""
    seat = 0 if snapshot.over else snapshot.current_player

    def ready(page):
        if snapshot.over:
            page.wait_for_selector("#rematch:not([hidden])")
        else:  # a line touched: the confirm panel and the previewed tiles show
            page.locator(f'#board [data-seat="{seat}"] .hit.legal rect').first.tap(force=True)
            page.wait_for_selector("#confirm")

    context, page = phone(browser, served, "en", {"width": 390, "height": 844}, seat, host)
    ready(page)
    if not snapshot.over:
        page.locator("#options-list summary").tap()
    assert not serious_violations(page), (snapshot.pending, serious_violations(page))
    context.close()
    for language in i18n.LANGUAGES:
        context, page = phone(browser, served, language, {"width": 320, "height": 568}, seat, host)
        ready(page)
        layout = page.evaluate(OVERFLOW)
        assert layout["scroll"] <= layout["width"] and not layout["over"], (snapshot.pending, language, layout)
        if not snapshot.over:
            check_in_reach(page, seat, language)
        context.close()
