"""The HTML pages, the QR code, languages per phone, the simulator endpoints and the translations."""
import json
import re
import string
import time

import pytest

from web_remote import create_app, i18n
from web_remote.service import RemoteService

PAGES = ("/", "/join", "/host", "/settings")


@pytest.mark.parametrize("path", PAGES)
def test_every_page_renders_with_a_strict_content_policy(client, path):
    response = client.get(path)
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    strings = re.search(rb'<script type="application/json" id="strings">(.*?)</script>', response.data, re.S)
    assert json.loads(strings.group(1)) == i18n.catalogue("en")


def test_the_qr_code_leads_to_the_join_page(client):
    response = client.get("/qr.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert response.data.lstrip().startswith(b"<?xml") and b"<svg" in response.data


def test_a_phone_gets_its_accept_language_then_its_own_choice(client):
    chinese = client.get("/", headers={"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.5"})
    assert '<html lang="zh">' in chinese.get_data(as_text=True)
    assert client.get("/api/state", headers={"Accept-Language": "sv"}).json["language"] == "sv"
    assert client.get("/api/state", headers={"Accept-Language": "fr"}).json["language"] == "en"
    chosen = client.post("/settings/language", data={"language": "pt"})
    assert chosen.status_code == 302
    assert client.get("/api/state", headers={"Accept-Language": "zh"}).json["language"] == "pt"
    assert client.post("/settings/language", data={"language": "xx"}).status_code == 400


def test_the_table_language_serves_phones_that_ask_for_none_of_ours(client, service):
    service.language = "it"
    payload = client.get("/api/state", headers={"Accept-Language": "de"}).json
    assert payload["language"] == "it" and payload["title"] == "Azul Duel"
    assert payload["pending_label"] == i18n.translate("it", "pending.duel.setup")


def placeholders(text):
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("language", [code for code in i18n.LANGUAGES if code != "en"])
def test_every_string_is_translated(language):
    english = i18n.catalogue("en")
    other = i18n.catalogue(language)
    assert set(other) == set(english)
    for key, text in english.items():
        assert other[key].strip(), key
        assert placeholders(other[key]) == placeholders(text), key
    differing = sum(other[key] != text for key, text in english.items())
    assert differing > 0.8 * len(english)


def test_every_key_the_pages_use_exists():
    from pathlib import Path

    root = Path(i18n.__file__).parent
    sources = [*root.glob("templates/**/*.html"), *root.glob("static/*.js"), *root.glob("*.py")]
    used = set()
    for source in sources:
        used |= set(re.findall(r"""\bt\(\s*["']([a-z_]+\.[a-zA-Z_.-]+)["']""", source.read_text()))
    assert used and used <= set(i18n.catalogue("en")), used - set(i18n.catalogue("en"))


def test_unknown_refusals_are_quoted_in_the_phones_language():
    assert i18n.refusal("sv", "the table is on fire") == "Nekat: the table is on fire"
    assert i18n.refusal("zh", "it is Bo's decision, not Ada's") == "还没轮到你：现在由Bo决定。"


# -- the simulator ----------------------------------------------------------------------


def test_there_is_no_simulator_page_on_real_hardware(client):
    for path in ("/simulator/", "/simulator/layout", "/simulator/frames"):
        assert client.get(path).status_code == 404
    assert client.post("/simulator/press", json={"seat": 0, "button": "OK"}).status_code == 404


@pytest.fixture
def simulated(session):
    import hardware
    from firmware_py.table import Table

    hw = hardware.simulate(clock=hardware.ManualClock())
    table = Table(hw, session)
    table.start()
    remote = RemoteService(session, hardware=hw)
    yield create_app(remote, {"TESTING": True}).test_client(), session
    remote.close()
    table.close()


def test_the_simulator_describes_the_rig_and_its_buttons_drive_the_table(simulated):
    client, session = simulated
    assert client.get("/simulator/").status_code == 200
    layout = client.get("/simulator/layout").json
    assert layout["seats"] == 4 and layout["buttons"] == ["PREV", "NEXT", "OK", "BACK"]
    assert {panel["name"] for panel in layout["layout"]["panels"]} >= {"centre", "seat0", "seat1"}
    seat = session.snapshot.current_player
    assert client.post("/simulator/press", json={"seat": seat, "button": "NEXT"}).status_code == 200
    deadline = time.monotonic() + 5
    while session.snapshot.cursors[seat] != 1:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    frames = client.get("/simulator/frames", buffered=False)
    chunks = iter(frames.response)
    assert next(chunks).startswith(b"retry:")
    frame = json.loads(next(chunks).decode().removeprefix("data: "))
    assert frame["seq"] > 0 and "centre" in frame["panels"]
    frames.close()


@pytest.mark.parametrize("body", [
    {"seat": 9, "button": "OK"},
    {"seat": True, "button": "OK"},
    {"seat": 0, "button": "HOST"},
    {"seat": None, "button": "OK"},
    {"seat": 0, "button": "OK", "hold": "long"},
    {"seat": 0},
])
def test_bad_simulator_presses_are_refused(simulated, body):
    client, session = simulated
    before = session.snapshot
    response = client.post("/simulator/press", json=body)
    assert response.status_code == 400 and response.json["message"]
    assert session.snapshot.cursors == before.cursors and session.snapshot.history == before.history
