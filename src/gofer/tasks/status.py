"""A task's status, worked out on every read from what already knows it.

No table stores a status. A read takes the task's turns on the work queue (its
serial group) and the latest entries of its event log, and decides:

1. cancelled, when the log says so (a cancel outranks everything after it);
2. running, while one of its turns is queued or leased (a turn held back by a cap
   reads running too), with the view the turn last published as a step started;
3. failed, when its last turn ran out of runs (a worker died or restarted under it
   each time) and no run ended it, with the reason in plain words;
4. otherwise what the last run (or the start) ended on: paused for the caller,
   checkpoint, done, failed;
5. and a task marked done (``resolved_at``) reads done once nothing runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gofer.store import Item, Notice, SerialKind, SerialOrder
from gofer.store.ledger import TaskEvent, TaskRecord
from gofer.tasks.cell import next_calls, sentence
from gofer.tasks.contract import Call, Done, Failed, Running, TaskView
from gofer.tasks.events import Again, Ended, Reply, Start, ViewEvent, kind_of, read, view_in
from gofer.tasks.state import turn_open, turn_ran_out

__all__ = [
    "KINDS",
    "TASK_ORDER",
    "TURN_ATTEMPTS",
    "TaskReading",
    "derive",
    "may_stop",
    "task_group",
]

TURN_ATTEMPTS = 2
"""A turn runs at most twice: once, and again after a crash or a restart."""

TASK_ORDER = SerialOrder(
    "task",
    {
        "turn": SerialKind("task_id", max_attempts=TURN_ATTEMPTS),
        Reply.KIND: SerialKind("task_id", max_attempts=TURN_ATTEMPTS),
        Again.KIND: SerialKind("task_id", max_attempts=TURN_ATTEMPTS),
    },
)
"""A task's turns, the caller's replies and approvals, and its reruns share one order,
so none overtakes another."""

KINDS = tuple(TASK_ORDER.kinds)


def task_group(task_id: str) -> str:
    """The stored serial group of a task's turns."""
    return TASK_ORDER.key(task_id)


@dataclass(frozen=True)
class TaskReading:
    """What one status read looked up: the row, the turns, the latest log entries."""

    record: TaskRecord
    turns: Sequence[Item]
    stop: TaskEvent | None
    moving: TaskEvent | None
    cancelled: TaskEvent | None

    def ended(self, turn: Item) -> bool:
        """Whether a run of ``turn`` ended and wrote where the task stands."""
        stop = read(self.stop) if self.stop is not None else None
        return isinstance(stop, Ended) and stop.item == turn.id

    @property
    def open_turn(self) -> Item | None:
        """The turn queued or leased now, if any."""
        return next((t for t in self.turns if turn_open(t)), None)

    @property
    def out_of_runs(self) -> int | None:
        """The id of the task's last turn when it ran out of runs with no run ending it."""
        last = self.turns[-1] if self.turns else None
        if last is None or not turn_ran_out(last):
            return None
        return None if self.ended(last) else last.id


def may_stop(notice: Notice, group: str) -> bool:
    """Whether ``notice`` may mean the task's turn stopped running (a view journaled as
    a step starts cannot)."""
    return notice.group == group and kind_of(notice) != ViewEvent.KIND


def _view(event: TaskEvent | None) -> TaskView | None:
    return view_in(read(event)) if event is not None else None


def _running(base: TaskView | None, task_id: str, summary: str) -> TaskView:
    return TaskView(
        id=task_id,
        status=Running(),
        summary=summary,
        step=base.step if base is not None else None,
        progress=base.progress if base is not None else 0.0,
        next=[Call.AWAIT_TASK, Call.CANCEL_TASK],
    )


def _out_of_runs(turn: Item, base: TaskView | None, task_id: str) -> TaskView:
    cause = turn.last_error or "its worker stopped before the run ended (a crash or a restart)"
    runs = "once" if turn.attempts == 1 else f"{turn.attempts} times"
    status = Failed(
        step=base.step.path if base is not None and base.step is not None else None,
        reason=f"the run was cut short {runs}: {cause}",
        hint="continue_task tries the run again from where the task last stood",
        recoverable=True,
    )
    return TaskView(
        id=task_id,
        status=status,
        summary=sentence(f"Failed: {status.reason}"),
        step=base.step if base is not None else None,
        progress=base.progress if base is not None else 0.0,
        next=next_calls(status),
    )


def derive(reading: TaskReading) -> TaskView:
    """The task's view now (see the module's docstring for the rules)."""
    task_id = reading.record.id
    cancelled = _view(reading.cancelled)
    if cancelled is not None:
        return cancelled
    stop = _view(reading.stop)
    turn = reading.open_turn
    if turn is not None:
        moving = read(reading.moving) if reading.moving is not None else None
        if isinstance(moving, Start | Reply | Again | ViewEvent) and moving.item == turn.id:
            view = view_in(moving)
            if view is not None:
                return view
        return _running(stop, task_id, "Waiting for a free worker.")
    last = reading.turns[-1] if reading.turns else None
    if last is not None and turn_ran_out(last) and not reading.ended(last):
        return _out_of_runs(last, _view(reading.moving) or stop, task_id)
    if stop is None:
        return _running(None, task_id, "Starting.")
    if reading.record.resolved_at is not None and not isinstance(stop.status, Done):
        ended = read(reading.stop) if reading.stop is not None else None
        state = ended.state if isinstance(ended, Ended) else None
        records = dict(state.records) if state is not None else {}
        status = Done(answer="Marked done by its caller.", records=records)
        return stop.model_copy(
            update={"status": status, "summary": "Marked done.", "next": next_calls(status)}
        )
    return stop
