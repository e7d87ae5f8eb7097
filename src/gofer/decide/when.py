"""Dates and times written the way people write them: "14 October", "next Friday", "6pm"."""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta

from dateutil import parser as du_parser

__all__ = ["MONTHS", "date_parts", "parse_when"]

MONTHS: dict[str, int] = {}
for _i, _name in enumerate(
    (
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ),
    start=1,
):
    MONTHS[_name] = _i
    MONTHS[_name[:3]] = _i
MONTHS["sept"] = 9

_WEEKDAYS = {
    name: i
    for i, names in enumerate(
        (
            ("monday", "mon"),
            ("tuesday", "tue", "tues"),
            ("wednesday", "wed"),
            ("thursday", "thu", "thur", "thurs"),
            ("friday", "fri"),
            ("saturday", "sat"),
            ("sunday", "sun"),
        )
    )
    for name in names
}

_MONTH_RE = "|".join(sorted(MONTHS, key=len, reverse=True))
_DATE_LIKE = re.compile(
    rf"\b(?:{_MONTH_RE})\b|\d{{1,4}}[/\-.]\d{{1,2}}|\d{{1,2}}:\d{{2}}|\d\s*(?:am|pm)\b"
    r"|\b(?:today|tomorrow|tonight|yesterday)\b"
    r"|\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b",
    re.IGNORECASE,
)
_DOT_TIME = re.compile(r"\b(\d{1,2})\.(\d{2})(?=\s*(?:am|pm)\b|\s*$)", re.IGNORECASE)
_RELATIVE = re.compile(
    r"^\s*(?:(?P<day>today|tonight|tomorrow|yesterday|day after tomorrow)"
    r"|(?P<which>next|this|coming)?\s*(?P<wd>[a-z]+day)"
    r"|in\s+(?P<n>\d+|a|an|one|two|three)\s+(?P<unit>days?|weeks?))"
    r"(?:\s*(?:,|at)?\s*(?P<rest>.+))?\s*$",
    re.IGNORECASE,
)
_SMALL = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3}
_ISO = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2}))?\b")
_NUMERIC = re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{2,4})\b")
_TOKEN = re.compile(r"[a-z]+|\d+", re.IGNORECASE)

_D1 = datetime(1904, 2, 2, 3, 4, 5)
_D2 = datetime(1908, 3, 3, 6, 7, 8)


_YEAR_FIRST = re.compile(r"\s*\d{4}[-/.]\d{1,2}[-/.]\d{1,2}\b")


def parse_when(text: str, today: date) -> date | time | datetime | None:
    """A date, a time, or both, read from ``text``; ``None`` when it holds neither.

    Understands "14 October", "Oct 14", "14/10/2026" (day first), "2026-10-14",
    "14th October 2026", "today", "tomorrow", "next Friday", "in 3 days", "10:30",
    "10.30 pm", "6pm" and "14 Oct at 6pm". A date without a year is the next such
    date on or after ``today``.
    """
    text = text.strip()
    if not text:
        return None
    iso = _ISO.fullmatch(text)
    if iso:
        return _iso_when(iso)
    rel = _relative(text, today)
    if rel is not None:
        return rel
    if not _DATE_LIKE.search(text):
        return None
    # A year written first (2026-07-03, 2026/07/03) is always year-month-day.
    year_first = _YEAR_FIRST.match(text)
    head = year_first.group(0) if year_first else ""
    cleaned = head + _DOT_TIME.sub(r"\1:\2", text[len(head) :])
    dayfirst = year_first is None
    try:
        a = du_parser.parse(cleaned, dayfirst=dayfirst, fuzzy=True, default=_D1)
        b = du_parser.parse(cleaned, dayfirst=dayfirst, fuzzy=True, default=_D2)
    except (ValueError, OverflowError):
        return None
    # A field the text gives is the same under both defaults; a missing one is not.
    has_date = a.month == b.month and a.day == b.day
    has_time = a.hour == b.hour
    if not has_date and not has_time:
        return None
    t = time(a.hour, a.minute if a.minute == b.minute else 0)
    if not has_date:
        return t
    if a.year == b.year:
        d = date(a.year, a.month, a.day)
    else:
        found = _next_on_or_after(a.month, a.day, today)
        if found is None:
            return None
        d = found
    return datetime.combine(d, t) if has_time else d


def _iso_when(m: re.Match[str]) -> date | datetime | None:
    """The date (and time) of an ISO match ("2026-10-14", "2026-10-14T09:30"), or None
    for a day that does not exist."""
    y, mo, d, hh, mm = m.groups()
    try:
        day = date(int(y), int(mo), int(d))
        if hh is not None:
            return datetime(day.year, day.month, day.day, int(hh), int(mm))
    except ValueError:
        return None
    return day


def _next_on_or_after(month: int, day: int, today: date) -> date | None:
    for year in (today.year, today.year + 1, today.year + 2, today.year + 3, today.year + 4):
        try:
            d = date(year, month, day)
        except ValueError:
            continue  # 29 February outside a leap year
        if d >= today:
            return d
    return None


def _relative(text: str, today: date) -> date | datetime | None:
    m = _RELATIVE.match(text)
    if m is None:
        return None
    d: date
    if m.group("day"):
        word = m.group("day").lower()
        offset = {"today": 0, "tonight": 0, "tomorrow": 1, "yesterday": -1}.get(word, 2)
        d = today + timedelta(days=offset)
    elif m.group("wd"):
        wd = _WEEKDAYS.get(m.group("wd").lower())
        if wd is None:
            return None
        ahead = (wd - today.weekday()) % 7
        if m.group("which") and m.group("which").lower() == "next" and ahead == 0:
            ahead = 7
        d = today + timedelta(days=ahead)
    else:
        n = m.group("n").lower()
        count = _SMALL[n] if n in _SMALL else int(n)
        unit = m.group("unit").lower()
        d = today + timedelta(days=count * (7 if unit.startswith("week") else 1))
    rest = m.group("rest")
    if not rest:
        if m.group("day") and m.group("day").lower() == "tonight":
            return datetime.combine(d, time(20, 0))
        return d
    when = parse_when(rest, today)
    if isinstance(when, time):
        return datetime.combine(d, when)
    return None


def date_parts(text: str) -> tuple[int | None, int | None, int | None]:
    """(day, month, year) written in ``text``, each ``None`` when absent.

    A cheap reader for calendar cells: "Wednesday, 14 October 2026", "14 Oct 2026",
    "Oct 14", "2026-10-14", "14/10/2026" and a bare "14" all work; weekday names and
    ordinal suffixes are ignored.
    """
    m = _ISO.search(text)
    if m:
        return int(m.group(3)), int(m.group(2)), int(m.group(1))
    m = _NUMERIC.search(text)
    if m:
        yy = int(m.group(3))
        return int(m.group(1)), int(m.group(2)), yy + 2000 if yy < 100 else yy
    day: int | None = None
    month: int | None = None
    year: int | None = None
    for tok in _TOKEN.findall(text):
        low = tok.lower()
        if low.isdigit():
            value = int(low)
            if len(low) == 4 and year is None:
                year = value
            elif 1 <= value <= 31 and day is None and len(low) <= 2:
                day = value
        elif low in MONTHS and month is None:
            month = MONTHS[low]
    return day, month, year
