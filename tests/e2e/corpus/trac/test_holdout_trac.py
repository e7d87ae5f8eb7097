"""Trac tasks kept out of sight while the engine changes (the holdout)."""

from __future__ import annotations

import pytest

from gofer.runtime import RunStatus

from ...conftest import Opener
from .conftest import Trac

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session"), pytest.mark.holdout]


async def test_raise_a_tickets_priority(run_open: Opener, trac: Trac) -> None:
    flow = [
        {"browse": trac.url},
        {"click": "View Tickets"},
        {"click": "Active Tickets"},
        {"click": "Typo on the welcome page"},
        {"click": "Modify Ticket"},
        {"choose": "blocker", "in": "Priority"},
        {"enter": "homepage", "into": "Keywords"},
        {"click": "Submit changes"},
        {"wait": {"shows": "blocker"}},
    ]
    # submitting the change is what the task asks for: no approval stop
    async with run_open(flow, allow_destructive=True) as done:
        status = done.result.status
    got = trac.ticket("Typo on the welcome page")
    if status is RunStatus.COMPLETED:
        assert (got["priority"], got["keywords"], got["status"]) == ("blocker", "homepage", "new")
    assert status is RunStatus.COMPLETED, done.result.failure


async def test_accept_a_ticket(run_open: Opener, trac: Trac) -> None:
    flow = [
        {"browse": trac.url},
        {"click": "View Tickets"},
        {"click": "Active Tickets"},
        {"click": "Crash when saving an empty draft"},
        {"click": "Modify Ticket"},
        {"choose": "accept", "in": "Action"},
        {"click": "Submit changes"},
        {"wait": {"shows": "accepted"}},
    ]
    # submitting the change is what the task asks for: no approval stop
    async with run_open(flow, allow_destructive=True) as done:
        status = done.result.status
    got = trac.ticket("Crash when saving an empty draft")
    if status is RunStatus.COMPLETED:
        assert got["status"] == "accepted"
    assert status is RunStatus.COMPLETED, done.result.failure


async def test_add_a_milestone(run_open: Opener, trac: Trac) -> None:
    flow = [
        {"browse": trac.url},
        {"click": "Roadmap"},
        {"click": "Add new milestone"},
        {"enter": "Spring release", "into": "Name of the milestone"},
        {"enter": "Everything planned for the spring.", "into": "Description"},
        {"click": "Add milestone"},
        {"wait": {"shows": "Spring release"}},
    ]
    async with run_open(flow) as done:
        status = done.result.status
    rows = trac.rows("SELECT name, description FROM milestone WHERE name = 'Spring release'")
    if status is RunStatus.COMPLETED:
        assert rows == [("Spring release", "Everything planned for the spring.")]
    assert status is RunStatus.COMPLETED, done.result.failure
