"""The worker: claims tasks' turns from the work queue and hands each to its turn.

One background task (``gofer-worker-<id>``) claims turns under the tasks' serial order
(a task's turns, replies and reruns never overtake each other), at most
``per_owner`` running per owner across every worker and ``per_process`` in this
process. It sleeps on the connector's waker: an enqueue or a finish anywhere wakes
it at once, and a turn held back by a cap starts as soon as one finishes. Each
claimed turn runs under a kept lease in :class:`gofer.tasks.turn.Turn`, from loading
the task to recording its end.

A task that stops to wait for its caller keeps its browser here for a person
(:mod:`gofer.tasks.holding`). The claim loop survives every store error (it logs,
backs off and goes on); any other error ends it and kills the worker
(:attr:`TaskWorker.died`), and the process running it stops, as temporal's workers
do: a worker never lives on without claiming.

A turn cut short by the worker's own shutdown goes back on the queue; a worker that
dies leaves its lease to lapse. Either way another worker, or this one after a
restart, runs the turn once more, reopening the page the task was last on when its
browser is gone.
"""

from __future__ import annotations

import asyncio
import logging
import traceback
import uuid
from dataclasses import dataclass
from typing import Any

from gofer.errors import StoreError
from gofer.flow.steps import Flow
from gofer.store import Claim, Notice
from gofer.store.holders import LiveHolders
from gofer.surfaces.closing import close_fully
from gofer.surfaces.live import LiveOptions, LiveView
from gofer.tasks import state
from gofer.tasks.able import KEPT_MS, Abilities, needs_of
from gofer.tasks.book import LOCAL_OWNER, TaskBook, task_of_group
from gofer.tasks.cell import Artifact, Cell, TurnNotes, view_of
from gofer.tasks.checks import options_for
from gofer.tasks.contract import TaskConstraints, TaskView
from gofer.tasks.events import LetGo, MarkedDone, TaskCancelled, kind_of
from gofer.tasks.held_board import Board
from gofer.tasks.holding import HeldView, Holding, why_blocked
from gofer.tasks.limits import (
    ARTIFACT_TTL_S,
    HOLD_FOR_PERSON_S,
    LEASE_MS,
    SAFETY_WAKE_S,
    TURNS_PER_OWNER,
    TURNS_PER_PROCESS,
)
from gofer.tasks.seams import FlowRunner
from gofer.tasks.status import KINDS, TASK_ORDER
from gofer.tasks.turn import Turn, TurnParts, TurnPasses, settle_away

__all__ = ["TaskWorker", "TurnLimits"]

