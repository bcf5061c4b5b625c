"""Fixtures for the phone remote: a running session behind the app, a test client, seated phones."""
import pytest

from firmware_py.session import Seat, Session, Setup
from web_remote import create_app
from web_remote.service import RemoteService

PHONES = Setup(game="duel", seats=(Seat(kind="phone", name="Ada"), Seat(kind="phone", name="Bo")), seed=7)


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
        response = self.client.post("/api/join", json={"pin": self.service.pin, "seat": seat})
        assert response.status_code == 201, response.json
        self.tokens[seat] = response.json["token"]
        return self.tokens[seat]

    def post(self, seat, path, body=None):
        return self.client.post(path, json={} if body is None else body, headers={"X-Seat-Token": self.tokens[seat]})

    def move(self, seat, option, version=None):
        body = {"option": option} if version is None else {"option": option, "version": version}
        return self.post(seat, "/api/move", body)

    def host_token(self):
        response = self.client.post("/api/host/login", json={"pin": self.service.pin})
        assert response.status_code == 200, response.json
        return response.json["host_token"]


@pytest.fixture
def phones(client, service):
    return Phones(client, service)
