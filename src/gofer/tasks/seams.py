"""Seams for the optional model passes: planner, rescuer, output shaper, decider.

The controller takes each as an optional constructor argument; with none
configured, a plain-language task answers ``needs_plan``, failed steps are not
rescued, and ``output`` is refused. Every brief holds fact *names* only, never a
fact's value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TypeAlias

from gofer.flow.steps import Flow, JSONValue
from gofer.models import CallMeter
from gofer.planner.types import PlanBrief
from gofer.rescue.types import Briefing, Guidance
from gofer.shape.types import ShapeBrief

if TYPE_CHECKING:
    from gofer.runtime import ModelDecider

__all__ = [
    "Briefing",
    "Decider",
    "Guidance",
    "PlanBrief",
    "Planner",
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


class Rescuer(Protocol):
    """Guidance for a failed top-level step of a task (see :mod:`gofer.rescue`)."""

    async def guide(self, briefing: Briefing, meter: CallMeter | None = None) -> Guidance:
        """Judged guidance for ``briefing``; raises a ModelError when none can be had."""
        ...


class Shaper(Protocol):
    """Turns a finished task's raw records into the shape the caller asked for."""

    async def shape(self, brief: ShapeBrief, meter: CallMeter | None = None) -> JSONValue:
        """The result; the controller checks it against ``brief.schema``."""
        ...


Decider: TypeAlias = "ModelDecider"
"""The runtime's model decider; the controller only reports whether one is configured."""
