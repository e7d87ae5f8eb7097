"""Roundup tasks kept out of sight while the engine changes (the holdout): written
before gofer ever ran on the tracker, run once at the end."""

from __future__ import annotations

import pytest

from ...conftest import Opener
from ..tasks import Task, judge
from .conftest import Roundup
from .tasks import sign_in_steps, task

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session"), pytest.mark.holdout]

NEW = "Printer jams on duplex pages"
NOTE = "Happens on every second sheet since the driver update."

TASKS: dict[str, Task[Roundup]] = {
    "create-an-urgent-issue-assigned-to-someone": task(
        lambda url: [
            *sign_in_steps(url),
            {"click": "Create New"},
            {"enter": NEW, "into": "Title"},
            {"choose": "urgent", "in": "Priority"},
            {"choose": "asha", "in": "Assigned To"},
            {"enter": NOTE, "into": "Change Note"},
            {"click": "Submit New Entry"},
            {"wait": {"shows": NEW}},
        ],
        lambda app, _: app.issue(NEW),
        lambda _: {"priority": "urgent", "assignedto": "asha", "messages": [NOTE]},
    ),
    "mark-an-issue-in-progress": task(
        lambda url: [
            *sign_in_steps(url),
            {"click": "Show All"},
            {"click": "Export to CSV drops accents"},
            {"choose": "in-progress", "in": "Status"},
            {"click": "Submit Changes"},
            {"wait": {"shows": "edited ok"}},
        ],
        lambda app, _: app.issue("Export to CSV drops accents")["status"],
        lambda _: "in-progress",
    ),
    "read-an-issues-status-in-the-list": task(
        lambda url: {
            "vars": {"status": ""},
            "steps": [
                *sign_in_steps(url),
                {"click": "Show All"},
                {"read": "the Status of Login page is slow", "as": "status"},
            ],
        },
        lambda _, result: result.variables.get("status"),
        lambda app: app.issue("Login page is slow")["status"],
    ),
}


@pytest.mark.parametrize("name", list(TASKS))
async def test_roundup_holdout_task(name: str, run_open: Opener, roundup: Roundup) -> None:
    await judge(TASKS[name], run_open, roundup)
