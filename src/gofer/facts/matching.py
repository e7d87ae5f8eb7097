"""Finding fact values in text, however they were written, and replacing them.

How a value is looked for:

* Every value is stripped first; an empty value is never looked for.
* A value made of digits and ``+ ( ) - .`` and spaces (card, phone and account
  numbers, dates written with dashes) is looked for as its digits, with up to
  three of those separators (any whitespace included) between any two digits:
  ``4111 1111 1111 1111`` also finds ``4111-1111-1111-1111`` and
  ``4111111111111111``.
* Such a value of 7 to 15 digits that is no card number is taken for a phone
  number: its national part is looked for, with or without a country code
  (``+91``, ``0091``) or a trunk ``0`` in front, so ``+91 98765 43210``,
  ``098765 43210`` and ``9876543210`` are all the same number.
* Any other value is looked for word by word, case-insensitively, with any run
  of whitespace (newlines, no-break spaces) between its words.
* A shared value shorter than three characters (digits for numbers) would shred
  ordinary text, so it is found only as a whole token, never inside a word or a
  longer number. A secret is found wherever it appears, however short.
* Matches of different facts that overlap are joined and replaced as one, named
  after the longest match (a secret on a tie), so no tail of a value is ever left
  behind; a secret is looked for at every position, so even its overlapping
  repeats are consumed.
* Text already holding a marker of this store (``‹name›`` or ``${name}``) keeps
  it: nothing inside a marker is replaced, so replacing twice changes nothing
  more and a value that happens to be part of a fact's name cannot shred the
  marker.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from gofer.facts.rules import is_card_number

__all__ = ["Matcher", "Span", "value_pattern"]

_SEPARATOR = r"[\s\-\u2010-\u2015.()]"
_GAP = _SEPARATOR + "{0,3}"
_NUMBER_LIKE = re.compile(r"[0-9\s+().\-\u2010-\u2015]*[0-9][0-9\s+().\-\u2010-\u2015]*")
_PHONE_PREFIX = rf"(?:(?:\+|00){_SEPARATOR}{{0,2}}[0-9]{{1,3}}{_GAP}|0{_SEPARATOR}{{0,2}})?\(?"
# Country calling codes of one and two digits; every other code has three.
_ONE_DIGIT_CODES = frozenset({"1", "7"})
_TWO_DIGIT_CODES = frozenset(
    str(code)
    for code in (20, 27, 30, 31, 32, 33, 34, 36, 39, 40, 41, 43, 44, 45, 46, 47, 48, 49,
                 51, 52, 53, 54, 55, 56, 57, 58, 60, 61, 62, 63, 64, 65, 66, 81, 82, 84, 86,
                 90, 91, 92, 93, 94, 95, 98)
)
SHORT = 3
"""Shared values with fewer significant characters than this are matched only as whole tokens."""


def _country_code_length(digits: str) -> int:
    if digits[:1] in _ONE_DIGIT_CODES:
        return 1
    return 2 if digits[:2] in _TWO_DIGIT_CODES else 3


def _phone_core(text: str, digits: str) -> str:
    """The national part of a phone number: its digits without country code or trunk 0."""
    if text.startswith("+") or digits.startswith("00"):
        international = digits[2:] if not text.startswith("+") else digits
        core = international[_country_code_length(international) :]
        return core if len(core) >= 6 else digits
    if digits.startswith("0") and len(digits) >= 8:
        return digits[1:]
    return digits


def value_pattern(value: str, *, secret: bool) -> str | None:
    """The regular expression (uncompiled, for IGNORECASE) that finds ``value`` in text.

    ``None`` for a value with nothing to find (empty or only whitespace).
    """
    text = value.strip()
    if not text:
        return None
    if _NUMBER_LIKE.fullmatch(text):
        digits = re.sub(r"[^0-9]", "", text)
        significant = len(digits)
        if 7 <= len(digits) <= 15 and not is_card_number(text):
            body = _PHONE_PREFIX + _GAP.join(_phone_core(text, digits))
        else:
            body = _GAP.join(digits)
    else:
        words = text.split()
        significant = sum(len(word) for word in words)
        body = r"\s+".join(re.escape(word) for word in words)
    if significant < SHORT and not secret:
        return rf"(?<!\w)(?:{body})(?!\w)"
    return body


@dataclass(frozen=True, slots=True)
class Span:
    """Where a fact's value was found: ``text[start:end]`` is the value of ``name``."""

    start: int
    end: int
    name: str
    secret: bool


