"""A task handed back by its person: what they did counts.

The turn that takes a task's browser back from a person reads what they did there
(:meth:`gofer.tasks.holding.Holding.take_record`). :func:`hand_back` keeps it in the
task's report as flow steps, marks the flow's next steps their actions already did
as done by them (they are not run again: a control is never pressed twice), and,
when the step to run next is a click whose control is gone from a page that has
moved on, asks the person what happened instead of failing on it.

:func:`still_blocked` answers "I've done it" while the wall is still there: the
page is read, and a wall still on it is said in words at once.
"""

from __future__ import annotations

from gofer.decide.gates import wall_on
from gofer.flow.describe import describe_step
from gofer.flow.parse import step_to_json
from gofer.flow.walk import step_number
from gofer.runtime.takeover import Handback, Recorder, done_by_person
from gofer.safety.walls import LOGIN_WALL
from gofer.surfaces.screen import Screen
from gofer.tasks.cell import Cell, Segment
from gofer.tasks.contract import NeedsHuman, PersonStepInfo, StepReportInfo
from gofer.tasks.interpret import Outcome

__all__ = ["BY_PERSON", "hand_back", "step_number", "still_blocked"]

BY_PERSON = "done_by_person"
"""The outcome of a step the task's person did themselves in the live view."""


def still_blocked(screen: Screen | None, reason: str) -> str | None:
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


def hand_back(cell: Cell, recorder: Recorder, now: Screen | None) -> Outcome | None:
    """Count what the person did (see the module); an outcome when the task must ask
    them what happened, else None (its pending steps start where they left off)."""
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
    for done in recorder.steps(values, frozenset(facts.secret_names)):
        step = facts.mask_json(step_to_json(done.step))
        cell.person.append(
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
        return None
    for i in range(found.done):
        step = seg.steps[i]
        cell.steps.append(
            StepReportInfo(
                run=cell.ledger.runs,
                path=str(seg.base + i),
                kind=step.KIND,
                outcome=BY_PERSON,
                intent=facts.redact(facts.mask(describe_step(step))),
            )
        )
    rest = seg.steps[found.done :]
    cell.finished_top = max(cell.finished_top, seg.base + found.done)
    if not found.moved_on:
        cell.pending[0:1] = [_from(seg, found.done)] if rest else []
        return None
    gone = rest[0]
    at = str(seg.base + found.done)
    cell.pending[0:1] = [_from(seg, found.done + 1)] if len(rest) > 1 else []
    words = facts.redact(facts.mask(describe_step(gone)))
    later = (
        f"the task goes on from step {step_number(str(seg.base + found.done + 1))}"
        if len(rest) > 1 or len(cell.pending) > 0
        else "the task ends there"
    )
    reason = (
        f"the page has moved on since you took over, and step {step_number(at)} "
        f"({words}) is not on it. If you did it yourself, say you have done it and "
        f"{later}; if not, do it in the task's browser first"
    )
    return Outcome(NeedsHuman(reason=reason), at=at, pending=list(cell.pending))


def _from(seg: Segment, top: int) -> Segment:
    return Segment(seg.steps[top:], seg.base + top, seg.allow_destructive)
