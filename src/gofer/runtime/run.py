"""``run_flow``: run one flow, step by step, on a workspace.

The runtime grounds each step on a fresh screen (``decide.ground``), acts through
the browser surface, waits for the page to settle, and checks that the action
took. A model decider, when one is given, is asked only where the grounder's
evidence is thin, for ``do`` steps and for conditions in words. The runtime knows
nothing of the task around a run: it gets a :class:`RunRequest` and returns a
:class:`RunResult`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from urllib.parse import urlsplit

from gofer.decide import (
    label_of,
    shows_date,
    wall_on,
)
from gofer.errors import BlockedOrigin, GoferError, SurfaceError, SurfaceTimeout
from gofer.flow import (
    Browse,
    Choose,
    Click,
    Do,
    Download,
    Enter,
    If,
    JSONValue,
    Open,
    Press,
    Read,
    RepeatUntil,
    SavePdf,
    Step,
    StopBefore,
    Upload,
    Verify,
    Wait,
    describe_condition,
    describe_step,
    substitute,
)
from gofer.runtime import actions, guards, transfer
from gofer.runtime.codes import CodeTyping
from gofer.runtime.context import SOCKETS_QUIET_MS, RangeStart, RuntimeSettings
from gofer.runtime.grounding import Grounds
from gofer.runtime.held import check_held
from gofer.runtime.ledger import Ledger
from gofer.runtime.reads import Reads
from gofer.runtime.signals import BudgetSpent, Gated, StepFailed, StepFinished
from gofer.runtime.types import (
    ChosenElement,
    Failure,
    GroundingHint,
    ModelDecider,
    RunRequest,
    RunResult,
    RunStatus,
    Spend,
    StepOutcome,
    StepReport,
    TaskFile,
    TraceEvent,
)
from gofer.runtime.workspace import Workspace
from gofer.surfaces import ActionEffect, Surface
from gofer.surfaces.addresses import blocked_address, top_level_refusal
from gofer.surfaces.screen import Element, Screen

log = logging.getLogger("gofer.runtime")

__all__ = ["RuntimeSettings", "run_flow"]


async def run_flow(
    request: RunRequest,
    workspace: Workspace,
    *,
    settings: RuntimeSettings | None = None,
    decider: ModelDecider | None = None,
) -> RunResult:
    """Run ``request.flow`` on ``workspace`` and report how it went."""
    run = Run(request, workspace, settings or RuntimeSettings(), decider)
    return await run.execute()


_SUBMIT_KEYS = frozenset({"enter", "numpadenter"})


"""How long a page's sockets stay quiet once its server has answered the last action."""


