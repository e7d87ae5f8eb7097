"""Controls named by their kind ("the text field", "the second list", "tabs") on a
captured form whose controls have no labels of their own."""

from __future__ import annotations

from pathlib import Path

import pytest

from gofer.decide import Query, Want, ground
from gofer.decide.kinds import kind_phrase
from gofer.flow import parse_flow
from gofer.runtime import RunRequest, RunStatus, RuntimeSettings, Workspace, run_flow
from gofer.surfaces.testing import FakeSurface

SCREENS = Path(__file__).parent / "screens"
FAST = RuntimeSettings(
    target_timeout_ms=50, settle_timeout_ms=50, wait_timeout_ms=50, change_grace_ms=10
)


def _screen() -> FakeSurface:
    return FakeSurface.captured(SCREENS / "kinds.json")


@pytest.mark.parametrize(
    ("words", "want", "option", "ref"),
    [
        ("the second text field", Want.FIELD, "", "e5"),
        ("text field 2", Want.FIELD, "", "e5"),
        ("the last text field", Want.FIELD, "", "e19"),
        ("the password field", Want.FIELD, "", "e6"),
        ("the search box", Want.FIELD, "", "e3"),
        ("the message box", Want.FIELD, "", "e19"),
        ("the date", Want.CONTROL, "14 October 2026", "e14"),
        ("the time", Want.FIELD, "", "e15"),
        ("the list", Want.CONTROL, "Large", "e7"),
        ("the list", Want.CONTROL, "Blue", "e8"),
        ("the dropdown", Want.CONTROL, "Green", "e8"),
        ("the second dropdown", Want.CONTROL, "", "e8"),
        ("the options", Want.CONTROL, "Express", "e13"),
        ("the checkboxes", Want.CONTROL, "Text me", "e10"),
        ("the list", Want.CONTROL, "Plain box", "e18"),
        ("tabs", Want.CONTROL, "Reviews", "e21"),
        ("the second tab", Want.CLICK, "", "e21"),
        ("the radio buttons", Want.CONTROL, "Express", "e13"),
    ],
)
def test_a_control_named_by_its_kind_is_the_one_that_kind_singles_out(
    words: str, want: Want, option: str, ref: str
) -> None:
    got = ground(Query(words, want, option=option), _screen().screen)
    assert got.element is not None and got.element.ref == ref, got
    assert not got.low_confidence, got.reason


@pytest.mark.parametrize(
    ("words", "option", "ref"),
    [
        ("Size", "Medium", "e7"),
        ("Delivery speed", "Express", "e13"),
        ("Wrapping", "Gift wrap", "e17"),
    ],
)
def test_choose_in_words_that_match_nothing_take_the_one_group_holding_the_option(
    words: str, option: str, ref: str
) -> None:
    got = ground(Query(words, Want.CONTROL, option=option), _screen().screen)
    assert got.element is not None and got.element.ref == ref, got
    assert not got.low_confidence, got.reason


def test_a_kind_with_several_of_it_and_nothing_to_tell_them_apart_is_low_confidence() -> None:
    screen = _screen().screen
    got = ground(Query("the text field", Want.FIELD), screen)
    assert got.low_confidence and "3 text fields" in got.reason
    assert got.element is not None and got.element.ref == "e4"
    assert {c.element.ref for c in got.candidates} >= {"e4", "e5", "e19"}
    none = ground(Query("the list", Want.CONTROL, option="Purple"), screen)
    assert none.low_confidence


def test_an_ordinal_past_the_last_of_its_kind_finds_nothing() -> None:
    got = ground(Query("the fifth dropdown", Want.CONTROL), _screen().screen)
    assert got.element is None and "2 dropdowns" in got.reason


def test_an_element_labelled_with_the_words_beats_their_kind() -> None:
    screen = _screen().screen
    got = ground(Query("List view", Want.CLICK), screen)
    assert got.element is not None and got.element.ref == "e1"
    # "the list" for a choose is the select holding the option, not the "List view" button
    got = ground(Query("the list", Want.CONTROL, option="Small"), screen)
    assert got.element is not None and got.element.ref == "e7"


def test_words_that_are_a_label_are_not_read_as_a_kind() -> None:
    assert kind_phrase("Email", Want.FIELD) is None
    assert kind_phrase("Sort by", Want.CONTROL) is None
    phrase = kind_phrase("the dropdown next to Country", Want.CONTROL)
    assert phrase is not None and (phrase.kind, phrase.rest) == ("dropdown", "country")
    phrase = kind_phrase("the 3rd checkbox", Want.CLICK)
    assert phrase is not None and (phrase.kind, phrase.ordinal) == ("checkbox", 3)


async def test_a_flow_written_with_kinds_fills_the_unlabelled_form() -> None:
    page = _screen()
    flow = parse_flow(
        [
            {"enter": "Ada", "into": "the first text field"},
            {"enter": "Lovelace", "into": "the second text field"},
            {"choose": "Large", "in": "the list"},
            {"choose": "Blue", "in": "the dropdown"},
            {"choose": "Text me", "in": "the checkboxes"},
            {"choose": "Express", "in": "the options"},
            {"choose": "Reviews", "in": "tabs"},
        ]
    )
    result = await run_flow(RunRequest(flow=flow), Workspace.on(page), settings=FAST)
    assert result.status is RunStatus.COMPLETED, result.failure
    assert await page.read_value("e4") == "Ada"
    assert await page.read_value("e5") == "Lovelace"
    assert await page.read_value("e7") == "Large"
    assert await page.read_value("e8") == "Blue"
    assert await page.read_value("e10") == "true"
    assert await page.read_value("e9") == "false"
    assert await page.read_value("e13") == "true"
    assert page.clicked[-1] == "e21"
