"""One-time codes from a secret fact: an authenticator's seed types its current code.

A secret fact whose value is an ``otpauth://totp/...`` URI, or a base32 seed under a
name the rules call a one-time code (:func:`gofer.facts.rules.is_one_time_code_name`),
is a code source: a flow that enters it types the code of the moment (RFC 6238 over
RFC 4226, computed here: a seed of any length from 80 bits gives codes), never the
seed. A value that looks like a seed but gives no codes (an ``otpauth://hotp`` URI, a
bad parameter, a seed that is not base32) is :func:`unusable_seed`: the task that
holds it is refused, so it is never typed. The time is given by the caller; nothing
here waits or reads a clock.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlsplit

from gofer.facts.rules import is_one_time_code_name

__all__ = [
    "MIN_LEFT_S",
    "CodeSource",
    "code_source",
    "code_sources",
    "is_otpauth",
    "looks_like_seed",
    "unusable_seed",
    "unusable_seeds",
]

MIN_LEFT_S = 5.0
"""A code with fewer seconds than this left in its window is not typed: the next
window's is (the site could judge it after the window ended)."""

MIN_SEED_BYTES = 10
"""The shortest seed that gives codes: 80 bits, the common 16-character base32 seed."""

_BASE32 = re.compile(r"^[A-Z2-7]{16,}=*$")
_DIGESTS = {"SHA1": "sha1", "SHA256": "sha256", "SHA512": "sha512"}


class _NoCodes(ValueError):
    """A seed that gives no codes; the message says why and never holds the value."""


def is_otpauth(value: str) -> bool:
    """Whether ``value`` is an authenticator URI of any kind (``otpauth://...``)."""
    return value.strip().casefold().startswith("otpauth://")


def _bare_seed(value: str) -> str:
    return re.sub(r"[\s-]", "", value).upper()


def looks_like_seed(name: str, value: str) -> bool:
    """Whether a fact looks like an authenticator's seed: an ``otpauth://`` URI, or
    base32 of 16 characters or more under a name the rules call a one-time code."""
    if is_otpauth(value):
        return True
    return is_one_time_code_name(name) and bool(_BASE32.match(_bare_seed(value)))


@dataclass(frozen=True, slots=True)
class CodeSource:
    """The codes of one seed: ``at(now)`` gives the code and its seconds left."""

    name: str
    _key: bytes = field(repr=False)
    digits: int = 6
    interval: int = 30
    digest: str = "sha1"

    def code(self, counter: int) -> str:
        """The RFC 4226 code for ``counter`` (dynamic truncation of an HMAC)."""
        mac = hmac.new(self._key, counter.to_bytes(8, "big"), self.digest).digest()
        offset = mac[-1] & 0x0F
        number = int.from_bytes(mac[offset : offset + 4], "big") & 0x7FFFFFFF
        return str(number % 10**self.digits).zfill(self.digits)

    def at(self, now: float) -> tuple[str, float]:
        """The code at ``now`` (seconds since the epoch) and the seconds it has left."""
        left = self.interval - (now % self.interval)
        return self.code(int(now // self.interval)), left

    def typed_at(self, now: float) -> tuple[str, float]:
        """The code to type at ``now`` and how long to wait first: none while the
        current code has MIN_LEFT_S or more left, else until the next window."""
        code, left = self.at(now)
        if left >= MIN_LEFT_S:
            return code, 0.0
        return self.at(now + left)[0], left


def _key(seed: str) -> bytes:
    text = _bare_seed(seed).rstrip("=")
    try:
        key = base64.b32decode(text + "=" * (-len(text) % 8))
    except (binascii.Error, ValueError):
        raise _NoCodes("its seed is not base32") from None
    if len(key) < MIN_SEED_BYTES:
        raise _NoCodes(f"its seed is shorter than {MIN_SEED_BYTES * 8} bits")
    return key


def _number(params: dict[str, list[str]], key: str, default: int, low: int, high: int) -> int:
    given = params.get(key)
    if given is None:
        return default
    text = given[-1].strip()
    if not text.isdigit() or not low <= int(text) <= high:
        raise _NoCodes(f"its {key} is not a whole number from {low} to {high}")
    return int(text)


def _from_uri(name: str, text: str) -> CodeSource:
    parts = urlsplit(text)
    kind = parts.netloc.casefold()
    if kind == "hotp":
        raise _NoCodes("it is a counter-based (hotp) seed; only time-based (totp) ones run")
    if kind != "totp":
        raise _NoCodes("it is not an otpauth://totp/ address")
    params = parse_qs(parts.query, keep_blank_values=True)
    secret = params.get("secret")
    if not secret or not secret[-1].strip():
        raise _NoCodes("its address has no secret")
    algorithm = params.get("algorithm", ["SHA1"])[-1].strip().upper()
    digest = _DIGESTS.get(algorithm)
    if digest is None:
        raise _NoCodes("its algorithm is not SHA1, SHA256 or SHA512")
    return CodeSource(
        name,
        _key(secret[-1]),
        digits=_number(params, "digits", 6, 6, 10),
        interval=_number(params, "period", 30, 1, 3600),
        digest=digest,
    )


def _source(name: str, value: str) -> CodeSource | None:
    text = value.strip()
    if is_otpauth(text):
        return _from_uri(name, text)
    if looks_like_seed(name, text):
        return CodeSource(name, _key(text))
    return None


def code_source(name: str, value: str) -> CodeSource | None:
    """The code source a fact is, or None (an ordinary value, or a seed that gives no
    codes: :func:`unusable_seed` says which)."""
    try:
        return _source(name, value)
    except _NoCodes:
        return None


def unusable_seed(name: str, value: str) -> str | None:
    """Why a fact that looks like a seed gives no codes, or None (it gives codes, or
    it is no seed). The reason never holds the value."""
    try:
        _source(name, value)
    except _NoCodes as exc:
        return str(exc)
    return None


def unusable_seeds(values: Mapping[str, str]) -> dict[str, str]:
    """The facts among ``values`` that look like seeds and give no codes, with why."""
    found: dict[str, str] = {}
    for name, value in values.items():
        why = unusable_seed(name, value)
        if why is not None:
            found[name] = why
    return found


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
