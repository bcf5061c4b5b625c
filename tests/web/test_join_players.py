"""Choosing who plays, in real headless Chromium at 390 x 844 and 320 x 568: a phone joins as a known person
or as someone new (a refused name says why next to it and makes nothing), is offered its player of last
time first, and forgets it quietly once the host merged it away; the host puts known and new players in
the seats, the game's seats are linked to them, and the ratings at this table show once a rated game is
over. The join chooser fits a 320 px phone in every language, axe-clean and finger-sized."""
import json
import urllib.request

import pytest

from firmware_py.journal import Journal
from firmware_py.session import Play, Seat, Session, Setup
from tests.web.conftest import host_code
from tests.web.phones import PHONE, base_url
from tests.web.test_page_checks import OVERFLOW
from web_remote import i18n, runner
from web_remote.service import RemoteService

pytest.importorskip("playwright")

from axe_playwright_python.sync_playwright import Axe  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

SIZES = {"390x844": PHONE["viewport"], "320x568": {"width": 320, "height": 568}}
SMALLEST = 44  # CSS px, each way
ELIS_LOOK = {"390x844": ("orange", "star"), "320x568": ("vermilion", "moon")}  # one Eli a size, two people
CHOSEN_LOOK = """() => ['colour', 'symbol'].map(
  (what) => document.querySelector(`#new-player input[name="new-player-${what}"]:checked`).value)"""
TWO_PHONES = [{"kind": "phone", "name": "", "level": "normal"}] * 2
# The chooser's touch targets: the code, seats, people, someone new, skip, a new player's name and each
# colour, symbol and language, Join; on the setup page, each seat's fields and the new player's.
TARGETS = "#join-code, #seats label, #who label.person, #new-player-name, #new-player .mark-choice, #join-button"
HOST_TARGETS = (".seat-row:not([hidden]) :is(input, select):not([hidden]):not([hidden] *), #host-new-player-name, "
                "#host-new-player .mark-choice, #player-panel button")


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """One table with a journal for the whole module, Ana and Bea already known; its remote serves phones."""
    journal = Journal(tmp_path_factory.mktemp("journal"))
    session = Session(Setup(game="duel", seats=(Seat("phone"), Seat("phone"))), journal=journal).start()
    remote = runner.start(RemoteService(session), host="127.0.0.1", port=0)
    remote.journal = journal
    remote.people = {name: journal.players.create(name).id for name in ("Ana", "Bea")}
    remote.host = Host(remote)
    yield remote
    remote.close()
    session.stop()
    journal.close()


class Host:
    """The host's API calls, as the setup page makes them (each new game gives the host a new token)."""

    def __init__(self, remote):
        self.remote = remote
        self.login()

    def login(self):
        self.token = ""
        self.token = self.call("/api/host/login", {"code": host_code(self.remote.service.session)})["host_token"]

    def call(self, path, body=None):
        headers = {"Content-Type": "application/json", "X-Host-Token": self.token}
        asked = urllib.request.Request(base_url(self.remote) + path, headers=headers,
                                       data=None if body is None else json.dumps(body).encode())
        with urllib.request.urlopen(asked) as answer:
            return json.load(answer)

    def new_game(self, game, seats):
        """Start a game, logged in afresh (a game the setup page started gave its token to that page)."""
        self.login()
        self.token = self.call("/api/host/setup", {"game": game, "seats": seats})["host_token"]


def phone(browser, remote, viewport, language="en"):
    context = browser.new_context(base_url=base_url(remote), **{**PHONE, "viewport": viewport}, locale=language)
    context.add_cookies([{"name": i18n.LANGUAGE_COOKIE, "value": language, "url": base_url(remote)}])
    return context


def open_join(context, remote):
    """The join page of ``context`` with the chooser drawn, the join code typed."""
    page = context.new_page()
    page.goto("/join")
    expect(page.locator("#who")).to_be_visible()
    page.fill("#join-code", remote.service.join_code)
    return page


