"""Which day a calendar pick stands for when the flow's words leave out the year."""

from __future__ import annotations

from datetime import date

import pytest

from gofer.decide.dates import calendar_target, shown_month
from gofer.decide.when import parse_when
from gofer.surfaces.screen import Box, Screen, TextLine

OURS = date(2026, 12, 3)  # this machine's today


def _day(words: str) -> date:
    when = parse_when(words, OURS)
    assert isinstance(when, date)
    return when


@pytest.mark.parametrize(
    ("words", "opened", "want"),
    [
        # The site lives in September 2026: its 14 October is weeks away, not a year.
        ("14 October", (2026, 9), date(2026, 10, 14)),
        ("Oct 14", (2026, 9), date(2026, 10, 14)),
        # A calendar opened on our own month gives what our clock gives.
        ("14 October", (2026, 12), date(2027, 10, 14)),
        ("3 December", (2026, 12), date(2026, 12, 3)),
        # A written year is never moved.
        ("14 October 2027", (2026, 9), date(2027, 10, 14)),
        ("2026-10-14", (2030, 1), date(2026, 10, 14)),
        ("14/10/2026", (2030, 1), date(2026, 10, 14)),
    ],
)
def test_a_date_without_a_year_takes_it_from_the_month_the_calendar_opened_on(
    words: str, opened: tuple[int, int], want: date
) -> None:
    assert calendar_target(words, _day(words), opened) == want


def test_relative_dates_stay_relative_to_our_today() -> None:
    tomorrow = _day("tomorrow")
    assert tomorrow == date(2026, 12, 4)
    assert calendar_target("tomorrow", tomorrow, (2026, 9)) == tomorrow


def _lines(*texts: str) -> Screen:
    lines = tuple(TextLine(t, Box(0, 20 * i, 300, 18)) for i, t in enumerate(texts))
    return Screen("https://example.com/pay", "Pay", lines, ())


def test_a_month_heading_is_a_calendar_but_a_date_in_a_summary_is_not() -> None:
    assert shown_month(_lines("‹", "October 2026", "›")) == (2026, 10)
    assert shown_month(_lines("‹ Sept. 2027 ›")) == (2027, 9)
    # A checkout's trip summary names the month too; no calendar is open there.
    summary = _lines("Delhi → Srinagar", "Wed, 14 October 2026 · 1 adult", "Expiry (MM/YY)")
    assert shown_month(summary) is None
