"""The runtime's request and result: what a caller hands ``run_flow`` and gets back.

These types are the seam between the runtime and whatever sits above it (the task
controller, the CLI, tests with a scripted runner). They are plain data, but for
:class:`ModelDecider`, the seam to a model decider (``gofer.decider``): what the
run asks it (an :class:`Allowance` to spend) and what it answers (a
:class:`Ruling` on an element, a :class:`Verdict` on a condition).
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from gofer.decide import Grounding, Query
from gofer.decide import GroundingHint as GroundingHint
from gofer.facts.otp import CodeSource
from gofer.flow.steps import Flow, JSONValue
from gofer.surfaces.screen import Element, Screen

Masker = Callable[[str], str]


DEFAULT_VOTES = 7
"""How many ways a decision is voted under ``deep`` deliberation, unless configured."""


MAX_VOTES = 15
"""The most votes one decision may be given."""


class Strategy(StrEnum):
    """What the model is shown for a decision."""

    NARROW = "narrow"  # the grounder's ranked candidates
    WIDE = "wide"  # a digest of every usable control on the screen


class Deliberation(StrEnum):
    """How many votes a decision gets before it is acted on."""

    DEEP = "deep"
    STANDARD = "standard"
    OFF = "off"


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
    role: str = ""  # the control's kind (button, link, menuitem, ...)
    section: str = ""  # the section of the page it sits in
    record: str = ""  # the record (a row, a card) it belongs to, when it is in one
    id: str = ""  # the approval the task asked for it under (set by the task)

    def same_control(self, other: Gate) -> bool:
        """Whether ``other`` is this very control: the same words, kind, page, section
        and record (an approval of one presses no other)."""
        return (
            _norm(self.label) == _norm(other.label)
            and self.role == other.role
            and self.url.split("#")[0] == other.url.split("#")[0]
            and _norm(self.section) == _norm(other.section)
            and _norm(self.record) == _norm(other.record)
            and self.key == other.key
        )


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


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


DEFAULT_FILE_BYTES = 20_000_000
"""The largest file a task takes or keeps, unless the operator says otherwise."""
DEFAULT_FILE_COUNT = 20
"""The most files one task holds (given and kept), unless the operator says otherwise."""


@dataclass(frozen=True, slots=True)
class FileLimits:
    """The operator's limits on files: ``bytes`` the largest one file (given or kept),
    ``count`` the most one task holds."""

    bytes: int = DEFAULT_FILE_BYTES
    count: int = DEFAULT_FILE_COUNT

    def __post_init__(self) -> None:
        if min(self.bytes, self.count) < 1:
            raise ValueError("file limits must be at least 1")


@dataclass(frozen=True, slots=True)
class TaskFile:
    """A file a run holds under the name its flow uses: one given to the task
    (``${cv}``), or one a step kept (a ``download``'s or ``save_pdf``'s ``as``)."""

    name: str
    filename: str = field(repr=False)  # a secret file's name is a secret fact's value
    media_type: str
    data: bytes = field(repr=False)
    secret: bool = False
    kept_by: str = ""
    """The path of the step that kept it (empty for a file given to the task)."""

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    def record(self) -> dict[str, JSONValue]:
        """What the task's records say of it: never its bytes."""
        return {
            "name": self.filename,
            "type": self.media_type,
            "size": self.size,
            "sha256": self.sha256,
        }


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
    approved: Gate | None = None
    """The control a person approved (a press run): only that same control is
    pressed; a different one stops the run in front of it instead."""
    codes: Mapping[str, CodeSource] = field(default_factory=dict)
    """Secret names whose value is an authenticator's seed: an ``enter`` of one types
    the code of the moment (never the seed, which is not among ``variables``)."""
    files: Mapping[str, TaskFile] = field(default_factory=dict)
    """The files given to the task, by the names its flow uses; an ``upload`` takes only
    these and the ones the run keeps, never a path."""
    file_limits: FileLimits = FileLimits()
    include_values: bool = True
    on_step: Callable[[str], None] | None = None  # told each step's path as it starts
    on_press: Callable[[str], Awaitable[bool]] | None = None
    """Told the step's path before a control that pays or cannot be undone is pressed
    under ``allow_destructive``, so the press is journaled before it happens; False:
    an earlier run of the same turn, cut short, may have pressed it already, and the
    step fails without pressing it a second time."""


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
    kept: list[TaskFile] = field(default_factory=list)  # files the run's steps kept, in order


@dataclass(frozen=True, slots=True)
class Allowance:
    """What one decision may spend, and how it is asked (None: the decider's default).

    ``calls_left`` and ``seconds_left`` are what the task has left; ``votes``,
    ``strategy`` and ``deliberation`` are the task's choices; ``seconds_per_call`` is
    how long a call took in the run's last decision (None before the first).
    """

    calls_left: int | None = None
    seconds_left: float | None = None
    seconds_per_call: float | None = None
    votes: int | None = None
    strategy: Strategy | None = None
    deliberation: Deliberation | None = None


@dataclass(frozen=True, slots=True)
class Ruling:
    """What the decider came to for one step.

    ``decided`` is True when the votes made the choice: then ``element`` is the
    element voted for, or None when the votes said none of them fits. When it is
    False (no model could be asked, or no vote was valid) ``element`` is None and the
    caller goes on as it would without a decider. ``calls`` is every model call made.
    """

    decided: bool
    element: Element | None
    calls: int
    reason: str
    rung: str = ""
    seconds_per_call: float | None = None  # measured in this decision (None: no round ended)

    @property
    def none_fits(self) -> bool:
        """Whether the votes said no element does what the step asks."""
        return self.decided and self.element is None


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a condition in words holds (None: the decider could not tell)."""

    holds: bool | None
    calls: int
    reason: str
    rung: str = ""
    seconds_per_call: float | None = None


class ModelDecider(Protocol):
    """A model that grounds a step or judges a condition where the grounder cannot
    (``gofer.decider.VotingDecider``). It reports every model call it made."""

    async def choose(
        self,
        query: Query,
        screen: Screen,
        grounding: Grounding | None,
        allowance: Allowance,
        *,
        step: str,
        redact: Callable[[str], str],
    ) -> Ruling:
        """The element ``query`` means, given the grounder's low-confidence answer
        (None for a ``do`` step)."""
        ...

    async def judge(
        self,
        condition: str,
        screen: Screen,
        allowance: Allowance,
        *,
        redact: Callable[[str], str],
    ) -> Verdict:
        """Whether the condition in words holds on the screen."""
        ...


@dataclass(frozen=True, slots=True)
class WorkspaceOptions:
    """How a task's workspace is made: which surfaces it has and how the browser runs."""

    surfaces: frozenset[str] = frozenset({"browser"})
    origins: tuple[str, ...] = ()
    browser_endpoint: str | None = None
    headed: bool = False
