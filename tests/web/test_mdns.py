"""The table on mDNS/DNS-SD: a phone's lookup finds its name and its join page, a taken name is passed
over, and the table says goodbye when it stops. All of it on the loopback interface, asked with
zeroconf's own resolver and browser; the names are random, so test runs side by side do not meet.

The phone asks from 127.0.0.1 and every table answers from a loopback address of its own, as tables
on other machines would. The tests of a taken name need one responder to hear another;
where a probe shows this machine's loopback does not carry that, they run in a network namespace
of their own (``unshare -rn``), or skip with the reason where none can be made."""
import errno
import functools
import gc
import itertools
import os
import pathlib
import random
import shutil
import socket
import subprocess
import sys
import threading
import warnings

import pytest
import zeroconf

from tests.patience import patient
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


PHONE_ADDRESS = "127.0.0.1"
TABLES = f"127.{random.randrange(1, 255)}.{random.randrange(256)}"  # drawn per run: runs side by side differ
NAMESPACE = "AZUL_TEST_MDNS_NAMESPACE"  # set inside the network namespace the taken-name tests are run in
TAKEN_NAME_TESTS = ("test_a_second_table_of_the_same_name_takes_the_next_one",
                    "test_a_name_another_machine_answers_to_is_passed_over",
                    "test_a_long_name_keeps_its_numbered_form_a_dns_label")
NOT_HEARD = "one mDNS responder on this machine's loopback does not hear another answer for its name"


def table_addresses():
    """TABLES.1, TABLES.2 ...: a loopback address of its own for each table a test starts."""
    return (f"{TABLES}.{n}" for n in itertools.count(1))


def responders_hear_each_other() -> bool:
    """Whether a responder on the loopback hears another answer for its name: one claims a name,
    then another looks it up, as a table just started does before it claims one."""
    addresses = table_addresses()
    name = f"azul-probe-{random.randrange(16**8):08x}"
    first = network.Advertisement(name, 8120, [next(addresses)])
    try:
        if not first.wait(patient(WAIT_S)):
            return False
        second = network.new_zeroconf([next(addresses)])
        try:
            return zeroconf.AddressResolver(f"{name}.local.").request(second, network.LOOKUP_MS)
        finally:
            second.close()
    finally:
        first.close()


def _tool(name):
    """The path of the command ``name``, also where the sbin folders are not on the PATH."""
    return shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin")


def in_a_namespace(*command) -> list:
    """``command`` run in a user and a network namespace of its own (``unshare -rn``, no root needed),
    whose loopback is up and carries multicast."""
    ip = _tool("ip")
    setup = f"{ip} link set lo up && {ip} link set lo multicast on"
    return [_tool("unshare"), "-rn", "sh", "-c", f'{setup} && exec "$@"', "sh", *command]


@functools.cache
def namespace_refusal():
    """None where :func:`in_a_namespace` works on this machine; else why it does not."""
    missing = [tool for tool in ("unshare", "ip") if _tool(tool) is None]
    if missing:
        return f"{' and '.join(missing)} not installed"
    try:
        made = subprocess.run(in_a_namespace("true"), capture_output=True, text=True, timeout=patient(10))
    except subprocess.TimeoutExpired:
        return "unshare -rn did not finish"
    if made.returncode:
        return f"unshare -rn refused: {made.stderr.strip() or made.returncode}"
    return None


@pytest.fixture(scope="module")
def loopback_carries_answers(multicast):
    """The probe's outcome, found once for all the tests that need it."""
    return responders_hear_each_other()


@pytest.fixture
def taken_names(loopback_carries_answers):
    """Skip a taken-name test where it cannot tell anything on this machine's loopback: there it runs in
    a network namespace of its own (:func:`test_taken_names_in_a_network_namespace_of_their_own`), or
    skips with the reason where none can be made. The test needs one responder to hear another
    answer; some machines (and some VMs' loopback) never carry that, though each responder alone works."""
    if loopback_carries_answers:
        return
    if os.environ.get(NAMESPACE):
        pytest.skip(f"{NOT_HEARD}, even in a network namespace of its own")
    refusal = namespace_refusal()
    if refusal is None:
        pytest.skip(f"{NOT_HEARD}: the test runs in a network namespace of its own instead")
    pytest.skip(f"{NOT_HEARD}, and no network namespace of its own can be made ({refusal})")


