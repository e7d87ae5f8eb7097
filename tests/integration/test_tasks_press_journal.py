"""A control that cannot be undone, pressed under ``allow_destructive`` with no approval
asked, is journaled before it is pressed: a turn stopped right after the press (a
restart) reruns without pressing it again, judged by the requests a real server got."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from gofer.runtime.workspace_runner import WorkspaceRunner
from gofer.surfaces import BrowserEngine
from gofer.tasks import Tasks

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.browser]

ACCOUNT = """<h1>Your account</h1>
<button onclick="location.href='/deleted'">Delete account</button>"""


@pytest.mark.parametrize("store_kind", ["sqlite"])
async def test_an_allowed_irreversible_press_is_not_pressed_again_by_the_rerun(
    engine: BrowserEngine, site: Any, reopen: Callable[[], Any]
) -> None:
    home = site.add("/", ACCOUNT)
    site.add("/deleted", "<h1>Account deleted</h1>")
    flow = {
        "steps": [
            {"browse": home},
            {"click": "Delete account"},
            {"wait": {"shows": "a page that never comes"}, "timeout_ms": 60_000},
        ]
    }
    allowed = {"flow": flow, "constraints": {"allow_destructive": True}}
    async with (
        reopen() as db,
        WorkspaceRunner(engine=engine) as runner,
        Tasks(runner, store=db) as tasks,
    ):
        view = await tasks.start_task(allowed)
        async with asyncio.timeout(30):
            while "/deleted" not in site.hits:
                await asyncio.sleep(0.05)  # the server is on its own thread: no event
        # The process stops (a restart) right after the press, its turn unfinished.
    assert site.hits.count("/deleted") == 1
    async with (
        reopen() as db,
        WorkspaceRunner(engine=engine) as runner,
        Tasks(runner, store=db) as tasks,
    ):
        rerun = await tasks.await_task({"id": view.id, "timeout_ms": 30_000})
    assert rerun.status.state == "failed", rerun.status
    assert rerun.status.recoverable and rerun.status.step == "1"
    assert "not pressed a second time" in rerun.status.reason
    assert site.hits.count("/") == 2  # the rerun went back to the page, and stopped there
    assert site.hits.count("/deleted") == 1
