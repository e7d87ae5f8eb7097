"""Where a task is: the :class:`State` of its status, and what each state means.

The predicates below are the only place that says which states are live, which wait
for a person and which keep the task's browser for one; everything else asks them
(or tells a status by its model, ``isinstance(status, Running)``), never a literal
state name.
"""

from __future__ import annotations

from gofer.store import Item
from gofer.tasks.contract import (
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
)

__all__ = [
    "PERSON_STATES",
    "State",
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
