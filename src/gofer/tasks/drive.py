"""Running a task's flow in the background, one run per segment, and stopping it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal, Protocol

from pydantic import JsonValue

from gofer.errors import GoferError, InvalidRequest
from gofer.facts.otp import code_sources
from gofer.flow.steps import Click, Enter, Flow, Press, Step, StopBefore
from gofer.flow.walk import step_at
from gofer.models import CallMeter
from gofer.runtime.types import Gate, RunRequest, RunResult
from gofer.shape import schema_violations
from gofer.tasks.cell import Artifact, Cell, Segment
from gofer.tasks.codes import past_code_wall
from gofer.tasks.contract import (
    Done,
    Failed,
    Running,
    Status,
    StepReportInfo,
    TraceInfo,
)
from gofer.tasks.interpret import Outcome, budget_failure, interpret
from gofer.tasks.limits import ARTIFACT_TTL_S
from gofer.tasks.publish import answer_for, progress_summary, view_of
from gofer.tasks.recovery import RESCUING, rescuable, rescue, settle_outcome
from gofer.tasks.runner import FlowRunner
from gofer.tasks.seams import Rescuer, ShapeBrief, Shaper

__all__ = ["Driver"]

log = logging.getLogger("gofer.tasks")


class Presses(Protocol):
    """The press journal of the turn a drive runs in: an approved, irreversible press
    is journaled before it happens and after (:class:`gofer.tasks.events.Press`)."""

    async def before(self, path: str) -> Literal["press", "pressed", "unsure"]:
        """Journal that the control at ``path`` is about to be pressed (``press``), or
        say this turn's earlier run already journaled it: ``pressed`` (it was) or
        ``unsure`` (the run was cut short while pressing)."""
        ...

    async def after(self, path: str) -> None:
        """Journal that the control at ``path`` was pressed."""
        ...


PRESS_UNSURE = (
    "the run was cut short while pressing the approved control, so it may have been "
    "pressed already; it is not pressed a second time"
)


@dataclass(slots=True)
class Driver:
    """Runs tasks' segments on the runner and publishes where they stop."""

    runner: FlowRunner
    shaper: Shaper | None
    clock: Callable[[], float]
    rescuer: Rescuer | None = None

    async def drive(self, cell: Cell, presses: Presses | None = None) -> None:
        """Run ``cell``'s pending segments until the task stops, then publish the stop;
        an approved press is journaled through ``presses`` and never pressed twice."""
        while cell.pending:
            seg = cell.pending[0]
            at = seg.gate.path if seg.gate is not None else str(seg.base)
            exhausted = cell.ledger.exhausted()
            if exhausted is not None:
                await self.stop(
                    cell,
                    budget_failure(exhausted, "the task used up its budget before this step", at),
                )
                return
            self.publish_running(cell)
            if seg.gate is not None and presses is not None:
                verdict = await presses.before(seg.gate.path)
                if verdict == "pressed":
                    cell.pending.pop(0)
                    continue
                if verdict == "unsure":
                    failed = Failed(
                        step=seg.gate.path,
                        reason=PRESS_UNSURE,
                        hint="look at the page, then continue_task to press it again",
                        recoverable=True,
                    )
                    # Kept pending: going on (the caller's choice) presses it again.
                    await self.stop(
                        cell, Outcome(failed, at=seg.gate.path, pending=list(cell.pending))
                    )
                    return
            result = await self._run(cell, seg)
            if seg.gate is not None and presses is not None and isinstance(result, RunResult):
                await presses.after(seg.gate.path)
            if isinstance(result, Outcome):
                settle_outcome(cell, seg, None)
                await self.stop(cell, result)
                return
            self._absorb(cell, seg, result)
            settle_outcome(cell, seg, result)
            decision = interpret(
                result, seg, cell.pending[1:], cell.constraints, cell.ledger, progress_summary(cell)
            )
            typed = past_code_wall(cell, result, decision)
            if typed is not None:
                cell.pending = typed
                continue
            if (
                decision.status is not None
                and self.rescuer is not None
                and rescuable(cell, seg, decision)
            ):
                cell.publish(view_of(cell, Running(), decision.at, RESCUING))
                rescued = await rescue(self.rescuer, cell, result, decision)
                if isinstance(rescued, list):
                    cell.pending = rescued
                    continue
                decision = rescued
            if decision.status is not None:
                await self.stop(cell, decision)
                return
            cell.pending.pop(0)
        await self.stop(cell, await self._finish(cell))

    async def _run(self, cell: Cell, seg: Segment) -> RunResult | Outcome:
        assert cell.flow is not None
        steps = (_approved(cell.flow, seg.gate),) if seg.gate is not None else seg.steps
        at = seg.gate.path if seg.gate is not None else str(seg.base)
        on = [at]  # the step the run is on, for a run cut short
        values = cell.facts.as_dict()
        codes = code_sources(values, cell.facts.secret_names)
        request = RunRequest(
            flow=Flow(steps=steps, vars=cell.flow.vars),
            # An authenticator's seed stays out of the run: it types the seed's codes.
            variables={
                **cell.flow.vars,
                **cell.variables,
                **{k: v for k, v in values.items() if k not in codes},
            },
            codes=codes,
            approved=seg.gate,
            private=frozenset(cell.facts.secret_names),
            mask=cell.facts.mask,
            allow_destructive=seg.allow_destructive,
            budget=cell.ledger.for_run(),
            hints=tuple(cell.hints),
            on_step=None if seg.press else lambda path: self._progress(cell, seg, path, on),
        )
        loop = asyncio.get_running_loop()
        started = loop.time()
        cell.has_workspace = True
        log.info("task %s: run %d from step %s", cell.id, cell.ledger.runs + 1, at)
        scope = asyncio.timeout(None)
        try:
            async with scope:
                left = cell.ledger.time_left_s()
                if left is not None:
                    scope.reschedule(loop.time() + left)
                return await self.runner.run(cell.id, request, cell.options)
        except TimeoutError:
            if not scope.expired():
                raise
            return budget_failure("max_elapsed_ms", "the task ran out of time", on[0])
        except GoferError as exc:
            reason = cell.facts.mask(exc.message)
            log.warning("task %s: the runner refused the run (%s)", cell.id, exc.code)
            return Outcome(
                Failed(
                    step=at, reason=reason, hint=f"the runner raised {exc.code}", recoverable=False
                ),
                at=at,
                release=True,
            )
        finally:
            cell.ledger.add_time((loop.time() - started) * 1000.0)

    def _progress(self, cell: Cell, seg: Segment, path: str, on: list[str]) -> None:
        """A step started: note it in ``on``; a top-level one is published as running."""
        on[0] = seg.absolute(path)
        if "." in path:
            return
        cell.finished_top = max(cell.finished_top, seg.base + int(path))
        cell.publish(view_of(cell, Running(), seg.absolute(path)))

    def _absorb(self, cell: Cell, seg: Segment, result: RunResult) -> None:
        """Add the run's steps, trace, hints, spend and reads to the task."""
        facts = cell.facts
        run = cell.ledger.runs
        cell.ledger.charge(result.spend)
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

    async def _finish(self, cell: Cell) -> Outcome:
        """Every step finished: the answer, shaped if the caller asked for a shape."""
        total = len(cell.flow.steps) if cell.flow else 0
        cell.finished_top = total
        answer = answer_for(total, cell.records, cell.facts)
        redacted = cell.facts.redact_json(cell.records)
        records: dict[str, JsonValue] = redacted if isinstance(redacted, dict) else {}
        if cell.output is None or self.shaper is None:
            return Outcome(Done(answer=answer, records=records), release=True)
        brief = ShapeBrief(
            goal=cell.goal or "",
            instructions=cell.output.instructions,
            schema=cell.output.json_schema,
            records=records,
        )
        meter = CallMeter(cell.ledger.model_calls_left())
        try:
            result = await self.shaper.shape(brief, meter)
        except GoferError as exc:
            return _shape_failed(exc.message)
        finally:
            cell.ledger.charge_model_calls(meter.used)
        if cell.output.json_schema is not None:
            wrong = schema_violations(result, cell.output.json_schema)
            if wrong:
                return _shape_failed("; ".join(str(v) for v in wrong[:5]))
        return Outcome(Done(answer=answer, records=records, result=result), release=True)

    async def stop(self, cell: Cell, decision: Outcome) -> None:
        """Stop the task: screenshot, release if final, then publish the status."""
        assert decision.status is not None
        cell.pending = list(decision.pending)
        cell.approval = decision.approval
        await self.settle(cell, decision.release)
        self.publish_stop(cell, decision.status, decision.at)

    def publish_running(self, cell: Cell) -> None:
        """Publish that the task is running, on the first step of its next segment."""
        if not cell.pending:
            cell.publish(view_of(cell, Running(), None))
            return
        seg = cell.pending[0]
        at = seg.gate.path if seg.gate is not None else str(seg.base)
        note = "Pressing the approved control." if seg.press else ""
        cell.publish(view_of(cell, Running(), at, note))

    def publish_stop(self, cell: Cell, status: Status, at: str | None) -> None:
        """Publish a stopped status and log it (state and step only, never words)."""
        cell.publish(view_of(cell, status, at))
        log.info("task %s: %s at step %s", cell.id, status.state, at)

    async def settle(self, cell: Cell, release: bool) -> None:
        """Take the stopped run's screenshot, then release the workspace if ``release``."""
        if not cell.has_workspace:
            return
        await self.screenshot(cell)
        if release:
            await self.runner.release(cell.id)
            cell.has_workspace = False

    async def screenshot(self, cell: Cell) -> None:
        """Keep a best-effort screenshot of the workspace as an artifact."""
        try:
            shot = await self.runner.screenshot(cell.id)
        except (GoferError, OSError) as exc:
            log.warning("task %s: no screenshot (%s)", cell.id, type(exc).__name__)
            return
        if shot is None:
            return
        now = self.clock()
        cell.artifacts.append(
            Artifact(
                name=f"{cell.id}-screenshot-{len(cell.artifacts) + 1}",
                data=shot,
                run=cell.ledger.runs,
                taken_at=now,
                expires_at=now + ARTIFACT_TTL_S,
            )
        )


def _approved(flow: Flow, gate: Gate) -> Step:
    """The one step that presses an approved control: the step that stopped in front of
    it, run again (a click keeps its ``within``, an Enter its field), else the key or a
    ``stop_before`` with the gate's words."""
    try:
        step = step_at(flow, gate.path)
    except InvalidRequest:
        step = None
    if isinstance(step, Click | Enter | Press | StopBefore):
        return replace(step, optional=False)
    return Press(key=gate.key) if gate.key else StopBefore(action=gate.action)


def _shape_failed(reason: str) -> Outcome:
    return Outcome(
        Failed(
            step=None,
            reason=f"the result did not take the asked shape: {reason}",
            hint="read the records in task_report, or loosen the output schema",
            recoverable=False,
        ),
        release=True,
    )
