"""Dates on controls: whether a flow's words are a date, the month a calendar shows,
and the value a native date or time input takes. Pure rules; the runtime acts on them.
Reading the words themselves is :func:`gofer.decide.when.parse_when`.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from datetime import date, datetime, time

from gofer.decide.options import cells_month
from gofer.decide.text import normalise, symbol_words
from gofer.decide.when import MONTHS, date_parts, parse_when
from gofer.surfaces.screen import Box, Element, Screen

__all__ = [
    "calendar_controls",
    "calendar_month",
    "calendar_nav",
    "calendar_selects",
    "calendar_target",
    "date_order",
    "day_cells",
    "day_in_month",
    "format_date",
    "format_hint",
    "format_time",
    "is_date_words",
    "may_open_picker",
    "month_of",
    "month_step",
    "names_month",
    "native_value",
    "page_clock",
    "reread_date",
    "shown_month",
    "shown_months",
    "shows_calendar",
    "shows_date",
    "shows_time",
    "time_hint",
]

_MONTH_HEADING = re.compile(
    r"\b(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?,?\s*(\d{4})\b",
    re.IGNORECASE,
)


def is_date_words(words: str, today: date) -> bool:
    """Whether ``words`` name a date (a bare number does not)."""
    when = parse_when(words, today)
    return isinstance(when, date) and not re.fullmatch(r"\s*\d+\s*", words)


_PICKER_WORDS = frozenset(
    {
        "date",
        "dates",
        "calendar",
        "datepicker",
        "picker",
        "day",
        "days",
        "time",
        "times",
        "month",
        "when",
        "schedule",
    }
)


def may_open_picker(el: Element) -> bool:
    """Whether pressing ``el`` may open a date or time picker rather than do something
    else (submit its form, save, go on): it says it opens a popup, shows only an icon,
    names a date, a calendar or a time, or shows a date."""
    if el.expanded is not None:
        return True
    words = normalise(el.display_name)
    if not words:
        return True  # an icon only ("📅")
    return (
        bool(set(words.split()) & _PICKER_WORDS)
        or parse_when(el.display_name, date(2000, 1, 1)) is not None
    )


def shown_month(screen: Screen) -> tuple[int, int] | None:
    """(year, month) of the first month heading on the screen ("October 2026").

    A heading is a line that says only the month and year (arrows and other marks
    around it aside): a date inside a sentence or a summary ("Tue, 14 October 2026")
    is not a calendar. See :func:`shown_months`.
    """
    months = shown_months(screen)
    return months[0][0] if months else None


_YEAR_REACH_PX = 60.0  # how far a year written apart from its month heading may be


def shown_months(screen: Screen) -> list[tuple[tuple[int, int], Box]]:
    """Every month heading on the screen, as ((year, month), where it is), in reading
    order: a calendar that shows two or three months at once (a range picker's) has one
    heading for each."""
    out: list[tuple[tuple[int, int], Box]] = []
    for line in screen.lines:
        m = _heading(line.text)
        if m:
            out.append(((int(m.group(2)), MONTHS[m.group(1).casefold()]), line.box))
    if out:
        return out
    # A heading in two pieces: the month's name alone, and its year alone just above it
    # or beside it (cally's and others' headers show the year over the month's grid).
    years = [
        (int(line.text.strip()), line.box)
        for line in screen.lines
        if re.fullmatch(r"\s*\d{4}\s*", line.text)
    ]
    for line in screen.lines:
        name = line.text.strip().casefold().rstrip(".")
        if name not in MONTHS or len(name) < 3 or not years:
            continue
        box = line.box
        near = [
            (abs(box.cy - yb.cy) + abs(box.cx - yb.cx) / 10, year)
            for year, yb in years
            if -_YEAR_REACH_PX <= box.cy - yb.cy <= _YEAR_REACH_PX
            and abs(box.cx - yb.cx) <= _YEAR_REACH_PX * 5
        ]
        if near:
            out.append(((min(near)[1], MONTHS[name]), box))
    return out


def _heading_over(cell: Box, headings: Sequence[tuple[tuple[int, int], Box]]) -> int | None:
    """Which heading a day cell lies under: the nearest one above it, columns first (the
    months of a range picker sit side by side, or one under another)."""
    best: tuple[float, int] | None = None
    for i, (_month, box) in enumerate(headings):
        if box.y > cell.y + cell.height / 2:
            continue
        cost = abs(cell.cx - box.cx) + (cell.y - box.y) * 0.1
        if best is None or cost < best[0]:
            best = (cost, i)
    return None if best is None else best[1]


def day_in_month(
    day: date, cells: Sequence[Element], headings: Sequence[tuple[tuple[int, int], Box]]
) -> Element | None:
    """The cell showing only ``day``'s number under the heading of ``day``'s month, when a
    calendar shows several months at once; None when no such cell is there."""
    want = (day.year, day.month)
    for el in cells:
        if normalise(el.display_name) != str(day.day):
            continue
        under = _heading_over(el.box, headings)
        if under is not None and headings[under][0] == want:
            return el
    return None


def _heading(text: str) -> re.Match[str] | None:
    m = _MONTH_HEADING.search(text)
    return m if m and not re.search(r"\w", text[: m.start()] + text[m.end() :]) else None


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


# ------------------------------------------------------------------ format hints

_HINT_PART = r"(?:yyyy|yy|mm|m|dd|d)"
_DATE_HINT = re.compile(
    rf"(?<![a-z]){_HINT_PART}([/.\- ]){_HINT_PART}\1{_HINT_PART}(?![a-z])", re.IGNORECASE
)
_TIME_HINT = re.compile(r"(?<![a-z])(hh?):mm(?:\s*(am/pm|am|pm|a|p))?(?![a-z])", re.IGNORECASE)
_NEAR_HINT_PX = 48.0


def _hint_in(text: str) -> str | None:
    found = _DATE_HINT.search(text)
    if found is None:
        return None
    parts = re.split(r"[/.\- ]", found.group(0).lower())
    if sorted(p[0] for p in parts) != ["d", "m", "y"]:
        return None  # "mm/mm/yyyy" or a stray "d-m" run of letters
    return found.group(0).upper()


def format_hint(el: Element, screen: Screen) -> str | None:
    """The date format a text field asks for ("MM/DD/YYYY"), or None when nothing says.

    Read from the field's placeholder, title, label and description first, then from
    a line of text just beside or under the field ("Format: DD/MM/YYYY").
    """
    for words in (el.placeholder, el.title, el.describedby, el.label, el.name):
        hint = _hint_in(words)
        if hint:
            return hint
    box = el.box
    for line in screen.lines:
        lb = line.box
        beside = abs(lb.cy - box.cy) <= max(box.height, 12) and lb.x - (box.x + box.width) >= 0
        under = 0 <= lb.y - (box.y + box.height) <= _NEAR_HINT_PX and lb.x < box.x + box.width
        if (beside and lb.x - (box.x + box.width) <= _NEAR_HINT_PX * 4) or under:
            hint = _hint_in(line.text)
            if hint:
                return hint
    return None


def time_hint(el: Element) -> str | None:
    """ "12h" or "24h" when a time field's placeholder or title says which, else None."""
    for words in (el.placeholder, el.title, el.describedby):
        found = _TIME_HINT.search(words)
        if found:
            return "12h" if found.group(2) or found.group(1) == "h" else "24h"
    return None


def format_date(day: date, hint: str) -> str:
    """``day`` written in a hint's format: "MM/DD/YYYY" gives "10/14/2016"."""
    sep_match = re.search(r"[/.\- ]", hint)
    sep = sep_match.group(0) if sep_match else "/"
    out = []
    for part in hint.upper().split(sep):
        if part == "YYYY":
            out.append(f"{day.year:04d}")
        elif part == "YY":
            out.append(f"{day.year % 100:02d}")
        elif part in ("MM", "M"):
            out.append(f"{day.month:02d}" if part == "MM" else str(day.month))
        else:
            out.append(f"{day.day:02d}" if part == "DD" else str(day.day))
    return sep.join(out)


def format_time(at: time, hint: str | None) -> str:
    """A time as a field wants it: "20:04", or "8:04 PM" for a 12-hour field."""
    if hint == "12h":
        return f"{(at.hour % 12) or 12}:{at.minute:02d} {'PM' if at.hour >= 12 else 'AM'}"
    return at.strftime("%H:%M")


# ------------------------------------------------------------------ the page's order

# Regions whose people write a numeric date month first (en-US, en-PH, ...).
_MONTH_FIRST_REGIONS = frozenset({"us", "ph", "fm", "mh", "pw", "as", "gu", "mp", "pr", "vi", "um"})
# Languages whose numeric dates are written year first: the order of the rest is unknown.
_YEAR_FIRST_LANGUAGES = frozenset({"ja", "zh", "ko", "hu", "lt", "mn"})
_AMBIGUOUS_DATE = re.compile(r"\s*(\d{1,2})([/.\-])(\d{1,2})\2(\d{4}|\d{2})\s*")


def date_order(el: Element, screen: Screen, today: date | None = None) -> str | None:
    """Which way a field writes a numeric date: "DMY", "MDY" or "YMD", or None.

    Read from the field's own format hint (placeholder, title, label, text beside it),
    then from a date the field already shows whose day cannot be a month ("25/12/2026")
    or that is ``today`` read one way only (a field that starts on today's date), then
    from the page's language ("en-US" month first, "en-GB" or "de" day first).
    """
    hint = format_hint(el, screen)
    if hint:
        return "".join(part[0] for part in re.split(r"[/.\- ]", hint.upper()))
    shown = _AMBIGUOUS_DATE.search(el.value or "")
    if shown:
        first, second = int(shown.group(1)), int(shown.group(3))
        if first > 12 >= second:
            return "DMY"
        if second > 12 >= first:
            return "MDY"
        year = int(shown.group(4)) + (2000 if len(shown.group(4)) == 2 else 0)
        if today is not None and first != second and year == today.year:
            if (second, first) == (today.month, today.day):
                return "DMY"
            if (first, second) == (today.month, today.day):
                return "MDY"
    lang = screen.lang.strip().lower().replace("_", "-")
    if not lang:
        return None
    language, _, region = lang.partition("-")
    if language in _YEAR_FIRST_LANGUAGES or (language == "en" and region in ("", "ca")):
        return None
    return "MDY" if region in _MONTH_FIRST_REGIONS else "DMY"


def page_clock(screen: Screen) -> str | None:
    """ "12h" on a page whose language writes times on a 12-hour clock ("en-US"), else None."""
    region = screen.lang.strip().lower().replace("_", "-").partition("-")[2]
    return "12h" if region in _MONTH_FIRST_REGIONS else None


def reread_date(words: str, order: str | None) -> date | None:
    """An all-numeric date whose day and month could swap ("03/04/2027"), read in the
    page's ``order`` ("DMY" or "MDY"); None for other words, no order, or no such day."""
    m = _AMBIGUOUS_DATE.fullmatch(words)
    if m is None or order not in ("DMY", "MDY"):
        return None
    a, b, year = int(m.group(1)), int(m.group(3)), int(m.group(4))
    if len(m.group(4)) == 2:
        year += 2000
    month, day = (a, b) if order == "MDY" else (b, a)
    try:
        return date(year, month, day)
    except ValueError:
        return None


# ------------------------------------------------------------------ reading values back

_NUMERIC_DATE = re.compile(r"(?<!\d)(\d{1,4})[/.\-](\d{1,2})[/.\-](\d{1,4})(?!\d)")
_CLOCK = re.compile(r"(?<!\d)(\d{1,2})[:.h](\d{2})(?:\s*([ap])\.?\s*m\.?)?(?![\d])", re.IGNORECASE)
_MONTH_YEAR = re.compile(
    r"^\s*(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?,?\s+(\d{4})\s*$"
    r"|^\s*(\d{4})[-/](\d{1,2})\s*$|^\s*(\d{1,2})[-/](\d{4})\s*$",
    re.IGNORECASE,
)


def month_of(words: str) -> date | None:
    """The first day of a month written without a day ("October 2016", "2016-10", "10/2016")."""
    m = _MONTH_YEAR.match(words)
    if m is None:
        return None
    if m.group(1):
        year, month = int(m.group(2)), MONTHS[m.group(1).casefold()]
    elif m.group(3):
        year, month = int(m.group(3)), int(m.group(4))
    else:
        year, month = int(m.group(6)), int(m.group(5))
    return date(year, month, 1) if 1 <= month <= 12 else None


def _readings(text: str) -> set[date]:
    """Every date ``text`` could mean: a numeric date read year-, month- and day-first."""
    out: set[date] = set()
    for m in _NUMERIC_DATE.finditer(text):
        a, b, c = m.groups()
        orders = [(a, b, c)] if len(a) == 4 else [(c, a, b), (c, b, a)]
        for y, mo, d in orders:
            year = int(y) + 2000 if len(y) == 2 else int(y)
            with contextlib.suppress(ValueError):
                out.add(date(year, int(mo), int(d)))
    if not out:
        when = parse_when(text, date(2000, 1, 1))
        day = when.date() if isinstance(when, datetime) else when
        if isinstance(day, date) and re.search(r"\d{4}", text):
            out.add(day)
    return out


def shows_date(shown: str, day: date, hint: str | None = None) -> bool:
    """Whether a field showing ``shown`` holds ``day``, however the page writes dates.

    With a format hint a numeric date is read in that order only; without one, any
    order that gives a real date counts ("01/02/2016" holds 1 February or 2 January).
    A range field ("2016-10-14 to 2016-10-18") holds each of its dates.
    """
    if hint:
        for m in _NUMERIC_DATE.finditer(shown):
            if m.group(0) == format_date(day, hint) or _same_in(m.group(0), day, hint):
                return True
        if _NUMERIC_DATE.search(shown):
            return False
    return day in _readings(shown)


def _same_in(text: str, day: date, hint: str) -> bool:
    sep_match = re.search(r"[/.\- ]", hint)
    parts = re.split(r"[/.\-]", text)
    keys = hint.upper().split(sep_match.group(0) if sep_match else "/")
    if len(parts) != len(keys):
        return False
    want = {"Y": day.year, "M": day.month, "D": day.day}
    for key, part in zip(keys, parts, strict=True):
        value = int(part) + (2000 if key == "YY" else 0)
        if value != want[key[0]]:
            return False
    return True


def shows_time(shown: str, at: time) -> bool:
    """Whether a field showing ``shown`` holds the time ``at`` ("20:04", "8:04 PM", "08h04")."""
    for m in _CLOCK.finditer(shown):
        hour, minute, half = int(m.group(1)), int(m.group(2)), (m.group(3) or "").lower()
        if half == "p" and hour < 12:
            hour += 12
        elif half == "a" and hour == 12:
            hour = 0
        if (hour, minute) == (at.hour, at.minute):
            return True
    return False


# ------------------------------------------------------------------ calendars


def calendar_month(screen: Screen, before: frozenset[str] = frozenset()) -> tuple[int, int] | None:
    """(year, month) an open calendar shows: its heading, else the month its day cells
    name, else its month and year controls.

    The controls are a select on a month name and a select or number field on a year.
    ``before`` holds the refs of what showed before the calendar opened: the page's
    own fields, not the calendar's.
    """
    shown = shown_month(screen)
    if shown is not None:
        return shown
    by_days = cells_month(e for e in screen.elements if e.visible and e.ref not in before)
    if by_days is not None:
        return by_days
    month = year = None
    for el in screen.elements:
        if not el.visible or el.ref in before:
            continue
        value = el.value.strip()
        name = value.casefold().rstrip(".")
        if month is None and el.tag == "select" and name in MONTHS and len(el.options) == 12:
            month = MONTHS[name]
        elif (
            year is None
            and re.fullmatch(r"\d{4}", value)
            and (el.tag == "select" or el.role == "spinbutton" or el.input_type == "number")
        ):
            year = int(value)
    if month is not None and year is None:
        for line in screen.lines:
            found = re.fullmatch(r"\s*(\d{4})\s*", line.text)
            if found:
                year = int(found.group(1))
                break
    return (year, month) if month is not None and year is not None else None


def calendar_controls(
    screen: Screen, before: frozenset[str] = frozenset()
) -> tuple[Element | None, Element | None]:
    """The month select and the year select or number field inside an open calendar
    (either None when the calendar has none)."""
    month = year = None
    for el in screen.elements:
        if not el.visible or el.disabled or el.ref in before:
            continue
        value = el.value.strip()
        if (
            month is None
            and el.tag == "select"
            and len(el.options) == 12
            and (value.casefold().rstrip(".") in MONTHS)
        ):
            month = el
        elif (
            year is None
            and re.fullmatch(r"\d{4}", value)
            and (el.tag == "select" or el.role == "spinbutton" or el.input_type == "number")
        ):
            year = el
    return month, year


_DAY_GRID = 28  # a month's grid shows at least this many day numbers


def shows_calendar(screen: Screen, before: frozenset[str] = frozenset()) -> bool:
    """Whether an open calendar is on the screen: a month it shows (a heading, or month
    and year controls) and a month's grid of days among the controls that were not
    there ``before`` (a date in the page's text alone is not a calendar)."""
    if calendar_month(screen, before) is None:
        return False
    days: set[int] = set()
    for el in screen.elements:
        if not el.visible or el.ref in before:
            continue
        words = el.display_name
        number = normalise(words)
        if number.isdigit() and len(number) <= 2:
            days.add(int(number))
        elif words and re.search(r"\d", words):
            d, month, _year = date_parts(words)
            if d is not None and month is not None:
                days.add(d)
    return len(days & set(range(1, 32))) >= _DAY_GRID


def calendar_selects(
    screen: Screen, before: frozenset[str] = frozenset()
) -> tuple[Element, Element] | None:
    """The month and year selects inside an open calendar, or None when it has none."""
    month, year = calendar_controls(screen, before)
    if month is None or year is None or year.tag != "select":
        return None
    return month, year


_FORWARD = frozenset({"next", "forward", "later"})
_BACK = frozenset({"prev", "previous", "back", "earlier", "last"})
_NAV_ROLES = frozenset({"button", "clickable", "link", "img"})


def calendar_nav(
    screen: Screen, forward: bool, before: frozenset[str] = frozenset()
) -> Element | None:
    """The control that moves an open calendar a month forward (or back).

    Its words say so ("Next month", "Prev", "›"); a calendar whose arrows carry no
    words at all has them at the two ends of its headings' row: back on the left of
    the first month, forward on the right of the last (a lone one past the heading's
    end: the other is hidden where the calendar goes no further). Words naming a
    year ("Next year") are passed over while a month control is there. A disabled
    control is returned as it is (the calendar goes no further that way).
    """
    want, other = (_FORWARD, _BACK) if forward else (_BACK, _FORWARD)
    named: list[tuple[int, Element]] = []
    bare: list[Element] = []
    for el in screen.elements:
        if not el.visible or el.ref in before or el.role not in _NAV_ROLES:
            continue
        words = normalise(el.display_name)
        tokens = _nav_words(el.display_name)
        if not words and not tokens - {""}:
            bare.append(el)
            continue
        if tokens & want and not tokens & other and len(tokens) <= 4:
            named.append((1 if "year" in tokens else 0, el))
    if named:
        return min(named, key=lambda pair: pair[0])[1]
    headings = [box for _month, box in shown_months(screen)]
    if not headings:
        month, _year = calendar_controls(screen, before)
        headings = [month.box] if month is not None else []
    if not headings:
        return None
    first, last = min(headings, key=lambda b: b.x), max(headings, key=lambda b: b.x)
    row = [
        e
        for e in bare
        if any(abs(e.box.cy - h.cy) <= max(h.height, e.box.height) for h in headings)
    ]
    if not row:
        return None
    row.sort(key=lambda e: e.box.x)
    # Back on the left of the first month, forward on the right of the last; the other
    # may be hidden where the calendar goes no further that way.
    end = row[-1] if forward else row[0]
    if len(row) == 1:  # alone, it must lie past the heading's end, not only its middle
        if forward:
            return end if end.box.x >= last.x + last.width else None
        return end if end.box.x + end.box.width <= first.x else None
    if forward:
        return end if end.box.x > last.cx else None
    return end if end.box.x < first.cx else None


_ARROWS = frozenset({"arrow", "chevron", "caret", "angle", "triangle"})


def _nav_words(name: str) -> set[str]:
    """What a calendar control's name says it does; an arrow icon's direction says where
    it goes ("chevron right": next)."""
    tokens = set(_going(normalise(name).split())) | set(symbol_words(name)[:1])
    if tokens & _ARROWS and "right" in tokens:
        tokens.add("next")
    elif tokens & _ARROWS and "left" in tokens:
        tokens.add("previous")
    return tokens


def _going(words: list[str]) -> list[str]:
    """A month control's words less the month (and year) it goes to, which a name may end
    with ("Go to next month January", "Previous month, November 2026")."""
    while len(words) > 1 and (words[-1] in MONTHS or re.fullmatch(r"\d{4}", words[-1])):
        words = words[:-1]
    return words


def day_cells(elements: Sequence[Element]) -> list[Element]:
    """``elements`` less those that only wrap another showing the same words (a grid
    cell around its day's link), so each day of a calendar is there once."""
    by_words: dict[str, list[Element]] = {}
    for el in elements:
        by_words.setdefault(el.display_name, []).append(el)

    def wraps(el: Element) -> bool:
        area = el.box.width * el.box.height
        return bool(el.display_name) and any(
            other is not el
            and el.box.contains(other.box)
            and other.box.width * other.box.height < area
            for other in by_words[el.display_name]
        )

    return [el for el in elements if not wraps(el)]


def month_step(shown: tuple[int, int], day: date) -> int:
    """How many months forward (+) or back (-) a calendar showing ``shown`` must move."""
    return (day.year - shown[0]) * 12 + (day.month - shown[1])


def _day_of(words: str, today: date) -> date | None:
    when = parse_when(words, today)
    if isinstance(when, datetime):
        return when.date()
    return when if isinstance(when, date) else None


def calendar_target(words: str, day: date, shown: tuple[int, int]) -> date:
    """The day to pick for ``words`` in a calendar that opened on ``shown`` (year, month).

    A date written without a year ("14 October") is the next such day on or after the
    first of the month the calendar opened on: a site's own today, which its calendar
    opens on, decides the year, not this machine's clock. A written year, a relative
    date ("tomorrow") and a day the calendar's month cannot place keep ``day``.
    """
    early, late = _day_of(words, date(2001, 1, 1)), _day_of(words, date(2003, 6, 15))
    if early is None or late is None or early == late:
        return day  # the words carry their year (or are not a date at all)
    if (early.month, early.day) != (late.month, late.day):
        return day  # relative to today ("tomorrow", "next Friday"): keep ours
    found = _day_of(words, date(shown[0], shown[1], 1))
    return found if found is not None else day
