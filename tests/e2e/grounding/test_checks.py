"""After a choose, the control shows what was asked, or the step fails saying what it
shows; judged by the page's own state."""

from __future__ import annotations

import pytest

from gofer.runtime import RunStatus

from ..conftest import Opener
from .conftest import Site

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_a_select_the_page_puts_back_fails_the_choose_saying_what_it_shows(
    run_open: Opener, site: Site
) -> None:
    async with run_open([{"browse": site.url("plan")}, {"choose": "Team", "in": "Plan"}]) as done:
        assert done.result.status is RunStatus.FAILED
        assert done.result.failure is not None
        assert done.result.failure.reason == "selected 'Team' in 'Plan', but it shows 'Free'"
        assert await done.page.evaluate("document.querySelector('#plan').value") == "Free"
    async with run_open([{"browse": site.url("plan")}, {"choose": "Pro", "in": "Plan"}]) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.evaluate("document.querySelector('#plan').value") == "Pro"
