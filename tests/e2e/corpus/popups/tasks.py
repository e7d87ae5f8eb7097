"""The popup tasks: a flow a user would write on a demo form, and what the server must
have received from it. ``want`` None: the task cannot be done on that page, so the right
outcome is a failed run and nothing posted."""

from __future__ import annotations

from ..bundles import Task, judge

__all__ = ["Task", "judge"]
