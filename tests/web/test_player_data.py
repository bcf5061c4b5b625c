"""What the players' data says beyond the pages: computer seats named by their level in the exports,
exports that reproduce the ratings alone, and the host's player routes answering as documented."""
import csv
import io
import json

from firmware_py.session import Play, Seat, Setup
from tests.web.test_last_setup import tables  # noqa: F401 (a fixture)
from web_remote import i18n


def play_out(table):
    session = table.session
    while not session.snapshot.over:
        session.call(Play(session.snapshot.current_player, session.snapshot.options[0]))


def test_the_exports_name_each_computer_seat_by_its_level_and_pages_in_the_viewers_language(tables):
    table = tables(Setup(game="pavilion", seats=(Seat("rig", "Ana"), Seat("ai", level="hard"),
                                                 Seat("ai", "Robo", level="easy")), seed=3), new=True)
    exported = json.loads(table.client.get("/history/games.json", headers={"Accept-Language": "it"}).data)
    assert [seat["name"] for seat in exported["games"][0]["seats"]] == ["Ana", "Computer (hard)", "Computer (easy)"]
    text = table.client.get("/history/games.csv", headers={"Accept-Language": "sv"}).data.decode("utf-8-sig")
    row = next(csv.DictReader(io.StringIO(text)))
    assert (row["name_1"], row["name_2"], row["name_3"]) == ("Ana", "Computer (hard)", "Computer (easy)")
    seats = table.session.snapshot.setup.seats
    assert i18n.seat_names("it", seats) == ["Ana", "Computer (difficile)", "Computer (facile)"]
    assert i18n.seat_name("en", 3, "") == "Player 4"