log = logging.getLogger("gofer.tasks")


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
    """Claims and runs turns on ``book``'s queue with ``runner`` and the model
    ``passes`` (see the module).

    The worker alone owns a task's life in this process: its running turn, cancelling
    it, settling its workspace, its screenshots and the browser it holds for a person.
    The controller asks through the methods below; none of its state is shared.
    """

    def __init__(
        self,
        book: TaskBook,
        runner: FlowRunner,
        passes: TurnPasses,
        limits: TurnLimits,
        worker_id: str | None = None,
        abilities: Abilities | None = None,
    ) -> None:
        self.book = book
        self.runner = runner
        self.limits = limits
        self.worker_id = worker_id or f"worker-{uuid.uuid4().hex[:12]}"
        self.abilities = abilities or Abilities(planner=passes.planner is not None)
        """What this process runs turns with: it claims only the turns that need no more."""
        self.failure: BaseException | None = None
        """The error that ended the claim loop, once one did (the worker is then dead)."""
        self.died = asyncio.Event()
        """Set once the claim loop ended with an error it could not survive."""
        self._turns: dict[str, asyncio.Task[None]] = {}
        self._running: dict[str, Turn] = {}
        self._artifacts: dict[tuple[str, str], list[Artifact]] = {}
        self.board = Board(LiveHolders(book.db), self.worker_id, limits.hold_s, book.now)
        self._holding = Holding(
            runner,
            limits.hold_s,
            busy=lambda task_id: task_id in self._turns,
            let_go=self._journal_let_go,
            supervise=self._supervise,
            board=self.board,
        )
        self._finished: set[int] = set()
        self._settling: set[str] = set()
        self._stopping = asyncio.Event()
        self._parts = TurnParts(
            book, runner, passes, self._holding, limits.lease_ms, self._stopping
        )
        self._loop: asyncio.Task[None] | None = None
        self._pruner: asyncio.Task[None] | None = None
        self._keeper: asyncio.Task[None] | None = None

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
            self._keeper = asyncio.create_task(
                self._keep_forever(), name=f"gofer-keep-{self.worker_id}"
            )
            self._supervise(self._keeper)

    @property
    def stopping(self) -> bool:
        """Whether the worker was asked to stop (a drain or :meth:`stop`): it claims no
        more."""
        return self._stopping.is_set()

    @property
    def running(self) -> bool:
        """Whether the claim loop runs."""
        return self._loop is not None and not self._loop.done()

    async def stop(self) -> None:
        """Stop claiming, put every turn running here back on the queue, and close the
        workspaces this process holds (idempotent; to the end, even when cancelled
        half-way: a workspace left open keeps its browser session and proxy)."""
        self._stopping.set()
        await close_fully(self._stop())

    async def drain(self, grace_s: float, cut: asyncio.Event | None = None) -> None:
        """Stop claiming at once, then let the turns running here go on to their stop
        for up to ``grace_s`` seconds, or until ``cut`` is set (a second signal);
        :meth:`stop` then cuts what still runs and puts it back on the queue."""
        await self._stop_claiming()
        turns = [t for t in self._turns.values() if not t.done()]
        if not turns or grace_s <= 0:
            return
        log.warning(
            "%s: draining; the turns of %s may run %.0f s more to their stop",
            self.worker_id,
            ", ".join(sorted(self._turns)),
            grace_s,
        )
        finished = asyncio.ensure_future(asyncio.wait(turns))
        waiting: set[asyncio.Future[Any]] = {finished}
        if cut is not None:
            waiting.add(asyncio.create_task(cut.wait(), name=f"gofer-cut-{self.worker_id}"))
        try:
            await asyncio.wait(waiting, timeout=grace_s, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiter in waiting:
                waiter.cancel()  # cancelling asyncio.wait leaves the turns themselves running

    async def _stop_claiming(self) -> None:
        """Claim nothing more: the claim loop ends (the turns it started go on)."""
        self._stopping.set()
        loop, self._loop = self._loop, None
        if loop is not None:
            loop.cancel()
            await asyncio.wait([loop])

    async def _stop(self) -> None:
        await self._stop_claiming()
        for side in (self._pruner, self._keeper):
            if side is not None:
                side.cancel()
                await asyncio.wait([side])
        self._pruner = self._keeper = None
        if self._turns:
            log.warning(
                "%s: stopping; the turns of %s go back on the queue",
                self.worker_id,
                ", ".join(sorted(self._turns)),
            )
        turns = list(self._turns.values())
        for turn in turns:
            turn.cancel()
        if turns:
            await asyncio.wait(turns)
        for task_id in self._holding.held():
            await self.release(task_id)
        await self._holding.close()

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
                        "%s: cannot claim (%s: %s); trying again in %.2f s",
                        self.worker_id,
                        exc.code,
                        exc.message,
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
        fit = self.abilities.fit()
        claims = await self.book.queue.claim_batch(
            KINDS,
            self.worker_id,
            self.limits.lease_ms,
            limit=room,
            serial=TASK_ORDER,
            running_at_most=self.limits.per_owner,
            able=fit.able,
            own=fit.own,
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

    def fail(self, error: BaseException) -> None:
        """A part of this process that claims work beside the worker (the webhook
        deliverer) died of ``error``: the worker dies with it (:attr:`died`), and the
        process stops on it as on the claim loop's own death."""
        if self.failure is None:
            self.failure = error
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

    async def _keep_forever(self) -> None:
        """Push on the reservations made for this worker while it lives (a store that
        fails is tried again next time: a reservation that lapses meanwhile goes to
        any worker, as it would after this one died)."""
        while True:
            await asyncio.sleep(KEPT_MS / 3000)
            try:
                await self.book.queue.keep_preferred(self.worker_id, KEPT_MS)
            except StoreError as exc:
                log.warning("%s: reservations not kept (%s)", self.worker_id, exc.code)

    async def _heed(self, notices: list[Notice]) -> None:
        """Act on what other processes did: a task cancelled or marked done elsewhere
        stops here; a task whose turn another worker finished lets its browser here go."""
        for notice in notices:
            task_id = task_of_group(notice.group)
            if task_id is None:
                continue
            if kind_of(notice) in (TaskCancelled.KIND, MarkedDone.KIND):
                if task_id in self._turns:
                    self._cancelled_elsewhere(task_id)
                elif self._holding.holds(task_id) and task_id not in self._settling:
                    await self.release(task_id)
            elif (
                notice.event == "finished"
                and notice.id not in self._finished
                and self._holding.holds(task_id)
                and task_id not in self._turns
            ):
                await self.release(task_id)

    def _cancelled_elsewhere(self, task_id: str) -> None:
        turn = self._running.get(task_id)
        if turn is None:
            task = self._turns.get(task_id)
            if task is not None:
                task.cancel()  # not begun: it ends before it touches anything
        elif not turn.cancelling:
            turn.cancel()

    # ------------------------------------------------------------ what the controller asks

    def needs(self, flow: Flow | None, output: bool, constraints: TaskConstraints) -> list[str]:
        """What every turn of a task started here needs (:func:`needs_of`)."""
        return needs_of(self.abilities, flow=flow, output=output, constraints=constraints)

    def reserve(self, holder: str | None) -> tuple[str | None, int]:
        """Whom a task's next turn is reserved for, and for how long: the process that
        holds its browser, else this one when it runs only its own tasks."""
        if holder is None and self.abilities.own_only:
            holder = self.worker_id
        return holder, (KEPT_MS if holder is not None else 0)

    async def release(self, task_id: str) -> None:
        """Close the task's workspace on this worker (and its live views)."""
        await self._holding.release(task_id)

    def _cell_of(self, task_id: str) -> Cell | None:
        """The cell of the task's turn running here now, if any."""
        turn = self._running.get(task_id)
        return turn.cell if turn is not None else None

    def notes_of(self, task_id: str) -> TurnNotes | None:
        """What the task's turn running here now knows beyond its last journaled state
        (a rescue whose guidance runs now), if one runs here."""
        cell = self._cell_of(task_id)
        return cell.notes() if cell is not None else None

    def cancelled_view(self, task_id: str, note: str) -> TaskView | None:
        """The view of the task's turn running here now as cancelled with ``note``, if
        one runs here."""
        cell = self._cell_of(task_id)
        return view_of(cell, state.Cancelled(), None, note) if cell is not None else None

    async def cancel(self, owner: str, task_id: str) -> None:
        """Stop the task's turn here, if any (it finishes as cancelled), then screenshot
        and release its workspace here, if this worker holds one."""
        cell = self._cell_of(task_id)
        await self._cancel_turn(task_id)
        await self.settle(owner, task_id, cell)

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

    async def _cancel_turn(self, task_id: str) -> None:
        """Stop the task's turn running here, if any: it finishes as cancelled."""
        task = self._turns.get(task_id)
        if task is not None and not task.done():
            turn = self._running.get(task_id)
            if turn is not None:
                turn.cancel()
            else:
                task.cancel()  # not begun: it ends before it touches anything
            await asyncio.wait([task])

    async def settle(self, owner: str, task_id: str, cell: Cell | None = None) -> None:
        """Screenshot and release the task's workspace on this worker, if it holds one.

        The cancel this settles is also heard as a notice; :meth:`_heed` leaves the
        browser to this settle, so the screenshot is taken before it goes."""
        if not self.runner.holds(task_id) or task_id in self._settling:
            return
        self._settling.add(task_id)
        try:
            await self._settle(owner, task_id, cell)
        finally:
            self._settling.discard(task_id)

    async def _settle(self, owner: str, task_id: str, cell: Cell | None) -> None:
        if cell is None:
            loaded = await self.book.load(owner, task_id)
            assert loaded is not None
            view = await self.book.view(owner, task_id)
            cell = loaded.cell(options_for(self.runner, loaded.request.constraints), view)
        await settle_away(self._parts, cell, self._artifacts.setdefault((owner, task_id), []))

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
            task_id not in self._turns or self._ending(task_id)
        )

    def hold_of(self, task_id: str) -> str | None:
        """The id of the hold of the paused task's browser here (None: not held here)."""
        return self._holding.hold_of(task_id) if self.holds_for_person(task_id) else None

    def _ending(self, task_id: str) -> bool:
        """Whether the task's turn here has written its end and is only winding up."""
        turn = self._running.get(task_id)
        return turn is not None and turn.ending

    async def live(self, task_id: str, options: LiveOptions | None = None) -> LiveView:
        """A person's live view of the paused task's browser, held here (see
        :meth:`Holding.live`)."""
        task = self._turns.get(task_id)
        if task is not None and self._ending(task_id):
            await asyncio.wait([task])  # it has stopped; only its bookkeeping is left
        return await self._holding.live(task_id, options)

    async def offer_live(self, address: str) -> None:
        """This process serves the live views of the browsers it holds at ``address``
        (``host:port``): they go on the store's board for every server to relay to."""
        await self._holding.offer(address)

    async def why_blocked(self, task_id: str, reason: str) -> str | None:
        """Why the paused task's page held here is still blocked by the wall ``reason``
        names, in words (None when it is not, or no browser of it is held here)."""
        if not self.holds_for_person(task_id):
            return None
        return why_blocked(await self._holding.read(task_id), reason)

    async def _journal_let_go(self, owner: str, task_id: str, after_s: float) -> None:
        try:
            async with self.book.db.transaction() as tx:
                await self.book.write(tx, owner, task_id, LetGo(after_s=after_s))
        except StoreError as exc:
            log.warning("task %s: letting its browser go was not journaled (%s)", task_id, exc.code)

    # ------------------------------------------------------------ one turn

    async def _turn(self, claim: Claim, task_id: str) -> None:
        """Hand the claimed turn to :class:`Turn`, which runs it to its end."""
        owner = claim.owner or LOCAL_OWNER
        turn = Turn(self._parts, claim, task_id, self._artifacts.setdefault((owner, task_id), []))
        self._running[task_id] = turn
        try:
            await turn.run()
        finally:
            if turn.ending:
                self._finished.add(claim.id)
            if self._running.get(task_id) is turn:
                del self._running[task_id]
            if self._turns.get(task_id) is asyncio.current_task():
                del self._turns[task_id]
