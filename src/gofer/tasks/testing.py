"""The scripted fake of the runner seam (:class:`gofer.tasks.seams.FlowRunner`),
apart from the seam as httpx keeps its mock transport apart: :class:`ScriptedRunner`
runs every flow from a script written in advance, for tests and for the worked
examples ``describe`` returns; :func:`complete`, :func:`gate`, :func:`fail`,
:func:`spent` and :func:`hang` write its entries.
"""

from __future__ import annotations

import asyncio
import inspect
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeAlias

from gofer.flow.steps import Browse, JSONValue
from gofer.runtime.types import (
    Failure,
    Gate,
    Masker,
    RunRequest,
    RunResult,
    RunStatus,
    Spend,
    StepOutcome,
    StepReport,
    WorkspaceOptions,
)
from gofer.safety import human_wall
from gofer.surfaces.live import LiveOptions, LiveView
from gofer.surfaces.screen import Screen
from gofer.surfaces.testing import FakeSurface

__all__ = [
    "ScriptEntry",
    "ScriptedRunner",
    "complete",
    "fail",
    "gate",
    "hang",
    "spent",
]


ScriptFn: TypeAlias = Callable[[RunRequest], "RunResult | Awaitable[RunResult]"]
ScriptEntry: TypeAlias = "RunResult | ScriptFn | BaseException"
"""One scripted run: a result, a function of the request making one, or an error to raise."""

PNG_STUB = b"\x89PNG\r\n\x1a\n" + b"scripted"


@dataclass(slots=True)
class ScriptedRunner:
    """A :class:`FlowRunner` whose runs are scripted, in order, for every task alike.

    Each ``run`` takes the next entry of ``script``; when the script is used up,
    every run completes all its steps (see :func:`complete`). Every request is
    recorded in ``requests`` as ``(task_id, request)``.
    """

    script: deque[ScriptEntry] = field(default_factory=deque)
    surfaces: dict[str, str | None] = field(
        default_factory=lambda: {"browser": None, "desktop": None}
    )
    shot: bytes | None = PNG_STUB
    requests: list[tuple[str, RunRequest]] = field(default_factory=list)
    options: dict[str, WorkspaceOptions] = field(default_factory=dict)
    open: set[str] = field(default_factory=set)
    released: list[str] = field(default_factory=list)
    cancelled: list[str] = field(default_factory=list)
    started: asyncio.Event = field(default_factory=asyncio.Event)
    prepared: list[str] = field(default_factory=list)
    preloaded: list[tuple[str, str]] = field(default_factory=list)
    pages: dict[str, str] = field(default_factory=dict)
    faces: dict[str, FakeSurface] = field(default_factory=dict)
    endpoints: frozenset[str] | None = None
    """The browser endpoints tasks may attach to (None: any)."""
    """The fake page each task's live view shows (made on first :meth:`live`; set one
    to show a screen of a test's own)."""

    @classmethod
    def of(cls, *entries: ScriptEntry, **kwargs: object) -> ScriptedRunner:
        """A runner with ``entries`` as its script."""
        runner = cls(**kwargs)  # type: ignore[arg-type]
        runner.add(*entries)
        return runner

    def add(self, *entries: ScriptEntry) -> None:
        """Append runs to the script."""
        self.script.extend(entries)

    async def run(self, task_id: str, request: RunRequest, options: WorkspaceOptions) -> RunResult:
        """Record the request and play the next scripted run on the task's workspace."""
        self.requests.append((task_id, request))
        self.options[task_id] = options
        self.open.add(task_id)
        self.started.set()
        entry: ScriptEntry = self.script.popleft() if self.script else complete()
        try:
            if isinstance(entry, BaseException):
                raise entry
            if isinstance(entry, RunResult):
                result = entry
            else:
                made = entry(request)
                result = await made if inspect.isawaitable(made) else made
        except asyncio.CancelledError:
            self.cancelled.append(task_id)
            raise
        self._note_page(task_id, request, result)
        return result

    def _note_page(self, task_id: str, request: RunRequest, result: RunResult) -> None:
        """The page a scripted run leaves: its gate's, else the last address it loaded."""
        if result.gate is not None and result.gate.url:
            self.pages[task_id] = result.gate.url
            return
        loaded = [
            step.url
            for step in request.flow.steps[: max(result.top_level_done, 1)]
            if isinstance(step, Browse)
        ]
        if loaded:
            self.pages[task_id] = loaded[-1]

    async def prepare(self, task_id: str, options: WorkspaceOptions) -> None:
        """Record that the task's workspace was readied."""
        self.prepared.append(task_id)
        self.options[task_id] = options
        self.open.add(task_id)

    async def open_page(self, task_id: str, options: WorkspaceOptions, address: str) -> None:
        """Record the page loaded ahead of a run."""
        self.preloaded.append((task_id, address))
        self.pages[task_id] = address
        self.open.add(task_id)

    def holds(self, task_id: str) -> bool:
        """Whether the task's workspace is open."""
        return task_id in self.open

    async def address(self, task_id: str) -> str | None:
        """``pages[task_id]`` while the task's workspace is open (set it in a script)."""
        return self.pages.get(task_id) if task_id in self.open else None

    async def screen(self, task_id: str) -> Screen | None:
        """The fake page of the task's live view (``faces``) while its workspace is open."""
        face = self.faces.get(task_id)
        if task_id not in self.open or face is None or face.closed:
            return None
        return await face.snapshot()

    async def screenshot(self, task_id: str, mask: Masker | None = None) -> bytes | None:
        """The stub PNG while the task has a workspace."""
        return self.shot if task_id in self.open else None

    async def live(self, task_id: str, options: LiveOptions | None = None) -> LiveView | None:
        """A live view of the task's fake page (``faces``) while its workspace is open."""
        if task_id not in self.open:
            return None
        face = self.faces.get(task_id)
        if face is None or face.closed:
            page = self.pages.get(task_id, "about:blank")
            face = self.faces[task_id] = FakeSurface(Screen(page, "", (), ()))
        return await face.live(options)

    async def release(self, task_id: str) -> None:
        """Close the task's workspace (records it once per open workspace)."""
        if task_id in self.open:
            self.open.discard(task_id)
            self.released.append(task_id)
        face = self.faces.pop(task_id, None)
        if face is not None:
            await face.close()

    def available_surfaces(self) -> dict[str, str | None]:
        """The surfaces given at construction."""
        return dict(self.surfaces)

    def endpoint_allowed(self, endpoint: str) -> bool:
        """Whether ``endpoint`` is in ``endpoints`` (None, the default: any)."""
        return self.endpoints is None or endpoint in self.endpoints


