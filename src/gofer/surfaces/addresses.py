"""Which addresses a task's browser may reach at all, whatever its origins.

Only ``http`` and ``https`` load at the top level (never ``file:``, ``chrome:``,
``devtools:``, ``view-source:``, ``data:``, ``blob:`` or ``javascript:``). Unless
the operator allows them (:attr:`BrowserPolicy.allow_private`), a host whose name
resolves to a loopback, link-local, private, shared, reserved or cloud-metadata
address is refused: the name is resolved first and every address it has is judged,
and a connection then goes only to an address that was judged.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from gofer.errors import BlockedAddress

__all__ = [
    "Resolved",
    "blocked_address",
    "host_port",
    "ip_refusal",
    "resolve",
    "top_level_refusal",
]

_TOP_LEVEL = ("http", "https")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")


def top_level_refusal(url: str) -> str | None:
    """Why ``url`` may not be a page of its own (None when it is http or https)."""
    text = url.strip()
    try:
        parts = urlsplit(text)
    except ValueError:
        return "it is not an address"
    scheme = parts.scheme.lower()
    if scheme not in _TOP_LEVEL:
        shown = f"a {scheme}: address" if scheme else "not an http or https address"
        return f"it is {shown}; only http and https pages may be loaded"
    if not parts.hostname:
        return "it names no host"
    return None


def ip_refusal(address: str) -> str | None:
    """Why a connection to the IP ``address`` is refused when private ones are (None: it
    is a public address)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return "it is not an IP address"
    if isinstance(ip, ipaddress.IPv6Address):
        mapped = ip.ipv4_mapped or ip.sixtofour
        if mapped is None and ip in _NAT64:
            mapped = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if mapped is not None:
            return ip_refusal(str(mapped))
    if ip.is_loopback:
        return "it is a loopback address"
    if ip.is_link_local:
        return "it is a link-local address (cloud metadata lives there)"
    if ip.is_multicast or ip.is_unspecified or ip.is_reserved:
        return "it is not an address of a site"
    if not ip.is_global:
        return "it is a private-network address"
    return None


@dataclass(frozen=True, slots=True)
class Resolved:
    """A host's addresses, or why it is refused (``refusal``)."""

    addresses: tuple[str, ...] = ()
    refusal: str | None = None


async def resolve(host: str, port: int, allow_private: bool) -> Resolved:
    """``host``'s addresses once every one is judged; a refusal when any is private (and
    private ones are not allowed) or the name does not resolve."""
    name = host.strip("[]").rstrip(".")
    try:
        found = await asyncio.get_running_loop().getaddrinfo(name, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return Resolved(refusal="its name does not resolve")
    addresses = tuple(dict.fromkeys(str(info[4][0]) for info in found))
    if not addresses:
        return Resolved(refusal="its name does not resolve")
    if not allow_private:
        for address in addresses:
            why = ip_refusal(address)
            if why is not None:
                return Resolved(addresses, refusal=why)
    return Resolved(addresses)


def blocked_address(url: str, why: str) -> BlockedAddress:
    """``BLOCKED_ADDRESS`` for ``url``, saying ``why``."""
    return BlockedAddress(f"refused to load {url} (BLOCKED_ADDRESS): {why}", url=url, why=why)


def host_port(url: str) -> tuple[str, int] | None:
    """The host and port a web or socket address reaches (None for any other scheme)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https", "ws", "wss") or not parts.hostname:
        return None
    default = 443 if scheme in ("https", "wss") else 80
    return parts.hostname.lower(), port or default
