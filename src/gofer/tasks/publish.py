"""Publishing views: summaries, the current step, progress, next calls, the answer.

Everything a view carries passes through ``Facts.redact``: a fact's value shows as
its name, never as itself.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import JsonValue, TypeAdapter

from gofer.errors import InvalidRequest
from gofer.facts import Facts
from gofer.flow.describe import describe_step
from gofer.flow.steps import (
    Flow,
)
from gofer.flow.walk import step_at
from gofer.tasks.cell import Cell
from gofer.tasks.checks import step_surfaces
from gofer.tasks.contract import (
    Call,
    Checkpoint,
    Done,
    Failed,
    NeedsApproval,
    NeedsHuman,
    NeedsInput,
    NeedsPlan,
    Running,
    State,
    Status,
    StepInfo,
    TaskView,
)
from gofer.tasks.limits import MAX_RECORD_CHARS, MAX_SUMMARY_CHARS

__all__ = [
    "answer_for",
    "listing_position",
    "next_calls",
    "progress_summary",
    "redact_status",
    "released_view",
    "sentence",
    "title_of",
    "view_of",
]

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
