"""Trac's tickets as a team uses them: file one with its fields, resolve one, reassign
one, and read a report's table."""

from __future__ import annotations

import pytest

from ...conftest import Opener
from ..tasks import Task, judge
from .conftest import Trac

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

NEW = "Login page crashes on empty password"
FIELDS = ("type", "priority", "component", "milestone", "keywords", "description")
DRAFT = "Crash when saving an empty draft"


def _active(url: str) -> list[dict[str, object]]:
    return [{"browse": url}, {"click": "View Tickets"}, {"click": "Active Tickets"}]


TASKS: dict[str, Task[Trac]] = {
    "file-a-ticket-with-its-fields": Task(
        lambda url: [
            {"browse": url},
            {"click": "New Ticket"},
            {"enter": NEW, "into": "Summary"},
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
        ],
        lambda trac, _: [trac.ticket(NEW).get(k) for k in FIELDS],
        lambda _: [
            "enhancement",
            "critical",
            "component2",
            "milestone2",
            "ui, login",
            "Submitting the form with no password shows a server error.",
        ],
    ),
    "resolve-a-ticket-as-fixed": Task(
        lambda url: [
            *_active(url),
            {"click": DRAFT},
            {"enter": "Fixed in the latest build.", "into": "the comment box"},
            {"click": "Modify Ticket"},
            {"choose": "resolve", "in": "Action"},
            {"choose": "fixed", "in": "resolve as"},
            {"click": "Submit changes"},
            {"wait": {"shows": "closed"}},
        ],
        lambda trac, _: (
            [trac.ticket(DRAFT).get(k) for k in ("status", "resolution", "owner")],
            trac.rows(
                "SELECT newvalue FROM ticket_change WHERE ticket = ? AND field = 'comment'"
                " AND newvalue != ''",
                trac.ticket(DRAFT)["id"],
            ),
        ),
        # other tasks may take the ticket: its owner stays whoever it was
        lambda trac: (
            ["closed", "fixed", trac.ticket(DRAFT)["owner"]],
            [("Fixed in the latest build.",)],
        ),
        allow_destructive=True,
    ),
    "reassign-a-ticket": Task(
        lambda url: [
            *_active(url),
            {"click": "Add dark mode to the editor"},
            {"click": "Modify Ticket"},
            {"choose": "reassign", "in": "Action"},
            {"enter": "asha", "into": "reassign to"},
            {"click": "Submit changes"},
            {"wait": {"shows": "assigned"}},
        ],
        lambda trac, _: [
            trac.ticket("Add dark mode to the editor").get(k) for k in ("owner", "status")
        ],
        lambda _: ["asha", "assigned"],
        allow_destructive=True,
    ),
    "read-cells-of-a-report-by-row-and-column": Task(
        lambda url: {
            "vars": {"owner": "", "component": ""},
            "steps": [
                *_active(url),
                {"read": "the Owner of Export fails for large reports", "as": "owner"},
                {"read": "the Component of Typo on the welcome page", "as": "component"},
            ],
        },
        lambda _, result: [result.variables.get(k) for k in ("owner", "component")],
        lambda trac: [
            trac.ticket("Export fails for large reports")["owner"],
            trac.ticket("Typo on the welcome page")["component"],
        ],
    ),
}


@pytest.mark.parametrize("name", list(TASKS))
async def test_trac_task(name: str, run_open: Opener, trac: Trac) -> None:
    await judge(TASKS[name], run_open, trac)
