"""What the planner is told about a task (names only, never values)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PlanBrief"]


@dataclass(frozen=True, slots=True)
class PlanBrief:
    """What the planner is told: the job, the surfaces it may use, the fact names."""

    task: str
    surfaces: tuple[str, ...]
    facts: tuple[str, ...]
    secrets: tuple[str, ...]
