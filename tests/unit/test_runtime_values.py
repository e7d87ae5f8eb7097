"""Clicks whose effect is a new value in another field, on a captured screen through the
fake surface: a "Today" or "Now" shortcut, a spinner's arrows. They count as changes;
a click that changes nothing still fails saying so."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from gofer.flow import parse_flow
from gofer.runtime import RunRequest, RunResult, RunStatus, RuntimeSettings, Workspace, run_flow
from gofer.surfaces.base import ActionEffect
from gofer.surfaces.screen import Screen
from gofer.surfaces.testing import FakeSurface

SCREENS = Path(__file__).parent / "screens"
FAST = RuntimeSettings(
    target_timeout_ms=50, settle_timeout_ms=50, wait_timeout_ms=50, change_grace_ms=10
)


def _screen() -> Screen:
    return FakeSurface.captured(SCREENS / "value_shortcuts.json").screen


def _ref(screen: Screen, name: str) -> str:
    return next(e.ref for e in screen.elements if e.display_name == name)


def _holding(screen: Screen, field: str, value: str) -> Screen:
    ref = _ref(screen, field)
    return replace(
        screen,
        elements=tuple(replace(e, value=value) if e.ref == ref else e for e in screen.elements),
    )


async def _click(page: FakeSurface, words: str) -> RunResult:
    request = RunRequest(flow=parse_flow([{"click": words}]))
    return await run_flow(request, Workspace.on(page), settings=FAST)


@pytest.mark.parametrize(
    ("button", "field", "value"),
    [
        ("Today", "Day", "2026-12-03"),
        ("Now", "Time", "19:30"),
        ("More guests", "Guests", "3"),
        ("Fewer guests", "Guests", "1"),
    ],
)
async def test_a_click_that_fills_another_field_is_a_change(
    button: str, field: str, value: str
) -> None:
    screen = _screen()
    page = FakeSurface(screen, after_click={_ref(screen, button): _holding(screen, field, value)})
    assert await page.click(_ref(screen, button)) == ActionEffect(values_changed=True)
    page = FakeSurface(screen, after_click={_ref(screen, button): _holding(screen, field, value)})
    result = await _click(page, button)
    assert result.status is RunStatus.COMPLETED, result.failure
    assert await page.read_value(_ref(screen, field)) == value


async def test_a_click_that_changes_nothing_still_fails() -> None:
    page = FakeSurface(_screen())
    result = await _click(page, "Print")
    assert result.status is RunStatus.FAILED
    assert result.failure is not None and "changed nothing" in result.failure.reason


async def test_a_click_that_shows_the_same_screen_again_is_no_value_change() -> None:
    screen = _screen()
    page = FakeSurface(screen, after_click={_ref(screen, "Print"): screen})
    assert not (await page.click(_ref(screen, "Print"))).values_changed


def test_a_value_change_is_a_change() -> None:
    assert ActionEffect(values_changed=True).changed
    assert not ActionEffect().changed
