"""The players' API: everyone reads profiles and ratings, only the host changes them, a phone joins as a known
player or someone new, and every bad request is a clear 4xx that changes nothing."""
import random
import time

import pytest

from firmware_py.session import Play, Seat, Setup
from tests.patience import patient
from tests.web.test_last_setup import tables  # noqa: F401 (a fixture)


def rows(table) -> tuple:
    with table.journal.reading() as db:
        return tuple(tuple(db.execute(f"SELECT * FROM {name} ORDER BY 1, 2").fetchall())
                     for name in ("players", "seat_players", "ratings", "games"))


def test_only_the_host_changes_profiles_and_a_seated_phone_cannot_rename_anyone(tables):
    table = tables(Setup(game="duel", seats=(Seat("phone"), Seat("phone"))), new=True)
    host = table.host()
    ana = table.client.post("/api/host/players", json={"name": "Ana", "colour": "blue"}, headers=host)
    assert ana.status_code == 201 and ana.json["name"] == "Ana" and ana.json["ratings"]["duel"]["games"] == 0
    joined = table.client.post("/api/join", json={"code": table.service.join_code, "seat": 0,
                                                  "new_player": {"name": "Bea", "symbol": "moon"}})
    assert joined.status_code == 201, joined.json
    seat = {"X-Seat-Token": joined.json["token"]}
    before = rows(table)
    for path, body in ((f"/api/host/players/{ana.json['id']}", {"name": "Mallory"}),
                       ("/api/host/players", {"name": "Eve"}),
                       ("/api/host/players/merge", {"keep": ana.json["id"], "merge": ana.json["id"] + 1}),
                       ("/api/host/players/attach", {"name": "Ana", "player": ana.json["id"]})):
        for headers in ({}, seat, {"X-Host-Token": joined.json["token"]}):
            answer = table.client.post(path, json=body, headers=headers)
            assert answer.status_code in (401, 403), (path, headers, answer.status_code)
            assert answer.json["message"]
    assert rows(table) == before
    listed = table.client.get("/api/players").json
    assert [p["name"] for p in listed["players"]] == ["Bea", "Ana"]
    assert sorted(p["level"] for p in listed["computers"]) == ["easy", "expert", "hard", "normal"]


@pytest.mark.parametrize("body, status, key", [
    ({"name": "ana"}, 409, "players.name_taken"),
    ({"name": "x" * 10_000}, 400, "players.long_name"),
    ({"name": "x" * 25}, 400, "players.long_name"),
    ({"name": ""}, 400, "players.empty_name"),
    ({"name": "A\u0007"}, 400, "players.bad_character"),
    ({"name": 7}, 400, "error.invalid_field"),
    ({}, 400, "error.missing_field"),
    ({"name": "Cai", "colour": "mauve"}, 400, "error.invalid_field"),
    ({"name": "Cai", "languages": ["en", "xx"]}, 400, "error.invalid_field"),
    ({"name": "Cai", "languages": "en"}, 400, "error.invalid_field"),
    ({"name": "Cai", "languages": [{"en": []}]}, 400, "error.invalid_field"),
    ({"name": "Cai", "languages": [["en"]]}, 400, "error.invalid_field"),
    ({"name": "Cai", "colour": "orange", "symbol": "circle"}, 409, "players.look_taken"),  # Ana's, the first free
    ({"name": "Cai", "colour": "grey", "symbol": "cross"}, 409, "players.computer_look_taken"),
])
def test_bad_profiles_are_refused_with_a_clear_message(tables, body, status, key):
    table = tables(Setup(), new=True)
    host = table.host()
    assert table.client.post("/api/host/players", json={"name": "Ana"}, headers=host).status_code == 201
    before = rows(table)
    answer = table.client.post("/api/host/players", json=body, headers={**host, "Accept-Language": "it"})
    assert (answer.status_code, answer.json["error"]) == (status, key)
    assert answer.json["message"] and "{" not in answer.json["message"]
    assert rows(table) == before


def test_renames_and_merges_through_the_api_refuse_unknown_ids_and_a_merge_with_oneself(tables):
    table = tables(Setup(), new=True)
    host = table.host()
    ana = table.client.post("/api/host/players", json={"name": "Ana"}, headers=host).json
    before = rows(table)
    for path, body, status in ((f"/api/host/players/{ana['id'] + 100}", {"name": "Bea"}, 404),
                               ("/api/host/players/99999999999999999999", {"name": "Bea"}, 400),
                               ("/api/host/players/merge", {"keep": ana["id"], "merge": ana["id"]}, 400),
                               ("/api/host/players/merge", {"keep": ana["id"], "merge": 10 ** 30}, 400),
                               ("/api/host/players/merge", {"keep": ana["id"], "merge": ana["id"] + 50}, 404),
                               ("/api/host/players/attach", {"name": "Zed", "player": ana["id"]}, 404),
                               ("/api/host/games/99999999999/rated", {"counts": "yes"}, 404),
                               ("/api/host/games/1/rated", {"counts": "maybe"}, 400)):
        answer = table.client.post(path, json=body, headers=host)
        assert answer.status_code == status, (path, answer.status_code, answer.json)
        assert answer.json["message"]
    assert rows(table) == before
    renamed = table.client.post(f"/api/host/players/{ana['id']}", json={"name": "Ana Lima", "symbol": "heart"},
                                headers=host)
    assert (renamed.json["name"], renamed.json["symbol"]) == ("Ana Lima", "heart")
    for path in ("/api/players/0", "/api/players/123456", "/api/games/99999999999999/ratings", "/api/ratings/chess"):
        assert table.client.get(path).status_code in (400, 404), path


