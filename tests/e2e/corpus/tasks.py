"""The one judge of the corpus's record-keeping apps (Trac, Flask-Admin, Roundup): a
flow a user would write, and what the app's own database must then hold. ``want`` is
taken before the run (a task may keep what others left, such as a ticket's owner),
``got`` after it; a run that says it is done must have left exactly ``want``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

import pytest

from gofer.runtime import RunResult, RunStatus

from ..conftest import Opener


class App(Protocol):
    @property
    def url(self) -> str: ...


A = TypeVar("A", bound=App)


@dataclass(frozen=True)
class Task(Generic[A]):
    steps: Callable[[str], list[dict[str, Any]] | dict[str, Any]]  # from the app's address
    got: Callable[[A, RunResult], Any]
    want: Callable[[A], Any]
    allow_destructive: bool = False  # submitting or deleting is what the task asks for


def signing_in(
    page: str, user: str, password: str, button: str
) -> Callable[..., list[dict[str, Any]]]:
    """The steps of a task that signs in first on the form at ``page`` (its Username
    and Password boxes, then ``button``), then does ``steps``."""

    def steps(*then: dict[str, Any]) -> list[dict[str, Any]]:
        return [
            {"browse": page},
            {"enter": user, "into": "Username"},
            {"enter": password, "into": "Password"},
            {"click": button},
            *then,
        ]

    return steps


def expect_known(request: pytest.FixtureRequest, known: Mapping[str, str], name: str) -> None:
    """A task listed in ``known`` fails today for the cause given: strictly (once it
    passes, it must leave the list)."""
    if name in known:
        request.applymarker(pytest.mark.xfail(reason=known[name], strict=True))


async def judge(task: Task[A], run_open: Opener, app: A) -> None:
    """A run that says it is done must have left exactly ``want``; and it must be done."""
    want = task.want(app)
    async with run_open(task.steps(app.url), allow_destructive=task.allow_destructive) as done:
        result = done.result
    got = task.got(app, result)
    if result.status is RunStatus.COMPLETED:
        assert got == want, (
            f"done with the wrong values: {got!r}, not {want!r}",
            [(s.kind, s.outcome.value, s.reason) for s in result.steps],
        )
    assert result.status is RunStatus.COMPLETED, result.failure or (result.status, result.gate)
