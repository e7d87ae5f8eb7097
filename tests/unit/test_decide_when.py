"""Reading dates and times as people write them."""

from __future__ import annotations

from datetime import date, datetime, time

import pytest

from gofer.decide import parse_when
from gofer.decide.when import date_parts

TODAY = date(2026, 10, 1)  # a Thursday


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("14 October", date(2026, 10, 14)),
        ("Oct 14", date(2026, 10, 14)),
        ("14/10/2026", date(2026, 10, 14)),
        ("2026-10-14", date(2026, 10, 14)),
        ("14th October 2026", date(2026, 10, 14)),
        ("Wednesday, 14 October 2026", date(2026, 10, 14)),
        ("1 October", date(2026, 10, 1)),  # today counts as "on or after today"
        ("30 September", date(2027, 9, 30)),  # already past this year: next year
        ("29 Feb", date(2028, 2, 29)),
        ("today", date(2026, 10, 1)),
        ("tomorrow", date(2026, 10, 2)),
        ("day after tomorrow", date(2026, 10, 3)),
        ("next Friday", date(2026, 10, 2)),
        ("next Thursday", date(2026, 10, 8)),
        ("Thursday", date(2026, 10, 1)),
        ("in 3 days", date(2026, 10, 4)),
        ("in two weeks", date(2026, 10, 15)),
        ("10:30", time(10, 30)),
        ("10.30 pm", time(22, 30)),
        ("6pm", time(18, 0)),
        ("14 Oct at 6pm", datetime(2026, 10, 14, 18, 0)),
        ("tomorrow at 9am", datetime(2026, 10, 2, 9, 0)),
    ],
)
def test_parse_when(text: str, expected: object) -> None:
    assert parse_when(text, TODAY) == expected


@pytest.mark.parametrize("text", ["", "Economy", "Passenger 2", "1 Adult", "October", "6E 2031"])
def test_words_that_are_not_a_date_or_time(text: str) -> None:
    assert parse_when(text, TODAY) is None


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("Wednesday, 14 October 2026", (14, 10, 2026)),
        ("14 Oct 2026", (14, 10, 2026)),
        ("Oct 14th", (14, 10, None)),
        ("2026-10-14", (14, 10, 2026)),
        ("14/10/26", (14, 10, 2026)),
        ("14", (14, None, None)),
        ("Next month", (None, None, None)),
    ],
)
def test_date_parts(text: str, parts: tuple[int | None, int | None, int | None]) -> None:
    assert date_parts(text) == parts


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-07-03", date(2026, 7, 3)),
        ("2026/07/03", date(2026, 7, 3)),
        ("2026.12.01", date(2026, 12, 1)),
        ("03/07/2026", date(2026, 7, 3)),
    ],
)
def test_a_year_written_first_reads_year_month_day(text: str, expected: date) -> None:
    assert parse_when(text, date(2026, 9, 20)) == expected


def test_iso_dates_are_year_month_day_with_an_optional_time() -> None:
    today = date(2026, 1, 10)
    assert parse_when("2026-10-04", today) == date(2026, 10, 4)
    assert parse_when(" 2026-10-04T09:30 ", today) == datetime(2026, 10, 4, 9, 30)
    assert parse_when("2026-10-04 21:05", today) == datetime(2026, 10, 4, 21, 5)
    assert parse_when("2026-02-30", today) is None  # no such day
