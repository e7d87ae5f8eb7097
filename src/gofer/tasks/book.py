"""The ledger side of a task: its row, its turns and its event log in the store,
looked up by owner and task, and the working state a run goes on from.

A running turn speaks through one outlet here (:class:`TurnJournal`): each view its
run publishes as a step starts is journaled, and each irreversible press before it
happens and after, so a rerun of the turn never presses twice.

A task's working state is kept as JSON in its ``ended`` event (:func:`snapshot`): the
flow (a planned one too), the segments still to run, the approval waiting, how far
the flow got, the variables and records read, the hints and rescues, what was spent,
and the page the browser was on. A later turn, on this worker or another one, or
after a restart, rebuilds the task's :class:`~gofer.tasks.cell.Cell` from it
(:func:`restore`) and goes on from there.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from gofer.facts import Facts
from gofer.flow import flow_to_json, parse_flow
from gofer.flow.steps import Flow, Step
from gofer.runtime.types import FileLimits, Spend
from gofer.store import Connector, QueueConfig, Transaction, WorkQueue
from gofer.store.ledger import Ledger, TaskEvent, TaskRecord, ledger_for
from gofer.store.taskfiles import TaskFiles
from gofer.tasks.budget import Spending
from gofer.tasks.cell import Cell, Segment
from gofer.tasks.contract import Running, StartTaskRequest, TaskView
from gofer.tasks.errors import unknown_task
from gofer.tasks.events import (
    STOP_EVENTS,
    VIEW_EVENTS,
    Ended,
    Event,
    MarkedDone,
    PressJournaled,
    Reply,
    TaskCancelled,
    ViewEvent,
    read,
    view_in,
    write,
)
from gofer.tasks.notify import enqueue_delivery
from gofer.tasks.seams import WorkspaceOptions
from gofer.tasks.state import is_running
from gofer.tasks.status import TASK_ORDER, TaskReading, derive, task_group
from gofer.tasks.working import SegmentState, SpentState, WorkingState

__all__ = [
    "LOCAL_OWNER",
    "Loaded",
    "TaskBook",
    "TurnJournal",
    "last_address",
    "restore",
    "snapshot",
    "task_of_group",
]


log = logging.getLogger("gofer.tasks")

LOCAL_OWNER = "local"
"""The one owner of the embedded default."""


def task_of_group(group: str | None) -> str | None:
    """The task whose turns' serial group is ``group`` (None for other groups)."""
    prefix = TASK_ORDER.key("")
    if group is None or not group.startswith(prefix):
        return None
    return group[len(prefix) :]


@dataclass(frozen=True)
class Loaded:
    """A task as the ledgers hold it: the row, the request, the facts with every
    reply's values merged in, and the state its last run (or its start) ended on."""

    record: TaskRecord
    request: StartTaskRequest
    facts: Facts
    stop: TaskEvent | None
    replies: list[Reply]

    @property
    def state(self) -> WorkingState | None:
        """The working state the last run ended on (None before any run ended)."""
        stop = read(self.stop) if self.stop is not None else None
        return stop.state if isinstance(stop, Ended) else None

    @property
    def stop_view(self) -> TaskView | None:
        """Where the task last stood (None before it was stored)."""
        return view_in(read(self.stop)) if self.stop is not None else None

    @property
    def start_view(self) -> TaskView:
        """The view a turn starts from: where the task last stood."""
        stop_view = self.stop_view
        if stop_view is not None:
            return stop_view
        return TaskView(
            id=self.record.id,
            status=Running(),
            summary="Starting.",
            step=None,
            progress=0.0,
            next=[],
        )

    def cell(self, options: WorkspaceOptions, view: TaskView) -> Cell:
        """The task's cell, rebuilt from the ledgers."""
        return restore(self.record.id, self.request, self.facts, options, view, self.state)


