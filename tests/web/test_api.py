"""Every API endpoint through the Flask test client, including bad input and cross-seat attempts.

Whatever is refused must leave the game exactly as it was.
"""
import json

import pytest

from firmware_py.session import Play
from tests.web.conftest import host_code
from web_remote import i18n
from web_remote.service import GUESS_LIMITS


def unchanged(session, before):
    after = session.snapshot
    return after.state == before.state and after.history == before.history


# -- reading ------------------------------------------------------------------------


def test_observers_read_the_public_state_without_hidden_things(client, session):
    response = client.get("/api/state")
    assert response.status_code == 200
    payload = response.json
    assert payload["version"] == session.snapshot.version
    assert [seat["name"] for seat in payload["seats"]] == ["Ada", "Bo"]
    assert [option["notation"] for option in payload["options"]] == list(session.snapshot.options)
    state = payload["state"]
    for hidden in ("rng", "stack", "stack_seen"):
        assert hidden not in state
    assert state["stack_size"] == len(session.snapshot.state["stack"])
    for public, full in zip(state["small_factories"], session.snapshot.state["small_factories"]):
        assert public["chip"] == (full["chip"] if full["chip_revealed"] else "")
        assert public["chip_hidden"] == (bool(full["chip"]) and not full["chip_revealed"])
    assert isinstance(state["chip_supply"], int)
    assert all(len(row) == 6 for player in state["players"] for row in player["dome_spaces"])


def test_the_event_stream_sends_the_state_then_every_change(client, session, phones):
    response = client.get("/api/events", buffered=False)
    assert response.mimetype == "text/event-stream"
    chunks = iter(response.response)
    assert next(chunks).startswith(b"retry:")
    first = json.loads(next(chunks).decode().removeprefix("data: "))
    assert first["version"] == session.snapshot.version
    seat = session.snapshot.current_player
    phones.join(seat)
    joined = json.loads(next(chunks).decode().removeprefix("data: "))
    assert joined["seats"][seat]["taken"] is True
    option = session.snapshot.options[0]
    assert phones.move(seat, option).status_code == 200
    moved = json.loads(next(chunks).decode().removeprefix("data: "))
    assert moved["history"][-1]["notation"] == option
    assert moved["version"] == session.snapshot.version
    response.close()


# -- joining ----------------------------------------------------------------------


def test_join_gives_a_seat_token_and_the_seat_is_then_taken(client, service, phones):
    token = phones.join(0)
    assert service.seat_of(token) == 0
    answer = client.post("/api/join", json={"code": service.join_code, "seat": 1}).json
    assert answer["seat"] == 1 and answer["game_id"] == service.game_id and answer["run"] == service.current().run
    again = client.post("/api/join", json={"code": service.join_code, "seat": 0})
    assert again.status_code == 409 and again.json["error"] == "error.seat_taken"
    assert client.get("/api/state").json["seats"][0]["taken"] is True
    me = client.get("/api/me", headers={"X-Seat-Token": token})
    assert me.json["seat"] == 0


@pytest.mark.parametrize("body, status, error", [
    ({"code": "000000x", "seat": 0}, 403, "error.wrong_join_code"),
    ({"seat": 0}, 400, "error.missing_field"),
    ({"code": 123456, "seat": 0}, 400, "error.invalid_field"),
    ({"code": "CODE", "seat": 5}, 400, "error.no_such_seat"),
    ({"code": "CODE", "seat": True}, 400, "error.invalid_field"),
    ({"code": "CODE", "seat": "0"}, 400, "error.invalid_field"),
])
def test_bad_join_requests_are_refused_with_a_clear_message(client, service, body, status, error):
    body = {key: service.join_code if value == "CODE" else value for key, value in body.items()}
    response = client.post("/api/join", json=body)
    assert response.status_code == status
    assert response.json["error"] == error and response.json["message"]
    assert not service.current().credentials.taken


def test_only_json_objects_are_accepted(client, service):
    form = client.post("/api/join", data={"code": service.join_code, "seat": "0"})
    assert form.status_code == 400 and form.json["error"] == "error.json_required"
    listed = client.post("/api/join", json=[service.join_code, 0])
    assert listed.status_code == 400 and listed.json["error"] == "error.json_required"


