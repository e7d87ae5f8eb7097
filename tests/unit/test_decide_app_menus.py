"""A moderation action inside one of several closed menus of a real forum's thread page
(Misago: the thread's options menu beside its Watch, Shortcuts and Posts menus and the
site's own menu), on screens captured from the page (``tools/capture_apps.py``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from gofer.decide import Query, Want, ground
from gofer.decide.controls import pick_action
from gofer.decide.hidden import openers
from gofer.flow import parse_flow
from gofer.runtime import RunRequest, RunStatus, RuntimeSettings, Workspace, run_flow
from gofer.surfaces.screen import Screen
from gofer.surfaces.testing import FakeSurface

SCREENS = Path(__file__).parent / "screens"
FAST = RuntimeSettings(
    target_timeout_ms=50, settle_timeout_ms=50, wait_timeout_ms=50, change_grace_ms=10
)


def _screen(name: str) -> Screen:
    return FakeSurface.captured(SCREENS / f"{name}.json").screen


def _thread_options(screen: Screen) -> str:
    return next(e.ref for e in screen.elements if e.title == "Thread options")


def test_the_contents_menus_are_opened_before_the_sites_chrome() -> None:
    screen = _screen("app_misago_thread")
    # the menus say they open only by their words and glyphs (no aria-expanded)
    quiet = replace(screen, elements=tuple(replace(e, expanded=None) for e in screen.elements))
    for page in (screen, quiet):
        found = openers(page)
        assert found[0].ref == _thread_options(page)
        assert "Open menu" in [e.title for e in found[1:]]


@pytest.mark.parametrize(
    ("words", "control"),
    [
        ("approving the thread", "done Approve"),
        ("approving", "done Approve"),
        ("deleting the thread", "clear Delete"),
        ("pinning the thread globally", "bookmark Pin globally"),
        ("merging it", "call_merge Merge"),
    ],
)
def test_a_verb_form_finds_its_control(words: str, control: str) -> None:
    screen = _screen("app_misago_thread_options")
    got = ground(Query(words, Want.ACTION, kind="stop_before"), screen)
    assert got.element is not None and got.element.name == control
    assert not got.low_confidence
    picked = pick_action(words, screen)
    assert picked is not None and picked[0].name == control


async def test_stop_before_approving_opens_the_threads_menu_and_stops_at_approve() -> None:
    closed = _screen("app_misago_thread")
    opened = _screen("app_misago_thread_options")
    page = FakeSurface(closed, after_click={_thread_options(closed): opened})
    result = await run_flow(
        RunRequest(flow=parse_flow([{"stop_before": "approving the thread"}])),
        Workspace.on(page),
        settings=FAST,
    )
    assert result.status is RunStatus.GATED, result.failure
    assert result.gate is not None and result.gate.label == "done Approve"
    assert page.clicked == [_thread_options(closed)]
