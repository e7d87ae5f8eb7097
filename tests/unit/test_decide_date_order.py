"""An all-numeric date whose day and month could swap ("03/04/2027") is read the way
the field writes dates: its own format hint, a date it already shows, the page's
language; never in a fixed order. Screens captured from the widget corpus's real
libraries (tools/corpus/widgets.sh; tools/capture_screens.py --live)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from screens.decide_build import load

from gofer.decide.dates import date_order, page_clock, reread_date
from gofer.surfaces.screen import Element, Screen


def _field(screen: Screen, name: str) -> Element:
    return next(e for e in screen.elements if e.name == name and e.visible)


def test_react_datepicker_placeholder_says_month_first() -> None:
    screen = load("widget_react_datepicker_form")  # placeholder "mm/dd/yyyy", en-US
    field = _field(screen, "Event date")
    assert date_order(field, screen) == "MDY"
    # the placeholder wins over the page's language
    assert date_order(field, replace(screen, lang="en-GB")) == "MDY"
    assert reread_date("07/08/2027", date_order(field, screen)) == date(2027, 7, 8)


def test_ant_design_says_nothing_but_the_page_is_american() -> None:
    screen = load("widget_antd_calendar")  # placeholder "Select date", <html lang="en-US">
    field = _field(screen, "Event date")
    assert field.placeholder == "Select date"
    assert date_order(field, screen) == "MDY"
    assert reread_date("04/03/2027", date_order(field, screen)) == date(2027, 4, 3)


def test_vuetify_on_a_british_page_is_day_first() -> None:
    screen = load("widget_vuetify_form")  # <html lang="en-GB">
    field = _field(screen, "Event date")
    assert date_order(field, screen) == "DMY"
    assert reread_date("05/06/2027", date_order(field, screen)) == date(2027, 6, 5)


def test_a_date_the_field_already_shows_says_its_order() -> None:
    screen = load("widget_vuetify_form")
    field = replace(_field(screen, "Event date"), value="12/25/2026")
    assert date_order(field, replace(screen, lang="")) == "MDY"


@pytest.mark.parametrize(
    ("lang", "order"),
    [("en-US", "MDY"), ("en-GB", "DMY"), ("de-DE", "DMY"), ("fr", "DMY"), ("en", None), ("", None)],
)
def test_the_pages_language(lang: str, order: str | None) -> None:
    screen = load("widget_vuetify_form")
    assert date_order(_field(screen, "Event date"), replace(screen, lang=lang)) == order


def test_only_an_all_numeric_date_is_reread() -> None:
    assert reread_date("14 March 2027", "MDY") is None
    assert reread_date("2027-03-04", "MDY") is None  # year first is never ambiguous
    assert reread_date("13/04/2027", "MDY") is None  # no 13th month: the words stand
    assert reread_date("03/04/2027", None) is None


def test_a_time_is_written_on_the_pages_clock() -> None:
    american = load("widget_react_datepicker_form")  # "Start time" says no clock; en-US
    assert page_clock(american) == "12h"
    assert page_clock(load("widget_vuetify_form")) is None  # en-GB: the 24-hour default