def test_seats_played_at_the_rig_cannot_be_joined(session, service):
    from firmware_py.session import NewGame, Seat, Setup
    from web_remote import create_app

    session.call(NewGame(Setup(game="duel", seats=(Seat(kind="rig"), Seat(kind="phone")))))
    client = create_app(service, {"TESTING": True}).test_client()
    response = client.post("/api/join", json={"code": service.join_code, "seat": 0})
    assert response.status_code == 409 and response.json["error"] == "error.not_a_phone_seat"


def test_repeated_wrong_codes_lock_the_client_out(client, service):
    for _ in range(GUESS_LIMITS[0].amount):
        assert client.post("/api/join", json={"code": "wrong", "seat": 0}).status_code == 403
    locked = client.post("/api/join", json={"code": service.join_code, "seat": 0})
    assert locked.status_code == 429 and locked.json["error"] == "error.locked_out"
    assert not service.current().credentials.taken


def test_guesses_from_many_addresses_leave_a_phone_at_the_table_free_to_join(client, service):
    """Each address meets its own limit, and nobody else's guesses refuse a phone (see test_lockout.py)."""
    answers = [client.post("/api/join", json={"code": f"{guess:06d}", "seat": 0},
                           environ_base={"REMOTE_ADDR": f"127.0.0.{guess % 200 + 1}"}).status_code
               for guess in range(1200) if f"{guess:06d}" != service.join_code]
    assert answers.count(403) == 200 * GUESS_LIMITS[0].amount
    assert set(answers) == {403, 429}
    late = client.post("/api/join", json={"code": service.join_code, "seat": 0},
                       environ_base={"REMOTE_ADDR": "127.0.9.9"})
    assert late.status_code == 201
    host = client.post("/api/host/login", json={"code": host_code(service.session)})
    assert host.status_code == 200  # the host code has a budget of its own


# -- moves --------------------------------------------------------------------------


def test_a_seat_plays_its_options_and_nothing_else(client, session, phones):
    seat = session.snapshot.current_player
    other = 1 - seat
    phones.join(seat)
    phones.join(other)
    before = session.snapshot

    cross = phones.move(other, before.options[0])
    assert cross.status_code == 409 and cross.json["message"].startswith("Not your turn")
    assert unchanged(session, before)

    assert phones.move(seat, "Q9").status_code == 409
    assert phones.move(seat, "x" * 41).status_code == 400
    assert phones.post(seat, "/api/move", {"option": 3}).status_code == 400
    assert phones.post(seat, "/api/move", {"option": before.options[0], "version": "1"}).status_code == 400
    assert unchanged(session, before)

    shown = session.snapshot.version  # each refusal above was published (as a flash) under a new version
    played = phones.move(seat, before.options[0], version=shown)
    assert played.status_code == 200 and played.json["version"] == session.snapshot.version
    assert session.snapshot.history == ((seat, before.options[0]),)

    stale = phones.move(session.snapshot.current_player, session.snapshot.options[0], version=shown)
    assert stale.status_code == 409
    assert len(session.snapshot.history) == 1


def test_actions_need_a_valid_seat_token(client, session):
    before = session.snapshot
    missing = client.post("/api/move", json={"option": before.options[0]})
    assert missing.status_code == 401 and missing.json["error"] == "error.no_token"
    forged = client.post("/api/move", json={"option": before.options[0]}, headers={"X-Seat-Token": "guess"})
    assert forged.status_code == 403 and forged.json["error"] == "error.bad_token"
    for path in ("/api/undo", "/api/undo/answer", "/api/me"):
        method = client.get if path == "/api/me" else client.post
        assert method(path, json={"accept": True}).status_code == 401
    assert unchanged(session, before)


def test_requests_from_another_origin_cannot_act(client, session, phones):
    seat = session.snapshot.current_player
    phones.join(seat)
    before = session.snapshot
    headers = {"X-Seat-Token": phones.tokens[seat], "Origin": "http://elsewhere.example"}
    response = client.post("/api/move", json={"option": before.options[0]}, headers=headers)
    assert response.status_code == 403 and response.json["error"] == "error.bad_origin"
    assert unchanged(session, before)
    same = client.post("/api/move", json={"option": before.options[0]},
                       headers={"X-Seat-Token": phones.tokens[seat], "Origin": "http://localhost"})
    assert same.status_code == 200


# -- undo ---------------------------------------------------------------------------


def _play_until_undoable(session):
    """Play first options until the last decision revealed nothing (so it may be undone)."""
    from firmware_py import games

    for _ in range(200):
        snapshot = session.snapshot
        before = session.game.copy()
        session.call(Play(snapshot.current_player, snapshot.options[0]))
        if not games.spec("duel").revealed(before, session.game):
            return
    raise AssertionError("no undoable decision in 200 moves")


