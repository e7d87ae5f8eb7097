"""Holding a paused task's browser for a person, and their live view of it.

A task that stops to wait for its caller keeps its browser in the process whose
worker ran it for ``hold_s`` (HOLD_FOR_PERSON_S) after the last time anything acted
on it, a person's input in its live view included; then a supervised timer
(``gofer-hold-<task>``) lets it go. A turn that starts takes the browser back: it
closes every live view of the task first. :class:`Holding` keeps that state for the
worker (:mod:`gofer.tasks.worker`), which alone calls it.

:class:`HeldView` wraps the surface's :class:`~gofer.surfaces.LiveView`: every input
the person sends restarts the task's hold on its browser (so a browser is never let
go under a person still working in it), and closing the view tells the worker it is
gone. It also keeps what the person does as flow steps (a
:class:`~gofer.runtime.takeover.Recorder`, one per held browser): the page is read
before each click and each Enter, so the click is named as the grounder names the
element under the pointer and the values typed since are known; the turn that takes
the browser back takes what they did (:meth:`Holding.take_back`), and
:func:`hand_back` counts it for the task. The values read stay in this process's
memory, as they are in the browser's page.

A person's hand-back is counted here (:func:`hand_back`): what they did is kept in
the task's report as flow steps, the flow's next steps their actions already did are
marked done by them (a control is never pressed twice), and when the step to run next
is a click whose control is gone from a page that has moved on, the person is asked
what happened instead of the step failing. It reads the task's cell and returns what
the turn is to write. :func:`why_blocked` answers "I've done it" while the wall is
still there.

The faces take the live view's types from here (they import nothing of
:mod:`gofer.surfaces`).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from types import TracebackType

from gofer.decide.gates import wall_on
from gofer.errors import GoferError
from gofer.flow.describe import describe_step
from gofer.flow.parse import step_to_json
from gofer.flow.walk import step_number
from gofer.runtime.takeover import Handback, Recorder, done_by_person, element_at
from gofer.safety.walls import LOGIN_WALL
from gofer.store.transaction import Transaction
from gofer.surfaces.live import (
    MAX_TEXT_CHARS,
    KeyInput,
    LiveDialog,
    LiveFrame,
    LiveOptions,
    LiveView,
    Modifiers,
    PointerInput,
)
from gofer.surfaces.screen import Screen
from gofer.tasks.cell import Cell, Segment
from gofer.tasks.contract import NeedsHuman, PersonStepInfo, StepReportInfo
from gofer.tasks.errors import live_unavailable
from gofer.tasks.held_board import Board
from gofer.tasks.outcome import Outcome, segment_from
from gofer.tasks.seams import FlowRunner

__all__ = [
    "BY_PERSON",
    "MAX_TEXT_CHARS",
    "READ_TIMEOUT_S",
    "Counted",
    "Focus",
    "HeldView",
    "Holding",
    "KeyInput",
    "LiveDialog",
    "LiveFrame",
    "LiveOptions",
    "LiveView",
    "Modifiers",
    "PointerInput",
    "hand_back",
    "why_blocked",
]

log = logging.getLogger("gofer.tasks")

READ_TIMEOUT_S = 2.0
"""The longest a reading of the page may hold a person's click back; a slower one is
skipped (that click is not kept)."""


@dataclass(frozen=True, slots=True)
class Focus:
    """The page's focused field, as the live view's typing box needs it: its label, and
    whether what is typed there is hidden (a password field)."""

    field: str
    hidden: bool


class HeldView:
    """``view`` with ``touch`` called on each input and ``closed(self)`` once it closes."""

    def __init__(
        self,
        view: LiveView,
        *,
        touch: Callable[[], None],
        closed: Callable[[HeldView], None],
        read: Callable[[], Awaitable[Screen | None]] | None = None,
        recorder: Recorder | None = None,
    ) -> None:
        self._view = view
        self._touch = touch
        self._closed = closed
        self._read = read
        self._recorder = recorder if recorder is not None else Recorder()

    @property
    def closed(self) -> bool:
        """Whether the view is closed."""
        return self._view.closed

    @property
    def size(self) -> tuple[int, int]:
        """The page's viewport in CSS pixels, as of the latest frame."""
        return self._view.size

    @property
    def url(self) -> str:
        """The address of the page the view shows."""
        return self._view.url

    def frames(self) -> AsyncIterator[LiveFrame | LiveDialog]:
        """The page's pictures, and its dialogs, until the view closes."""
        return self._view.frames()

    async def _reading(self) -> Screen | None:
        if self._read is None:
            return None
        try:
            async with asyncio.timeout(READ_TIMEOUT_S):
                return await self._read()
        except (TimeoutError, GoferError) as exc:
            log.info("the page was not read for the take-over's record (%s)", type(exc).__name__)
            return None

    async def look(self, x: float | None = None, y: float | None = None) -> Screen | None:
        """Read the page for the record: before a click at ``(x, y)``, else as it is."""
        screen = await self._reading()
        if screen is not None:
            clicked = element_at(screen, x, y) if x is not None and y is not None else None
            self._recorder.look(screen, clicked)
        return screen

    async def focused(self) -> Focus | None:
        """The page's focused field (None when no field has focus)."""
        screen = await self.look()
        if screen is None:
            return None
        el = next((e for e in screen.elements if e.focused), None)
        if el is None or not (el.editable or el.role in ("textbox", "searchbox", "combobox")):
            return None
        return Focus(el.display_name, el.input_type == "password")

    async def answer(self, accept: bool, text: str = "") -> None:
        """Answer the page's open dialog."""
        self._touch()
        await self._view.answer(accept, text)

    async def pointer(self, event: PointerInput) -> None:
        """Send a mouse event to the page (a left press is recorded first)."""
        self._touch()
        if event.action == "down" and event.button == "left":
            await self.look(event.x, event.y)
        await self._view.pointer(event)

    async def key(self, event: KeyInput) -> None:
        """Send a key to the page (the page is read before an Enter: it may submit)."""
        self._touch()
        if event.action == "down" and event.key == "Enter":
            await self.look()
        await self._view.key(event)

    async def text(self, text: str) -> None:
        """Type ``text`` into the page at once."""
        self._touch()
        await self._view.text(text)

    async def close(self) -> None:
        """Close the view (idempotent)."""
        self._closed(self)
        await self._view.close()

    async def __aenter__(self) -> HeldView:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()


