"""A task's browser, end to end through the controller on real Chromium: a page stuck in
an endless script fails its step (recoverable) with a fresh page, long before any time
budget, and a redirect out of the task's origins fails its step."""

from __future__ import annotations

from typing import Any

import pytest

from gofer.runtime.workspace_runner import WorkspaceRunner
from gofer.surfaces import BrowserEngine
from gofer.tasks import Tasks

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.browser]


async def test_a_page_in_an_endless_loop_fails_its_step_with_a_fresh_page(
    engine: BrowserEngine, site: Any
) -> None:
    url = site.add("/", "<h1>Spinner</h1><button onclick='for (;;) {}'>Spin</button>")
    async with WorkspaceRunner(engine=engine) as runner, Tasks(runner) as tasks:
        view = await tasks.start_task(
            {"flow": {"steps": [{"browse": url}, {"click": "Spin"}, {"verify": "Spinner"}]}}
        )
        view = await tasks.await_task({"id": view.id, "timeout_ms": 40_000})
        assert view.status.state == "failed", view.status
        assert view.status.recoverable
        assert view.status.step == "1"
        assert "did not answer" in view.status.reason
        assert await runner.address(view.id) == "about:blank"


async def test_a_redirect_out_of_the_origins_fails_its_step(
    engine: BrowserEngine, make_site: Any
) -> None:
    home, other = make_site(), make_site()
    other.add("/landing", "<h1>OUTSIDE ORIGIN CONTENT</h1>")
    home.add("/redir", "", status=302, headers={"Location": other.url("/landing")})
    async with WorkspaceRunner(engine=engine) as runner, Tasks(runner) as tasks:
        view = await tasks.start_task(
            {
                "flow": {
                    "steps": [
                        {"browse": home.url("/redir")},
                        {"wait": {"shows": "OUTSIDE ORIGIN CONTENT"}, "timeout_ms": 2_000},
                    ]
                },
                "constraints": {"origins": [home.origin]},
            }
        )
        view = await tasks.await_task({"id": view.id, "timeout_ms": 30_000})
    assert view.status.state == "failed", view.status
    assert view.status.step == "0"
    assert "blocked by the task's origins" in view.status.reason
    assert other.hits == []
