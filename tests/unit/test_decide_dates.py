"""The pure date rules the runtime acts on: reading what a flow wrote, the format a
field asks for, reading a field back, and finding one's way around an open calendar."""

from __future__ import annotations

from datetime import date, datetime, time

import pytest

from gofer.decide.dates import (
    calendar_controls,
    calendar_month,
    calendar_nav,
    day_cells,
    format_date,
    format_hint,
    format_time,
    may_open_picker,
    month_of,
    month_step,
    native_value,
    shows_calendar,
    shows_date,
    shows_time,
    time_hint,
)
from gofer.decide.when import parse_when
from gofer.surfaces.screen import Box, Element, Screen, TextLine

TODAY = date(2026, 9, 20)


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ("14 October 2016", date(2016, 10, 14)),
        ("2016-01-14", date(2016, 1, 14)),
        ("01/14/2016", date(2016, 1, 14)),
        ("8:04 PM", time(20, 4)),
        ("20:04", time(20, 4)),
        ("2016-01-14 20:04", datetime(2016, 1, 14, 20, 4)),
    ],
)
def test_every_way_a_flow_writes_a_date_or_time_reads_the_same(
    written: str, meant: date | time
) -> None:
    assert parse_when(written, TODAY) == meant


@pytest.mark.parametrize(
    ("written", "month"),
    [
        ("October 2016", date(2016, 10, 1)),
        ("2016-10", date(2016, 10, 1)),
        ("10/2016", date(2016, 10, 1)),
        ("13/2016", None),
        ("14 October 2016", None),
    ],
)
def test_a_month_without_a_day(written: str, month: date | None) -> None:
    assert month_of(written) == month


@pytest.mark.parametrize(
    ("input_type", "when", "value"),
    [
        ("date", date(2016, 10, 14), "2016-10-14"),
        ("date", datetime(2016, 10, 14, 20, 4), "2016-10-14"),
        ("time", time(20, 4), "20:04"),
        ("time", date(2016, 10, 14), None),
        ("datetime-local", datetime(2016, 1, 14, 20, 4), "2016-01-14T20:04"),
        ("datetime-local", date(2016, 1, 14), "2016-01-14T00:00"),
        ("month", date(2016, 10, 14), "2016-10"),
        ("week", date(2016, 1, 14), "2016-W02"),
        ("date", time(20, 4), None),
    ],
)
def test_native_inputs_take_their_own_format(
    input_type: str, when: date | time, value: str | None
) -> None:
    assert native_value(input_type, when) == value


def _field(**kw: str) -> Element:
    return Element(
        "f",
        "textbox",
        kw.pop("name", "Date"),
        tag="input",
        editable=True,
        box=Box(100, 100, 160, 24),
        **kw,
    )  # type: ignore[arg-type]


def test_a_format_hint_comes_from_the_field_or_the_text_beside_or_under_it() -> None:
    empty = Screen("u", "t", (), ())
    assert format_hint(_field(placeholder="mm/dd/yyyy"), empty) == "MM/DD/YYYY"
    assert format_hint(_field(title="Use YYYY-MM-DD"), empty) == "YYYY-MM-DD"
    assert format_hint(_field(placeholder="Pick a date"), empty) is None
    assert format_hint(_field(placeholder="mm/mm/yyyy"), empty) is None
    beside = Screen("u", "t", (TextLine("Format: DD/MM/YYYY", Box(270, 102, 140, 18)),), ())
    under = Screen("u", "t", (TextLine("dd.mm.yyyy", Box(100, 130, 80, 16)),), ())
    far = Screen("u", "t", (TextLine("dd.mm.yyyy", Box(100, 400, 80, 16)),), ())
    assert format_hint(_field(), beside) == "DD/MM/YYYY"
    assert format_hint(_field(), under) == "DD.MM.YYYY"
    assert format_hint(_field(), far) is None


@pytest.mark.parametrize(
    ("hint", "written"),
    [
        ("MM/DD/YYYY", "10/04/2016"),
        ("DD/MM/YYYY", "04/10/2016"),
        ("YYYY-MM-DD", "2016-10-04"),
        ("DD.MM.YY", "04.10.16"),
        ("D/M/YYYY", "4/10/2016"),
    ],
)
def test_a_date_is_written_in_the_hinted_format_and_read_back_in_it(
    hint: str, written: str
) -> None:
    day = date(2016, 10, 4)
    assert format_date(day, hint) == written
    assert shows_date(written, day, hint)
    assert not shows_date(written, date(2016, 4, 10), hint)


def test_reading_a_field_back_without_a_hint_takes_any_real_reading() -> None:
    assert shows_date("10/14/2016", date(2016, 10, 14))
    assert shows_date("14.10.2016", date(2016, 10, 14))
    assert shows_date("Fri Oct 14 2016", date(2016, 10, 14))
    assert shows_date("2016-10-14 to 2016-10-18", date(2016, 10, 18))
    assert not shows_date("2016-10-15", date(2016, 10, 14))
    assert not shows_date("", date(2016, 10, 14))


@pytest.mark.parametrize(
    ("shown", "at", "holds"),
    [
        ("20:04", time(20, 4), True),
        ("8:04 PM", time(20, 4), True),
        ("08h04", time(20, 4), False),
        ("8:04 pm", time(20, 4), True),
        ("12:30 AM", time(0, 30), True),
        ("8:04 AM", time(20, 4), False),
    ],
)
def test_a_time_is_read_back_on_either_clock(shown: str, at: time, holds: bool) -> None:
    assert shows_time(shown, at) is holds


