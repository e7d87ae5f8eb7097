"""The runtime on date and time widgets through the fake surface: what it does on
the page (which controls it set, which it never presses), judged by the page's state."""

from __future__ import annotations

from gofer.flow import parse_flow
from gofer.runtime import RunRequest, RunStatus, RuntimeSettings, Workspace, run_flow
from gofer.surfaces.screen import Box, Element, Screen, TextLine
from gofer.surfaces.testing import FakeSurface

FAST = RuntimeSettings(
    target_timeout_ms=50, settle_timeout_ms=50, wait_timeout_ms=50, change_grace_ms=10
)


async def test_a_date_is_never_put_into_a_button_that_only_shares_its_words() -> None:
    save = Element(
        "e1",
        "button",
        "Save birthday",
        tag="button",
        text="Save birthday",
        box=Box(0, 100, 120, 30),
    )
    screen = Screen(
        "http://pages.test/birthday",
        "Your birthday",
        (TextLine("Your birthday", Box(0, 0, 200, 30), heading=1),),
        (save,),
    )
    for step in (
        {"choose": "14 October 2016", "in": "Birthday"},
        {"choose": "8:04 PM", "in": "Birthday"},
    ):
        page = FakeSurface(screen)
        result = await run_flow(
            RunRequest(flow=parse_flow([step])), Workspace.on(page), settings=FAST
        )
        assert result.status is RunStatus.FAILED
        assert result.failure is not None and "not a date or time control" in result.failure.reason
        assert page.clicked == []
