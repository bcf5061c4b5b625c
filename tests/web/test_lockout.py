"""Guessing codes never locks out the people at the table (docs/remote.md, Guessing codes).

An address's own wrong codes are all that can refuse it; a join code that has
taken many wrong guesses is replaced by a new one on the centre panel; a
host code counts guesses only while one is live, and works once. The long
test steps one clock for the session and the counting windows through two
hours of guessing from two and from three addresses.
"""
import collections
import itertools
import re
import threading

import limits.storage.memory
import pytest

import hardware
from firmware_py import font
from firmware_py.credentials import JOIN_CODE_DIGITS, digest
from firmware_py.display import PIN_BAND_ROWS, TableDisplay
from firmware_py.journal import Journal
from firmware_py.session import JOIN_CODE_MIN_S, JOIN_GUESSES_PER_CODE, Join, Play, Seat, Session, Setup, WrongCode
from tests.patience import patient
from tests.web.conftest import host_code
from web_remote import create_app
from web_remote import service as service_module
from web_remote.service import GUESS_LIMITS, UNDO_LIMIT, AccessDenied, RemoteService

PHONES = Setup(game="duel", seats=(Seat(kind="phone", name="Ada"), Seat(kind="phone", name="Bo")), seed=5)
ATTACKERS = ("192.168.1.66", "192.168.1.67", "192.168.1.68")
PER_HOUR = GUESS_LIMITS[-1].amount  # wrong codes an address may send in an hour
TYPING_S = 15.0  # a player reads the code, then types it on the phone
STEP_S = 0.97  # the attack's clock step: no divisor of a minute, as a real guess never lands on the exact
# edge of a window, where limits' test (edge outside) and count (edge inside) disagree by one


class SteppedClock:
    """One clock for the session (called) and for the counting windows (``time()``, as ``time.time``)."""

    def __init__(self):
        self.now = 1_000_000.0

    def __call__(self):
        return self.now

    def time(self):
        return self.now


@pytest.fixture
def clock(monkeypatch):
    """A stepped clock that the session, the service and the ``limits`` memory storage all read."""
    stepped = SteppedClock()
    monkeypatch.setattr(limits.storage.memory, "time", stepped)
    monkeypatch.setattr(service_module, "time", stepped)
    return stepped


class Table:
    """A Duel for two phones whose join codes go to the centre panel, as the table program shows them."""

    def __init__(self, clock):
        self.session = Session(PHONES, clock=clock).start()
        self.hardware = hardware.simulate(clock=hardware.ManualClock())
        self.display = TableDisplay(self.hardware.leds, clock=clock)
        self.announced = []
        self.service = RemoteService(self.session, on_credentials=self._announce)
        self.client = create_app(self.service, {"TESTING": True}).test_client()

    def _announce(self, remote):
        self.announced.append(remote.join_code)
        self.display.show_pin(remote.join_code)

    def code_shown(self, host=None) -> str:
        """What a player reads: the join code on the centre panel while it is shown there, else on the host's page."""
        self.display.draw(self.service.current())
        for panel, _, top, width, rows in self.display.secret_areas():
            if rows == PIN_BAND_ROWS:
                frame = self.hardware.memory.panels().rows(panel)
                left = (width - 4 * JOIN_CODE_DIGITS) // 2
                return "".join(font.read_glyph(frozenset(
                    (dx, dy) for dy in range(5) for dx in range(3)
                    if sum(frame[top + 1 + dy][left + 4 * digit + dx]) > 60)) for digit in range(JOIN_CODE_DIGITS))
        return self.client.get("/api/host/join-code", headers=host).json["join_code"]

    def close(self):
        self.service.close()
        self.session.stop()
        self.hardware.close()


@pytest.fixture
def table(clock):
    running = Table(clock)
    yield running
    running.close()


