"""A form sent back with field errors, on captured screens: the errors are named by
their fields, and the click that sent the form fails saying them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from gofer.decide.feedback import form_errors, is_error_text
from gofer.flow import parse_flow
from gofer.runtime import RunRequest, RunStatus, RuntimeSettings, Workspace, run_flow
from gofer.surfaces.screen import Box, Element, Screen, TextLine
from gofer.surfaces.testing import FakeSurface

SCREENS = Path(__file__).parent / "screens"
FAST = RuntimeSettings(
    target_timeout_ms=50, settle_timeout_ms=50, wait_timeout_ms=50, change_grace_ms=10
)


def _load(name: str) -> Screen:
    return FakeSurface.captured(SCREENS / f"{name}.json").screen


def test_the_errors_of_a_form_sent_back_are_named_by_their_fields() -> None:
    errors = form_errors(_load("signup"), _load("signup_errors"), reloaded=True)
    assert errors == ["Email: Enter a valid email address.", "Username: This field is required."]


def test_the_same_page_twice_shows_no_new_errors_unless_it_was_sent_again() -> None:
    shown = _load("signup_errors")
    assert form_errors(shown, shown) == []
    assert len(form_errors(shown, shown, reloaded=True)) == 2


def test_a_page_without_fields_is_not_the_form_again() -> None:
    done = Screen(
        "http://pages.test/saved",
        "Saved",
        (TextLine("Enter a valid email next time", Box(0, 0, 300, 20)),),
        (),
    )
    assert form_errors(_load("signup"), done) == []


def test_words_beside_a_field_that_just_appeared_explain_it_and_are_no_error() -> None:
    name = Element("e1", "textbox", "Name", tag="input", editable=True, box=Box(10, 40, 200, 20))
    passport = Element(
        "e2", "textbox", "Passport number", tag="input", editable=True, box=Box(10, 100, 200, 20)
    )
    before = Screen(
        "http://pages.test/p", "Passengers", (TextLine("Name", Box(10, 10, 100, 20)),), (name,)
    )
    after = replace(
        before,
        elements=(name, passport),
        lines=(
            *before.lines,
            TextLine("Must match the number in your passport", Box(10, 125, 300, 18)),
        ),
    )
    assert form_errors(before, after) == []
    invalid = replace(after, elements=(name, replace(passport, invalid=True)))
    assert form_errors(before, invalid) == [
        "Passport number: Must match the number in your passport"
    ]


def test_error_words() -> None:
    for text in (
        "This field is required.",
        "Enter a valid date",
        "Please enter your email",
        "Passwords do not match",
        "Username is already taken",
        "Must be 8 characters",
        "There were 2 problems with your submission",
    ):
        assert is_error_text(text), text
    for text in (
        "Username",
        "Create account",
        "We will never share your email",
        "Required fields are marked *" * 10,
    ):
        assert not is_error_text(text), text


async def test_a_click_whose_form_comes_back_with_errors_fails_with_them() -> None:
    before = _load("signup")
    button = next(e for e in before.elements if e.name == "Create account")
    page = FakeSurface(before, after_click={button.ref: _load("signup_errors")})
    flow = parse_flow([{"enter": "asha@example", "into": "Email"}, {"click": "Create account"}])
    result = await run_flow(RunRequest(flow=flow), Workspace.on(page), settings=FAST)
    assert result.status is RunStatus.FAILED
    assert result.failure is not None and result.failure.path == "1"
    assert result.failure.reason == (
        "clicking 'Create account' brought the form back with errors: "
        "Email: Enter a valid email address.; Username: This field is required."
    )
    assert page.clicked == [button.ref]


async def test_a_tab_that_stays_unselected_after_its_click_fails_the_choose() -> None:
    page = FakeSurface.captured(SCREENS / "kinds.json")
    dead = page.screen  # the click shows the same screen: the tab did not take it
    page.after_click = {"e21": dead}
    result = await run_flow(
        RunRequest(flow=parse_flow([{"choose": "Reviews", "in": "tabs"}])),
        Workspace.on(page),
        settings=FAST,
    )
    assert result.status is RunStatus.FAILED
    assert result.failure is not None
    assert result.failure.reason == "clicked 'Reviews', but it is still not selected"
    live = FakeSurface.captured(SCREENS / "kinds.json")
    result = await run_flow(
        RunRequest(flow=parse_flow([{"choose": "Reviews", "in": "tabs"}])),
        Workspace.on(live),
        settings=FAST,
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    shown = await live.snapshot()
    assert [e.ref for e in shown.elements if e.role == "tab" and e.selected] == ["e21"]
