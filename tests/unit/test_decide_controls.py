"""One rule for what a control is called, and the values native date inputs take."""

from __future__ import annotations

from datetime import date, datetime, time

import pytest

from gofer.decide import describe, label_of
from gofer.decide.dates import native_value
from gofer.decide.overlays import covering
from gofer.surfaces.screen import Box, Element, Screen


@pytest.mark.parametrize(
    ("element", "called"),
    [
        (Element("e1", "button", "Save", label="Store", text="Keep"), "Save"),
        (Element("e1", "textbox", "", label="Email", placeholder="you@example.com"), "Email"),
        (Element("e1", "clickable", "", text="Open menu", placeholder="unused"), "Open menu"),
        (Element("e1", "textbox", "", placeholder="Search"), "Search"),
        (Element("e1", "link", "", title="Home"), "Home"),
    ],
)
def test_reports_descriptions_and_covers_call_a_control_the_same(
    element: Element, called: str
) -> None:
    assert element.display_name == label_of(element) == called
    assert describe(element).startswith(f"{element.role} '{called}'")
    # A popup with no heading and no text is named by its first control.
    target = Element("t", "button", "Buy", on_top=False, box=Box(0, 0, 50, 20))
    popup = Element(
        element.ref,
        "button",
        element.name,
        label=element.label,
        text=element.text,
        placeholder=element.placeholder,
        title=element.title,
        box=Box(0, 0, 50, 20),
    )
    screen = Screen("https://example.com", "x", (), (target, popup), dialog_open=True)
    cover = covering(screen, target)
    assert cover is not None and cover.name == called


def test_a_control_with_no_words_is_called_by_its_role_or_ref() -> None:
    bare = Element("e7", "checkbox", "")
    assert (bare.display_name, label_of(bare)) == ("", "checkbox")
    assert describe(bare) == "checkbox 'e7'"


@pytest.mark.parametrize(
    ("input_type", "when", "value"),
    [
        ("date", date(2016, 10, 14), "2016-10-14"),
        ("date", datetime(2016, 10, 14, 20, 4), "2016-10-14"),
        ("month", date(2016, 10, 14), "2016-10"),
        ("week", date(2016, 1, 3), "2015-W53"),
        ("week", date(2016, 10, 14), "2016-W41"),
        ("time", time(20, 4), "20:04"),
        ("datetime-local", date(2016, 10, 14), "2016-10-14T00:00"),
        ("time", date(2016, 10, 14), None),
        ("date", time(20, 4), None),
    ],
)
def test_a_native_input_gets_the_value_in_its_own_format(
    input_type: str, when: date | time | datetime, value: str | None
) -> None:
    assert native_value(input_type, when) == value
