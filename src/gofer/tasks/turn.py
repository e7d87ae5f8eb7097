"""One claimed turn of a task, from its claim to its end, in one place.

The worker claims a turn and hands it to :class:`Turn`, which owns the rest: it
loads the task, restores its working state (:func:`gofer.tasks.book.restore`),
runs it (plans a plain-language task's flow first, then drives its segments with
a :class:`Driver` of its own, which does what :func:`gofer.tasks.outcome.next_move`
decides after each), settles its workspace, and records its end: the run's update
and the task's working state written to the event log and the turn finished, in one
transaction. While it runs it speaks through one outlet, its journal
(:class:`gofer.tasks.book.TurnJournal`): a view as each step starts, and an
irreversible press before and after it happens, so a rerun of the turn never presses
twice. The task's cell is data the turn alone writes.

A turn cut short by the worker's own shutdown goes back on the queue at once with
its attempt refunded: a drain is the operator's, not the turn's doing, and a rolling
restart may cut one turn more than once; the attempt cap counts the runs whose worker
died (their lease lapsed). A turn of a cancelled task finishes as cancelled. A turn
whose end the store fails to write retries it while its lease holds, so a finished
run is never run again.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from gofer.errors import GoferError, LeaseLost, ModelError, StoreError
from gofer.flow import check_flow
from gofer.models import CallMeter
from gofer.planner import start_address
from gofer.runtime.takeover import Recorder
from gofer.runtime.types import RunResult
from gofer.store import Claim, keep_lease
from gofer.tasks import errors
from gofer.tasks.book import LOCAL_OWNER, Loaded, TaskBook, TurnJournal, last_address, snapshot
from gofer.tasks.cell import Artifact, Cell, Segment, request_for, running_view, stop_view, view_of
from gofer.tasks.checks import brief_for, check_card_entry, check_surfaces, options_for
from gofer.tasks.contract import (
    NeedsInput,
    Running,
    Status,
    StepReportInfo,
    TaskView,
    TraceInfo,
)
from gofer.tasks.events import Ended, Reply, RunLog, TaskCancelled
from gofer.tasks.files import files_of, keep_files
from gofer.tasks.holding import Holding, hand_back
from gofer.tasks.limits import ARTIFACT_TTL_S, PRELOAD_TIMEOUT_S
from gofer.tasks.outcome import (
    RESCUING,
    Continue,
    Journaled,
    Outcome,
    OutOfBudget,
    Ran,
    Refused,
    Rescue,
    RunEnded,
    Stop,
    TimedOut,
    TypeCode,
    ask,
    finished,
    next_move,
    stopped,
)
from gofer.tasks.seams import FlowRunner, Planner, Rescuer, Shaper

__all__ = [
    "Driver",
    "Turn",
    "TurnParts",
    "TurnPasses",
    "settle",
    "settle_away",
    "turn_running",
]

log = logging.getLogger("gofer.tasks")

STOPPED = "the worker stopped before the run ended (a restart)"

_TURN: contextvars.ContextVar[str | None] = contextvars.ContextVar("gofer_turn", default=None)


def turn_running() -> str | None:
    """The task whose turn this code runs in (its run, its model passes, anything they
    start), or None outside every turn: the controller refuses to start a task there."""
    return _TURN.get()


@dataclass(frozen=True, slots=True)
class TurnPasses:
    """The model passes a turn runs with (each optional: a plain-language task needs
    the planner), and the clock its screenshots are dated by."""

    planner: Planner | None = None
    rescuer: Rescuer | None = None
    shaper: Shaper | None = None
    clock: Callable[[], float] = time.time


@dataclass(frozen=True, slots=True)
class TurnParts:
    """What every turn of one worker runs with (``stopping``: set once the worker
    stops; a turn claimed after it goes back unstarted). Each turn builds its own
    :class:`Driver` from them."""

    book: TaskBook
    runner: FlowRunner
    passes: TurnPasses
    holding: Holding
    lease_ms: int
    stopping: asyncio.Event


class Turn:
    """One claimed turn of a task: load, restore, run, settle, record (see the module).

    ``cell`` is the task's working state while the turn runs; ``ending`` is set once
    its end is written (it is winding up); ``cancelling`` once it is asked to stop
    because its task was cancelled (it then finishes as cancelled, not put back).
    """

    def __init__(
        self, parts: TurnParts, claim: Claim, task_id: str, artifacts: list[Artifact]
    ) -> None:
        self.parts = parts
        self.claim = claim
        self.task_id = task_id
        self.owner = claim.owner or LOCAL_OWNER
        self.cell: Cell | None = None
        self.cancelling = False
        self.ending = False
        self._artifacts = artifacts
        self._task: asyncio.Task[object] | None = None
        self._record_of: Recorder | None = None

    def cancel(self) -> None:
        """Stop the turn because its task was cancelled: it finishes as cancelled."""
        self.cancelling = True
        if self._task is not None:
            self._task.cancel()

    async def run(self) -> None:
        """Run the turn from its claim to its end (see the module)."""
        parts, claim, task_id, owner = self.parts, self.claim, self.task_id, self.owner
        book = parts.book
        self._task = asyncio.current_task()
        _TURN.set(task_id)  # this turn's own asyncio task: its context is its alone
        try:
            async with keep_lease(book.queue, claim):
                # The task takes its browser back from any person in it, with what they did.
                self._record_of = await parts.holding.take_back(task_id)
                loaded = await book.load(owner, task_id)
                if (
                    loaded is None
                    or loaded.record.resolved_at is not None
                    or (await book.ledger.last_event(owner, task_id, (TaskCancelled.KIND,)))
                    is not None
                ):
                    await book.queue.finish(claim, {"skipped": True})
                    return
                cell = self.cell = self._restore(loaded)
                if parts.stopping.is_set():
                    await book.queue.release(claim, unstarted=True, error=STOPPED)
                    return
                await self._run(cell, loaded)
                await self._record(cell)
        except LeaseLost as lost:
            log.warning("task %s: turn %d lost its lease (%s)", task_id, claim.id, lost.code)
            await parts.holding.release(task_id)
        except asyncio.CancelledError:
            await asyncio.shield(self._cut_short())
            raise

    async def _cut_short(self) -> None:
        """A turn cancelled here: finished when its task was cancelled, else put back
        with its attempt refunded (see the module)."""
        queue = self.parts.book.queue
        try:
            if self.cancelling:
                await queue.finish(self.claim, {"cancelled": True})
            else:
                await queue.release(self.claim, unstarted=True, error=STOPPED)
        except LeaseLost:
            log.info("task %s: turn %d had already lost its lease", self.task_id, self.claim.id)

    def _restore(self, loaded: Loaded) -> Cell:
        """The task's working state as its last turn left it, with this turn's reply."""
        runner = self.parts.runner
        options = options_for(runner, loaded.request.constraints)
        cell = loaded.cell(options, loaded.start_view)
        cell.artifacts = self._artifacts
        cell.has_workspace = runner.holds(cell.id)
        claim = self.claim
        if claim.kind == Reply.KIND:
            reply = next((r for r in loaded.replies if r.item == claim.id), None)
            if reply is not None and reply.approve and cell.approval is not None:
                gate = cell.approval
                cell.pending.insert(0, Segment((), int(gate.path.split(".")[0]), True, gate))
                cell.approval = None
        return cell

    async def _run(self, cell: Cell, loaded: Loaded) -> None:
        """Plan (a plain-language task's first turn) or drive the task, journaling its
        views; any failure the run does not handle becomes its failed status."""
        parts = self.parts
        cell.file_limits = parts.book.file_limits
        cell.files.update(await files_of(parts.book.files, self.owner, cell.id))
        journal = TurnJournal(
            parts.book, self.owner, cell.id, cell.view, self.claim.id, self._cancelled_elsewhere
        )
        passes = parts.passes
        driver = Driver(parts.runner, passes.shaper, passes.clock, passes.rescuer, journal)
        journal.start()
        try:
            if cell.pending and not cell.has_workspace:
                await self._reopen(driver, cell, loaded)  # journaled: its view says so
            if cell.flow is None:  # with no planner it fails: never done with no flow run
                await self._guarded(driver, cell, lambda: self._plan_then_drive(driver, cell))
            else:
                await self._guarded(driver, cell, lambda: self._handed_back(driver, cell))
        finally:
            await journal.stop()

    async def _handed_back(self, driver: Driver, cell: Cell) -> None:
        """Drive the task, counting first what its person did in its browser, if anyone
        did (:func:`gofer.tasks.holding.hand_back`)."""
        record, self._record_of = self._record_of, None
        if record is not None:
            back = hand_back(cell, record, record.last)
            cell.person.extend(back.person)
            cell.steps.extend(back.steps)
            cell.finished_top, cell.pending = back.finished_top, back.pending
            if back.asking is not None:
                await driver.stop(cell, back.asking)
                return
        await driver.drive(cell)

    def _cancelled_elsewhere(self) -> None:
        if not self.cancelling:
            self.cancel()

    async def _reopen(self, driver: Driver, cell: Cell, loaded: Loaded) -> None:
        """Open the page the task was last on, on a worker that does not hold its browser."""
        address = last_address(loaded.state)
        if address is None:
            return
        fresh = "Starting over in a fresh browser: the one this task ran in is gone"
        driver.show(cell, view_of(cell, Running(), None, f"{fresh}; reopening the page it was on."))
        try:
            await self.parts.runner.open_page(cell.id, cell.options, address)
            cell.has_workspace = True
            log.info("task %s: reopened its last page in a fresh browser", cell.id)
        except GoferError as exc:
            log.info("task %s: its last page did not reopen (%s)", cell.id, exc.code)

    async def _record(self, cell: Cell) -> None:
        """Write the run's update and the task's state, and finish the turn, together."""
        parts, claim, owner = self.parts, self.claim, self.owner
        held = parts.runner.holds(cell.id)
        address = await parts.runner.address(cell.id) if held else None
        ended = Ended(
            item=claim.id,
            view=cell.view,
            state=snapshot(cell, address),
            run=RunLog(
                steps=[s.model_dump(mode="json") for s in cell.steps],
                trace=[t.model_dump(mode="json") for t in cell.trace],
            ),
        )
        book = parts.book
        await keep_files(book.files, owner, cell.id, cell.kept)
        backoff = 0.05
        hold: str | None = None
        while True:
            try:
                async with book.db.transaction() as tx:
                    cancelled = await book.ledger.last_event(
                        owner, cell.id, (TaskCancelled.KIND,), tx=tx
                    )
                    if cancelled is None:
                        await book.write(tx, owner, cell.id, ended)
                        if held:  # the hold shows with the status that offers it
                            hold = await parts.holding.announce(cell.id, tx)
                    await book.queue.finish(claim, {"ended": cell.view.status.state}, tx=tx)
                break
            except LeaseLost:
                raise
            except StoreError as exc:
                # The run is over: never run it again for a store that failed once.
                # Retried while the lease holds (losing it cancels this turn).
                log.warning(
                    "task %s: its end was not written (%s); trying again in %.2f s",
                    cell.id,
                    exc.code,
                    backoff,
                )
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, parts.lease_ms / 3000)
        if held:
            parts.holding.keep(owner, cell.id, hold)
        else:
            parts.holding.forget(cell.id)
        self.ending = True

    async def _guarded(
        self, driver: Driver, cell: Cell, work: Callable[[], Awaitable[None]]
    ) -> None:
        """Run ``work``; any failure it does not handle becomes the task's failed status."""
        try:
            await work()
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise
            # Nobody cancelled this turn: something inside the run raised it on its own.
            log.error("task %s: the run raised CancelledError that no one asked for", cell.id)
            await driver.stop(
                cell,
                stopped("the run was cancelled from inside the runner", "report this as a bug"),
            )
        except GoferError as exc:
            log.warning("task %s: stopped by %s", cell.id, exc.code)
            await driver.stop(
                cell,
                stopped(cell.facts.mask(exc.message), exc.code),
            )
        except Exception as exc:  # noqa: BLE001 -- logged and published as the task's failure
            trace = "".join(traceback.format_tb(exc.__traceback__))
            log.error(
                "task %s: crashed with %s: %s\n%s",
                cell.id,
                type(exc).__name__,
                cell.facts.redact(str(exc)),
                trace,
            )
            await driver.stop(
                cell,
                stopped(f"internal error ({type(exc).__name__})", "report this as a bug"),
            )

    async def _plan_then_drive(self, driver: Driver, cell: Cell) -> None:
        planner = self.parts.passes.planner
        if planner is None:
            raise errors.planner_unavailable()
        assert cell.goal is not None
        driver.show(cell, view_of(cell, Running(), None, "Planning the task."))
        warm = self._warm(cell)
        meter = CallMeter(cell.spending.model_calls_left())
        flow = None
        failure: ModelError | None = None
        try:
            flow = await planner.plan(brief_for(cell.goal, cell.facts, cell.options), meter)
            if warm is not None:
                await warm
        except ModelError as exc:
            failure = exc
        finally:
            cell.spending.charge_model_calls(meter.used)
            if warm is not None and not warm.done():
                warm.cancel()
                await asyncio.wait([warm])
        if flow is None:
            assert failure is not None
            await driver.stop(
                cell,
                stopped(
                    f"the planner could not plan the task: {failure.message}",
                    f"write the flow with the guide and start_task with it ({failure.code})",
                ),
            )
            return
        check = check_flow(flow, cell.facts.names, cell.facts.secret_names)
        if check.problems:
            listed = "; ".join(p.message for p in check.problems[:3])
            await driver.stop(
                cell,
                stopped(
                    f"the planner's flow is not valid: {listed}",
                    "write the flow with the guide and start_task with it",
                ),
            )
            return
        check_surfaces(self.parts.runner, flow, cell.options)
        check_card_entry(flow, cell.facts, cell.constraints)
        cell.flow = flow
        cell.pending = [Segment(flow.steps, 0, cell.constraints.allow_destructive)]
        if check.questions:
            # The browser goes while the task waits; the run that follows opens it again.
            await driver.settle(cell, release=True)
            driver.show_stop(cell, NeedsInput(fields=list(check.questions)), None)
            return
        await driver.drive(cell)

    def _warm(self, cell: Cell) -> asyncio.Task[None] | None:
        """Ready a task's browser while its flow is planned, and load the one address its
        text sends it to (at most PRELOAD_TIMEOUT_S); None for a task with no browser."""
        if "browser" not in cell.options.surfaces:
            return None
        cell.has_workspace = True
        address = start_address(cell.goal or "")

        async def warm() -> None:
            try:
                async with asyncio.timeout(PRELOAD_TIMEOUT_S):
                    await self.parts.runner.prepare(cell.id, cell.options)
                    if address is not None:
                        await self.parts.runner.open_page(cell.id, cell.options, address)
            except (GoferError, TimeoutError) as exc:
                # Best effort: the first run opens the browser and loads the page itself.
                log.info(
                    "task %s: the browser was not readied (%s)",
                    cell.id,
                    getattr(exc, "code", type(exc).__name__),
                )

        return asyncio.create_task(warm(), name=f"gofer-warm-{cell.id}")


@dataclass(slots=True)
class Driver:
    """Runs one turn's segments on the runner and publishes, through the turn's
    ``outlet``, where they stop; :func:`gofer.tasks.outcome.next_move` decides each
    next move and the driver does it."""

    runner: FlowRunner
    shaper: Shaper | None
    clock: Callable[[], float]
    rescuer: Rescuer | None
    outlet: TurnJournal

    def show(self, cell: Cell, view: TaskView) -> None:
        """Publish ``view`` as the task's view now."""
        cell.view = view
        self.outlet.show(view)

    async def drive(self, cell: Cell) -> None:
        """Run ``cell``'s pending segments until the task stops, then publish the stop;
        an irreversible press is journaled and never pressed twice."""
        seen: dict[str, int] = {}  # presses journaled at each step's path in this turn
        can_rescue = self.rescuer is not None
        while cell.pending:
            seg = cell.pending[0]
            move = next_move(cell, seg, await self._segment(cell, seg, seen), can_rescue=can_rescue)
            if isinstance(move, Rescue):
                assert self.rescuer is not None
                cell.rescues = move.rescues
                self.show(cell, view_of(cell, Running(), move.decision.at, RESCUING))
                guided = await ask(self.rescuer, move, cell.spending, cell.id)
                move = next_move(cell, seg, guided, can_rescue=False)
            match move:
                case (
                    Continue(pending=pending, flow=flow, rescues=rescues)
                    | TypeCode(pending=pending, flow=flow, rescues=rescues)
                ):
                    cell.pending, cell.flow, cell.rescues = pending, flow, rescues
                case Stop(outcome=outcome, rescues=rescues):
                    cell.rescues = rescues
                    await self.stop(cell, outcome)
                    return
                case Rescue():
                    raise AssertionError("a rescue's answer is never another rescue")
        cell.finished_top = len(cell.flow.steps) if cell.flow else 0
        await self.stop(cell, await finished(self.shaper, cell))

    async def _segment(self, cell: Cell, seg: Segment, seen: dict[str, int]) -> Ran:
        """Run ``seg`` within the budget, its presses journaled, and absorb its run."""
        exhausted = cell.spending.exhausted()
        if exhausted is not None:
            return OutOfBudget(exhausted)
        self.show(cell, running_view(cell))
        outlet = self.outlet
        if seg.gate is not None:
            verdict = await outlet.before(seg.gate.path)
            if verdict != "press":
                return Journaled(verdict)
        refused: list[str] = []
        on_press = None if seg.press else _journaled(outlet, seg, seen, refused)
        ran = await self._run(cell, seg, on_press)
        if not isinstance(ran, RunResult):
            return ran
        if seg.gate is not None:
            await outlet.after(seg.gate.path)
        self._absorb(cell, seg, ran)
        return RunEnded(ran, tuple(refused))

    async def _run(
        self, cell: Cell, seg: Segment, on_press: Callable[[str], Awaitable[bool]] | None
    ) -> RunResult | Refused | TimedOut:
        at = seg.gate.path if seg.gate is not None else str(seg.base)
        on = [at]  # the step the run is on, for a run cut short
        on_step = None if seg.press else lambda path: self._progress(cell, seg, path, on)
        request = request_for(cell, seg, on_step, on_press)
        loop = asyncio.get_running_loop()
        started = loop.time()
        cell.has_workspace = True
        log.info("task %s: run %d from step %s", cell.id, cell.spending.runs + 1, at)
        scope = asyncio.timeout(None)
        try:
            async with scope:
                left = cell.spending.time_left_s()
                if left is not None:
                    scope.reschedule(loop.time() + left)
                return await self.runner.run(cell.id, request, cell.options)
        except TimeoutError:
            if not scope.expired():
                raise
            return TimedOut(on[0])
        except GoferError as exc:
            log.warning("task %s: the runner refused the run (%s)", cell.id, exc.code)
            return Refused(exc.code, cell.facts.mask(exc.message))
        finally:
            cell.spending.add_time((loop.time() - started) * 1000.0)

    def _progress(self, cell: Cell, seg: Segment, path: str, on: list[str]) -> None:
        """A step started: note it in ``on``; a top-level one is published as running."""
        on[0] = seg.absolute(path)
        if "." in path:
            return
        cell.finished_top = max(cell.finished_top, seg.base + int(path))
        self.show(cell, view_of(cell, Running(), seg.absolute(path)))

    def _absorb(self, cell: Cell, seg: Segment, result: RunResult) -> None:
        """Add the run's steps, trace, hints, spend and reads to the task."""
        facts = cell.facts
        run = cell.spending.runs
        cell.spending.charge(result.spend)
        for file in result.kept:
            cell.files[file.name] = file
            cell.kept.append(file)
        for report in result.steps:
            element = (
                {"role": report.element.role, "name": facts.mask(report.element.name)}
                if report.element is not None
                else None
            )
            cell.steps.append(
                StepReportInfo(
                    run=run,
                    path=seg.absolute(report.path),
                    kind=report.kind,
                    outcome=str(report.outcome),
                    intent=facts.mask(report.intent),
                    element=element,
                    confidence=report.confidence,
                    reason=facts.mask(report.reason) if report.reason is not None else None,
                    duration_ms=report.duration_ms,
                    actions=report.actions,
                    model_calls=report.model_calls,
                )
            )
        for event in result.trace:
            detail = facts.mask_json(dict(event.detail))
            cell.trace.append(
                TraceInfo(
                    run=run,
                    at_ms=event.at_ms,
                    path=seg.absolute(event.path),
                    event=event.event,
                    detail=detail if isinstance(detail, dict) else {"value": detail},
                )
            )
        for hint in result.hints:
            if hint not in cell.hints:
                cell.hints.append(hint)
        for name, value in result.changed.items():
            if name in facts.names:
                continue
            cell.variables[name] = value
            cell.records[name] = facts.mask_json(value)
        if not seg.press:
            cell.finished_top = max(cell.finished_top, seg.base + result.top_level_done)

    async def stop(self, cell: Cell, decision: Outcome) -> None:
        """Stop the task: screenshot, release if final, then publish the status."""
        assert decision.status is not None
        cell.pending = list(decision.pending)
        cell.approval = decision.approval
        await self.settle(cell, decision.release)
        self.show_stop(cell, decision.status, decision.at)

    def show_stop(self, cell: Cell, status: Status, at: str | None) -> None:
        """Publish a stopped status and log it (state and step only, never words)."""
        self.show(cell, stop_view(cell, status, at))

    async def settle(self, cell: Cell, release: bool) -> None:
        """Take the stopped run's screenshot, then release the workspace if ``release``."""
        await settle(self.runner, self.clock, cell, release)


async def settle(runner: FlowRunner, clock: Callable[[], float], cell: Cell, release: bool) -> None:
    """Keep a best-effort screenshot of the task's workspace as an artifact, then
    release the workspace if ``release``."""
    if not cell.has_workspace:
        return
    try:
        secrets = cell.facts.secret_names
        shot = await runner.screenshot(cell.id, cell.facts.mask if secrets else None)
    except (GoferError, OSError) as exc:
        log.warning("task %s: no screenshot (%s)", cell.id, type(exc).__name__)
        shot = None
    if shot is not None:
        now = clock()
        cell.artifacts.append(
            Artifact(
                name=f"{cell.id}-screenshot-{len(cell.artifacts) + 1}",
                data=shot,
                run=cell.spending.runs,
                taken_at=now,
                expires_at=now + ARTIFACT_TTL_S,
            )
        )
    if release:
        await runner.release(cell.id)
        cell.has_workspace = False


async def settle_away(parts: TurnParts, cell: Cell, artifacts: list[Artifact]) -> None:
    """Screenshot and release the workspace of a task cancelled with no turn of it
    running (its screenshot kept in ``artifacts``), taking it back from any person."""
    cell.artifacts = artifacts
    cell.has_workspace = True
    await parts.holding.take_back(cell.id, record=False)
    await settle(parts.runner, parts.passes.clock, cell, release=True)
    parts.holding.forget(cell.id)


def _journaled(
    presses: TurnJournal, seg: Segment, seen: dict[str, int], refused: list[str]
) -> Callable[[str], Awaitable[bool]]:
    """The run's press hook: journal each irreversible press before it happens, keyed
    by its step's path in the flow and how many times this turn pressed there (a loop
    presses at one path again); one an earlier run of the turn journaled is refused."""

    async def before(path: str) -> bool:
        at = seg.absolute(path)
        seen[at] = seen.get(at, 0) + 1
        key = at if seen[at] == 1 else f"{at}#{seen[at]}"
        if await presses.before(key) == "press":
            return True
        refused.append(at)
        return False

    return before