@pytest.fixture
def phone():
    """A zeroconf instance on the loopback interface, asking as a phone would."""
    asker = network.new_zeroconf([PHONE_ADDRESS])
    yield asker
    asker.close()


@pytest.fixture
def name():
    return f"azul-test-{random.randrange(16**8):08x}"


@pytest.fixture
def advertise():
    """Start advertisements on the loopback interface, each on an address of its own (a machine hands an
    answer sent to an address that several responders share to only one of them); all of them are
    closed at the end."""
    started = []
    addresses = table_addresses()

    def start(name, port=8123):
        claimed = []
        advertisement = network.Advertisement(name, port, [next(addresses)], on_name=claimed.append)
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
    assert resolve(phone, name) == [f"{TABLES}.1"]
    listener = Listener(f"{name}.{network.SERVICE_TYPE}")
    browser = zeroconf.ServiceBrowser(phone, network.SERVICE_TYPE, listener)
    try:
        assert listener.added.wait(WAIT_S), "the browser did not find the table's service"
    finally:
        browser.cancel()
    info = phone.get_service_info(network.SERVICE_TYPE, f"{name}.{network.SERVICE_TYPE}", timeout=3000)
    assert info.server == f"{name}.local." and info.port == 8123
    assert info.parsed_addresses() == [f"{TABLES}.1"] and info.properties[b"path"] == b"/join"


def test_a_second_table_of_the_same_name_takes_the_next_one(taken_names, phone, name, advertise):
    first = advertise(name, 8123)
    second = advertise(name, 8124)
    assert (first.name, second.name) == (name, f"{name}-2")
    info = phone.get_service_info(network.SERVICE_TYPE, f"{name}-2.{network.SERVICE_TYPE}", timeout=3000)
    assert info.server == f"{name}-2.local." and info.port == 8124


def test_a_name_another_machine_answers_to_is_passed_over(taken_names, phone, name, advertise):
    # another machine called NAME.local, offering something else (here ssh), not a join page
    other = zeroconf.ServiceInfo("_ssh._tcp.local.", f"{name}._ssh._tcp.local.", port=22,
                                 addresses=[socket.inet_aton(PHONE_ADDRESS)], server=f"{name}.local.")
    phone.register_service(other)
    assert advertise(name).name == f"{name}-2"


def test_a_long_name_keeps_its_numbered_form_a_dns_label(taken_names, name, advertise):
    long_name = (name + "-" + "x" * 63)[:63]
    advertise(long_name)
    second = advertise(long_name)
    assert second.name.endswith("-2") and len(second.name) == 63 and network.check_name(second.name)


def test_stopping_withdraws_the_name_at_once(phone, name):
    advertisement = network.Advertisement(name, 8123, [next(table_addresses())])
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


def test_taken_names_in_a_network_namespace_of_their_own(loopback_carries_answers):
    """Where this machine's loopback does not carry one responder's answers to another, the taken-name
    tests run in a network namespace whose loopback does."""
    if loopback_carries_answers:
        pytest.skip("this machine's loopback carries one responder's answers to another: "
                    "the taken-name tests ran on it")
    if os.environ.get(NAMESPACE):
        pytest.skip("this is the network namespace of their own")
    refusal = namespace_refusal()
    if refusal is not None:
        pytest.skip(f"no network namespace of their own can be made ({refusal})")
    tests = [f"{__file__}::{test}" for test in TAKEN_NAME_TESTS]
    run = subprocess.run(in_a_namespace(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests),
                         capture_output=True, text=True, env={**os.environ, NAMESPACE: "1"},
                         cwd=pathlib.Path(__file__).parents[2], timeout=patient(300))
    assert run.returncode == 0 and f"{len(TAKEN_NAME_TESTS)} passed" in run.stdout, run.stdout + run.stderr
