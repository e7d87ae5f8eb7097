"""A task's cell while a turn runs, and the views published from it.

The :class:`Cell` is the task's last published view plus the working state a turn
goes on from: the segments it has still to run (:class:`Segment`) and the screenshots
its runs took (:class:`Artifact`). It is data: while a turn runs, its fields are
assigned in :mod:`gofer.tasks.turn` alone. :func:`view_of` makes a view of it:
summary, current step, progress, next calls and, once done, the answer; the turn
publishes it through its one outlet (:class:`gofer.tasks.book.TurnJournal`).

Everything a view carries passes through ``Facts.redact``: a fact's value shows as
its name, never as itself.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import JsonValue, TypeAdapter

from gofer.errors import InvalidRequest
from gofer.facts import Facts
from gofer.facts.otp import code_sources
from gofer.flow.describe import describe_step
from gofer.flow.steps import Browse, Click, Enter, Flow, JSONValue, Open, Press, Step, StopBefore
from gofer.flow.walk import iter_steps, step_at
from gofer.runtime.types import FileLimits, Gate, GroundingHint, RunRequest, TaskFile
from gofer.tasks.budget import Spending
from gofer.tasks.contract import (
    Call,
    Checkpoint,
    Done,
    Failed,
    NeedsApproval,
    NeedsHuman,
    NeedsInput,
    NeedsPlan,
    OutputSpec,
    PersonStepInfo,
    RescueInfo,
    Running,
    StartTaskRequest,
    Status,
    StepInfo,
    StepReportInfo,
    TaskConstraints,
    TaskView,
    TraceInfo,
)
from gofer.tasks.limits import MAX_RECORD_CHARS, MAX_SUMMARY_CHARS
from gofer.tasks.seams import WorkspaceOptions
from gofer.tasks.state import State

log = logging.getLogger("gofer.tasks")

__all__ = [
    "Artifact",
    "Cell",
    "Segment",
    "TurnNotes",
    "answer_for",
    "listing_position",
    "next_calls",
    "progress_summary",
    "redact_status",
    "released_view",
    "request_for",
    "running_view",
    "sentence",
    "step_surfaces",
    "stop_view",
    "title_of",
    "view_of",
]


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


@dataclass(frozen=True, slots=True)
class TurnNotes:
    """What a running turn knows beyond its task's last journaled state: its rescues
    (one whose guidance runs now) and the steps its person did."""

    rescues: list[RescueInfo]
    person: list[PersonStepInfo]


@dataclass(eq=False, slots=True)
class Cell:
    """One task: its request, its working state, and the view last published."""

    id: str
    goal: str | None
    flow: Flow | None
    facts: Facts
    constraints: TaskConstraints
    spending: Spending
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
    files: dict[str, TaskFile] = field(default_factory=dict)
    """The task's files by the names its flow uses: given, and kept by its runs."""
    kept: list[TaskFile] = field(default_factory=list)
    """The files this turn's runs kept, not yet in the store."""
    file_limits: FileLimits = field(default_factory=FileLimits)
    has_workspace: bool = False

    @property
    def state(self) -> str:
        """The state of the published status."""
        return self.view.status.state

    @classmethod
    def start(
        cls,
        task_id: str,
        request: StartTaskRequest,
        flow: Flow | None,
        facts: Facts,
        options: WorkspaceOptions,
        view: TaskView,
        *,
        pending: list[Segment] | None = None,
    ) -> Cell:
        """The task's cell as its request starts it, before any run (``pending``: the
        segments it is to run, none by default)."""
        return cls(
            id=task_id,
            goal=request.task,
            flow=flow,
            facts=facts,
            constraints=request.constraints,
            spending=Spending(request.budget),
            output=request.output,
            options=options,
            view=view,
            hints=[GroundingHint(**h.model_dump()) for h in request.hints],
            pending=list(pending or []),
        )

    def notes(self) -> TurnNotes:
        """What the running turn knows beyond the task's last journaled state."""
        return TurnNotes(rescues=list(self.rescues), person=list(self.person))


_STATUS: TypeAdapter[Status] = TypeAdapter(Status)

_NEXT: dict[str, list[Call]] = {
    State.RUNNING: [Call.AWAIT_TASK, Call.CANCEL_TASK],
    State.NEEDS_INPUT: [Call.CONTINUE_TASK, Call.CANCEL_TASK],
    State.NEEDS_APPROVAL: [Call.CONTINUE_TASK, Call.CANCEL_TASK],
    State.NEEDS_HUMAN: [Call.CONTINUE_TASK, Call.CANCEL_TASK],
    State.CHECKPOINT: [Call.CANCEL_TASK, Call.TASK_REPORT],
    State.NEEDS_PLAN: [Call.START_TASK],
    State.DONE: [Call.TASK_REPORT],
    State.CANCELLED: [Call.TASK_REPORT],
}


