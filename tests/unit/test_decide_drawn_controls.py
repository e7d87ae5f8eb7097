"""Rules for controls drawn apart from what names or holds them, each found on a real
library's page at its first run (the closing note names them): a calendar whose year box
was typed into but not taken (flatpickr), a box whose label is only text beside it
(Bokeh's), a multiple select whose chosen values are chips in its box, a date field that
starts on today's date."""

from __future__ import annotations

from datetime import date

from gofer.decide import ground, shows_choice
from gofer.decide.dates import calendar_month, date_order
from gofer.decide.options import cells_month
from gofer.decide.types import Query, Want
from gofer.surfaces.screen import Box, Element, Screen, TextLine


def _days(year: int, month: int, first_ref: int = 100) -> list[Element]:
    names = date(year, month, 1).strftime("%B")
    return [
        Element(
            f"e{first_ref + d}", "clickable", f"{names} {d}, {year}", box=Box(d * 10, 300, 9, 9)
        )
        for d in range(1, 29)
    ]


def _screen(elements: list[Element], lines: tuple[TextLine, ...] = ()) -> Screen:
    return Screen("http://app.test/", "Trip request", lines, tuple(elements))


def test_the_days_a_calendar_shows_beat_a_year_box_that_did_not_take_the_year() -> None:
    # flatpickr: the year box holds the 2027 just typed, the days are still 2026's
    year_box = Element("e2", "spinbutton", "Year", value="2027", input_type="number")
    months = tuple(date(2026, m, 1).strftime("%B") for m in range(1, 13))
    month = Element("e1", "combobox", "Month", tag="select", value="October", options=months)
    screen = _screen([month, year_box, *_days(2026, 10)])
    assert cells_month(screen.elements) == (2026, 10)
    assert calendar_month(screen) == (2026, 10)
    # without whole dates on the days, the controls say what is shown
    bare = _screen([month, year_box])
    assert calendar_month(bare) == (2027, 10)


def test_a_few_dated_cells_are_not_a_month_grid() -> None:
    assert cells_month(_days(2026, 10)[:5]) is None


def test_a_nameless_box_is_named_by_the_text_just_right_of_it() -> None:
    box = Element("e1", "checkbox", "", box=Box(10, 600, 13, 13), checked=False)
    other = Element("e2", "checkbox", "", box=Box(10, 700, 13, 13), checked=False)
    lines = (
        TextLine("Add travel insurance", Box(26, 600, 110, 14)),
        TextLine("A note far to the right", Box(300, 700, 120, 14)),
    )
    found = ground(
        Query("Add travel insurance", Want.CONTROL, kind="choose", option="yes"),
        _screen([box, other], lines),
    )
    assert found.element is not None and found.element.ref == "e1"
    assert not found.low_confidence


def test_a_chosen_value_shows_as_a_chip_inside_its_select() -> None:
    select = Element("e1", "combobox", "Interests", box=Box(10, 480, 300, 36))
    chip = Element("e2", "button", "Remove item: 'Food'", box=Box(68, 488, 23, 15))
    outside = Element("e3", "button", "Hiking", box=Box(10, 600, 60, 20))
    screen = _screen([select, chip, outside])
    assert shows_choice(screen, select, "Food")
    assert not shows_choice(screen, select, "Hiking")  # shown on the page, not in the select
    assert shows_choice(_screen([], (TextLine("Food", Box(20, 490, 30, 14)),)), select, "Food")


def test_a_field_that_starts_on_today_tells_which_way_it_writes_dates() -> None:
    field = Element("e1", "textbox", "Departure date", value="07/12/2026")
    screen = _screen([field])
    assert date_order(field, screen) is None  # 07 and 12 could each be the month
    assert date_order(field, screen, date(2026, 12, 7)) == "DMY"
    assert date_order(field, screen, date(2026, 7, 12)) == "MDY"
    assert date_order(field, screen, date(2025, 12, 7)) is None  # not today's: unknown
