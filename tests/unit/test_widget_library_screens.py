"""Component libraries' widgets as their real pages draw them, on screens captured from
the widget corpus (tools/corpus/widgets.sh: MUI X, Ant Design, react-datepicker and
Vuetify; tools/capture_screens.py --live): options drawn as plain elements behind click
handlers, and inline calendars named only by the caption of their container."""

from __future__ import annotations

from screens.decide_build import load

from gofer.decide import OPTION_ROLES, Query, Want, ground, label_of, match_option
from gofer.decide.controls import option_refs, popup_choices
from gofer.runtime.pickers import in_shown_calendar
from gofer.surfaces.screen import Screen


def _names(elements: list[object]) -> list[str]:
    return [label_of(e) for e in elements]  # type: ignore[arg-type]


def _before(screen: Screen) -> set[str]:
    return option_refs(screen, OPTION_ROLES | {"clickable"})


def test_ant_design_select_options_are_role_less_divs() -> None:
    # Ant Design's Select: the role=option listbox is a zero-size copy for screen
    # readers; what a person sees and clicks are divs with a click handler.
    opened = load("widget_antd_select")
    copies = [e for e in opened.elements if e.role == "option"]
    assert copies and not any(e.visible for e in copies)
    choices = popup_choices(opened, _before(load("widget_antd_form")))
    names = _names(choices)
    for option in ("Conference", "Workshop", "Meetup", "Webinar"):
        assert option in names
    best = match_option("Meetup", names)
    assert best is not None and names[best[0]] == "Meetup"
    # the closed form's own clickables (the select itself, the date fields) are no choice
    assert "Choose a category" not in names


def test_late_suggestions_behind_one_handler_on_their_list() -> None:
    # react-datepicker's page: suggestions are plain divs, one click handler on their
    # list, a pointer cursor only on hover; each is a control of its own.
    before = _before(load("widget_datepicker_form"))
    shown = load("widget_datepicker_host")
    choices = popup_choices(shown, before)
    names = _names(choices)
    assert {"Ada Lovelace", "Grace Hopper", "Margaret Hamilton"} <= set(names)
    best = match_option("Grace Hopper", names)
    assert best is not None and names[best[0]] == "Grace Hopper"
    # a step that types (enter) takes only suggestions with an option's role
    assert not any(e.role == "clickable" for e in popup_choices(shown, before, drawn=False))


def test_a_clickable_already_showing_is_no_choice() -> None:
    form = load("widget_antd_form")
    assert popup_choices(form, _before(form)) == []


def _calendar_target(name: str, words: str) -> None:
    screen = load(name)
    query = Query(words, Want.CONTROL, kind="choose", option="20 February 2027")
    found = ground(query, screen)
    el = found.element
    assert el is not None and el.role != "spinbutton", found.reason
    assert el.group == words
    assert not found.low_confidence, found.reason
    assert in_shown_calendar(el, found.evidence, screen)


def test_mui_static_calendar_is_named_by_its_group_caption() -> None:
    # "Rehearsal day" labels the group around MUI X's static calendar; the page's
    # sectioned date fields have "Day" spin buttons, which are not what it names.
    _calendar_target("widget_mui_form", "Rehearsal day")


def test_vuetify_calendar_is_named_by_the_caption_before_it() -> None:
    # a plain text just before the date picker, no aria at all
    _calendar_target("widget_vuetify_calendar", "Rehearsal day")


def test_react_datepicker_inline_calendar_is_named_by_its_group() -> None:
    _calendar_target("widget_datepicker_form", "Preferred day")


def test_a_field_is_never_taken_for_an_inline_calendar() -> None:
    screen = load("widget_mui_form")
    found = ground(Query("Event name", Want.CONTROL, kind="choose"), screen)
    assert found.element is not None
    assert not in_shown_calendar(found.element, found.evidence, screen)
