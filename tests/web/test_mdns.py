"""The table on mDNS/DNS-SD: a phone's lookup finds its name and its join page, a taken name is passed
over, and the table says goodbye when it stops. All of it on the loopback interface, asked with
zeroconf's own resolver and browser; the names are random, so test runs side by side do not meet."""
import errno
import gc
import random
import socket
import threading
import warnings

import pytest
import zeroconf

from web_remote import network

WAIT_S = 30  # generous: a busy machine slows multicast answers down


class Listener(zeroconf.ServiceListener):
    """Notes when a browser sees ``name`` come and go."""

    def __init__(self, name):
        self.name = name
        self.added = threading.Event()
        self.removed = threading.Event()

    def add_service(self, zc, type_, name):
        if name == self.name:
            self.added.set()

    def remove_service(self, zc, type_, name):
        if name == self.name:
            self.removed.set()

    def update_service(self, zc, type_, name):
        pass


@pytest.fixture(scope="module", autouse=True)
def multicast():
    """mDNS needs the multicast socket options; qemu-user emulation (tools/test-arm64.sh) does not offer them."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)  # zeroconf leaves the sockets of a failed start open
        try:
            network.new_zeroconf(["127.0.0.1"]).close()
            refused = None
        except OSError as error:
            if error.errno != errno.ENOPROTOOPT:
                raise
            refused = error.strerror
        gc.collect()
    if refused:
        pytest.skip(f"this machine's sockets refuse the multicast options mDNS needs ({refused})")


PROBES = 3


def _a_fresh_responder_hears(name) -> bool:
    second = network.new_zeroconf(["127.0.0.1"])
    try:
        return zeroconf.AddressResolver(f"{name}.local.").request(second, network.LOOKUP_MS)
    finally:
        second.close()


@pytest.fixture(scope="module")
def answers_between_instances(multicast):
    """Skip unless a second mDNS responder on this machine hears the first one answer for its name.

    The tests of a taken name run two responders on the loopback interface: one claims a name and
    the other must hear it answer. Some machines (and some VMs' loopback) never carry those answers
    from one responder to another, though each alone works; there the tests cannot tell anything.
    The probe is the very lookup a table just started makes before it claims a name, tried a few times.
    """
    name = f"azul-probe-{random.randrange(16**8):08x}"
    first = network.Advertisement(name, 8120, ["127.0.0.1"])
    try:
        assert first.wait(WAIT_S), "no name was claimed"
        heard = any(_a_fresh_responder_hears(name) for _ in range(PROBES))
    finally:
        first.close()
    if not heard:
        pytest.skip(f"on this machine one mDNS responder on the loopback interface does not hear another answer "
                    f"for its name ({PROBES} lookups of {network.LOOKUP_MS} ms): the tests of taken names need it")


@pytest.fixture
def phone():
    """A zeroconf instance on the loopback interface, asking as a phone would."""
    asker = network.new_zeroconf(["127.0.0.1"])
    yield asker
    asker.close()


@pytest.fixture
def name():
    return f"azul-test-{random.randrange(16**8):08x}"


@pytest.fixture
def advertise():
    """Start advertisements on the loopback interface; all of them are closed at the end."""
    started = []

    def start(name, port=8123):
        claimed = []
        advertisement = network.Advertisement(name, port, ["127.0.0.1"], on_name=claimed.append)
        started.append(advertisement)
        assert advertisement.wait(WAIT_S), "no name was claimed"
        assert claimed == [advertisement.name]
        return advertisement

    yield start
    for advertisement in started:
        advertisement.close()


def resolve(phone, name):
    host = zeroconf.AddressResolverIPv4(f"{name}.local.")
    return host.parsed_addresses() if host.request(phone, 3000) else []


def test_the_name_resolves_to_the_table_and_its_service_is_the_join_page(phone, name, advertise):
    advertisement = advertise(name, 8123)
    assert advertisement.name == name
    assert resolve(phone, name) == ["127.0.0.1"]
    listener = Listener(f"{name}.{network.SERVICE_TYPE}")
    browser = zeroconf.ServiceBrowser(phone, network.SERVICE_TYPE, listener)
    try:
        assert listener.added.wait(WAIT_S), "the browser did not find the table's service"
    finally:
        browser.cancel()
    info = phone.get_service_info(network.SERVICE_TYPE, f"{name}.{network.SERVICE_TYPE}", timeout=3000)
    assert info.server == f"{name}.local." and info.port == 8123
    assert info.parsed_addresses() == ["127.0.0.1"] and info.properties[b"path"] == b"/join"


def test_a_second_table_of_the_same_name_takes_the_next_one(answers_between_instances, phone, name, advertise):
    first = advertise(name, 8123)
    second = advertise(name, 8124)
    assert (first.name, second.name) == (name, f"{name}-2")
    info = phone.get_service_info(network.SERVICE_TYPE, f"{name}-2.{network.SERVICE_TYPE}", timeout=3000)
    assert info.server == f"{name}-2.local." and info.port == 8124


def test_a_name_another_machine_answers_to_is_passed_over(answers_between_instances, phone, name, advertise):
    # another machine called NAME.local, offering something else (here ssh), not a join page
    other = zeroconf.ServiceInfo("_ssh._tcp.local.", f"{name}._ssh._tcp.local.", port=22,
                                 addresses=[socket.inet_aton("127.0.0.1")], server=f"{name}.local.")
    phone.register_service(other)
    assert advertise(name).name == f"{name}-2"


def test_a_long_name_keeps_its_numbered_form_a_dns_label(answers_between_instances, name, advertise):
    long_name = (name + "-" + "x" * 63)[:63]
    advertise(long_name)
    second = advertise(long_name)
    assert second.name.endswith("-2") and len(second.name) == 63 and network.check_name(second.name)


def test_stopping_withdraws_the_name_at_once(phone, name):
    advertisement = network.Advertisement(name, 8123, ["127.0.0.1"])
    try:
        assert advertisement.wait(WAIT_S)
        listener = Listener(f"{name}.{network.SERVICE_TYPE}")
        browser = zeroconf.ServiceBrowser(phone, network.SERVICE_TYPE, listener)
        assert listener.added.wait(WAIT_S)
    finally:
        advertisement.close()
    try:
        assert listener.removed.wait(WAIT_S), "no goodbye was heard"
    finally:
        browser.cancel()
