"""Classes the first runs of Material UI 9.5 (MUI X 9.17), Vuetify 4.3 and Gradio 6.31
found, on screens captured from their trip-request forms (tests/e2e/corpus/kits and
frameworks): each failed, or said done with a wrong value, before its fix."""

from __future__ import annotations

from screens.decide_build import load, one

from gofer.decide import Query, Want, ground, learn_hint, site_of
from gofer.decide.hints import learns
from gofer.decide.split import split_fields


def test_gradio_date_and_time_written_as_formats_are_two_whole_fields() -> None:
    # Gradio: "Departure date" (YYYY-MM-DD) just above "Departure time" (HH:MM). Read as
    # the minutes and hours of one time, "07:45" went 45 into the date and 7 into the time.
    screen = load("app_gradio_trip")
    assert one(screen, placeholder="YYYY-MM-DD").label == "Departure date"
    assert split_fields("Departure time", screen) is None
    assert split_fields("Departure date", screen) is None
    found = ground(Query("Departure time", Want.FIELD, kind="enter"), screen)
    assert found.element is not None and found.element.placeholder == "HH:MM"


def test_mui_date_field_is_its_sections_not_the_input_it_keeps_for_the_form() -> None:
    # MUI X: the input under the sections is aria-hidden and out of the tab order (the
    # value it keeps for the form); typed into through its label it kept nothing. The
    # sections, see-through under the floating label until focused, are the field.
    screen = load("kit_mui_form")
    kept = [e for e in screen.elements if e.tag == "input" and e.label == "Departure date"]
    assert kept and not any(e.visible for e in kept)
    fields = split_fields("Departure date", screen)
    assert fields is not None
    assert {p: e.name for p, e in fields.parts.items()} == {
        "day": "Day",
        "month": "Month",
        "year": "Year",
    }


def test_vuetify_toggle_row_shows_the_chosen_button_by_its_class() -> None:
    # Vuetify's v-btn-toggle: plain buttons, the chosen one marked only by a class
    # (v-btn--active), under a caption tied to nothing
    screen = load("kit_vuetify_form")
    row = {e.name: e.checked for e in screen.elements if e.name in ("Window", "Aisle", "Middle")}
    assert row == {"Window": True, "Aisle": False, "Middle": False}
    found = ground(Query("Seat", Want.CONTROL, kind="choose", option="Aisle"), screen)
    assert found.element is not None and found.element.name == "Aisle"


def test_a_hint_for_a_control_with_no_name_is_not_learned_nor_used() -> None:
    # Vuetify's multiple v-select after one pick: its frame (a combobox with no name, like
    # every other select's) was remembered for "Interests", and the next pick opened
    # the first nameless combobox on the page: Cabin class.
    screen = load("kit_vuetify_interests_chosen")
    query = Query("Interests", Want.CONTROL, kind="choose", option="Hiking")
    frames = [e for e in screen.elements if e.role == "combobox" and not e.name]
    assert len(frames) > 1
    assert not learns(query, frames[-1])
    stale = learn_hint(query, frames[-1], site_of(screen.url))
    found = ground(query, screen, [stale])
    assert found.element is not None
    assert "Cabin class" not in (found.element.name, found.element.text)
    assert "Interests" in (found.element.name + " " + found.element.text)


def test_dash_checklist_of_one_is_its_checkbox_and_a_choice_drawn_twice_counts_once() -> None:
    # Dash's checklists: a listbox of ARIA options, each wrapping its own checkbox. "yes
    # in Add travel insurance" looked for an option "yes" in the list; "Extra legroom in
    # Extras" found it held twice (option and checkbox) and named neither.
    screen = load("app_dash_trip")
    tick = ground(Query("Add travel insurance", Want.CONTROL, kind="choose", option="yes"), screen)
    assert tick.element is not None and tick.element.role == "checkbox"
    assert tick.element.name == "Add travel insurance" and not tick.low_confidence
    pick = ground(Query("Extras", Want.CONTROL, kind="choose", option="Extra legroom"), screen)
    assert pick.element is not None and pick.element.role == "checkbox"
    assert pick.element.name == "Extra legroom"


def test_naive_ui_select_is_the_box_under_its_caption_that_takes_a_click() -> None:
    # Naive UI's select without a filter: a focusable div showing "Pick one", no role,
    # no input, under a form item's caption tied to it by nothing
    screen = load("kit_naiveui_form")
    found = ground(Query("Cabin class", Want.CONTROL, kind="choose", option="Business"), screen)
    assert found.element is not None and found.element.name == "Pick one"
    assert found.element.role == "clickable"
