"""Seams for the optional model passes: planner, rescuer, output shaper, decider.

The controller takes each as an optional constructor argument; with none
configured, a plain-language task answers ``needs_plan``, failed steps are not
rescued, and ``output`` is refused. Every brief holds fact *names* only, never a
fact's value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeAlias

from gofer.flow.steps import Flow, JSONValue, Step
from gofer.models import CallMeter
from gofer.planner.types import PlanBrief
from gofer.shape.types import ShapeBrief

if TYPE_CHECKING:
    from gofer.runtime.run import ModelDecider

__all__ = [
    "Decider",
    "PlanBrief",
    "Planner",
    "RescueAnswer",
    "RescueBrief",
    "Rescuer",
    "ShapeBrief",
    "Shaper",
]


class Planner(Protocol):
    """Turns a plain-language task into a flow. Never acts, never sees the screen."""

    async def plan(self, brief: PlanBrief, meter: CallMeter | None = None) -> Flow:
        """A flow for ``brief.task``, charging each model call to ``meter``; raises a
        GoferError when it cannot make one."""
        ...


@dataclass(frozen=True, slots=True)
class RescueBrief:
    """What the rescuer is told about a failed top-level step (values redacted)."""

    goal: str
    flow: Flow
    failed_path: str
    reason: str
    screen_text: str
    facts: tuple[str, ...]
    earlier: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RescueAnswer:
    """Steps to run in place of the failed one (``covers`` more after it), or a give-up
    (``steps`` is None) with the reason."""

    steps: tuple[Step, ...] | None
    reason: str
    covers: int = 0


class Rescuer(Protocol):
    """Suggests how to get past a failed step (used from a later issue on)."""

    async def rescue(self, brief: RescueBrief) -> RescueAnswer:
        """Guidance for the failed step in ``brief``."""
        ...


class Shaper(Protocol):
    """Turns a finished task's raw records into the shape the caller asked for."""

    async def shape(self, brief: ShapeBrief, meter: CallMeter | None = None) -> JSONValue:
        """The result; the controller checks it against ``brief.schema``."""
        ...


Decider: TypeAlias = "ModelDecider"
"""The runtime's model decider; the controller only reports whether one is configured."""