def test_undo_waits_for_the_player_whose_decision_it_takes_back(client, session, phones):
    phones.join(0)
    phones.join(1)
    nothing = phones.post(0, "/api/undo")
    assert nothing.status_code == 409 and nothing.json["message"] == "There is nothing to undo."
    _play_until_undoable(session)
    last_seat = session.snapshot.history[-1][0]
    other = 1 - last_seat
    played = session.snapshot
    assert phones.post(other, "/api/undo").status_code == 200
    asked = client.get("/api/state").json["undo_request"]
    assert (asked["seat"], asked["waiting"], asked["notation"]) == (other, [last_seat], played.history[-1][1])
    self_answer = phones.post(other, "/api/undo/answer", {"accept": True})
    assert self_answer.status_code == 409
    assert phones.post(last_seat, "/api/undo/answer", {"accept": "yes"}).status_code == 400
    assert session.snapshot.history == played.history
    assert phones.post(last_seat, "/api/undo/answer", {"accept": True}).status_code == 200
    assert session.snapshot.history == played.history[:-1]


def test_a_players_own_last_decision_is_taken_back_at_once(session, phones):
    phones.join(0)
    phones.join(1)
    _play_until_undoable(session)
    played = session.snapshot
    assert phones.post(played.history[-1][0], "/api/undo").status_code == 200
    assert session.snapshot.history == played.history[:-1] and session.snapshot.undo_request is None


def test_a_refused_undo_keeps_the_move(session, phones):
    phones.join(0)
    phones.join(1)
    _play_until_undoable(session)
    played = session.snapshot
    last_seat = played.history[-1][0]
    phones.post(1 - last_seat, "/api/undo")
    assert phones.post(last_seat, "/api/undo/answer", {"accept": False}).status_code == 200
    assert session.snapshot.history == played.history and session.snapshot.undo_request is None


# -- the host -----------------------------------------------------------------------

DUEL_SETUP = {
    "game": "duel",
    "seats": [{"name": "Cy", "kind": "phone"}, {"name": "Di", "kind": "ai", "level": "hard"}],
    "flags": {"stack_reveal": "each", "objectives": ["wild", "horizontal", "diagonals"]},
    "brightness": 0.5,
    "palette": "colour-blind",
    "language": "it",
}


def test_the_host_starts_a_new_game_with_fresh_credentials(client, session, service, phones):
    old_seat_token = phones.join(0)
    old_code = service.join_code
    host = phones.host_token()
    response = client.post("/api/host/setup", json=DUEL_SETUP, headers={"X-Host-Token": host})
    assert response.status_code == 201, response.json
    setup = session.snapshot.setup
    assert [(s.name, s.kind, s.level) for s in setup.seats] == [("Cy", "phone", "normal"), ("Di", "ai", "hard")]
    assert dict(setup.flags) == {"stack_reveal": "each", "objectives": ("horizontal", "diagonals", "wild")}
    assert session.snapshot.state["objectives"] == ["horizontal", "diagonals", "wild"]
    assert (session.snapshot.setting("brightness"), session.snapshot.setting("palette")) == (0.5, "colour-blind")
    assert service.language == "it"
    assert response.json["join_code"] == service.join_code
    assert service.seat_of(old_seat_token) is None
    assert client.post("/api/move", json={"option": "P1"}, headers={"X-Seat-Token": old_seat_token}).status_code == 403
    assert client.get("/api/host/join-code", headers={"X-Host-Token": host}).status_code == 403
    fresh = client.get("/api/host/join-code", headers={"X-Host-Token": response.json["host_token"]})
    assert fresh.json["join_code"] == service.join_code
    if service.join_code != old_code:
        assert client.post("/api/join", json={"code": old_code, "seat": 0}).status_code == 403