@dataclass(frozen=True, slots=True)
class _Finder:
    name: str
    secret: bool
    regex: re.Pattern[str]

    def find(self, text: str) -> Iterable[Span]:
        for match in self.regex.finditer(text):
            start, end = match.span(1)
            yield Span(start, end, self.name, self.secret)


def _finder(name: str, value: str, secret: bool) -> _Finder | None:
    body = value_pattern(value, secret=secret)
    if body is None:
        return None
    # Secrets are looked for at every position so overlapping repeats are all found.
    source = f"(?=({body}))" if secret else f"({body})"
    return _Finder(name, secret, re.compile(source, re.IGNORECASE))


def _marker_regex(names: Iterable[str]) -> re.Pattern[str] | None:
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    if not alternatives:
        return None
    return re.compile(rf"‹(?:{alternatives})›|\$\{{(?:{alternatives})\}}")


def _outranks(candidate: Span, current: Span) -> bool:
    """Whether ``candidate`` should name a joined span instead of ``current``."""
    return (candidate.end - candidate.start, candidate.secret) > (
        current.end - current.start,
        current.secret,
    )


class Matcher:
    """Finds the values of a set of facts in text; built once per store and reused."""

    def __init__(
        self, facts: Sequence[tuple[str, str, bool]], marker_names: Iterable[str]
    ) -> None:
        """``facts`` are ``(name, value, secret)``; ``marker_names`` name the markers to keep."""
        finders = (_finder(name, value, secret) for name, value, secret in facts)
        self._finders = [f for f in finders if f is not None]
        self._markers = _marker_regex(marker_names)

    def _protected(self, text: str) -> list[tuple[int, int]]:
        if self._markers is None or ("‹" not in text and "${" not in text):
            return []
        return [m.span() for m in self._markers.finditer(text)]

    def find(self, text: str) -> list[Span]:
        """Every value found in ``text`` outside markers, sorted by start (may overlap)."""
        protected = self._protected(text)
        found: list[Span] = []
        for finder in self._finders:
            for span in finder.find(text):
                if span.end > span.start and not any(
                    start <= span.start and span.end <= end for start, end in protected
                ):
                    found.append(span)
        found.sort(key=lambda s: (s.start, -s.end))
        return found

    def joined(self, text: str) -> list[Span]:
        """The found values with overlapping ones joined, each named by its best match."""
        groups: list[tuple[int, int, Span]] = []
        for span in self.find(text):
            if groups and span.start < groups[-1][1]:
                start, end, best = groups[-1]
                groups[-1] = (start, max(end, span.end), span if _outranks(span, best) else best)
            else:
                groups.append((span.start, span.end, span))
        return [Span(start, end, best.name, best.secret) for start, end, best in groups]

    def replace(self, text: str, marker: Callable[[str], str]) -> str:
        """``text`` with every found value replaced by ``marker(name)``, in one pass."""
        spans = self.joined(text)
        if not spans:
            return text
        pieces: list[str] = []
        position = 0
        for span in spans:
            pieces.append(text[position : span.start])
            pieces.append(marker(span.name))
            position = span.end
        pieces.append(text[position:])
        return "".join(pieces)

    def names_found(self, text: str) -> list[str]:
        """Names of the facts whose values appear in ``text`` outside markers."""
        return list(dict.fromkeys(span.name for span in self.find(text)))
