"""Popups a step opens, on screens captured from the popup corpus (tools/corpus/popups.sh:
tippy.js prompts that open when a field gets focus; tools/capture_screens.py --live)."""

from __future__ import annotations

from dataclasses import replace

from screens.decide_build import load

from gofer.decide import Query, Want, ground, label_of
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