@pytest.mark.parametrize("change, error", [
    ({"game": "chess"}, "error.invalid_field"),
    ({"seats": [{"kind": "phone"}]}, "error.seat_count"),
    ({"seats": [{"kind": "robot"}, {"kind": "phone"}]}, "error.invalid_field"),
    ({"seats": [{"kind": "phone", "name": "N" * 25}, {"kind": "phone"}]}, "players.long_name"),
    ({"seats": ["phone", "phone"]}, "error.invalid_field"),
    ({"flags": {"side": "coloured"}}, "error.invalid_field"),
    ({"flags": {"stack_reveal": "sometimes"}}, "error.invalid_field"),
    ({"flags": {"objectives": ["horizontal", "colourful", "outer"]}}, "error.invalid_field"),
    ({"flags": {"objectives": "two"}}, "error.invalid_field"),
    ({"brightness": 2}, "error.brightness"),
    ({"brightness": True}, "error.brightness"),
    ({"palette": "neon"}, "error.invalid_field"),
    ({"language": "fr"}, "error.invalid_field"),
])
def test_bad_setups_are_refused_and_change_nothing(client, session, service, phones, change, error):
    host = phones.host_token()
    before, code = session.snapshot, service.join_code
    response = client.post("/api/host/setup", json={**DUEL_SETUP, **change}, headers={"X-Host-Token": host})
    assert response.status_code == 400 and response.json["error"] == error, response.json
    assert session.snapshot.setup == before.setup and session.snapshot.settings == before.settings
    assert service.join_code == code


def test_a_seat_set_up_for_a_first_game_plays_against_an_easy_computer(client, session, phones):
    body = {**DUEL_SETUP, "seats": [{"name": "Cy", "kind": "phone", "learning": True},
                                    {"name": "Di", "kind": "ai", "level": "hard", "learning": True}]}
    response = client.post("/api/host/setup", json=body, headers={"X-Host-Token": phones.host_token()})
    assert response.status_code == 201, response.json
    assert [seat.learning for seat in session.snapshot.setup.seats] == [True, False]  # the computer learns nothing
    assert session.computer_level(1) == "easy"
    state = client.get("/api/state").json
    assert [seat["learning"] for seat in state["seats"]] == [True, False]
    bad = {**DUEL_SETUP, "seats": [{"name": "Cy", "kind": "phone", "learning": "yes"}, DUEL_SETUP["seats"][1]]}
    refused = client.post("/api/host/setup", json=bad, headers={"X-Host-Token": response.json["host_token"]})
    assert refused.status_code == 400 and refused.json["error"] == "error.invalid_field"


def test_a_player_joining_says_whether_it_is_their_first_game(client, session, service):
    code = service.join_code
    refused = client.post("/api/join", json={"code": code, "seat": 0, "learning": 1})
    assert refused.status_code == 400 and not session.snapshot.setup.seats[0].learning
    assert 0 not in session.snapshot.credentials.taken
    joined = client.post("/api/join", json={"code": code, "seat": 0, "learning": True})
    assert joined.status_code == 201 and session.snapshot.setup.seats[0].learning
    assert client.get("/api/state").json["seats"][0]["learning"] is True


def test_a_pavilion_game_for_four(client, session, phones):
    body = {"game": "pavilion", "seats": [{"kind": "phone"}] * 4, "flags": {"side": "monochrome"}}
    response = client.post("/api/host/setup", json=body, headers={"X-Host-Token": phones.host_token()})
    assert response.status_code == 201, response.json
    payload = client.get("/api/state").json
    assert payload["game"] == "pavilion" and len(payload["seats"]) == 4
    assert "rng" not in payload["state"]
    assert all(option["label"] for option in payload["options"])


def test_host_actions_need_the_host_token(client, session, service):
    before = session.snapshot
    for path in ("/api/host/setup", "/api/host/settings", "/api/host/release"):
        assert client.post(path, json=DUEL_SETUP).status_code == 401
        assert client.post(path, json=DUEL_SETUP, headers={"X-Host-Token": "guess"}).status_code == 403
    assert client.get("/api/host/join-code").status_code == 401
    wrong = client.post("/api/host/login", json={"code": "nope"})
    assert wrong.status_code == 403 and wrong.json["error"] == "error.wrong_host_code"
    assert session.snapshot.setup == before.setup and session.snapshot.settings == before.settings


def test_the_host_changes_settings_and_frees_seats(client, session, service, phones):
    host = {"X-Host-Token": phones.host_token()}
    assert client.post("/api/host/settings", json={"brightness": 0.25}, headers=host).status_code == 200
    assert session.snapshot.setting("brightness") == 0.25
    assert client.post("/api/host/settings", json={"brightness": 0.01}, headers=host).status_code == 400
    assert client.post("/api/host/settings", json={"palette": "neon"}, headers=host).status_code == 400
    assert session.snapshot.setting("brightness") == 0.25
    token = phones.join(1)
    assert client.post("/api/host/release", json={"seat": 9}, headers=host).status_code == 400
    assert client.post("/api/host/release", json={"seat": 1}, headers=host).status_code == 200
    assert service.seat_of(token) is None
    phones.join(1)


