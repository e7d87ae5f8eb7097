"""Roundup's classic tracker as its users work in it: a note on an issue, an issue's
priority and keyword, and a new user added by the admin."""

from __future__ import annotations

import pytest

from ...conftest import Opener
from ..tasks import Task, judge
from .conftest import Roundup
from .tasks import sign_in_steps, task

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

NOTE = "Seen again on the staging server this morning."
SLOW = "Login page is slow"
CRASH = "Crash when attaching a large file"

TASKS: dict[str, Task[Roundup]] = {
    "add-a-note-to-an-issue": task(
        lambda url: [
            *sign_in_steps(url),
            {"click": "Show All"},
            {"click": SLOW},
            {"enter": NOTE, "into": "Change Note"},
            {"click": "Submit Changes"},
            {"wait": {"shows": "edited ok"}},
        ],
        lambda app, _: app.issue(SLOW)["messages"][-1:],
        lambda _: [NOTE],
    ),
    "raise-priority-and-add-a-keyword": task(
        lambda url: [
            *sign_in_steps(url),
            {"click": "Show All"},
            {"click": CRASH},
            {"choose": "critical", "in": "Priority"},
            {"enter": "uploads", "into": "Keywords"},
            {"click": "Submit Changes"},
            {"wait": {"shows": "edited ok"}},
        ],
        lambda app, _: {k: app.issue(CRASH)[k] for k in ("priority", "keyword")},
        lambda _: {"priority": "critical", "keyword": ["uploads"]},
    ),
    "add-a-user": task(
        lambda url: [
            *sign_in_steps(url),
            {"click": "Add User"},
            {"enter": "bruno", "into": "Login Name"},
            {"enter": "Bruno-pass-789", "into": "Login Password"},
            {"enter": "Bruno-pass-789", "into": "Confirm Password"},
            {"enter": "Bruno Díaz", "into": "Real name"},
            {"enter": "bruno@example.org", "into": "E-mail address"},
            {"click": "Submit New Entry"},
            {"wait": {"shows": "bruno"}},
        ],
        lambda app, _: app.user("bruno"),
        lambda _: {"realname": "Bruno Díaz", "address": "bruno@example.org"},
    ),
}


@pytest.mark.parametrize("name", list(TASKS))
async def test_roundup_task(name: str, run_open: Opener, roundup: Roundup) -> None:
    await judge(TASKS[name], run_open, roundup)
