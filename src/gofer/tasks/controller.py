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
import uuid
from collections.abc import AsyncIterator, Callable, Mapping
from types import TracebackType
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from gofer.errors import InvalidRequest, invalid_request
from gofer.facts import Facts
from gofer.flow import check_flow, flow_guide, flow_to_json, parse_flow, validate_flow
from gofer.flow.steps import Flow
from gofer.shape import check_output_schema
from gofer.store import Connector, MemoryConnector, Notice, Transaction
from gofer.store.ledger import TaskEvent, TaskRecord
from gofer.surfaces.live import LiveOptions, LiveView
from gofer.tasks import errors
from gofer.tasks.book import LOCAL_OWNER, TaskBook
from gofer.tasks.budget import BudgetLedger
from gofer.tasks.checks import (
    brief_for,
    check_card_entry,
    check_surfaces,
    invalid_flow,
    options_for,
)
from gofer.tasks.describe import describe_reply
from gofer.tasks.drive import Driver
from gofer.tasks.limits import MAX_AWAIT_MS, MAX_OPEN_TASKS, MAX_TASKS
from gofer.tasks.models import (
    ArtifactInfo,
    AwaitTaskRequest,
    Call,
    Cancelled,
    CancelTaskRequest,
    ContinueTaskRequest,
    DescribeReply,
    DescribeRequest,
    HintInfo,
    ListTasksReply,
    ListTasksRequest,
    LogEntry,
    NeedsInput,
    NeedsPlan,
    PlanTaskReply,
    PlanTaskRequest,
    RescueInfo,
    Running,
    SpendInfo,
    StartTaskRequest,
    StepReportInfo,
    TaskReport,
    TaskReportRequest,
    TaskView,
    TraceInfo,
)
from gofer.tasks.publish import next_calls, sentence, view_of
from gofer.tasks.runner import FlowRunner
from gofer.tasks.seams import Decider, Planner, Rescuer, Shaper
from gofer.tasks.status import TaskReading, group_of
from gofer.tasks.store import Cell, Segment
from gofer.tasks.worker import TaskWorker, TurnLimits, turn_running

__all__ = ["Tasks"]

log = logging.getLogger("gofer.tasks")

M = TypeVar("M", bound=BaseModel)


def _coerce(model: type[M], value: M | Mapping[str, Any] | None) -> M:
    """``value`` as a ``model``: a mapping is validated (INVALID_REQUEST when it does not fit)."""
    if isinstance(value, model):
        return value
    if value is not None and not isinstance(value, Mapping):
        raise InvalidRequest(f"a {model.__name__} is a JSON object, not {type(value).__name__}")
    try:
        return model.model_validate(dict(value or {}))
    except ValidationError as exc:
        raise invalid_request(exc, f"the {model.__name__} does not fit") from None


def _live(view: TaskView) -> bool:
    """Whether the task works, waits for its caller, or may still hold a workspace."""
    status = view.status
    if status.state in ("done", "cancelled", "needs_plan"):
        return False
    return not (status.state == "failed" and not status.recoverable)


def _person_may_act(view: TaskView) -> bool:
    """Whether the task waits for a person who may act in its browser."""
    status = view.status
    if status.state in ("needs_human", "needs_approval", "checkpoint"):
        return True
    return status.state == "failed" and status.recoverable


def _title(req: StartTaskRequest, flow: Flow | None) -> str:
    if req.task and req.task.strip():
        first = req.task.strip().split(". ")[0]
        return sentence(first)[:120]
    steps = len(flow.steps) if flow is not None else 0
    return f"A flow of {steps} step{'s' if steps != 1 else ''}."


class _Shared:
    """What every owner's face of one controller shares."""

    def __init__(self) -> None:
        self.closed = False
        self.count = 0
        self.cancels: dict[str, asyncio.Task[TaskView]] = {}


