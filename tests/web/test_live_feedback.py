"""Feedback where the eye is, in real headless Chromium: what a phone's touches led to shows in the
action bar and goes when it no longer holds (connection trouble, "Thinking…", the restart notice);
the undo button says what it takes back; a freed phone is told; the host's tools work from any tab."""
import json
import re
import urllib.request

import pytest

from firmware_py.journal import Journal
from firmware_py.session import Play, RequestUndo, Seat, Session, Setup
from tests.web.conftest import host_code
from tests.web.phones import PHONE, base_url, moved_on, seated_phone, shown
from tests.web.test_action_bar import check_bar
from tests.web.test_browser import phone
from web_remote import runner, server
from web_remote.service import RemoteService

pytest.importorskip("playwright")

from playwright.sync_api import expect  # noqa: E402

ADA_BO = Setup(game="duel", seats=(Seat("phone", "Ada"), Seat("phone", "Bo")), seed=5)
# Lets a test hold back a page's live updates, as a stalled phone connection would.
FREEZABLE = """
const NativeEventSource = window.EventSource;
window.EventSource = class extends NativeEventSource {
  set onmessage(handler) { super.onmessage = (event) => { if (!window.frozen) handler(event); }; }
};
"""


def in_view(page, selector):
    """Whether the element lies wholly inside the viewport, as it is scrolled now."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


def host_post(remote, path, token, body):
    request = urllib.request.Request(f"{base_url(remote)}{path}", method="POST", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", "X-Host-Token": token})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def test_the_connection_banner_goes_as_soon_as_the_table_answers_again(browser, start_table):
    remote, running = start_table(ADA_BO)
    page = seated_phone(browser, remote, 0)
    expect(page.locator("#connection")).to_have_class(re.compile("live"))
    port = remote.port
    remote.server.close()  # the table's web server is gone: the stream drops, the polls fail
    banner = page.get_by_text("The table cannot be reached.")
    expect(banner).to_be_visible(timeout=10_000)
    assert in_view(page, "#offline")
    remote.server = server.start(remote.app, host="127.0.0.1", port=port)
    expect(banner).to_be_hidden(timeout=3_000)  # a poll or the stream's retry (2 s) brings the table back
    expect(page.locator("#connection")).to_have_class(re.compile("live"), timeout=5_000)


def test_thinking_goes_the_moment_the_hint_has_come(browser, start_table):
    remote, running = start_table(ADA_BO)
    seat = running.session.snapshot.current_player
    page = seated_phone(browser, remote, seat)
    shown(page, running.session.snapshot.version)
    page.locator("#hint-request").tap()
    expect(page.locator("#hint-text")).to_contain_text("Hint:", timeout=30_000)
    expect(page.get_by_text("Thinking…")).to_have_count(0)
    assert in_view(page, "#hint-text")


def test_a_refused_undo_shows_in_the_action_bar(browser, start_table):
    remote, running = start_table(ADA_BO)
    session = running.session
    first = session.snapshot.current_player
    page = seated_phone(browser, remote, first)
    page.context.add_init_script(FREEZABLE)
    while session.snapshot.current_player == first:  # to the other seat's turn
        session.call(Play(first, session.snapshot.options[0]))
    page.reload()
    shown(page, session.snapshot.version)
    expect(page.locator("#undo-request")).to_be_enabled()
    page.evaluate("window.frozen = true")
    session.call(RequestUndo(1 - first))  # asked by the other seat: this phone's screen does not know yet
    assert session.snapshot.undo_request is not None
    page.locator("#undo-request").tap()
    page.locator("#undo-send").tap()
    expect(page.locator("#action-bar #feedback")).to_have_text("An undo request is already open.")
    assert in_view(page, "#feedback")


def offered(page, words, agree=None, sendable=True):
    """The bar asks whether to undo, saying ``words`` (and who must ``agree``), and shows nothing else."""
    expect(page.locator("#undo-offer-text")).to_have_text(words)
    if agree is None:
        expect(page.locator("#undo-offer-agree")).to_be_hidden()
    else:
        expect(page.locator("#undo-offer-agree")).to_have_text(agree)
    expect(page.locator("#undo-send")).to_be_visible() if sendable else expect(page.locator("#undo-send")).to_be_hidden()
    expect(page.locator("#action-bar :is(#controls, #tools) :visible")).to_have_count(0)
    assert in_view(page, "#undo-offer")
    check_bar(page, f"asking to undo: {words}")


def test_undo_says_what_it_would_take_back_and_asks_before_it_acts_or_says_why_nothing_can_be(browser, start_table):
    remote, running = start_table(ADA_BO)
    session = running.session
    seat = session.snapshot.current_player
    page = seated_phone(browser, remote, seat, {"width": 320, "height": 568})
    shown(page, session.snapshot.version)
    sent = json.loads(urllib.request.urlopen(f"{base_url(remote)}/api/state", timeout=10).read())
    assert not sent["undo"][seat]["possible"]
    expect(page.locator("#undo-request")).to_have_attribute("data-possible", "false")
    page.locator("#undo-request").tap()
    offered(page, sent["undo"][seat]["words"], sendable=False)
    page.locator("#undo-cancel").tap()
    expect(page.locator("#undo-offer")).to_be_hidden()
    expect(page.locator("#controls")).to_be_attached()
    expect(page.locator("#undo-request")).to_be_visible()
    session.call(Play(seat, session.snapshot.options[0]))
    shown(page, session.snapshot.version)
    sent = json.loads(urllib.request.urlopen(f"{base_url(remote)}/api/state", timeout=10).read())
    offer = sent["undo"][seat]
    assert offer["possible"]
    expect(page.locator("#undo-request")).to_have_attribute("data-possible", "true")
    expect(page.locator("#undo-request")).to_have_text("Undo")
    # A decision made while the question shows closes it: what Undo would take back has changed.
    page.locator("#undo-request").tap()
    offered(page, offer["words"], offer["agree"])
    moves = len(session.snapshot.history)
    session.call(Play(session.snapshot.current_player, session.snapshot.options[0]))
    shown(page, session.snapshot.version)
    expect(page.locator("#undo-offer")).to_be_hidden()
    assert len(session.snapshot.history) == moves + 1
    sent = json.loads(urllib.request.urlopen(f"{base_url(remote)}/api/state", timeout=10).read())
    offer = sent["undo"][seat]
    page.locator("#undo-request").tap()
    offered(page, offer["words"], offer["agree"])
    expect(page.locator("#undo-send")).to_have_text("Yes, ask" if offer["agree"] else "Yes, take back")
    page.locator("#undo-send").tap()
    expect(page.locator("#undo-offer")).to_be_hidden()
    if offer["agree"]:
        expect(page.locator("#undo-text")).to_contain_text("Waiting for")
    else:
        moved_on(page, sent["version"])
        assert len(session.snapshot.history) < moves + 1


def test_an_undo_request_from_another_seat_closes_the_question_and_asks_for_an_answer(browser, start_table):
    remote, running = start_table(ADA_BO)
    session = running.session
    first = session.snapshot.current_player
    while session.snapshot.current_player == first:  # to the other seat's turn, which may ask to undo this one's
        session.call(Play(first, session.snapshot.options[0]))
    page = seated_phone(browser, remote, first)
    shown(page, session.snapshot.version)
    page.locator("#undo-request").tap()
    expect(page.locator("#undo-offer")).to_be_visible()
    session.call(RequestUndo(1 - first))
    shown(page, session.snapshot.version)
    expect(page.locator("#undo-offer")).to_be_hidden()
    expect(page.locator("#undo-accept")).to_be_visible()
    check_bar(page, "an undo request came while this phone's question showed")


def test_the_restart_notice_goes_after_the_first_decision_and_never_shows_to_a_phone_seated_after(browser, tmp_path):
    setup = Setup(game="pavilion", seats=(Seat("phone", "Ada"), Seat("phone", "Bo"), Seat("phone", "Cy")), seed=4)
    journal = Journal(tmp_path)
    session = Session(setup, journal=journal).start()
    remote = runner.start(RemoteService(session), host="127.0.0.1", port=0)
    port = remote.port
    try:
        before = joined(browser, remote, 0, "Ada")
        session.call(Play(session.snapshot.current_player, session.snapshot.options[0]))
    finally:
        remote.close()
        session.stop()
        journal.close()
    journal = Journal(tmp_path)  # the table starts again and resumes the game
    resumed = journal.resume()
    session = Session(resumed.setup, game=resumed.game, journal=journal).start()
    remote = runner.start(RemoteService(session), host="127.0.0.1", port=port)
    try:
        expect(before.locator("#restarted")).to_be_visible(timeout=15_000)
        after = joined(browser, remote, 1, "Bo")
        shown(after, session.snapshot.version)
        expect(after.locator("#restarted")).to_be_hidden()
        session.call(Play(session.snapshot.current_player, session.snapshot.options[0]))
        for page in (before, after):
            shown(page, session.snapshot.version)
            expect(page.locator("#restarted")).to_be_hidden()
    finally:
        remote.close()
        session.stop()
        journal.close()


def joined(browser, remote, seat, name):
    """A phone that joined ``seat`` through the join page, on the live page."""
    page = phone(browser, remote)
    page.goto("/join")
    page.fill("#join-code", remote.service.join_code)
    page.locator(f"#seat-{seat}").check()
    page.tap("#join-button")
    expect(page.locator("#who")).to_contain_text(name)
    return page


def test_a_freed_phone_is_told_at_once_and_is_back_on_the_join_page(browser, start_table):
    remote, running = start_table(ADA_BO)
    page = seated_phone(browser, remote, 1)
    expect(page.locator("#who")).to_have_text("You play Bo")
    host = remote.service.host_login(host_code(running.session), "test")
    host_post(remote, "/api/host/release", host, {"seat": 1})
    expect(page).to_have_url(re.compile(r"/join$"))
    expect(page.locator("#message")).to_have_text("The host freed your seat.")
    assert page.evaluate("localStorage.getItem('azul.seat')") is None
    expect(page.locator("#seat-1")).to_be_enabled()  # free again, for whoever joins next


def test_a_phone_told_by_a_refused_command_that_its_seat_was_freed_goes_to_the_join_page(browser, start_table):
    remote, running = start_table(ADA_BO)
    seat = running.session.snapshot.current_player
    page = seated_phone(browser, remote, seat)
    page.context.add_init_script(FREEZABLE)
    page.reload()
    shown(page, running.session.snapshot.version)
    page.evaluate("window.frozen = true")  # it misses the news that its seat is free
    host = remote.service.host_login(host_code(running.session), "test")
    host_post(remote, "/api/host/release", host, {"seat": seat})
    page.locator("#hint-request").tap()
    expect(page).to_have_url(re.compile(r"/join$"))
    expect(page.locator("#message")).to_have_text("The host freed your seat.")


def finished(session):
    """Play ``session``'s game to its end with the first option of every decision."""
    while not session.snapshot.over:
        session.call(Play(session.snapshot.current_player, session.snapshot.options[0]))


