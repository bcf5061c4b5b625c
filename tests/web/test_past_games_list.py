"""The past games as a family reads them: newest ended first (an imported game by its own end), the winners
marked so they stand out, chosen by opponent, number of players and days, and no word cut in two."""
import dataclasses
import re

import pytest

from firmware_py.journal import Journal
from firmware_py.session import Seat, Session, Setup
from tests.web.phones import base_url
from tests.web.test_story_charts import finished_record
from web_remote import create_app, i18n
from web_remote.service import RemoteService


@pytest.fixture(scope="module")
def journal(tmp_path_factory):
    """Three finished games: a Duel of Ana and Bea (ended 2026-03-01), a 3-player Pavilion of Ana, Bea and Cy
    imported later but ended first (2026-01-10), a 4-player Pavilion of Ana, Cy, Dee and Eli (2026-02-05)."""
    kept = Journal(tmp_path_factory.mktemp("journal"))
    games = {}
    for key, game, names, seed, ended in (
            ("duel", "duel", ("Ana", "Bea"), 4, "2026-03-01T20:00:00Z"),
            ("four", "pavilion", ("Ana", "Cy", "Dee", "Eli"), 5, "2026-02-05T21:00:00+01:00"),
            ("three", "pavilion", ("Ana", "Bea", "Cy"), 6, "2026-01-10T19:30:00Z")):
        record = dataclasses.replace(finished_record(game, names, seed), started=ended[:11] + "18:00:00Z",
                                     finished=ended)
        games[key] = kept.import_record(record)
    people = {name: kept.players.create(name) for name in ("Ana", "Bea", "Cy", "Dee", "Eli")}
    for name, profile in people.items():
        kept.players.attach(name, profile.id)
    yield kept, games, {name: profile.id for name, profile in people.items()}
    kept.close()


@pytest.fixture(scope="module")
def client(journal):
    session = Session(Setup(game="duel", seats=(Seat(name="X"), Seat(name="Y")), seed=1), journal=journal[0])
    service = RemoteService(session.start())
    yield create_app(service, {"TESTING": True}).test_client()
    service.close()
    session.stop()


def listed(client, query="") -> list:
    answer = client.get(f"/history/{query}")
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    return [int(n) for n in re.findall(r'<tr id="game-(\d+)"', answer.get_data(as_text=True))]


def test_the_list_follows_when_each_game_ended_an_imported_one_by_its_own_end(client, journal):
    _, games, _ = journal
    shown = listed(client)
    assert shown[1:] == [games["duel"], games["four"], games["three"]]  # after the game being played now


def test_the_list_is_chosen_by_opponent_number_of_players_and_days(client, journal):
    _, games, ids = journal
    assert listed(client, f"?player={ids['Ana']}&opponent={ids['Bea']}") == [games["duel"], games["three"]]
    assert listed(client, f"?opponent={ids['Dee']}") == [games["four"]]
    assert listed(client, "?seats=3") == [games["three"]]
    assert listed(client, "?game=pavilion&seats=4") == [games["four"]]
    assert listed(client, "?since=2026-02-01&until=2026-12-31")[-2:] == [games["duel"], games["four"]]
    assert listed(client, "?since=2026-01-10&until=2026-02-05") == [games["four"], games["three"]]
    for bad in ("?seats=5", "?seats=x", "?since=2026-13-01", "?until=yesterday",
                f"?player={ids['Ana']}&opponent={ids['Ana']}"):
        answer = client.get(f"/history/{bad}")
        assert answer.status_code == 400, bad
        assert i18n.translate("en", "history.bad_filter") in answer.get_data(as_text=True)
    assert client.get("/history/?opponent=99999").status_code == 404
    export = client.get("/history/games.json?seats=4").get_json()
    assert [row["id"] for row in export["games"]] == [games["four"]]


@pytest.fixture(scope="module")
def served(journal):
    from web_remote import runner
    session = Session(Setup(game="duel", seats=(Seat(name="X"), Seat(name="Y")), seed=1), journal=journal[0]).start()
    remote = runner.start(RemoteService(session), host="127.0.0.1", port=0)
    yield remote
    remote.close()
    session.stop()


CUT_WORDS = """() => {
  const cut = [];
  for (const cell of document.querySelectorAll("#games th, #games td")) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const found of node.textContent.matchAll(/[\\p{L}\\p{N}]+/gu)) {
        const range = document.createRange();
        range.setStart(node, found.index);
        range.setEnd(node, found.index + found[0].length);
        const lines = new Set([...range.getClientRects()].map((box) => Math.round(box.top)));
        if (lines.size > 1 && !/\\p{Script=Han}/u.test(found[0])) cut.push(found[0]);  // Chinese breaks anywhere
      }
    }
  }
  return cut;
}"""
"""The words of the games' table that the browser laid out over more than one line (Chinese, written without
spaces, may break between any two characters)."""


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_winners_stand_out_and_no_word_is_cut_at_390_px(served, browser, language):
    context = browser.new_context(base_url=base_url(served), viewport={"width": 390, "height": 844},
                                  is_mobile=True, has_touch=True, locale=language)
    context.add_cookies([{"name": i18n.LANGUAGE_COOKIE, "value": language, "url": base_url(served)}])
    page = context.new_page()
    page.goto("/history/")
    looks = page.evaluate("""() => [...document.querySelectorAll("#games .player")].map((name) => ({
        winner: name.classList.contains("winner"), weight: getComputedStyle(name).fontWeight,
        background: getComputedStyle(name).backgroundColor, mark: getComputedStyle(name, "::before").content}))""")
    winners = [look for look in looks if look["winner"]]
    others = [look for look in looks if not look["winner"]]
    assert winners and others
    assert all(int(look["weight"]) >= 700 and look["mark"] not in ("none", "normal") for look in winners), winners
    assert all(int(look["weight"]) < 700 and look["mark"] in ("none", "normal") for look in others), others
    assert {look["background"] for look in winners}.isdisjoint({look["background"] for look in others})
    assert page.evaluate(CUT_WORDS) == [], language
    context.close()