def attack_and_arrivals(table, clock, attackers, hours, arrive_every, typing_s):
    """Step ``clock`` through ``hours`` of guessing from ``attackers`` (each sends a wrong join code at
    every step of about a second, the fastest any limit could allow), then ten quiet minutes. A new phone
    arrives every ``arrive_every`` seconds, reads the code on the table, types it in ``typing_s`` and joins
    seat 0, which the host then frees for the next one.

    Returns (joins as (arrived, waited, tries), the attacker's answers counted by status)."""
    service, client = table.service, table.client
    host = {"X-Host-Token": service.host_login(host_code(table.session), "192.168.1.10")}
    guesses = (f"{n:06d}" for n in itertools.count())
    attacked = collections.Counter()
    joins = []
    start = clock.now
    arrivals = iter(range(30, int(hours * 3600) + 600, arrive_every))
    phone = None  # [address, arrived, code read, send at, tries]
    next_arrival = start + next(arrivals)
    while clock.now < start + hours * 3600 + 600:
        if clock.now < start + hours * 3600:
            for address in attackers:
                code = next(guesses)
                if code == service.join_code:  # a hit is chance, bounded in docs/remote.md: left out here
                    code = next(guesses)
                try:
                    service.join(code, 0, address)
                except AccessDenied as denied:
                    attacked[denied.status] += 1
        if phone is None and clock.now >= next_arrival:
            phone = [f"192.168.2.{len(joins) + 1}", clock.now, table.code_shown(host), clock.now + typing_s, 1]
            next_arrival = start + next(arrivals, 10 ** 9)
        if phone is not None and clock.now >= phone[3]:
            answer = client.post("/api/join", json={"code": phone[2], "seat": 0},
                                 environ_base={"REMOTE_ADDR": phone[0]})
            assert answer.status_code in (201, 403), answer.json  # never 429: nobody else's guesses count
            if answer.status_code == 201:
                joins.append((phone[1] - start, clock.now - phone[1], phone[4]))
                assert client.post("/api/host/release", json={"seat": 0}, headers=host).status_code == 200
                phone = None
            else:  # the code changed while it was typed: read the new one
                phone[2:] = [table.code_shown(host), clock.now + typing_s, phone[4] + 1]
        clock.now += STEP_S
    return joins, attacked


@pytest.mark.parametrize("attackers", [ATTACKERS[:2], ATTACKERS])
def test_the_people_at_the_table_always_join_while_addresses_guess_for_two_hours(table, clock, attackers):
    bo = table.client.post("/api/join", json={"code": table.code_shown(), "seat": 1}).json["token"]
    joins, attacked = attack_and_arrivals(table, clock, attackers, hours=2, arrive_every=240, typing_s=TYPING_S)
    during = [join for join in joins if join[0] < 2 * 3600]
    waits = [waited for _, waited, _ in joins]
    print(f"\n{len(attackers)} attacking addresses; legitimate joins: {len(during)} during the attack, "
          f"{len(joins) - len(during)} after it; waits {min(waits):.0f}-{max(waits):.0f} s with {TYPING_S:.0f} s of typing, "
          f"{sum(tries > 1 for _, _, tries in joins)} needed a second try; attacker's codes: "
          f"{attacked[403]} judged, {attacked[429]} refused; {len(table.announced) - 1} new join codes shown")
    assert len(joins) == len(range(30, 2 * 3600 + 600, 240))  # every phone joined
    assert max(tries for _, _, tries in joins) <= 2 and max(waits) <= 2 * (TYPING_S + STEP_S)
    assert attacked[403] <= len(attackers) * PER_HOUR * 2
    assert len(table.announced) > 1  # the guesses piled up: the table showed new codes
    assert table.service.seat_of(bo) == 1  # a seated phone keeps its seat through every new code


def test_forty_concurrent_wrong_codes_from_one_address_are_judged_only_as_often_as_allowed(session, client, service):
    """Testing the windows, judging and counting are one step: a slow session must not let more through."""
    session.subscribe(lambda snapshot: threading.Event().wait(0.02))  # each answer takes a while
    barrier = threading.Barrier(40)
    answers = []

    def guess(number):
        barrier.wait()
        answers.append(client.application.test_client().post(
            "/api/join", json={"code": f"x{number}", "seat": 0}).status_code)

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(patient(30))
    assert sorted(set(answers)) == [403, 429]
    assert answers.count(403) == GUESS_LIMITS[0].amount


def test_a_new_join_code_after_many_wrong_guesses_reaches_the_centre_panel_and_seated_phones_stay(table, clock):
    service, client = table.service, table.client
    first = service.join_code
    ada = client.post("/api/join", json={"code": first, "seat": 0}).json["token"]
    clock.now += JOIN_CODE_MIN_S
    for n in range(JOIN_GUESSES_PER_CODE):
        answer = client.post("/api/join", json={"code": "x", "seat": 1},
                             environ_base={"REMOTE_ADDR": f"192.168.1.{50 + n}"})
        assert answer.status_code == 403
    assert service.join_code != first and table.announced == [first, service.join_code]
    assert table.code_shown() == service.join_code
    old = client.post("/api/join", json={"code": first, "seat": 1}, environ_base={"REMOTE_ADDR": "192.168.1.99"})
    assert old.status_code == 403 and old.json["error"] == "error.wrong_join_code"
    assert service.seat_of(ada) == 0
    assert client.post("/api/join", json={"code": service.join_code, "seat": 1}).status_code == 201