def person(page, name):
    return page.locator("#people label.person", has_text=name)


def fits(page):
    layout = page.evaluate(OVERFLOW)
    assert layout["scroll"] <= layout["width"] and not layout["over"], layout


def finger_sized(page, targets, least):
    """Every one of ``targets`` is at least SMALLEST CSS px each way; there are ``least`` of them at least."""
    boxes = page.locator(targets).evaluate_all("nodes => nodes.map((node) => [node.id || node.textContent.trim(), "
                                               "node.getBoundingClientRect().width, node.getBoundingClientRect().height])")
    small = [box for box in boxes if box[1] < SMALLEST or box[2] < SMALLEST]
    assert len(boxes) >= least and not small, small


def seats_players(remote):
    return [seat.player for seat in remote.service.session.snapshot.setup.seats]


@pytest.mark.parametrize("size", SIZES)
def test_a_phone_joins_as_itself_or_someone_new_and_is_offered_itself_first_next_time(browser, table, size):
    viewport, cleo, dee = SIZES[size], f"Cleo {size}", f"Dee {size}"
    table.host.new_game("duel", TWO_PHONES)
    ana = table.people["Ana"]

    first = phone(browser, table, viewport)
    page = open_join(first, table)
    expect(page.locator("#who-skip")).to_be_checked()  # nobody remembered yet: the seat's name, as before
    page.locator("#seats label", has_text="Player 1").tap()
    person(page, "Ana").tap()
    page.locator("#join-button").tap()
    page.wait_for_url("**/")
    assert seats_players(table)[0] == ana and table.service.current().setup.seats[0].name == "Ana"
    assert page.evaluate("localStorage.getItem('azul.player')") == str(ana)
    fits(page)

    second = phone(browser, table, viewport)
    page = open_join(second, table)
    page.locator("#seats label", has_text="Player 2").tap()
    page.locator("#who-new").locator("xpath=..").tap()
    expect(page.locator("#new-player")).to_be_visible()
    offered = table.host.call("/api/players")["new_look"]  # the fields start on a pair nobody has
    assert page.evaluate(CHOSEN_LOOK) == [offered["colour"], offered["symbol"]]
    assert (offered["colour"], offered["symbol"]) not in [(p.colour, p.symbol) for p in table.journal.players.all()]
    page.fill("#new-player-name", "ana")  # Ana's name, whatever the case: refused, next to the name
    before = table.journal.players.all()
    page.locator("#join-button").tap()
    expect(page.locator("#new-player-refused")).to_have_text("Ana is already a player at this table.")
    expect(page.locator("#new-player-name")).to_have_value("ana")
    expect(page.locator("#who-new")).to_be_checked()
    assert table.journal.players.all() == before and 1 not in table.service.current().credentials.taken
    fits(page)

    page.fill("#new-player-name", cleo)
    anas = table.journal.players.get(ana)
    for value in (anas.colour, anas.symbol):  # Ana's look: refused, next to the fields, naming her
        page.locator(f'#new-player .mark-choice:has(input[value="{value}"])').tap()
    page.locator("#join-button").tap()
    expect(page.locator("#new-player-refused")).to_have_text("Ana already has this colour and symbol: choose another.")
    assert table.journal.players.all() == before
    page.locator("#new-player .mark-choice", has_text="green").tap()
    page.locator("#new-player .mark-choice", has_text="heart").tap()
    page.locator("#new-player .mark-choice", has_text="Italiano").tap()
    page.locator("#join-button").tap()
    page.wait_for_url("**/")
    made = next(profile for profile in table.journal.players.all() if profile.name == cleo)
    assert (made.colour, made.symbol, made.languages) == ("green", "heart", ("en", "it"))
    assert seats_players(table) == [ana, made.id]
    assert table.journal.players.of_game(table.journal.current_game) == {0: ana, 1: made.id}
    assert table.host.call(f"/api/players/{made.id}")["name"] == cleo

    # Both seated: neither can be chosen again, and the page says where each plays.
    page = open_join(second, table)
    expect(person(page, "Ana")).to_contain_text("already plays in seat 1")
    expect(person(page, "Ana").locator("input")).to_be_disabled()
    expect(person(page, cleo)).to_contain_text("already plays in seat 2")
    expect(page.locator("#who-skip")).to_be_checked()

    # The next game: this phone is offered Cleo first, chosen, "you last time".
    table.host.new_game("duel", TWO_PHONES)
    page = open_join(second, table)
    expect(page.locator("#people label.person").first).to_contain_text(cleo)
    expect(person(page, cleo)).to_contain_text("you last time")
    expect(person(page, cleo).locator("input")).to_be_checked()
    expect(person(page, cleo).locator("svg.mark-green")).to_have_count(1)
    fits(page)

    # The host merges Cleo into Dee: the phone falls back to the list without a word.
    kept = table.host.call("/api/host/players", {"name": dee})
    table.host.call("/api/host/players/merge", {"keep": kept["id"], "merge": made.id})
    page = open_join(second, table)
    expect(person(page, dee)).to_be_visible()
    expect(page.locator("#people")).not_to_contain_text(cleo)
    expect(page.locator("#who")).not_to_contain_text("you last time")
    expect(page.locator("#who-skip")).to_be_checked()
    expect(page.locator("#message")).to_be_hidden()
    assert page.evaluate("localStorage.getItem('azul.player')") is None
    first.close()
    second.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_host_puts_known_and_new_players_in_the_seats(browser, table, size):
    viewport, eli = SIZES[size], f"Eli {size}"
    colour, symbol = ELIS_LOOK[size]
    table.host.new_game("duel", TWO_PHONES)
    context = phone(browser, table, viewport)
    page = context.new_page()
    page.goto("/host")
    page.fill("#host-code", host_code(table.service.session))
    page.locator("#login-button").tap()
    expect(page.locator("#host-tools")).to_be_visible()
    page.select_option("#game", "pavilion")
    page.select_option("#seat-count", "3")
    rows = page.locator(".seat-row")
    rows.nth(0).locator(".seat-kind").select_option("rig")
    rows.nth(0).locator(".seat-player").select_option(label="Ana")
    expect(rows.nth(0).locator(".seat-name")).to_be_hidden()  # the profile names the seat
    rows.nth(2).locator(".seat-kind").select_option("ai")
    rows.nth(2).locator(".seat-level").select_option("hard")
    expect(rows.nth(2).locator(".seat-player")).to_be_hidden()
    expect(rows.nth(2).locator(".seat-computer")).to_have_text("Played by Computer (hard)")

    # Ana sits in seat 1: seat 2's select says so and will not take her.
    taken = rows.nth(1).locator(".seat-player option", has_text="Ana")
    expect(taken).to_have_text("Ana – already in seat 1")
    expect(taken).to_be_disabled()

    rows.nth(1).locator(".seat-player").select_option("new")
    expect(page.locator("#player-panel")).to_be_visible()
    page.fill("#host-new-player-name", "BEA")
    page.locator("#add-player").tap()
    expect(page.locator("#host-new-player-refused")).to_have_text("Bea is already a player at this table.")
    page.fill("#host-new-player-name", eli)
    for value in (colour, symbol):
        page.locator(f'#host-new-player .mark-choice:has(input[value="{value}"])').tap()
    if size == "390x844":
        serious = [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in Axe().run(page).response["violations"]
                   if v["impact"] in ("serious", "critical")]
        assert not serious, serious
    fits(page)
    finger_sized(page, HOST_TARGETS, 2 + 3 + 3 + 1 + 8 + 8 + 2)  # Ana's seat needs no name
    page.locator("#host-new-player-name").press("Enter")  # adds the player; the game does not start yet
    expect(page.locator("#player-panel")).to_be_hidden()
    made = next(profile for profile in table.journal.players.all() if profile.name == eli)
    assert (made.colour, made.symbol) == (colour, symbol)
    expect(rows.nth(1).locator(".seat-player")).to_have_value(str(made.id))
    assert table.service.current().setup.game == "duel"

    page.locator("#start-button").tap()
    expect(page.locator("#message")).to_contain_text("New game started")
    hard = table.journal.players.computer("hard").id
    assert seats_players(table) == [table.people["Ana"], made.id, None]
    assert table.journal.players.of_game(table.journal.current_game) == {0: table.people["Ana"], 1: made.id, 2: hard}
    assert [seat.name for seat in table.service.current().setup.seats[:2]] == ["Ana", eli]
    context.close()


