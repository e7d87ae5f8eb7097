"""Dates on controls: whether a flow's words are a date, the month a calendar shows,
and the value a native date or time input takes. Pure rules; the runtime acts on them.
Reading the words themselves is :func:`gofer.decide.when.parse_when`.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time

from gofer.decide.text import normalise
from gofer.decide.when import MONTHS, parse_when
from gofer.surfaces.screen import Element, Screen

__all__ = ["is_date_words", "names_month", "native_value", "shown_month"]

_MONTH_HEADING = re.compile(
    r"\b(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?,?\s+(\d{4})\b",
    re.IGNORECASE,
)


def is_date_words(words: str, today: date) -> bool:
    """Whether ``words`` name a date (a bare number does not)."""
    when = parse_when(words, today)
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
    if input_type == "week":
        return day.strftime("%G-W%V")
    return day.strftime("%Y-%m") if input_type == "month" else day.isoformat()
