"""A content admin whose pages poll, animate and tick: the flow waits for what each step
did (a navigation, a save's fetch, rows that arrive late) and not for the page's own
background, and the post lands as asked."""

from __future__ import annotations

import pytest

from gofer.runtime import RunStatus

from .conftest import Opener
from .sites import cms
from .sites.base import serve

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


@pytest.mark.parametrize("busy", [True, False], ids=["busy", "quiet"])
async def test_write_and_save_a_post(run_open: Opener, busy: bool) -> None:
    async with serve(cms.build(busy=busy)) as site:
        flow = {"vars": {"posts": []}, "steps": [{"browse": site.url("/posts")}, *cms.FLOW]}
        async with run_open(flow) as done:
            assert done.result.status is RunStatus.COMPLETED, done.result.failure
            assert site.sent("/api/posts") == [
                {
                    "title": cms.FLOW_TITLE,
                    "summary": "Ten books for the long evenings",
                    "category": "Events",
                    "publish": "2026-10-14",
                    "featured": True,
                }
            ]
            # the list the run ended on shows the new post with the others
            rows = await done.page.locator("#posts tbody tr").all_inner_texts()
            assert [r.split("\t") for r in rows][-1] == [cms.FLOW_TITLE, "Events", "Draft"]
            assert len(rows) == 3
            read = done.result.changed["posts"]
            assert isinstance(read, list) and len(read) == 3
            assert cms.FLOW_TITLE in str(read[-1])
        if busy:
            assert site.state["polls"] > 0  # the pages did poll while the flow ran
