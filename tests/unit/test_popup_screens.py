"""Popups a step opens and lists that scroll in their own box, on screens captured from
the popup corpus (tools/corpus/popups.sh: tippy.js prompts that open when a field gets
focus, Ant Design's Select with forty countries; tools/capture_screens.py --live)."""

from __future__ import annotations

from dataclasses import replace

from screens.decide_build import load

from gofer.decide import OPTION_ROLES, Query, Want, ground, label_of, match_option, value_took
from gofer.decide.controls import option_refs, popup_choices
from gofer.decide.overlays import dismisser, opened_by


def test_a_prompt_opened_by_a_fields_focus_is_closed_with_no_thanks() -> None:
    # tippy.js: focusing the email field opens an offer with two buttons and keeps the
    # field read-only until it is answered
    before, after = load("popup_tippy_form"), load("popup_tippy_prompt")
    field = ground(Query("Email address", Want.FIELD), after).element
    assert field is not None and not field.editable
    cover = opened_by(before, after, field)
    assert cover is not None
    assert cover.name == "Get 10% off your first order: join our newsletter?"
    assert sorted(label_of(e) for e in cover.controls) == ["No thanks", "Subscribe"]
    closer = dismisser(cover)
    assert closer is not None and label_of(closer) == "No thanks"


def test_nothing_opened_is_no_popup() -> None:
    form = load("popup_tippy_form")
    field = ground(Query("Email address", Want.FIELD), form).element
    assert field is not None
    assert opened_by(form, form, field) is None


def test_a_prompt_that_only_consents_is_never_answered() -> None:
    # with its refusing control gone, only "Subscribe" is left: no way out that consents
    # to nothing, so nothing is pressed
    before, after = load("popup_tippy_form"), load("popup_tippy_prompt")
    field = ground(Query("Email address", Want.FIELD), after).element
    assert field is not None
    kept = tuple(e for e in after.elements if label_of(e) != "No thanks")
    assert opened_by(before, replace(after, elements=kept), field) is None


_POPUP_ROLES = OPTION_ROLES | {"radio", "tab", "menuitemcheckbox"}


def _choices(name: str) -> list[str]:
    before = option_refs(load("popup_antd_form"), _POPUP_ROLES | {"clickable"})
    return [label_of(e) for e in popup_choices(load(name), before, _POPUP_ROLES)]


def test_rows_clipped_by_a_dropdowns_scroll_box_are_not_covered() -> None:
    # Ant Design's Select with every row drawn: forty rows in a box that shows eight;
    # those below its edge are out of sight, not under something
    opened = load("popup_antd_origin_open")
    names = _choices("popup_antd_origin_open")
    assert len(names) == 40
    rows = [e for e in opened.elements if label_of(e) in ("Croatia", "Norway")]
    assert rows and all(e.visible and e.on_top for e in rows)
    best = match_option("Norway", names)
    assert best is not None and names[best[0]] == "Norway"


def test_a_virtual_list_draws_only_the_rows_in_sight() -> None:
    # the library's virtual list: the 35th country is not on the page until the list is
    # scrolled, so choose must scroll on rather than take a near name
    names = _choices("popup_antd_country_open")
    assert "Albania" in names and len(names) < 20
    assert match_option("North Macedonia", names) is None


def test_an_empty_field_never_holds_a_phone_number() -> None:
    # the prompt kept the phone field read-only: it shows nothing, which no number's
    # digits end with (a "done" with the number never sent)
    phone = ground(Query("Phone", Want.FIELD), load("popup_tippy_prompt")).element
    assert phone is not None and phone.value == ""
    assert not value_took("+44 20 7946 0958", phone.value)
    assert not value_took("+44 20 7946 0958", "0958")
    # a country code the page adds, or drops
    assert value_took("20 7946 0958", "+44 20 7946 0958")
    assert value_took("+44 20 7946 0958", "20 7946 0958")
