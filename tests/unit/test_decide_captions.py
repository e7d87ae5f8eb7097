"""Controls told apart by the field or panel they belong to, on screens captured from a
real application (Misago's admin and its composer; ``tools/capture_apps.py``)."""

from __future__ import annotations

from pathlib import Path

from gofer.decide import Query, Want, ground, value_took
from gofer.decide.hints import hint_for, learn_hint
from gofer.decide.reading import read_value
from gofer.flow import parse_flow
from gofer.runtime import (
    RunRequest,
    RunStatus,
    RuntimeSettings,
    StepOutcome,
    Workspace,
    run_flow,
)
from gofer.surfaces.screen import Screen
from gofer.surfaces.testing import FakeSurface

SCREENS = Path(__file__).parent / "screens"
FAST = RuntimeSettings(
    target_timeout_ms=50, settle_timeout_ms=50, wait_timeout_ms=50, change_grace_ms=10
)


def _screen(name: str) -> Screen:
    return FakeSurface.captured(SCREENS / f"{name}.json").screen


def _line_y(screen: Screen, text: str) -> float:
    return next(line.box.y for line in screen.lines if line.text == text)


def test_a_yes_no_pair_is_the_one_under_its_own_caption() -> None:
    # Five Yes/No pairs in two fieldsets; each pair is named only by the caption line
    # above it, and the fieldset's legend is the radio group's name for three of them
    screen = _screen("app_misago_new_category")
    for caption, below in (
        ("Closed category:", "Only members with valid permissions can post in closed categories."),
        ("Threads:", "All threads started in this category will require moderator approval."),
        ("Replies:", "All replies posted in this category will require moderator approval."),
    ):
        got = ground(Query(caption.rstrip(":"), Want.CONTROL, kind="choose", option="Yes"), screen)
        assert got.element is not None and got.element.name == "Yes", caption
        assert _line_y(screen, caption) < got.element.box.y < _line_y(screen, below), caption
        assert not got.low_confidence


def test_a_field_named_last_is_a_field_not_a_position() -> None:
    screen = _screen("app_misago_new_category")
    got = ground(Query("Last reply", Want.FIELD, kind="enter"), screen)
    assert got.element is not None and got.element.name == "Last reply:"


def test_within_a_panels_caption_takes_the_panels_own_button() -> None:
    # "Start thread" opened the composer; the composer's own "Start thread" posts. The
    # page's button is nearer the caption "Start new thread" in pixels.
    screen = _screen("app_misago_composer")
    page = next(e for e in screen.elements if e.name == "chat Start thread")
    got = ground(Query("Start thread", Want.CLICK, within="Start new thread"), screen)
    assert got.element is not None and got.element.ref != page.ref
    assert got.element.name == "Start thread"
    assert got.element.box.y > _line_y(screen, "Start new thread")


def test_a_learned_hint_is_keyed_by_its_within_words() -> None:
    screen = _screen("app_misago_composer")
    page = next(e for e in screen.elements if e.name == "chat Start thread")
    opened = learn_hint(Query("Start thread", Want.CLICK, kind="click"), page, "http://misago.test")
    inside = Query("Start thread", Want.CLICK, within="Start new thread", kind="click")
    assert hint_for(inside, screen, [opened]) is None
    got = ground(inside, screen, [opened])
    assert got.element is not None and got.element.ref != page.ref
    posted = learn_hint(inside, got.element, "http://misago.test")
    assert hint_for(inside, screen, [opened, posted]) == posted
    plain = Query("Start thread", Want.CLICK, kind="click")
    assert hint_for(plain, screen, [posted, opened]) == opened


def test_a_number_is_held_as_a_number_never_as_a_piece_of_another() -> None:
    screen = _screen("app_misago_new_category")
    last = next(e for e in screen.elements if e.name == "Last reply:")
    assert last.value == "0"
    assert not value_took("30", last.value)
    assert not value_took("5", "-5") and not value_took("0", "10")
    assert value_took("30", "30") and value_took("10", "10.0") and value_took("-5", "-5")
    assert value_took("1200", "1,200") and value_took("3", "3 adults")


async def test_choosing_yes_under_a_caption_ticks_that_rows_yes_and_types_the_number() -> None:
    screen = _screen("app_misago_new_category")
    page = FakeSurface(screen)
    flow = [{"choose": "Yes", "in": "Replies"}, {"enter": "30", "into": "Last reply"}]
    result = await run_flow(RunRequest(flow=parse_flow(flow)), Workspace.on(page), settings=FAST)
    assert result.status is RunStatus.COMPLETED, result.failure
    assert [s.outcome for s in result.steps] == [StepOutcome.DONE, StepOutcome.DONE]
    (ticked,) = page.clicked
    yes = next(e for e in screen.elements if e.ref == ticked)
    assert yes.name == "Yes"
    assert _line_y(screen, "Replies:") < yes.box.y < _line_y(screen, "Edits:")
    last = next(e for e in screen.elements if e.name == "Last reply:")
    assert await page.read_value(last.ref) == "30"


def test_a_field_is_read_by_its_label_not_by_the_help_text_under_it() -> None:
    screen = _screen("app_misago_new_category")
    assert read_value("Last reply", screen) == "0"
    assert read_value("the Last reply", screen) == "0"
    assert read_value("Thread age", screen) == "0"
    assert read_value("Archive", screen) == "Don't archive pruned threads"
    assert read_value("Color", screen) is None  # an empty field reads as nothing


def test_a_header_row_ending_in_empty_cells_still_names_its_columns() -> None:
    # Misago's user list: a checkbox column, an avatar column and an actions column
    # have no header
    screen = _screen("app_misago_users")
    (table,) = [g for g in screen.records if g.headers]
    assert table.headers[-2:] == ("", "")
    assert read_value("the Rank of otto", screen) == "Members"
    assert read_value("the Rank of admin", screen) == "Forum team"
    assert read_value("the Posts of mira", screen) == "0"