class Holding:
    """The browsers this process holds for paused tasks, their hold timers and the live
    views open on them (see the module).

    ``busy(task_id)`` says whether a turn of the task runs here (its browser is then
    the turn's, not a person's); ``let_go(owner, task_id, after_s)`` journals that a
    hold ran out; ``supervise`` watches each timer task. ``board`` announces each hold
    to the other processes on the store (:mod:`gofer.tasks.held_board`).
    """

    def __init__(
        self,
        runner: FlowRunner,
        hold_s: float,
        *,
        busy: Callable[[str], bool],
        let_go: Callable[[str, str, float], Awaitable[None]],
        supervise: Callable[[asyncio.Task[None]], None],
        board: Board | None = None,
    ) -> None:
        self._runner = runner
        self._board = board
        self._hold_s = hold_s
        self._busy = busy
        self._let_go = let_go
        self._supervise = supervise
        self._held: set[str] = set()
        self.holding: dict[str, tuple[asyncio.Task[None], asyncio.Event]] = {}
        """The timer letting each paused task's browser go, and the event that restarts it."""
        self.lives: dict[str, set[HeldView]] = {}
        """The live views open on each task's browser."""
        self._records: dict[str, Recorder] = {}
        self._holds: dict[str, str] = {}
        """Each held browser's hold id (a new one each time a turn keeps it)."""

    def holds(self, task_id: str) -> bool:
        """Whether this process holds the task's browser after its turn ended."""
        return task_id in self._held

    def hold_of(self, task_id: str) -> str | None:
        """The id of the task's hold here now (None when its browser is not held)."""
        return self._holds.get(task_id)

    def held(self) -> list[str]:
        """The tasks whose browsers this process holds."""
        return sorted(self._held)

    async def announce(self, task_id: str, tx: Transaction) -> str:
        """A new hold of the task's browser, put on the board in ``tx`` (the turn's end),
        for :meth:`keep` once that is written."""
        hold = uuid.uuid4().hex
        if self._board is not None:
            await self._board.announce(task_id, hold, tx)
        return hold

    def keep(self, owner: str, task_id: str, hold: str | None = None) -> None:
        """The task's turn ended with its browser open: hold it for a person (``hold``:
        the hold :meth:`announce` put on the board, else a new one)."""
        self._held.add(task_id)
        self._records.pop(task_id, None)
        self.unhold(task_id)
        touched = asyncio.Event()
        hold = self._holds[task_id] = hold or uuid.uuid4().hex
        timer = asyncio.create_task(
            self._let_go_when_idle(owner, task_id, hold, touched), name=f"gofer-hold-{task_id}"
        )
        self._supervise(timer)
        self.holding[task_id] = (timer, touched)

    def forget(self, task_id: str) -> None:
        """The task's browser is gone (its turn released it)."""
        self._held.discard(task_id)
        self._records.pop(task_id, None)

    async def read(self, task_id: str) -> Screen | None:
        """The held browser's page, read (None when it cannot be, in time)."""
        try:
            async with asyncio.timeout(READ_TIMEOUT_S * 2):
                return await self._runner.screen(task_id)
        except (TimeoutError, GoferError):
            return None

    def unhold(self, task_id: str) -> asyncio.Task[None] | None:
        """Stop the task's hold timer (its browser is taken back or let go); the timer
        cancelled, when it is not the caller."""
        hold = self.holding.pop(task_id, None)
        if hold is not None and hold[0] is not asyncio.current_task():
            hold[0].cancel()
            return hold[0]
        return None

    def touch(self, task_id: str) -> None:
        """Something acted on the paused task's browser: its hold starts over."""
        hold = self.holding.get(task_id)
        if hold is not None:
            hold[1].set()

    async def take_back(self, task_id: str, *, record: bool = True) -> Recorder | None:
        """A turn of the task starts: stop its hold (and take it off the board), close
        every live view of it, and take what a person did in its browser since its last
        turn ended (the page read once more as they left it), or None when no one acted
        (or ``record`` is False: the browser goes, and what they did with it); the next
        hold starts a new record."""
        timer = self.unhold(task_id)
        if timer is not None:
            await asyncio.wait([timer])
        hold = self._holds.pop(task_id, None)
        if hold is not None and self._board is not None:
            await self._board.drop(task_id, hold)
        await self.close_lives(task_id)
        if not record:
            return None
        recorder = self._records.pop(task_id, None)
        if recorder is None or (not recorder.acted and recorder.last is None):
            return None
        screen = await self.read(task_id)
        if screen is not None:
            recorder.look(screen)
        return recorder if recorder.acted else None

    async def offer(self, address: str) -> None:
        """This process serves live views at ``address`` from now: every hold is put
        on the board, those it has now included."""
        if self._board is not None:
            await self._board.offer(address, dict(self._holds))

    async def close(self) -> None:
        """This process holds nothing more: its holds come off the board."""
        if self._board is not None:
            await self._board.drop_all()

    async def release(self, task_id: str) -> None:
        """Close the task's workspace here (and its live views)."""
        self._held.discard(task_id)
        self._records.pop(task_id, None)
        await self.take_back(task_id, record=False)
        await self._runner.release(task_id)

    async def live(self, task_id: str, options: LiveOptions | None = None) -> LiveView:
        """A person's live view of the held browser; its input restarts the hold, and it
        ends the view opened before it. LIVE_UNAVAILABLE when no browser of the task is
        held here or a turn of it runs."""
        if self._busy(task_id) or task_id not in self._held:
            raise live_unavailable(task_id)
        view = await self._runner.live(task_id, options)
        if view is None:
            raise live_unavailable(task_id)
        if self._busy(task_id) or task_id not in self._held:
            # A turn took the browser back while the view opened.
            await view.close()
            raise live_unavailable(task_id)
        # One person at a time: a newer view (another tab) ends the one before.
        await self.close_lives(task_id)
        views = self.lives.setdefault(task_id, set())
        held = HeldView(
            view,
            touch=lambda: self.touch(task_id),
            closed=views.discard,
            read=lambda: self._runner.screen(task_id),
            recorder=self._records.setdefault(task_id, Recorder()),
        )
        views.add(held)
        self.touch(task_id)
        if held._recorder.last is None:
            await held.look()
        return held

    async def close_lives(self, task_id: str) -> None:
        """Close every live view of the task (the task or its end takes the browser)."""
        for view in list(self.lives.pop(task_id, ())):
            await view.close()

    async def _let_go_when_idle(
        self, owner: str, task_id: str, hold: str, touched: asyncio.Event
    ) -> None:
        hold_s = self._hold_s
        if self._board is not None and not self._board.announced(hold):
            await self._board.put(task_id, hold)
        while True:
            try:
                async with asyncio.timeout(hold_s):
                    await touched.wait()
            except TimeoutError:
                break
            touched.clear()
            if self._board is not None:
                await self._board.touched(task_id, hold)
        if self.holding.get(task_id, (None,))[0] is not asyncio.current_task():
            return
        del self.holding[task_id]
        if self._busy(task_id) or task_id not in self._held:
            return
        log.info(
            "task %s: let its browser go after %.0f s with nothing acting on it", task_id, hold_s
        )
        await self.release(task_id)
        await self._let_go(owner, task_id, hold_s)


