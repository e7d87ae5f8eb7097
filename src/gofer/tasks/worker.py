"""The worker: claims tasks' turns from the work queue and runs them.

One background task (``gofer-worker-<id>``) claims turns under the tasks' serial order
(a task's turns, replies and reruns never overtake each other), at most
``per_owner`` running per owner across every worker and ``per_process`` in this
process. It sleeps on the connector's waker: an enqueue or a finish anywhere wakes
it at once, and a turn held back by a cap starts as soon as one finishes. Each turn
runs under a kept lease, journals a view as each step starts, and ends by writing
its update and the task's working state to the event log and finishing the turn,
in one transaction.

A task that stops to wait for its caller keeps its browser here for a person
(:mod:`gofer.tasks.holding`). The claim loop survives every store error (it logs,
backs off and goes on); any other error ends it and kills the worker
(:attr:`TaskWorker.died`), and the process running it stops, as temporal's workers
do: a worker never lives on without claiming. A turn whose end the store fails to
write retries it while its lease holds, so a finished run is never run again.

A turn cut short by the worker's own shutdown goes back on the queue (with its run
counted when it had begun, refunded when it had not); a worker that dies leaves its
lease to lapse. Either way another worker, or this one after a restart, runs the
turn once more, reopening the page the task was last on when its browser is gone.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import traceback
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from gofer.errors import GoferError, LeaseLost, ModelError, StoreError
from gofer.flow import check_flow
from gofer.models import CallMeter
from gofer.planner import start_address
from gofer.store import Claim, Notice, keep_lease
from gofer.surfaces.live import LiveOptions, LiveView
from gofer.tasks.book import LOCAL_OWNER, Loaded, TaskBook, task_of_group
from gofer.tasks.cell import Artifact, Cell, Segment
from gofer.tasks.checks import brief_for, check_card_entry, check_surfaces, options_for
from gofer.tasks.contract import Failed, NeedsInput, Running, TaskView
from gofer.tasks.drive import Driver
from gofer.tasks.events import Cancelled, Ended, LetGo, Press, Resolved, RunLog, ViewEvent
from gofer.tasks.handback import hand_back, still_blocked
from gofer.tasks.holding import HeldView, Holding
from gofer.tasks.interpret import Outcome
from gofer.tasks.journal import snapshot
from gofer.tasks.limits import (
    ARTIFACT_TTL_S,
    HOLD_FOR_PERSON_S,
    LEASE_MS,
    PRELOAD_TIMEOUT_S,
    SAFETY_WAKE_S,
    TURNS_PER_OWNER,
    TURNS_PER_PROCESS,
)
from gofer.tasks.publish import view_of
from gofer.tasks.runner import FlowRunner
from gofer.tasks.seams import Planner
from gofer.tasks.state import is_running
from gofer.tasks.status import KINDS, TASK_ORDER

__all__ = ["TaskWorker", "TurnLimits"]

log = logging.getLogger("gofer.tasks")

STOPPED = "the worker stopped before the run ended (a restart)"

_TURN: contextvars.ContextVar[str | None] = contextvars.ContextVar("gofer_turn", default=None)


def turn_running() -> str | None:
    """The task whose turn this code runs in (its run, its model passes, anything they
    start), or None outside every turn: the controller refuses to start a task there."""
    return _TURN.get()


@dataclass(frozen=True)
class TurnLimits:
    """How many turns run at once and how leases are kept.

    ``per_owner``: turns running for one owner across every worker; ``per_process``:
    turns running in this process; ``lease_ms``: a turn's lease, renewed every third
    of it; ``wake_s``: the safety-net wake-up of an idle worker or a waiting caller
    (notices wake them at once; this only covers a notice that cannot reach them);
    ``hold_s``: how long a paused task keeps its browser after the last time anything
    acted on it.
    """

    per_owner: int = TURNS_PER_OWNER
    per_process: int = TURNS_PER_PROCESS
    lease_ms: int = LEASE_MS
    wake_s: float = SAFETY_WAKE_S
    hold_s: float = HOLD_FOR_PERSON_S

    def __post_init__(self) -> None:
        if self.per_owner < 1 or self.per_process < 1:
            raise ValueError("turn limits must be at least 1")
        if self.hold_s <= 0:
            raise ValueError("hold_s must be more than 0")


class TaskWorker:
    """Claims and runs turns on ``book``'s queue with ``runner`` (see the module).

    The worker alone owns a task's life in this process: its running turn, cancelling
    it, settling its workspace, its screenshots and the browser it holds for a person.
    The controller asks through the methods below; none of its state is shared.
    """

    def __init__(
        self,
        book: TaskBook,
        runner: FlowRunner,
        driver: Driver,
        planner: Planner | None,
        limits: TurnLimits,
        worker_id: str | None = None,
    ) -> None:
        self.book = book
        self.runner = runner
        self.driver = driver
        self.planner = planner
        self.limits = limits
        self.worker_id = worker_id or f"worker-{uuid.uuid4().hex[:12]}"
        self.failure: BaseException | None = None
        """The error that ended the claim loop, once one did (the worker is then dead)."""
        self.died = asyncio.Event()
        """Set once the claim loop ended with an error it could not survive."""
        self._turns: dict[str, asyncio.Task[None]] = {}
        self._cells: dict[str, Cell] = {}
        self._artifacts: dict[tuple[str, str], list[Artifact]] = {}
        self._cancelling: set[str] = set()
        self._holding = Holding(
            runner,
            limits.hold_s,
            busy=lambda task_id: task_id in self._turns,
            let_go=self._journal_let_go,
            supervise=self._supervise,
        )
        self._finished: set[int] = set()
        self._ending: set[str] = set()  # tasks whose turn wrote its end and is winding up
        self._stopping = asyncio.Event()
        self._loop: asyncio.Task[None] | None = None
        self._pruner: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ lifecycle

    def start(self) -> None:
        """Start claiming (idempotent; needs a running event loop)."""
        if self._loop is None and not self._stopping.is_set():
            self._loop = asyncio.create_task(self._claim_forever(), name=f"gofer-{self.worker_id}")
            self._loop.add_done_callback(self._loop_ended)
            self._pruner = asyncio.create_task(
                self._prune_forever(), name=f"gofer-prune-{self.worker_id}"
            )
            self._supervise(self._pruner)

    @property
    def running(self) -> bool:
        """Whether the claim loop runs."""
        return self._loop is not None and not self._loop.done()

    async def stop(self) -> None:
        """Stop claiming, put every turn running here back on the queue, and close the
        workspaces this process holds (idempotent)."""
        self._stopping.set()
        loop, self._loop = self._loop, None
        pruner, self._pruner = self._pruner, None
        for task in (loop, pruner):
            if task is not None:
                task.cancel()
                await asyncio.wait([task])
        turns = list(self._turns.values())
        for turn in turns:
            turn.cancel()
        if turns:
            await asyncio.wait(turns)
        for task_id in self._holding.held():
            await self.release(task_id)

    # ------------------------------------------------------------ claiming

    async def _claim_forever(self) -> None:
        queue = self.book.queue
        backoff = 0.0
        with queue.subscribe() as subscription:
            while not self._stopping.is_set():
                try:
                    await self._claim_what_fits()
                except StoreError as exc:
                    # The store failed (unreachable, busy, full, read-only): nothing was
                    # claimed; try again after a pause that grows while it keeps failing.
                    backoff = min(max(backoff * 2, 0.05), self.limits.wake_s)
                    log.warning(
                        "%s: cannot claim (%s); trying again in %.2f s",
                        self.worker_id,
                        exc.code,
                        backoff,
                    )
                    await asyncio.sleep(backoff)
                    continue
                backoff = 0.0
                notices = await subscription.wait(self.limits.wake_s)
                await self._heed(notices)

    async def _claim_what_fits(self) -> None:
        room = self.limits.per_process - len(self._turns)
        if room <= 0:
            return
        claims = await self.book.queue.claim_batch(
            KINDS,
            self.worker_id,
            self.limits.lease_ms,
            limit=room,
            serial=TASK_ORDER,
            running_at_most=self.limits.per_owner,
        )
        for claim in claims:
            task_id = str(claim.payload["task_id"])
            turn = asyncio.create_task(
                self._turn(claim, task_id), name=f"gofer-turn-{task_id}-{claim.id}"
            )
            self._supervise(turn)
            self._turns[task_id] = turn

    def _loop_ended(self, loop: asyncio.Task[None]) -> None:
        """The claim loop ended: cancelled by :meth:`stop`, or by an error it could not
        survive, which kills the worker (:attr:`died`) for the process to stop on."""
        if loop.cancelled():
            return
        error = loop.exception()
        if error is None:
            return
        self.failure = error
        log.error(
            "%s: the claim loop failed with %s; the worker is shutting down\n%s",
            self.worker_id,
            type(error).__name__,
            "".join(traceback.format_tb(error.__traceback__)),
        )
        self.died.set()

    def _supervise(self, task: asyncio.Task[None]) -> None:
        task.add_done_callback(self._ended)

    def _ended(self, task: asyncio.Task[None]) -> None:
        """Supervision: a background task that ends with an error says so at once (a
        turn's lease then lapses and another run takes it over)."""
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:
            log.error("%s: %s ended with %s", self.worker_id, task.get_name(), type(error).__name__)

    async def _prune_forever(self) -> None:
        """Drop expired screenshots on a timer (a task no one reads again keeps none)."""
        while True:
            await asyncio.sleep(ARTIFACT_TTL_S / 4)
            now = self.book.now()
            for key, kept in list(self._artifacts.items()):
                kept[:] = [a for a in kept if a.expires_at > now]
                if not kept and key[1] not in self._turns:
                    del self._artifacts[key]

    async def _heed(self, notices: list[Notice]) -> None:
        """Act on what other processes did: a task cancelled or marked done elsewhere
        stops here; a task whose turn another worker finished lets its browser here go."""
        for notice in notices:
            task_id = task_of_group(notice.group)
            if task_id is None:
                continue
            if notice.event == "task" and notice.kind in (Cancelled.KIND, Resolved.KIND):
                if task_id in self._turns:
                    self._cancelled_elsewhere(task_id)
                elif self._holding.holds(task_id):
                    await self.release(task_id)
            elif (
                notice.event == "finished"
                and notice.id not in self._finished
                and self._holding.holds(task_id)
                and task_id not in self._turns
            ):
                await self.release(task_id)

    def _cancelled_elsewhere(self, task_id: str) -> None:
        turn = self._turns.get(task_id)
        if turn is not None and task_id not in self._cancelling:
            self._cancelling.add(task_id)
            turn.cancel()

    # ------------------------------------------------------------ what the controller asks

    async def release(self, task_id: str) -> None:
        """Close the task's workspace on this worker (and its live views)."""
        await self._holding.release(task_id)

    def cell_of(self, task_id: str) -> Cell | None:
        """The cell of the task's turn running here now, if any."""
        return self._cells.get(task_id)

    def artifacts_of(self, owner: str, task_id: str) -> list[Artifact]:
        """The owner's task's screenshots taken here that have not expired."""
        kept = self._artifacts.get((owner, task_id), [])
        now = self.book.now()
        # Pruned in place: a turn running now appends its screenshot to this same list.
        kept[:] = [a for a in kept if a.expires_at > now]
        return list(kept)

    def forget(self, owner: str, task_id: str) -> None:
        """The task was dropped: its screenshots go."""
        self._artifacts.pop((owner, task_id), None)

    async def cancel_turn(self, task_id: str) -> None:
        """Stop the task's turn running here, if any: it finishes as cancelled."""
        turn = self._turns.get(task_id)
        if turn is not None and not turn.done():
            self._cancelling.add(task_id)
            turn.cancel()
            await asyncio.wait([turn])

    async def settle(self, owner: str, task_id: str, cell: Cell | None = None) -> None:
        """Screenshot and release the task's workspace on this worker, if it holds one."""
        if not self.runner.holds(task_id):
            return
        if cell is None:
            loaded = await self.book.load(owner, task_id)
            assert loaded is not None
            view = await self.book.view(owner, task_id)
            cell = loaded.cell(options_for(self.runner, loaded.request.constraints), view)
        cell.artifacts = self._artifacts.setdefault((owner, task_id), [])
        cell.has_workspace = True
        await self._holding.take_back(task_id)
        await self.driver.settle(cell, release=True)
        self._holding.forget(task_id)

    # ------------------------------------------------------------ holding for a person

    @property
    def holding(self) -> dict[str, tuple[asyncio.Task[None], asyncio.Event]]:
        """The hold timer of each paused task's browser (read-only: for tests)."""
        return self._holding.holding

    @property
    def lives(self) -> dict[str, set[HeldView]]:
        """The live views open on each task's browser (read-only: for tests)."""
        return self._holding.lives

    def holds_for_person(self, task_id: str) -> bool:
        """Whether this process holds the paused task's browser (no turn of it runs)."""
        return self._holding.holds(task_id) and (
            task_id not in self._turns or task_id in self._ending
        )

    async def live(self, task_id: str, options: LiveOptions | None = None) -> LiveView:
        """A person's live view of the paused task's browser, held here (see
        :meth:`Holding.live`)."""
        turn = self._turns.get(task_id)
        if turn is not None and task_id in self._ending:
            await asyncio.wait([turn])  # it has stopped; only its bookkeeping is left
        return await self._holding.live(task_id, options)

    async def still_blocked(self, task_id: str, reason: str) -> str | None:
        """Why the paused task's page held here is still blocked by the wall ``reason``
        names, in words (None when it is not, or no browser of it is held here)."""
        if not self.holds_for_person(task_id):
            return None
        return still_blocked(await self._holding.read(task_id), reason)

    async def _journal_let_go(self, owner: str, task_id: str, after_s: float) -> None:
        try:
            async with self.book.db.transaction() as tx:
                await self.book.write(tx, owner, task_id, LetGo(after_s=after_s))
        except StoreError as exc:
            log.warning("task %s: letting its browser go was not journaled (%s)", task_id, exc.code)

    # ------------------------------------------------------------ one turn

    async def _turn(self, claim: Claim, task_id: str) -> None:
        owner = claim.owner or LOCAL_OWNER
        cell: Cell | None = None
        spent = (0, 0)
        # The task takes its browser back from any person in it.
        await self._holding.take_back(task_id)
        _TURN.set(task_id)  # this turn's own asyncio task: its context is its alone
        try:
            async with keep_lease(self.book.queue, claim):
                loaded = await self.book.load(owner, task_id)
                if (
                    loaded is None
                    or loaded.record.resolved_at is not None
                    or (await self.book.ledger.last_event(owner, task_id, (Cancelled.KIND,)))
                    is not None
                ):
                    await self.book.queue.finish(claim, {"skipped": True})
                    return
                cell = self._cell(loaded, claim)
                self._cells[task_id] = cell
                spent = (cell.ledger.runs, cell.ledger.spent.model_calls)
                if self._stopping.is_set():
                    await self.book.queue.release(claim, unstarted=True, error=STOPPED)
                    return
                await self._run(cell, loaded, claim)
                await self._end(cell, owner, claim)
        except LeaseLost as lost:
            log.warning("task %s: turn %d lost its lease (%s)", task_id, claim.id, lost.code)
            await self.release(task_id)
        except asyncio.CancelledError:
            began = cell is not None and (
                (cell.ledger.runs, cell.ledger.spent.model_calls) != spent
            )
            await asyncio.shield(self._cut_short(claim, task_id, began))
            raise
        finally:
            self._cells.pop(task_id, None)
            self._cancelling.discard(task_id)
            self._ending.discard(task_id)
            if self._turns.get(task_id) is asyncio.current_task():
                del self._turns[task_id]

    async def _cut_short(self, claim: Claim, task_id: str, began: bool) -> None:
        """A turn cancelled here: finished when its task was cancelled, else put back."""
        try:
            if task_id in self._cancelling:
                await self.book.queue.finish(claim, {"cancelled": True})
            else:
                await self.book.queue.release(claim, unstarted=not began, error=STOPPED)
        except LeaseLost:
            log.info("task %s: turn %d had already lost its lease", task_id, claim.id)

    def _cell(self, loaded: Loaded, claim: Claim) -> Cell:
        options = options_for(self.runner, loaded.request.constraints)
        cell = loaded.cell(options, view_of_start(loaded))
        owner = claim.owner or LOCAL_OWNER
        cell.artifacts = self._artifacts.setdefault((owner, cell.id), [])
        cell.has_workspace = self.runner.holds(cell.id)
        if claim.kind == "reply":
            reply = next((r for r in loaded.replies if r.item == claim.id), None)
            if reply is not None and reply.approve and cell.approval is not None:
                gate = cell.approval
                cell.pending.insert(0, Segment((), int(gate.path.split(".")[0]), True, gate))
                cell.approval = None
        return cell

    async def _run(self, cell: Cell, loaded: Loaded, claim: Claim) -> None:
        """Plan (a plain-language task's first turn) or drive the task, journaling its
        views; any failure the run does not handle becomes its failed status."""
        if cell.pending and not cell.has_workspace:
            await self._reopen(cell, loaded)
        journal = _Journal(self.book, cell, claim, self._cancelled_elsewhere)
        journal.start()
        try:
            if cell.flow is None and self.planner is not None:
                await self._guarded(cell, lambda: self._plan_then_drive(cell, self.planner))
            else:
                presses = _Presses(self.book, claim.owner or LOCAL_OWNER, cell.id, claim.id)
                await self._guarded(cell, lambda: self._handed_back(cell, presses))
        finally:
            await journal.stop()

    async def _handed_back(self, cell: Cell, presses: _Presses) -> None:
        """Drive the task, counting first what its person did in its browser, if anyone
        did (:mod:`gofer.tasks.handback`)."""
        record = await self._holding.take_record(cell.id)
        if record is not None:
            asking = hand_back(cell, record, record.last)
            if asking is not None:
                await self.driver.stop(cell, asking)
                return
        await self.driver.drive(cell, presses)

    async def _reopen(self, cell: Cell, loaded: Loaded) -> None:
        """Open the page the task was last on, on a worker that does not hold its browser."""
        state = loaded.state or {}
        address = state.get("address")
        if not isinstance(address, str) or not address:
            return
        try:
            await self.runner.open_page(cell.id, cell.options, address)
            cell.has_workspace = True
            log.info("task %s: reopened its last page", cell.id)
        except GoferError as exc:
            log.info("task %s: its last page did not reopen (%s)", cell.id, exc.code)

    async def _end(self, cell: Cell, owner: str, claim: Claim) -> None:
        """Write the run's update and the task's state, and finish the turn, together."""
        held = self.runner.holds(cell.id)
        address = await self.runner.address(cell.id) if held else None
        ended = Ended(
            item=claim.id,
            view=cell.view,
            state=snapshot(cell, address),
            run=RunLog(
                steps=[s.model_dump(mode="json") for s in cell.steps],
                trace=[t.model_dump(mode="json") for t in cell.trace],
            ),
        )
        book = self.book
        self._finished.add(claim.id)
        backoff = 0.05
        while True:
            try:
                async with book.db.transaction() as tx:
                    cancelled = await book.ledger.last_event(
                        owner, cell.id, (Cancelled.KIND,), tx=tx
                    )
                    if cancelled is None:
                        await book.write(tx, owner, cell.id, ended)
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
                backoff = min(backoff * 2, self.limits.lease_ms / 3000)
        if held:
            self._holding.keep(owner, cell.id)
        else:
            self._holding.forget(cell.id)
        self._ending.add(cell.id)

    async def _guarded(self, cell: Cell, work: Callable[[], Awaitable[None]]) -> None:
        """Run ``work``; any failure it does not handle becomes the task's failed status."""
        driver = self.driver
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
                Outcome(
                    Failed(
                        step=None,
                        reason="the run was cancelled from inside the runner",
                        hint="report this as a bug",
                        recoverable=False,
                    ),
                    release=True,
                ),
            )
        except GoferError as exc:
            log.warning("task %s: stopped by %s", cell.id, exc.code)
            await driver.stop(
                cell,
                Outcome(
                    Failed(
                        step=None,
                        reason=cell.facts.mask(exc.message),
                        hint=exc.code,
                        recoverable=False,
                    ),
                    release=True,
                ),
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
                Outcome(
                    Failed(
                        step=None,
                        reason=f"internal error ({type(exc).__name__})",
                        hint="report this as a bug",
                        recoverable=False,
                    ),
                    release=True,
                ),
            )

    async def _plan_then_drive(self, cell: Cell, planner: Planner | None) -> None:
        assert cell.goal is not None and planner is not None
        cell.publish(view_of(cell, Running(), None, "Planning the task."))
        warm = self._warm(cell)
        meter = CallMeter(cell.ledger.model_calls_left())
        flow = None
        failure: ModelError | None = None
        try:
            flow = await planner.plan(brief_for(cell.goal, cell.facts, cell.options), meter)
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
            await self.driver.stop(
                cell,
                Outcome(
                    Failed(
                        step=None,
                        reason=f"the planner could not plan the task: {failure.message}",
                        hint="write the flow with the guide and start_task with it "
                        f"({failure.code})",
                        recoverable=False,
                    ),
                    release=True,
                ),
            )
            return
        check = check_flow(flow, cell.facts.names, cell.facts.secret_names)
        if check.problems:
            listed = "; ".join(p.message for p in check.problems[:3])
            await self.driver.stop(
                cell,
                Outcome(
                    Failed(
                        step=None,
                        reason=f"the planner's flow is not valid: {listed}",
                        hint="write the flow with the guide and start_task with it",
                        recoverable=False,
                    ),
                    release=True,
                ),
            )
            return
        check_surfaces(self.runner, flow, cell.options)
        check_card_entry(flow, cell.facts, cell.constraints)
        cell.flow = flow
        cell.pending = [Segment(flow.steps, 0, cell.constraints.allow_destructive)]
        if check.questions:
            # The browser goes while the task waits; the run that follows opens it again.
            await self.driver.settle(cell, release=True)
            self.driver.publish_stop(cell, NeedsInput(fields=list(check.questions)), None)
            return
        await self.driver.drive(cell)

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
                    await self.runner.prepare(cell.id, cell.options)
                    if address is not None:
                        await self.runner.open_page(cell.id, cell.options, address)
            except (GoferError, TimeoutError) as exc:
                # Best effort: the first run opens the browser and loads the page itself.
                log.info(
                    "task %s: the browser was not readied (%s)",
                    cell.id,
                    getattr(exc, "code", type(exc).__name__),
                )

        return asyncio.create_task(warm(), name=f"gofer-warm-{cell.id}")


