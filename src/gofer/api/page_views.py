"""What the task pages say about a task, in a person's words: its status and the
group it is listed under, the question's fields, where an approval would press, the
report in order. Pure functions over the faces' models; the templates only lay
them out.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal
from urllib.parse import urlsplit

from pydantic import JsonValue

from gofer.api.views import TaskEntry
from gofer.facts import is_secret_name
from gofer.tasks import (
    Cancelled,
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
    TaskReport,
    events,
    holds_browser,
    step_number,
)

__all__ = [
    "FILTERS",
    "Field",
    "Group",
    "Line",
    "did_lines",
    "fields_of",
    "hint_words",
    "holds_browser",
    "lines_of",
    "list_group",
    "live",
    "outcome_words",
    "plain",
    "pressed_on",
    "progress_percent",
    "shown",
    "status_words",
    "step_number",
    "waiting",
    "when",
]

Group = Literal["needs-you", "running", "finished"]

FILTERS: dict[str, str] = {
    "needs-you": "Needs you",
    "running": "Running",
    "finished": "Finished",
}
"""The list's filters, by the value of ``?show=``."""


def list_group(record: TaskEntry) -> Group:
    """Where the list puts a task: waiting for the person, working, or finished."""
    status = record.view.status
    if record.resolved_at is not None:
        return "finished"
    match status:
        case Running():
            return "running"
        case Checkpoint(released=True):
            return "finished"
        case NeedsInput() | NeedsApproval() | NeedsHuman() | Checkpoint():
            return "needs-you"
        case Failed(recoverable=recoverable):
            return "needs-you" if recoverable else "finished"
        case _:
            return "finished"


def status_words(status: Status, resolved: bool = False) -> str:
    """The status in a few plain words, as the list and the page's live region say it."""
    if resolved:
        return "Marked done"
    match status:
        case Running():
            return "Running"
        case NeedsInput(fields=fields):
            count = len(fields)
            return f"Needs you: {count} detail{'s' if count != 1 else ''} to give"
        case NeedsApproval(target=target):
            return f"Needs you: approve “{target}”?"
        case NeedsHuman():
            return "Needs you: a step only a person can do"
        case Checkpoint(released=True):
            return "Stopped at the checkpoint; its browser released"
        case Checkpoint(continuable=continuable):
            return "Needs you: over to you" if not continuable else "Needs you: checkpoint reached"
        case NeedsPlan():
            return "Stopped: needs a flow"
        case Done():
            return "Done"
        case Failed(recoverable=recoverable):
            return "Failed: you can try again" if recoverable else "Failed"
        case _:
            return "Cancelled"


def waiting(status: Status) -> bool:
    """Whether the task waits for its person (a question, an approval, a step only they
    can do, a checkpoint not released, a failed step they may try again)."""
    match status:
        case NeedsInput() | NeedsApproval() | NeedsHuman():
            return True
        case Checkpoint(released=released):
            return not released
        case Failed(recoverable=recoverable):
            return recoverable
        case _:
            return False


def live(status: Status) -> bool:
    """Whether the task may still change by itself or by an answer (the page follows
    its stream while it may)."""
    match status:
        case Done() | Cancelled() | NeedsPlan():
            return False
        case Failed(recoverable=recoverable):
            return recoverable
        case Checkpoint(continuable=continuable):
            return continuable
        case _:
            return True


def progress_percent(progress: float) -> int:
    """The view's progress as a whole percentage."""
    return round(max(0.0, min(1.0, progress)) * 100)