class Tasks:
    """The task controller: start, follow, answer and cancel tasks run on ``runner``.

    Use it as an async context manager (or call :meth:`close`). ``store`` is the
    connector tasks live in (opened by the caller); without one the controller keeps
    them in an in-memory connector of its own, and closing it cancels live work (its
    tasks could not outlive it). With a store, closing stops this process's worker,
    puts its running turns back on the queue and leaves every task as it is, to go on
    after a restart. ``work=False`` leaves the running to worker processes.
    ``planner``, ``rescuer``, ``shaper`` and ``decider`` are optional model passes;
    ``describe`` reports which are configured. ``clock`` gives wall time in seconds;
    ``max_tasks`` (MAX_TASKS) bounds the tasks an in-memory controller holds;
    ``max_open`` (MAX_OPEN_TASKS) the tasks of one owner waiting to run or running;
    ``limits`` caps the turns running per owner and per process; ``owner`` is whom
    the calls answer for; ``source`` is recorded with every task it starts.
    """

    def __init__(
        self,
        runner: FlowRunner,
        *,
        planner: Planner | None = None,
        rescuer: Rescuer | None = None,
        shaper: Shaper | None = None,
        decider: Decider | None = None,
        clock: Callable[[], float] = time.time,
        max_tasks: int = MAX_TASKS,
        max_open: int = MAX_OPEN_TASKS,
        store: Connector | None = None,
        owner: str = LOCAL_OWNER,
        work: bool = True,
        limits: TurnLimits | None = None,
        worker_id: str | None = None,
        source: str = "api",
    ) -> None:
        self._runner = runner
        self._planner = planner
        self._rescuer = rescuer
        self._shaper = shaper
        self._decider = decider
        self._clock = clock
        self._max_tasks = max_tasks
        self._max_open = max_open
        self._owned = store is None
        self._db: Connector = store if store is not None else MemoryConnector()
        self._book = TaskBook(self._db, clock)
        self._driver = Driver(runner=runner, shaper=shaper, clock=clock, rescuer=rescuer)
        self._worker = TaskWorker(
            self._book, runner, self._driver, planner, limits or TurnLimits(), worker_id
        )
        self._work = work
        self._owner = owner
        self._source = source
        self._shared = _Shared()

    def for_owner(self, owner: str) -> Tasks:
        """This controller answering as ``owner`` (same store, worker and runner)."""
        face = object.__new__(Tasks)
        face.__dict__.update(self.__dict__)
        face._owner = owner
        return face

    @property
    def owner(self) -> str:
        """Whom the calls answer for."""
        return self._owner

    @property
    def worker(self) -> TaskWorker:
        """This process's worker."""
        return self._worker

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
        """Run this process's worker until ``stop`` is set (``gofer worker``)."""
        self._check_open()
        self._worker.start()
        await stop.wait()

    # ------------------------------------------------------------ the calls

    async def describe(
        self, request: DescribeRequest | Mapping[str, Any] | None = None
    ) -> DescribeReply:
        """What this controller can do: surfaces, model passes, the guide, schemas, examples."""
        _coerce(DescribeRequest, request)
        return describe_reply(
            self._runner.available_surfaces(),
            planner=self._planner is not None,
            rescuer=self._rescuer is not None,
            shaper=self._shaper is not None,
            decider=self._decider is not None,
        )

    async def plan_task(self, request: PlanTaskRequest | Mapping[str, Any]) -> PlanTaskReply:
        """Draft a flow for a plain-language task without running it (PLANNER_UNAVAILABLE
        with no planner)."""
        self._check_open()
        req = _coerce(PlanTaskRequest, request)
        if self._planner is None:
            raise errors.planner_unavailable()
        facts = Facts(req.facts, secret=req.secret_facts)
        options = options_for(self._runner, req.constraints)
        flow = await self._planner.plan(brief_for(req.task, facts, options))
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
        req = _coerce(StartTaskRequest, request)
        if req.output is not None:
            if self._shaper is None:
                raise errors.output_unavailable()
            if req.output.json_schema is not None:
                check_output_schema(req.output.json_schema)
        if req.constraints.payment == "fill_then_approve" and not req.constraints.origins:
            raise errors.origins_required()
        facts = Facts(req.facts, secret=req.secret_facts)
        options = options_for(self._runner, req.constraints)
        flow: Flow | None = None
        questions: tuple[str, ...] = ()
        if req.flow is not None:
            flow, check = validate_flow(req.flow, facts.names, facts.secret_names)
            if flow is None or check.problems:
                raise invalid_flow([p.to_dict() for p in check.problems])
            check_surfaces(self._runner, flow, options)
            check_card_entry(flow, facts, req.constraints)
            questions = check.questions
            # Stored in its parsed form, so a later turn reads back what was checked.
            req = req.model_copy(update={"flow": flow_to_json(flow)})
        task_id = self._new_id()
        starting = TaskView(
            id=task_id,
            status=Running(),
            summary="Starting.",
            step=None,
            progress=0.0,
            next=[Call.AWAIT_TASK, Call.CANCEL_TASK],
        )
        cell = Cell(
            id=task_id,
            goal=req.task,
            flow=flow,
            facts=facts,
            constraints=req.constraints,
            ledger=BudgetLedger(req.budget),
            output=req.output,
            options=options,
            view=starting,
        )
        turn = True
        if flow is not None:
            cell.pending = []
            if questions:
                self._driver.publish_stop(cell, NeedsInput(fields=list(questions)), None)
                turn = False
            else:
                cell.pending = [Segment(flow.steps, 0, req.constraints.allow_destructive)]
                self._driver.publish_running(cell)
        elif self._planner is None:
            self._driver.publish_stop(cell, NeedsPlan(guide=flow_guide()), None)
            turn = False
        else:
            self._driver.publish_running(cell)
        record = TaskRecord(
            id=task_id,
            owner=self._owner,
            title=title or _title(req, flow),
            request=req.model_dump(mode="json", by_alias=True),
            created_at=self._book.now(),
            source=self._source,
        )
        book = self._book
        async with self._db.transaction() as tx:
            await self._make_room(tx)
            if turn and await book.queue.open_count(self._owner, tx=tx) >= self._max_open:
                raise errors.too_many_tasks(self._max_open)
            await book.ledger.add_task(record, tx=tx)
            item = None
            if turn:
                item = await book.queue.enqueue(
                    "turn", {"task_id": task_id, "owner": self._owner}, key=f"turn:{task_id}", tx=tx
                )
            await book.write(
                tx,
                self._owner,
                task_id,
                "start",
                {
                    "item": item.id if item is not None else None,
                    "view": cell.view.model_dump(mode="json"),
                },
            )
        log.info(
            "task %s: started (%s, %d facts, %d secret)",
            task_id,
            f"{len(flow.steps)} steps" if flow else "plain language",
            len(facts),
            len(facts.secret_names),
        )
        return cell.view

    async def await_task(self, request: AwaitTaskRequest | Mapping[str, Any]) -> TaskView:
        """The task's view once it stops running, or when ``timeout_ms`` (at most
        MAX_AWAIT_MS) passes. Works from any process on the same store."""
        req = _coerce(AwaitTaskRequest, request)
        self._started()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + min(req.timeout_ms, MAX_AWAIT_MS) / 1000.0
        group = group_of(req.id)
        with self._db.waker.subscribe() as subscription:
            view = await self._book.view(self._owner, req.id)
            while view.status.state == "running":
                left = deadline - loop.time()
                if left <= 0:
                    break
                notices = await subscription.wait(min(left, self._worker.limits.wake_s))
                if notices and not any(_may_stop(n, group) for n in notices):
                    continue
                view = await self._book.view(self._owner, req.id)
        return view

    async def continue_task(self, request: ContinueTaskRequest | Mapping[str, Any]) -> TaskView:
        """Answer a paused task: ``inputs`` for needs_input, ``approve`` for needs_approval,
        nothing (or new inputs) after needs_human or a recoverable failure. The answer
        is on the queue before this returns, so it survives a restart."""
        self._check_open()
        self._started()
        req = _coerce(ContinueTaskRequest, request)
        reading, view = await self._book.read(self._owner, req.id)
        task_id = req.id
        if task_id in self._shared.cancels:
            # Being cancelled: its workspace is on its way out, so nothing may start on it.
            raise errors.wrong_state(task_id, "cancelled", Call.CONTINUE_TASK, [Call.TASK_REPORT])
        status = view.status
        if status.state == "running" and await self._repeated(reading, req):
            return view
        continuable = (
            status.state in ("needs_input", "needs_approval", "needs_human")
            or (status.state == "failed" and status.recoverable)
            or (status.state == "checkpoint" and status.continuable)
        )
        if not continuable or reading.record.resolved_at is not None:
            raise errors.wrong_state(task_id, status.state, Call.CONTINUE_TASK, next_calls(status))
        if req.approve is not None and status.state != "needs_approval":
            raise errors.wrong_state(
                task_id, status.state, Call.CONTINUE_TASK, next_calls(status), "approve"
            )
        if status.state == "needs_approval":
            if req.approve is None:
                raise InvalidRequest(
                    "this task waits for approval: pass approve true or false", id=task_id
                )
            if not req.approve:
                return await self._cancel(
                    task_id, "Cancelled: the approval was declined.", decision={"approve": False}
                )
        loaded = await self._book.load(self._owner, task_id)
        assert loaded is not None
        cell = loaded.cell(options_for(self._runner, loaded.request.constraints), view)
        inputs = dict(req.inputs)
        if inputs or req.secret_inputs:
            questions = self._take_inputs(cell, inputs, req.secret_inputs)
            if questions:
                self._driver.publish_stop(cell, NeedsInput(fields=questions), None)
                async with self._db.transaction() as tx:
                    await self._book.write(
                        tx,
                        self._owner,
                        task_id,
                        "reply",
                        {
                            "item": None,
                            "inputs": inputs,
                            "secret": list(req.secret_inputs),
                            "approve": None,
                            "view": cell.view.model_dump(mode="json"),
                        },
                    )
                    await self._book.write(
                        tx,
                        self._owner,
                        task_id,
                        "ended",
                        {
                            "item": None,
                            "view": cell.view.model_dump(mode="json"),
                            "state": loaded.state,
                            "run": {"steps": [], "trace": []},
                        },
                    )
                return cell.view
        elif status.state == "needs_input":
            raise InvalidRequest(
                f"this task waits for values: pass inputs for {', '.join(status.fields)}",
                id=task_id,
            )
        rerun = _out_of_runs(reading)
        kind, key = (
            ("again", f"again:{task_id}:{rerun}")
            if rerun is not None
            else ("reply", f"reply:{task_id}:{reading.stop.seq if reading.stop else 0}")
        )
        if status.state == "needs_approval" and cell.approval is not None:
            cell.publish(
                view_of(cell, Running(), cell.approval.path, "Pressing the approved control.")
            )
        else:
            self._driver.publish_running(cell)
        async with self._db.transaction() as tx:
            if await self._book.queue.items(key=key, tx=tx):
                # The same answer, twice at once: the first one runs.
                return (await self._book.read(self._owner, task_id, tx=tx))[1]
            item = await self._book.queue.enqueue(
                kind, {"task_id": task_id, "owner": self._owner}, key=key, tx=tx
            )
            await self._book.write(
                tx,
                self._owner,
                task_id,
                "reply" if kind == "reply" else "again",
                {
                    "item": item.id,
                    "inputs": inputs,
                    "secret": list(req.secret_inputs),
                    "approve": req.approve,
                    "view": cell.view.model_dump(mode="json"),
                },
            )
        log.info("task %s: continued from %s", task_id, status.state)
        return cell.view

    async def _repeated(self, reading: TaskReading, req: ContinueTaskRequest) -> bool:
        """Whether the turn running now is this very answer, sent a second time (two
        "Try again" at once run once)."""
        turn = reading.open_turn
        if turn is None or turn.kind not in ("reply", "again"):
            return False
        answers = await self._book.ledger.events(self._owner, reading.record.id, kinds=(turn.kind,))
        sent = next((e for e in reversed(answers) if e.data.get("item") == turn.id), None)
        if sent is None:
            return False
        data = sent.data
        return (
            dict(data.get("inputs") or {}) == dict(req.inputs)
            and list(data.get("secret") or []) == list(req.secret_inputs)
            and data.get("approve") == req.approve
        )

    async def cancel_task(self, request: CancelTaskRequest | Mapping[str, Any]) -> TaskView:
        """Cancel a task and release its workspace; a finished task is left as it is."""
        req = _coerce(CancelTaskRequest, request)
        view = await self._book.view(self._owner, req.id)
        if _live(view) or req.id in self._shared.cancels:
            return await self._cancel(req.id, "Cancelled.")
        return view

    async def task_report(self, request: TaskReportRequest | Mapping[str, Any]) -> TaskReport:
        """Everything the task did, read back from its event log in order (confidential:
        secret values are masked, shared ones may appear where the screen showed them)."""
        req = _coerce(TaskReportRequest, request)
        async with self._db.snapshot() as tx:
            _reading, view = await self._book.read(self._owner, req.id, tx=tx)
            loaded = await self._book.load(self._owner, req.id, tx=tx)
            events = await self._book.ledger.events(self._owner, req.id, tx=tx)
        assert loaded is not None
        facts = loaded.facts
        state = loaded.state or {}
        steps: list[StepReportInfo] = []
        trace: list[TraceInfo] = []
        for event in events:
            if event.kind == "ended":
                run = event.data.get("run", {})
                steps += [StepReportInfo.model_validate(s) for s in run.get("steps", [])]
                trace += [TraceInfo.model_validate(t) for t in run.get("trace", [])]
        flow_json = state.get("flow") or loaded.request.flow
        # A turn running on this worker knows more than its last journaled state
        # (a rescue whose guidance runs now).
        live = self._worker.cells.get(req.id)
        spend = state.get("spend", {})
        now = self._clock()
        # Pruned in place: a turn running now appends its screenshot to this same list.
        kept = self._worker.artifacts.get(req.id, [])
        kept[:] = [a for a in kept if a.expires_at > now]
        artifacts = list(kept)
        return TaskReport(
            id=req.id,
            view=view,
            flow=facts.mask_json(flow_to_json(parse_flow(flow_json))) if flow_json else None,
            steps=steps,
            records=dict(state.get("records", {})),
            trace=trace,
            hints=[
                HintInfo(
                    site=h["site"],
                    kind=h["kind"],
                    words=h["words"],
                    role=h["role"],
                    name=facts.mask(h["name"]),
                    context=facts.mask(h.get("context", "")),
                )
                for h in state.get("hints", [])
            ],
            rescues=list(live.rescues)
            if live is not None
            else [RescueInfo.model_validate(r) for r in state.get("rescues", [])],
            spend=SpendInfo(
                actions=int(spend.get("actions", 0)),
                model_calls=int(spend.get("model_calls", 0)),
                elapsed_ms=round(float(spend.get("elapsed_ms", 0.0)), 3),
                runs=int(spend.get("runs", 0)),
                rescues=int(spend.get("rescues", 0)),
            ),
            budget=loaded.request.budget,
            artifacts=[
                ArtifactInfo(
                    name=a.name,
                    media_type="image/png",
                    size=len(a.data),
                    run=a.run,
                    taken_at=a.taken_at,
                    expires_at=a.expires_at,
                )
                for a in artifacts
            ],
            log=[entry for e in events if (entry := _log_entry(e)) is not None],
        )

    async def list_tasks(
        self,
        request: ListTasksRequest | Mapping[str, Any] | None = None,
        *,
        newest_first: bool = False,
    ) -> ListTasksReply:
        """A page of the owner's tasks, oldest first (or ``newest_first``), each with its
        status as read now; ``next_cursor`` leads to the next page."""
        req = _coerce(ListTasksRequest, request)
        after = _cursor(req.cursor)
        book = self._book
        async with self._db.snapshot() as tx:
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
        reading, _view = await self._book.read(self._owner, task_id)
        return reading.record

    async def moved_at(self, task_id: str) -> float:
        """When the task last moved (seconds since the epoch): it started, a step began,
        a run ended, the caller replied, cancelled, or marked it done or reopened it
        (UNKNOWN_TASK for another owner's)."""
        reading, _view = await self._book.read(self._owner, task_id)
        record = reading.record
        times = [record.created_at, record.resolved_at or 0.0]
        times += [e.at for e in (reading.stop, reading.moving, reading.cancelled) if e]
        return max(times)

    async def titles(self) -> dict[str, str]:
        """Each of the owner's tasks' title, by id (for listings)."""
        return {r.id: r.title for r in await self._book.ledger.tasks(self._owner)}

    async def mark_done(self, task_id: str) -> TaskView:
        """Mark a task done (its ``resolved_at``): it reads done and lets its workspace
        go; WRONG_STATE while a turn of it runs."""
        self._check_open()
        reading, view = await self._book.read(self._owner, task_id)
        if view.status.state == "running":
            raise errors.wrong_state(task_id, "running", "mark_done", next_calls(view.status))
        if reading.record.resolved_at is None:
            async with self._db.transaction() as tx:
                await self._book.ledger.set_resolved(self._owner, task_id, self._book.now(), tx=tx)
                await self._book.write(tx, self._owner, task_id, "resolved", {})
            if self._runner.holds(task_id):
                await self._settle(task_id)
        return await self._book.view(self._owner, task_id)

    async def reopen(self, task_id: str) -> TaskView:
        """Undo :meth:`mark_done`: the task reads as it stood before (WRONG_STATE when it
        was not marked done)."""
        self._check_open()
        reading, view = await self._book.read(self._owner, task_id)
        if reading.record.resolved_at is None:
            raise errors.wrong_state(task_id, view.status.state, "reopen", next_calls(view.status))
        async with self._db.transaction() as tx:
            await self._book.ledger.set_resolved(self._owner, task_id, None, tx=tx)
            await self._book.write(tx, self._owner, task_id, "reopened", {})
        return await self._book.view(self._owner, task_id)

    async def watch(self, task_id: str, *, until_final: bool = False) -> AsyncIterator[TaskView]:
        """The task's views as it moves, from now until it stops running (woken by the
        store's notices).

        With ``until_final`` the views go on through pauses (a task waiting for its
        caller may be continued) and end only once the task can change no more: done,
        cancelled, needs_plan, or failed and not recoverable.
        """
        self._started()
        group = group_of(task_id)
        with self._db.waker.subscribe() as subscription:
            last: TaskView | None = None
            while True:
                view = await self._book.view(self._owner, task_id)
                if view != last:
                    yield view
                    last = view
                if (not _live(view)) if until_final else view.status.state != "running":
                    return
                while True:
                    notices = await subscription.wait(self._worker.limits.wake_s)
                    if not notices or any(n.group == group for n in notices):
                        break

    async def live_view(self, task_id: str, options: LiveOptions | None = None) -> LiveView:
        """A person's live view of the task's own browser page, to get past what only
        they can (a captcha, a login wall, a payment they finish themselves): frames as
        the page paints, their mouse and keys sent to it. Use ``async with``.

        Only while the task waits for a person with its browser open in this process
        (needs_human, needs_approval, a checkpoint, a recoverable failure): WRONG_STATE
        otherwise, LIVE_UNAVAILABLE when the browser was let go or is on another
        worker, UNKNOWN_TASK for another owner's task. The view closes when a turn of
        the task starts (continuing it hands the browser back) or the task ends.
        """
        self._check_open()
        reading, view = await self._book.read(self._owner, task_id)
        status = view.status
        if (
            not _person_may_act(view)
            or reading.record.resolved_at is not None
            or task_id in self._shared.cancels
        ):
            raise errors.wrong_state(task_id, status.state, "live_view", next_calls(status))
        return await self._worker.live(task_id, options)

    async def browser_here(self, task_id: str) -> bool:
        """Whether the task's browser is open in this process for a person to take over
        (UNKNOWN_TASK for another owner's): False once it was let go after waiting
        (HOLD_FOR_PERSON_S), or while a turn of the task runs, or on another worker."""
        await self._book.read(self._owner, task_id)
        return self._worker.holds_for_person(task_id)

    def read_artifact(self, task_id: str, name: str) -> bytes:
        """An artifact's bytes while it lasts (ARTIFACT_TTL_S); UNKNOWN_ARTIFACT after.
        Artifacts stay in the process whose worker took them."""
        now = self._clock()
        for artifact in self._worker.artifacts.get(task_id, []):
            if artifact.name == name and artifact.expires_at > now:
                return artifact.data
        raise errors.unknown_artifact(task_id, name)

    async def close(self) -> None:
        """Stop this process's worker and release every workspace it holds
        (idempotent). An in-memory controller cancels its live tasks first."""
        shared = self._shared
        if shared.closed:
            return
        shared.closed = True
        if self._owned:
            for record, view in await self._listing_all():
                if _live(view):
                    await self.for_owner(record.owner)._cancel(
                        record.id, "Cancelled: the task controller closed."
                    )
        await self._worker.stop()

    # ------------------------------------------------------------ inside

    def _new_id(self) -> str:
        """``task-N`` in an in-memory controller; a random id in a store many processes
        share (no counter there survives a restart)."""
        if self._owned:
            self._shared.count += 1
            return f"task-{self._shared.count}"
        return f"task-{uuid.uuid4().hex[:16]}"

    def _check_open(self) -> None:
        if self._shared.closed:
            raise errors.closed()

    def _started(self) -> None:
        if self._work and not self._shared.closed:
            self._worker.start()

    async def _listing(self) -> list[tuple[TaskRecord, TaskView]]:
        async with self._db.snapshot() as tx:
            records = await self._book.ledger.tasks(self._owner, tx=tx)
            return [(r, (await self._book.read(self._owner, r.id, tx=tx))[1]) for r in records]

    async def _listing_all(self) -> list[tuple[TaskRecord, TaskView]]:
        found: list[tuple[TaskRecord, TaskView]] = []
        for owner in await self._book.ledger.owners():
            found += await self.for_owner(owner)._listing()
        return found

    async def _make_room(self, tx: Transaction) -> None:
        """An in-memory controller holds at most ``max_tasks`` tasks: drop the oldest
        finished ones to make room; TOO_MANY_TASKS when every one is live."""
        if not self._owned:
            return
        records = await self._book.ledger.tasks(self._owner, tx=tx)
        if len(records) < self._max_tasks:
            return
        views = [(r, (await self._book.read(self._owner, r.id, tx=tx))[1]) for r in records]
        extra = len(records) - self._max_tasks + 1
        finished = [r for r, v in views if not _live(v)]
        if len(finished) < extra:
            raise errors.too_many_tasks(self._max_tasks)
        for record in finished[:extra]:
            await self._book.ledger.drop_task(self._owner, record.id, tx=tx)
            self._worker.artifacts.pop(record.id, None)

    def _take_inputs(self, cell: Cell, inputs: Mapping[str, str], secret: list[str]) -> list[str]:
        """Add the caller's new values to the task's facts and check the flow again.

        Raises INVALID_FLOW, leaving the task as it was, when a new value turns a name
        into a secret used where only an ``enter`` value may hold one.
        """
        facts = cell.facts.merged(inputs, secret=secret)
        if cell.flow is None:
            cell.facts = facts
            return []
        check = check_flow(cell.flow, facts.names, facts.secret_names)
        if check.problems:
            raise invalid_flow([p.to_dict() for p in check.problems])
        check_card_entry(cell.flow, facts, cell.constraints)
        cell.facts = facts
        return list(check.questions)

    async def _cancel(
        self, task_id: str, note: str, decision: Mapping[str, Any] | None = None
    ) -> TaskView:
        """Cancel the task: log it, stop its turn here, screenshot and release its
        workspace; concurrent cancels share one."""
        shared = self._shared
        running = shared.cancels.get(task_id)
        if running is None:
            running = asyncio.create_task(
                self._do_cancel(task_id, note, decision), name=f"gofer-cancel-{task_id}"
            )
            shared.cancels[task_id] = running
            running.add_done_callback(lambda _t: shared.cancels.pop(task_id, None))
        return await asyncio.shield(running)

    async def _do_cancel(
        self, task_id: str, note: str, decision: Mapping[str, Any] | None
    ) -> TaskView:
        loaded = await self._book.load(self._owner, task_id)
        if loaded is None:
            raise errors.unknown_task(task_id)
        worker = self._worker
        cell = worker.cells.get(task_id)
        if cell is None:
            view = await self._book.view(self._owner, task_id)
            cell = loaded.cell(options_for(self._runner, loaded.request.constraints), view)
        view = view_of(cell, Cancelled(), None, note)
        async with self._db.transaction() as tx:
            if decision is not None:
                await self._book.write(
                    tx, self._owner, task_id, "reply", {"item": None, **decision}
                )
            await self._book.write(
                tx, self._owner, task_id, "cancelled", {"view": view.model_dump(mode="json")}
            )
        turn = worker.turns.get(task_id)
        if turn is not None and not turn.done():
            worker.cancelling.add(task_id)
            turn.cancel()
            await asyncio.wait([turn])
        await self._settle(task_id, cell)
        log.info("task %s: cancelled", task_id)
        return view

    async def _settle(self, task_id: str, cell: Cell | None = None) -> None:
        """Screenshot and release the task's workspace on this worker, if it holds one."""
        if not self._runner.holds(task_id):
            return
        if cell is None:
            loaded = await self._book.load(self._owner, task_id)
            assert loaded is not None
            view = await self._book.view(self._owner, task_id)
            cell = loaded.cell(options_for(self._runner, loaded.request.constraints), view)
        cell.artifacts = self._worker.artifacts.get(task_id, [])
        cell.has_workspace = True
        self._worker.unhold(task_id)
        await self._worker.close_lives(task_id)
        await self._driver.settle(cell, release=True)
        self._worker.artifacts[task_id] = cell.artifacts
        self._worker.held.discard(task_id)


