"""What the output shaper is told (every fact value already redacted)."""

from __future__ import annotations

from dataclasses import dataclass

from gofer.flow.steps import JSONValue

__all__ = ["ShapeBrief"]


@dataclass(frozen=True, slots=True)
class ShapeBrief:
    """What the shaper is told: the goal, the caller's instructions and schema, the records
    with every fact value redacted."""

    goal: str
    instructions: str
    schema: dict[str, JSONValue] | None
    records: dict[str, JSONValue]
