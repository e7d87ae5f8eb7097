"""Classes the first runs of Panel 1.9 (Bokeh's widgets) and of flatpickr as Bootstrap
sites ship it found, on screens captured from their real pages (tests/e2e/corpus/frameworks
and tools/corpus/widgets): each failed, or said done with a wrong value, before its fix."""

from __future__ import annotations

from dataclasses import replace

from screens.decide_build import load, one

from gofer.decide import Query, Want, ground, shows_choice
from gofer.decide.dates import calendar_controls, calendar_month


def test_bokeh_checkbox_with_no_name_is_named_by_the_text_beside_it() -> None:
    # Panel: the box has no accessible name; "Add travel insurance" is drawn just right of
    # it. Before: "no control on the screen matches 'Add travel insurance'".
    screen = load("app_panel_trip")
    box = next(e for e in screen.elements if e.role == "checkbox" and not e.display_name)
    found = ground(Query("Add travel insurance", Want.CONTROL, kind="choose", option="yes"), screen)
    assert found.element is not None and found.element.ref == box.ref
    assert not found.low_confidence


def test_an_option_marked_selected_under_the_pointer_is_not_chosen_yet() -> None:
    # Panel's multi-choice (Choices.js) marks the row under the pointer aria-selected:
    # after Food was chosen, the list opened again with Hiking "selected" under the
    # pointer, and the second choice was taken as done already (the app got Food only).
    screen = load("app_panel_interests_open")
    hiking = one(screen, role="option", name="Hiking")
    assert hiking.selected
    select = next(e for e in screen.elements if e.role == "combobox" and e.label == "Interests")
    assert shows_choice(screen, select, "Food")
    assert not shows_choice(screen, select, "Hiking")


def test_flatpickr_days_say_the_month_when_its_year_box_did_not_take_a_year() -> None:
    # flatpickr reads its year box on a key, not on a value set at once: after the year
    # was typed, the box said 2017 while the days were still October 2016's. The month was
    # read from the box and the day looked for in the wrong year.
    screen = load("widget_flatpickr")
    _month, year = calendar_controls(screen)
    assert year is not None and year.value == "2016"
    assert calendar_month(screen) == (2016, 10)
    typed = replace(
        screen,
        elements=tuple(
            replace(e, value="2017") if e.ref == year.ref else e for e in screen.elements
        ),
    )
    assert calendar_month(typed) == (2016, 10)
