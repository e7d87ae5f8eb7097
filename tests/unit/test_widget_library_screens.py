"""Component libraries' widgets as their real pages draw them, on screens captured from
the widget corpus (tools/corpus/widgets.sh: MUI X, Ant Design, react-datepicker and
Vuetify; tools/capture_screens.py --live): options drawn as plain elements behind click
handlers, and inline calendars named only by the caption of their container."""

from __future__ import annotations

from dataclasses import replace

from screens.decide_build import load

from gofer.decide import OPTION_ROLES, Query, Want, ground, label_of, match_option
from gofer.decide.controls import option_refs, popup_choices
from gofer.decide.dates import calendar_nav, shows_calendar
from gofer.decide.regions import days_near_field, field_frame
from gofer.decide.split import part_of, parts_among, split_fields
from gofer.runtime.calendars import in_shown_calendar
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


def test_mui_time_sections_are_the_parts_of_their_group() -> None:
    # MUI X's sectioned time field: "Hours" and "Minutes" spin buttons in a group named
    # "Start time"; the text beside "Minutes" is the part before it ("hh:")
    screen = load("widget_mui_time")
    minutes = next(e for e in screen.elements if e.name == "Minutes" and e.visible)
    assert minutes.label == "hh:" and part_of(minutes) == "minute"
    fields = split_fields("Start time", screen)
    assert fields is not None
    assert {p: e.name for p, e in fields.parts.items()} == {"hour": "Hours", "minute": "Minutes"}


def test_sections_of_two_named_groups_are_two_fields() -> None:
    # all sections showing: the date's Day/Month/Year and the time's Hours/Minutes sit
    # one under the other, but their groups tell them apart
    screen = load("widget_mui_time")
    shown = replace(
        screen,
        elements=tuple(
            replace(e, visible=True) if e.role == "spinbutton" else e for e in screen.elements
        ),
    )
    for fields in parts_among(shown.elements):
        assert len({e.group for e in fields.members}) == 1


def test_an_inline_calendar_far_below_is_not_a_fields_own() -> None:
    screen = load("widget_mui_form")
    field = next(e for e in screen.elements if e.name == "Event date" and e.tag == "input")
    assert shows_calendar(screen) and not days_near_field(field, screen)
    flatpickr = load("widget_flatpickr")  # its calendar open under Check-in
    check_in = next(e for e in flatpickr.elements if e.name == "Check-in")
    assert days_near_field(check_in, flatpickr)


def test_mui_mobile_picker_opens_by_the_button_in_its_fields_frame() -> None:
    # MUI X's mobile picker: sections over a hidden input (covered), the calendar button
    # at the far end of the field's outlined frame, an inline calendar further down
    page = load("widget_mui_before_dialog")
    field = next(e for e in page.elements if e.name == "Registration deadline" and e.tag == "input")
    assert not field.on_top and not days_near_field(field, page)
    frame = field_frame(field, page)
    buttons = [e for e in page.elements if e.name == "Choose date" and frame.contains(e.box)]
    assert len(buttons) == 1
    # its dialog: the arrows that move it are its own, not the inline calendar's
    dialog = load("widget_mui_dialog")
    before = frozenset(e.ref for e in page.elements if e.visible)
    assert dialog.dialog_open and shows_calendar(dialog, before)
    forward = calendar_nav(dialog, True, before)
    assert forward is not None and forward.name == "Next month" and forward.ref not in before


def test_mui_time_field_shows_its_sections_only_once_focused() -> None:
    # empty and unfocused: the input is covered, its spin buttons are drawn see-through
    # in the frame that takes the click until it has focus (widget_mui_time); they are
    # the field's parts either way, and take the keys typed into them
    page = load("widget_mui_form")
    field = next(e for e in page.elements if e.name == "Start time" and e.tag == "input")
    frame = field_frame(field, page)
    hidden = [e.name for e in page.elements if e.role == "spinbutton" and frame.contains(e.box)]
    assert not field.on_top and hidden == ["Hours", "Minutes"]
    assert not any(e.visible for e in page.elements if e.name in hidden)
    assert any(e.box == frame and e.on_top for e in page.elements if e.ref != field.ref)
    for screen in (page, load("widget_mui_time")):
        fields = split_fields("Start time", screen)
        assert fields is not None
        parts = {p: e.name for p, e in fields.parts.items()}
        assert parts == {"hour": "Hours", "minute": "Minutes"}