def view_of_start(loaded: Loaded) -> TaskView:
    """The view a turn starts from: where the task last stood."""
    stop_view = loaded.stop_view
    if stop_view is not None:
        return stop_view
    return TaskView(
        id=loaded.record.id, status=Running(), summary="Starting.", step=None, progress=0.0, next=[]
    )


class _Presses:
    """The press journal of one turn (see :class:`gofer.tasks.drive.Presses`)."""

    def __init__(self, book: TaskBook, owner: str, task_id: str, item: int) -> None:
        self.book = book
        self.owner = owner
        self.task_id = task_id
        self.item = item

    async def before(self, path: str) -> Literal["press", "pressed", "unsure"]:
        async with self.book.db.transaction() as tx:
            phases = {
                e.phase
                for _at, e in await self.book.events(self.owner, self.task_id, tx=tx)
                if isinstance(e, Press) and e.item == self.item and e.path == path
            }
            if "after" in phases:
                return "pressed"
            if "before" in phases:
                return "unsure"
            await self.book.write(
                tx, self.owner, self.task_id, Press(item=self.item, path=path, phase="before")
            )
        return "press"

    async def after(self, path: str) -> None:
        async with self.book.db.transaction() as tx:
            await self.book.write(
                tx, self.owner, self.task_id, Press(item=self.item, path=path, phase="after")
            )


