"""Where phones find the table: the addresses of its network interfaces and the names it answers to.

The addresses come from the interfaces themselves (ifaddr, which python-zeroconf
uses for the same job), never from a hostname lookup: on Raspberry Pi OS
``/etc/hosts`` maps the hostname to 127.0.1.1, which no phone can reach.
"""
import ipaddress
import re
import socket

import ifaddr

DEFAULT_NAME = "azul-table"
_LABEL = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?")


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


def url_host(address: str) -> str:
    """``address`` as the host part of a URL (IPv6 in brackets)."""
    return f"[{address}]" if ":" in address else address


def check_name(name: str) -> str:
    """``name`` lower-cased if it can be the table's mDNS name (``NAME.local``): one DNS label of
    letters, digits and inner hyphens, at most 63 characters; else a ValueError that says so."""
    lowered = name.strip().lower()
    if not _LABEL.fullmatch(lowered):
        raise ValueError(f"the table's name is letters, digits and inner hyphens (at most 63), not {name!r}")
    return lowered


def host_names(name: str) -> tuple:
    """The names a phone may use for the table: ``NAME.local`` (the table's own mDNS name), the
    machine's hostname and ``HOSTNAME.local`` (what Raspberry Pi OS's avahi advertises)."""
    hostname = socket.gethostname().lower()
    names = [f"{name}.local", hostname, f"{hostname}.local"]
    return tuple(dict.fromkeys(names))