class TaskBook:
    """Reads and writes of tasks on ``db``: the ledgers and the work queue together."""

    def __init__(self, db: Connector, clock: Any, file_limits: FileLimits | None = None) -> None:
        self.db = db
        self.queue: WorkQueue = db.queue(QueueConfig(orders=[TASK_ORDER], owner="owner"))
        self.ledger: Ledger = ledger_for(db)
        self.files = TaskFiles(db, clock=clock)
        self.file_limits = file_limits or FileLimits()
        """The operator's limits on files (GOFER_FILE_BYTES, GOFER_FILE_COUNT)."""
        self._clock = clock

    def now(self) -> float:
        """Seconds since the epoch, as the controller's clock says."""
        return float(self._clock())

    async def reading(
        self, owner: str, task_id: str, *, tx: Transaction | None = None
    ) -> TaskReading | None:
        """What a status read of the owner's task looks up (None: no such task)."""
        ledger = self.ledger
        record = await ledger.get_task(owner, task_id, tx=tx)
        if record is None:
            return None
        turns = await self.queue.items(group=task_group(task_id), owner=owner, tx=tx)
        return TaskReading(
            record=record,
            turns=turns,
            stop=await ledger.last_event(owner, task_id, STOP_EVENTS, tx=tx),
            moving=await ledger.last_event(owner, task_id, VIEW_EVENTS, tx=tx),
            cancelled=await ledger.last_event(owner, task_id, (TaskCancelled.KIND,), tx=tx),
        )

    async def read(
        self, owner: str, task_id: str, *, tx: Transaction | None = None
    ) -> tuple[TaskReading, TaskView]:
        """The reading and the view of the owner's task; UNKNOWN_TASK when there is
        none (another owner's task included)."""
        if tx is None:
            async with self.db.snapshot() as own:
                return await self.read(owner, task_id, tx=own)
        reading = await self.reading(owner, task_id, tx=tx)
        if reading is None:
            raise unknown_task(task_id)
        return reading, derive(reading)

    async def view(self, owner: str, task_id: str) -> TaskView:
        """The owner's task's view now (UNKNOWN_TASK)."""
        return (await self.read(owner, task_id))[1]

    async def load(
        self, owner: str, task_id: str, *, tx: Transaction | None = None
    ) -> Loaded | None:
        """The owner's task as the ledgers hold it, or None."""
        record = await self.ledger.get_task(owner, task_id, tx=tx)
        if record is None:
            return None
        request = StartTaskRequest.model_validate(record.request)
        logged = await self.ledger.events(owner, task_id, kinds=(Reply.KIND,), tx=tx)
        replies = [r for r in map(read, logged) if isinstance(r, Reply)]
        facts = Facts(request.facts, secret=request.secret_facts)
        for reply in replies:
            if reply.inputs:
                facts = facts.merged(reply.inputs, secret=reply.secret)
        stop = await self.ledger.last_event(owner, task_id, STOP_EVENTS, tx=tx)
        return Loaded(record=record, request=request, facts=facts, stop=stop, replies=replies)

    async def write(self, tx: Transaction, owner: str, task_id: str, event: Event) -> TaskEvent:
        """Add ``event`` to the task's log and wake everyone following the task once
        ``tx`` commits (:func:`gofer.tasks.events.write`)."""
        stored = await write(
            self.ledger, tx, owner, task_id, event, self.now(), task_group(task_id)
        )
        await enqueue_delivery(self.db, self.ledger, tx, owner, task_id, event)
        return stored

    async def events(
        self, owner: str, task_id: str, *, tx: Transaction | None = None
    ) -> list[tuple[float, Event]]:
        """The task's whole log, oldest first: each event with when it was written."""
        return [(e.at, read(e)) for e in await self.ledger.events(owner, task_id, tx=tx)]


