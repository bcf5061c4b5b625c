"""Seats and roles: a join code for players, a host code only from the rig, tokens that belong to one game."""
import threading

from firmware_py.credentials import digest
from firmware_py.session import NewGame, NotAllowed, Play, RequestHint, Seat, Setup
from tests.web.conftest import PHONES, host_code


def test_the_join_code_does_not_make_anyone_host(client, service):
    """Issue 11, finding 3: with the one PIN any player could log in as host."""
    response = client.post("/api/host/login", json={"code": service.join_code})
    assert response.status_code == 403 and response.json["error"] == "error.wrong_host_code"


def test_a_seated_player_can_neither_take_nor_free_another_seat(client, service, phones):
    """Issue 11, finding 3: a player released the other's seat as host, joined it and played for them."""
    victim = phones.join(0)
    thief = phones.join(1)
    again = client.post("/api/join", json={"code": service.join_code, "seat": 0})
    assert again.status_code == 409
    freed = client.post("/api/host/release", json={"seat": 0}, headers={"X-Host-Token": thief})
    assert freed.status_code == 403
    assert service.seat_of(victim) == 0 and service.seat_of(thief) == 1


def test_only_the_host_frees_a_seat_and_the_old_phone_stops_at_once(client, session, service, phones):
    phones.join(session.snapshot.current_player)
    seat = session.snapshot.current_player
    old = phones.tokens[seat]
    host = {"X-Host-Token": phones.host_token()}
    assert client.post("/api/host/release", json={"seat": seat}, headers=host).status_code == 200
    refused = client.post("/api/move", json={"option": session.snapshot.options[0]}, headers={"X-Seat-Token": old})
    assert refused.status_code == 403 and session.snapshot.history == ()


def test_a_token_from_the_last_game_is_refused_in_the_same_step_as_the_game_changes(session, service, phones):
    """Issue 11, finding 7: an old game's seat token resolved just before a new game must not act in it."""
    token = phones.join(session.snapshot.current_player)
    seat = service.seat_of(token)  # resolved for the old game
    session.call(NewGame(PHONES))  # same seed: the old token's move is legal in the new game too
    option = session.snapshot.options[0]
    try:
        session.call(Play(seat, option, None, digest(token)))
    except NotAllowed:
        pass
    else:
        raise AssertionError("the old game's token played in the new game")
    assert session.snapshot.history == ()


def test_an_old_token_posting_moves_meanwhile_never_plays_in_the_new_games(app, session, service, phones):
    """Issue 11, finding 7 as found: moves kept coming from the old token while new games started."""
    host = phones.host_token()
    setup = {"game": "duel", "seats": [{"kind": "phone"}, {"kind": "phone"}]}
    for _ in range(10):
        token = phones.join(session.snapshot.current_player)
        option = session.snapshot.options[0]
        stop = threading.Event()

        def hammer():
            client = app.test_client()
            while not stop.is_set():
                client.post("/api/move", json={"option": option}, headers={"X-Seat-Token": token})

        thread = threading.Thread(target=hammer)
        thread.start()
        answer = phones.client.post("/api/host/setup", json=setup, headers={"X-Host-Token": host})
        assert answer.status_code == 201
        host = answer.json["host_token"]
        stop.set()
        thread.join()
        assert session.snapshot.history == (), "a token of the last game played in the new one"


def test_a_hint_goes_only_to_the_seat_that_asked(client, session, phones):
    """Issue 11, finding 1 (hints): the suggestion was broadcast to every stream, observers included."""
    phones.join(0)
    phones.join(1)
    seat = session.snapshot.current_player
    version = session.snapshot.version
    session.call(RequestHint(seat, digest(phones.tokens[seat])))
    snapshot = session.wait_for_change(version, 10.0)
    while snapshot.hint is None:
        snapshot = session.wait_for_change(snapshot.version, 10.0)
    notation = snapshot.hint[1]
    events = client.get("/api/events", buffered=False)
    chunks = iter(events.response)
    next(chunks)
    public = next(chunks).decode()
    events.close()
    state = client.get("/api/state").get_data(as_text=True)
    assert '"hint":{"seat":%d}' % seat in public and '"hint":{"seat":%d}' % seat in state
    assert f'"notation":"{notation}"' not in state.split('"options"')[0] + state.split('"history"')[0]
    mine = client.get("/api/hint", headers={"X-Seat-Token": phones.tokens[seat]}).json["hint"]
    assert mine["notation"] == notation
    assert client.get("/api/hint").status_code == 401
    assert client.get("/api/hint", headers={"X-Seat-Token": phones.tokens[1 - seat]}).json["hint"] is None
    assert session.snapshot.cursors[seat] == 0  # a phone seat's highlight on the LEDs does not move


def test_rig_seats_cannot_be_joined_and_phones_cannot_join_twice(client, session, service):
    session.call(NewGame(Setup(game="duel", seats=(Seat(kind="rig"), Seat(kind="phone")), seed=2)))
    assert client.post("/api/join", json={"code": service.join_code, "seat": 0}).status_code == 409
    assert client.post("/api/join", json={"code": service.join_code, "seat": 1}).status_code == 201
    assert client.post("/api/join", json={"code": service.join_code, "seat": 1}).status_code == 409
