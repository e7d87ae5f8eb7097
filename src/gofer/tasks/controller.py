"""``Tasks``: the controller and the calls it answers.

A task runs in the background as a named, supervised asyncio task; every call
returns at once with a view, except ``await_task``, which waits (woken by the
task's change event, never by polling) until the task stops running or its
timeout passes.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import re
import time
import traceback
from collections.abc import AsyncIterator, Callable, Mapping
from types import TracebackType
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from gofer.errors import GoferError, InvalidFlow, InvalidRequest, ModelError
from gofer.facts import Facts, is_card_fact, is_card_number
from gofer.flow import (
    check_flow,
    flow_guide,
    flow_to_json,
    iter_steps,
    names_in,
    validate_flow,
)
from gofer.flow.steps import Enter, Flow, Open
from gofer.models import CallMeter
from gofer.planner import start_address
from gofer.shape import check_output_schema
from gofer.tasks import errors
from gofer.tasks.budget import BudgetLedger
from gofer.tasks.describe import describe_reply
from gofer.tasks.drive import Driver, hint_info
from gofer.tasks.interpret import Decision
from gofer.tasks.limits import MAX_AWAIT_MS, MAX_TASKS, PRELOAD_TIMEOUT_S
from gofer.tasks.models import (
    ArtifactInfo,
    AwaitTaskRequest,
    Call,
    Cancelled,
    CancelTaskRequest,
    ContinueTaskRequest,
    DescribeReply,
    DescribeRequest,
    Failed,
    ListTasksReply,
    ListTasksRequest,
    NeedsInput,
    NeedsPlan,
    PlanTaskReply,
    PlanTaskRequest,
    Running,
    SpendInfo,
    StartTaskRequest,
    TaskConstraints,
    TaskReport,
    TaskReportRequest,
    TaskView,
)
from gofer.tasks.publish import next_calls, view_of
from gofer.tasks.runner import FlowRunner, WorkspaceOptions
from gofer.tasks.seams import Decider, PlanBrief, Planner, Rescuer, Shaper
from gofer.tasks.store import Cell, Segment, TaskStore

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
        problems = [
            {"at": ".".join(str(p) for p in err["loc"]), "message": err["msg"]}
            for err in exc.errors(include_input=False, include_url=False)
        ]
        raise InvalidRequest(
            f"the {model.__name__} does not fit: "
            + "; ".join(f"{p['at'] or 'request'}: {p['message']}" for p in problems),
            problems=problems,
        ) from None


def _invalid_flow(check_problems: list[dict[str, Any]]) -> InvalidFlow:
    listed = "; ".join(str(p["message"]) for p in check_problems[:5])
    return InvalidFlow(f"the flow is not valid: {listed}", problems=check_problems)


class Tasks:
    """The task controller: start, follow, answer and cancel tasks run on ``runner``.

    Use it as an async context manager (or call :meth:`close`): closing cancels live
    work and releases every workspace. ``planner``, ``rescuer``, ``shaper`` and
    ``decider`` are optional model passes; ``describe`` reports which are configured.
    ``clock`` gives wall time in seconds (artifact expiry); ``max_tasks`` defaults to
    MAX_TASKS.
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
    ) -> None:
        self._runner = runner
        self._planner = planner
        self._rescuer = rescuer
        self._shaper = shaper
        self._decider = decider
        self._clock = clock
        self._store = TaskStore(max_tasks)
        self._driver = Driver(runner=runner, shaper=shaper, clock=clock, rescuer=rescuer)
        self._ids = itertools.count(1)
        self._closed = False
        self._cancels: dict[str, asyncio.Task[None]] = {}

    async def __aenter__(self) -> Tasks:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

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
        options = self._options(req.constraints)
        flow = await self._planner.plan(self._brief(req.task, facts, options))
        check = check_flow(flow, facts.names, facts.secret_names)
        if check.problems:
            raise _invalid_flow([p.to_dict() for p in check.problems])
        return PlanTaskReply(flow=flow_to_json(flow), questions=list(check.questions))

    async def start_task(self, request: StartTaskRequest | Mapping[str, Any]) -> TaskView:
        """Validate, register and start a task; returns at once with its first view."""
        self._check_open()
        req = _coerce(StartTaskRequest, request)
        if req.output is not None:
            if self._shaper is None:
                raise errors.output_unavailable()
            if req.output.json_schema is not None:
                check_output_schema(req.output.json_schema)
        if req.constraints.payment == "fill_then_approve" and not req.constraints.origins:
            raise errors.origins_required()
        facts = Facts(req.facts, secret=req.secret_facts)
        options = self._options(req.constraints)
        flow: Flow | None = None
        questions: tuple[str, ...] = ()
        if req.flow is not None:
            flow, check = validate_flow(req.flow, facts.names, facts.secret_names)
            if flow is None or check.problems:
                raise _invalid_flow([p.to_dict() for p in check.problems])
            self._check_surfaces(flow, options)
            _check_card_entry(flow, facts, req.constraints)
            questions = check.questions
        self._store.make_room()
        cell = Cell(
            id=f"task-{next(self._ids)}", goal=req.task, flow=flow, facts=facts,
            constraints=req.constraints, ledger=BudgetLedger(req.budget), output=req.output,
            options=options,
            view=TaskView(id="", status=Running(), summary="Starting.", step=None,
                          progress=0.0, next=[Call.AWAIT_TASK, Call.CANCEL_TASK]),
        )
        self._store.add(cell)
        log.info("task %s: started (%s, %d facts, %d secret)", cell.id,
                 f"{len(flow.steps)} steps" if flow else "plain language", len(facts),
                 len(facts.secret_names))
        if flow is not None:
            cell.pending = [Segment(flow.steps, 0, req.constraints.allow_destructive)]
            if questions:
                self._driver.publish_stop(cell, NeedsInput(fields=list(questions)), None)
            else:
                self._spawn(cell, self._driver.drive(cell))
        elif self._planner is None:
            self._driver.publish_stop(cell, NeedsPlan(guide=flow_guide()), None)
        else:
            self._spawn(cell, self._plan_then_drive(cell, self._planner))
        return cell.view

    async def await_task(self, request: AwaitTaskRequest | Mapping[str, Any]) -> TaskView:
        """The task's view once it stops running, or when ``timeout_ms`` (at most
        MAX_AWAIT_MS) passes."""
        req = _coerce(AwaitTaskRequest, request)
        cell = self._store.get(req.id)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + min(req.timeout_ms, MAX_AWAIT_MS) / 1000.0
        while cell.state == "running":
            changed = cell.changed
            try:
                async with asyncio.timeout_at(deadline):
                    await changed.wait()
            except TimeoutError:
                break
        return cell.view

    async def continue_task(self, request: ContinueTaskRequest | Mapping[str, Any]) -> TaskView:
        """Answer a paused task: ``inputs`` for needs_input, ``approve`` for needs_approval,
        nothing (or new inputs) after needs_human or a recoverable failure."""
        self._check_open()
        req = _coerce(ContinueTaskRequest, request)
        cell = self._store.get(req.id)
        if cell.id in self._cancels:
            # Being cancelled: its workspace is on its way out, so nothing may start on it.
            raise errors.wrong_state(cell.id, "cancelled", Call.CONTINUE_TASK,
                                     [Call.TASK_REPORT])
        status = cell.view.status
        continuable = status.state in ("needs_input", "needs_approval", "needs_human") or (
            status.state == "failed" and status.recoverable
        ) or (status.state == "checkpoint" and status.continuable)
        if not continuable:
            raise errors.wrong_state(cell.id, status.state, Call.CONTINUE_TASK,
                                     next_calls(status))
        if req.approve is not None and status.state != "needs_approval":
            raise errors.wrong_state(cell.id, status.state, Call.CONTINUE_TASK,
                                     next_calls(status), "approve")
        if status.state == "needs_approval":
            if req.approve is None:
                raise InvalidRequest("this task waits for approval: pass approve true or false",
                                     id=cell.id)
            if not req.approve:
                await self._cancel(cell, "Cancelled: the approval was declined.")
                return cell.view
        if req.inputs or req.secret_inputs:
            questions = self._take_inputs(cell, req.inputs, req.secret_inputs)
            if questions:
                self._driver.publish_stop(cell, NeedsInput(fields=questions), None)
                return cell.view
        elif status.state == "needs_input":
            raise InvalidRequest(
                f"this task waits for values: pass inputs for {', '.join(status.fields)}",
                id=cell.id,
            )
        if status.state == "needs_approval" and cell.approval is not None:
            press = Segment((), int(cell.approval.path.split(".")[0]), True, cell.approval)
            cell.pending.insert(0, press)
            cell.approval = None
        log.info("task %s: continued from %s", cell.id, status.state)
        self._spawn(cell, self._driver.drive(cell))
        return cell.view

    async def cancel_task(self, request: CancelTaskRequest | Mapping[str, Any]) -> TaskView:
        """Cancel a task and release its workspace; a finished task is left as it is."""
        req = _coerce(CancelTaskRequest, request)
        cell = self._store.get(req.id)
        if cell.live or cell.id in self._cancels:
            await self._cancel(cell, "Cancelled.")
        return cell.view

    async def task_report(self, request: TaskReportRequest | Mapping[str, Any]) -> TaskReport:
        """Everything the task did (confidential: secret values are masked, shared ones
        may appear where the screen showed them)."""
        req = _coerce(TaskReportRequest, request)
        cell = self._store.get(req.id)
        self._expire(cell)
        mask = cell.facts.mask_json
        ledger = cell.ledger
        return TaskReport(
            id=cell.id,
            view=cell.view,
            flow=mask(flow_to_json(cell.flow)) if cell.flow is not None else None,
            steps=list(cell.steps),
            records=dict(cell.records),
            trace=list(cell.trace),
            hints=hint_info(cell),
            rescues=list(cell.rescues),
            spend=SpendInfo(actions=ledger.spent.actions, model_calls=ledger.spent.model_calls,
                            elapsed_ms=round(ledger.elapsed_ms, 3), runs=ledger.runs,
                            rescues=ledger.rescues),
            budget=ledger.limits,
            artifacts=[
                ArtifactInfo(name=a.name, media_type="image/png", size=len(a.data), run=a.run,
                             taken_at=a.taken_at, expires_at=a.expires_at)
                for a in cell.artifacts
            ],
        )

    async def list_tasks(
        self, request: ListTasksRequest | Mapping[str, Any] | None = None
    ) -> ListTasksReply:
        """Every task held, oldest first."""
        _coerce(ListTasksRequest, request)
        return ListTasksReply(tasks=[cell.view for cell in self._store])

    # ------------------------------------------------------------ conveniences

    async def watch(self, task_id: str) -> AsyncIterator[TaskView]:
        """The task's views as it moves, from now until it stops running (event-driven)."""
        cell = self._store.get(task_id)
        while True:
            changed = cell.changed
            view = cell.view
            yield view
            if view.status.state != "running":
                return
            await changed.wait()

    def read_artifact(self, task_id: str, name: str) -> bytes:
        """An artifact's bytes while it lasts (ARTIFACT_TTL_S); UNKNOWN_ARTIFACT after."""
        cell = self._store.get(task_id)
        self._expire(cell)
        for artifact in cell.artifacts:
            if artifact.name == name:
                return artifact.data
        raise errors.unknown_artifact(task_id, name)

    async def close(self) -> None:
        """Cancel live work and release every workspace (idempotent)."""
        self._closed = True
        for cell in self._store:
            if cell.live or cell.id in self._cancels:
                await self._cancel(cell, "Cancelled: the task controller closed.")

    # ------------------------------------------------------------ inside

    def _check_open(self) -> None:
        if self._closed:
            raise errors.closed()

    def _options(self, constraints: TaskConstraints) -> WorkspaceOptions:
        available = self._runner.available_surfaces()
        for surface in constraints.surfaces:
            reason = available.get(surface, "this runner has no such surface")
            if reason is not None:
                raise errors.surface_unavailable(surface, reason)
        usable = {s for s, r in available.items() if r is None}
        wanted: set[str] = set(constraints.surfaces) or usable
        return WorkspaceOptions(
            surfaces=frozenset(wanted), origins=tuple(constraints.origins),
            browser_endpoint=constraints.browser_endpoint, headed=constraints.headed,
        )

    def _check_surfaces(self, flow: Flow, options: WorkspaceOptions) -> None:
        available = self._runner.available_surfaces()
        for _path, step in iter_steps(flow.steps):
            surface = step.surface or ("desktop" if isinstance(step, Open) else "browser")
            if surface not in options.surfaces:
                reason = available.get(surface) or "the task's constraints leave it out"
                raise errors.surface_unavailable(surface, reason)

    def _brief(self, task: str, facts: Facts, options: WorkspaceOptions) -> PlanBrief:
        return PlanBrief(task=task, surfaces=tuple(sorted(options.surfaces)),
                         facts=tuple(facts.names), secrets=tuple(sorted(facts.secret_names)))

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
            raise _invalid_flow([p.to_dict() for p in check.problems])
        _check_card_entry(cell.flow, facts, cell.constraints)
        cell.facts = facts
        return list(check.questions)

    def _spawn(self, cell: Cell, work: Any) -> None:
        cell.worker = asyncio.create_task(self._supervise(cell, work), name=f"gofer-{cell.id}")
        self._driver.publish_running(cell)

    async def _supervise(self, cell: Cell, work: Any) -> None:
        """Run ``work``; any failure it does not handle becomes the task's failed status."""
        try:
            await work
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise
            # Nobody cancelled this task: something inside the run raised it on its own.
            log.error("task %s: the run raised CancelledError that no one asked for", cell.id)
            await self._driver.stop(cell, Decision(
                Failed(step=None, reason="the run was cancelled from inside the runner",
                       hint="report this as a bug", recoverable=False),
                release=True,
            ))
        except GoferError as exc:
            log.warning("task %s: stopped by %s", cell.id, exc.code)
            await self._driver.stop(cell, Decision(
                Failed(step=None, reason=cell.facts.mask(exc.message), hint=exc.code,
                       recoverable=False),
                release=True,
            ))
        except Exception as exc:  # noqa: BLE001 -- logged and published as the task's failure
            trace = "".join(traceback.format_tb(exc.__traceback__))
            log.error("task %s: crashed with %s: %s\n%s", cell.id, type(exc).__name__,
                      cell.facts.redact(str(exc)), trace)
            await self._driver.stop(cell, Decision(
                Failed(step=None, reason=f"internal error ({type(exc).__name__})",
                       hint="report this as a bug", recoverable=False),
                release=True,
            ))

    async def _plan_then_drive(self, cell: Cell, planner: Planner) -> None:
        assert cell.goal is not None
        cell.publish(view_of(cell, Running(), None, "Planning the task."))
        warm = self._warm(cell)
        meter = CallMeter(cell.ledger.model_calls_left())
        flow: Flow | None = None
        failure: ModelError | None = None
        try:
            flow = await planner.plan(self._brief(cell.goal, cell.facts, cell.options), meter)
            if warm is not None:
                await warm
        except ModelError as exc:
            failure = exc
        finally:
            cell.ledger.charge_model_calls(meter.used)
            if warm is not None and not warm.done():
                warm.cancel()
                await asyncio.wait([warm])
        if flow is None:
            assert failure is not None
            await self._driver.stop(cell, Decision(
                Failed(step=None,
                       reason=f"the planner could not plan the task: {failure.message}",
                       hint="write the flow with the guide and start_task with it "
                       f"({failure.code})", recoverable=False),
                release=True,
            ))
            return
        check = check_flow(flow, cell.facts.names, cell.facts.secret_names)
        if check.problems:
            listed = "; ".join(p.message for p in check.problems[:3])
            await self._driver.stop(cell, Decision(
                Failed(step=None, reason=f"the planner's flow is not valid: {listed}",
                       hint="write the flow with the guide and start_task with it",
                       recoverable=False),
                release=True,
            ))
            return
        self._check_surfaces(flow, cell.options)
        _check_card_entry(flow, cell.facts, cell.constraints)
        cell.flow = flow
        cell.pending = [Segment(flow.steps, 0, cell.constraints.allow_destructive)]
        if check.questions:
            # The browser goes while the task waits; the run that follows opens it again.
            await self._driver.settle(cell, release=True)
            self._driver.publish_stop(cell, NeedsInput(fields=list(check.questions)), None)
            return
        await self._driver.drive(cell)

    def _warm(self, cell: Cell) -> asyncio.Task[None] | None:
        """Ready a browser-only task's browser while its flow is planned, and load the one
        address its text sends it to (at most PRELOAD_TIMEOUT_S); None for other tasks."""
        if cell.options.surfaces != frozenset({"browser"}):
            return None
        cell.has_workspace = True
        address = start_address(cell.goal or "")

        async def warm() -> None:
            try:
                async with asyncio.timeout(PRELOAD_TIMEOUT_S):
                    await self._runner.prepare(cell.id, cell.options)
                    if address is not None:
                        await self._runner.open_page(cell.id, cell.options, address)
            except (GoferError, TimeoutError) as exc:
                # Best effort: the first run opens the browser and loads the page itself.
                log.info("task %s: the browser was not readied (%s)", cell.id,
                         getattr(exc, "code", type(exc).__name__))

        return asyncio.create_task(warm(), name=f"gofer-warm-{cell.id}")

    async def _cancel(self, cell: Cell, note: str) -> None:
        """Cancel ``cell``'s work, screenshot and release it, publish cancelled; concurrent
        cancels share one."""
        running = self._cancels.get(cell.id)
        if running is None:
            running = asyncio.create_task(self._do_cancel(cell, note),
                                          name=f"gofer-cancel-{cell.id}")
            self._cancels[cell.id] = running
            running.add_done_callback(lambda _t: self._cancels.pop(cell.id, None))
        await asyncio.shield(running)

    async def _do_cancel(self, cell: Cell, note: str) -> None:
        worker = cell.worker
        if worker is not None and not worker.done():
            worker.cancel()
            await asyncio.wait([worker])
        cell.pending = []
        cell.approval = None
        await self._driver.settle(cell, release=True)
        cell.publish(view_of(cell, Cancelled(), None, note))
        log.info("task %s: cancelled", cell.id)

    def _expire(self, cell: Cell) -> None:
        now = self._clock()
        cell.artifacts = [a for a in cell.artifacts if a.expires_at > now]


_NAME = re.compile(r"\$\{[^}]*\}")


def _check_card_entry(flow: Flow, facts: Facts, constraints: TaskConstraints) -> None:
    """Card details are typed only under ``payment: fill_then_approve``, and only from
    secret facts: a card number written into the flow would show in every view
    (CARD_ENTRY_REFUSED)."""
    filling = constraints.payment == "fill_then_approve"
    for path, step in iter_steps(flow.steps):
        if not isinstance(step, Enter):
            continue
        if is_card_number(_NAME.sub("", step.value).strip()):
            raise errors.card_entry_refused("a card number written into the flow", path)
        if filling:
            continue
        for name in names_in(step.value):
            value = facts.get(name)
            if value is not None and is_card_fact(name, value):
                raise errors.card_entry_refused(name, path)