def when(moment: datetime | float | None) -> str:
    """A time as the pages print it (UTC, to the second)."""
    if moment is None:
        return ""
    if not isinstance(moment, datetime):
        moment = datetime.fromtimestamp(moment, UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


@dataclass(frozen=True, slots=True)
class Field:
    """One value the question asks for: its name, and whether it is secret by its name
    (typed into a password input)."""

    name: str
    secret: bool
    key: str


def fields_of(status: Status) -> list[Field]:
    """The question's fields, each with its form input's name."""
    if not isinstance(status, NeedsInput):
        return []
    return [Field(name, is_secret_name(name), f"value-{i}") for i, name in enumerate(status.fields)]


def pressed_on(report: TaskReport | None) -> str | None:
    """The page an approval waits on (host and path), from the last stop the trace
    recorded; None when the trace does not say."""
    if report is None:
        return None
    for entry in reversed(report.trace):
        if entry.event == "gated":
            url = entry.detail.get("url")
            if isinstance(url, str) and url:
                parts = urlsplit(url)
                return (parts.netloc + parts.path) if parts.netloc else url
            return None
    return None


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the report as the page prints it, in order."""

    at: str
    kind: str
    text: str


_KIND_WORDS = {
    events.Start.KIND: "Started",
    events.Reply.KIND: "Answered",
    events.Again.KIND: "Tried again",
    events.TaskCancelled.KIND: "Cancelled",
    events.LetGo.KIND: "Browser let go",
    events.MarkedDone.KIND: "Marked done",
    events.Reopened.KIND: "Reopened",
}
_ENDED_WORDS: dict[str, str] = {
    State.DONE: "Finished",
    State.FAILED: "Failed",
    State.CANCELLED: "Cancelled",
    State.RUNNING: "Ran",
    State.NEEDS_PLAN: "Stopped",
}


def _kind_words(kind: str, state: str | None) -> str:
    if kind == events.Ended.KIND:
        return _ENDED_WORDS.get(state or "", "Paused")
    return _KIND_WORDS.get(kind, kind.replace("_", " ").capitalize())


def lines_of(report: TaskReport | None) -> list[Line]:
    """The task's log (starts, replies, decisions, each run's end) in order; a run that
    ended waiting for the person reads as a pause."""
    if report is None:
        return []
    return [
        Line(when(entry.at), _kind_words(entry.kind, entry.state), entry.text)
        for entry in report.log
    ]


_OUTCOMES = {
    "done": "done",
    "already_done": "already done",
    "done_by_person": "done by you",
    "gated": "stopped to ask first",
    "failed": "failed",
    "skipped": "skipped",
    "cancelled": "cancelled",
}


def outcome_words(outcome: str) -> str:
    """A step's outcome in a person's words."""
    return _OUTCOMES.get(outcome, outcome.replace("_", " "))


_API_WORDS = re.compile(r"\b[a-z]+_[a-z_]+\b|\b[A-Z][A-Z_]{3,}\b|\bbudget\.")


def hint_words(status: Status) -> str | None:
    """A failure's hint for the person: the caller's calls in plain words, and none
    that names an API field or code."""
    if not isinstance(status, Failed) or not status.hint:
        return None
    text = status.hint.replace("continue_task runs", "Trying again runs")
    if "budget." in text:
        return "It used up what it may spend; start the task again with a larger budget."
    if _API_WORDS.search(text):
        return None
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def did_lines(report: TaskReport | None) -> list[str]:
    """What the person did in the task's live view, one line a step, each numbered as
    the task's steps are everywhere: a step of the flow the person did in its place
    takes that step's number ("Step 3: press “Track package”"); what they did on the way
    (signing in) says which step it came before."""
    if report is None:
        return []
    theirs = {s.path: plain(s.intent) for s in report.steps if s.outcome == "done_by_person"}
    lines: list[str] = []
    for person in report.person_steps:
        if not person.words:
            continue
        words = plain(person.words)
        if person.before is None:
            lines.append(f"After the last step: {words}")
            continue
        span = range(person.before, person.before + person.did)
        match = next((p for p in map(str, span) if theirs.get(p) == words), None)
        if match is not None:
            del theirs[match]
            lines.append(f"Step {step_number(match)}: {words}")
        else:
            lines.append(f"Before step {person.before + 1}: {words}")
    return lines


_NAMED = re.compile(r"\$\{([^}]*)\}")


def plain(text: str) -> str:
    """``text`` with a flow's ``${name}`` said as a person says it: "your name"."""
    return _NAMED.sub(lambda m: "your " + m.group(1), text)


def shown(value: JsonValue) -> str:
    """A record's value as text: strings as they are, anything else as indented JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, indent=2, ensure_ascii=False)
