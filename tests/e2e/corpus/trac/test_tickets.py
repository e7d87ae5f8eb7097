"""Trac's tickets as a team uses them: file one with its fields, resolve one, reassign
one, and read a report's table."""

from __future__ import annotations

import pytest

from gofer.runtime import RunStatus

from ...conftest import Opener
from .conftest import Trac

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_file_a_ticket_with_its_fields(run_open: Opener, trac: Trac) -> None:
    summary = "Login page crashes on empty password"
    flow = [
        {"browse": trac.url},
        {"click": "New Ticket"},
        {"enter": summary, "into": "Summary"},
        {
            "enter": "Submitting the form with no password shows a server error.",
            "into": "Description",
        },
        {"choose": "enhancement", "in": "Type"},
        {"choose": "critical", "in": "Priority"},
        {"choose": "component2", "in": "Component"},
        {"choose": "milestone2", "in": "Milestone"},
        {"enter": "ui, login", "into": "Keywords"},
        {"click": "Create ticket"},
        {"wait": {"shows": "Opened"}},
    ]
    async with run_open(flow) as done:
        status = done.result.status
    got = trac.ticket(summary)
    if status is RunStatus.COMPLETED:
        assert {
            k: got.get(k) for k in ("type", "priority", "component", "milestone", "keywords")
        } == {
            "type": "enhancement",
            "priority": "critical",
            "component": "component2",
            "milestone": "milestone2",
            "keywords": "ui, login",
        }
        assert got["description"] == "Submitting the form with no password shows a server error."
    assert status is RunStatus.COMPLETED, done.result.failure


async def test_resolve_a_ticket_as_fixed(run_open: Opener, trac: Trac) -> None:
    flow = [
        {"browse": trac.url},
        {"click": "View Tickets"},
        {"click": "Active Tickets"},
        {"click": "Crash when saving an empty draft"},
        {"enter": "Fixed in the latest build.", "into": "the comment box"},
        {"click": "Modify Ticket"},
        {"choose": "resolve", "in": "Action"},
        {"choose": "fixed", "in": "resolve as"},
        {"click": "Submit changes"},
        {"wait": {"shows": "closed"}},
    ]
    # submitting the change is what the task asks for: no approval stop
    owner = trac.ticket("Crash when saving an empty draft")["owner"]  # other tasks may take it
    async with run_open(flow, allow_destructive=True) as done:
        status = done.result.status
    got = trac.ticket("Crash when saving an empty draft")
    comments = trac.rows(
        "SELECT newvalue FROM ticket_change WHERE ticket = ? AND field = 'comment'", got["id"]
    )
    if status is RunStatus.COMPLETED:
        assert (got["status"], got["resolution"], got["owner"]) == ("closed", "fixed", owner)
        assert comments == [("Fixed in the latest build.",)]
    assert status is RunStatus.COMPLETED, done.result.failure


async def test_reassign_a_ticket(run_open: Opener, trac: Trac) -> None:
    flow = [
        {"browse": trac.url},
        {"click": "View Tickets"},
        {"click": "Active Tickets"},
        {"click": "Add dark mode to the editor"},
        {"click": "Modify Ticket"},
        {"choose": "reassign", "in": "Action"},
        {"enter": "asha", "into": "reassign to"},
        {"click": "Submit changes"},
        {"wait": {"shows": "assigned"}},
    ]
    # submitting the change is what the task asks for: no approval stop
    async with run_open(flow, allow_destructive=True) as done:
        status = done.result.status
    got = trac.ticket("Add dark mode to the editor")
    if status is RunStatus.COMPLETED:
        assert (got["owner"], got["status"]) == ("asha", "assigned")
    assert status is RunStatus.COMPLETED, done.result.failure


async def test_read_cells_of_a_report_by_row_and_column(run_open: Opener, trac: Trac) -> None:
    flow = {
        "vars": {"owner": "", "component": ""},
        "steps": [
            {"browse": trac.url},
            {"click": "View Tickets"},
            {"click": "Active Tickets"},
            {"read": "the Owner of Export fails for large reports", "as": "owner"},
            {"read": "the Component of Typo on the welcome page", "as": "component"},
        ],
    }
    async with run_open(flow) as done:
        status = done.result.status
        read = done.result.variables
    want = {
        "owner": trac.ticket("Export fails for large reports")["owner"],
        "component": trac.ticket("Typo on the welcome page")["component"],
    }
    if status is RunStatus.COMPLETED:
        assert {k: read[k] for k in want} == want
    assert status is RunStatus.COMPLETED, done.result.failure