class Run(Grounds, Reads):
    """One run of one flow: the state it keeps and the steps it takes.

    ``execute`` runs the flow's steps in order; each step is reported, timed and
    charged against the budget (``step``), then matched to what does it
    (``dispatch``): the acting steps (``runtime.actions``) see the run only through
    :class:`~gofer.runtime.context.StepContext`, which this class is. The screen is
    read once and kept until an action or a wait may have changed it. A run stops at
    the first step that fails, at a gate before a control that pays or cannot be
    undone, or when its budget is spent, and reports what it did up to there.
    """

    def __init__(
        self,
        request: RunRequest,
        workspace: Workspace,
        settings: RuntimeSettings,
        decider: ModelDecider | None,
    ) -> None:
        self.request = request
        self.workspace = workspace
        self.settings = settings
        self.decider = decider
        self.start_vars: dict[str, JSONValue] = {**request.flow.vars, **request.variables}
        self.variables: dict[str, JSONValue] = dict(self.start_vars)
        self.spend = Spend()
        self.reports: list[StepReport] = []
        self.trace: list[TraceEvent] = []
        self.learned: list[GroundingHint] = []
        self.hints: list[GroundingHint] = list(request.hints)
        self.described: dict[str, str] = {}  # step path -> the step in words (masked)
        self.seconds_per_call: float | None = None  # how long a model call took last
        self.ranges: list[RangeStart] = []
        self.ledger = Ledger()
        self.files: dict[str, TaskFile] = dict(request.files)
        self.file_limits = request.file_limits
        self.kept: list[TaskFile] = []
        self._screen: Screen | None = None
        self._browser: Surface | None = None
        self._surfaces: dict[str, Surface] = {}
        # which surface the steps act on: the desktop after an `open`, the browser after a
        # `browse`, or what a step's `surface` names
        self._side = "browser" if "browser" in workspace.surfaces else "desktop"
        self._preloaded: str | None = None
        self._t0 = time.perf_counter()
        self._masker: Callable[[str], str] = request.mask or (lambda s: s)
        self.codes = CodeTyping(request.codes)

    def mask(self, text: str) -> str:
        """``text`` with every secret value, and every one-time code typed, as ``${name}``."""
        return self.codes.mask(self._masker(text))

    # ------------------------------------------------------------ bookkeeping

    @property
    def allow_destructive(self) -> bool:
        """Whether the caller allowed controls that pay or cannot be undone."""
        return self.request.allow_destructive

    def _ms(self) -> float:
        return round((time.perf_counter() - self._t0) * 1000, 1)

    def event(self, path: str, event: str, **detail: JSONValue) -> None:
        """Add an event to the trace, its text masked."""
        clean: dict[str, JSONValue] = {
            k: self.mask(v) if isinstance(v, str) else v for k, v in detail.items()
        }
        self.trace.append(TraceEvent(self._ms(), path, event, clean))

    def sub(self, text: str) -> str:
        """Fill ``${name}`` in target words (secrets never reach here: validation)."""
        try:
            return substitute(text, self.variables)
        except GoferError as exc:
            raise StepFailed(exc.message) from exc

    async def typed(self, path: str, text: str) -> str:
        """An ``enter`` value with ``${name}`` filled in, one-time codes included."""
        codes = await self.codes.codes_for(
            text, lambda name, s: self.event(path, "code_wait", name=name, seconds=s)
        )
        if not codes:
            return self.sub(text)
        try:
            return substitute(text, {**self.variables, **codes})
        except GoferError as exc:
            raise StepFailed(exc.message) from exc

    async def browser(self) -> Surface:
        """The surface the steps act on now (the browser, or the desktop after an
        ``open``), opened on first use; one that cannot open fails the step."""
        surface = self._surfaces.get(self._side)
        if surface is None:
            try:
                if self._side == "desktop":
                    surface = await self.workspace.desktop()
                else:
                    surface = await self.workspace.browser()
            except SurfaceError as exc:
                raise StepFailed(exc.message) from exc
            self._surfaces[self._side] = surface
        self._browser = surface
        return surface

    def turn_to(self, side: str) -> None:
        """Act on ``side`` (``browser`` or ``desktop``) from now on."""
        if side != self._side:
            self._side = side
            self._browser = self._surfaces.get(side)
            self.invalidate()

    async def screen(self) -> Screen:
        """The screen as the page shows it, secrets and all: what the grounder, the
        readers and the guards judge. Masking is for what leaves the run (reasons,
        reports, trace events, hints, model requests), applied where it leaves, so a
        secret that happens to occur inside a label ("US" in "Username") does not
        hide the label from the grounder."""
        if self._screen is None:
            browser = await self.browser()
            self._screen = await browser.snapshot()
        return self._screen

    def invalidate(self) -> None:
        """Forget the screen read last: the page may have changed since."""
        self._screen = None

    async def act(
        self, path: str, what: str, action: Callable[[], Awaitable[ActionEffect]]
    ) -> ActionEffect:
        """Spend one action on ``action`` (the surface settles the page before it returns)."""
        limit = self.request.budget.max_actions
        if limit is not None and self.spend.actions >= limit:
            raise BudgetSpent(f"the run used all {limit} actions it was given (max_actions)")
        self.spend.actions += 1
        self.event(path, "action", what=what)
        browser = await self.browser()
        pages_before = browser.pages
        try:
            effect = await action()
        except BlockedOrigin as exc:
            url = exc.details.get("url", "")
            raise StepFailed(f"blocked by the task's origins: {url}") from exc
        except SurfaceError as exc:
            # A page that closes itself on the click (window.close) takes the click's
            # own bookkeeping with it; the surface is back on the page before.
            if not 0 < browser.pages < pages_before:
                if isinstance(exc, SurfaceTimeout):
                    # The browser's words for a timeout ("Locator.click: Timeout
                    # 10000ms exceeded") tell a person nothing: say what did not happen.
                    raise StepFailed(
                        f"could not {what}: the page did not let it happen in time (the "
                        "control stayed hidden, disabled, moving or covered)"
                    ) from exc
                raise StepFailed(exc.message) from exc
            self.event(path, "page_closed")
            effect = ActionEffect(new_page=True)
            await browser.settle(self.settings.settle_timeout_ms)
        finally:
            self.invalidate()
        if effect.navigated or effect.new_page:
            self.ledger.clear()
        if browser.blocked:
            blocked = browser.blocked[-1]
            if not effect.navigated and urlsplit(browser.url).netloc != urlsplit(blocked).netloc:
                self.event(path, "blocked", url=blocked)
        return effect

    async def wait_change(self, deadline: float) -> bool:
        """Wait until the page changes or ``deadline`` (``perf_counter``) passes; whether
        it changed."""
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            return False
        browser = await self.browser()
        changed = await browser.wait_for_change(int(remaining * 1000))
        self.invalidate()
        return changed

    # ------------------------------------------------------------ the run

    async def execute(self) -> RunResult:
        """Run every step of the flow and report how the run ended."""
        result = RunResult(status=RunStatus.COMPLETED)
        self._preloaded = self.workspace.take_preloaded()
        try:
            for i, step in enumerate(self.request.flow.steps):
                await self.step(str(i), step)
                result.top_level_done = i + 1
            await self._ranges_left()
            await self._answered()
            await self._ledger_at_end()
        except StepFailed as exc:
            result.status = RunStatus.FAILED
            result.failure = Failure(exc.path, exc.kind, exc.reason)
            await self._capture_screen_text(result)
        except Gated as gated:
            result.status = RunStatus.GATED
            result.gate = gated.gate
            await self._capture_screen_text(result)
        except BudgetSpent as spent:
            result.status = RunStatus.BUDGET_SPENT
            result.reason = spent.reason
        result.steps = self.reports
        result.variables = dict(self.variables)
        result.changed = {
            k: v
            for k, v in self.variables.items()
            if self.start_vars.get(k, None) != v or k not in self.start_vars
        }
        result.trace = self.trace
        result.hints = self.learned
        result.spend = self.spend
        result.kept = self.kept
        return result

    async def _ranges_left(self) -> None:
        """A range start no later pick ended: its step fails unless its field shows it."""
        for start in self.ranges:
            browser = await self.browser()
            try:
                shown = await browser.read_value(start.ref)
            except SurfaceError:
                continue
            if shows_date(shown, start.day, start.hint):
                continue
            reason = self.mask(
                f"picked {start.day:%d %B %Y} as the start of a range for '{start.label}', "
                f"but no end was picked and the field shows '{shown}'"
            )
            raise self._failed_earlier(start.path, reason, "choose")

    def _failed_earlier(self, path: str, reason: str, kind: str) -> StepFailed:
        """The failure of the earlier step at ``path``, its report marked failed."""
        for report in self.reports:
            if report.path == path:
                report.outcome, report.reason = StepOutcome.FAILED, reason
        failed = StepFailed(reason)
        failed.path = path
        failed.kind = next((r.kind for r in self.reports if r.path == path), kind)
        return failed

    async def check_ledger(self, path: str, before: str, *, leave: bool = True) -> None:
        """:func:`gofer.runtime.held.check_held`."""
        await check_held(self, path, before, leave=leave)

    async def _answered(self) -> None:
        """A run ends once the page has answered its last action: an app whose server
        runs a click and answers over a socket (Streamlit's) is still working after the
        settle, and a page closed then loses what it was doing."""
        if self._browser is not None:
            await self._browser.answered(SOCKETS_QUIET_MS, self.settings.settle_timeout_ms)

    async def _ledger_at_end(self) -> None:
        """A field the run typed into that lost its value by the end fails the step
        that typed it: the run did not leave the page holding what was asked."""
        if self._browser is None:
            return
        lost = await self.ledger.lost(self._browser)
        if lost is None:
            return
        entry = lost.entry
        reason = self.mask(
            f"'{entry.label}' no longer holds '{entry.value}' at the end of the run; it "
            f"shows '{lost.shown}' (a later step or the page changed it)"
        )
        raise self._failed_earlier(entry.path, reason, "enter")

    async def _capture_screen_text(self, result: RunResult) -> None:
        if self._browser is None:
            return
        self.invalidate()
        try:
            screen = await self.screen()
            # A large screen's masking takes its time: off the event loop, which the
            # server's other requests share.
            result.screen_text = await asyncio.to_thread(self.mask, screen.text)
            result.wall = wall_on(screen)
        except (SurfaceError, StepFailed) as exc:
            log.info("could not read the screen after the run stopped: %s", self.mask(str(exc)))

    async def steps(self, prefix: str, steps: Sequence[Step]) -> None:
        """Run the inner steps of a step at ``prefix`` (a branch, a loop's body)."""
        for i, step in enumerate(steps):
            await self.step(f"{prefix}.{i}", step)

    async def step(self, path: str, step: Step) -> None:
        """Run one step and report it: outcome, reason, element, time and what it spent.
        A step that fails (unless optional) or stops at a gate ends the run."""
        report = StepReport(
            path=path,
            kind=step.KIND,
            outcome=StepOutcome.DONE,
            intent=self.mask(describe_step(step)),
        )
        self.reports.append(report)
        self.described[path] = report.intent
        started = time.perf_counter()
        actions_before = self.spend.actions
        calls_before = self.spend.model_calls
        self.event(path, "step", kind=step.KIND)
        if self.request.on_step is not None:
            self.request.on_step(path)
        if step.surface is not None:
            self.turn_to(step.surface)
        elif isinstance(step, Open):
            self.turn_to("desktop")
        elif isinstance(step, Browse):
            self.turn_to("browser")
        try:
            done = await self._dispatch(path, step)
        except StepFailed as exc:
            report.reason = self.mask(exc.reason)
            if exc.element is not None:
                report.element = self._chosen(exc.element)
            if step.optional:
                report.outcome = StepOutcome.SKIPPED
                self.event(path, "skipped", reason=exc.reason)
                return
            report.outcome = StepOutcome.FAILED
            self.event(path, "failed", reason=exc.reason)
            if not exc.path:  # this step failed itself, not one of its inner steps
                exc.path, exc.kind = path, step.KIND
            exc.reason = report.reason
            raise
        except Gated as gated:
            report.outcome = StepOutcome.GATED
            if gated.element is not None:
                report.element = self._chosen(gated.element)
            report.reason = f"stopped before '{gated.gate.label}' ({gated.gate.consequence})"
            self.event(
                path,
                "gated",
                label=gated.gate.label,
                consequence=gated.gate.consequence,
                url=gated.gate.url,
            )
            raise
        finally:
            report.duration_ms = round((time.perf_counter() - started) * 1000, 1)
            report.actions = self.spend.actions - actions_before
            report.model_calls = self.spend.model_calls - calls_before
        report.outcome = done.outcome
        report.reason = self.mask(done.reason) if done.reason else None
        report.confidence = done.confidence
        if done.element is not None:
            report.element = self._chosen(done.element)
        self.event(path, "end", outcome=done.outcome.value)

    def _chosen(self, el: Element) -> ChosenElement:
        """The element a report names, its label masked."""
        return ChosenElement(el.role, self.mask(label_of(el)))

    async def _dispatch(self, path: str, step: Step) -> StepFinished:
        """Run the step; a surface that fails under it (a page that cannot be read, a
        session gone) fails the step, so the run reports what it did up to there."""
        try:
            return await self.dispatch(path, step)
        except SurfaceError as exc:
            raise StepFailed(exc.message) from exc

    async def dispatch(self, path: str, step: Step) -> StepFinished:
        """Do what ``step`` says, by its kind."""
        match step:
            case Browse():
                return await self._browse(path, step)
            case Open(app=app):
                name = self.sub(app)
                desktop = await self.browser()
                opener = getattr(desktop, "open", None)
                if opener is None:
                    raise StepFailed(f"cannot open '{name}': no desktop surface is available")
                await self.act(path, f"open {name}", lambda: opener(name))
                return StepFinished()
            case Click():
                return await actions.click(self, path, step)
            case Enter():
                return await actions.enter(self, path, step)
            case Choose():
                return await actions.choose(self, path, step)
            case Press(key=key):
                browser = await self.browser()
                if key.casefold() in _SUBMIT_KEYS:
                    await self.guard_submit(path, await self.screen(), key)
                await self.act(path, f"press {key}", lambda: browser.press(key))
                return StepFinished()
            case Verify(condition=cond):
                if await self.holds(cond, path):
                    return StepFinished()
                raise StepFailed(f"expected {describe_condition(cond)}, but it does not hold")
            case Wait():
                return await self._wait(path, step)
            case Read():
                return await self.read(path, step)
            case Upload():
                return await transfer.upload(self, path, step)
            case Download():
                return await transfer.download(self, path, step)
            case SavePdf():
                return await transfer.save_pdf(self, path, step)
            case StopBefore():
                return await actions.stop_before(self, path, step)
            case If():
                return await self._branch(path, step)
            case RepeatUntil():
                return await self._repeat(path, step)
            case Do(instruction=text):
                if self.decider is None:
                    raise StepFailed(
                        f"'{text}' needs a model decider, and none is configured; "
                        "write it as click, enter or choose steps instead"
                    )
                return await actions.do(self, path, step)
        raise StepFailed(f"unknown step kind {step.KIND}")

    async def _browse(self, path: str, step: Browse) -> StepFinished:
        address = self.sub(step.url)
        refused = top_level_refusal(address)
        if refused is not None:  # a ${name} may hold any address: judged filled in
            raise StepFailed(blocked_address(address, refused).message)
        preloaded, self._preloaded = self._preloaded, None
        browser = await self.browser()
        if path == "0" and preloaded == address and browser.url:
            self.event(path, "preloaded", url=address)
            return StepFinished(reason="the page was loaded while the task was planned")
        await self.act(path, f"go to {address}", lambda: browser.goto(address))
        return StepFinished()

    async def _wait(self, path: str, step: Wait) -> StepFinished:
        cond = step.condition
        limit = (step.timeout_ms or self.settings.wait_timeout_ms) / 1000
        deadline = time.perf_counter() + limit
        while not await self.holds(cond, path):
            if not await self.wait_change(deadline):
                if await self.holds(cond, path):
                    break
                raise StepFailed(
                    f"waited {int(limit * 1000)} ms but {describe_condition(cond)} never held"
                )
        return StepFinished()

    async def _branch(self, path: str, step: If) -> StepFinished:
        if await self.holds(step.condition, path):
            await self.steps(f"{path}.then", step.then)
            return StepFinished(reason="the condition held")
        if step.else_:
            await self.steps(f"{path}.else", step.else_)
            return StepFinished(reason="the condition did not hold")
        return StepFinished(StepOutcome.SKIPPED, reason="the condition did not hold")

    async def _repeat(self, path: str, step: RepeatUntil) -> StepFinished:
        cond, rounds = step.condition, step.max
        for n in range(rounds):
            if await self.holds(cond, path):
                outcome = StepOutcome.ALREADY_DONE if n == 0 else StepOutcome.DONE
                return StepFinished(outcome, reason=f"held after {n} rounds")
            await self.steps(f"{path}.do", step.do)
        if await self.holds(cond, path):
            return StepFinished(reason=f"held after {rounds} rounds")
        raise StepFailed(f"{describe_condition(cond)} still did not hold after {rounds} rounds")

    async def guard_submit(self, path: str, screen: Screen, key: str) -> None:
        """A key that submits a card form pays (:func:`gofer.runtime.guards.guard_submit`)."""
        await guards.guard_submit(self.request, self.mask, path, screen, key)

    async def guard(self, path: str, element: Element, screen: Screen, words: str) -> None:
        """Stop before a control that pays or cannot be undone, unless allowed
        (:func:`gofer.runtime.guards.guard`)."""
        await guards.guard(self.request, self.mask, path, element, screen, words)
