"""The faces' one door to the controller: owners, titles, idempotency keys, the
person's task actions and the cap on starts.

:class:`TaskService` wraps a :class:`~gofer.api.types.Controller`. Every call names
its owner and goes to the controller answering as that owner, so another owner's task
is the same as no task (the controller's own UNKNOWN_TASK, word for word). It keeps
nothing of a task: titles, times, Mark done and the log live in the controller's
ledgers, and idempotency keys in the store the service is given (in memory without).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from gofer.api.idempotency import Idempotency
from gofer.api.limits import OwnerSlots
from gofer.api.types import Controller, Owner
from gofer.api.views import (
    CreateTask,
    CreateTasks,
    PersonReply,
    TaskEntry,
    TaskList,
    TaskStory,
    mcp_status,
)
from gofer.errors import ApiError, GoferError, InvalidRequest
from gofer.facts import Facts
from gofer.store.taskfiles import StoredFile
from gofer.tasks import (
    AwaitTaskRequest,
    CancelTaskRequest,
    ContinueTaskRequest,
    DescribeReply,
    DescribeRequest,
    FileDesk,
    FileInfo,
    FlowLibrary,
    ListTasksReply,
    ListTasksRequest,
    LiveView,
    NeedsApproval,
    PlanTaskReply,
    PlanTaskRequest,
    RelayTarget,
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


def _host_of(address: str | None) -> str:
    """The address's host, or "" when it has none or is malformed (the flow's own
    check refuses it next, as INVALID_FLOW)."""
    if not address:
        return ""
    try:
        return urlsplit(address).netloc
    except ValueError:
        return ""


def _cut(text: str, limit: int = MAX_TITLE_CHARS) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def title_for(instruction: str | None, flow: Any, given: str | None, facts: Facts) -> str:
    """A task's title: the one given, else the ask's first sentence, else what the flow
    does; fact values in it show as their names."""
    # Redacted before it is cut: a value cut in half would no longer be found.
    if given and given.strip():
        return _cut(facts.redact(given))
    if instruction and instruction.strip():
        first = _SENTENCE_END.split(instruction.strip(), maxsplit=1)[0]
        return _cut(facts.redact(first.rstrip(".")))
    steps = flow.get("steps") if isinstance(flow, dict) else flow
    count = len(steps) if isinstance(steps, list) else 0
    host = _host_of(_first_address(flow))
    what = f"A flow of {count} step{'s' if count != 1 else ''}"
    return _cut(facts.redact(f"{what} on {host}" if host else what))


def _when(seconds: float | None) -> datetime | None:
    return None if seconds is None else datetime.fromtimestamp(seconds, UTC)


class _Held:
    """A stream of views that gives its owner's stream slot back once it ends, is closed,
    or is dropped unread."""

    def __init__(self, views: AsyncIterator[TaskView], give_back: Callable[[], None]) -> None:
        self._views = views
        self._give_back = give_back

    def __aiter__(self) -> _Held:
        return self

    async def __anext__(self) -> TaskView:
        try:
            return await anext(self._views)
        except BaseException:
            self._give_back()
            raise

    async def aclose(self) -> None:
        self._give_back()
        closing = getattr(self._views, "aclose", None)
        if closing is not None:
            await closing()

    def __del__(self) -> None:
        self._give_back()


class TaskService:
    """The controller as the faces see it: per owner, with the person's actions."""

    def __init__(
        self,
        controller: Controller,
        *,
        max_starts_per_request: int = MAX_STARTS_PER_REQUEST,
        idempotency: Idempotency | None = None,
        slots: OwnerSlots | None = None,
    ) -> None:
        self.controller = controller
        self._max_starts = max_starts_per_request
        self._keys = idempotency or Idempotency()
        self._slots = slots or OwnerSlots()

    def _as(self, owner: Owner) -> Controller:
        return self.controller.for_owner(owner)

    def flows(self, owner: Owner) -> FlowLibrary:
        """``owner``'s saved flows."""
        return self._as(owner).flows

    @property
    def healthy(self) -> bool:
        """Whether the controller's worker lives (``/health``)."""
        return self.controller.healthy

    @property
    def draining(self) -> bool:
        """Whether the process is stopping: its worker claims no more (``/health``)."""
        return self.controller.draining

    # ------------------------------------------------------------ the agent calls

    async def describe(self, request: DescribeRequest | None = None) -> DescribeReply:
        """What the controller can do (the brief unless ``request`` asks for more)."""
        return await self.controller.describe(request)

    async def plan_task(self, owner: Owner, request: PlanTaskRequest) -> PlanTaskReply:
        """Draft a flow without running it."""
        return await self._as(owner).plan_task(request)

    async def _start(self, owner: Owner, request: StartTaskRequest, title: str | None) -> TaskView:
        facts = Facts(request.facts, secret=request.secret_facts)
        if title is None and request.saved_flow is not None:
            title = f"Saved flow: {request.saved_flow.name}"
        # Finding a hundred long values in the title takes its time: off the event loop.
        named = await asyncio.to_thread(title_for, request.task, request.flow, title, facts)
        view = await self._as(owner).start_task(request, title=named)
        log.info("task %r: started for %s", view.id, owner)
        return view

    async def start_task(
        self,
        owner: Owner,
        request: StartTaskRequest,
        *,
        idempotency_key: str | None = None,
    ) -> TaskView:
        """Start a task for ``owner``; a replayed ``idempotency_key`` answers with the
        task the first request started, as it is now."""
        body = request.model_dump(mode="json", by_alias=True)
        first: list[TaskView] = []

        async def start() -> list[str]:
            first.append(await self._start(owner, request, None))
            return [first[0].id]

        ids, _replayed = await self._keys.once(owner, "start_task", idempotency_key, body, start)
        if first:
            return first[0]
        return await self.await_task(owner, AwaitTaskRequest(id=ids[0], timeout_ms=0))

    async def await_task(self, owner: Owner, request: AwaitTaskRequest) -> TaskView:
        """Wait until the task stops running or the timeout passes (a long-poll: at most
        MAX_WAITS_PER_OWNER of the owner's at once, TOO_MANY_WAITS past that)."""
        if request.timeout_ms == 0:
            return await self._now(owner, request.id)
        give_back = self._slots.take(owner, "wait")
        try:
            return await self._as(owner).await_task(request)
        finally:
            give_back()

    async def _now(self, owner: Owner, task_id: str) -> TaskView:
        return await self._as(owner).await_task(AwaitTaskRequest(id=task_id, timeout_ms=0))

    async def continue_task(self, owner: Owner, request: ContinueTaskRequest) -> TaskView:
        """Answer a paused task. An approval names the approval it answers whenever the
        view asks under one (INVALID_REQUEST at ``approval_id``): it is bound to what the
        person was shown, on every face (a refusal cancels the task, whatever it was)."""
        if request.approve is True and request.approval_id is None:
            status = (await self._now(owner, request.id)).status
            if isinstance(status, NeedsApproval) and status.approval_id is not None:
                raise InvalidRequest(
                    "this task waits for an approval under an id: pass the approval_id its "
                    "view carries with approve",
                    at="approval_id",
                    id=request.id,
                )
        return await self._as(owner).continue_task(request)

    async def cancel_task(self, owner: Owner, request: CancelTaskRequest) -> TaskView:
        """Cancel the task and release its workspace."""
        return await self._as(owner).cancel_task(request)

    async def task_report(self, owner: Owner, request: TaskReportRequest) -> TaskReport:
        """The task's full, confidential report."""
        return await self._as(owner).task_report(request)

    async def list_tasks(
        self, owner: Owner, request: ListTasksRequest | None = None
    ) -> ListTasksReply:
        """A page of the owner's tasks, oldest first."""
        return await self._as(owner).list_tasks(request or ListTasksRequest())

    async def watch(self, owner: Owner, task_id: str) -> AsyncIterator[TaskView]:
        """The task's views until it can change no more; UNKNOWN_TASK is raised here,
        before the first view, so a face can still answer with an error (and
        TOO_MANY_STREAMS when the owner holds MAX_STREAMS_PER_OWNER open already)."""
        give_back = self._slots.take(owner, "stream")
        try:
            await self._now(owner, task_id)
        except BaseException:
            give_back()
            raise
        return _Held(self._as(owner).watch(task_id, until_final=True), give_back)

    async def browser_here(self, owner: Owner, task_id: str) -> bool:
        """Whether the owner's task's browser is open in this process to take over."""
        return await self._as(owner).browser_here(task_id)

    async def live_view(self, owner: Owner, task_id: str) -> LiveView:
        """A person's live view of the owner's paused task's browser page."""
        return await self._as(owner).live_view(task_id)

    async def live_relay(self, owner: Owner, task_id: str) -> RelayTarget:
        """Where another process holds the owner's paused task's browser, with the
        credential to open its live view there."""
        return await self._as(owner).relay.target(task_id)

    def files(self, owner: Owner) -> FileDesk:
        """``owner``'s uploads and the files their tasks hold."""
        return self._as(owner).files

    async def read_file(self, owner: Owner, task_id: str, name: str) -> StoredFile:
        """A file the owner's task holds, with its bytes (UNKNOWN_TASK, UNKNOWN_FILE)."""
        return await self._as(owner).read_file(task_id, name)

    async def task_files(self, owner: Owner, task_id: str) -> list[FileInfo]:
        """The files the owner's task took and kept (UNKNOWN_TASK for another's)."""
        return await self._as(owner).task_files(task_id)

    def read_artifact(self, owner: Owner, task_id: str, name: str) -> bytes:
        """An artifact's bytes while it lasts."""
        return self._as(owner).read_artifact(task_id, name)

    # ------------------------------------------------------------ the person's tasks

    async def _record(self, owner: Owner, view: TaskView) -> TaskEntry:
        about = await self._as(owner).task_record(view.id)
        created = _when(about.created_at)
        moved = _when(await self._as(owner).moved_at(view.id))
        assert created is not None and moved is not None
        return TaskEntry(
            id=view.id,
            title=about.title,
            created_at=created,
            resolved_at=_when(about.resolved_at),
            moved_at=moved,
            view=view,
            task_status=mcp_status(view.status),
        )

    async def record(self, owner: Owner, task_id: str) -> TaskEntry:
        """One of the owner's tasks as it is now."""
        view = await self.await_task(owner, AwaitTaskRequest(id=task_id, timeout_ms=0))
        return await self._record(owner, view)

    async def records(self, owner: Owner, request: ListTasksRequest | None = None) -> TaskList:
        """A page of the owner's tasks, newest first."""
        reply = await self._as(owner).list_tasks(request or ListTasksRequest(), newest_first=True)
        found = [await self._record(owner, view) for view in reply.tasks]
        return TaskList(tasks=found, next_cursor=reply.next_cursor)

    @staticmethod
    def _start_request(create: CreateTask) -> StartTaskRequest:
        return StartTaskRequest(
            task=create.instruction,
            flow=create.flow,
            facts=create.facts,
            secret_facts=create.secret_facts,
            files=create.files,
            constraints=create.constraints,
            budget=create.budget,
            output=create.output,
        )

    async def create(
        self, owner: Owner, create: CreateTask, idempotency_key: str | None = None
    ) -> TaskEntry:
        """Open and start a task from a person's ask."""
        records = await self.create_many(owner, CreateTasks(tasks=[create]), idempotency_key)
        return records[0]

    async def create_many(
        self, owner: Owner, creates: CreateTasks, idempotency_key: str | None = None
    ) -> list[TaskEntry]:
        """Open and start every task of one request (at most MAX_STARTS_PER_REQUEST), all
        or none: when one is refused, the ones it already started are cancelled and
        marked done, and the refusal says which one it was
        (``index``) and which it withdrew (``withdrawn``)."""
        if len(creates.tasks) > self._max_starts:
            raise ApiError(
                f"one request starts at most {self._max_starts} tasks; this one asked for "
                f"{len(creates.tasks)}",
                code="TOO_MANY_STARTS",
                limit=self._max_starts,
            )
        body = creates.model_dump(mode="json", by_alias=True)

        async def start_all() -> list[str]:
            started: list[str] = []
            for index, create in enumerate(creates.tasks):
                try:
                    view = await self._start(owner, self._start_request(create), create.title)
                except GoferError as exc:
                    for task_id in started:
                        await self.cancel_task(owner, CancelTaskRequest(id=task_id))
                        await self._as(owner).mark_done(task_id)
                    if len(creates.tasks) > 1:
                        exc.details.setdefault("index", index)
                        exc.details.setdefault("withdrawn", list(started))
                    raise
                started.append(view.id)
            return started

        ids, _replayed = await self._keys.once(owner, "create", idempotency_key, body, start_all)
        return [await self.record(owner, task_id) for task_id in ids]

    async def reply(self, owner: Owner, task_id: str, reply: PersonReply) -> TaskEntry:
        """The person's values for a task that asked for them."""
        await self.continue_task(
            owner,
            ContinueTaskRequest(id=task_id, inputs=reply.inputs, secret_inputs=reply.secret_inputs),
        )
        return await self.record(owner, task_id)

    async def decide(
        self, owner: Owner, task_id: str, approve: bool, approval_id: str | None = None
    ) -> TaskEntry:
        """Approve or decline the control a task waits in front of (``approval_id``: the
        approval the person saw; a stale one is refused)."""
        await self.continue_task(
            owner, ContinueTaskRequest(id=task_id, approve=approve, approval_id=approval_id)
        )
        return await self.record(owner, task_id)

    async def again(self, owner: Owner, task_id: str) -> TaskEntry:
        """Try again: rerun a recoverably failed step, or go on once a person got past a
        wall; two at once run once."""
        await self.continue_task(owner, ContinueTaskRequest(id=task_id))
        return await self.record(owner, task_id)

    async def cancel(self, owner: Owner, task_id: str) -> TaskEntry:
        """Cancel the task."""
        await self.cancel_task(owner, CancelTaskRequest(id=task_id))
        return await self.record(owner, task_id)

    async def resolve(self, owner: Owner, task_id: str) -> TaskEntry:
        """Mark done."""
        view = await self._as(owner).mark_done(task_id)
        return await self._record(owner, view)

    async def reopen(self, owner: Owner, task_id: str) -> TaskEntry:
        """Reopen a task marked done."""
        view = await self._as(owner).reopen(task_id)
        return await self._record(owner, view)

    async def story(self, owner: Owner, task_id: str) -> TaskStory:
        """The task's report as a person reads it: its log in order, then the runs."""
        report = await self.task_report(owner, TaskReportRequest(id=task_id))
        return TaskStory(task=await self._record(owner, report.view), report=report)
