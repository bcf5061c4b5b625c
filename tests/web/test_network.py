"""Where phones find the table: interface addresses (not a hostname lookup), the printed URLs and QR code.

The end-to-end tests start ``azul-table`` in a network namespace of its own whose
only link is one end of a veth pair, so the machine's address is known, and open
the printed URL from the other end as a phone on the Wi-Fi would.
"""
import os
import random
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import ifaddr
import pytest
import zeroconf

from hardware.terminal import qr_text
from tests.patience import patient
from web_remote import network, runner

AZUL_TABLE = Path(sys.executable).with_name("azul-table")


def adapter(name, *addresses):
    """An ifaddr adapter: IPv4 addresses as strings, IPv6 ones as ifaddr's (address, flowinfo, scope)."""
    ips = [ifaddr.IP(a, 24 if isinstance(a, str) else 64, name) for a in addresses]
    return ifaddr.Adapter(name, name, ips)


def test_interface_addresses_are_usable_non_loopback_ones_ipv4_first():
    adapters = [
        adapter("lo", "127.0.0.1", ("::1", 0, 0)),
        adapter("eth0", "192.168.1.20", ("fe80::1", 0, 2), ("fd00::20", 0, 0), "169.254.3.4"),
        adapter("wlan0", "10.0.0.5", "192.168.1.20", ("2001:db8::5", 0, 0)),
    ]
    assert network.interface_addresses(adapters) == ["192.168.1.20", "10.0.0.5", "fd00::20", "2001:db8::5"]
    assert network.interface_addresses([adapter("lo", "127.0.0.1")]) == []


def test_this_machines_addresses_come_from_its_interfaces():
    addresses = network.interface_addresses()
    assert all(not a.startswith("127.") and a != "::1" for a in addresses)
    own = {ip.ip if ip.is_IPv4 else ip.ip[0] for a in ifaddr.get_adapters() for ip in a.ips}
    assert set(addresses) <= own


def test_names_are_dns_labels():
    assert network.check_name("Azul-Table-2") == "azul-table-2"
    for bad in ("", "a b", "-table", "table-", "tåble", "x" * 64, "a.b"):
        with pytest.raises(ValueError, match="letters, digits and inner hyphens"):
            network.check_name(bad)
    names = network.host_names("kitchen")
    assert names[0] == "kitchen.local" and len(names) == len(set(names)) >= 2


def test_the_remote_lists_a_url_per_address_and_the_names_it_answers_to(service):
    remote = runner.start(service, host="127.0.0.1", port=0, host_names=network.host_names("kitchen"))
    try:
        assert remote.urls == [f"http://127.0.0.1:{remote.port}/join"]
        assert remote.app.config["TABLE_HOST_NAMES"][0] == "kitchen.local"
    finally:
        remote.close()


def run(*command):
    subprocess.run(command, check=True, capture_output=True, timeout=patient(30))


@pytest.fixture
def namespace():
    """A fresh network namespace with its loopback up; yields (its name, a function that links it to
    this namespace over a veth pair and returns (our address, its address))."""
    if os.geteuid() != 0 or shutil.which("ip") is None:
        pytest.skip("network namespaces need root and iproute2's ip")
    name = f"azt{os.getpid() % 10000}{random.randrange(1000)}"
    try:
        run("ip", "netns", "add", name)
    except subprocess.CalledProcessError as error:
        pytest.skip(f"this machine allows no network namespaces: {error.stderr.decode().strip()}")
    links = []

    def link():
        ours, theirs = f"{name}h", f"{name}n"
        subnet = f"10.{random.randrange(100, 250)}.{random.randrange(256)}"
        try:
            run("ip", "link", "add", ours, "type", "veth", "peer", "name", theirs)
        except subprocess.CalledProcessError as error:
            pytest.skip(f"this machine allows no veth pairs: {error.stderr.decode().strip()}")
        links.append(ours)
        run("ip", "link", "set", theirs, "netns", name)
        run("ip", "addr", "add", f"{subnet}.1/30", "dev", ours)
        run("ip", "link", "set", ours, "up")
        run("ip", "netns", "exec", name, "ip", "addr", "add", f"{subnet}.2/30", "dev", theirs)
        run("ip", "netns", "exec", name, "ip", "link", "set", theirs, "up")
        return f"{subnet}.1", f"{subnet}.2"

    try:
        run("ip", "netns", "exec", name, "ip", "link", "set", "lo", "up")
        yield name, link
    finally:
        for ours in links:
            subprocess.run(["ip", "link", "del", ours], capture_output=True)
        subprocess.run(["ip", "netns", "del", name], capture_output=True)


def start_table(namespace_name, tmp_path, *options, until="phones join at"):
    """``azul-table`` in the namespace; returns (process, the file of its standard error) once that
    prints ``until``."""
    err = tmp_path / "err.txt"
    with err.open("w") as err_file:
        process = subprocess.Popen(
            ["ip", "netns", "exec", namespace_name, str(AZUL_TABLE), "--no-terminal", "--port", "0",
             "--data", str(tmp_path / "data"), "--game", "duel", "--seed", "3", *options],
            stdout=subprocess.DEVNULL, stderr=err_file,
        )
    deadline = time.monotonic() + patient(30)
    while until not in err.read_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.2)  # the QR code follows the URL lines
    return process, err


def stop(process):
    process.terminate()
    try:
        process.wait(timeout=patient(30))
    finally:
        process.kill()


def join_urls(text):
    """The join page's addresses the table printed: the first, then any others in brackets."""
    urls = []
    for line in text.splitlines():
        if "phones join at " in line:
            first, _, others = line.split("phones join at ", 1)[1].partition(" (also ")
            urls += [first, *filter(None, others.rstrip(")").split(", "))]
    return urls


def test_the_printed_address_is_the_machines_own_and_phones_reach_it(namespace, tmp_path):
    name, link = namespace
    ours, theirs = link()
    process, err = start_table(name, tmp_path)
    try:
        text = err.read_text()
        urls = join_urls(text)
        assert len(urls) == 1 and urls[0].startswith(f"http://{theirs}:"), text
        assert qr_text(urls[0]) in text
        direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with direct.open(urls[0], timeout=10) as page:
            assert page.status == 200
    finally:
        stop(process)


def test_without_a_network_the_table_offers_its_loopback_address(namespace, tmp_path):
    name, _ = namespace
    process, err = start_table(name, tmp_path)
    try:
        urls = join_urls(err.read_text())
        assert len(urls) == 1 and urls[0].startswith("http://127.0.0.1:")
    finally:
        stop(process)


def test_phones_on_the_network_find_the_table_by_its_name(namespace, tmp_path):
    name, link = namespace
    ours, theirs = link()
    table_name = f"azul-test-{random.randrange(16**8):08x}"
    process, err = start_table(name, tmp_path, "--name", table_name, until="phones also find the table")
    phone = network.new_zeroconf([ours])
    try:
        text = err.read_text()
        port = int(join_urls(text)[0].rsplit(":", 1)[1].split("/")[0])
        assert f"phones also find the table at http://{table_name}.local:{port}/join" in text
        host = zeroconf.AddressResolverIPv4(f"{table_name}.local.")
        assert host.request(phone, 3000) and host.parsed_addresses() == [theirs]
        direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        request = urllib.request.Request(f"http://{theirs}:{port}/join", headers={"Host": f"{table_name}.local:{port}"})
        with direct.open(request, timeout=10) as page:
            assert page.status == 200
    finally:
        phone.close()
        stop(process)
    assert "stopped, LEDs off" in err.read_text()
