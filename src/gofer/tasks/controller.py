"""``Tasks``: the controller and the calls it answers.

Tasks live in the store (``store=``: SQLite or PostgreSQL; by default an in-memory
connector the controller owns): ``start_task`` writes the task and its first turn in
one transaction, a worker (:mod:`gofer.tasks.worker`, in this process unless
``work=False``, and in any other process on the same store) claims and runs the
turns, and every read works the task's status out from its turns and its event log
(:mod:`gofer.tasks.status`). Every call returns at once with a view, except
``await_task``, which waits on the store's waker (never by polling) until the task
stops running or its timeout passes.

Every task belongs to an owner; :meth:`Tasks.for_owner` answers as another one, and
another owner's task is the same as no task.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping
from types import TracebackType
from typing import Any

from gofer.flow import check_flow, flow_to_json
from gofer.runtime.types import FileLimits
from gofer.store import Connector, MemoryConnector
from gofer.store.flows import FlowLimits
from gofer.store.ledger import TaskRecord
from gofer.store.taskfiles import StoredFile
from gofer.surfaces.live import LiveOptions, LiveView
from gofer.tasks import errors, events
from gofer.tasks.able import abilities_of
from gofer.tasks.answers import check_answer, go_on
from gofer.tasks.book import LOCAL_OWNER, TaskBook
from gofer.tasks.cell import (
    listing_position,
    next_calls,
    released_view,
    view_of,
)
from gofer.tasks.checks import (
    brief_for,
    coerce,
    facts_of,
    invalid_flow,
    options_for,
)
from gofer.tasks.contract import (
    AwaitTaskRequest,
    Cancelled,
    CancelTaskRequest,
    ContinueTaskRequest,
    DescribeReply,
    DescribeRequest,
    FileInfo,
    ListTasksReply,
    ListTasksRequest,
    NeedsApproval,
    PlanTaskReply,
    PlanTaskRequest,
    StartTaskRequest,
    TaskReport,
    TaskReportRequest,
    TaskView,
)
from gofer.tasks.describe import RunnerPasses, describe_reply
from gofer.tasks.engine import Engine
from gofer.tasks.events import MarkedDone, Reopened, Reply
from gofer.tasks.files import FileDesk
from gofer.tasks.limits import MAX_AWAIT_MS, MAX_OPEN_TASKS, MAX_TASKS
from gofer.tasks.notify import Notifier
from gofer.tasks.relay import OwnerRelay, Relay
from gofer.tasks.report import report_of
from gofer.tasks.saved import FlowLibrary
from gofer.tasks.seams import FlowRunner, Planner, Rescuer, Shaper
from gofer.tasks.starting import start
from gofer.tasks.state import (
    State,
    at_checkpoint,
    holds_browser,
    is_live,
    is_running,
    released,
)
from gofer.tasks.status import may_stop, task_group
from gofer.tasks.turn import TurnPasses, turn_running
from gofer.tasks.worker import TaskWorker, TurnLimits

__all__ = ["Tasks"]

log = logging.getLogger("gofer.tasks")


class Tasks:
    """The task controller: start, follow, answer and cancel tasks run on ``runner``.

    Use it as an async context manager (or call :meth:`close`). ``store`` is the
    connector tasks live in (opened by the caller); without one the controller keeps
    them in an in-memory connector of its own, and closing it cancels live work (its
    tasks could not outlive it). With a store, closing stops this process's worker,
    puts its running turns back on the queue and leaves every task as it is, to go on
    after a restart. ``work=False`` leaves the running to worker processes.
    ``planner``, ``rescuer`` and ``shaper`` are optional model passes, and
    ``runner_passes`` those the runner holds; ``describe`` reports which are
    configured. ``clock`` gives wall time in seconds;
    ``max_tasks`` (MAX_TASKS) bounds the tasks an in-memory controller holds;
    ``max_open`` (MAX_OPEN_TASKS) the tasks of one owner waiting to run or running;
    ``limits`` caps the turns running per owner and per process; ``owner`` is whom
    the calls answer for; ``source`` is recorded with every task it starts;
    ``notify_private`` lets webhooks reach private addresses; ``browser`` is the remote
    browser this process's tasks run in and ``own_only`` runs only the tasks started
    here (:mod:`gofer.tasks.able`); ``flow_limits`` caps the saved flows, and
    ``file_limits`` the files (uploads, and what tasks keep)."""

    def __init__(
        self,
        runner: FlowRunner,
        *,
        planner: Planner | None = None,
        rescuer: Rescuer | None = None,
        shaper: Shaper | None = None,
        runner_passes: RunnerPasses | None = None,
        clock: Callable[[], float] = time.time,
        max_tasks: int = MAX_TASKS,
        max_open: int = MAX_OPEN_TASKS,
        store: Connector | None = None,
        owner: str = LOCAL_OWNER,
        work: bool = True,
        limits: TurnLimits | None = None,
        worker_id: str | None = None,
        source: str = "api",
        notify_private: bool = False,
        browser: str | None = None,
        own_only: bool = False,
        flow_limits: FlowLimits | None = None,
        file_limits: FileLimits | None = None,
    ) -> None:
        db: Connector = store if store is not None else MemoryConnector()
        book = TaskBook(db, clock, file_limits)
        passes = runner_passes or RunnerPasses()
        worker = TaskWorker(
            book,
            runner,
            TurnPasses(planner=planner, rescuer=rescuer, shaper=shaper, clock=clock),
            limits or TurnLimits(),
            worker_id,
            abilities_of(runner, planner, rescuer, shaper, passes.decider, browser, own_only, work),
        )
        self._engine = Engine(
            runner=runner,
            planner=planner,
            rescuer=rescuer,
            shaper=shaper,
            runner_passes=passes,
            clock=clock,
            max_tasks=max_tasks,
            max_open=max_open,
            owned=store is None,
            db=db,
            book=book,
            worker=worker,
            work=work,
            source=source,
            notifier=Notifier(
                db, book.ledger, allow_private=notify_private, clock=clock, on_death=worker.fail
            ),
            notify_private=notify_private,
            relay=Relay(worker, db, clock),
            flow_limits=flow_limits,
        )
        self._owner = owner

    def for_owner(self, owner: str) -> Tasks:
        """This controller answering as ``owner`` (same store, worker and runner)."""
        return _OwnerView(self._engine, owner)

    @property
    def owner(self) -> str:
        """Whom the calls answer for."""
        return self._owner

    @property
    def flows(self) -> FlowLibrary:
        """The owner's saved flows: save, list, show, delete."""
        engine = self._engine
        return FlowLibrary(engine.book, self._owner, engine.clock, engine.flow_limits)

    @property
    def files(self) -> FileDesk:
        """The owner's files: upload one for a task, list and read what tasks hold."""
        return self._engine.files(self._owner)

    @property
    def worker(self) -> TaskWorker:
        """This process's worker."""
        return self._engine.worker

    async def __aenter__(self) -> Tasks:
        self._started()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def serve(self, stop: asyncio.Event) -> None:
        """Run this process's worker until ``stop`` is set (``gofer worker``); WORKER_FAILED
        when the worker dies of an error it cannot survive."""
        self._check_open()
        self._engine.worker.start()
        self._engine.notifier.start()
        stopped = asyncio.create_task(stop.wait(), name="gofer-serve-stop")
        died = asyncio.create_task(self._engine.worker.died.wait(), name="gofer-serve-died")
        try:
            await asyncio.wait({stopped, died}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiter in (stopped, died):
                waiter.cancel()
        self.check_healthy()

    async def drain(self, grace_s: float, cut: asyncio.Event | None = None) -> None:
        """Stop claiming; let the turns running in this process reach their stop for up
        to ``grace_s`` seconds (or until ``cut`` is set). Closing cuts the rest."""
        await self._engine.worker.drain(grace_s, cut)

    @property
    def healthy(self) -> bool:
        """False once this process's worker died of an error it could not survive."""
        return self._engine.worker.failure is None

    @property
    def draining(self) -> bool:
        """True once this process's worker stopped claiming because the process stops."""
        return self._engine.worker.stopping

    def check_healthy(self) -> None:
        """Raise WORKER_FAILED when this process's worker died (see :attr:`healthy`)."""
        failure = self._engine.worker.failure
        if failure is not None:
            raise errors.worker_failed(self._engine.worker.worker_id, failure)

    # ------------------------------------------------------------ the calls

    async def describe(
        self, request: DescribeRequest | Mapping[str, Any] | None = None
    ) -> DescribeReply:
        """What this controller can do: surfaces, model passes, the calls, the step kinds
        and the rules (the brief); the guide, schemas and examples as ``detail`` asks."""
        req = coerce(DescribeRequest, request)
        return describe_reply(
            self._engine.runner.available_surfaces(),
            planner=self._engine.planner is not None,
            rescuer=self._engine.rescuer is not None,
            shaper=self._engine.shaper is not None,
            decider=self._engine.runner_passes.decider,
            detail=req.detail,
        )

    async def plan_task(self, request: PlanTaskRequest | Mapping[str, Any]) -> PlanTaskReply:
        """Draft a flow for a plain-language task without running it (PLANNER_UNAVAILABLE
        with no planner)."""
        self._check_open()
        req = coerce(PlanTaskRequest, request)
        if self._engine.planner is None:
            raise errors.planner_unavailable()
        facts = facts_of(req.facts, req.secret_facts)
        options = options_for(self._engine.runner, req.constraints)
        flow = await self._engine.planner.plan(brief_for(req.task, facts, options))
        check = check_flow(flow, facts.names, facts.secret_names)
        if check.problems:
            raise invalid_flow([p.to_dict() for p in check.problems])
        return PlanTaskReply(flow=flow_to_json(flow), questions=list(check.questions))

    async def start_task(
        self,
        request: StartTaskRequest | Mapping[str, Any],
        *,
        title: str | None = None,
    ) -> TaskView:
        """Validate and store a task with its first turn, in one transaction; returns at
        once with its first view. ``title`` is what the caller calls the task (else the
        ask's first sentence). Refused (STARTED_BY_TASK) inside a task's own turn."""
        self._check_open()
        running = turn_running()
        if running is not None:
            raise errors.started_by_task(running)
        self._started()
        req = coerce(StartTaskRequest, request)
        if req.saved_flow is not None:
            req = await self.flows.resolve(req)
        return await start(self._engine, self._owner, req, title)

    async def await_task(self, request: AwaitTaskRequest | Mapping[str, Any]) -> TaskView:
        """The task's view once it stops running, or when ``timeout_ms`` (at most
        MAX_AWAIT_MS) passes. Works from any process on the same store."""
        req = coerce(AwaitTaskRequest, request)
        self._started()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + min(req.timeout_ms, MAX_AWAIT_MS) / 1000.0
        group = task_group(req.id)
        with self._engine.db.waker.subscribe() as subscription:
            view = await self._engine.book.view(self._owner, req.id)
            while is_running(view.status):
                left = deadline - loop.time()
                if left <= 0:
                    break
                notices = await subscription.wait(min(left, self._engine.worker.limits.wake_s))
                if notices and not any(may_stop(n, group) for n in notices):
                    continue
                view = await self._engine.book.view(self._owner, req.id)
        return view

    async def continue_task(self, request: ContinueTaskRequest | Mapping[str, Any]) -> TaskView:
        """Answer a paused task: ``inputs`` for needs_input, ``approve`` for needs_approval,
        nothing (or new inputs) after needs_human or a recoverable failure. The answer
        is on the queue before this returns, so it survives a restart."""
        self._check_open()
        self._started()
        req = coerce(ContinueTaskRequest, request)
        reading, view = await self._engine.book.read(self._owner, req.id)
        if await check_answer(self._engine, self._owner, reading, view, req):
            return view  # the same answer again, while the turn it started runs
        if isinstance(view.status, NeedsApproval) and not req.approve:
            return await self._cancel(
                req.id, "Cancelled: the approval was declined.", decision=Reply(approve=False)
            )
        return await go_on(self._engine, self._owner, req, reading, view)

    async def cancel_task(self, request: CancelTaskRequest | Mapping[str, Any]) -> TaskView:
        """Cancel a task and release its workspace; a finished task is left as it is, and
        a checkpoint stays the task's status, ``released``."""
        req = coerce(CancelTaskRequest, request)
        view = await self._engine.book.view(self._owner, req.id)
        if at_checkpoint(view.status) and req.id not in self._engine.cancels:
            return await self._cancel(req.id, "", keep=view)
        if is_live(view.status) or req.id in self._engine.cancels:
            return await self._cancel(req.id, "Cancelled.")
        return view

    async def task_report(self, request: TaskReportRequest | Mapping[str, Any]) -> TaskReport:
        """Everything the task did, read back from its event log in order (confidential:
        secret values are masked, shared ones may appear where the screen showed them)."""
        req = coerce(TaskReportRequest, request)
        async with self._engine.db.snapshot() as tx:
            _reading, view = await self._engine.book.read(self._owner, req.id, tx=tx)
            loaded = await self._engine.book.load(self._owner, req.id, tx=tx)
            logged = await self._engine.book.events(self._owner, req.id, tx=tx)
        assert loaded is not None
        report = report_of(
            view,
            loaded,
            logged,
            running=self._engine.worker.notes_of(req.id),
            artifacts=self._engine.worker.artifacts_of(self._owner, req.id),
        )
        return report.model_copy(update={"files": await self.files.of_task(req.id)})

    async def task_files(self, task_id: str) -> list[FileInfo]:
        """The files the owner's task took and kept, without their bytes (UNKNOWN_TASK
        for another owner's task)."""
        await self._engine.book.read(self._owner, task_id)
        return await self.files.of_task(task_id)

    async def read_file(self, task_id: str, name: str) -> StoredFile:
        """A file the owner's task holds under ``name`` (a download it kept, a file given
        to it that is not secret), bytes and all; UNKNOWN_TASK for another owner's task,
        UNKNOWN_FILE for no such file."""
        await self._engine.book.read(self._owner, task_id)
        return await self.files.read(task_id, name)

    async def list_tasks(
        self,
        request: ListTasksRequest | Mapping[str, Any] | None = None,
        *,
        newest_first: bool = False,
    ) -> ListTasksReply:
        """A page of the owner's tasks, oldest first (or ``newest_first``), each with its
        status as read now; ``next_cursor`` leads to the next page."""
        req = coerce(ListTasksRequest, request)
        after = listing_position(req.cursor)
        book = self._engine.book
        async with self._engine.db.snapshot() as tx:
            records, more = await book.ledger.page(
                self._owner, limit=req.limit, after=after, newest_first=newest_first, tx=tx
            )
            views = [(await book.read(self._owner, r.id, tx=tx))[1] for r in records]
        return ListTasksReply(tasks=views, next_cursor=None if more is None else str(more))

    # ------------------------------------------------------------ beyond the eight calls

    async def task_record(self, task_id: str) -> TaskRecord:
        """What the caller and the start said of the task: title, times, source
        (UNKNOWN_TASK for another owner's). Its ``request`` holds fact values: never
        show it."""
        reading, _view = await self._engine.book.read(self._owner, task_id)
        return reading.record

    async def moved_at(self, task_id: str) -> float:
        """When the task last moved (seconds since the epoch): it started, a step began,
        a run ended, the caller replied, cancelled, or marked it done or reopened it
        (UNKNOWN_TASK for another owner's)."""
        reading, _view = await self._engine.book.read(self._owner, task_id)
        record = reading.record
        times = [record.created_at, record.resolved_at or 0.0]
        times += [e.at for e in (reading.stop, reading.moving, reading.cancelled) if e]
        return max(times)

    async def titles(self) -> dict[str, str]:
        """Each of the owner's tasks' title, by id (for listings)."""
        return {r.id: r.title for r in await self._engine.book.ledger.tasks(self._owner)}

    async def mark_done(self, task_id: str) -> TaskView:
        """Mark a task done (its ``resolved_at``): it reads done and lets its workspace
        go; WRONG_STATE while a turn of it runs."""
        self._check_open()
        reading, view = await self._engine.book.read(self._owner, task_id)
        if is_running(view.status):
            raise errors.wrong_state(task_id, State.RUNNING, "mark_done", next_calls(view.status))
        if reading.record.resolved_at is None:
            async with self._engine.db.transaction() as tx:
                await self._engine.book.ledger.set_resolved(
                    self._owner, task_id, self._engine.book.now(), tx=tx
                )
                await self._engine.book.write(tx, self._owner, task_id, MarkedDone())
            if self._engine.runner.holds(task_id):
                await self._engine.worker.settle(self._owner, task_id)
        return await self._engine.book.view(self._owner, task_id)

    async def reopen(self, task_id: str) -> TaskView:
        """Undo :meth:`mark_done`: the task reads as it stood before (WRONG_STATE when it
        was not marked done)."""
        self._check_open()
        reading, view = await self._engine.book.read(self._owner, task_id)
        if reading.record.resolved_at is None:
            raise errors.wrong_state(task_id, view.status.state, "reopen", next_calls(view.status))
        async with self._engine.db.transaction() as tx:
            await self._engine.book.ledger.set_resolved(self._owner, task_id, None, tx=tx)
            await self._engine.book.write(tx, self._owner, task_id, Reopened())
        return await self._engine.book.view(self._owner, task_id)

    async def watch(self, task_id: str, *, until_final: bool = False) -> AsyncIterator[TaskView]:
        """The task's views as it moves, from now until it stops running (woken by the
        store's notices).

        With ``until_final`` the views go on through pauses (a task waiting for its
        caller may be continued) and end only once the task can change no more: done,
        cancelled, needs_plan, or failed and not recoverable.
        """
        self._started()
        group = task_group(task_id)
        with self._engine.db.waker.subscribe() as subscription:
            last: TaskView | None = None
            while True:
                view = await self._engine.book.view(self._owner, task_id)
                if view != last:
                    yield view
                    last = view
                if (not is_live(view.status)) if until_final else not is_running(view.status):
                    return
                while True:
                    notices = await subscription.wait(self._engine.worker.limits.wake_s)
                    if not notices or any(n.group == group for n in notices):
                        break

    async def live_view(self, task_id: str, options: LiveOptions | None = None) -> LiveView:
        """A person's live view of the task's own browser page, to get past what only
        they can (a captcha, a login wall, a payment they finish themselves): frames as
        the page paints, their mouse and keys sent to it. Use ``async with``.

        Only while the task waits for a person with its browser open in this process
        (needs_human, needs_approval, a checkpoint, a recoverable failure): WRONG_STATE
        otherwise, LIVE_UNAVAILABLE when the browser was let go or is in another process
        (:attr:`relay` finds it), UNKNOWN_TASK for another owner's task. The view closes
        when a turn of the task starts (continuing hands the browser back) or it ends.
        """
        await self._may_take_over(task_id)
        return await self._engine.worker.live(task_id, options)

    async def _may_take_over(self, task_id: str) -> None:
        self._check_open()
        reading, view = await self._engine.book.read(self._owner, task_id)
        status, resolved = view.status, reading.record.resolved_at is not None
        if not holds_browser(status) or resolved or task_id in self._engine.cancels:
            raise errors.wrong_state(task_id, status.state, "live_view", next_calls(status))

    @property
    def relay(self) -> OwnerRelay:
        """Take-over from any server, for this owner (:mod:`gofer.tasks.relay`): where
        another process holds a task's browser, and the checks of its credentials."""
        return OwnerRelay(self._engine.relay, self._owner, self._may_take_over)

    async def browser_here(self, task_id: str) -> bool:
        """Whether the task's browser is open for a person to take over, in this process
        or one this server relays to (UNKNOWN_TASK for another owner's): False once it
        was let go (HOLD_FOR_PERSON_S), or while a turn of the task runs."""
        await self._engine.book.read(self._owner, task_id)
        return (await self._engine.relay.held(task_id)).holder is not None

    def read_artifact(self, task_id: str, name: str) -> bytes:
        """An artifact of the owner's task while it lasts (ARTIFACT_TTL_S); UNKNOWN_ARTIFACT
        after, and for another owner's task (the same as a task that never was).
        Artifacts stay in the process whose worker took them."""
        for artifact in self._engine.worker.artifacts_of(self._owner, task_id):
            if artifact.name == name:
                return artifact.data
        raise errors.unknown_artifact(task_id, name)

    async def close(self) -> None:
        """Stop this process's worker and release every workspace it holds
        (idempotent). An in-memory controller cancels its live tasks first."""
        shared = self._engine
        if shared.closed:
            return
        shared.closed = True
        if self._engine.owned:
            for record, view in await self._listing_all():
                if is_live(view.status):
                    await self.for_owner(record.owner)._cancel(
                        record.id, "Cancelled: the task controller closed."
                    )
        await self._engine.worker.stop()
        await self._engine.notifier.stop()

    # ------------------------------------------------------------ inside

    def _check_open(self) -> None:
        if self._engine.closed:
            raise errors.closed()

    def _started(self) -> None:
        if self._engine.work and not self._engine.closed:
            self._engine.worker.start()
            self._engine.notifier.start()

    async def _listing(self) -> list[tuple[TaskRecord, TaskView]]:
        async with self._engine.db.snapshot() as tx:
            records = await self._engine.book.ledger.tasks(self._owner, tx=tx)
            return [
                (r, (await self._engine.book.read(self._owner, r.id, tx=tx))[1]) for r in records
            ]

    async def _listing_all(self) -> list[tuple[TaskRecord, TaskView]]:
        found: list[tuple[TaskRecord, TaskView]] = []
        for owner in await self._engine.book.ledger.owners():
            found += await self.for_owner(owner)._listing()
        return found

    async def _cancel(
        self, task_id: str, note: str, decision: Reply | None = None, keep: TaskView | None = None
    ) -> TaskView:
        """Cancel the task (or release ``keep``, a checkpoint's view): log it, stop its
        turn here, screenshot and release its workspace; concurrent cancels share one."""
        shared = self._engine
        running = shared.cancels.get(task_id)
        if running is None:
            cancelling = self._do_cancel(task_id, note, decision, keep)
            running = asyncio.create_task(cancelling, name=f"gofer-cancel-{task_id}")
            shared.cancels[task_id] = running
            running.add_done_callback(lambda _t: shared.cancels.pop(task_id, None))
        return await asyncio.shield(running)

    async def _do_cancel(
        self, task_id: str, note: str, decision: Reply | None, keep: TaskView | None
    ) -> TaskView:
        loaded = await self._engine.book.load(self._owner, task_id)
        if loaded is None:
            raise errors.unknown_task(task_id)
        worker = self._engine.worker
        view = released_view(keep) if keep is not None else worker.cancelled_view(task_id, note)
        if view is None:
            stood = await self._engine.book.view(self._owner, task_id)
            cell = loaded.cell(options_for(self._engine.runner, loaded.request.constraints), stood)
            view = view_of(cell, Cancelled(), None, note)
        async with self._engine.db.transaction() as tx:
            if decision is not None:
                await self._engine.book.write(tx, self._owner, task_id, decision)
            await self._engine.book.write(tx, self._owner, task_id, events.TaskCancelled(view=view))
        await worker.cancel(self._owner, task_id)
        how = "released its browser" if released(view.status) else view.status.state
        log.info("task %s: %s", task_id, how)
        return view


class _OwnerView(Tasks):
    """A controller's engine answering as another owner (:meth:`Tasks.for_owner`)."""

    def __init__(self, engine: Engine, owner: str) -> None:
        self._engine = engine
        self._owner = owner
