"""Dates on controls: reading a flow's date words, the month a calendar shows, and
the value a native date or time input takes. Pure rules; the runtime acts on them.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time

from gofer.decide.text import normalise
from gofer.decide.when import MONTHS, parse_when
from gofer.surfaces.screen import Element, Screen

__all__ = ["is_date_words", "names_month", "native_value", "shown_month", "when_of"]

_MONTH_HEADING = re.compile(
    r"\b(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?,?\s+(\d{4})\b",
    re.IGNORECASE,
)
_ISO_DATE = re.compile(r"^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2}))?\s*$")


def when_of(words: str, today: date) -> date | time | datetime | None:
    """A date or time in any common written form; ISO dates are year-month-day."""
    iso = _ISO_DATE.match(words)
    if iso:
        y, m, d, hh, mm = iso.groups()
        try:
            day = date(int(y), int(m), int(d))
            if hh is not None:
                return datetime(day.year, day.month, day.day, int(hh), int(mm))
        except ValueError:
            return None
        return day
    return parse_when(words, today)


def is_date_words(words: str, today: date) -> bool:
    """Whether ``words`` name a date (a bare number does not)."""
    when = when_of(words, today)
    return isinstance(when, date) and not re.fullmatch(r"\s*\d+\s*", words)


def shown_month(screen: Screen) -> tuple[int, int] | None:
    """(year, month) of the first month heading on the screen ("October 2026")."""
    for line in screen.lines:
        m = _MONTH_HEADING.search(line.text)
        if m:
            return int(m.group(2)), MONTHS[m.group(1).casefold()]
    return None


def names_month(cell: Element, day: date) -> bool:
    """Whether the cell's own words or its grid's name say which month it is in."""
    words = " ".join((cell.name, cell.label, cell.title, cell.text, cell.group, cell.section))
    tokens = set(normalise(words).split())
    month = f"{day:%B}".casefold()
    return bool(tokens & {month, month[:3]}) or day.isoformat() in words


def native_value(input_type: str, when: date | time | datetime) -> str | None:
    """The value a native date or time input takes, or None when ``when`` lacks a part."""
    if input_type == "time":
        return when.strftime("%H:%M") if isinstance(when, (datetime, time)) else None
    if isinstance(when, time):
        return None
    if input_type == "datetime-local":
        at = when if isinstance(when, datetime) else datetime.combine(when, time())
        return at.strftime("%Y-%m-%dT%H:%M")
    day = when.date() if isinstance(when, datetime) else when
    return day.strftime("%Y-%m") if input_type == "month" else day.isoformat()
