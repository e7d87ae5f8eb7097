"""A runner's close cancelled half-way (a shutdown cut short) still closes every
task's browser session and its proxy: no page of any task goes on talking to its site."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from gofer.runtime.types import WorkspaceOptions
from gofer.runtime.workspace_runner import WorkspaceRunner
from gofer.surfaces import BrowserEngine

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.browser]

BEATING = """<h1>Beating</h1><script>
setTimeout(() => setInterval(() => fetch('/beat'), 50), 1000);  // once the page settled
</script>"""


async def test_a_close_cancelled_half_way_closes_every_session(
    engine: BrowserEngine, site: Any
) -> None:
    page = site.add("/", BEATING)
    site.add("/beat", "ok")
    runner = WorkspaceRunner(engine=engine)
    options = WorkspaceOptions(origins=(site.origin,))  # each session behind its own proxy
    for task_id in ("first", "second"):
        await runner.open_page(task_id, options, page)
    async with asyncio.timeout(10):
        while site.hits.count("/beat") < 2:
            await asyncio.sleep(0.05)  # the site serves on its own thread: no event here
    closing = asyncio.create_task(runner.aclose())
    await asyncio.sleep(0)  # the close has begun
    closing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await closing
    beats = site.hits.count("/beat")
    await asyncio.sleep(0.5)  # ten beats' time: a page still open would have beaten
    assert site.hits.count("/beat") == beats
