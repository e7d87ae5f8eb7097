"""A task's cell (its published view plus the working state a turn goes on from), the
segments it has still to run, and the screenshots its runs took."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from gofer.facts import Facts
from gofer.flow.steps import Flow, JSONValue, Step
from gofer.runtime.types import Gate, GroundingHint
from gofer.tasks.budget import BudgetLedger
from gofer.tasks.contract import (
    OutputSpec,
    PersonStepInfo,
    RescueInfo,
    StepReportInfo,
    TaskConstraints,
    TaskView,
    TraceInfo,
)
from gofer.tasks.runner import WorkspaceOptions

__all__ = ["Artifact", "Cell", "Segment"]


@dataclass(frozen=True, slots=True)
class Segment:
    """One run a task has still to do: ``steps`` of its flow starting at top-level index
    ``base``. A ``press`` segment presses one approved control (``gate``) and does not
    advance the task's progress. A segment that opens with a rescue's guidance names
    that rescue (``rescue``) and how many steps the guidance has."""

    steps: tuple[Step, ...]
    base: int
    allow_destructive: bool
    gate: Gate | None = None
    rescue: int = -1  # index into the task's rescues when the segment opens with guidance
    rescue_steps: int = 0  # how many of its first steps are that guidance

    @property
    def press(self) -> bool:
        """Whether this segment presses an approved control."""
        return self.gate is not None

    def absolute(self, path: str) -> str:
        """A path reported by this segment's run, as a path in the task's flow."""
        if self.gate is not None:
            return self.gate.path
        head, _, rest = path.partition(".")
        if not head.isdigit():
            return path
        top = str(self.base + int(head))
        return f"{top}.{rest}" if rest else top


@dataclass(frozen=True, slots=True)
class Artifact:
    """A screenshot a stopped run took."""

    name: str
    data: bytes
    run: int
    taken_at: float
    expires_at: float


@dataclass(eq=False, slots=True)
class Cell:
    """One task: its request, its working state, and the view last published."""

    id: str
    goal: str | None
    flow: Flow | None
    facts: Facts
    constraints: TaskConstraints
    ledger: BudgetLedger
    output: OutputSpec | None
    options: WorkspaceOptions
    view: TaskView
    pending: list[Segment] = field(default_factory=list)
    approval: Gate | None = None
    finished_top: int = 0
    variables: dict[str, JSONValue] = field(default_factory=dict)
    records: dict[str, JSONValue] = field(default_factory=dict)
    steps: list[StepReportInfo] = field(default_factory=list)
    trace: list[TraceInfo] = field(default_factory=list)
    hints: list[GroundingHint] = field(default_factory=list)
    rescues: list[RescueInfo] = field(default_factory=list)
    person: list[PersonStepInfo] = field(default_factory=list)
    artifacts: list[Artifact] = field(default_factory=list)
    has_workspace: bool = False
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def state(self) -> str:
        """The state of the published status."""
        return self.view.status.state

    def publish(self, view: TaskView) -> None:
        """Make ``view`` current and wake everyone waiting for a change."""
        self.view = view
        woken, self.changed = self.changed, asyncio.Event()
        woken.set()
