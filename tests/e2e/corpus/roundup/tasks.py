"""The Roundup tasks' one judge: a flow a tracker's user would write, and what the
tracker's own database must then hold (read through Roundup's own API). ``want`` is
taken before the run, ``got`` after it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gofer.runtime import RunResult, RunStatus

from ...conftest import Opener
from .conftest import ADMIN, Roundup


@dataclass(frozen=True)
class Task:
    steps: Callable[[str], list[dict[str, Any]] | dict[str, Any]]  # from the tracker's address
    got: Callable[[Roundup, RunResult], Any]
    want: Callable[[Roundup], Any]


def sign_in_steps(url: str) -> list[dict[str, Any]]:
    """The tracker's own login box, as its admin uses it."""
    return [
        {"browse": url},
        {"enter": ADMIN[0], "into": "Username"},
        {"enter": ADMIN[1], "into": "Password"},
        {"click": "Login"},
        {"wait": {"shows": "Logout"}},
    ]


async def judge(task: Task, run_open: Opener, roundup: Roundup) -> None:
    """A run that says it is done must have left exactly ``want``; and it must be done.
    Submitting a form is what each task asks for: no approval stop."""
    want = task.want(roundup)
    async with run_open(task.steps(roundup.url), allow_destructive=True) as done:
        result = done.result
    got = task.got(roundup, result)
    if result.status is RunStatus.COMPLETED:
        assert got == want, (
            f"done with the wrong values: {got!r}, not {want!r}",
            [(s.kind, s.outcome.value, s.reason) for s in result.steps],
        )
    assert result.status is RunStatus.COMPLETED, result.failure