def test_a_join_code_stays_until_it_could_have_been_read_and_typed_then_changes_by_itself(table, clock):
    service, client, session = table.service, table.client, table.session
    first = service.join_code
    for n in range(3 * JOIN_GUESSES_PER_CODE):
        client.post("/api/join", json={"code": "x", "seat": 1}, environ_base={"REMOTE_ADDR": f"10.0.0.{n}"})
    assert service.join_code == first
    clock.now += JOIN_CODE_MIN_S
    session.wait_for_change(session.snapshot.version, patient(5))  # no more guesses needed: it is due
    assert service.join_code != first and len(table.announced) == 2


def test_a_renewed_join_code_is_kept_for_a_restart(tmp_path, clock):
    session = Session(PHONES, journal=Journal(tmp_path), clock=clock)
    first = session.snapshot.credentials.join_code
    clock.now += JOIN_CODE_MIN_S
    for _ in range(JOIN_GUESSES_PER_CODE):
        with pytest.raises(WrongCode):
            session.apply(Join(0, "x", digest("a phone")))
    renewed = session.snapshot.credentials.join_code
    assert renewed != first
    journal = Journal(tmp_path)
    resumed = journal.resume()
    assert Session(resumed.setup, game=resumed.game, journal=journal).snapshot.credentials.join_code == renewed


def test_one_ipv6_network_is_one_guesser(service):
    for n in range(GUESS_LIMITS[0].amount):
        with pytest.raises(AccessDenied, match="wrong_join_code"):
            service.join("x", 0, f"2001:db8:0:7::{n + 1}")
    with pytest.raises(AccessDenied, match="locked_out"):
        service.join(service.join_code, 0, "2001:db8:0:7:ffff::1")
    with pytest.raises(AccessDenied, match="wrong_join_code"):
        service.join("x", 0, "2001:db8:0:8::1")
    service.join(service.join_code, 0, "2001:db8:0:9::1")


# -- the host code ---------------------------------------------------------------------------


def test_wrong_host_codes_count_only_while_a_host_code_is_live(client, session):
    for _ in range(5 * GUESS_LIMITS[0].amount):
        answer = client.post("/api/host/login", json={"code": "12345678"})
        assert answer.status_code == 403 and answer.json["error"] == "error.wrong_host_code"
    assert client.post("/api/host/login", json={"code": host_code(session)}).status_code == 200


def test_a_host_code_works_once(client, session):
    code = host_code(session)
    assert client.post("/api/host/login", json={"code": code}).status_code == 200
    again = client.post("/api/host/login", json={"code": code}, environ_base={"REMOTE_ADDR": "192.168.1.77"})
    assert again.status_code == 403 and again.json["error"] == "error.wrong_host_code"


def test_a_live_host_codes_guesses_are_counted_for_the_guessing_address(client, session):
    code = host_code(session)
    for _ in range(GUESS_LIMITS[0].amount):
        assert client.post("/api/host/login", json={"code": "00000000"}).status_code == 403
    locked = client.post("/api/host/login", json={"code": code})
    assert locked.status_code == 429 and re.search(r"\d+ s", locked.json["message"])
    assert client.post("/api/host/login", json={"code": code},
                       environ_base={"REMOTE_ADDR": "192.168.1.78"}).status_code == 200


# -- undo requests ----------------------------------------------------------------------------


def test_a_seat_asks_for_undos_only_so_often(session, client, phones, clock):
    seat = session.snapshot.current_player
    phones.join(seat)
    session.call(Play(seat, session.snapshot.options[0]))
    before = session.snapshot.version
    answers = [phones.post(seat, "/api/undo").status_code for _ in range(50)]
    assert answers.count(429) == 50 - UNDO_LIMIT.amount
    assert session.snapshot.version - before <= UNDO_LIMIT.amount  # each one let through redraws the table once
    refused = phones.post(seat, "/api/undo")
    assert refused.status_code == 429 and refused.json["message"]
    clock.now += 61
    assert phones.post(seat, "/api/undo").status_code == 409  # heard again: there is nothing left to undo
