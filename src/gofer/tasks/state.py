"""Where a task is: its status, the :class:`State` that names it, and what each
state means.

The status models below are the ``status`` of every task view (the calls' contract,
:mod:`gofer.tasks.contract`, carries them). The predicates are the only place that
says which states are live, which wait for a person and which keep the task's browser
for one; everything else asks them (or tells a status by its model,
``isinstance(status, Running)``), never a literal state name.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

if TYPE_CHECKING:
    from gofer.store import Item


__all__ = [
    "PERSON_STATES",
    "Cancelled",
    "Checkpoint",
    "ControlInfo",
    "Done",
    "Failed",
    "NeedsApproval",
    "NeedsHuman",
    "NeedsInput",
    "NeedsPlan",
    "Running",
    "State",
    "Status",
    "at_checkpoint",
    "continuable",
    "holds_browser",
    "is_live",
    "is_running",
    "released",
    "turn_open",
    "turn_ran_out",
    "waits_for_person",
]


class State(StrEnum):
    """Where a task is: the ``state`` of its status."""

    RUNNING = "running"
    NEEDS_INPUT = "needs_input"
    NEEDS_APPROVAL = "needs_approval"
    NEEDS_HUMAN = "needs_human"
    CHECKPOINT = "checkpoint"
    NEEDS_PLAN = "needs_plan"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Running(_Model):
    """The task is working."""

    state: Literal["running"] = "running"


class NeedsInput(_Model):
    """The flow uses names no fact supplies; continue with ``inputs``."""

    state: Literal["needs_input"] = "needs_input"
    fields: list[str]


class ControlInfo(_Model):
    """The control an approval presses, as the task saw it."""

    label: str = Field(description="its own words on screen")
    kind: str = Field(description="button, link, menuitem, ... (a key for a key press)")
    address: str = Field(description="the page it is on")
    section: str = Field(default="", description="the section of the page it sits in")
    record: str = Field(default="", description="the row or card it belongs to, if any")


class NeedsApproval(_Model):
    """A ``stop_before`` found an irreversible control; continue with ``approve`` (and
    ``approval_id``): only that same control on that same page is pressed, and if the
    page changed so it is not, the task asks again with what is there now."""

    state: Literal["needs_approval"] = "needs_approval"
    action: str = Field(description="the stop_before words")
    target: str = Field(description="the control's own words on screen")
    approval_id: str | None = Field(
        default=None, description="name it in continue_task's approval_id; used once"
    )
    control: ControlInfo | None = Field(default=None, description="what it would press")


class NeedsHuman(_Model):
    """A step failed in front of something only a person can pass; continue after."""

    state: Literal["needs_human"] = "needs_human"
    reason: str


class Checkpoint(_Model):
    """The task stopped where a person must take over; the workspace stays open."""

    state: Literal["checkpoint"] = "checkpoint"
    reason: str
    location: str
    summary: str
    continuable: bool
    released: bool = Field(
        default=False,
        description="cancel_task released the task's browser here: the checkpoint stays "
        "the task's outcome, and nothing more runs",
    )


class NeedsPlan(_Model):
    """A plain-language task arrived and no planner is configured."""

    state: Literal["needs_plan"] = "needs_plan"
    guide: str


class Done(_Model):
    """Every step finished."""

    state: Literal["done"] = "done"
    answer: str
    records: dict[str, JsonValue]
    result: JsonValue = None


class Failed(_Model):
    """A step failed, a budget ran out, or the flow could not run."""

    state: Literal["failed"] = "failed"
    step: str | None = Field(description="the failed step's path, e.g. '3' or '5.then.1'")
    reason: str
    hint: str | None = None
    recoverable: bool


class Cancelled(_Model):
    """The caller cancelled the task or declined an approval."""

    state: Literal["cancelled"] = "cancelled"


Status = Annotated[
    Running
    | NeedsInput
    | NeedsApproval
    | NeedsHuman
    | Checkpoint
    | NeedsPlan
    | Done
    | Failed
    | Cancelled,
    Field(discriminator="state"),
]


PERSON_STATES = (NeedsHuman, NeedsApproval, Checkpoint)
"""The pauses in which the task keeps its browser open for a person to act in."""

_FINAL = (Done, Cancelled, NeedsPlan)


def is_running(status: Status) -> bool:
    """Whether a turn of the task runs (or waits for a free worker)."""
    return isinstance(status, Running)


def is_live(status: Status) -> bool:
    """Whether the task works, waits for its caller, or may still hold a workspace:
    anything but done, cancelled, needs_plan, a released checkpoint and a failure that
    cannot be retried."""
    if isinstance(status, _FINAL) or released(status):
        return False
    return not (isinstance(status, Failed) and not status.recoverable)


def holds_browser(status: Status) -> bool:
    """Whether the task waits with its browser kept for a person who may act in it
    (needs_human, needs_approval, a checkpoint not yet released, a recoverable failure)."""
    if isinstance(status, PERSON_STATES):
        return not released(status)
    return isinstance(status, Failed) and status.recoverable


def released(status: Status) -> bool:
    """Whether the task stopped at a checkpoint whose browser was then released: the
    checkpoint is its outcome, and nothing more runs."""
    return isinstance(status, Checkpoint) and status.released


def at_checkpoint(status: Status) -> bool:
    """Whether releasing the task's browser now keeps its status (a checkpoint not yet
    released) rather than cancelling it."""
    return isinstance(status, Checkpoint) and not status.released


def continuable(status: Status) -> bool:
    """Whether ``continue_task`` may answer the task now."""
    match status:
        case NeedsInput() | NeedsApproval() | NeedsHuman():
            return True
        case Failed() | Checkpoint():
            return status.recoverable if isinstance(status, Failed) else status.continuable
        case _:
            return False


def waits_for_person(status: Status) -> bool:
    """Whether the task is paused until its caller (or a person) does something."""
    return continuable(status)


def turn_open(turn: Item) -> bool:
    """Whether a turn of the task is queued or leased now (the task reads running)."""
    return turn.state in ("queued", "running")


def turn_ran_out(turn: Item) -> bool:
    """Whether a turn used up its runs (its worker died or stopped under it each time)."""
    return turn.state == "failed"
