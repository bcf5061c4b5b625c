"""The setup page starts from the last setup: the game, seats and rules the host chose last, kept in the
journal so that they outlive a restart and the new game the command line then starts."""

import pytest

from firmware_py.journal import Journal
from firmware_py.session import Seat, Session, Setup
from tests.web.conftest import host_code
from web_remote import create_app, runner
from web_remote.service import RemoteService

CHOSEN = {
    "game": "pavilion",
    "seats": [{"name": "Ada", "kind": "phone", "level": "normal"}, {"name": "Bo", "kind": "rig", "level": "normal"},
              {"name": "Cy", "kind": "ai", "level": "hard"}],
    "flags": {"side": "monochrome"},
}
DUEL = {
    "game": "duel",
    "seats": [{"name": "Di", "kind": "ai", "level": "easy"}, {"name": "", "kind": "phone", "level": "normal"}],
    "flags": {"stack_reveal": "each", "objectives": ["horizontal", "diagonals", "wild"]},
}


class Table:
    """The table program's session and remote on a journal in ``directory``, started as ``azul-table``
    starts them: the unfinished game resumed, else a new game of the command line's ``setup``."""

    def __init__(self, directory, setup=Setup(), *, new=False):
        self.journal = Journal(directory)
        resumed = None if new else self.journal.resume()
        self.session = Session(resumed.setup if resumed else setup, game=resumed.game if resumed else None,
                               journal=self.journal).start()
        self.service = RemoteService(self.session)
        self.client = create_app(self.service, {"TESTING": True}).test_client()

    def host(self):
        answer = self.client.post("/api/host/login", json={"code": host_code(self.session)})
        return {"X-Host-Token": answer.json["host_token"]}

    def close(self):
        self.service.close()
        self.session.stop()
        self.journal.close()


@pytest.fixture
def tables(tmp_path):
    """Opens tables one after another on one journal (each a restart of the last) and closes them."""
    opened = []

    def start(*args, **options):
        if opened:
            opened[-1].close()
        opened.append(Table(tmp_path, *args, **options))
        return opened[-1]

    yield start
    opened[-1].close()


def test_the_setup_page_starts_from_the_game_on_the_table_until_the_host_chooses_one(tables):
    table = tables(Setup(game="duel", seats=(Seat(), Seat("phone", "Eve"))))
    assert table.client.get("/api/host/setup").status_code == 401
    assert table.client.get("/api/host/setup", headers={"X-Host-Token": "guess"}).status_code == 403
    last = table.client.get("/api/host/setup", headers=table.host())
    assert last.status_code == 200
    assert last.json == {"game": "duel", "seats": [{"name": "", "kind": "rig", "level": "normal"},
                                                   {"name": "Eve", "kind": "phone", "level": "normal"}], "flags": {}}


@pytest.mark.parametrize("chosen", [CHOSEN, DUEL], ids=["pavilion", "duel"])
def test_the_last_chosen_setup_outlives_restarts_and_new_games_from_the_command_line(tables, chosen):
    table = tables()
    started = table.client.post("/api/host/setup", json=chosen, headers=table.host())
    assert started.status_code == 201, started.json
    assert table.client.get("/api/host/setup", headers={"X-Host-Token": started.json["host_token"]}).json == chosen

    table = tables()  # restarted: the chosen game resumes
    assert table.session.snapshot.setup.game == chosen["game"]
    assert table.client.get("/api/host/setup", headers=table.host()).json == chosen

    table = tables(Setup(game="duel"), new=True)  # `azul-table --new`: a Duel at the rig, as the command line says
    assert table.session.snapshot.setup == Setup(game="duel")
    assert table.client.get("/api/host/setup", headers=table.host()).json == chosen

    # A bad setup starts nothing, so the last setup stays the one chosen before.
    refused = table.client.post("/api/host/setup", json={**chosen, "game": "chess"}, headers=table.host())
    assert refused.status_code == 400
    assert table.client.get("/api/host/setup", headers=table.host()).json == chosen


def test_a_damaged_last_setup_falls_back_to_the_game_on_the_table(tables, tmp_path):
    table = tables()
    assert table.client.post("/api/host/setup", json=CHOSEN, headers=table.host()).status_code == 201
    table = tables(Setup(game="duel"), new=True)
    with table.journal.writing("damage the chosen game's row") as db:  # as a bad sector would
        db.execute("UPDATE games SET seats = 'not json' WHERE game = 'pavilion'")
    last = table.client.get("/api/host/setup", headers=table.host()).json
    assert last["game"] == "duel" and [seat["kind"] for seat in last["seats"]] == ["rig", "rig"]


# -- in the browser -----------------------------------------------------------------


def test_the_setup_page_shows_the_last_setup_preselected_and_starts_it_again(browser, tables):
    pytest.importorskip("playwright")
    from playwright.sync_api import expect

    table = tables()
    assert table.client.post("/api/host/setup", json=DUEL, headers=table.host()).status_code == 201
    table = tables(Setup(game="pavilion", seats=(Seat(),) * 4), new=True)  # a restart into another game
    remote = runner.start(table.service, host="127.0.0.1", port=0)
    try:
        page = browser.new_context(base_url=f"http://127.0.0.1:{remote.port}").new_page()
        page.goto("/host")
        page.fill("#host-code", host_code(table.session))
        page.click("#login-button")
        expect(page.locator("#host-tools")).to_be_visible()
        expect(page.locator("#game")).to_have_value("duel")
        expect(page.locator("#seat-count")).to_have_value("2")
        rows = page.locator(".seat-row")
        expect(rows.nth(0).locator(".seat-name")).to_have_value("Di")
        expect(rows.nth(0).locator(".seat-kind")).to_have_value("ai")
        expect(rows.nth(0).locator(".seat-level")).to_have_value("easy")
        expect(rows.nth(0).locator(".seat-level")).to_be_visible()
        expect(rows.nth(1).locator(".seat-kind")).to_have_value("phone")
        expect(rows.nth(1).locator(".seat-level")).to_be_hidden()
        expect(rows.nth(2)).to_be_hidden()
        expect(page.locator("#stack-reveal")).to_have_value("each")
        expect(page.locator("#objectives-mode")).to_have_value("chosen")
        expect(page.locator("#objective-choice")).to_be_visible()
        shown = [select.input_value() for select in page.locator(".objective").all()]
        assert sorted(filter(None, shown)) == sorted(DUEL["flags"]["objectives"]), shown
        expect(page.locator("fieldset.rules[data-game='pavilion']")).to_be_hidden()

        old_game = table.service.game_id
        page.click("#start-button")  # one tap plays the same setup again
        expect(page.locator("#message")).to_be_visible()
        assert table.service.game_id != old_game
        expect(page.locator("#message")).to_contain_text(table.service.join_code)
        setup = table.session.snapshot.setup
        assert setup.game == "duel" and [(s.name, s.kind, s.level) for s in setup.seats] == [
            ("Di", "ai", "easy"), ("", "phone", "normal")]
        assert dict(setup.flags) == {"stack_reveal": "each", "objectives": ("horizontal", "diagonals", "wild")}
    finally:
        remote.close()
