"""The popup tasks: a flow a user would write on a demo form, and what the server must
have received from it. ``want`` None: the task cannot be done on that page, so the right
outcome is a failed run and nothing posted."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gofer.runtime import RunStatus

from ...conftest import Opener
from .conftest import Library


@dataclass(frozen=True)
class Task:
    library: str
    steps: list[dict[str, Any]]
    want: dict[str, str] | None
    query: str = ""


async def judge(task: Task, run_open: Opener, library: Library) -> None:
    """Runs the task's flow and judges it by what the server received: a run that
    says it is done must have posted exactly the values asked for."""
    mark = len(library.posted)
    flow = [{"browse": library.url(task.library, task.query)}, *task.steps]
    async with run_open(flow) as done:
        status = done.result.status
        failure = done.result.failure
    posted = library.since(mark)
    if task.want is None:
        assert status is not RunStatus.COMPLETED, f"done, though the page cannot: {posted}"
        assert posted == [], posted
        return
    if status is RunStatus.COMPLETED:
        assert len(posted) == 1, posted
        got = {key: posted[0].get(key) for key in task.want}
        assert got == task.want, f"done with the wrong values: {posted[0]}"
    assert status is RunStatus.COMPLETED, failure
