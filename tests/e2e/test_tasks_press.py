"""A press that cannot be undone happens once, even when the store fails as the turn
writes its end: the end is written again while the lease holds, and the run is never
run a second time. Judged by the page's own record of the presses it received.

Real ``Tasks`` over the real ``WorkspaceRunner``, headless Chromium, a SQLite store.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gofer.errors import StoreUnavailable
from gofer.surfaces import BrowserEngine
from gofer.tasks import Tasks, WorkspaceRunner
from gofer.wiring import store_for

from .conftest import FAST, Pages

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_a_turn_whose_end_fails_once_presses_send_only_once(
    engine: BrowserEngine, pages: Pages, tmp_path: Path
) -> None:
    form = pages.add(
        "/press/form",
        "<h1>Message</h1><form method='post' action='/press/sent'>"
        "<button type='submit'>Send</button></form>",
    )
    pages.add("/press/sent", "<h1>Sent</h1><p>Your message was sent.</p>")
    before = pages.hits.count("/press/sent")
    flow = [{"browse": form}, {"click": "Send"}]
    async with (
        store_for(str(tmp_path / "gofer.db")) as db,
        WorkspaceRunner(engine=engine, settings=FAST) as runner,
        Tasks(runner, store=db) as tasks,
    ):
        queue = tasks.worker.book.queue
        finish = queue.finish
        failed: list[Any] = []

        async def finish_failing_once(claim: Any, result: Any = None, **kwargs: Any) -> Any:
            if isinstance(result, dict) and "ended" in result and not failed:
                failed.append(result)
                raise StoreUnavailable("database is locked")
            return await finish(claim, result, **kwargs)

        queue.finish = finish_failing_once  # type: ignore[method-assign]
        view = await tasks.start_task({"flow": flow, "constraints": {"allow_destructive": True}})
        done = await tasks.await_task({"id": view.id, "timeout_ms": 60_000})
    assert failed, "the end of the turn failed once"
    assert done.status.state == "done"
    assert pages.hits.count("/press/sent") - before == 1