def _cursor(text: str | None) -> int | None:
    """The listing position a ``next_cursor`` names (INVALID_REQUEST for any other)."""
    if text is None:
        return None
    if not text.isascii() or not text.isdigit() or len(text) > 18:
        raise InvalidRequest(
            "the cursor is not one a listing gave",
            problems=[{"at": "cursor", "message": "not one a listing gave"}],
        )
    return int(text)


def _may_stop(notice: Notice, group: str) -> bool:
    """Whether ``notice`` may mean the task's turn stopped running (a view journaled as
    a step starts cannot)."""
    return notice.group == group and not (notice.event == "task" and notice.kind == "view")


def _out_of_runs(reading: TaskReading) -> int | None:
    """The id of the task's last turn when it ran out of runs with no run ending it."""
    last = reading.turns[-1] if reading.turns else None
    if last is None or last.state != "failed":
        return None
    return None if reading.ended(last) else last.id


def _log_entry(event: TaskEvent) -> LogEntry | None:
    """One entry of the report's log, in plain words (names only, never a value)."""
    data = event.data
    text: str | None = None
    match event.kind:
        case "start":
            text = "Started."
        case "reply":
            if data.get("approve") is True:
                text = "Approved the step waiting for approval."
            elif data.get("approve") is False:
                text = "Declined the step waiting for approval."
            elif data.get("inputs"):
                text = "Gave values for " + ", ".join(sorted(data["inputs"])) + "."
            else:
                text = "Asked the task to go on."
        case "again":
            text = "Asked for the run to be tried again."
        case "ended" | "cancelled":
            view = data.get("view") or {}
            text = str(view.get("summary", ""))
        case "let_go":
            minutes = round(float(data.get("after_s", 0)) / 60)
            text = (
                f"Let its browser go after waiting {minutes} minutes for a person; going "
                "on opens the page it was on again."
            )
        case "resolved":
            text = "Marked done."
        case "reopened":
            text = "Reopened."
        case _:
            return None
    return LogEntry(at=event.at, kind=event.kind, text=text)
