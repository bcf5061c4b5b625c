"""The simulator link works from every address the table prints, on the table's own computer; other
computers get a page in their language saying why not."""
import urllib.error
import urllib.request

import pytest

import hardware
from firmware_py.session import Seat, Session, Setup
from firmware_py.table import Table
from web_remote import create_app, i18n, network, runner
from web_remote.service import RemoteService

DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


@pytest.fixture
def simulated_table():
    hw = hardware.simulate()
    session = Session(Setup(game="duel", seats=(Seat(), Seat()), seed=5))
    table = Table(hw, session).start()
    service = RemoteService(session, hardware=hw)
    yield service
    service.close()
    table.close()


def test_the_tables_own_computer_opens_the_simulator_at_its_lan_address(simulated_table):
    """The address printed at start is the LAN one: from this machine it leads to the simulator, as
    127.0.0.1 does."""
    addresses = network.interface_addresses()
    if not addresses:
        pytest.skip("this machine has no non-loopback address to reach itself by")
    remote = runner.start(simulated_table, host="0.0.0.0", port=0)
    try:
        for address in (addresses[0], "127.0.0.1"):
            host = f"[{address}]" if ":" in address else address
            for path in ("/simulator/", "/simulator/layout"):
                with DIRECT.open(f"http://{host}:{remote.port}{path}", timeout=10) as answer:
                    assert answer.status == 200, (address, path)
    finally:
        remote.close()


def test_another_computer_gets_a_page_in_its_language_saying_why_not(simulated_table):
    client = create_app(simulated_table, {"TESTING": True}).test_client()
    phone = {"REMOTE_ADDR": "192.168.1.50"}
    for language in i18n.LANGUAGES:
        answer = client.get("/simulator/", environ_base=phone, headers={"Accept-Language": language})
        assert answer.status_code == 403 and answer.mimetype == "text/html"
        page = answer.get_data(as_text=True)
        assert i18n.translate(language, "error.simulator_local") in page.replace("&#39;", "'")
        assert i18n.translate(language, "sim.title") in page
    script = client.get("/simulator/layout", environ_base=phone)
    assert script.status_code == 403 and script.json["error"] == "error.simulator_local"
