"""The widget tasks: a flow a user would write on a library's event form, and what the
server must have received from it. ``want`` None: the task cannot be done on that page
(a date the calendar does not offer, a city that is not among the suggestions), so the
right outcome is a failed run and nothing posted."""

from __future__ import annotations

from typing import Any

from ..bundles import Task, judge

__all__ = ["SUBMIT", "Task", "judge"]

SUBMIT: dict[str, Any] = {"click": "Create event"}