def test_a_phone_joins_as_a_known_player_and_a_bad_choice_keeps_the_seat_free(tables):
    table = tables(Setup(game="pavilion", seats=(Seat("phone"), Seat("phone"), Seat("ai", level="easy"))), new=True)
    host = table.host()
    ana = table.client.post("/api/host/players", json={"name": "Ana"}, headers=host).json
    code = table.service.join_code
    before = rows(table)
    for body, status in (({"player": ana["id"], "new_player": {"name": "Bea"}}, 400),
                         ({"player": 424242}, 404), ({"player": "1"}, 400),
                         ({"new_player": {"name": "ANA"}}, 409), ({"new_player": {"name": "x" * 100}}, 400),
                         ({"new_player": "Bea"}, 400),
                         *(({"player": computer["id"]}, 400)  # a phone never joins as a computer player
                           for computer in table.client.get("/api/players").json["computers"])):
        answer = table.client.post("/api/join", json={"code": code, "seat": 0, **body})
        assert answer.status_code == status, (body, answer.json)
        assert answer.json["message"]
    assert rows(table) == before and table.service.current().credentials.taken == frozenset()
    joined = table.client.post("/api/join", json={"code": code, "seat": 0, "player": ana["id"]})
    assert joined.status_code == 201
    again = table.client.post("/api/join", json={"code": code, "seat": 1, "player": ana["id"]})
    assert again.status_code == 409 and again.json["error"] == "players.seated_twice"
    state = table.client.get("/api/state").json
    assert state["seats"][0]["name"] == "Ana"


def test_the_host_assigns_known_players_to_rig_seats_and_the_game_is_rated_at_its_end(tables):
    table = tables(Setup(), new=True)
    host = table.host()
    ana = table.client.post("/api/host/players", json={"name": "Ana"}, headers=host).json
    refused = table.client.post("/api/host/setup", headers=host, json={
        "game": "duel", "seats": [{"kind": "rig", "player": ana["id"]}, {"kind": "rig", "player": ana["id"]}]})
    assert refused.status_code == 400 and refused.json["error"] == "players.seated_twice_setup"
    started = table.client.post("/api/host/setup", headers=host, json={
        "game": "duel", "seats": [{"kind": "rig", "player": ana["id"]}, {"kind": "ai", "level": "easy"}]})
    assert started.status_code == 201, started.json
    last = table.client.get("/api/host/setup", headers={"X-Host-Token": started.json["host_token"]}).json
    assert last["seats"][0] == {"name": "Ana", "kind": "rig", "level": "normal", "player": ana["id"]}
    session, choices, deadline = table.session, random.Random(3), time.monotonic() + patient(300)
    while not session.snapshot.over and time.monotonic() < deadline:
        if session.snapshot.current_player == 0:
            session.call(Play(0, choices.choice(session.snapshot.options)))
        else:
            time.sleep(0.02)  # the computer's seat thinks on its own thread
    assert session.snapshot.over
    game_id = table.journal.current_game
    rated = table.client.get(f"/api/games/{game_id}/ratings").json["seats"]
    assert [seat["player"] for seat in rated][0] == ana["id"] and len(rated) == 2
    standings = table.client.get("/api/ratings/duel").json["players"]
    assert {row["player"] for row in standings} == {ana["id"], rated[1]["player"]}
    assert all(row["games"] == 1 for row in standings)


def test_the_ratings_table_names_each_player_with_their_mark_and_the_rating_in_the_phones_language(tables):
    table = tables(Setup(), new=True)
    host = table.host()
    ana = table.client.post("/api/host/players", json={"name": "Ana", "colour": "sky", "symbol": "moon"},
                            headers=host).json
    bea = table.client.post("/api/host/players", json={"name": "Bea"}, headers=host).json
    started = table.client.post("/api/host/setup", headers=host, json={
        "game": "duel", "seats": [{"kind": "rig", "player": ana["id"]}, {"kind": "rig", "player": bea["id"]}]})
    assert started.status_code == 201, started.json
    session = table.session
    while not session.snapshot.over:
        session.call(Play(session.snapshot.current_player, session.snapshot.options[0]))
    standings = table.client.get("/api/ratings/duel", headers={"Accept-Language": "it"}).json["players"]
    expected = {row.player_id: row.after for row in table.journal.ratings.of_game(table.journal.current_game)}
    assert {row["player"] for row in standings} == {ana["id"], bea["id"]}
    for row in standings:
        profile = ana if row["player"] == ana["id"] else bea
        assert {name: row[name] for name in ("name", "kind", "colour", "symbol")} == {
            name: profile[name] for name in ("name", "kind", "colour", "symbol")}
        assert row["rating_text"] == f"{expected[row['player']].mu:.1f}".replace(".", ",")
        assert row["uncertainty_text"] == f"±{expected[row['player']].sigma:.1f}".replace(".", ",")
        assert row["new"] is expected[row["player"]].new is True  # one game leaves a rating uncertain
    assert table.client.get("/api/ratings/pavilion").json["players"] == []
