"""The Trac tasks' one judge: a flow a team member would write, and what Trac's own
database must then hold. ``want`` is taken before the run (a task may keep what other
tasks left, such as a ticket's owner); ``got`` after it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gofer.runtime import RunResult, RunStatus

from ...conftest import Opener
from .conftest import Trac


@dataclass(frozen=True)
class Task:
    steps: Callable[[str], list[dict[str, Any]] | dict[str, Any]]  # from Trac's address
    got: Callable[[Trac, RunResult], Any]
    want: Callable[[Trac], Any]
    allow_destructive: bool = False  # submitting the change is what the task asks for


async def judge(task: Task, run_open: Opener, trac: Trac) -> None:
    """A run that says it is done must have left exactly ``want``; and it must be done."""
    want = task.want(trac)
    async with run_open(task.steps(trac.url), allow_destructive=task.allow_destructive) as done:
        result = done.result
    got = task.got(trac, result)
    if result.status is RunStatus.COMPLETED:
        assert got == want, f"done with the wrong values: {got!r}, not {want!r}"
    assert result.status is RunStatus.COMPLETED, result.failure
