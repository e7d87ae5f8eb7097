"""A task's working state: what its last run ended on and the next run goes on from.

It is kept in the task's ``ended`` event (:class:`gofer.tasks.events.Ended`), stored as
JSON and read back into these models; :func:`gofer.tasks.book.snapshot` makes it from a
turn's cell, :func:`gofer.tasks.book.restore` rebuilds the cell from it, and the report,
the status and saving a flow read it. Every field has a default, so a state stored
before a field existed still reads."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from gofer.decide.types import GroundingHint
from gofer.runtime.types import Gate
from gofer.tasks.contract import PersonStepInfo, RescueInfo

__all__ = ["SegmentState", "SpentState", "WorkingState"]


class _State(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class SegmentState(_State):
    """A part of the flow still to run: its steps (as flow JSON) from top-level step
    ``base``, and the gate it goes past, if it was approved."""

    steps: list[Any] = Field(default_factory=list)
    base: int = 0
    allow_destructive: bool = False
    gate: Gate | None = None
    rescue: int = -1
    rescue_steps: int = 0


class SpentState(_State):
    """What the task's runs have spent so far."""

    actions: int = 0
    model_calls: int = 0
    elapsed_ms: float = 0.0
    runs: int = 0
    rescues: int = 0


class WorkingState(_State):
    """Where a task's runs stand between two turns."""

    flow: dict[str, Any] | None = None
    pending: list[SegmentState] = Field(default_factory=list)
    approval: Gate | None = None
    finished_top: int = 0
    variables: dict[str, Any] = Field(default_factory=dict)
    records: dict[str, Any] = Field(default_factory=dict)
    hints: list[GroundingHint] = Field(default_factory=list)
    rescues: list[RescueInfo] = Field(default_factory=list)
    person: list[PersonStepInfo] = Field(default_factory=list)
    spend: SpentState = Field(default_factory=SpentState)
    address: str | None = None
    """The page the task's browser was on when the run ended (None: none known)."""
