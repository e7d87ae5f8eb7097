"""The runtime's request and result: what a caller hands ``run_flow`` and gets back.

These types are the seam between the runtime and whatever sits above it (the task
controller, the CLI, tests with a scripted runner). They are plain data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from gofer.decide import Deliberation, Strategy
from gofer.decide import GroundingHint as GroundingHint
from gofer.flow.steps import Flow, JSONValue

Masker = Callable[[str], str]


class StepOutcome(StrEnum):
    """How one step ended (flows.md, "Step outcomes")."""

    DONE = "done"
    ALREADY_DONE = "already_done"
    GATED = "gated"
    FAILED = "failed"
    SKIPPED = "skipped"


class RunStatus(StrEnum):
    """How a whole run ended."""

    COMPLETED = "completed"  # every step finished
    GATED = "gated"  # a stop_before stopped in front of its control
    FAILED = "failed"  # a step failed
    BUDGET_SPENT = "budget_spent"  # max_actions or max_model_calls ran out
    INVALID = "invalid"  # the flow could not run at all (e.g. bad variables)
    CANCELLED = "cancelled"  # the caller cancelled the run


@dataclass(frozen=True, slots=True)
class RunBudget:
    """What this run may spend; ``None`` means no limit."""

    max_actions: int | None = None
    max_model_calls: int | None = None
    time_left_ms: float | None = None  # running time the task has left (the decider's)
    votes: int | None = None  # ways a decision is voted (None: the decider's default)
    strategy: Strategy | None = None  # what the decider is shown (None: its default)
    deliberation: Deliberation | None = None  # how much it deliberates (None: its default)


@dataclass(slots=True)
class Spend:
    """What a run spent."""

    actions: int = 0
    model_calls: int = 0

    def add(self, other: Spend) -> None:
        self.actions += other.actions
        self.model_calls += other.model_calls


@dataclass(frozen=True, slots=True)
class ChosenElement:
    """The element a step acted on, as a person would name it."""

    role: str
    name: str


@dataclass(slots=True)
class StepReport:
    """One step the runtime ran. ``path`` is ``"3"`` or ``"5.then.1"`` (0-based)."""

    path: str
    kind: str
    outcome: StepOutcome
    intent: str
    element: ChosenElement | None = None
    confidence: float | None = None
    reason: str | None = None
    duration_ms: float = 0.0
    actions: int = 0
    model_calls: int = 0


@dataclass(frozen=True, slots=True)
class Gate:
    """Where a ``stop_before`` stopped: the phrase, the control found, what it means."""

    path: str
    action: str  # the stop_before words
    label: str  # the control's own words on screen
    consequence: str  # "payment" | "irreversible" | "reversible"
    payment_screen: bool  # the screen showed card-form evidence
    surface: str = "browser"
    url: str = ""
    key: str = ""  # set when the stop is before pressing this key (Enter on a card form)


@dataclass(frozen=True, slots=True)
class Failure:
    """Why a run stopped on a failed step."""

    path: str
    kind: str
    reason: str


@dataclass(frozen=True, slots=True)
class TraceEvent:
    """One entry of a run's trace. ``detail`` never holds a secret value."""

    at_ms: float
    path: str
    event: str
    detail: Mapping[str, JSONValue] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RunRequest:
    """Everything ``run_flow`` needs, apart from the workspace it runs on.

    ``variables`` holds the flow's vars overlaid with the caller's facts; names in
    ``private`` are secret: their values are only ever typed, never shown, and
    ``mask`` hides them in everything that leaves the run (the screen the run
    grounds on is not masked: see ``Run.screen``).
    """

    flow: Flow
    variables: Mapping[str, JSONValue] = field(default_factory=dict)
    private: frozenset[str] = frozenset()
    mask: Masker | None = None
    allow_destructive: bool = False
    budget: RunBudget = RunBudget()
    hints: tuple[GroundingHint, ...] = ()
    include_values: bool = True
    on_step: Callable[[str], None] | None = None  # told each step's path as it starts


@dataclass(slots=True)
class RunResult:
    """What a run did and how it ended."""

    status: RunStatus
    steps: list[StepReport] = field(default_factory=list)
    gate: Gate | None = None
    failure: Failure | None = None
    variables: dict[str, JSONValue] = field(default_factory=dict)
    changed: dict[str, JSONValue] = field(default_factory=dict)
    trace: list[TraceEvent] = field(default_factory=list)
    hints: list[GroundingHint] = field(default_factory=list)
    spend: Spend = field(default_factory=Spend)
    top_level_done: int = 0  # how many top-level steps finished
    screen_text: str = ""  # the last screen's visible text, masked, for the rescuer
    wall: str | None = None  # what only a person can pass on the last screen ("a captcha")
    reason: str = ""  # plain-language reason for BUDGET_SPENT / INVALID / CANCELLED
