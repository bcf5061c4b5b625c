"""The HTML pages, the QR code, languages per phone, the simulator endpoints and the translations."""
import json
import re
import string
import time
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from web_remote import create_app, i18n
from web_remote.messages import MESSAGES
from web_remote.service import RemoteService

PAGES = ("/", "/join", "/host", "/settings")


@pytest.mark.parametrize("path", PAGES)
def test_every_page_renders_with_a_strict_content_policy(client, path):
    response = client.get(path)
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    address = re.search(rb'<script src="(/strings/en\.js\?v=\w+)" defer></script>', response.data).group(1)
    script = client.get(address.decode())
    assert script.mimetype == "text/javascript" and "immutable" in script.headers["Cache-Control"]
    body = script.get_data(as_text=True)
    assert body.startswith("const STRINGS = ") and json.loads(body[len("const STRINGS = "):].rstrip(";\n")) == \
        i18n.catalogue("en")


def test_the_strings_script_is_for_the_remotes_languages_only(client):
    assert client.get("/strings/xx.js").status_code == 404
    assert client.get("/strings/..%2Fsecret.js").status_code == 404


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


ROOT = Path(i18n.__file__).parent
TRANSLATED = [code for code in i18n.LANGUAGES if code != i18n.SOURCE_LANGUAGE]


def placeholders(text):
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def message_ids(catalog):
    return {(message.context, message.id if isinstance(message.id, str) else message.id[0])
            for message in catalog if message.id}


def test_the_catalogue_template_holds_exactly_the_strings_of_the_code():
    """`make translations` was run after the last change to the strings."""
    with open(ROOT.parent / "babel.cfg", encoding="utf-8") as config:
        method_map, options_map = parse_mapping_cfg(config)
    keywords = {**DEFAULT_KEYWORDS, "P_": (1, 2), "C_": ((1, "c"), 2)}
    extracted = {(context, message if isinstance(message, str) else message[0])
                 for _, _, message, _, context in extract_from_dir(ROOT.parent, method_map, options_map, keywords)}
    with open(ROOT / "translations" / "messages.pot", "rb") as template:
        assert message_ids(read_po(template)) == extracted


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_string_is_translated_with_the_languages_plural_forms(language):
    with open(ROOT / "translations" / "messages.pot", "rb") as template:
        wanted = message_ids(read_po(template))
    with open(ROOT / "translations" / language / "LC_MESSAGES" / "messages.po", "rb") as po:
        catalog = read_po(po, locale=language)
    assert message_ids(catalog) == wanted
    assert catalog.num_plurals == get_plural(language).num_plurals
    differing = 0
    for message in catalog:
        if not message.id:
            continue
        assert not message.fuzzy, message.id
        sources = [message.id] if isinstance(message.id, str) else list(message.id)
        forms = [message.string] if isinstance(message.string, str) else list(message.string)
        assert len(forms) == (1 if isinstance(message.id, str) else catalog.num_plurals), message.id
        for form in forms:
            assert form.strip() and placeholders(form) == placeholders(sources[0]), message.id
        differing += forms[0] != sources[0]
    assert differing > 0.8 * len(wanted)


@pytest.mark.parametrize(("language", "one", "two"), [
    ("en", "Pay with 1 wild tile", "Pay with 2 wild tiles"),
    ("zh", "用1块百搭色瓷砖支付", "用2块百搭色瓷砖支付"),
    ("it", "Paga con 1 tessera jolly", "Paga con 2 tessere jolly"),
    ("pt", "Pagar com 1 peça coringa", "Pagar com 2 peças coringa"),
    ("sv", "Betala med 1 vild bricka", "Betala med 2 vilda brickor"),
])
def test_counts_read_right_in_every_language(language, one, two):
    assert i18n.option_label(language, "pavilion", "W1") == one
    assert i18n.option_label(language, "pavilion", "W2") == two
    forms = i18n.catalogue(language)["option.pavilion.pay"]
    assert forms["other"] == two.replace("2", "{n}")


def test_colours_are_named_without_articles_that_cannot_agree():
    assert i18n.option_label("en", "pavilion", "KO") == "Keep one tile: orange"
    assert i18n.breakdown_label("sv", "Star O complete") == "Den orange stjärnan komplett"
    assert "Orange stjärnan" not in i18n.option_label("sv", "pavilion", "R@O1")


def test_every_key_the_pages_use_exists():
    sources = [*ROOT.glob("templates/**/*.html"), *ROOT.glob("static/*.js"), *ROOT.glob("*.py")]
    used = set()
    for source in sources:
        used |= set(re.findall(r"""\bt\(\s*["']([a-z_]+\.[a-zA-Z_.-]+)["']""", source.read_text()))
    prefixes = {key for key in used if key.endswith(".")}  # the start of a key a template completes
    assert used - prefixes <= set(MESSAGES), used - prefixes - set(MESSAGES)
    assert all(any(key.startswith(prefix) for key in MESSAGES) for prefix in prefixes), prefixes
    assert used - prefixes


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
