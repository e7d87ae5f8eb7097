"""Dates and times spread over several controls: day, month and year selects, hour and
minute fields, an AM/PM select or toggle.

:func:`part_of` says which part of a date or time one control holds, from its words
("Day", "MM", "Hour") or else from its options (1-31, twelve month names, four-digit
years, 00-59, AM/PM). :func:`split_fields` finds the controls that a step's words name
together (a fieldset's legend, a label beside the first of them, a name each carries)
and :func:`part_values` says what each must hold for a given date or time.
:func:`part_option` and :func:`part_shows` pick and check a select's option. Pure
rules; the runtime acts on them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time

from gofer.decide.text import normalise, stem_tokens, text_score
from gofer.decide.when import MONTHS
from gofer.surfaces.screen import Element, Screen

__all__ = [
    "DATE_PARTS",
    "TIME_PARTS",
    "SplitFields",
    "part_of",
    "part_option",
    "part_shows",
    "part_values",
    "parts_among",
    "split_fields",
]

DATE_PARTS = ("day", "month", "year")
TIME_PARTS = ("hour", "minute", "half")
_ORDER = (*DATE_PARTS, *TIME_PARTS)

_PART_WORDS: dict[str, frozenset[str]] = {
    "day": frozenset({"day", "dd"}),
    "month": frozenset({"month", "mon"}),
    "year": frozenset({"year", "yyyy", "yy"}),
    "hour": frozenset({"hour", "hours", "hh", "hr", "hrs"}),
    "minute": frozenset({"minute", "minutes", "min", "mins"}),
    "half": frozenset({"ampm", "meridiem", "meridian", "period"}),
}
_AMBIGUOUS_MM = "mm"  # month on a date, minutes on a time: settled by the neighbours
_HALVES = {"am": "am", "a m": "am", "pm": "pm", "p m": "pm"}
_ROW_SLACK_PX = 12.0
_MAX_GAP_PX = 160.0
_LABEL_REACH_PX = 240.0
_NAMED = 0.7  # how well the words must name a group of controls


def _half_of(text: str) -> str | None:
    return _HALVES.get(normalise(text))


def _numbers(options: Sequence[str]) -> list[int]:
    return [int(o) for o in (o.strip() for o in options) if o.isdigit()]


def _by_options(el: Element) -> str | None:
    options = [o for o in el.options if o.strip()]
    if not options:
        return None
    names = (o.casefold().rstrip(".") for o in options)
    months = {MONTHS[n] for n in names if n in MONTHS}
    if len(months) == 12:
        return "month"
    halves = {_half_of(o) for o in options} - {None}
    if halves == {"am", "pm"}:
        return "half"
    numbers = _numbers(options)
    if len(numbers) < 2 or len(numbers) < len(options) - 1:
        return None  # a placeholder option ("Day") is allowed, not more
    low, high = min(numbers), max(numbers)
    if all(len(o.strip()) == 4 for o in options if o.strip().isdigit()) and low >= 1000:
        return "year"
    if low >= 1 and 28 <= high <= 31:
        return "day"
    if low == 0 and high == 23:
        return "hour"
    if low == 0 and 30 <= high <= 59 and any(len(o.strip()) == 2 for o in options):
        return "minute"
    if low in (0, 1) and high == 12:
        return "hour_or_month"
    return None


def part_of(el: Element) -> str | None:
    """Which part of a date or time ``el`` holds: "day", "month", "year", "hour",
    "minute" or "half" (AM/PM); "mm" when its words say only "MM" (month or minutes),
    "hour_or_month" when only options 1-12 say anything; None when it holds no part.

    A select, a number or text field, a spin button, or an AM/PM toggle (a button
    that shows "AM" or "PM") can hold a part.
    """
    if el.role in ("button", "clickable") and el.tag != "select":
        shown = (el.text or el.name).strip().casefold().replace(" ", "")
        return "half" if shown in ("am", "pm", "a.m.", "p.m.") else None
    if not (el.tag == "select" or el.role in ("spinbutton", "textbox", "combobox")):
        return None
    words = " ".join((el.name, el.label, el.placeholder, el.title))
    tokens = set(normalise(words).split())
    if el.options and not el.options[0].strip().isdigit():
        tokens |= set(normalise(el.options[0]).split())
    if {"am", "pm"} <= tokens:
        tokens.add("ampm")
    found = [p for p in _ORDER if tokens & _PART_WORDS[p]]
    named = [p for p in _ORDER if set(normalise(el.name).split()) & _PART_WORDS[p]]
    if len(found) > 1 and len(named) == 1:
        # its own name says which part; the text beside it ("hh:") is the part before
        found = named
    elif len(found) + (_AMBIGUOUS_MM in tokens) > 1 and not named:
        # a whole format ("YYYY-MM-DD", "HH:MM") is one field holding every part
        return None
    by_options = _by_options(el)
    if len(found) == 1:
        part = found[0]
        # "Birth date day" names the day; options that disagree win over words.
        if by_options in (None, part, "hour_or_month") or (by_options == "hour" and part == "hour"):
            return part
        return by_options
    if by_options is not None:
        return by_options
    if _AMBIGUOUS_MM in tokens:
        return "mm"
    return None


@dataclass(frozen=True, slots=True)
class SplitFields:
    """Controls that hold one date or time between them, one part each."""

    parts: dict[str, Element]  # "day", "month", "year", "hour", "minute", "half"
    name: str = ""  # the words that named them ("Birthday")
    score: float = 0.0  # how well those words matched the step's

    @property
    def members(self) -> tuple[Element, ...]:
        """The controls in date-then-time order."""
        return tuple(self.parts[p] for p in _ORDER if p in self.parts)

    def holds(self, when: date | time | datetime, *, month_only: bool = False) -> bool:
        """Whether these controls can hold ``when``: every part it needs is here (a
        month written without a day needs only month and year; a time on the hour,
        only the hour)."""
        need: set[str] = set()
        if isinstance(when, date):
            need |= {"month", "year"} if month_only else {"day", "month"}
        at = when.time() if isinstance(when, datetime) else when if isinstance(when, time) else None
        if at is not None:
            need |= {"hour", "minute"} if at.minute else {"hour"}
        return bool(need) and need <= set(self.parts)


def _settle(parts: list[tuple[Element, str]]) -> dict[str, Element]:
    """Resolve "mm" and "hour_or_month" by the other parts of the same group."""
    found = {p for _, p in parts}
    is_time = bool(found & {"hour", "minute", "half"}) and not found & {"day", "year"}
    out: dict[str, Element] = {}
    for el, part in parts:
        if part == "mm":
            part = "minute" if is_time or "hour" in out else "month"
        elif part == "hour_or_month":
            part = "hour" if found & {"minute", "half", "mm"} else "month"
        if part not in out:
            out[part] = el
    return out


def _beside(a: Element, b: Element) -> bool:
    """Whether ``b`` follows ``a`` as the next control of one date or time."""
    same_row = abs(a.box.cy - b.box.cy) <= max(a.box.height, b.box.height) / 2 + _ROW_SLACK_PX
    if same_row:
        return -_ROW_SLACK_PX / 2 <= b.box.x - (a.box.x + a.box.width) <= _MAX_GAP_PX
    below = 0 <= b.box.y - (a.box.y + a.box.height) <= 60 and abs(a.box.x - b.box.x) < 40
    return below and a.section == b.section


def _drawn_on_focus(el: Element) -> bool:
    """A segment of a named field that is drawn once the field has focus (MUI's date
    sections stay transparent under a floating label until then)."""
    return bool(el.group) and el.role == "spinbutton" and el.editable and el.tag != "input"


def parts_among(elements: Iterable[Element]) -> list[SplitFields]:
    """The groups of controls that together hold a date or a time, in reading order.

    Controls group when each follows the one before on its row (or just under it, in
    the same section), no part is held twice and no two are in differently named groups.
    """
    groups: list[list[tuple[Element, str]]] = []
    for el in elements:
        if not (el.visible or _drawn_on_focus(el)) or el.disabled:
            continue
        part = part_of(el)
        if part is None:
            continue
        last = groups[-1] if groups else None
        settled = {p for _, p in last} if last else set()
        prev = last[-1][0] if last else None
        # controls their page puts in two named groups are two fields
        apart = prev is not None and bool(prev.group and el.group) and prev.group != el.group
        if last and prev is not None and _beside(prev, el) and part not in settled and not apart:
            last.append((el, part))
        else:
            groups.append([(el, part)])
    out = []
    for group in groups:
        parts = _settle(group)
        if len(parts) >= 2:
            out.append(SplitFields(parts))
    return out


def _name_score(words: str, fields: SplitFields, screen: Screen) -> tuple[float, str]:
    q = normalise(words)
    stems = stem_tokens(q)
    best, name = 0.0, ""
    first = fields.members[0]
    texts: list[str] = []
    for el in fields.members:
        texts += [el.section, el.group]
        own = normalise(" ".join((el.name, el.label)))
        part_words = set().union(*_PART_WORDS.values()) | {"mm", "am", "pm"}
        rest = " ".join(t for t in own.split() if t not in part_words)
        texts.append(rest)
    for line in screen.lines:
        lb = line.box
        left = (
            abs(lb.cy - first.box.cy) <= first.box.height
            and 0 <= first.box.x - (lb.x + lb.width) <= _LABEL_REACH_PX
        )
        above = 0 <= first.box.y - (lb.y + lb.height) <= 40 and abs(lb.x - first.box.x) <= 80
        if left or above:
            texts.append(line.text)
    for text in texts:
        f = normalise(text)
        score, _ = text_score(q, stems, f, stem_tokens(f))
        if score > best:
            best, name = score, text
    return best, name


def split_fields(
    words: str, screen: Screen, keep: Callable[[Element], bool] | None = None
) -> SplitFields | None:
    """The group of controls ``words`` name that holds a date or time between them.

    ``words`` name the group by a legend or heading around it ("Birthday"), a label
    just beside or above its first control, or a name its controls carry ("Birth
    date - Day"). ``keep`` limits the controls considered (a ``within`` region).
    None when no group is named well enough.
    """
    elements = [e for e in screen.elements if keep is None or keep(e)]
    best: SplitFields | None = None
    for fields in parts_among(elements):
        score, name = _name_score(words, fields, screen)
        if score >= _NAMED and (best is None or score > best.score):
            best = SplitFields(fields.parts, name, score)
    return best


def part_values(fields: SplitFields, when: date | time | datetime) -> dict[str, int | str]:
    """What each control must hold for ``when``: day, month and year numbers, the hour
    (on a 12-hour clock when there is an AM/PM control or the hours run 1-12), the
    minute, and "am" or "pm"."""
    out: dict[str, int | str] = {}
    if isinstance(when, date):
        out.update(day=when.day, month=when.month, year=when.year)
    at = when.time() if isinstance(when, datetime) else when if isinstance(when, time) else None
    if at is not None:
        hour = fields.parts.get("hour")
        twelve = "half" in fields.parts or (
            hour is not None and bool(_numbers(hour.options)) and max(_numbers(hour.options)) <= 12
        )
        out["hour"] = ((at.hour % 12) or 12) if twelve else at.hour
        out["minute"] = at.minute
        if "half" in fields.parts:
            out["half"] = "pm" if at.hour >= 12 else "am"
    return {p: v for p, v in out.items() if p in fields.parts}


def part_option(options: Sequence[str], part: str, value: int | str) -> str | None:
    """The option of a select that means ``value`` for its ``part``, or None."""
    for option in options:
        if part_shows(option, part, value):
            return option
    return None


def part_shows(shown: str, part: str, value: int | str) -> bool:
    """Whether a control showing ``shown`` holds ``value`` as its ``part``."""
    text = shown.strip()
    if part == "half":
        return _half_of(text) == value
    if not isinstance(value, int):
        return False
    if part == "month":
        name = text.casefold().rstrip(".")
        if name in MONTHS:
            return MONTHS[name] == value
        month_word = re.match(r"[a-z]+", name)
        if month_word and month_word.group(0) in MONTHS:
            return MONTHS[month_word.group(0)] == value
    digits = re.match(r"\d+", text)
    if digits is None:
        return False
    number = int(digits.group(0))
    if part == "year" and len(digits.group(0)) == 2:
        return number == value % 100
    return number == value


def other_kind(when: date | time | datetime, elements: Iterable[Element]) -> frozenset[str]:
    """The refs of the controls that take only the other kind of value than ``when``:
    the parts of a time and time fields for a date, the parts of a date and date fields
    for a time (a date and time together takes both)."""
    if isinstance(when, datetime):
        return frozenset()
    shown = [e for e in elements if e.visible]
    wrong_parts = set(TIME_PARTS) if isinstance(when, date) else set(DATE_PARTS)
    wrong_type = "time" if isinstance(when, date) else "date"
    refs = {e.ref for e in shown if e.input_type == wrong_type}
    for group in parts_among(shown):
        if set(group.parts) <= wrong_parts:
            refs |= {e.ref for e in group.members}
    return frozenset(refs)
