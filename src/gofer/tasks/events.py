"""A task's event log, typed: one model per kind of event, one writer, one reader.

The log is the durable record of what happened to a task; its status is derived
from it and the task's turns (:mod:`gofer.tasks.status`), the report reads it back
(:mod:`gofer.tasks.report`). Every event is stored as its kind and its model's JSON
(the shapes below are the stored format: a field added later has a default, so an
older log still reads). Nothing else writes or reads an event's data.

=========== ============================================================== ========
kind        what happened                                                   view
=========== ============================================================== ========
start       the task was stored (``item``: its first turn, if it has one)   yes
reply       the caller answered a pause (values, an approval, "go on")      usually
again       the caller asked for a run cut short to be tried again          yes
view        a step of the running turn began                                yes
ended       a run ended: where the task stands, its state, the run's log    yes
cancelled   the task was cancelled                                          yes
let_go      the browser held for a person was let go after ``after_s``      no
resolved    the caller marked the task done                                 no
reopened    the caller undid that                                           no
press       an irreversible press: about to happen, or done                 no
=========== ============================================================== ========
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from gofer.store import Notice, Transaction
from gofer.store.ledger import Ledger, TaskEvent
from gofer.tasks.contract import TaskView
from gofer.tasks.working import WorkingState

__all__ = [
    "STOP_EVENTS",
    "VIEW_EVENTS",
    "Again",
    "Ended",
    "Event",
    "LetGo",
    "MarkedDone",
    "PressJournaled",
    "Reopened",
    "Reply",
    "RunLog",
    "Start",
    "TaskCancelled",
    "ViewEvent",
    "kind_of",
    "read",
    "view_in",
    "write",
]


class _Event(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    KIND: ClassVar[str]

    def data(self) -> dict[str, Any]:
        """The event's stored JSON (its kind is stored beside it)."""
        return self.model_dump(mode="json", exclude={"kind"})


class Start(_Event):
    """The task was stored with its first view; ``item`` is its first turn (None when
    it waits for its caller from the start)."""

    KIND: ClassVar[str] = "start"
    kind: Literal["start"] = "start"
    item: int | None = None
    view: TaskView


class Reply(_Event):
    """The caller answered a pause: ``inputs`` (their names are ``secret`` when secret),
    ``approve``, or nothing ("go on"). ``item`` is the turn it queued (None when it
    queued none: a decline, or values that still leave questions)."""

    KIND: ClassVar[str] = "reply"
    kind: Literal["reply"] = "reply"
    item: int | None = None
    inputs: dict[str, str] = Field(default_factory=dict)
    secret: list[str] = Field(default_factory=list)
    approve: bool | None = None
    approval_id: str | None = None
    view: TaskView | None = None


class Again(_Event):
    """The caller asked for a run that was cut short (out of runs) to be tried again."""

    KIND: ClassVar[str] = "again"
    kind: Literal["again"] = "again"
    item: int | None = None
    inputs: dict[str, str] = Field(default_factory=dict)
    secret: list[str] = Field(default_factory=list)
    approve: bool | None = None
    approval_id: str | None = None
    view: TaskView | None = None


class ViewEvent(_Event):
    """A step of turn ``item`` began: the task's view while it runs."""

    KIND: ClassVar[str] = "view"
    kind: Literal["view"] = "view"
    item: int
    view: TaskView


class RunLog(BaseModel):
    """The steps and trace one run reported (as the report shows them)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    steps: list[dict[str, Any]] = Field(default_factory=list)
    trace: list[dict[str, Any]] = Field(default_factory=list)


class Ended(_Event):
    """A run of turn ``item`` ended (None: the caller's values ended a pause without a
    run): where the task stands, the working state it goes on from
    (:mod:`gofer.tasks.working`) and the run's log."""

    KIND: ClassVar[str] = "ended"
    kind: Literal["ended"] = "ended"
    item: int | None = None
    view: TaskView
    state: WorkingState | None = None
    run: RunLog = Field(default_factory=RunLog)


class TaskCancelled(_Event):
    """The task was cancelled; ``view`` is what it reads from then on."""

    KIND: ClassVar[str] = "cancelled"
    kind: Literal["cancelled"] = "cancelled"
    view: TaskView


class LetGo(_Event):
    """The browser held for a person was let go after ``after_s`` with nothing acting."""

    KIND: ClassVar[str] = "let_go"
    kind: Literal["let_go"] = "let_go"
    after_s: float = 0.0


class MarkedDone(_Event):
    """The caller marked the task done."""

    KIND: ClassVar[str] = "resolved"
    kind: Literal["resolved"] = "resolved"


class Reopened(_Event):
    """The caller undid marking the task done."""

    KIND: ClassVar[str] = "reopened"
    kind: Literal["reopened"] = "reopened"


class PressJournaled(_Event):
    """An irreversible press of turn ``item`` at step ``path``: journaled ``before`` it
    is pressed and ``after``. A rerun of a turn that journaled ``before`` never
    presses it again."""

    KIND: ClassVar[str] = "press"
    kind: Literal["press"] = "press"
    item: int
    path: str
    phase: Literal["before", "after"]


Event = Annotated[
    Start
    | Reply
    | Again
    | ViewEvent
    | Ended
    | TaskCancelled
    | LetGo
    | MarkedDone
    | Reopened
    | PressJournaled,
    Field(discriminator="kind"),
]
"""Any event of a task's log."""

_EVENT: TypeAdapter[Event] = TypeAdapter(Event)

STOP_EVENTS = (Start.KIND, Ended.KIND)
"""Events whose view is where the task stands when nothing runs."""

VIEW_EVENTS = (Start.KIND, Reply.KIND, Again.KIND, ViewEvent.KIND)
"""Events whose view is the task's while the turn they name runs."""


def read(event: TaskEvent) -> Event:
    """The one reader: a stored event as its model."""
    return _EVENT.validate_python({**event.data, "kind": event.kind})


def view_in(event: Event | None) -> TaskView | None:
    """The view an event carries, if it carries one."""
    if isinstance(event, Start | Reply | Again | ViewEvent | Ended | TaskCancelled):
        return event.view
    return None


_NOTICE = "task"
"""The notice the writer sends: a task's log changed (``kind``: the event's kind)."""


def kind_of(notice: Notice) -> str | None:
    """The kind of the event ``notice`` tells of, or None for a notice of anything
    else (a turn finished, a delivery, ...)."""
    return notice.kind if notice.event == _NOTICE else None


async def write(
    ledger: Ledger,
    tx: Transaction,
    owner: str,
    task_id: str,
    event: Event,
    at: float,
    group: str,
) -> TaskEvent:
    """The one writer: add ``event`` to the task's log and wake everyone following the
    task (its turns' serial ``group``) once ``tx`` commits."""
    stored = await ledger.append(owner, task_id, event.KIND, event.data(), at, tx=tx)
    tx.notify(Notice(_NOTICE, kind=event.KIND, group=group, owner=owner))
    return stored