def next_calls(status: Status) -> list[Call]:
    """The calls that make sense for a task in ``status``."""
    if isinstance(status, Failed):
        if status.recoverable:
            return [Call.CONTINUE_TASK, Call.CANCEL_TASK, Call.TASK_REPORT]
        return [Call.TASK_REPORT, Call.START_TASK]
    if isinstance(status, Checkpoint) and status.continuable:
        return [Call.CONTINUE_TASK, Call.CANCEL_TASK, Call.TASK_REPORT]
    if isinstance(status, Checkpoint) and status.released:
        return [Call.TASK_REPORT]
    return list(_NEXT[status.state])


def sentence(text: str) -> str:
    """``text`` as one sentence: one line, at most MAX_SUMMARY_CHARS, ending in a stop."""
    flat = " ".join(text.split())
    if len(flat) > MAX_SUMMARY_CHARS:
        flat = flat[: MAX_SUMMARY_CHARS - 1].rstrip() + "…"
    return flat if flat.endswith((".", "…", "?", "!")) else flat + "."


def step_surfaces(flow: Flow, allowed: frozenset[str]) -> dict[str, str]:
    """The surface each step (by path) runs on, as the runtime picks it: the browser
    (the desktop for a task without one) until an ``open`` turns to the desktop, a
    ``browse`` back to the browser, or a step's ``surface`` to the one it names."""
    side = "browser" if "browser" in allowed or not allowed else "desktop"
    sides: dict[str, str] = {}
    for path, step in iter_steps(flow.steps):
        if step.surface is not None:
            side = step.surface
        elif isinstance(step, Open):
            side = "desktop"
        elif isinstance(step, Browse):
            side = "browser"
        sides[path] = side
    return sides


def step_info(flow: Flow, path: str, facts: Facts, allowed: frozenset[str]) -> StepInfo | None:
    """The view of the step at ``path`` in ``flow`` (None if there is none)."""
    head = path.split(".")[0]
    if not head.isdigit() or int(head) >= len(flow.steps):
        return None
    step = step_at(flow, path)
    return StepInfo(
        index=int(head),
        path=path,
        kind=step.KIND,
        intent=facts.redact(describe_step(step)),
        surface="desktop" if step_surfaces(flow, allowed).get(path) == "desktop" else "browser",
    )


def render_value(value: JsonValue) -> str:
    """A record's value as it reads in the answer."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= MAX_RECORD_CHARS else text[: MAX_RECORD_CHARS - 1] + "…"


def _records_text(records: dict[str, JsonValue]) -> str:
    return "; ".join(f"{name}: {render_value(value)}" for name, value in records.items())


def answer_for(total: int, records: dict[str, JsonValue], facts: Facts) -> str:
    """The finished task's answer: how many steps ran and what was read, redacted."""
    head = "Finished the only step." if total == 1 else f"Finished all {total} steps."
    read = _records_text(records)
    return facts.redact(f"{head} {read}." if read else head)


def progress_summary(cell: Cell) -> str:
    """What a stopped task got done, for a checkpoint: steps finished and what was read."""
    total = len(cell.flow.steps) if cell.flow else 0
    text = f"finished {cell.finished_top} of {total} steps"
    read = _records_text(cell.records)
    return cell.facts.redact(f"{text}; read {read}" if read else text)


def redact_status(status: Status, facts: Facts) -> Status:
    """``status`` with every fact value in its words replaced by the fact's name."""
    data: dict[str, Any] = status.model_dump()
    state = data.pop("state")
    redacted = facts.redact_json(data)
    assert isinstance(redacted, dict)
    return _STATUS.validate_python({**redacted, "state": state})


def _summary(status: Status, cell: Cell, info: StepInfo | None) -> str:
    total = len(cell.flow.steps) if cell.flow else 0
    where = f"step {info.index + 1} of {total}" if info else "the task"
    match status:
        case Running():
            if cell.flow is None:
                return "Planning the task."
            return f"Running {where}: {info.intent}." if info else "Starting."
        case NeedsInput(fields=fields):
            return f"Waiting for values: {', '.join(fields)}."
        case NeedsApproval(target=target, action=action):
            return f"Waiting for approval to press “{target}” ({action}) at {where}."
        case NeedsHuman(reason=reason):
            return f"Waiting for a person: {reason}."
        case Checkpoint(reason=reason):
            return f"Stopped: {reason}."
        case NeedsPlan():
            return (
                "No planner is configured: start the task again with a flow written with the guide."
            )
        case Done(answer=answer):
            return answer.split(". ")[0] if answer else "Finished."
        case Failed(reason=reason):
            return f"Failed at {where}: {reason}." if info else f"Failed: {reason}."
        case _:
            return "Cancelled."


