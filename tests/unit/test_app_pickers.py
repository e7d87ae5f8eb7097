"""Date and time pickers on screens captured from a real application (Flask-Admin's
daterangepicker fields): each test is a failure class those pages exposed."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from datetime import date, time

import pytest
from screens.decide_build import load

from gofer.decide import parts_among, says_off
from gofer.flow import parse_flow
from gofer.runtime import RunRequest, RunStatus, RuntimeSettings, StepOutcome, Workspace, run_flow
from gofer.runtime.calendars import OutOfReach, _nearest_year
from gofer.runtime.pickers import _apply_pick, set_split
from gofer.surfaces.base import ActionEffect
from gofer.surfaces.screen import Screen
from gofer.surfaces.testing import FakeSurface

FAST = RuntimeSettings(
    target_timeout_ms=50, settle_timeout_ms=50, wait_timeout_ms=50, change_grace_ms=10
)


@dataclass
class _Run:
    """Just what a picker needs of a run: the page, its screen and acting on it."""

    page: FakeSurface
    settings: RuntimeSettings = FAST
    acts: list[str] = field(default_factory=list)

    async def browser(self) -> FakeSurface:
        return self.page

    async def screen(self) -> Screen:
        return await self.page.snapshot()

    async def act(
        self, path: str, what: str, action: Callable[[], Awaitable[ActionEffect]]
    ) -> ActionEffect:
        self.acts.append(what)
        return await action()


def _ref(screen: Screen, name: str, role: str) -> str:
    return next(e.ref for e in screen.elements if e.name == name and e.role == role)


async def test_a_pickers_button_bar_is_not_its_apply() -> None:
    # The picker's "Apply Cancel" bar is a clickable too; its middle is "Cancel".
    screen = load("app_flaskadmin_event_at")
    page = FakeSurface(screen)
    field_el = next(e for e in screen.elements if e.name == "Event at")
    assert await _apply_pick(_Run(page), "1", field_el)  # type: ignore[arg-type]
    assert page.clicked == [_ref(screen, "Apply", "button")]


async def test_a_year_the_calendars_select_does_not_offer() -> None:
    # Flask-Admin's birthday calendar offers the years 1976 to 2031 only.
    screen = load("app_flaskadmin_birthday")
    year = next(e for e in screen.elements if e.options and "1976" in e.options)
    page = FakeSurface(screen)
    run = _Run(page)
    # The nearest year it offers is shown first (a select may offer more from there) ...
    assert await _nearest_year(run, "1", date(1939, 11, 7), (2026, 12), year)  # type: ignore[arg-type]
    assert (await page.snapshot()).element(year.ref).value == "1976"  # type: ignore[union-attr]
    # ... and from there, a month decades away is out of the calendar's reach,
    with pytest.raises(OutOfReach, match="from 1976 to 2031"):
        await _nearest_year(run, "1", date(1939, 11, 7), (1976, 12), year)  # type: ignore[arg-type]
    # while one just past its last year is left to its arrows.
    assert not await _nearest_year(run, "1", date(2032, 3, 5), (2031, 12), year)  # type: ignore[arg-type]


async def test_time_controls_drawn_anew_after_the_hour_are_found_again() -> None:
    # The picker redraws its hour and minute selects once the hour is set.
    screen = load("app_flaskadmin_event_at")
    fields = next(f for f in parts_among(screen.elements) if f.holds(time(18, 30)))
    hour, minute = fields.parts["hour"], fields.parts["minute"]
    redrawn = replace(
        screen,
        elements=tuple(
            replace(e, ref=e.ref + "x", value="18" if e.ref == hour.ref else e.value)
            if e.ref in (hour.ref, minute.ref)
            else e
            for e in screen.elements
        ),
    )
    page = FakeSurface(screen, after_select={hour.ref: redrawn})
    done = await set_split(_Run(page), "1", fields, time(18, 30))  # type: ignore[arg-type]
    assert done.outcome is StepOutcome.DONE
    now = await page.snapshot()
    assert now.element(minute.ref + "x").value == "30"  # type: ignore[union-attr]


def test_words_that_ask_a_checkbox_unticked() -> None:
    assert says_off("not Is Active", "Is Active")
    assert says_off("unticked", "Newsletter") and says_off("off", "Newsletter")
    assert not says_off("Is Active", "Is Active") and not says_off("yes", "Newsletter")
    assert not says_off("not now", "Newsletter")


async def test_a_ticked_box_asked_unticked_is_unticked() -> None:
    # Flask-Admin's new user form ticks "Is Active" by default.
    screen = load("app_flaskadmin_birthday")
    box = _ref(screen, "Is Active", "checkbox")
    page = FakeSurface(screen)
    steps = [{"choose": "not Is Active", "in": "Is Active"}]
    result = await run_flow(RunRequest(flow=parse_flow(steps)), Workspace.on(page), settings=FAST)
    assert result.status is RunStatus.COMPLETED, result.failure
    assert page.clicked == [box]
    assert (await page.snapshot()).element(box).checked is False  # type: ignore[union-attr]

    page = FakeSurface(screen)
    steps = [{"choose": "Is Active", "in": "Is Active"}]
    result = await run_flow(RunRequest(flow=parse_flow(steps)), Workspace.on(page), settings=FAST)
    assert result.steps[0].outcome is StepOutcome.ALREADY_DONE and page.clicked == []
