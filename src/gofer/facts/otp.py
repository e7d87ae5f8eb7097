"""One-time codes from a secret fact: an authenticator's seed types its current code.

A secret fact whose value is an ``otpauth://totp/...`` URI, or a base32 seed under a
name that says TOTP or authenticator, is a code source: a flow that enters it types
the code of the moment (RFC 6238, with ``pyotp``), never the seed. The time is given
by the caller; nothing here waits or reads a clock.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import pyotp

__all__ = ["MIN_LEFT_S", "CodeSource", "code_source", "code_sources", "is_otpauth"]

MIN_LEFT_S = 5.0
"""A code with fewer seconds than this left in its window is not typed: the next
window's is (the site could judge it after the window ended)."""

_NAME = re.compile(r"(?<![a-z])totp|authenticator|\bauth(?:entication)?\s*app\b")
_BASE32 = re.compile(r"^[A-Z2-7]{16,}=*$")


def is_otpauth(value: str) -> bool:
    """Whether ``value`` is an authenticator URI (``otpauth://totp/...``)."""
    return value.strip().casefold().startswith("otpauth://totp/")


@dataclass(frozen=True, slots=True)
class CodeSource:
    """The codes of one seed: ``at(now)`` gives the code and its seconds left."""

    name: str
    _totp: pyotp.TOTP = field(repr=False)

    @property
    def interval(self) -> int:
        """How many seconds one code lasts."""
        return int(self._totp.interval)

    def at(self, now: float) -> tuple[str, float]:
        """The code at ``now`` (seconds since the epoch) and the seconds it has left."""
        left = self.interval - (now % self.interval)
        return self._totp.at(now), left

    def typed_at(self, now: float) -> tuple[str, float]:
        """The code to type at ``now`` and how long to wait first: none while the
        current code has MIN_LEFT_S or more left, else until the next window."""
        code, left = self.at(now)
        if left >= MIN_LEFT_S:
            return code, 0.0
        return self.at(now + left)[0], left


def code_source(name: str, value: str) -> CodeSource | None:
    """The code source a fact is, or None (an ordinary value, or a seed that does not
    parse; the reason never holds the value)."""
    text = value.strip()
    try:
        if is_otpauth(text):
            totp = pyotp.parse_uri(text)
            if not isinstance(totp, pyotp.TOTP):
                return None
            return CodeSource(name, totp)
        seed = re.sub(r"[\s-]", "", text).upper()
        if _NAME.search(name.casefold()) and _BASE32.match(seed):
            return CodeSource(name, pyotp.TOTP(seed))
    except (ValueError, TypeError):
        return None
    return None


def code_sources(values: Mapping[str, str], secret: frozenset[str]) -> dict[str, CodeSource]:
    """The secret facts among ``values`` that are code sources, by name."""
    found: dict[str, CodeSource] = {}
    for name in secret:
        value = values.get(name)
        if value is None:
            continue
        source = code_source(name, value)
        if source is not None:
            found[name] = source
    return found
