"""Which addresses a browser session may load, given its ``origins``.

An origin pattern is ``scheme://host[:port]``. A host written with a leading dot
(``https://.example.com``) stands for the site and every subdomain of it; a plain
host stands for that host only. Without a port a pattern matches the scheme's
default port only. ``ws``/``wss`` addresses are judged as ``http``/``https``.
An empty list of origins allows everything; ``about:``, ``data:`` and ``blob:``
addresses are always allowed (they load nothing from a site).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

from gofer.errors import InvalidRequest

__all__ = ["OriginPattern", "origin_allowed", "parse_origin"]

_DEFAULT_PORTS = {"http": 80, "https": 443}
_SOCKET_SCHEMES = {"ws": "http", "wss": "https"}
_ALWAYS = ("about:", "data:", "blob:")


@dataclass(frozen=True, slots=True)
class OriginPattern:
    """One parsed origin pattern."""

    scheme: str
    host: str
    port: int
    subdomains: bool

    def matches(self, scheme: str, host: str, port: int) -> bool:
        """Whether a request to ``scheme://host:port`` falls under this pattern."""
        if scheme != self.scheme or port != self.port:
            return False
        if host == self.host:
            return True
        return self.subdomains and host.endswith("." + self.host)


@lru_cache(maxsize=256)
def parse_origin(pattern: str) -> OriginPattern:
    """Parse ``scheme://host[:port]``; raises :class:`InvalidRequest` ``INVALID_ORIGIN``."""
    try:
        parts = urlsplit(pattern.strip())
        port = parts.port
    except ValueError as err:
        raise InvalidRequest(
            f"origin {pattern!r} is not an address: {err}", code="INVALID_ORIGIN", origin=pattern
        ) from err
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if scheme not in _DEFAULT_PORTS or not host.strip("."):
        raise InvalidRequest(
            f"origin {pattern!r} must look like https://example.com or https://.example.com",
            code="INVALID_ORIGIN",
            origin=pattern,
        )
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise InvalidRequest(
            f"origin {pattern!r} must not carry a path, query or fragment",
            code="INVALID_ORIGIN",
            origin=pattern,
        )
    subdomains = host.startswith(".")
    return OriginPattern(
        scheme=scheme,
        host=host.lstrip("."),
        port=port if port is not None else _DEFAULT_PORTS[scheme],
        subdomains=subdomains,
    )


def origin_allowed(url: str, origins: Sequence[str]) -> bool:
    """Whether ``url`` may be loaded by a session confined to ``origins``."""
    if not origins:
        return True
    lowered = url.strip().lower()
    if lowered.startswith(_ALWAYS):
        return True
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return False
    scheme = _SOCKET_SCHEMES.get(parts.scheme.lower(), parts.scheme.lower())
    host = (parts.hostname or "").lower().rstrip(".")
    if scheme not in _DEFAULT_PORTS or not host:
        return False
    port = port if port is not None else _DEFAULT_PORTS[scheme]
    return any(parse_origin(o).matches(scheme, host, port) for o in origins)
