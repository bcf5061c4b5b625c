"""In real headless Chromium: the game-over view draws each player's biggest mistakes on the board."""

import pytest

from firmware_py.journal import Journal
from firmware_py.reviewer import Reviewer
from firmware_py.session import Session
from tests.journal.test_review import TINY
from tests.journal.test_review_pages import ADA_AND_BO, finish
from tests.web.test_browser import phone
from web_remote import i18n, runner
from web_remote.service import RemoteService

pytest.importorskip("playwright")

from playwright.sync_api import expect  # noqa: E402


RECORD_REVIEW_STATES = """
window.reviewStates = [];
const section = document.getElementById("review");
const record = () => window.reviewStates.push({
  status: document.getElementById("review-status").textContent,
  figures: section.querySelectorAll("figure.mistake").length,
  none: section.querySelectorAll(".review-player .none").length,
  without: [...section.querySelectorAll(".review-player")].filter((part) => !part.querySelector("figure.mistake")).length,
});
record();
new MutationObserver(record).observe(section, { subtree: true, childList: true, characterData: true });
"""
"""Records what the review section shows at every change: its status line, the mistakes drawn, the "none"
verdicts and the players shown without a mistake."""


@pytest.fixture
def remote(tmp_path):
    """The remote on a free port in front of a finished Duel whose review is half done; yields (remote, reviewer)."""
    journal = Journal(tmp_path)
    session = Session(ADA_AND_BO, journal=journal)
    finish(session)
    rows = journal.review_rows(journal.current_game)
    for decision_id, *_ in rows[: len(rows) // 2]:
        journal.keep_review(decision_id, "P1", 0.0)  # the first half: no mistake, so the page waits for the rest
    running = runner.start(RemoteService(session.start()), host="127.0.0.1", port=0)
    reviewer = Reviewer(journal, **TINY)
    yield running, reviewer
    reviewer.close()
    running.close()
    session.stop()
    journal.close()


@pytest.mark.serial  # the review runs at nice 19: with other tests busy it would barely run
def test_the_game_over_view_draws_the_biggest_mistakes_with_the_played_and_preferred_options(browser, remote):
    running, reviewer = remote
    page = phone(browser, running)
    page.goto("/")
    expect(page.locator("#over")).to_be_visible()
    halfway = page.context.request.get("/review/current").json()
    assert not halfway["complete"]
    expect(page.locator("#review-status")).to_have_text(
        i18n.translate("en", "review.progress", done=halfway["reviewed"], n=halfway["decisions"]))
    page.evaluate(RECORD_REVIEW_STATES)
    reviewer.start()  # the rest of the review arrives while the page is open
    assert reviewer.idle.wait(60)
    review = page.context.request.get("/review/current").json()
    assert review["complete"]
    expect(page.locator("#review-status")).to_have_text("", timeout=10_000)
    states = page.evaluate("window.reviewStates")
    running = [state for state in states if state["status"]]
    assert running and all(state["figures"] == state["none"] == 0 for state in running), running
    finished = [state for state in states if not state["status"]]
    assert finished and all(state["none"] == state["without"] for state in finished), finished
    for player in review["players"]:
        figures = page.locator(f'.review-player[data-seat="{player["seat"]}"] figure.mistake')
        expect(figures).to_have_count(len(player["mistakes"]))
        for index, item in enumerate(player["mistakes"]):
            figure = figures.nth(index)
            for option in (item["played"], item["preferred"]):
                expect(figure.locator("figcaption")).to_contain_text(option["label"])
                expect(figure.locator("figcaption")).not_to_contain_text(f'({option["notation"]})')
            expect(figure.locator(f'svg [data-seat="{player["seat"]}"]')).to_have_count(1)
    marked = page.locator("figure.mistake:has(.review-played):has(.review-preferred)")
    assert marked.count() >= 1  # take and line options are parts of the drawing, outlined both ways
    assert page.locator(".review-played rect").first.evaluate("node => getComputedStyle(node).stroke") == "rgb(198, 40, 40)"
    # A tab touched draws the figure again, its outlines with it: another seat's board, then the deciding seat's.
    index = page.evaluate("""() => [...document.querySelectorAll("figure.mistake")].findIndex(
      (figure) => figure.querySelector(".review-played") && figure.querySelector(".review-preferred"))""")
    figure = page.locator("figure.mistake").nth(index)
    deciding = figure.locator('.seat-tab[aria-pressed="true"]')
    seat = deciding.get_attribute("data-show-seat")
    figure.locator('.seat-tab[aria-pressed="false"]').first.click()
    expect(figure.locator(f'.seat-tab[data-show-seat="{seat}"]')).to_have_attribute("aria-pressed", "false")
    figure.locator(f'.seat-tab[data-show-seat="{seat}"]').click()
    expect(figure.locator(f'.seat-tab[data-show-seat="{seat}"]')).to_have_attribute("aria-pressed", "true")
    expect(figure.locator(".review-played").first).to_be_attached()
    expect(figure.locator(".review-preferred").first).to_be_attached()
