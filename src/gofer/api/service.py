"""The faces' one door to the controller: owners, titles, idempotency, the person's
task actions and the story of each task.

:class:`TaskService` wraps a :class:`~gofer.api.types.Controller`. Every call names
its owner, and another owner's task is the same as no task: the same UNKNOWN_TASK
error, word for word. It stays thin on purpose: what it keeps (owner, title, created
and resolved times, the story's events) is what the durable ledgers keep once the
controller holds them, and then this layer only passes the owner on.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from gofer.api.idempotency import Idempotency
from gofer.api.types import Controller, Owner
from gofer.api.views import (
    CreateTask,
    CreateTasks,
    PersonReply,
    ReportEvent,
    TaskList,
    TaskRecord,
    TaskStory,
    mcp_status,
)
from gofer.errors import ApiError, GoferError
from gofer.facts import Facts
from gofer.tasks import errors as task_errors
from gofer.tasks.models import (
    AwaitTaskRequest,
    CancelTaskRequest,
    ContinueTaskRequest,
    DescribeReply,
    ListTasksReply,
    PlanTaskReply,
    PlanTaskRequest,
    StartTaskRequest,
    TaskReport,
    TaskReportRequest,
    TaskView,
)

__all__ = ["MAX_STARTS_PER_REQUEST", "MAX_TITLE_CHARS", "TaskService", "title_for"]

log = logging.getLogger("gofer.api")

MAX_STARTS_PER_REQUEST = 5
"""The most tasks one request may start."""

MAX_TITLE_CHARS = 120
"""The longest title a task is given from its ask."""

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")


def _first_address(flow: Any) -> str | None:
    steps = flow.get("steps") if isinstance(flow, dict) else flow
    if not isinstance(steps, list):
        return None
    for step in steps:
        if isinstance(step, dict) and isinstance(step.get("browse"), str):
            return str(step["browse"])
    return None


def _cut(text: str, limit: int = MAX_TITLE_CHARS) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def title_for(instruction: str | None, flow: Any, given: str | None, facts: Facts) -> str:
    """A task's title: the one given, else the ask's first sentence, else what the flow
    does; fact values in it show as their names."""
    if given and given.strip():
        return facts.redact(_cut(given))
    if instruction and instruction.strip():
        first = _SENTENCE_END.split(instruction.strip(), maxsplit=1)[0]
        return facts.redact(_cut(first.rstrip(".")))
    steps = flow.get("steps") if isinstance(flow, dict) else flow
    count = len(steps) if isinstance(steps, list) else 0
    address = _first_address(flow)
    host = urlsplit(address).netloc if address else ""
    what = f"A flow of {count} step{'s' if count != 1 else ''}"
    return facts.redact(_cut(f"{what} on {host}" if host else what))


def _now_dt(clock: Callable[[], float]) -> datetime:
    return datetime.fromtimestamp(clock(), UTC)


@dataclass(slots=True)
class _Entry:
    owner: Owner
    title: str
    created_at: datetime
    facts: Facts
    resolved_at: datetime | None = None
    events: list[ReportEvent] = field(default_factory=list)
    follower: asyncio.Task[None] | None = None


class TaskService:
    """The controller as the faces see it: per owner, with the person's actions.

    ``clock`` gives wall time in seconds. Use it as an async context manager (or call
    :meth:`aclose`) to stop following tasks' views.
    """

    def __init__(
        self,
        controller: Controller,
        *,
        clock: Callable[[], float] = time.time,
        max_starts_per_request: int = MAX_STARTS_PER_REQUEST,
        idempotency: Idempotency | None = None,
    ) -> None:
        self.controller = controller
        self._clock = clock
        self._max_starts = max_starts_per_request
        self._keys = idempotency or Idempotency()
        self._entries: dict[str, _Entry] = {}
        self._closed = False

    async def __aenter__(self) -> TaskService:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Stop following every task (idempotent); the controller is the caller's."""
        self._closed = True
        followers = [e.follower for e in self._entries.values() if e.follower is not None]
        for task in followers:
            task.cancel()
        if followers:
            await asyncio.wait(followers)

    # ------------------------------------------------------------ ownership

    def _own(self, owner: Owner, task_id: str) -> _Entry:
        entry = self._entries.get(task_id)
        if entry is None or entry.owner != owner:
            raise task_errors.unknown_task(task_id)
        return entry

    async def _guard(self, task_id: str, call: Callable[[], Any]) -> Any:
        """Run a controller call; a task the controller dropped is forgotten here too."""
        try:
            return await call()
        except GoferError as exc:
            if exc.code == "UNKNOWN_TASK":
                self._forget(task_id)
            raise

    def _forget(self, task_id: str) -> None:
        entry = self._entries.pop(task_id, None)
        if entry is not None and entry.follower is not None:
            entry.follower.cancel()

    def _event(self, entry: _Entry, kind: Any, summary: str, **extra: Any) -> None:
        entry.events.append(ReportEvent(at=_now_dt(self._clock), kind=kind,
                                        summary=entry.facts.redact(summary), **extra))

    async def _follow(self, task_id: str, entry: _Entry) -> None:
        """Add an update to the story each time the task stops."""
        last = "running"
        try:
            async for view in self.controller.watch(task_id, until_final=True):
                state = view.status.state
                if state != last and state != "running":
                    self._event(entry, "update", view.summary, state=state)
                last = state
        except GoferError as exc:
            log.info("task %s: no longer followed (%s)", task_id, exc.code)

    def _register(self, owner: Owner, view: TaskView, title: str, facts: Facts) -> _Entry:
        entry = _Entry(owner=owner, title=title, created_at=_now_dt(self._clock), facts=facts)
        self._entries[view.id] = entry
        self._event(entry, "started", f"Started: {title}.")
        if not self._closed:
            entry.follower = asyncio.create_task(self._follow(view.id, entry),
                                                 name=f"gofer-api-follow-{view.id}")
        return entry

    # ------------------------------------------------------------ the agent calls

    async def describe(self) -> DescribeReply:
        """What the controller can do."""
        return await self.controller.describe()

    async def plan_task(self, owner: Owner, request: PlanTaskRequest) -> PlanTaskReply:
        """Draft a flow without running it."""
        return await self.controller.plan_task(request)

    async def _start(self, owner: Owner, request: StartTaskRequest,
                     title: str | None) -> TaskView:
        view = await self.controller.start_task(request)
        facts = Facts(request.facts, secret=request.secret_facts)
        self._register(owner, view, title_for(request.task, request.flow, title, facts), facts)
        log.info("task %s: started for %s", view.id, owner)
        return view

    async def start_task(
        self, owner: Owner, request: StartTaskRequest, *, idempotency_key: str | None = None,
    ) -> TaskView:
        """Start a task for ``owner``; a replayed ``idempotency_key`` answers with the
        task the first request started, as it is now."""
        body = request.model_dump(mode="json", by_alias=True)
        view, replayed = await self._keys.once(
            owner, "start_task", idempotency_key, body,
            lambda: self._start(owner, request, None),
        )
        if replayed:
            return await self.await_task(owner, AwaitTaskRequest(id=view.id, timeout_ms=0))
        return view

    async def await_task(self, owner: Owner, request: AwaitTaskRequest) -> TaskView:
        """Wait until the task stops running or the timeout passes."""
        self._own(owner, request.id)
        view: TaskView = await self._guard(request.id,
                                           lambda: self.controller.await_task(request))
        return view

    async def continue_task(self, owner: Owner, request: ContinueTaskRequest) -> TaskView:
        """Answer a paused task; the story notes the answer (names, never values)."""
        entry = self._own(owner, request.id)
        before = await self._guard(
            request.id, lambda: self.controller.await_task(
                AwaitTaskRequest(id=request.id, timeout_ms=0)))
        view: TaskView = await self._guard(request.id,
                                           lambda: self.controller.continue_task(request))
        names = sorted(request.inputs)
        if request.approve is True:
            self._event(entry, "approved", f"Approved: {_target(before)}.")
        elif request.approve is False:
            self._event(entry, "declined", f"Declined: {_target(before)}.")
        elif names:
            self._event(entry, "reply", f"Answered {', '.join(names)}.", fields=names)
        else:
            self._event(entry, "again", f"Went on from {before.status.state}.",
                        state=before.status.state)
        return view

    async def cancel_task(self, owner: Owner, request: CancelTaskRequest) -> TaskView:
        """Cancel the task and release its workspace."""
        entry = self._own(owner, request.id)
        view: TaskView = await self._guard(request.id,
                                           lambda: self.controller.cancel_task(request))
        if not any(e.kind == "cancelled" for e in entry.events):
            self._event(entry, "cancelled", "Cancelled by its owner.")
        return view

    async def task_report(self, owner: Owner, request: TaskReportRequest) -> TaskReport:
        """The task's full, confidential report."""
        self._own(owner, request.id)
        report: TaskReport = await self._guard(request.id,
                                               lambda: self.controller.task_report(request))
        return report

    async def list_tasks(self, owner: Owner) -> ListTasksReply:
        """The owner's tasks, oldest first."""
        reply = await self.controller.list_tasks()
        mine = [view for view in reply.tasks
                if (e := self._entries.get(view.id)) is not None and e.owner == owner]
        return ListTasksReply(tasks=mine)

    def watch(self, owner: Owner, task_id: str) -> AsyncIterator[TaskView]:
        """The task's views until it can change no more."""
        self._own(owner, task_id)
        return self.controller.watch(task_id, until_final=True)

    def read_artifact(self, owner: Owner, task_id: str, name: str) -> bytes:
        """An artifact's bytes while it lasts."""
        self._own(owner, task_id)
        return self.controller.read_artifact(task_id, name)

    # ------------------------------------------------------------ the person's tasks

    def _record(self, task_id: str, entry: _Entry, view: TaskView) -> TaskRecord:
        return TaskRecord(id=task_id, title=entry.title, created_at=entry.created_at,
                          resolved_at=entry.resolved_at, view=view,
                          task_status=mcp_status(view.status))

    async def record(self, owner: Owner, task_id: str) -> TaskRecord:
        """One of the owner's tasks as it is now."""
        entry = self._own(owner, task_id)
        view = await self.await_task(owner, AwaitTaskRequest(id=task_id, timeout_ms=0))
        return self._record(task_id, entry, view)

    async def records(self, owner: Owner) -> TaskList:
        """The owner's tasks, newest first."""
        reply = await self.list_tasks(owner)
        found = [self._record(v.id, self._entries[v.id], v) for v in reply.tasks]
        found.sort(key=lambda r: r.created_at, reverse=True)
        return TaskList(tasks=found)

    @staticmethod
    def _start_request(create: CreateTask) -> StartTaskRequest:
        return StartTaskRequest(
            task=create.instruction, flow=create.flow, facts=create.facts,
            secret_facts=create.secret_facts, constraints=create.constraints,
            budget=create.budget, output=create.output,
        )

    async def create(self, owner: Owner, create: CreateTask,
                     idempotency_key: str | None = None) -> TaskRecord:
        """Open and start a task from a person's ask."""
        records = await self.create_many(owner, CreateTasks(tasks=[create]), idempotency_key)
        return records[0]

    async def create_many(self, owner: Owner, creates: CreateTasks,
                          idempotency_key: str | None = None) -> list[TaskRecord]:
        """Open and start every task of one request (at most MAX_STARTS_PER_REQUEST), all
        or none: when one is refused, the ones already started are cancelled and
        forgotten, and the refusal says which one it was."""
        if len(creates.tasks) > self._max_starts:
            raise ApiError(
                f"one request starts at most {self._max_starts} tasks; this one asked for "
                f"{len(creates.tasks)}", code="TOO_MANY_STARTS", limit=self._max_starts,
            )
        body = creates.model_dump(mode="json", by_alias=True)

        async def start_all() -> list[str]:
            started: list[str] = []
            for index, create in enumerate(creates.tasks):
                try:
                    view = await self._start(owner, self._start_request(create), create.title)
                except GoferError as exc:
                    for task_id in started:
                        await self.controller.cancel_task(CancelTaskRequest(id=task_id))
                        self._forget(task_id)
                    if len(creates.tasks) > 1:
                        exc.details.setdefault("index", index)
                    raise
                started.append(view.id)
            return started

        ids, _replayed = await self._keys.once(owner, "create", idempotency_key, body, start_all)
        return [await self.record(owner, task_id) for task_id in ids]

    async def reply(self, owner: Owner, task_id: str, reply: PersonReply) -> TaskRecord:
        """The person's values for a task that asked for them."""
        await self.continue_task(owner, ContinueTaskRequest(
            id=task_id, inputs=reply.inputs, secret_inputs=reply.secret_inputs))
        return await self.record(owner, task_id)

    async def decide(self, owner: Owner, task_id: str, approve: bool) -> TaskRecord:
        """Approve or decline the control a task waits in front of."""
        await self.continue_task(owner, ContinueTaskRequest(id=task_id, approve=approve))
        return await self.record(owner, task_id)

    async def again(self, owner: Owner, task_id: str) -> TaskRecord:
        """Try again: rerun a recoverably failed step, or go on once a person got past a
        wall. Two at once run once: the second finds the task running (WRONG_STATE)."""
        await self.continue_task(owner, ContinueTaskRequest(id=task_id))
        return await self.record(owner, task_id)

    async def cancel(self, owner: Owner, task_id: str) -> TaskRecord:
        """Cancel the task."""
        await self.cancel_task(owner, CancelTaskRequest(id=task_id))
        return await self.record(owner, task_id)

    async def resolve(self, owner: Owner, task_id: str) -> TaskRecord:
        """Mark done: the person says the task needs nothing more (idempotent)."""
        entry = self._own(owner, task_id)
        if entry.resolved_at is None:
            entry.resolved_at = _now_dt(self._clock)
            self._event(entry, "resolved", "Marked done.")
        return await self.record(owner, task_id)

    async def reopen(self, owner: Owner, task_id: str) -> TaskRecord:
        """Reopen a task marked done (idempotent)."""
        entry = self._own(owner, task_id)
        if entry.resolved_at is not None:
            entry.resolved_at = None
            self._event(entry, "reopened", "Reopened.")
        return await self.record(owner, task_id)

    async def story(self, owner: Owner, task_id: str) -> TaskStory:
        """The task's report as a person reads it: events in order, then the runs."""
        entry = self._own(owner, task_id)
        report = await self.task_report(owner, TaskReportRequest(id=task_id))
        return TaskStory(task=self._record(task_id, entry, report.view),
                         events=list(entry.events), report=report)


def _target(view: TaskView) -> str:
    status = view.status
    if status.state == "needs_approval":
        return f"press “{status.target}” ({status.action})"
    return "the step it waited at"