class _Journal:
    """Writes the views a run publishes (as its steps start) to the task's log, in
    the background, latest first when they come faster than the store takes them."""

    def __init__(
        self, book: TaskBook, cell: Cell, claim: Claim, cancelled: Callable[[str], None]
    ) -> None:
        self.book = book
        self.cell = cell
        self.claim = claim
        self._cancelled = cancelled
        self._done = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._written: object = cell.view

    def start(self) -> None:
        self._task = asyncio.create_task(
            self._write_forever(), name=f"gofer-journal-{self.cell.id}"
        )

    async def stop(self) -> None:
        """Write what is still unwritten, then stop."""
        self._done.set()
        if self._task is not None:
            await asyncio.wait([self._task])
            if not self._task.cancelled() and self._task.exception() is not None:
                log.warning(
                    "task %s: a view was not journaled (%r)", self.cell.id, self._task.exception()
                )

    async def _write_forever(self) -> None:
        cell = self.cell
        owner = self.claim.owner or LOCAL_OWNER
        while True:
            changed = cell.changed
            view = cell.view
            if view is not self._written and is_running(view.status):
                self._written = view
                async with self.book.db.transaction() as tx:
                    stopped = await self.book.ledger.last_event(
                        owner, cell.id, (Cancelled.KIND, Resolved.KIND), tx=tx
                    )
                    if stopped is None:
                        await self.book.write(
                            tx, owner, cell.id, ViewEvent(item=self.claim.id, view=view)
                        )
                if stopped is not None:
                    # Cancelled from a process whose notice cannot reach this one.
                    self._cancelled(cell.id)
                    return
                continue
            if self._done.is_set():
                return
            waiters = [
                asyncio.ensure_future(changed.wait()),
                asyncio.ensure_future(self._done.wait()),
            ]
            try:
                await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for waiter in waiters:
                    waiter.cancel()
