"""Where phones find the table: the addresses of its network interfaces and the names it answers to.

The addresses come from the interfaces themselves (ifaddr, which python-zeroconf
uses for the same job), never from a hostname lookup: on Raspberry Pi OS
``/etc/hosts`` maps the hostname to 127.0.1.1, which no phone can reach.
"""
import ipaddress
import re
import socket
import threading

import ifaddr
import zeroconf

DEFAULT_NAME = "azul-table"
MAX_LABEL = 63
_LABEL = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?")
SERVICE_TYPE = "_http._tcp.local."  # what DNS-SD browsers list as web pages
NAME_TRIES = 20  # NAME, NAME-2 ... NAME-20
LOOKUP_MS = 2000  # how long to wait for another machine to answer to a name (a just-started responder misses the first answers)
CLOSE_TIMEOUT_S = 5.0
BUSY_TRIES = 3  # asks for one name when zeroconf reports that the machine kept it from answering


def _usable(address) -> bool:
    """Whether a phone on the same network could open ``address``: not loopback, link-local
    (that needs a scope a phone's browser cannot take), multicast or unspecified."""
    return not (address.is_loopback or address.is_link_local or address.is_multicast or address.is_unspecified)


def interface_addresses(adapters=None) -> list:
    """The usable addresses of this machine's interfaces as strings, IPv4 first, each once,
    in the interfaces' order; ``adapters`` (ifaddr adapters) defaults to the machine's own."""
    found = {4: [], 6: []}
    for adapter in ifaddr.get_adapters() if adapters is None else adapters:
        for ip in adapter.ips:
            address = ipaddress.ip_address(ip.ip if ip.is_IPv4 else ip.ip[0])
            text = str(address)
            if _usable(address) and text not in found[address.version]:
                found[address.version].append(text)
    return found[4] + found[6]


def listening_addresses(host: str) -> list:
    """The addresses phones can use for a server bound to ``host``: every usable interface
    address of its family for a wildcard (``0.0.0.0``, ``""``, ``::``), else ``host`` itself."""
    if host in ("0.0.0.0", ""):
        return [a for a in interface_addresses() if ipaddress.ip_address(a).version == 4]
    if host == "::":
        return [a for a in interface_addresses() if ipaddress.ip_address(a).version == 6]
    return [host]


def join_url(host: str, port: int) -> str:
    """The join page's URL at ``host`` (a name or an address; IPv6 in brackets), without ``:80``."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}{'' if port == 80 else f':{port}'}/join"


def check_name(name: str) -> str:
    """``name`` lower-cased if it can be the table's mDNS name (``NAME.local``): one DNS label of
    letters, digits and inner hyphens, at most 63 characters; else a ValueError that says so."""
    lowered = name.strip().lower()
    if not _LABEL.fullmatch(lowered):
        raise ValueError(f"the table's name is letters, digits and inner hyphens (at most {MAX_LABEL}), not {name!r}")
    return lowered


def host_names(name: str) -> tuple:
    """The names a phone may use for the table: ``NAME.local`` (the table's own mDNS name), the
    machine's hostname and ``HOSTNAME.local`` (what Raspberry Pi OS's avahi advertises)."""
    hostname = socket.gethostname().lower()
    names = [f"{name}.local", hostname, f"{hostname}.local"]
    return tuple(dict.fromkeys(names))


def new_zeroconf(addresses, ip_version=zeroconf.IPVersion.V4Only) -> zeroconf.Zeroconf:
    """A Zeroconf on ``addresses`` with an event loop of its own. It is made on a fresh thread:
    made on one whose asyncio loop is running (an asyncio host, Playwright's in the tests) it
    would use that loop, and its blocking calls would wait on it."""
    made = {}

    def make():
        try:
            made["zeroconf"] = zeroconf.Zeroconf(interfaces=addresses, ip_version=ip_version)
        except Exception as error:  # handed to the caller below
            made["error"] = error

    thread = threading.Thread(target=make, name="mdns-start")
    thread.start()
    thread.join()
    if "error" in made:
        raise made["error"]
    return made["zeroconf"]


class Advertisement:
    """The table on mDNS/DNS-SD: its own name ``NAME.local`` and an ``_http._tcp`` service for the join
    page, so that a phone can type ``http://NAME.local:PORT``.

    The name is claimed on a thread of its own (asking takes a second or two), so the table
    starts at once; ``on_name(name)`` is called once it is the table's. A name that another
    machine answers to, or whose service another has, is passed over for ``NAME-2``, ``NAME-3``
    ...; ``on_name`` is never called when all of them are taken. :meth:`close` withdraws the name.
    """

    def __init__(self, name: str, port: int, addresses, on_name=lambda name: None):
        versions = {ipaddress.ip_address(a).version for a in addresses}
        self.requested = name
        self.name = None
        self._port = port
        self._addresses = list(addresses)
        self._on_name = on_name
        self._closing = threading.Event()
        self._zeroconf = new_zeroconf(
            self._addresses,
            zeroconf.IPVersion.All if versions == {4, 6} else
            zeroconf.IPVersion.V6Only if versions == {6} else zeroconf.IPVersion.V4Only,
        )
        self._thread = threading.Thread(target=self._claim, name="mdns", daemon=True)
        self._thread.start()

    def _candidates(self):
        yield self.requested
        for n in range(2, NAME_TRIES + 1):
            suffix = f"-{n}"
            yield self.requested[:MAX_LABEL - len(suffix)].rstrip("-") + suffix

    def _claim(self):
        for candidate in self._candidates():
            for _ in range(BUSY_TRIES):
                if self._closing.is_set():
                    return
                try:
                    claimed = self._try(candidate)
                except zeroconf.EventLoopBlocked:
                    continue  # the machine was too busy to finish asking: ask again
                except zeroconf.NotRunningException:
                    return
                if claimed:
                    self.name = candidate
                    self._on_name(candidate)
                    return
                break

    def _try(self, candidate) -> bool:
        """Claim ``candidate``; False when another machine answers to it or has its service."""
        if zeroconf.AddressResolver(f"{candidate}.local.").request(self._zeroconf, LOOKUP_MS):
            return False
        service = zeroconf.ServiceInfo(
            SERVICE_TYPE, f"{candidate}.{SERVICE_TYPE}", port=self._port, server=f"{candidate}.local.",
            addresses=[ipaddress.ip_address(a).packed for a in self._addresses], properties={"path": "/join"},
        )
        try:
            self._zeroconf.register_service(service)
        except zeroconf.NonUniqueNameException:
            return False
        return True

    def wait(self, timeout: float) -> bool:
        """Wait until the name is claimed or every candidate was taken; True when it is the table's."""
        self._thread.join(timeout)
        return self.name is not None

    def close(self):
        """Stop claiming and say goodbye, so that phones forget the name at once."""
        self._closing.set()
        self._thread.join(CLOSE_TIMEOUT_S)
        self._zeroconf.close()
