"""A news site: a cookie consent wall over everything, a search, and a link that opens
in a new tab."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from gofer.runtime import RunStatus

from .conftest import Runner
from .sites import news
from .sites.base import Site, serve

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


@pytest_asyncio.fixture(loop_scope="session")
async def ledger() -> AsyncIterator[Site]:
    async with serve(news.build()) as site:
        yield site


async def test_answer_the_wall_search_and_follow_a_link_into_a_new_tab(
    run: Runner, ledger: Site
) -> None:
    result = await run(
        [
            {"browse": ledger.url("/")},
            {"click": "Reject all"},
            {"enter": "tram", "into": "Search"},
            {"click": "Search", "within": "The Daily Ledger"},
            {"verify": {"shows": "1 result(s)"}},
            {"click": "City council approves new tram line"},
            {"verify": {"shows": "Reservoir levels fell"}},
            {"click": "Read the full report"},
            {"verify": {"shows": "rainfall 38 per cent below"}},
        ]
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    assert ledger.sent("/consent") == [{"choice": "rejected"}]
    assert ledger.sent("/search") == [{"q": "tram"}]
    assert [r.element.name for r in result.steps if r.kind == "click" and r.element] == [
        "Reject all",
        "Search",
        "City council approves new tram line",
        "Read the full report",
    ]


async def test_a_cookie_wall_the_flow_does_not_mention(run: Runner, ledger: Site) -> None:
    result = await run(
        [
            {"browse": ledger.url("/")},
            {"click": "Rivers run low as summer heat lingers"},
            {"verify": {"shows": "Reservoir levels fell"}},
        ]
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    assert ledger.sent("/consent") == [{"choice": "rejected"}]
