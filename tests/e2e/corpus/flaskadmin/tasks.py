"""The Flask-Admin tasks' one judge: a flow a user would write on the model views, and
what the app's SQLite file must then hold. ``want`` is taken before the run, ``got``
after it; each task works on records of its own, so the tasks share one app."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gofer.runtime import RunResult, RunStatus

from ...conftest import Runner
from .conftest import FlaskAdmin


@dataclass(frozen=True)
class Task:
    steps: Callable[[str], list[dict[str, Any]] | dict[str, Any]]  # from the app's address
    got: Callable[[FlaskAdmin, RunResult], Any]
    want: Callable[[FlaskAdmin], Any]
    allow_destructive: bool = False  # deleting is what the task asks for


async def judge(task: Task, run: Runner, app: FlaskAdmin) -> None:
    """A run that says it is done must have left exactly ``want``; and it must be done."""
    want = task.want(app)
    result = await run(task.steps(app.url), allow_destructive=task.allow_destructive)
    got = task.got(app, result)
    if result.status is RunStatus.COMPLETED:
        assert got == want, (
            f"done with the wrong values: {got!r}, not {want!r}",
            [(s.kind, s.outcome.value, s.reason) for s in result.steps],
        )
    assert result.status is RunStatus.COMPLETED, result.failure
