"""What the players' data says beyond the pages: computer seats named by their level in the exports,
exports that reproduce the ratings alone, and the host's player routes answering as documented."""
import csv
import io
import json

import qrcode

from openskill.models import PlackettLuce

from firmware_py.session import Play, Seat, Setup
from tests.journal.test_host_actions import finished_game
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


def test_a_stale_host_token_on_the_player_routes_says_the_host_role_is_not_held(tables):
    table = tables(Setup(), new=True)
    stale = table.host()
    table.client.post("/api/host/setup", headers=stale, json={"game": "duel", "seats": [{"kind": "rig"}] * 2})
    for path, body in (("/api/host/players", {"name": "Ana"}), ("/api/host/players/merge", {"keep": 1, "merge": 2}),
                       ("/api/host/players/attach", {"name": "Ana", "player": 1})):
        answer = table.client.post(path, json=body, headers=stale)
        assert (answer.status_code, answer.json.get("code")) == (403, "host_not_held"), (path, answer.json)


def test_a_bad_player_address_answers_a_page_to_a_browser(tables):
    table = tables(Setup(), new=True)
    answer = table.client.get("/players/abc", headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8",
                                                       "Accept-Language": "it"})
    assert answer.status_code == 404 and answer.mimetype == "text/html" and b"<html" in answer.data
    assert table.client.get("/players/abc").json["error"] == "error.not_found"


def places(scores, winners):
    others = [score for seat, score in enumerate(scores) if seat not in winners]
    return [0 if seat in winners else 1 + sum(other > score for other in others) for seat, score in enumerate(scores)]


def ratings_from_the_export(exported: dict) -> dict:
    """(player, game) -> mu worked out with openskill from games.json alone: the games that count, in the order
    they ended, each seat with a player rated by its place."""
    model, current = PlackettLuce(), {}
    for row in sorted(exported["games"], key=lambda row: (row["ended"], row["id"])):
        rated = [seat for seat in row["seats"] if seat["player"] is not None]
        if not row["counts"] or len(rated) < 2 or any(seat["score"] is None for seat in rated):
            continue
        keys = [(seat["player"], row["game"]) for seat in rated]
        teams = model.rate([[current.get(key, model.rating())] for key in keys], ranks=places(
            [seat["score"] for seat in rated], [index for index, seat in enumerate(rated) if seat["won"]]))
        current.update({key: team[0] for key, team in zip(keys, teams)})
    return {key: rating.mu for key, rating in current.items()}


def test_the_ratings_are_worked_out_again_from_the_games_export_alone(tables):
    table = tables(Setup(game="duel", seats=(Seat("rig"), Seat("rig")), seed=5), new=True)
    host, journal = table.host(), table.journal
    ana, bea, cai = (journal.players.create(name).id for name in ("Ana", "Bea", "Cai"))
    for number in range(8):
        finished_game(journal, [[ana, bea, cai][number % 3], [ana, bea, cai][(number + 1) % 3], ("ai", "hard")],
                      [number * 7 % 11, number * 5 % 13, 6])
    started = table.client.post("/api/host/setup", headers=host, json={
        "game": "duel", "seats": [{"kind": "rig", "player": ana}, {"kind": "rig", "player": cai}]})
    for _ in range(12):
        table.session.call(Play(table.session.snapshot.current_player, table.session.snapshot.options[-1]))
    stopped = journal.current_game
    host = {"X-Host-Token": started.json["host_token"]}
    table.client.post("/api/host/setup", headers=host, json={"game": "duel", "seats": [{"kind": "rig"}] * 2})
    assert table.client.post(f"/api/host/games/{stopped}/rated", json={"counts": "yes"},
                             headers={"X-Host-Token": table.host()["X-Host-Token"]}).status_code == 200
    exported = json.loads(table.client.get("/history/games.json").data)
    row = next(row for row in exported["games"] if row["id"] == stopped)
    assert row["status"] == "stopped" and row["counts"] and all(seat["score"] is not None for seat in row["seats"])
    worked_out = ratings_from_the_export(exported)
    table_ratings = {(entry["player"], game): entry["mu"] for game in ("duel", "pavilion")
                     for entry in table.client.get(f"/api/ratings/{game}").json["players"]}
    assert worked_out.keys() == table_ratings.keys() and (cai, "duel") in worked_out
    assert {key: round(mu, 3) for key, mu in worked_out.items()} == table_ratings
    text = table.client.get("/history/games.csv").data.decode("utf-8-sig")
    line = next(line for line in csv.DictReader(io.StringIO(text)) if line["id"] == str(stopped))
    assert (line["counts"], line["score_1"] != "", line["ended"]) == ("1", True, row["ended"])


def test_head_to_head_in_games_of_four_counts_who_finished_ahead_beside_the_wins(tables):
    table = tables(Setup(), new=True)
    journal = table.journal
    ana, bea, cai, dag = (journal.players.create(name).id for name in ("Ana", "Bea", "Cai", "Dag"))
    finished_game(journal, [ana, bea, cai, dag], [40, 30, 20, 10])
    finished_game(journal, [ana, bea, cai, ("ai", "easy")], [5, 25, 15, 60])
    rivals = {row["name"]: row for row in json.loads(table.client.get(f"/players/{bea}.json").data)["head_to_head"]}
    assert {name: (row["won"], row["lost"], row["ahead"], row["behind"]) for name, row in rivals.items()} == {
        "Ana": (0, 1, 1, 1), "Cai": (0, 0, 2, 0), "Dag": (0, 0, 1, 0), "Computer (easy)": (0, 1, 0, 1)}


def test_the_public_players_list_and_qr_code_are_worked_out_once_and_answer_not_modified(tables, monkeypatch):
    table = tables(Setup(), new=True)
    for number in range(30):
        table.journal.players.create(f"Person {number}")
    listed, drawn = [], []
    everyone = table.journal.players.all
    monkeypatch.setattr(table.journal.players, "all", lambda **kwargs: listed.append(1) or everyone(**kwargs))
    first = table.client.get("/api/players")
    assert len(first.json["players"]) == 30 and first.headers["ETag"]
    for _ in range(20):
        assert table.client.get("/api/players").data == first.data
    again = table.client.get("/api/players", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and len(listed) == 1
    table.journal.players.create("Zoe")
    assert len(table.client.get("/api/players").json["players"]) == 31 and len(listed) == 2
    make = qrcode.make
    monkeypatch.setattr(qrcode, "make", lambda *args, **kwargs: drawn.append(1) or make(*args, **kwargs))
    codes = [table.client.get("/qr.svg", base_url=("http://localhost", "http://127.0.0.1")[number % 2]) for number in range(10)]
    assert len({code.data for code in codes}) == 2 and len(drawn) <= 2
    assert table.client.get("/qr.svg", base_url="http://localhost",
                            headers={"If-None-Match": codes[0].headers["ETag"]}).status_code == 304
