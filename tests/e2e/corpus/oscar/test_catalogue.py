"""Oscar's catalogue: a sort select that submits the page when it changes."""

from __future__ import annotations

import pytest

from gofer.runtime import RunStatus

from ...conftest import Opener
from .conftest import Oscar

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_sort_by_price_and_take_the_dearest(run_open: Opener, oscar: Oscar) -> None:
    # choosing an option reloads the page sorted; the select on the new page shows it
    flow = [
        {"browse": oscar.url},
        {"choose": "Price high to low", "in": "Sort by"},
        {"click": "Add to basket", "within": "the first product"},
        {"wait": {"shows": "has been added to your basket"}},
    ]
    async with run_open(flow) as done:
        result = done.result
        state = await oscar.guest_state(done.page)
    if result.status is RunStatus.COMPLETED:
        assert state["basket"] == [["Rivers of Salt", 1]]
    assert result.status is RunStatus.COMPLETED, result.failure