BY_PERSON = "done_by_person"
"""The outcome of a step the task's person did themselves in the live view."""


def why_blocked(screen: Screen | None, reason: str) -> str | None:
    """Why the task is still blocked on ``screen`` (in words) by the wall its pause's
    ``reason`` names, or None when that wall is gone (or the page could not be read)."""
    if screen is None:
        return None
    wall = wall_on(screen)
    if wall is None or not reason.startswith(wall):
        return None
    if wall == LOGIN_WALL:
        return "It is still blocked: the sign-in form is still showing."
    return f"It is still blocked: {wall} is still showing."


@dataclass(frozen=True, slots=True)
class Counted:
    """What a person did in the task's browser, as the task counts it: the steps they
    did (``person``), the flow's steps their actions already did (``steps``, done by
    them), how far the flow got, the segments to run now, and ``asking`` when the task
    must ask them what happened (None: it goes on)."""

    person: list[PersonStepInfo]
    steps: list[StepReportInfo]
    finished_top: int
    pending: list[Segment]
    asking: Outcome | None = None


def hand_back(cell: Cell, recorder: Recorder, now: Screen | None) -> Counted:
    """Count what the person did (see the module): the task's pending steps start where
    they left off, or it asks them what happened."""
    facts = cell.facts
    values = facts.as_dict()
    seg = cell.pending[0] if cell.pending else None
    found = Handback(0)
    if seg is not None and not seg.press and cell.flow is not None:
        variables = {
            **{k: v for k, v in cell.flow.vars.items() if isinstance(v, str)},
            **{k: v for k, v in cell.variables.items() if isinstance(v, str)},
            **values,
        }
        found = done_by_person(recorder, seg.steps, variables, now)
    person = []
    for done in recorder.steps(values, frozenset(facts.secret_names)):
        step = facts.mask_json(step_to_json(done.step))
        person.append(
            PersonStepInfo(
                step=step if isinstance(step, dict) else {},
                url=facts.mask(done.url),
                secret=done.secret,
                words=facts.redact(facts.mask(describe_step(done.step))),
                before=None if seg is None else seg.base,
                did=found.done,
            )
        )
    if seg is None or seg.press or cell.flow is None:
        return Counted(person, [], cell.finished_top, list(cell.pending))
    steps = [
        StepReportInfo(
            run=cell.spending.runs,
            path=str(seg.base + i),
            kind=seg.steps[i].KIND,
            outcome=BY_PERSON,
            intent=facts.redact(facts.mask(describe_step(seg.steps[i]))),
        )
        for i in range(found.done)
    ]
    rest = seg.steps[found.done :]
    finished_top = max(cell.finished_top, seg.base + found.done)
    if not found.moved_on:
        pending = [*segment_from(seg, found.done), *cell.pending[1:]]
        return Counted(person, steps, finished_top, pending)
    gone = rest[0]
    at = str(seg.base + found.done)
    pending = [*segment_from(seg, found.done + 1), *cell.pending[1:]]
    words = facts.redact(facts.mask(describe_step(gone)))
    later = (
        f"the task goes on from step {step_number(str(seg.base + found.done + 1))}"
        if len(rest) > 1 or len(pending) > 0
        else "the task ends there"
    )
    reason = (
        f"the page has moved on since you took over, and step {step_number(at)} "
        f"({words}) is not on it. If you did it yourself, say you have done it and "
        f"{later}; if not, do it in the task's browser first"
    )
    asking = Outcome(NeedsHuman(reason=reason), at=at, pending=list(pending))
    return Counted(person, steps, finished_top, pending, asking)