def test_the_host_page_shows_the_ratings_at_this_table_after_a_rated_game(browser, table):
    ana, bea = table.people["Ana"], table.people["Bea"]
    table.host.new_game("duel", [{"kind": "rig", "player": ana}, {"kind": "rig", "player": bea}])
    session = table.service.session
    while not session.snapshot.over:
        session.call(Play(session.snapshot.current_player, session.snapshot.options[0]))
    after = {row.player_id: row.after for row in table.journal.ratings.of_game(table.journal.current_game)}
    assert all(rating.new for rating in after.values()), "one game leaves a rating new"
    context = phone(browser, table, SIZES["320x568"], "it")
    context.add_init_script(f"localStorage.setItem('azul.host', {json.dumps(table.host.token)})")
    page = context.new_page()
    page.goto("/host")
    expect(page.locator("#ratings")).to_be_visible()
    expect(page.locator("#ratings-title")).to_have_text("Valutazioni a questo tavolo: Azul Duel")
    lines = page.locator("#ratings-rows tr")
    expect(lines).to_have_count(2)
    ranked = sorted(after, key=lambda player: after[player].ordinal, reverse=True)
    for rank, player in enumerate(ranked):
        name = "Ana" if player == ana else "Bea"
        rating = f"{after[player].mu:.1f} ±{after[player].sigma:.1f}".replace(".", ",")
        expect(lines.nth(rank).locator("td")).to_have_text([f"{rank + 1}", f"{name} nuovo", rating, "1"])
        expect(lines.nth(rank)).to_have_class("new-rating")
    expect(page.locator("#ratings-note")).to_contain_text("meno tre volte")
    for language in i18n.LANGUAGES:
        context.add_cookies([{"name": i18n.LANGUAGE_COOKIE, "value": language, "url": base_url(table)}])
        page.reload()
        expect(page.locator("#ratings-rows tr")).to_have_count(2)
        fits(page)
    page.select_option("#game", "pavilion")  # no rated Summer Pavilion yet
    expect(page.locator("#ratings-none")).to_be_visible()
    expect(page.locator("#ratings table")).to_be_hidden()
    expect(page.locator("#ratings-note")).to_be_hidden()
    context.close()


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_the_join_chooser_fits_a_320_px_phone_in_every_language_axe_clean_and_finger_sized(browser, table, language):
    table.host.new_game("pavilion", [{"kind": "phone", "player": table.people["Ana"]}, *TWO_PHONES])
    context = phone(browser, table, SIZES["320x568"], language)
    page = context.new_page()
    page.goto("/join")
    expect(page.locator("#who")).to_be_visible()
    page.locator("#who-new").locator("xpath=..").tap()
    expect(page.locator("#new-player")).to_be_visible()
    assert page.locator("#people label.person").count() >= 2
    fits(page)
    finger_sized(page, TARGETS, 1 + 3 + 2 + 2 + 1 + 8 + 8 + len(i18n.LANGUAGES) + 1)
    serious = [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in Axe().run(page).response["violations"]
               if v["impact"] in ("serious", "critical")]
    assert not serious, (language, serious)
    person(page, "Ana").tap()  # the host put Ana in seat 1, a phone seat still free: choosing her takes it
    expect(page.locator("#seat-0")).to_be_checked()
    context.close()