def test_rematch_is_offered_in_every_tab_of_the_browser_that_unlocked_the_host_page(browser, start_table):
    remote, running = start_table(ADA_BO)
    finished(running.session)
    context = browser.new_context(base_url=base_url(remote), **PHONE)
    host_tab = context.new_page()
    host_tab.goto("/host")
    host_tab.fill("#host-code", host_code(running.session))
    host_tab.tap("#login-button")
    expect(host_tab.locator("#host-tools")).to_be_visible()
    live_tab = context.new_page()
    live_tab.goto("/")
    expect(live_tab.locator("#over")).to_be_visible()
    finished_game = remote.service.game_id
    live_tab.locator("#rematch").tap()
    expect(live_tab.locator("#over")).to_be_hidden()
    assert remote.service.game_id != finished_game and not running.session.snapshot.over


def test_the_host_joins_a_free_seat_from_the_host_page_without_typing_the_join_code(browser, start_table):
    remote, running = start_table(ADA_BO)
    page = phone(browser, remote)
    page.goto("/host")
    page.fill("#host-code", host_code(running.session))
    page.tap("#login-button")
    expect(page.locator("#join-code-now")).to_have_text(remote.service.join_code)
    page.locator("#seat-list [data-join='1']").tap()
    expect(page.locator("#who")).to_have_text("You play Bo")
    assert 1 in running.session.snapshot.credentials.taken
    expect(page.locator("#seat-list")).to_have_count(0)  # on the live page now


