"""Fixtures for the phone remote: a running session behind the app, a test client, seated phones."""
import pytest

from firmware_py.session import Play, Press, Seat, Session, Setup
from firmware_py.table import Table
from web_remote import create_app, runner
from web_remote.service import RemoteService

PHONES = Setup(game="duel", seats=(Seat(kind="phone", name="Ada"), Seat(kind="phone", name="Bo")), seed=7)


@pytest.fixture
def start_table():
    """Starts a table with ``setup`` (from ``game``, a position of it, if given) as ``azul-table`` runs it
    (simulated rig, session, LED display) with its remote on a free port; closes whatever it started."""
    import hardware

    started = []

    def start(setup, game=None, journal=None):
        hw = hardware.simulate()
        running = Table(hw, Session(setup, game=game, journal=journal)).start()
        remote = runner.start(RemoteService(running.session, hardware=hw), host="127.0.0.1", port=0)
        started.append((remote, running))
        return remote, running

    yield start
    for remote, running in started:
        remote.close()
        running.close()


@pytest.fixture
def session():
    running = Session(PHONES).start()
    yield running
    running.stop()


@pytest.fixture
def service(session):
    remote = RemoteService(session)
    yield remote
    remote.close()


@pytest.fixture
def app(service):
    return create_app(service, {"TESTING": True})


@pytest.fixture
def client(app):
    return app.test_client()


class Phones:
    """Joins seats and acts for them through the test client, as the page script does."""

    def __init__(self, client, service):
        self.client = client
        self.service = service
        self.tokens = {}

    def join(self, seat):
        response = self.client.post("/api/join", json={"code": self.service.join_code, "seat": seat})
        assert response.status_code == 201, response.json
        self.tokens[seat] = response.json["token"]
        return self.tokens[seat]

    def post(self, seat, path, body=None):
        return self.client.post(path, json={} if body is None else body, headers={"X-Seat-Token": self.tokens[seat]})

    def move(self, seat, option, version=None):
        body = {"option": option} if version is None else {"option": option, "version": version}
        return self.post(seat, "/api/move", body)

    def host_token(self):
        response = self.client.post("/api/host/login", json={"code": host_code(self.service.session)})
        assert response.status_code == 200, response.json
        return response.json["host_token"]


def host_code(session):
    """Ask the rig for a host code as the host would: hold HOST, walk to "host code", OK; then close the menu."""
    session.call(Press(None, "HOST", "hold"))
    while session.snapshot.menu[0][session.snapshot.menu[1]] != "host code":
        session.call(Press(None, "HOST"))
    session.call(Press(0, "OK"))
    code = session.snapshot.host_code
    session.call(Press(None, "HOST", "hold"))
    return code


@pytest.fixture
def phones(client, service):
    return Phones(client, service)


@pytest.fixture
def every_page(tmp_path, start_table):
    """(the table, the path of every page of the remote): the live page shows a 4-player Summer Pavilion of two
    people and two computers just over (its final scoring table with two computer seats, whose names are the
    longest), the past games and player pages a finished Duel and a 4-player Summer Pavilion."""
    from firmware_py.journal import Journal
    from tests.positions import one_move_from_the_end
    from tests.web.test_story_charts import finished_record

    journal = Journal(tmp_path)
    duel = journal.import_record(finished_record("duel", ("Ana", "Bea"), 4))
    pavilion = journal.import_record(finished_record("pavilion", ("Ana", "Bartholomew Kensington", "Chen", "Dee"), 5))
    ana = journal.players.create("Ana", colour="yellow", symbol="heart")
    journal.players.attach("Ana", ana.id)
    computer = next(profile for profile in journal.players.all() if profile.is_computer)
    setup = Setup(game="pavilion", seats=(Seat("phone", "Ana", player=ana.id), Seat("rig", "Bartholomew Kensington"),
                                          Seat("ai", "", level="hard"), Seat("ai", "", level="normal")), seed=6)
    game, last = one_move_from_the_end(setup, 6)
    remote, running = start_table(setup, game=game, journal=journal)
    if running.session.snapshot.current_player in (0, 1):
        running.session.call(Play(running.session.snapshot.current_player, last))
    pages = ["/", "/join", "/host", "/settings", "/history/", f"/history/{duel}", f"/history/{pavilion}",
             "/players/", f"/players/{ana.id}", f"/players/{computer.id}", "/help/", "/help/?game=duel", "/rules/",
             "/rules/duel", "/rules/pavilion"]
    yield remote, pages
    journal.close()
