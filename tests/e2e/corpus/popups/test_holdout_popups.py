"""Holdout popup tasks: run only before the issue is resolved (see the corpus README)."""

from __future__ import annotations

import pytest

from ...conftest import Opener
from .conftest import Library
from .tasks import Task, judge

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session"), pytest.mark.holdout]

TASKS: dict[str, Task] = {
    # the last but one row of the virtual list, chosen on its own
    "antd-virtual-near-end": Task(
        "antd",
        [{"choose": "San Marino", "in": "Destination country"}, {"click": "Save address"}],
        {"country": "San Marino"},
    ),
    # two prompts in a row, each refused: email, then a text-message consent on the phone
    "tippy-two-prompts": Task(
        "tippy",
        [
            {"enter": "grace@example.org", "into": "Email address"},
            {"enter": "+44 20 7946 0958", "into": "Phone"},
            {"click": "Create account"},
        ],
        {"email": "grace@example.org", "phone": "+44 20 7946 0958", "newsletter": "no"},
    ),
}


@pytest.mark.parametrize("name", TASKS)
async def test_holdout_popup_task(name: str, run_open: Opener, library: Library) -> None:
    await judge(TASKS[name], run_open, library)