def test_a_phone_whose_seat_was_freed_is_told_so_with_a_stable_code(client, session, phones):
    """Every seat command of a freed phone is refused with 403 ``seat_not_held``, so the page can send it back
    to joining; a host key from an earlier game says ``host_not_held``."""
    host = {"X-Host-Token": phones.host_token()}
    seat = session.snapshot.current_player
    phones.join(seat)
    assert client.post("/api/host/release", json={"seat": seat}, headers=host).status_code == 200
    before = session.snapshot
    for path, body in (("/api/move", {"option": before.options[0]}), ("/api/undo", {}), ("/api/hint", {}),
                       ("/api/back", {})):
        refused = phones.post(seat, path, body)
        assert refused.status_code == 403 and refused.json["code"] == "seat_not_held", (path, refused.json)
        assert refused.json["message"]
    assert unchanged(session, before)
    stale = client.post("/api/host/settings", json={"hints": False}, headers={"X-Host-Token": "from before"})
    assert stale.status_code == 403 and stale.json["code"] == "host_not_held"


def test_game_over_shows_the_final_scoring_broken_down(client, session):
    while not session.snapshot.over:
        snapshot = session.snapshot
        session.call(Play(snapshot.current_player, snapshot.options[len(snapshot.history) % len(snapshot.options)]))
    payload = client.get("/api/state", headers={"Accept-Language": "it"}).json
    assert payload["over"] and payload["options"] == [] and payload["current_player"] is None
    assert payload["winners"] == list(session.snapshot.winners)
    assert payload["breakdown"][0][0]["label"] == "Round 1-5"
    for parts, seat in zip(payload["breakdown"], payload["seats"]):
        assert sum(part["points"] for part in parts) == seat["score"]


def test_the_host_starts_a_rematch_in_one_request_and_phones_keep_their_seats(client, session, service, phones):
    seats = {seat: phones.join(seat) for seat in (0, 1)}
    host = {"X-Host-Token": phones.host_token()}
    early = client.post("/api/host/rematch", headers=host)
    assert early.status_code == 409 and early.json["message"] == "The game is not over yet."
    while not session.snapshot.over:
        snapshot = session.snapshot
        session.call(Play(snapshot.current_player, snapshot.options[len(snapshot.history) % len(snapshot.options)]))
    over, game_id = session.snapshot, service.game_id

    # Only the host: a seat's token (in either header) or none is refused, and the finished game stays.
    for headers, status in (({}, 401), ({"X-Seat-Token": seats[1]}, 401), ({"X-Host-Token": seats[1]}, 403),
                            ({"X-Host-Token": "guess"}, 403)):
        refused = client.post("/api/host/rematch", headers=headers)
        assert refused.status_code == status and refused.json["message"], headers
    assert session.snapshot.version == over.version and service.game_id == game_id

    response = client.post("/api/host/rematch", headers=host)
    assert response.status_code == 201, response.json
    rematch = session.snapshot
    assert response.json["game_id"] == service.game_id != game_id and response.json["join_code"] == service.join_code
    assert rematch.setup.seats == over.setup.seats and rematch.setup.flags == over.setup.flags
    assert not rematch.over and rematch.history == ()
    for seat, token in seats.items():
        me = client.get("/api/me", headers={"X-Seat-Token": token})
        assert me.json == {"seat": seat, "game_id": service.game_id}
    mover = rematch.current_player
    assert phones.move(mover, rematch.options[0]).status_code == 200
    assert client.get("/api/host/join-code", headers=host).status_code == 200
    again = client.post("/api/host/rematch", headers=host)
    assert again.status_code == 409 and session.snapshot.history == ((mover, rematch.options[0]),)