class TurnJournal:
    """The one outlet of a turn (its :class:`gofer.tasks.turn.Driver` speaks through
    nothing else): each running view it is shown is written to the task's log in the
    background, the latest first when they come faster than the store takes them;
    each irreversible press is journaled before it happens and after, so a rerun of
    the turn never presses twice.
    ``cancelled`` is called when the task turns out cancelled (or resolved) from a
    process whose notice cannot reach this one."""

    def __init__(
        self,
        book: TaskBook,
        owner: str,
        task_id: str,
        view: TaskView,
        item: int,
        cancelled: Callable[[], None],
    ) -> None:
        self.book = book
        self.owner = owner
        self.task_id = task_id
        self.item = item
        self._cancelled = cancelled
        self._latest = self._written = view
        self._shown = asyncio.Event()
        self._done = False
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start writing in the background."""
        self._task = asyncio.create_task(
            self._write_forever(), name=f"gofer-journal-{self.task_id}"
        )

    def show(self, view: TaskView) -> None:
        self._latest = view
        self._shown.set()

    async def stop(self) -> None:
        """Write what is still unwritten, then stop."""
        self._done = True
        self._shown.set()
        if self._task is not None:
            await asyncio.wait([self._task])
            if not self._task.cancelled() and self._task.exception() is not None:
                log.warning(
                    "task %s: a view was not journaled (%r)", self.task_id, self._task.exception()
                )

    async def before(self, path: str) -> Literal["press", "pressed", "unsure"]:
        async with self.book.db.transaction() as tx:
            phases = {
                e.phase
                for _at, e in await self.book.events(self.owner, self.task_id, tx=tx)
                if isinstance(e, PressJournaled) and e.item == self.item and e.path == path
            }
            if "after" in phases:
                return "pressed"
            if "before" in phases:
                return "unsure"
            await self.book.write(
                tx,
                self.owner,
                self.task_id,
                PressJournaled(item=self.item, path=path, phase="before"),
            )
        return "press"

    async def after(self, path: str) -> None:
        async with self.book.db.transaction() as tx:
            await self.book.write(
                tx,
                self.owner,
                self.task_id,
                PressJournaled(item=self.item, path=path, phase="after"),
            )

    async def _write_forever(self) -> None:
        owner, task_id = self.owner, self.task_id
        while True:
            view = self._latest
            if view is not self._written and is_running(view.status):
                self._written = view
                async with self.book.db.transaction() as tx:
                    stopped = await self.book.ledger.last_event(
                        owner, task_id, (TaskCancelled.KIND, MarkedDone.KIND), tx=tx
                    )
                    if stopped is None:
                        await self.book.write(
                            tx, owner, task_id, ViewEvent(item=self.item, view=view)
                        )
                if stopped is not None:
                    # Cancelled from a process whose notice cannot reach this one.
                    self._cancelled()
                    return
                continue
            if self._done:
                return
            self._shown.clear()
            await self._shown.wait()


def _steps_json(steps: tuple[Step, ...]) -> list[Any]:
    if not steps:
        return []
    steps_json: list[Any] = flow_to_json(Flow(steps=steps))["steps"]
    return steps_json


def _steps(data: list[Any]) -> tuple[Step, ...]:
    return parse_flow(data).steps if data else ()


def snapshot(cell: Cell, address: str | None) -> WorkingState:
    """``cell``'s working state (``address``: the page its browser is on)."""
    spending = cell.spending
    return WorkingState(
        flow=flow_to_json(cell.flow) if cell.flow is not None else None,
        pending=[
            SegmentState(
                steps=_steps_json(seg.steps),
                base=seg.base,
                allow_destructive=seg.allow_destructive,
                gate=seg.gate,
                rescue=seg.rescue,
                rescue_steps=seg.rescue_steps,
            )
            for seg in cell.pending
        ],
        approval=cell.approval,
        finished_top=cell.finished_top,
        variables=dict(cell.variables),
        records=dict(cell.records),
        hints=list(cell.hints),
        rescues=list(cell.rescues),
        person=list(cell.person),
        spend=SpentState(
            actions=spending.spent.actions,
            model_calls=spending.spent.model_calls,
            elapsed_ms=spending.elapsed_ms,
            runs=spending.runs,
            rescues=spending.rescues,
        ),
        address=address,
    )


def last_address(state: WorkingState | None) -> str | None:
    """The page the task's browser was on when its last run ended (None: none known)."""
    return state.address if state is not None and state.address else None


def restore(
    task_id: str,
    request: StartTaskRequest,
    facts: Facts,
    options: WorkspaceOptions,
    view: TaskView,
    state: WorkingState | None,
) -> Cell:
    """The task's :class:`Cell` as its last run left it (``state`` None: before any
    run, with the request's flow as the one segment to run)."""
    flow: Flow | None = None
    if state is not None and state.flow is not None:
        flow = parse_flow(state.flow)
    elif request.flow is not None:
        flow = parse_flow(request.flow)
    if state is None:
        pending = [Segment(flow.steps, 0, request.constraints.allow_destructive)] if flow else []
        return Cell.start(task_id, request, flow, facts, options, view, pending=pending)
    spending = Spending(request.budget)
    spend = state.spend
    spending.spent = Spend(actions=spend.actions, model_calls=spend.model_calls)
    spending.elapsed_ms = spend.elapsed_ms
    spending.runs = spend.runs
    spending.rescues = spend.rescues
    return Cell(
        id=task_id,
        goal=request.task,
        flow=flow,
        facts=facts,
        constraints=request.constraints,
        spending=spending,
        output=request.output,
        options=options,
        view=view,
        pending=[
            Segment(
                _steps(seg.steps),
                seg.base,
                seg.allow_destructive,
                seg.gate,
                rescue=seg.rescue,
                rescue_steps=seg.rescue_steps,
            )
            for seg in state.pending
        ],
        approval=state.approval,
        finished_top=state.finished_top,
        variables=dict(state.variables),
        records=dict(state.records),
        hints=list(state.hints),
        rescues=list(state.rescues),
        person=list(state.person),
    )