# ---------------------------------------------------------------- script helpers


def _reports(request: RunRequest, upto: int, last: StepOutcome | None = None) -> list[StepReport]:
    reports = [
        StepReport(
            path=str(i),
            kind=step.KIND,
            outcome=StepOutcome.DONE,
            intent=step.intent or "",
            actions=1,
        )
        for i, step in enumerate(request.flow.steps[:upto])
    ]
    if last is not None and upto < len(request.flow.steps):
        step = request.flow.steps[upto]
        reports.append(
            StepReport(path=str(upto), kind=step.KIND, outcome=last, intent=step.intent or "")
        )
    return reports


def complete(
    changed: Mapping[str, JSONValue] | None = None,
    *,
    actions: int | None = None,
    model_calls: int = 0,
    screen_text: str = "",
) -> ScriptFn:
    """A run that finishes every step, setting ``changed`` (one action per step by default)."""

    def make(request: RunRequest) -> RunResult:
        n = len(request.flow.steps)
        values = {**request.variables, **(changed or {})}
        return RunResult(
            status=RunStatus.COMPLETED,
            steps=_reports(request, n),
            variables=dict(values),
            changed=dict(changed or {}),
            top_level_done=n,
            screen_text=screen_text,
            spend=Spend(actions=n if actions is None else actions, model_calls=model_calls),
        )

    return make


def gate(
    path: str,
    label: str,
    consequence: str = "irreversible",
    *,
    payment_screen: bool = False,
    changed: Mapping[str, JSONValue] | None = None,
    actions: int | None = None,
    url: str = "",
) -> ScriptFn:
    """A run that stops in front of a control at the ``stop_before`` at ``path``."""

    def make(request: RunRequest) -> RunResult:
        top = int(path.split(".")[0])
        step = request.flow.steps[top]
        action = getattr(step, "action", "") or label
        if "." in path:
            action = label
        return RunResult(
            status=RunStatus.GATED,
            steps=_reports(request, top, StepOutcome.GATED),
            gate=Gate(
                path=path,
                action=action,
                label=label,
                consequence=consequence,
                payment_screen=payment_screen,
                url=url,
            ),
            changed=dict(changed or {}),
            top_level_done=top,
            spend=Spend(actions=top if actions is None else actions),
        )

    return make


def fail(
    path: str,
    reason: str,
    *,
    screen_text: str = "",
    actions: int | None = None,
    changed: Mapping[str, JSONValue] | None = None,
) -> ScriptFn:
    """A run whose step at ``path`` fails with ``reason``, showing ``screen_text`` (all
    of it in the way, as a page that is only that text would be: its wall counts)."""

    def make(request: RunRequest) -> RunResult:
        top = int(path.split(".")[0])
        kind = request.flow.steps[top].KIND if top < len(request.flow.steps) else "step"
        return RunResult(
            status=RunStatus.FAILED,
            steps=_reports(request, top, StepOutcome.FAILED),
            failure=Failure(path=path, kind=kind, reason=reason),
            changed=dict(changed or {}),
            top_level_done=top,
            screen_text=screen_text,
            wall=human_wall(screen_text),
            spend=Spend(actions=top if actions is None else actions),
        )

    return make


def spent(
    actions: int, model_calls: int = 0, reason: str = "the action budget ran out"
) -> ScriptFn:
    """A run that stops because its budget ran out, after ``actions``."""

    def make(request: RunRequest) -> RunResult:
        return RunResult(
            status=RunStatus.BUDGET_SPENT,
            reason=reason,
            spend=Spend(actions=actions, model_calls=model_calls),
        )

    return make


def hang(started: asyncio.Event | None = None) -> ScriptFn:
    """A run that never ends by itself (until cancelled); sets ``started`` when it begins."""

    async def make(request: RunRequest) -> RunResult:
        if started is not None:
            started.set()
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    return make