def test_a_seat_asks_for_a_hint_and_the_host_can_turn_hints_off(client, session, phones):
    phones.join(0)
    phones.join(1)
    seat = session.snapshot.current_player
    assert phones.post(1 - seat, "/api/hint").status_code == 409  # not that seat's decision
    version = session.snapshot.version
    assert phones.post(seat, "/api/hint").status_code == 200
    snapshot = session.wait_for_change(version, 10.0)
    while snapshot.hint is None:
        snapshot = session.wait_for_change(snapshot.version, 10.0)
    assert client.get("/api/state").json["hint"] == {"seat": seat}  # that it came, not what it is
    hint = client.get("/api/hint", headers={"X-Seat-Token": phones.tokens[seat], "Accept-Language": "it"}).json["hint"]
    assert hint["seat"] == seat and hint["notation"] in snapshot.options and hint["label"]
    other = client.get("/api/hint", headers={"X-Seat-Token": phones.tokens[1 - seat]})
    assert other.status_code == 200 and other.json["hint"] is None
    host = {"X-Host-Token": phones.host_token()}
    assert client.post("/api/host/settings", json={"hints": "no"}, headers=host).status_code == 400
    assert client.post("/api/host/settings", json={"hints": False}, headers=host).status_code == 200
    refused = phones.client.post("/api/hint", json={}, headers={"X-Seat-Token": phones.tokens[seat],
                                                                "Accept-Language": "sv"})
    assert refused.status_code == 409 and refused.json["message"] == "Tips är avstängda i det här spelet."
    assert client.get("/api/state").json["settings"]["hints"] is False


# -- what a decision did, and stepping back ------------------------------------------------


def test_the_last_decision_and_each_options_preview_come_in_words_from_the_core(client, session):
    snapshot = session.snapshot
    seat = snapshot.current_player
    name = snapshot.setup.seats[seat].name
    preview = client.get("/api/state", headers={"Accept-Language": "en"}).json["options"][0]
    assert preview["notation"] == "P1" and preview["preview"] == [f"{name} took the dome plate at display position 1."]
    session.call(Play(seat, "P1"))
    last = client.get("/api/state", headers={"Accept-Language": "sv"}).json["last"]
    assert last["seat"] == seat and last["notation"] == "P1"
    assert last["events"][0]["event"] == "plate_taken" and last["events"][0]["position"] == 1
    assert last["words"] == [f"{name} tog kupolplattan på utställningens plats 1."]


def test_a_seat_steps_back_within_its_own_turn_only(client, session, phones):
    for seat in range(2):
        phones.join(seat)
    while session.snapshot.pending != "action":
        session.call(Play(session.snapshot.current_player, session.snapshot.options[0]))
    seat = session.snapshot.current_player
    assert phones.post(seat, "/api/back").status_code == 409  # a turn's first decision: nothing to go back to
    before = session.snapshot
    take = next(option for option in before.options if option.startswith("S0"))
    assert phones.move(seat, take).status_code == 200
    assert client.get("/api/state").json["step_back"] is True
    refused = phones.post(1 - seat, "/api/back")
    assert refused.status_code == 409 and session.snapshot.history[-1] == (seat, take)
    assert phones.post(seat, "/api/back").status_code == 200
    assert session.snapshot.history == before.history and session.snapshot.state == before.state
    answer = phones.post(seat, "/api/back")
    assert answer.status_code == 409 and answer.json["message"] == "There is nothing to step back to in this turn."



def test_why_not_tells_the_seat_the_rules_cores_reason_and_changes_nothing(client, session, phones):
    seat = session.snapshot.current_player
    token = phones.join(seat)
    other = phones.join(1 - seat)
    before = session.snapshot.version
    legal = client.post("/api/why", json={"option": session.snapshot.options[0]}, headers={"X-Seat-Token": token})
    assert legal.status_code == 200 and legal.json == {"legal": True}
    wrong = client.post("/api/why", json={"option": "L3"}, headers={"X-Seat-Token": token,
                                                                     "Accept-Language": "it"})
    reason = session.game.why_not("L3", seat)
    assert wrong.json == {"legal": False, "code": reason.code, "fields": reason.fields,
                          "text": i18n.why_text("it", "duel", reason, [s.name or i18n.translate("it", "seat.default", n=i + 1)
                                                                       for i, s in enumerate(session.snapshot.setup.seats)])}
    waiting = client.post("/api/why", json={"option": session.snapshot.options[0]}, headers={"X-Seat-Token": other})
    assert waiting.json["code"] == "not_your_turn"
    assert client.post("/api/why", json={"option": "L3"}).status_code == 401
    for bad in ({"option": "nonsense!"}, {"option": ""}, {"option": "L" * 500}, {"option": 3}, {}):
        assert client.post("/api/why", json=bad, headers={"X-Seat-Token": token}).status_code == 400
    assert session.snapshot.version == before