def released_view(view: TaskView) -> TaskView:
    """``view`` of a task at a checkpoint once its browser is released: the same
    checkpoint, ``released``, with nothing left to call but the report."""
    status = view.status
    if not isinstance(status, Checkpoint):
        return view
    kept = status.model_copy(update={"released": True, "continuable": False})
    return view.model_copy(
        update={
            "status": kept,
            "summary": sentence(f"Stopped: {kept.reason}; the browser was released"),
            "next": next_calls(kept),
        }
    )


def view_of(cell: Cell, status: Status, at: str | None, note: str = "") -> TaskView:
    """The view of ``cell`` in ``status``, about the step at ``at`` (redacted)."""
    status = redact_status(status, cell.facts)
    info = (
        step_info(cell.flow, at, cell.facts, cell.options.surfaces)
        if (cell.flow is not None and at is not None)
        else None
    )
    total = len(cell.flow.steps) if cell.flow else 0
    progress = 1.0 if isinstance(status, Done) else (cell.finished_top / total if total else 0.0)
    summary = note or _summary(status, cell, info)
    return TaskView(
        id=cell.id,
        status=status,
        summary=cell.facts.redact(sentence(summary)),
        step=info,
        progress=min(1.0, progress),
        next=next_calls(status),
    )


def stop_view(cell: Cell, status: Status, at: str | None) -> TaskView:
    """The view of the task stopped in ``status`` about the step at ``at``, logged
    (state and step only, never words)."""
    log.info("task %s: %s at step %s", cell.id, status.state, at)
    return view_of(cell, status, at)


def running_view(cell: Cell, pending: list[Segment] | None = None) -> TaskView:
    """The view of the task running, on the first step of its next segment
    (``pending``: its segments, when not the cell's)."""
    pending = cell.pending if pending is None else pending
    if not pending:
        return view_of(cell, Running(), None)
    seg = pending[0]
    at = seg.gate.path if seg.gate is not None else str(seg.base)
    note = "Pressing the approved control." if seg.press else ""
    return view_of(cell, Running(), at, note)


def title_of(task: str | None, flow: Flow | None) -> str:
    """A task's title: the first sentence of its plain-language ask, else its flow's size."""
    if task and task.strip():
        return sentence(task.strip().split(". ")[0])[:120]
    steps = len(flow.steps) if flow is not None else 0
    return f"A flow of {steps} step{'s' if steps != 1 else ''}."


def listing_position(cursor: str | None) -> int | None:
    """The listing position a ``next_cursor`` names (INVALID_REQUEST for any other)."""
    if cursor is None:
        return None
    if not cursor.isascii() or not cursor.isdigit() or len(cursor) > 18:
        raise InvalidRequest(
            "the cursor is not one a listing gave",
            problems=[{"at": "cursor", "message": "not one a listing gave"}],
        )
    return int(cursor)


def request_for(
    cell: Cell,
    seg: Segment,
    on_step: Callable[[str], None] | None,
    on_press: Callable[[str], Awaitable[bool]] | None,
) -> RunRequest:
    """The run of ``seg`` as the runner takes it: its steps (an approved press: the one
    step that presses the control), the task's values, budget left, hints and files."""
    assert cell.flow is not None
    steps = (_approved(cell.flow, seg.gate),) if seg.gate is not None else seg.steps
    values = cell.facts.as_dict()
    codes = code_sources(values, cell.facts.secret_names)
    return RunRequest(
        flow=Flow(steps=steps, vars=cell.flow.vars),
        # An authenticator's seed stays out of the run: it types the seed's codes.
        variables={
            **cell.flow.vars,
            **cell.variables,
            **{k: v for k, v in values.items() if k not in codes},
        },
        codes=codes,
        approved=seg.gate,
        private=frozenset(cell.facts.secret_names),
        mask=cell.facts.mask,
        allow_destructive=seg.allow_destructive,
        budget=cell.spending.for_run(),
        hints=tuple(cell.hints),
        files=dict(cell.files),
        file_limits=cell.file_limits,
        on_step=on_step,
        on_press=on_press,
    )


def _approved(flow: Flow, gate: Gate) -> Step:
    """The one step that presses an approved control: the step that stopped in front of
    it, run again (a click keeps its ``within``, an Enter its field), else the key or a
    ``stop_before`` with the gate's words."""
    try:
        step = step_at(flow, gate.path)
    except InvalidRequest:
        step = None
    if isinstance(step, Click | Enter | Press | StopBefore):
        return replace(step, optional=False)
    return Press(key=gate.key) if gate.key else StopBefore(action=gate.action)
