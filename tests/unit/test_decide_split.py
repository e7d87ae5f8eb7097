"""Dates and times spread over several controls: which part each control holds, which
controls the step's words name together, and what each must show."""

from __future__ import annotations

from datetime import date, datetime, time

import pytest

from gofer.decide.split import (
    other_kind,
    part_of,
    part_option,
    part_shows,
    part_values,
    split_fields,
)
from gofer.surfaces.screen import Box, Element, Screen, TextLine

MONTH_NAMES = (
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


def _select(
    ref: str,
    name: str,
    options: tuple[str, ...],
    x: float,
    *,
    section: str = "",
    y: float = 100,
    value: str = "",
) -> Element:
    return Element(
        ref,
        "combobox",
        name,
        tag="select",
        options=options,
        value=value,
        section=section,
        box=Box(x, y, 80, 24),
    )


@pytest.mark.parametrize(
    ("element", "part"),
    [
        (_select("a", "Day", ("Day", *map(str, range(1, 32))), 0), "day"),
        (_select("a", "", tuple(f"{d:02d}" for d in range(1, 32)), 0), "day"),
        (_select("a", "", ("Month", *MONTH_NAMES), 0), "month"),
        (_select("a", "", tuple(m[:3] for m in MONTH_NAMES), 0), "month"),
        (_select("a", "", ("Year", *map(str, range(2024, 1920, -1))), 0), "year"),
        (_select("a", "", tuple(f"{m:02d}" for m in range(60)), 0), "minute"),
        (_select("a", "", tuple(map(str, range(24))), 0), "hour"),
        (_select("a", "", ("AM", "PM"), 0), "half"),
        (_select("a", "", tuple(map(str, range(1, 13))), 0), "hour_or_month"),
        (_select("a", "Hour", tuple(map(str, range(1, 13))), 0), "hour"),
        (_select("a", "Month", tuple(map(str, range(1, 13))), 0), "month"),
        # words that disagree with the options lose: these are minutes
        (_select("a", "Day", tuple(f"{m:02d}" for m in range(60)), 0), "minute"),
        (Element("a", "textbox", "", tag="input", placeholder="YYYY"), "year"),
        (Element("a", "textbox", "", tag="input", placeholder="MM"), "mm"),
        (Element("a", "spinbutton", "Hour", tag="input", input_type="number"), "hour"),
        (Element("a", "clickable", "", tag="span", text="PM"), "half"),
        # not parts: a whole date or time written as its format, a birthday is not a
        # day, a save button is not a toggle
        (Element("a", "textbox", "", tag="input", placeholder="YYYY-MM-DD"), None),
        (Element("a", "textbox", "Departure time", tag="input", placeholder="HH:MM"), None),
        (Element("a", "textbox", "", tag="input", placeholder="dd/mm/yyyy"), None),
        (Element("a", "textbox", "Birthday", tag="input"), None),
        (Element("a", "button", "Save birthday", tag="button", text="Save birthday"), None),
        (_select("a", "Country", ("France", "Portugal"), 0), None),
        (_select("a", "Guests", tuple(map(str, range(1, 7))), 0), None),
    ],
)
def test_each_control_holds_the_part_its_words_or_options_say(
    element: Element, part: str | None
) -> None:
    assert part_of(element) == part


def _birthday(*, legend: str = "Birthday", year_y: float = 100) -> Screen:
    day = _select("d", "Day", ("Day", *map(str, range(1, 32))), 60, section=legend)
    month = _select("m", "Month", ("Month", *MONTH_NAMES), 200, section=legend)
    year = _select(
        "y", "Year", ("Year", *map(str, range(2024, 1920, -1))), 340, section=legend, y=year_y
    )
    save = Element(
        "b", "button", "Save birthday", tag="button", text="Save birthday", box=Box(0, 160, 120, 30)
    )
    lines = (TextLine(legend, Box(0, 70, 80, 18)), TextLine("Day", Box(20, 103, 30, 18)))
    return Screen("https://example.com/", "Birthday", lines, (day, month, year, save))


def test_a_legend_names_the_day_month_and_year_selects_under_it() -> None:
    fields = split_fields("Birthday", _birthday())
    assert fields is not None
    assert {p: e.ref for p, e in fields.parts.items()} == {"day": "d", "month": "m", "year": "y"}
    assert fields.name == "Birthday" and fields.score == 1.0
    assert fields.holds(date(2016, 10, 14))
    assert not fields.holds(time(20, 4))
    assert part_values(fields, date(2016, 10, 14)) == {"day": 14, "month": 10, "year": 2016}


def test_words_that_name_another_group_or_nothing_find_no_split_fields() -> None:
    assert split_fields("Delivery address", _birthday()) is None
    # a control far from the others is not part of their date
    far = split_fields("Birthday", _birthday(year_y=600))
    assert far is not None and set(far.parts) == {"day", "month"}


def test_a_label_beside_the_first_control_names_the_group() -> None:
    hour = _select("h", "", tuple(map(str, range(1, 13))), 120)
    minute = _select("mi", "", tuple(f"{m:02d}" for m in range(0, 60, 5)), 210)
    half = _select("p", "", ("AM", "PM"), 300)
    lines = (TextLine("Pick-up time", Box(0, 103, 100, 18)),)
    screen = Screen("https://example.com/", "x", lines, (hour, minute, half))
    fields = split_fields("pick-up time", screen)
    assert fields is not None
    assert {p: e.ref for p, e in fields.parts.items()} == {"hour": "h", "minute": "mi", "half": "p"}
    assert part_values(fields, time(20, 5)) == {"hour": 8, "minute": 5, "half": "pm"}
    assert part_values(fields, time(0, 30)) == {"hour": 12, "minute": 30, "half": "am"}
    assert fields.holds(time(20, 5)) and fields.holds(datetime(2016, 1, 14, 9, 0)) is False


def test_a_24_hour_clock_takes_the_hour_as_it_is() -> None:
    hour = _select("h", "Hours", tuple(f"{h:02d}" for h in range(24)), 0, section="Departs")
    minute = _select("mi", "Minutes", tuple(f"{m:02d}" for m in range(60)), 90, section="Departs")
    screen = Screen("https://example.com/", "x", (), (hour, minute))
    fields = split_fields("departs", screen)
    assert fields is not None
    assert part_values(fields, time(20, 4)) == {"hour": 20, "minute": 4}
    assert part_option(hour.options, "hour", 20) == "20"
    assert part_option(minute.options, "minute", 4) == "04"


def test_mm_is_a_month_beside_a_year_and_minutes_beside_an_hour() -> None:
    mm = Element("a", "textbox", "", tag="input", placeholder="MM", box=Box(0, 0, 40, 20))
    yy = Element("b", "textbox", "", tag="input", placeholder="YY", box=Box(50, 0, 40, 20))
    hh = Element("c", "textbox", "", tag="input", placeholder="HH", box=Box(0, 0, 40, 20))
    card = Screen("u", "t", (TextLine("Expiry", Box(0, -30, 50, 18)),), (mm, yy))
    fields = split_fields("Expiry", card)
    assert fields is not None and set(fields.parts) == {"month", "year"}
    assert fields.holds(date(2027, 3, 1), month_only=True)
    assert not fields.holds(date(2027, 3, 14))
    clock = Screen(
        "u",
        "t",
        (TextLine("Start", Box(0, -30, 50, 18)),),
        (hh, Element("d", "textbox", "", tag="input", placeholder="MM", box=Box(50, 0, 40, 20))),
    )
    at = split_fields("Start", clock)
    assert at is not None and set(at.parts) == {"hour", "minute"}


@pytest.mark.parametrize(
    ("shown", "part", "value", "holds"),
    [
        ("October", "month", 10, True),
        ("Oct", "month", 10, True),
        ("10", "month", 10, True),
        ("September", "month", 10, False),
        ("04", "minute", 4, True),
        ("16", "year", 2016, True),
        ("2016", "year", 2016, True),
        ("PM", "half", "pm", True),
        ("p.m.", "half", "pm", True),
        ("AM", "half", "pm", False),
        ("Day", "day", 14, False),
    ],
)
def test_what_a_control_shows_is_read_as_its_part(
    shown: str, part: str, value: int | str, holds: bool
) -> None:
    assert part_shows(shown, part, value) is holds


def _segment(ref: str, part: str, name: str, shown: str, x: float) -> Element:
    # a segment of React Aria's DateField as Streamlit draws it: a contenteditable
    # span with role spinbutton, named "<part>, <field>", showing its placeholder
    return Element(
        ref,
        "spinbutton",
        f"{part}, {name}",
        tag="span",
        editable=True,
        value=shown,
        text=shown,
        box=Box(x, 533, 20, 20),
    )


def test_a_date_never_goes_into_a_times_parts_nor_a_time_into_a_dates() -> None:
    # the page drew its time field first: only the time's parts stand
    time_parts = [
        _segment("h", "hour", "Departure time", "HH", 318),
        _segment("m", "minute", "Departure time", "mm", 341),
    ]
    date_parts = [
        _segment("d", "day", "Departure date", "dd", 318),
        _segment("mo", "month", "Departure date", "mm", 341),
        _segment("y", "year", "Departure date", "yyyy", 367),
    ]
    native = [Element("t", "textbox", "At", tag="input", input_type="time")]
    assert other_kind(date(2027, 10, 14), time_parts + native) == {"h", "m", "t"}
    assert other_kind(time(7, 45), date_parts) == {"d", "mo", "y"}
    assert other_kind(time(7, 45), time_parts) == frozenset()
    assert other_kind(datetime(2027, 10, 14, 7, 45), time_parts + date_parts) == frozenset()


def test_a_date_field_above_a_time_field_are_two_whole_fields_not_one_time() -> None:
    """Gradio's trip form: a date written as YYYY-MM-DD just above a time as HH:MM. Read
    as parts, "07:45" went 45 into the date and 7 into the time."""
    day = Element(
        "d", "textbox", "Departure date", tag="input", placeholder="YYYY-MM-DD",
        box=Box(0, 100, 300, 30),
    )  # fmt: skip
    at = Element(
        "t", "textbox", "Departure time", tag="input", placeholder="HH:MM",
        box=Box(0, 150, 300, 30),
    )  # fmt: skip
    lines = (TextLine("Departure date", Box(0, 80, 120, 18)),)
    screen = Screen("https://example.com/", "x", lines, (day, at))
    assert split_fields("Departure time", screen) is None
    assert split_fields("Departure date", screen) is None
