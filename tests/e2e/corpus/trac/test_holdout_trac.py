"""Trac tasks kept out of sight while the engine changes (the holdout)."""

from __future__ import annotations

import pytest

from ...conftest import Opener
from ..tasks import Task, judge
from .conftest import Trac

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session"), pytest.mark.holdout]


def _modify(url: str, summary: str) -> list[dict[str, object]]:
    return [
        {"browse": url},
        {"click": "View Tickets"},
        {"click": "Active Tickets"},
        {"click": summary},
        {"click": "Modify Ticket"},
    ]


TASKS: dict[str, Task[Trac]] = {
    "raise-a-tickets-priority": Task(
        lambda url: [
            *_modify(url, "Typo on the welcome page"),
            {"choose": "blocker", "in": "Priority"},
            {"enter": "homepage", "into": "Keywords"},
            {"click": "Submit changes"},
            {"wait": {"shows": "blocker"}},
        ],
        lambda trac, _: [
            trac.ticket("Typo on the welcome page").get(k)
            for k in ("priority", "keywords", "status")
        ],
        lambda _: ["blocker", "homepage", "new"],
        allow_destructive=True,
    ),
    "accept-a-ticket": Task(
        lambda url: [
            *_modify(url, "Crash when saving an empty draft"),
            {"choose": "accept", "in": "Action"},
            {"click": "Submit changes"},
            {"wait": {"shows": "accepted"}},
        ],
        lambda trac, _: trac.ticket("Crash when saving an empty draft").get("status"),
        lambda _: "accepted",
        allow_destructive=True,
    ),
    "add-a-milestone": Task(
        lambda url: [
            {"browse": url},
            {"click": "Roadmap"},
            {"click": "Add new milestone"},
            {"enter": "Spring release", "into": "Name of the milestone"},
            {"enter": "Everything planned for the spring.", "into": "Description"},
            {"click": "Add milestone"},
            {"wait": {"shows": "Spring release"}},
        ],
        lambda trac, _: trac.rows(
            "SELECT name, description FROM milestone WHERE name = 'Spring release'"
        ),
        lambda _: [("Spring release", "Everything planned for the spring.")],
    ),
}


@pytest.mark.parametrize("name", list(TASKS))
async def test_trac_holdout_task(name: str, run_open: Opener, trac: Trac) -> None:
    await judge(TASKS[name], run_open, trac)