def test_a_time_field_says_which_clock_it_keeps() -> None:
    assert time_hint(_field(placeholder="hh:mm am/pm")) == "12h"
    assert time_hint(_field(placeholder="HH:MM")) == "24h"
    assert time_hint(_field()) is None
    assert format_time(time(20, 4), "12h") == "8:04 PM"
    assert format_time(time(0, 5), "12h") == "12:05 AM"
    assert format_time(time(20, 4), "24h") == "20:04"


@pytest.mark.parametrize(
    ("shown", "day", "steps"),
    [
        ((2016, 10), date(2016, 11, 2), 1),
        ((2016, 10), date(2016, 1, 14), -9),
        ((2016, 12), date(2017, 1, 1), 1),
        ((2016, 1), date(2015, 12, 31), -1),
        ((2016, 10), date(2016, 10, 31), 0),
        ((2016, 10), date(2018, 10, 1), 24),
    ],
)
def test_how_far_a_calendar_must_move(shown: tuple[int, int], day: date, steps: int) -> None:
    assert month_step(shown, day) == steps


def _button(ref: str, name: str, x: float, y: float = 40, **kw: object) -> Element:
    return Element(ref, "button", name, tag="button", text=name, box=Box(x, y, 24, 24), **kw)  # type: ignore[arg-type]


def _month(
    year: int, month: int, *, heading: bool = True, arrows: tuple[str, str] = ("", "")
) -> Screen:
    title = f"{date(year, month, 1):%B %Y}"
    lines = (TextLine(title, Box(100, 42, 120, 20)),) if heading else ()
    days = tuple(_button(f"d{d}", str(d), 40 * (d % 7), 80 + 30 * (d // 7)) for d in range(1, 31))
    prev, nxt = _button("prev", arrows[0], 20), _button("next", arrows[1], 300)
    return Screen("u", "t", lines, (prev, nxt, *days))


def test_an_open_calendar_is_a_month_and_its_grid_not_a_date_in_the_text() -> None:
    assert shows_calendar(_month(2016, 10))
    assert calendar_month(_month(2016, 10)) == (2016, 10)
    text_only = Screen(
        "u",
        "t",
        (TextLine("October 2026", Box(0, 0, 200, 20)),),
        (_button("b", "Continue", 0, 100),),
    )
    assert calendar_month(text_only) == (2026, 10)
    assert not shows_calendar(text_only)
    summary = Screen("u", "t", (TextLine("Flight on 14 October 2026", Box(0, 0, 200, 20)),), ())
    assert calendar_month(summary) is None
    # what was on the page before the calendar opened is not its grid
    before = frozenset(f"d{d}" for d in range(1, 31))
    assert not shows_calendar(_month(2016, 10), before)
    # a heading in two pieces with no space between ("October" "2016") still reads
    run_on = Screen("u", "t", (TextLine("October2016", Box(100, 42, 120, 20)),), ())
    assert calendar_month(run_on) == (2016, 10)


def test_the_arrows_are_found_by_their_words_or_at_the_ends_of_the_heading_row() -> None:
    named = _month(2016, 10, arrows=("Prev", "Next"))
    assert calendar_nav(named, True) is not None
    assert calendar_nav(named, True).ref == "next"  # type: ignore[union-attr]
    assert calendar_nav(named, False).ref == "prev"  # type: ignore[union-attr]
    symbols = _month(2016, 10, arrows=("‹", "›"))
    assert calendar_nav(symbols, True).ref == "next"  # type: ignore[union-attr]
    bare = _month(2016, 10)
    assert calendar_nav(bare, True).ref == "next"  # type: ignore[union-attr]
    assert calendar_nav(bare, False).ref == "prev"  # type: ignore[union-attr]
    # a month control is taken before a year one
    years = Screen("u", "t", named.lines, (_button("ny", "Next year", 330), *named.elements))
    assert calendar_nav(years, True).ref == "next"  # type: ignore[union-attr]
    assert calendar_nav(Screen("u", "t", (), ()), True) is None


def test_month_and_year_controls_inside_the_calendar() -> None:
    months = (
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    )
    month = Element("m", "combobox", "Month", tag="select", options=months, value="October")
    year_box = Element(
        "y", "spinbutton", "Year", tag="input", input_type="number", value="2016", editable=True
    )
    page_select = Element(
        "p", "combobox", "Country", tag="select", value="Portugal", options=("France", "Portugal")
    )
    screen = Screen("u", "t", (), (page_select, month, year_box))
    assert calendar_controls(screen) == (month, year_box)
    assert calendar_month(screen) == (2016, 10)
    assert calendar_controls(screen, frozenset({"m"})) == (None, year_box)


def test_a_grid_cell_around_its_day_link_counts_once() -> None:
    cell = Element("td", "clickable", "14", tag="td", box=Box(0, 0, 40, 30))
    link = Element("a", "link", "14", tag="a", box=Box(2, 2, 30, 20))
    other = Element("td2", "clickable", "15", tag="td", box=Box(40, 0, 40, 30))
    assert day_cells([cell, link, other]) == [link, other]


@pytest.mark.parametrize(
    ("element", "may"),
    [
        (_button("b", "Open calendar", 0), True),
        (_button("b", "Choose date", 0), True),
        (_button("b", "", 0), True),  # an icon only
        (_button("b", "📅", 0), True),
        (_button("b", "Fri 14 Oct 2016", 0), True),
        (_button("b", "Departure", 0, expanded=False), True),
        (_button("b", "Save birthday", 0), False),
        (_button("b", "Search flights", 0), False),
    ],
)
def test_only_a_control_that_may_open_a_picker_is_pressed_for_a_date(
    element: Element, may: bool
) -> None:
    assert may_open_picker(element) is may
