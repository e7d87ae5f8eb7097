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
  ordinary text, so it is found only as a whole token written in the same case,
  never inside a word or a longer number (the initial ``A`` leaves the article
  ``a`` alone). A secret is found wherever it appears, in any case, however short.
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

import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
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
    for code in (
        20,
        27,
        30,
        31,
        32,
        33,
        34,
        36,
        39,
        40,
        41,
        43,
        44,
        45,
        46,
        47,
        48,
        49,
        51,
        52,
        53,
        54,
        55,
        56,
        57,
        58,
        60,
        61,
        62,
        63,
        64,
        65,
        66,
        81,
        82,
        84,
        86,
        90,
        91,
        92,
        93,
        94,
        95,
        98,
    )
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


def _is_phone(text: str) -> bool:
    digits = sum(c.isdigit() for c in text)
    return 7 <= digits <= 15 and not is_card_number(text)


def _digits_looked_for(text: str) -> str:
    """The digits of a number-like value that every match holds (a phone's national part)."""
    digits = re.sub(r"[^0-9]", "", text)
    return _phone_core(text, digits) if _is_phone(text) else digits


def _core_pattern(text: str, *, secret: bool) -> str | None:
    """The pattern for ``text`` (stripped) without a phone's prefix; ``None`` when empty."""
    if not text:
        return None
    if _NUMBER_LIKE.fullmatch(text):
        core = _digits_looked_for(text)
        significant = sum(c.isdigit() for c in text)
        body = _GAP.join(core)
    else:
        words = text.split()
        significant = sum(len(word) for word in words)
        body = r"\s+".join(re.escape(word) for word in words)
    if significant < SHORT and not secret:
        return rf"(?<!\w)(?-i:{body})(?!\w)"
    return body


def value_pattern(value: str, *, secret: bool) -> str | None:
    """The regular expression (uncompiled, for IGNORECASE) that finds ``value`` in text.

    ``None`` for a value with nothing to find (empty or only whitespace).
    """
    text = value.strip()
    body = _core_pattern(text, secret=secret)
    if body is not None and _NUMBER_LIKE.fullmatch(text) and _is_phone(text):
        return _PHONE_PREFIX + body
    return body


@dataclass(frozen=True, slots=True)
class Span:
    """Where a fact's value was found: ``text[start:end]`` is the value of ``name``."""

    start: int
    end: int
    name: str
    secret: bool


# Characters re.IGNORECASE equates with an ASCII letter that casefold() leaves alone.
_FOLD_FIXES = str.maketrans({"\u0131": "i"})


class _Views:
    """The text as the quick checks read it, computed once per text and only if needed."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._folded: str | None = None
        self._digits: str | None = None
        self._places: list[int] | None = None
        self._broken: list[int] | None = None

    @property
    def folded(self) -> str:
        if self._folded is None:
            self._folded = self.text.casefold().translate(_FOLD_FIXES)
        return self._folded

    @property
    def aligned(self) -> bool:
        """Whether each character of the folded text stands at its place in the text."""
        return len(self.folded) == len(self.text)

    @property
    def digits(self) -> str:
        if self._digits is None:
            self._digits = re.sub(r"[^0-9]", "", self.text)
        return self._digits

    @property
    def places(self) -> list[int]:
        """Where each of :attr:`digits` stands in the text."""
        if self._places is None:
            self._places = [m.start() for m in _DIGIT.finditer(self.text)]
        return self._places

    @property
    def broken(self) -> list[int]:
        """``broken[i]``: how many of the first ``i`` gaps between neighbouring digits are
        no gap a number may hold (more than three separators, or anything else)."""
        if self._broken is None:
            places, text = self.places, self.text
            counts = [0]
            for a, b in itertools.pairwise(places):
                gap = text[a + 1 : b]
                bad = len(gap) > 3 or (gap != "" and _GAP_ONLY.fullmatch(gap) is None)
                counts.append(counts[-1] + bad)
            self._broken = counts
        return self._broken


_PREFIX_BEFORE = re.compile(_PHONE_PREFIX + r"\Z")
_DIGIT = re.compile("[0-9]")
_GAP_ONLY = re.compile(_GAP)


@dataclass(frozen=True, slots=True)
class _Finder:
    """Finds one fact's value; every match, overlapping ones included."""

    name: str
    secret: bool
    # None for a number found by its digits (see _spelled): a pattern of one group of
    # separators per digit costs time to build in proportion to the number's length.
    regex: re.Pattern[str] | None
    # A text value's first word, casefolded: every match starts with it in the folded text.
    needle: str | None
    # A number's digits (a phone's national part): every match holds them in the text's digits.
    digits: str | None
    phone: bool

    def find(self, views: _Views) -> Iterator[Span]:
        text = views.text
        if self.digits is not None and self.regex is None:
            if self.digits not in views.digits:
                return
            spans = self._spelled(views, self.digits)
        elif self.digits is not None:
            if self.digits not in views.digits:
                return
            spans = self._spans(self._searched(text))
        elif self.needle is not None and views.aligned:
            spans = self._spans(self._anchored(views, self.needle))
        else:
            spans = self._spans(self._searched(text))
        for start, end in spans:
            if self.phone:
                before = _PREFIX_BEFORE.search(text, max(0, start - 12), start)
                if before is not None:
                    start = before.start()
            yield Span(start, end, self.name, self.secret)

    @staticmethod
    def _spans(matches: Iterator[re.Match[str]]) -> Iterator[tuple[int, int]]:
        return (match.span() for match in matches)

    @staticmethod
    def _spelled(views: _Views, digits: str) -> Iterator[tuple[int, int]]:
        """Where ``digits`` are written with at most three separators between any two,
        as the pattern of :func:`value_pattern` finds them: an occurrence in the text's
        digits whose gaps are all such separators."""
        places, broken, last = views.places, views.broken, len(digits) - 1
        at = views.digits.find(digits)
        while at >= 0:
            if broken[at + last] == broken[at]:
                yield places[at], places[at + last] + 1
            at = views.digits.find(digits, at + 1)

    def _searched(self, text: str) -> Iterator[re.Match[str]]:
        assert self.regex is not None
        match = self.regex.search(text)
        while match is not None:
            yield match
            match = self.regex.search(text, match.start() + 1)

    def _anchored(self, views: _Views, needle: str) -> Iterator[re.Match[str]]:
        assert self.regex is not None
        position = views.folded.find(needle)
        while position >= 0:
            match = self.regex.match(views.text, position)
            if match is not None:
                yield match
            position = views.folded.find(needle, position + 1)


def _finder(name: str, value: str, secret: bool) -> _Finder | None:
    text = value.strip()
    body = _core_pattern(text, secret=secret)
    if body is None:
        return None
    needle = digits = None
    phone = False
    if _NUMBER_LIKE.fullmatch(text):
        digits = _digits_looked_for(text)
        phone = _is_phone(text)
        if body == _GAP.join(digits):  # not a short one found only as a whole token
            return _Finder(name, secret, None, needle, digits, phone)
    else:
        first = text.split()[0]
        needle = first.casefold() if first.isascii() else None
    return _Finder(name, secret, re.compile(body, re.IGNORECASE), needle, digits, phone)


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

    def __init__(self, facts: Sequence[tuple[str, str, bool]], marker_names: Iterable[str]) -> None:
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
        views = _Views(text)
        found: list[Span] = []
        for finder in self._finders:
            for span in finder.find(views):
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