@pytest.mark.parametrize("size", [{"width": 390, "height": 844}, {"width": 320, "height": 568}], ids=["390", "320"])
def test_an_undo_request_to_answer_is_on_the_screen_with_its_buttons_in_a_bar_of_a_third_at_most(browser, start_table, size):
    remote, running = start_table(ADA_BO)
    session = running.session
    first = session.snapshot.current_player
    while session.snapshot.current_player == first:  # to the other seat's turn: it asks, this phone answers
        session.call(Play(first, session.snapshot.options[0]))
    page = seated_phone(browser, remote, first, size)
    session.call(RequestUndo(1 - first))
    shown(page, session.snapshot.version)
    expect(page.locator("#undo-text")).to_be_visible()
    for selector in ("#undo-text", "#undo-accept", "#undo-decline"):
        assert in_view(page, selector), selector
    # The bar holding it takes at most a third of the screen, the request's sentence two lines at most.
    assert page.locator("#action-bar").bounding_box()["height"] <= size["height"] / 3
    lines = page.evaluate("""() => { const range = document.createRange();
      range.selectNodeContents(document.getElementById("undo-text"));
      return new Set([...range.getClientRects()].map((box) => Math.round(box.top))).size; }""")
    assert 1 <= lines <= 2, (lines, page.locator("#undo-text").text_content())
