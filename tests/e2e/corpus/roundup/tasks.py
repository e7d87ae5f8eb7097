"""What the Roundup tasks share: the tracker's own sign-in, and submitting allowed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gofer.runtime import RunResult

from ..tasks import Task
from .conftest import ADMIN, Roundup


def task(
    steps: Callable[[str], list[dict[str, Any]] | dict[str, Any]],
    got: Callable[[Roundup, RunResult], Any],
    want: Callable[[Roundup], Any],
) -> Task[Roundup]:
    """A Roundup task: submitting its form is what it asks for (no approval stop)."""
    return Task(steps, got, want, allow_destructive=True)


def sign_in_steps(url: str) -> list[dict[str, Any]]:
    """The tracker's own login box, as its admin uses it."""
    return [
        {"browse": url},
        {"enter": ADMIN[0], "into": "Username"},
        {"enter": ADMIN[1], "into": "Password"},
        {"click": "Login"},
        {"wait": {"shows": "Logout"}},
    ]
